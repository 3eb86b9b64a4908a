"""`captures are compulsory`: a side that can capture must capture (antichess,
giveaway, losers; Fairy-Stockfish's mustCapture).  A capture counts when it is legal
by every other rule; a non-capture (a quiet move, a drop, castling) is then refused.
Only the legality of quiet moves changes: whether a side has a legal move at all does
not, so the look-ahead of other rules (`nested`) leaves the rule out.

Engine (templates/rules/compulsory_captures.j2): the why_illegal hook refuses a
non-capture (CAPTURE_REQUIRED) when the position before it has a legal capture.  That
answer is kept per position in a small table keyed by the Zobrist key, so a move list
scans for captures once, not once per quiet move.  The must_capture hook tells the
search's quiescence that a side which can capture must, so it may not stand pat there.
Oracle: pyffish's antichess,
losers and suicide, and a variants.ini configuration with mustCapture = true
(tests/test_captures.py); the reference interpreter does not implement it.
"""

from dataclasses import dataclass

from ..nodes import Node

ORDER = 73

GRAMMAR = '''
// captures are compulsory: a side that can capture must
compulsory_decl: "captures" COMPULSORY
COMPULSORY.2: "are compulsory"
'''
KEYWORDS = ("captures",)
TERMINAL_WORDS = {"COMPULSORY": "are compulsory"}


@dataclass
class CapturesCompulsory(Node):
    words: object = None


STATEMENTS = {"compulsory_decl": CapturesCompulsory}
FIELDS = [("captures_compulsory", bool, False)]
TEMPLATE = "rules/compulsory_captures.j2"
REFUSALS = {"CAPTURE_REQUIRED": "{mover} can capture, and captures are compulsory"}


def resolve(nodes, context):
    return {"captures_compulsory": bool(nodes)}


def lower(variant, lowerer):
    return {"on": variant.captures_compulsory}


def active(tables):
    return tables["on"]


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    words.flag_wording("captures_compulsory", "captures", "compulsory captures",
                       "a side that can capture must capture",
                       "captures are no longer compulsory")
