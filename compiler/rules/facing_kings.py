"""`no facing kings`: the two royal pieces may not stand on one file with nothing
between them (xiangqi's flying general).

Engine: a move that leaves them facing is refused (ROYALS_FACING), in
templates/rules/facing_kings.j2.  Oracle: tests/oracle/interpreter.py,
`Interpreter.kings_face`.
"""

from dataclasses import dataclass

from ..nodes import Node

ORDER = 10

GRAMMAR = '''
// no facing kings: the royal pieces may not stand on one file with nothing between
facing_decl: "no" "facing" "kings"
'''
KEYWORDS = ("no",)


@dataclass
class NoFacingKings(Node):
    @classmethod
    def from_parts(cls, parts):
        return cls()


STATEMENTS = {"facing_decl": NoFacingKings}
FIELDS = [("no_facing_kings", bool, False)]
TEMPLATE = "rules/facing_kings.j2"
REFUSALS = {"ROYALS_FACING": "the two {royal}s would face each other on an open file"}


def resolve(nodes, context):
    return {"no_facing_kings": bool(nodes)}


def lower(variant, lowerer):
    return {"on": variant.no_facing_kings}


def active(tables):
    return tables["on"]


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule (compiler/diff/rules.py gives
    the helpers)."""
    words.flag_wording("no_facing_kings", "special", "flying kings",
                       "the kings may not face each other on an open file (flying kings)",
                       "no rule against facing kings any more")
