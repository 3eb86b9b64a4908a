"""`stalemate draw|loss|win [for fewer pieces] [, stalemating illegal]`: the result
for a side with no legal move that is not in check, and whether a move that
stalemates is refused.  `for fewer pieces` (suicide chess; Fairy-Stockfish's
stalematePieceCount) counts the pieces on the board: the stalemated side gets the
result when it has fewer than the other, the opposite result with more, a draw with
as many.

Engine: the search scores a stalemate by the rule; a stalemating move is refused
(STALEMATING) by a one-ply look-ahead (templates/rules/stalemate.j2); a stalemate with
`for fewer pieces` is decided by the rule kind of results without a legal move
(compiler/rules/no_move.py), after the immediate game ends.  Oracle:
tests/oracle/interpreter.py, `OraclePosition.outcome` and `Interpreter.is_legal`;
pyffish's suicide for the count (tests/test_captures.py).
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 40

GRAMMAR = '''
// stalemate draw|loss|win [for fewer pieces] [, stalemating illegal]
stalemate_decl: "stalemate" RESULT FEWER_PIECES? ("," STALEMATING)?
STALEMATING.2: "stalemating illegal"
FEWER_PIECES.2: /for[ \t]+fewer[ \t]+pieces(?![A-Za-z0-9_])/
'''
KEYWORDS = ("stalemate",)
TERMINAL_WORDS = {"FEWER_PIECES": "for fewer pieces"}


@dataclass
class Stalemate(Node):
    result: Any
    illegal: bool = False
    fewer_pieces: bool = False

    @classmethod
    def from_parts(cls, parts):
        kinds = {getattr(part, "type", None) for part in parts[1:]}
        return cls(parts[0], "STALEMATING" in kinds, "FEWER_PIECES" in kinds)


STATEMENTS = {"stalemate_decl": Stalemate}
FIELDS = [("stalemate", str, "draw"),            # result for the stalemated side
          ("stalemating_illegal", bool, False),
          ("stalemate_piece_count", bool, False)]   # for fewer pieces
TEMPLATE = "rules/stalemate.j2"
REFUSALS = {"STALEMATING": "it would leave {other} without a legal move, and stalemating "
                           "is not allowed"}


def resolve(nodes, context):
    if not nodes:
        return {}
    return {"stalemate": str(nodes[-1].result), "stalemating_illegal": nodes[-1].illegal,
            "stalemate_piece_count": nodes[-1].fewer_pieces}


def lower(variant, lowerer):
    return {"result": variant.stalemate, "illegal": variant.stalemating_illegal}


def active(tables):
    return tables["illegal"] or tables["result"] != "draw"


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule (compiler/diff/rules.py gives
    the helpers)."""
    @words.variant_wording("stalemate")
    def stalemate(cmp, old, new):
        if old != new:
            cmp.add("game_end", "changed", "stalemate", "stalemate: being stalemated is "
                    f"{words.RESULT_WORDS.get(old, old)} -> {words.RESULT_WORDS.get(new, new)}")

    words.flag_wording("stalemating_illegal", "game_end", "stalemating",
                       "stalemating the opponent is illegal",
                       "stalemating the opponent is allowed again")
    words.flag_wording("stalemate_piece_count", "game_end", "stalemate by piece count",
                       "a stalemate goes to the side with fewer pieces",
                       "a stalemate no longer counts pieces")
