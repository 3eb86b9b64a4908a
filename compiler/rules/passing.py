"""`passing allowed [for SIDE]`: the side to move may pass instead of moving
(Fairy-Stockfish's passWhite / passBlack, janggi).  Two passes in a row end the game:
a draw, or decided on points where the game has a `points` table.

The pass is a real move: the royal piece's null move, from its square to the same
square (`e2e2`, as Fairy-Stockfish writes it in UCI and counts it in perft; SAN `Ke2`,
as Fairy-Stockfish too).  Like any move it may not leave the royal piece attacked, so a side in
check cannot pass.  A game with passing needs a royal piece.

Engine: templates/rules/passing.j2 adds the pass at the end of the pseudo-legal moves
(the `pass_moves` hook point); the core's make/unmake recognise a from == to board
move as a pass when the game has one (HAS_PASS).  The game_end hook ends the game
after two passes.  Oracle: pyffish's janggi and janggicasual (tests/test_janggi.py).
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 77

GRAMMAR = '''
// passing allowed [for white|black]: the side to move may pass (two passes end the game)
passing_decl: "passing" "allowed" pass_side?
pass_side: "for" SIDE_WORD
SIDE_WORD: "white" | "black"
'''
KEYWORDS = ("passing",)
TERMINAL_WORDS = {"SIDE_WORD": "white or black"}
TRANSFORMS = {"pass_side": lambda children: children[0]}


@dataclass
class Passing(Node):
    side: Any = None


STATEMENTS = {"passing_decl": Passing}
FIELDS = [("passing", tuple, ())]           # the sides that may pass
TEMPLATE = "rules/passing.j2"
ENDS = {"DOUBLE_PASS": "double pass"}


def resolve(nodes, context):
    sides = []
    for node in nodes:
        if not any(piece["royal"] for piece in context.pieces.values()):
            context.error(node, None, "`passing allowed` needs a royal piece: a pass is "
                          "written as the royal piece's null move (e1e1)")
            continue
        for side in ((str(node.side),) if node.side else ("white", "black")):
            if side not in sides:
                sides.append(side)
    return {"passing": tuple(s for s in ("white", "black") if s in sides)}


def lower(variant, lowerer):
    return {"sides": [("white", "black").index(s) for s in variant.passing],
            "by_points": bool(variant.points)}


def active(tables):
    return bool(tables["sides"])


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("passing")
    def passing(cmp, old, new):
        if tuple(old) != tuple(new):
            cmp.add("special", words.change_kind(old, new), "passing",
                    f"passing: {', '.join(old) or 'no side'} -> {', '.join(new) or 'no side'}")
