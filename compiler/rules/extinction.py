"""`win by extinction of PIECES`: a side left without any piece of one of these types,
on the board or in hand, has lost (Fairy-Stockfish's extinctionValue = loss with
extinctionPieceTypes).  The other direction, `win by losing all pieces` or `win by
losing all of PIECES`: a side left with none of them (with nothing but its royal
piece, for `all pieces`) has won (FSF's extinctionValue = win: antichess, giveaway
with extinctionPieceTypes = *; losers with extinctionPieceCount = 1 besides; kamikaze
rooks with a type).

Engine (templates/rules/extinction.j2): the game_end hook counts the listed types of
both sides, the side that just moved first, the losing direction before the winning one (promoting its last pawn can make that side
extinct).  An ended game has no legal moves; perft counts none there, as
Fairy-Stockfish does; the search scores it like a mate.  Position.outcome reports
Outcome(winner, "extinction").  Oracle: pyffish with the same rule
(tests/test_extinction.py); the reference interpreter does not implement it.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 70

GRAMMAR = '''
// win by extinction of PIECES [below N]: a side without a piece of one of these types
// (with fewer than N of one) loses
extinction_decl: "win" "by" "extinction" "of" name_list ("below" INT)?
// win by extinction of all pieces: a side with no piece at all (royal or not) loses
extinction_all_decl: "win" "by" "extinction" "of" "all" "pieces"
// win by losing all pieces | win by losing all of PIECES: a side without them wins
losing_all_decl: "win" "by" "losing" "all" ("pieces" | "of" name_list)
'''
KEYWORDS = ("win",)


@dataclass
class WinByExtinction(Node):
    pieces: list
    below: Any = None                   # the INT token of `below N`: fewer than N loses


@dataclass
class WinByLosingAll(Node):
    pieces: list = None                 # None: all pieces but the royal one

    @classmethod
    def from_parts(cls, parts):
        return cls(parts[0] if parts else None)


@dataclass
class WinByExtinctionOfAll(Node):
    pass


STATEMENTS = {"extinction_decl": WinByExtinction, "losing_all_decl": WinByLosingAll,
              "extinction_all_decl": WinByExtinctionOfAll}
FIELDS = [("extinction", tuple, ()),        # names of the types that must survive
          ("extinction_below", tuple, ()),  # (name, N) where fewer than N (not 1) loses
          ("extinction_all", bool, False),  # a side with no piece at all loses
          ("extinction_wins", tuple, ())]   # names of the types whose loss wins
TEMPLATE = "rules/extinction.j2"
ENDS = {"EXTINCTION": "extinction"}


def resolve(nodes, context):
    losing = [node for node in nodes if isinstance(node, WinByExtinction)]
    winning = [node for node in nodes if isinstance(node, WinByLosingAll)]
    return {"extinction": listed_names(losing, context),
            "extinction_below": _below(losing, context),
            "extinction_wins": _winning(winning, context),
            "extinction_all": any(isinstance(node, WinByExtinctionOfAll) for node in nodes)}


def _below(nodes, context):
    """(name, N) for each type a side loses with fewer than N of, N > 1 (the last
    statement naming a type counts)."""
    counts = counts_by_name(nodes, context, "below", 1, "'below' needs a count of at "
                            "least 1 (a side with fewer than N of the pieces loses)")
    return tuple((name, n) for name, n in counts.items() if n > 1)


def counts_by_name(nodes, context, field, default, message):
    """{piece name: the count of the last statement naming it}, from each node's
    `pieces` and the INT token in `field` (`default` without one); a count below 1 is
    refused with `message`.  (Also used by promotion_limit.)"""
    counts = {}
    for node in nodes:
        token = getattr(node, field)
        count = int(token) if token is not None else default
        if count < 1:
            context.error(node, token, message)
            continue
        for piece in node.pieces:
            name = context.piece_name(node, piece)
            if name is not None:
                counts[name] = count
    return counts


def _winning(nodes, context):
    """The types a side must lose all of to win (the last statement counts)."""
    if not nodes:
        return ()
    if nodes[-1].pieces is None:
        return tuple(name for name, info in context.pieces.items() if not info["royal"])
    return listed_names(nodes[-1:], context)


ROYAL_LISTED = "is royal: the game ends by checkmate before its last one could be taken"


def listed_names(nodes, context, royal_message=ROYAL_LISTED):
    """The names the nodes' `pieces` list, once each, refusing a royal one with
    `'NAME' royal_message`.  (Also used by pseudo_royal.)"""
    names = []
    for node in nodes:
        for token in node.pieces:
            name = context.piece_name(node, token)
            if name is None or name in names:
                continue
            if context.pieces[name]["royal"]:
                context.error(node, token, f"'{name}' {royal_message}")
                continue
            names.append(name)
    return tuple(names)


def lower(variant, lowerer):
    below = dict(variant.extinction_below)
    return {"types": [lowerer.type_index[name] for name in variant.extinction],
            "below": [below.get(name, 1) for name in variant.extinction],
            "all": variant.extinction_all,
            "win_types": [lowerer.type_index[name] for name in variant.extinction_wins]}


def active(tables):
    return bool(tables["types"] or tables["win_types"] or tables["all"])


def _words(names, below=None):
    if not names:
        return "no extinction rule"
    if not below:
        return "a side without a " + " or a ".join(names) + " loses"
    return "a side with " + " or ".join(
        f"fewer than {below[name]} {name}s" if below.get(name, 1) > 1 else f"no {name}"
        for name in names) + " loses"


def _win_words(names):
    return ("a side that has lost every " + ", ".join(names) + " wins") if names \
        else "no winning extinction rule"


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule (compiler/diff/rules.py gives
    the helpers)."""
    @words.variant_wording("extinction", "extinction_below")
    def extinction(cmp, old, new):
        old_below = dict(old[1])
        new_below = {cmp.map_b((name,))[0]: n for name, n in new[1]}
        old, new = tuple(old[0]), cmp.map_b(tuple(new[0]))
        if set(old) != set(new) or old_below != new_below:
            cmp.add("game_end", words.change_kind(old, new), "extinction",
                    f"{_words(old, old_below)} -> {_words(new, new_below)}")

    @words.variant_wording("extinction_all")
    def extinction_all(cmp, old, new):
        if old != new:
            cmp.add("game_end", "added" if new else "removed", "extinction of all pieces",
                    "a side with no piece left loses" if new else "no such rule")

    @words.variant_wording("extinction_wins")
    def extinction_wins(cmp, old, new):
        old, new = tuple(old), cmp.map_b(tuple(new))
        if set(old) != set(new):
            cmp.add("game_end", words.change_kind(old, new), "losing all pieces",
                    f"{_win_words(old)} -> {_win_words(new)}")
