"""The wording of pieces: the pieces each game has, and what changed in a piece.

A piece that both games have (by name, or by letter when it was renamed) is compared
aspect by aspect through the PIECE_ASPECTS registry (registry.py); the aspects below
are registered in the order their words appear.  Its first-move moves and its
confinement are reported among the special rules.
"""

from dataclasses import fields

from .moves import atom_changes, moves_text
from .registry import known_piece_fields, PIECE_ASPECTS, piece_aspect, variant_wording
from .words import (canon, change_kind, field_of, piece_tokens, squareset_change,
                    squareset_text, unknown_field_changes, value_text)


@variant_wording("pieces")
def compare_pieces(cmp, pieces_a, pieces_b):
    matched_b = set()
    for name, pa in cmp.side_a.pieces.items():
        nb = name if name in cmp.side_b.pieces else next(
            (k for k, v in cmp.renamed.items() if v == name), None)
        if nb is None:
            cmp.add("pieces", "removed", name, f"{_label(pa)} is not in {cmp.b.name}",
                    describe_piece(cmp, pa, cmp.side_a))
            continue
        matched_b.add(nb)
        _compare_piece(cmp, pa, cmp.side_b.pieces[nb])
    for name, pb in cmp.side_b.pieces.items():
        if name not in matched_b:
            cmp.add("pieces", "added", name, f"{_label(pb)} is new in {cmp.b.name}",
                    describe_piece(cmp, pb, cmp.side_b))


def _label(piece):
    return f"{piece.name} ({piece.letter}, {piece.betza})"


def describe_piece(cmp, piece, side):
    """The whole description of a piece that only one game has: its moves first, then
    each aspect's words, then any field no aspect renders."""
    lines = [f"moves: {moves_text(piece.moves, side.board)}"]
    for aspect in PIECE_ASPECTS:
        if aspect.describe is not None:
            lines += aspect.describe(cmp, piece, side)
    known = known_piece_fields()
    for f in fields(piece):
        if f.name not in known and field_of(piece, f.name) not in (None, (), False):
            lines.append(f"{f.name}: {value_text(getattr(piece, f.name), side.board)}")
    return lines


def _compare_piece(cmp, pa, pb):
    """One entry for a piece both games have, naming the aspects that changed."""
    details, changed = [], []
    for aspect in PIECE_ASPECTS:
        lines = aspect.compare(cmp, pa, pb)
        if lines:
            changed.append(aspect.name)
            details += lines
    extra = unknown_field_changes(pa, pb, known_piece_fields(), "", cmp.board_a, cmp.board_b)
    if extra:
        changed.append("other fields")
        details += extra
    if changed:
        betza = pa.betza if pa.betza == pb.betza else f"{pa.betza} -> {pb.betza}"
        cmp.add("pieces", "changed", pa.name,
                f"{pa.name} ({pa.letter}, {betza}): {', '.join(changed)} changed", details)


# -- the aspects, in the order of their words -----------------------------------------------

@piece_aspect("name", "name")
def _name(cmp, pa, pb):
    return [f"renamed: {pa.name} -> {pb.name}"] if pa.name != pb.name else []


@piece_aspect("letter", "letter")
def _letter(cmp, pa, pb):
    return [f"letter: {pa.letter} -> {pb.letter}"] if pa.letter != pb.letter else []


@piece_aspect("FEN tokens", "tokens")
def _tokens(cmp, pa, pb):
    if pa.letter != pb.letter or piece_tokens(pa) == piece_tokens(pb):
        return []               # (a new letter says it all)
    ta = "/".join(t or "-" for t in piece_tokens(pa))
    tb = "/".join(t or "-" for t in piece_tokens(pb))
    return [f"FEN tokens (White/Black): {ta} -> {tb}"]


def _describe_royal(cmp, piece, side):
    return ["royal: the game is lost when it is checkmated"] if piece.royal else []


@piece_aspect("royalty", "royal", describe=_describe_royal)
def _royal(cmp, pa, pb):
    if pa.royal == pb.royal:
        return []
    return ["becomes royal" if pb.royal else "is no longer royal"]


@piece_aspect("moves", "moves", "betza")
def _moves(cmp, pa, pb):
    """The moves any time (first-move moves are a special rule, below)."""
    gained, lost = atom_changes([m for m in pa.moves if not m.initial],
                                [m for m in pb.moves if not m.initial])
    lines = []
    if gained:
        lines.append("gains: " + moves_text(gained, cmp.board_b))
    if lost:
        lines.append("loses: " + moves_text(lost, cmp.board_a))
    return lines


def _describe_first_moves(cmp, piece, side):
    if any(a.initial for a in piece.moves) and piece.initial_squares is not None:
        return [f"first moves from: {squareset_text(piece.initial_squares, side.board)}"]
    return []


FIRST_MOVE_WORDS = {"added": "now has first-move (initial) moves",
                    "removed": "no longer has first-move (initial) moves",
                    "changed": "its first-move (initial) moves changed"}


