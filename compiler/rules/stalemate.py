"""`stalemate draw|loss|win [, stalemating illegal]`: the result for a side with no
legal move that is not in check, and whether a move that stalemates is refused.

Engine: the search scores a stalemate by the rule; a stalemating move is refused
(STALEMATING) by a one-ply look-ahead (templates/rules/stalemate.j2).  Oracle:
tests/oracle/interpreter.py, `OraclePosition.outcome` and `Interpreter.is_legal`.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 40

GRAMMAR = '''
// stalemate draw|loss|win [, stalemating illegal]
stalemate_decl: "stalemate" RESULT ("," STALEMATING)?
STALEMATING.2: "stalemating illegal"
'''
KEYWORDS = ("stalemate",)


@dataclass
class Stalemate(Node):
    result: Any
    illegal: bool = False

    @classmethod
    def from_parts(cls, parts):
        return cls(parts[0], len(parts) > 1)


STATEMENTS = {"stalemate_decl": Stalemate}
FIELDS = [("stalemate", str, "draw"),            # result for the stalemated side
          ("stalemating_illegal", bool, False)]
TEMPLATE = "rules/stalemate.j2"
REFUSALS = {"STALEMATING": "it would leave {other} without a legal move, and stalemating "
                           "is not allowed"}


def resolve(nodes, context):
    if not nodes:
        return {}
    return {"stalemate": str(nodes[-1].result), "stalemating_illegal": nodes[-1].illegal}


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
