"""`win by extinction of PIECES`: a side left without any piece of one of these types,
on the board or in hand, has lost (Fairy-Stockfish's extinctionValue = loss with
extinctionPieceTypes).

Engine (templates/rules/extinction.j2): the game_end hook counts the listed types of
both sides, the side that just moved first (promoting its last pawn can make that side
extinct).  An ended game has no legal moves; perft counts none there, as
Fairy-Stockfish does; the search scores it like a mate.  Position.outcome reports
Outcome(winner, "extinction").  Oracle: pyffish with the same rule
(tests/test_extinction.py); the reference interpreter does not implement it.
"""

from dataclasses import dataclass

from ..nodes import Node

ORDER = 70

GRAMMAR = '''
// win by extinction of PIECES: a side without a piece of one of these types loses
extinction_decl: "win" "by" "extinction" "of" name_list
'''
KEYWORDS = ("win",)


@dataclass
class WinByExtinction(Node):
    pieces: list


STATEMENTS = {"extinction_decl": WinByExtinction}
FIELDS = [("extinction", tuple, ())]        # names of the types that must survive
TEMPLATE = "rules/extinction.j2"
ENDS = {"EXTINCTION": "extinction"}


def resolve(nodes, context):
    names = []
    for node in nodes:
        for token in node.pieces:
            name = context.piece_name(node, token)
            if name is None or name in names:
                continue
            if context.pieces[name]["royal"]:
                context.error(node, token, f"'{name}' is royal: the game ends by checkmate "
                              "before its last one could be taken")
                continue
            names.append(name)
    return {"extinction": tuple(names)}


def lower(variant, lowerer):
    return {"types": [lowerer.type_index[name] for name in variant.extinction]}


def active(tables):
    return bool(tables["types"])


def _words(names):
    return ("a side without a " + " or a ".join(names) + " loses") if names \
        else "no extinction rule"


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule (compiler/diff/rules.py gives
    the helpers)."""
    @words.variant_wording("extinction")
    def extinction(cmp, old, new):
        old, new = tuple(old), cmp.map_b(tuple(new))
        if set(old) != set(new):
            cmp.add("game_end", words.change_kind(old, new), "extinction",
                    f"{_words(old)} -> {_words(new)}")