@piece_aspect("first-move moves", "initial_squares", describe=_describe_first_moves)
def _first_moves(cmp, pa, pb):
    """Reported among the special rules, as "double steps of <piece>"."""
    ia = [m for m in pa.moves if m.initial]
    ib = [m for m in pb.moves if m.initial]
    gained, lost = atom_changes(ia, ib)
    details = []
    if gained:
        details.append("gains: " + moves_text(gained, cmp.board_b))
    if lost:
        details.append("loses: " + moves_text(lost, cmp.board_a))
    if ia and ib and canon(pa.initial_squares) != canon(pb.initial_squares):
        details.append("first moves allowed from: " + squareset_change(
            pa.initial_squares, pb.initial_squares, cmp.board_a, cmp.board_b))
    if details:
        kind = change_kind(ia, ib)
        cmp.add("special", kind, f"double steps of {pa.name}",
                f"{cmp.both(pa, pb)} {FIRST_MOVE_WORDS[kind]}", details)
    return []


def _describe_confinement(cmp, piece, side):
    if piece.confined_to is None:
        return []
    return [f"confined to {squareset_text(piece.confined_to, side.board)}"]


@piece_aspect("confinement", "confined_to", describe=_describe_confinement)
def _confinement(cmp, pa, pb):
    """Reported among the special rules, as "confinement of <piece>"."""
    ca, cb = pa.confined_to, pb.confined_to
    if canon(ca) == canon(cb):
        return []
    subject, who = f"confinement of {pa.name}", cmp.both(pa, pb)
    if ca is None:
        cmp.add("special", "added", subject,
                f"{who} is confined to {squareset_text(cb, cmp.board_b)}")
    elif cb is None:
        cmp.add("special", "removed", subject,
                f"{who} is no longer confined (was {squareset_text(ca, cmp.board_a)})")
    else:
        cmp.add("special", "changed", subject,
                f"{who} confined to {squareset_change(ca, cb, cmp.board_a, cmp.board_b)}")
    return []


# Promotion fields rendered below; any other is compared generically.
PROMOTION_KNOWN = {"choices", "zone", "on_leaving", "forced"}


def promotion_text(promo, board):
    text = f"promotes to {', '.join(promo.choices)} on {squareset_text(promo.zone, board)}"
    text += " on entering or leaving" if promo.on_leaving else " on entering"
    if promo.forced is not None and (promo.forced.white or promo.forced.black):
        text += f", forced on {squareset_text(promo.forced, board)}"
    return text


def _describe_promotion(cmp, piece, side):
    return [promotion_text(piece.promotion, side.board)] if piece.promotion is not None else []


@piece_aspect("promotion", "promotion", describe=_describe_promotion)
def _promotion(cmp, pa, pb):
    """(No lines when only the name of a renamed choice differs.)"""
    a, b, ba, bb = pa.promotion, pb.promotion, cmp.board_a, cmp.board_b
    if canon(a) == canon(b):
        return []
    if a is None:
        return ["gains a promotion: " + promotion_text(b, bb)]
    if b is None:
        return ["no longer promotes (" + promotion_text(a, ba) + ")"]
    lines = []
    if set(a.choices) != set(cmp.map_b(b.choices)):
        lines.append(f"promotion choices: {', '.join(a.choices)} -> {', '.join(b.choices)}")
    if canon(a.zone) != canon(b.zone):
        lines.append(f"promotion zone: {squareset_change(a.zone, b.zone, ba, bb)}")
    if a.on_leaving != b.on_leaving:
        lines.append("promotion: " + ("on entering the zone -> on entering or leaving it"
                                      if b.on_leaving else
                                      "on entering or leaving the zone -> on entering it"))
    if canon(a.forced) != canon(b.forced):
        lines.append(f"promotion forced on: {squareset_change(a.forced, b.forced, ba, bb)}")
    return lines + unknown_field_changes(a, b, PROMOTION_KNOWN, "promotion.", ba, bb)


def _demotes_words(target):
    return f"returns to hand as a {target}" if target else "keeps its type"


def _describe_demotion(cmp, piece, side):
    if piece.demotes_to is None:
        return []
    return [f"demotes to {piece.demotes_to} when captured"]


@piece_aspect("demotion", "demotes_to", describe=_describe_demotion)
def _demotion(cmp, pa, pb):
    if pa.demotes_to == cmp.map_b(pb.demotes_to):
        return []
    return [f"demotion when captured: {_demotes_words(pa.demotes_to)} -> "
            f"{_demotes_words(pb.demotes_to)}"]


def becomes_words(target):
    """What becomes of a captured piece of a type ("default": what captures decide)."""
    if target == "default":
        return "follows the capture rule"
    if target is None:
        return "is removed from play"
    return f"goes to hand as a {target}"


def _describe_disposition(cmp, piece, side):
    if piece.name not in side.becomes:
        return []
    return [f"when captured: {becomes_words(side.becomes[piece.name])}"]


@piece_aspect("capture disposition", describe=_describe_disposition)
def _disposition(cmp, pa, pb):
    """The piece's entry in Captures.becomes (the capture rule's per-type exceptions)."""
    before = cmp.side_a.becomes.get(pa.name, "default")
    after = cmp.side_b.becomes.get(pa.name, "default")
    if before == after:
        return []
    return [f"when captured: {becomes_words(before)} -> {becomes_words(after)}"]


def _describe_value(cmp, piece, side):
    value = field_of(piece, "value")
    return [f"value {value_text(value)}"] if value is not None else []


@piece_aspect("value", "value", describe=_describe_value)
def _value(cmp, pa, pb):
    before, after = field_of(pa, "value"), field_of(pb, "value")
    if before == after:
        return []
    return [f"value: {value_text(before)} -> {value_text(after)}"]
