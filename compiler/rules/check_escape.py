"""`in check, ROYAL may only capture the checker`: a side in check may not move its
royal piece away, except to capture the one piece that gives check; it must block
the check or capture the checker with another piece (makpong, "defensive chess";
Fairy-Stockfish's makpongRule).  Against a double check the royal piece may not move
at all.

Engine (templates/rules/check_escape.j2): the why_illegal hook looks at royal moves
only: it puts the royal piece (and the piece it took) back on the board for a moment
to see whether the move began in check and whether anything but the captured piece
gave that check.  Castling never starts in check, so it is left alone.  Oracle:
pyffish's makpong (tests/test_quick_variants.py); the reference interpreter does not
implement it.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 74

GRAMMAR = '''
// in check, ROYAL may only capture the checker
check_escape_decl: "in" "check" "," NAME "may" "only" "capture" "the" "checker"
'''
KEYWORDS = ("in",)


@dataclass
class CheckEscape(Node):
    piece: Any


STATEMENTS = {"check_escape_decl": CheckEscape}
FIELDS = [("royal_stays_in_check", bool, False)]
TEMPLATE = "rules/check_escape.j2"
REFUSALS = {"ROYAL_FLEES_CHECK": "{mover}'s {royal} is in check and may only capture "
                                 "the piece that gives it"}


def resolve(nodes, context):
    """Any such statement turns the rule on; its piece must be the royal one."""
    for node in nodes:
        name = context.piece_name(node, node.piece)
        if name is not None and not context.pieces[name]["royal"]:
            context.error(node, node.piece, f"'{name}' is not royal: only the royal piece "
                          "can be in check")
    return {"royal_stays_in_check": bool(nodes)}


def lower(variant, lowerer):
    return {"on": variant.royal_stays_in_check}


def active(tables):
    return tables["on"]


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    words.flag_wording("royal_stays_in_check", "moves", "check escape",
                       "a royal piece in check may only capture the checker",
                       "a royal piece may move out of check again")
