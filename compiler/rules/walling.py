"""`place a duck after every move`: after each move the mover puts the duck, a wall
square, on a square that is empty after the move, taking it from where it stood (duck
chess; Fairy-Stockfish's `wallingRule = duck`).  The duck may not stay where it is, so
it always moves; it blocks lines as a wall does (a knight jumps it), is never captured,
and FEN writes it `*`.  On the first move, when no duck stands on the board yet, any
empty square will do; every wall that stood before the move is lifted, as FSF lifts
the walls of a FEN.  A double step whose passed square gets the duck marks no en
passant square.

A move and its duck square are one move, written as Fairy-Stockfish writes it: the
move, a comma, and the move's destination with the duck's square (`e2e4,e4d5`,
`e7e8q,e8d7`, castling `e1g1,g1f3`), and counted once per duck square in perft (640
moves from chess's start).

Engine (templates/rules/walling.j2): moves are 64 bits wide (WIDE_MOVES, the duck's
square in bits 32-40, fairyforge.encoding); the extra_moves hook (the last rule to
add moves) repeats each generated move once per square that is empty after it; the after_make hook lifts the
walls and puts the duck, keeping the lifted squares in Pos.rule_hist for the unmake
hook.  Oracle: pyffish's duck (tests/test_walling.py, tests/test_fsf_catalog.py).
"""

from dataclasses import dataclass

from fairyforge import encoding

from .. import geometry
from ..nodes import Node

ORDER = 17

GRAMMAR = '''
// place a duck after every move: the mover then moves the duck (a wall) to an empty square
walling_decl: "place" "a" "duck" "after" "every" "move"
'''
KEYWORDS = ("place",)


@dataclass
class PlaceDuck(Node):
    pass


STATEMENTS = {"walling_decl": PlaceDuck}
FIELDS = [("walling", object, None)]      # None, or "duck"
TEMPLATE = "rules/walling.j2"
WIDE_MOVES = True
# Per ply: how many walls the move lifted (2 bytes), then each one's square (2 bytes).
MAX_LIFTED = encoding.MAX_FILES * encoding.MAX_RANKS
RULE_BYTES = 2 + 2 * MAX_LIFTED


def resolve(nodes, context):
    return {"walling": "duck" if nodes else None}


def lower(variant, lowerer):
    # The moves one position has before each is repeated per duck square (the bound the
    # engine would have without the duck: the stack buffer place_duck copies them to).
    base = geometry.move_list_bound(variant.files, variant.ranks, variant.pieces,
                                    len(variant.drops), len(variant.castling))
    return {"on": variant.walling is not None, "base_moves": base}


def active(tables):
    return tables["on"]


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("walling")
    def walling(cmp, old, new):
        if old != new:
            cmp.add("special", words.change_kind(old, new), "duck",
                    "a duck is placed after every move" if new else "no duck")
