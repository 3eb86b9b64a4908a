"""The wording of the board and of the rules: captures, drops, special rules, game end.

Each function words one rule of the Variant (registry.py: `variant_wording`); they are
registered in the order their entries appear within a group.  A rule kind's module may
later register its own wording the same way.
"""

from .registry import claim_fields, variant_wording
from .words import (canon, change_kind, generic_changes, multiset_changes, squares_text,
                    squareset_change, squareset_text, unknown_field_changes)

# Shown in the report's header, not as rules.
IDENTITY_FIELDS = ("name", "title", "parent")
claim_fields(*IDENTITY_FIELDS)

SYMMETRY_WORDS = {"mirror": "Black's side is White's with the ranks flipped (mirror)",
                  "rotate": "Black's side is White's turned half a turn (rotate)"}
RESULT_WORDS = {"draw": "a draw", "loss": "a loss", "win": "a win"}


def flag_wording(name, group, subject, when_set, when_cleared):
    """Register the wording of a yes/no rule: added when B sets it, removed when B
    clears it."""
    @variant_wording(name)
    def compare(cmp, old, new):
        if old != new:
            cmp.add(group, "added" if new else "removed", subject,
                    when_set if new else when_cleared)
    return compare


# -- board ----------------------------------------------------------------------------------

@variant_wording("files", "ranks")
def board_size(cmp, size_a, size_b):
    if size_a == size_b:
        return
    (fa, ra), (fb, rb) = size_a, size_b
    sq_a, sq_b = cmp.board_a.squares(), cmp.board_b.squares()
    details = []
    if sq_b - sq_a:
        details.append("squares added: " + squares_text(sq_b - sq_a, cmp.board_b))
    if sq_a - sq_b:
        details.append("squares removed: " + squares_text(sq_a - sq_b, cmp.board_a))
    cmp.add("board", "changed", "board",
            f"board: {fa}x{ra} -> {fb}x{rb} ({fa * ra} -> {fb * rb} squares)", details)


@variant_wording("symmetry")
def symmetry(cmp, old, new):
    if old != new:
        cmp.add("board", "changed", "symmetry",
                f"symmetry: {SYMMETRY_WORDS.get(old, old)} -> {SYMMETRY_WORDS.get(new, new)}")


# -- captures -------------------------------------------------------------------------------

# Captures fields rendered here (`becomes` is worded with each piece, pieces.py).
CAPTURES_KNOWN = {"to_hand_white", "to_hand_black", "becomes"}


def _fate(to_hand):
    return "go to the captor's hand" if to_hand else "are removed from play"


@variant_wording("captures")
def captures(cmp, ca, cb):
    wa, ba = getattr(ca, "to_hand_white", False), getattr(ca, "to_hand_black", False)
    wb, bb = getattr(cb, "to_hand_white", False), getattr(cb, "to_hand_black", False)
    if (wa, ba) != (wb, bb):
        if wa == ba and wb == bb:
            text = f"{_fate(wa)} -> {_fate(wb)}"
        else:
            text = "; ".join(f"captured by {side}: {_fate(x)} -> {_fate(y)}"
                             for side, x, y in (("White", wa, wb), ("Black", ba, bb))
                             if x != y)
        cmp.add("captures", change_kind(wa or ba, wb or bb), "captured pieces",
                "captured pieces: " + text)
    for line in unknown_field_changes(ca, cb, CAPTURES_KNOWN, "captures.",
                                      cmp.board_a, cmp.board_b):
        cmp.add("captures", "changed", "captures", line)


# -- drops ----------------------------------------------------------------------------------

# DropRule fields rendered here; any other is compared generically.
DROP_KNOWN = {"piece", "zone", "not_doubled", "not_mating"}


def _drop_text(rule, board):
    text = f"may be dropped on {squareset_text(rule.zone, board)}"
    flags = []
    if rule.not_doubled:
        flags.append("not on a file with an own unpromoted one")
    if rule.not_mating:
        flags.append("not to give checkmate")
    return text + ("; " + "; ".join(flags) if flags else "")


