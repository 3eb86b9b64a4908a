"""Rule kinds: each module here owns one kind of rule from the grammar to the engine.

A rule-kind module may define any of these names (docs/architecture.md walks one
through):

    GRAMMAR      lark rules for its statement(s); the first rule named in STATEMENTS
    STATEMENTS   {grammar rule name: node class}: the typed node each statement becomes
    FIELDS       [(name, type, default)]: the Variant fields it owns (compiler.model)
    resolve(nodes, context) -> {field: value}: its nodes (in file order, parents first)
                 resolved into its fields; errors go to context.error(node, token, msg)
    lower(variant, lowerer) -> {name: value}: what its template partial needs, added
                 to the lowered tables
    TEMPLATE     its jinja partial (templates/rules/NAME.j2): macros named after the
                 engine's hook points (HOOKS) render its code there
    active(tables) -> bool: does the game use it (its partial is rendered only then)
    REFUSALS     {NAME: message}: why its engine code refuses a move; the numbers are
                 given here, in registry order, as the Refusal enum; the message is
                 formatted with mover, other, royal, piece, trigger, events
    describe(variant) -> [str]: its rules in words, for `fairyforge diff`
    ORACLE       where the reference interpreter (tests/oracle) implements it

The engine core (compiler/core/*.pxi) calls the hook points; a rule never edits the
core, the main template or another rule's module.
"""

from enum import IntEnum

from . import drop_mate, facing_kings, move_rule, restrictions, stalemate

# Order matters twice: the engine asks the rules in this order why a move is illegal
# (the first refusal is reported), and the Refusal numbers follow it.
REGISTRY = (facing_kings, restrictions, drop_mate, stalemate, move_rule)

# The engine's hook points, in the order the generated engine defines them.
HOOKS = ("after_make", "why_illegal", "draw", "no_move_score")

# Refusals of the core itself (compiler/core/legality.pxi).
CORE_REFUSALS = {"ROYAL_ATTACKED": "it would leave {mover}'s {royal} attacked"}


def _refusal_messages():
    messages = dict(CORE_REFUSALS)
    for kind in REGISTRY:
        messages.update(getattr(kind, "REFUSALS", {}))
    return messages


REFUSAL_MESSAGES = _refusal_messages()
Refusal = IntEnum("Refusal", ["LEGAL"] + list(REFUSAL_MESSAGES), start=0)
Refusal.__doc__ = "Why the engine refuses a pseudo-legal move (LEGAL: it does not)."


def active_kinds(tables):
    """The rule kinds a lowered game uses, in registry order."""
    return [kind for kind in REGISTRY if hasattr(kind, "TEMPLATE") and kind.active(tables)]
