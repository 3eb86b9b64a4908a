"""The results of having no legal move, beyond checkmate losing and `stalemate RESULT`:
`checkmate draw|loss|win` gives the checkmated side's result (losers chess: it wins;
Fairy-Stockfish's checkmateValue), and `stalemate RESULT for fewer pieces` (declared
with the stalemate rule, compiler/rules/stalemate.py) decides a stalemate by the pieces
on the board (suicide chess; FSF's stalematePieceCount).

Engine (templates/rules/no_move.j2): the game_end hook, where the side to move has no
legal move, reports the result (GameEnd CHECKMATE or STALEMATE).  It runs after the
rules that end a game at once (extinction), as Fairy-Stockfish's immediate game ends
come first.  Position.outcome reports Outcome(winner, "checkmate") or "stalemate".
Oracle: pyffish's losers and suicide (tests/test_captures.py); the reference
interpreter does not implement it.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 74

GRAMMAR = '''
// checkmate draw|loss|win: the result for the checkmated side
checkmate_decl: "checkmate" RESULT
'''
KEYWORDS = ("checkmate",)


@dataclass
class Checkmate(Node):
    result: Any


STATEMENTS = {"checkmate_decl": Checkmate}
FIELDS = [("checkmate", str, "loss")]         # result for the checkmated side
TEMPLATE = "rules/no_move.j2"
ENDS = {"CHECKMATE": "checkmate", "STALEMATE": "stalemate"}

_OPPOSITE = {"win": "loss", "loss": "win", "draw": "draw"}


def resolve(nodes, context):
    if not nodes:
        return {}
    return {"checkmate": str(nodes[-1].result)}


def lower(variant, lowerer):
    counted = variant.stalemate_piece_count and variant.stalemate != "draw"
    return {"checkmate": variant.checkmate,
            # a stalemate with fewer / more pieces than the other side (None: no count)
            "fewer": variant.stalemate if counted else None,
            "more": _OPPOSITE[variant.stalemate] if counted else None}


def active(tables):
    return tables["checkmate"] != "loss" or tables["fewer"] is not None


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("checkmate")
    def checkmate(cmp, old, new):
        if old != new:
            cmp.add("game_end", "changed", "checkmate", "checkmate: being checkmated is "
                    f"{words.RESULT_WORDS.get(old, old)} -> {words.RESULT_WORDS.get(new, new)}")
