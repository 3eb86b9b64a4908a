"""`promotion to PIECES only while fewer than N`: a side may promote to one of these
pieces only while it has fewer than N of that piece on the board (Fairy-Stockfish's
promotionLimit; spartan chess, where Black's hoplites may promote to a king only while
Black has fewer than two).

Engine (templates/rules/promotion_limit.j2): the why_illegal hook counts the promoted
type after a promotion and refuses the move past the limit (PROMOTION_LIMIT), so the
move is not in the legal list, as in Fairy-Stockfish, which does not generate it.
Oracle: pyffish with its built-in spartan (tests/test_fsf_catalog.py) and a
variants.ini configuration (tests/test_royals.py); the reference interpreter does not
implement it.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node
from .extinction import counts_by_name

ORDER = 81

GRAMMAR = '''
// promotion to PIECES only while fewer than N: a limit on each listed type
promotion_limit_decl: "promotion" "to" name_list "only" "while" "fewer" "than" INT
'''
KEYWORDS = ("promotion",)


@dataclass
class PromotionLimit(Node):
    pieces: list
    limit: Any


STATEMENTS = {"promotion_limit_decl": PromotionLimit}
FIELDS = [("promotion_limits", tuple, ())]      # (name, N): promote to it below N only
TEMPLATE = "rules/promotion_limit.j2"
REFUSALS = {"PROMOTION_LIMIT": "{mover} may promote to a {piece} only while it has fewer "
                               "of them (promotion limit)"}


def resolve(nodes, context):
    """The last limit given for a type holds."""
    limits = counts_by_name(nodes, context, "limit", None, "a promotion limit needs a "
                            "count of at least 1 (to forbid the promotion, leave the piece "
                            "out of the choices)")
    return {"promotion_limits": tuple(limits.items())}


def lower(variant, lowerer):
    return {"limits": [(lowerer.type_index[name], n) for name, n in variant.promotion_limits]}


def active(tables):
    return bool(tables["limits"])


def _words(limits):
    return ", ".join(f"promotion to {name} only below {n}" for name, n in limits) \
        or "no promotion limit"


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("promotion_limits")
    def promotion_limits(cmp, old, new):
        old = tuple(tuple(x) for x in old)
        new = tuple((cmp.map_b((name,))[0], n) for name, n in new)
        if set(old) != set(new):
            cmp.add("pieces", words.change_kind(old, new), "promotion limit",
                    f"{_words(old)} -> {_words(new)}")
