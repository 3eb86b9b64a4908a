"""`no checks`: a move that gives check is illegal (racing kings; Fairy-Stockfish's
checking = false).  Discovered checks count, as every check does.

Engine (templates/rules/checks.j2): the why_illegal hook refuses a move after which
the opponent's royal piece is attacked (GIVES_CHECK).  Oracle: pyffish's built-in
racingkings and a variants.ini configuration with checking = false
(tests/test_flag.py); the reference interpreter does not implement it.
"""

from dataclasses import dataclass

from ..nodes import Node

ORDER = 72

GRAMMAR = '''
// no checks: a move may not give check
checks_decl: "no" "checks"
'''
KEYWORDS = ("no",)


@dataclass
class NoChecks(Node):
    pass


STATEMENTS = {"checks_decl": NoChecks}
FIELDS = [("no_checks", bool, False)]
TEMPLATE = "rules/checks.j2"
REFUSALS = {"GIVES_CHECK": "it would give check, and checks are not allowed"}


def resolve(nodes, context):
    return {"no_checks": bool(nodes)}


def lower(variant, lowerer):
    return {"on": variant.no_checks}


def active(tables):
    return tables["on"]


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    words.flag_wording("no_checks", "game_end", "checks", "a move may not give check",
                       "moves may give check again")
