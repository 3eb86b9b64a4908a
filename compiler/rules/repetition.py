"""`repetition N draw|loss|win [for white|black]` and `perpetual check [by one piece] | chase
loses|illegal`: what a repeated position means.

These rules look at the game's history, which the engine's search does not hold:
Position applies them (runtime/cycles.py; legal_moves filters the moves a perpetual
rule makes illegal, outcome reports the result), and the search only scores a repeated
position below its root as a draw.  Oracle: tests/oracle/interpreter.py,
`OraclePosition.repetition` and `OraclePosition.refused_by_cycle_rule`.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 50

GRAMMAR = '''
// repetition N draw|loss|win [for SIDE]: the result for the side to move, or for SIDE
repetition_decl: "repetition" INT RESULT side?

// perpetual check [by one piece] loses|illegal ; perpetual chase loses|illegal
perpetual_decl: "perpetual" PERPETUAL_KIND ONE_PIECE? PERPETUAL_FATE
ONE_PIECE.2: /by[ \\t]+one[ \\t]+piece/
PERPETUAL_KIND: "check" | "chase"
PERPETUAL_FATE: "loses" | "illegal"
'''
KEYWORDS = ("repetition", "perpetual")
TERMINAL_WORDS = {"PERPETUAL_KIND": "check or chase", "PERPETUAL_FATE": "loses or illegal",
                  "ONE_PIECE": "by one piece"}
LIMIT = 1000


@dataclass
class Repetition(Node):
    count: Any
    result: Any
    side: Any = None                        # `for white`: the result is White's, whoever moves

    @classmethod
    def from_parts(cls, parts):
        return cls(parts[0], parts[1], parts[2] if len(parts) > 2 else None)


@dataclass
class Perpetual(Node):
    kind: Any
    fate: Any
    one_piece: Any = None

    @classmethod
    def from_parts(cls, parts):
        return cls(parts[0], parts[-1], parts[1] if len(parts) > 2 else None)


STATEMENTS = {"repetition_decl": Repetition, "perpetual_decl": Perpetual}
FIELDS = [("repetition_count", int, 0),             # 0 = no repetition rule
          ("repetition_result", str, "draw"),
          ("repetition_side", object, None),        # None: for the side to move
          ("perpetual_check", object, None),        # None, "loses" or "illegal"
          ("perpetual_chase", object, None),
          ("perpetual_check_one_piece", bool, False)]  # only checks by one piece count


def resolve(nodes, context):
    repetitions = [n for n in nodes if isinstance(n, Repetition)]
    perpetuals = [n for n in nodes if isinstance(n, Perpetual)]
    fields = {}
    if repetitions:
        node = repetitions[-1]
        count = context.small_int(node.count)
        if not 2 <= count <= LIMIT:
            context.error(node, node.count, f"repetition {node.count}: the count of "
                          f"occurrences that ends the game must be between 2 and {LIMIT}")
        fields.update(repetition_count=count, repetition_result=str(node.result),
                      repetition_side=str(node.side) if node.side else None)
    perpetual = {str(n.kind): str(n.fate) for n in perpetuals}
    for kind in ("check", "chase"):
        if kind in perpetual and not repetitions:
            node = next(n for n in perpetuals if str(n.kind) == kind)
            context.error(node, node.kind, f"a perpetual {kind} rule needs a repetition "
                          "rule to say when a position counts as repeated, as in "
                          "`repetition 4 draw`")
    fields.update(perpetual_check=perpetual.get("check"),
                  perpetual_chase=perpetual.get("chase"),
                  perpetual_check_one_piece=_one_piece(perpetuals, context))
    return fields


def _one_piece(perpetuals, context):
    """`perpetual check by one piece …`: only the checks of a single piece count.
    (A chase is by one piece by definition, so the words do not apply to it.)"""
    one_piece = False
    for node in perpetuals:
        if node.one_piece is None:
            if str(node.kind) == "check":
                one_piece = False           # the last statement of a kind wins
            continue
        if str(node.kind) == "chase":
            context.error(node, node.one_piece, "`by one piece` qualifies perpetual check "
                          "only: a perpetual chase is always by one piece")
        else:
            one_piece = True
    return one_piece


def _repetition_words(count, result, side, result_words):
    if not count:
        return "no repetition rule"
    whose = f" for {side}" if side and result != "draw" else ""
    return f"{count}-fold repetition is {result_words.get(result, result)}{whose}"


def _perpetual_words(noun, fate):
    if fate is None:
        return f"no {noun} rule"
    if fate.startswith("by one piece "):
        noun, fate = f"{noun} by one piece", fate[len("by one piece "):]
    if fate == "loses":
        return f"{noun} loses"
    if fate == "illegal":
        return f"{noun} is illegal"
    return f"{noun} {fate}"


def _with_one_piece(fate, one_piece):
    """A perpetual check fate, qualified when only one piece's checks count."""
    return f"by one piece {fate}" if fate is not None and one_piece else fate


def diff_wording(words):
    """How `fairyforge diff` words a change of these rules (compiler/diff/rules.py
    gives the helpers)."""
    @words.variant_wording("repetition_count", "repetition_result", "repetition_side")
    def repetition(cmp, rep_a, rep_b):
        if (rep_a[0] or rep_b[0]) and rep_a != rep_b:
            cmp.add("game_end", words.change_kind(rep_a[0], rep_b[0]), "repetition",
                    f"{_repetition_words(*rep_a, words.RESULT_WORDS)} -> "
                    f"{_repetition_words(*rep_b, words.RESULT_WORDS)}")

    def perpetual(cmp, noun, fate_a, fate_b):
        if fate_a != fate_b:
            cmp.add("game_end", words.change_kind(fate_a is not None, fate_b is not None),
                    noun, f"{_perpetual_words(noun, fate_a)} -> {_perpetual_words(noun, fate_b)}")

    @words.variant_wording("perpetual_check", "perpetual_check_one_piece")
    def perpetual_check(cmp, rule_a, rule_b):
        perpetual(cmp, "perpetual check", _with_one_piece(*rule_a), _with_one_piece(*rule_b))

    @words.variant_wording("perpetual_chase")
    def perpetual_chase(cmp, fate_a, fate_b):
        perpetual(cmp, "perpetual chase", fate_a, fate_b)
