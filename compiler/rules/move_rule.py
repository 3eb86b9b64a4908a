"""`move rule N`: a draw after N moves by each side without a capture or a move of a
piece that only moves forward (chess's fifty-move rule).

Engine: the search scores such a position as a draw (templates/rules/move_rule.j2);
Position.outcome reports it.  Oracle: tests/oracle/interpreter.py,
`OraclePosition.outcome`.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 60

GRAMMAR = '''
// move rule N: a draw after N moves by each side without a capture or a pawn move
move_rule_decl: "move" "rule" INT
'''
KEYWORDS = ("move",)
LIMIT = 10000


@dataclass
class MoveRule(Node):
    moves: Any


STATEMENTS = {"move_rule_decl": MoveRule}
FIELDS = [("move_rule", int, 0)]
TEMPLATE = "rules/move_rule.j2"


def resolve(nodes, context):
    if not nodes:
        return {"move_rule": 0}
    node = nodes[-1]
    moves = context.small_int(node.moves)
    if not 1 <= moves <= LIMIT:
        context.error(node, node.moves, f"move rule {node.moves}: the number of moves must "
                      f"be between 1 and {LIMIT}")
    return {"move_rule": moves}


def lower(variant, lowerer):
    return {"moves": variant.move_rule}


def active(tables):
    return bool(tables["moves"])


def _words(n):
    return f"{n}-move rule" if n else "no move rule"


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule (compiler/diff/rules.py gives
    the helpers)."""
    @words.variant_wording("move_rule")
    def move_rule(cmp, old, new):
        if old != new:
            cmp.add("game_end", words.change_kind(old, new), "move rule",
                    f"{_words(old)} -> {_words(new)}")