def _drop_changes(cmp, ra, rb):
    details = []
    if canon(ra.zone) != canon(rb.zone):
        details.append("drop zone: " + squareset_change(ra.zone, rb.zone,
                                                         cmp.board_a, cmp.board_b))
    if ra.not_doubled != rb.not_doubled:
        details.append("no doubled drops (not on a file with an own unpromoted one): "
                       + ("added" if rb.not_doubled else "removed"))
    if ra.not_mating != rb.not_mating:
        details.append("no mating drops: " + ("added" if rb.not_mating else "removed"))
    return details + unknown_field_changes(ra, rb, DROP_KNOWN, "", cmp.board_a, cmp.board_b)


@variant_wording("drops")
def drops(cmp, rules_a, rules_b):
    da = {r.piece: r for r in rules_a}
    db = {cmp.name_a(r.piece): r for r in rules_b}
    if bool(da) != bool(db):
        if db:
            cmp.add("drops", "added", "drops", "drops: pieces in hand may be dropped on an "
                    "empty square instead of a move")
        else:
            cmp.add("drops", "removed", "drops", "drops: there are no drops any more")
    for name, ra in da.items():
        rb = db.get(name)
        if rb is None:
            cmp.add("drops", "removed", name, f"{name} may no longer be dropped "
                    f"(was: {_drop_text(ra, cmp.board_a)})")
            continue
        details = _drop_changes(cmp, ra, rb)
        if details:
            cmp.add("drops", "changed", name, f"drops of {name} changed", details)
    for name, rb in db.items():
        if name not in da:
            cmp.add("drops", "added", rb.piece, f"{rb.piece} {_drop_text(rb, cmp.board_b)}")


flag_wording("dead_drops_allowed", "drops", "dead drops",
             "pieces may be dropped where they could never move again",
             "pieces may no longer be dropped where they could never move again")


# -- special rules --------------------------------------------------------------------------

def _castling_words(c):
    return (f"{c.side.capitalize()} castling: king {c.king_from} to {c.king_to}, "
            f"rook {c.rook_from} to {c.rook_to}")


def item_wording(name, group, subject, words):
    """Register the wording of a rule stated as a list of items (castlings,
    restrictions): each item only one game has is removed or added, in its words."""
    @variant_wording(name)
    def compare(cmp, items_a, items_b):
        added, removed = multiset_changes(items_a or (), items_b or ())
        for item in removed:
            cmp.add(group, "removed", subject, words(item))
        for item in added:
            cmp.add(group, "added", subject, words(item))
    return compare


item_wording("castling", "special", "castling", _castling_words)


@variant_wording("en_passant")
def en_passant(cmp, names_a, names_b):
    epa, epb = set(names_a), set(cmp.map_b(tuple(names_b)))
    for name in sorted(epa - epb):
        cmp.add("special", "removed", "en passant",
                f"{name} no longer makes and takes en passant")
    for name in sorted(epb - epa):
        cmp.add("special", "added", "en passant", f"{name} makes and takes en passant")


def _deployment_words(d):
    if d is None:
        return "no deployment phase"
    text = "every piece in hand is dropped before any move"
    last = getattr(d, "last", None)
    if last:
        text += f", the {last} last"
    return text


@variant_wording("deployment")
def deployment(cmp, da, db):
    if canon(da) == canon(db):
        return
    if da is None:
        cmp.add("special", "added", "deployment", "deployment: " + _deployment_words(db))
    elif db is None:
        cmp.add("special", "removed", "deployment",
                f"no deployment phase any more (was: {_deployment_words(da)})")
    else:
        cmp.add("special", "changed", "deployment",
                f"deployment: {_deployment_words(da)} -> {_deployment_words(db)}",
                generic_changes(da, db, "deployment", cmp.board_a, cmp.board_b))
