"""Rule kinds: each module here owns one kind of rule from the grammar to the engine.

Every module in this package is a rule kind: it is found and registered by itself
(adding a rule kind adds a module, and touches no other file).  A rule-kind module
defines ORDER and any of these names (docs/architecture.md walks one through):

    ORDER        its place among the rule kinds: the engine asks them in this order why
                 a move is illegal (the first refusal is reported), and the Refusal
                 numbers and the model's rule fields follow it

    GRAMMAR      lark rules for its statement(s); the first rule named in STATEMENTS
    STATEMENTS   {grammar rule name: node class}: the typed node each statement becomes
    FIELDS       [(name, type, default)]: the Variant fields it owns (compiler.model)
    resolve(nodes, context) -> {field: value}: its nodes (in file order, parents first)
                 resolved into its fields; errors go to context.error(node, token, msg)
    KEYWORDS     the words its statements start with (for "unknown statement" hints)
    TERMINAL_WORDS  {terminal: words} for syntax errors; TRANSFORMS {rule: function}
                 for helper grammar rules (their children -> a value)
    lower(variant, lowerer) -> {name: value}: what its template partial needs (the
                 lowered tables keep it as tables.rules[MODULE NAME])
    TEMPLATE     its jinja partial (templates/rules/NAME.j2): macros named after the
                 engine's hook points (HOOKS), called with (tables, its lowered dict),
                 render its code there
    active(lowered) -> bool: does the game use it (its partial is rendered only then)
    REFUSALS     {NAME: message}: why its engine code refuses a move; the numbers are
                 given here, in registry order, as the Refusal enum; the message is
                 formatted with mover, other, royal, piece, trigger, events
    ENDS         {NAME: reason}: the ways it ends a game (its game_end hook sets the
                 GameEnd number; Outcome.reason is the reason text)
    diff_wording(words) registers how `fairyforge diff` words a change of its fields,
                 with the helpers of compiler/diff/rules.py (flag_wording, ...)
    RULE_BYTES   bytes per ply its engine code keeps in Pos.rule_hist (explosions: what
                 a blast removed), for its unmake hook to put back; each kind's start
                 within a ply's record is the engine constant NAME_RECORD (rule_records)
    COUNTERS     "hashed" or "plain" if its engine code keeps two counters in Pos.counter
                 (n-check's checks to give, hashed; counting's limit and plies, plain):
                 the core then saves and restores them, and hashes "hashed" ones.  Two
                 rule kinds of a game may use them (karouk: checks and counting), each
                 its own pair in ORDER (NCOUNTERS); only the first pair may be hashed
    WIDE_MOVES   True if its moves carry a wall square (64-bit moves, encoding.py)
    ORACLE       where the reference interpreter (tests/oracle) implements it

The engine core (compiler/core/*.pxi) calls the hook points; a rule never edits the
core, the main template or another rule's module.
"""

import importlib
import pkgutil
from enum import IntEnum


def _discover():
    """Every module of this package, in ORDER."""
    kinds = [importlib.import_module(f"{__name__}.{info.name}")
             for info in pkgutil.iter_modules(__path__)]
    return tuple(sorted(kinds, key=lambda kind: (kind.ORDER, kind.__name__)))


REGISTRY = _discover()

# The engine's hook points: `definitions` (module-level code), then the functions of
# the generated engine's hook section, which compiler/core calls.
HOOKS = ("definitions", "after_make", "unmake", "why_illegal", "game_end", "draw",
         "no_move_score", "evaluate", "royal_attacked", "pass_moves", "check_excused",
         "extra_moves", "must_capture")

# Refusals of the core itself (compiler/core/legality.pxi).
CORE_REFUSALS = {"ROYAL_ATTACKED": "it would leave {mover}'s {royal} attacked"}


def _refusal_messages():
    messages = dict(CORE_REFUSALS)
    for kind in REGISTRY:
        messages.update(getattr(kind, "REFUSALS", {}))
    return messages


def _game_end_reasons():
    reasons = {}
    for kind in REGISTRY:
        reasons.update(getattr(kind, "ENDS", {}))
    return reasons


REFUSAL_MESSAGES = _refusal_messages()
Refusal = IntEnum("Refusal", ["LEGAL"] + list(REFUSAL_MESSAGES), start=0)
Refusal.__doc__ = "Why the engine refuses a pseudo-legal move (LEGAL: it does not)."

GAME_END_REASONS = _game_end_reasons()
GameEnd = IntEnum("GameEnd", ["NOT_ENDED"] + list(GAME_END_REASONS), start=0)
GameEnd.__doc__ = "Which rule ended a game (NOT_ENDED: none)."


def statements():
    """{grammar rule: node class} of every rule kind."""
    table = {}
    for kind in REGISTRY:
        table.update(getattr(kind, "STATEMENTS", {}))
    return table


def owner(node):
    """The rule kind whose statement `node` is, or None (a core statement)."""
    return next((kind for kind in REGISTRY
                 if type(node) in getattr(kind, "STATEMENTS", {}).values()), None)


def fields():
    """[(name, type, default)]: the Variant fields the rule kinds own, in order."""
    return [f for kind in REGISTRY for f in getattr(kind, "FIELDS", ())]


def name_of(kind):
    return kind.__name__.rsplit(".", 1)[-1]


def uses_counters(tables):
    """None, or "hashed" or "plain": how the active rule kind that keeps the engine's
    two counters wants them (HAS_COUNTERS, HASH_COUNTERS)."""
    return next((kind.COUNTERS for kind, _ in active_kinds(tables)
                 if getattr(kind, "COUNTERS", None)), None)


def counter_pairs(tables):
    """How many active rule kinds keep a pair of the engine's counters (NCOUNTERS is
    twice that): two where a game both counts checks and has a counting rule."""
    return sum(1 for kind, _ in active_kinds(tables) if getattr(kind, "COUNTERS", None))


def rule_bytes(tables):
    """Bytes per ply the active rule kinds keep in Pos.rule_hist, together (RULE_BYTES;
    0: none, and the array is not allocated)."""
    return sum(getattr(kind, "RULE_BYTES", 0) for kind, _ in active_kinds(tables))


def rule_records(tables):
    """Where each active rule kind's bytes start within a ply's RULE_BYTES, by the
    kind's name: {name: offset}.  Kinds that keep bytes side by side (explosions and a
    duck in one game) each get their own."""
    records, at = {}, 0
    for kind, _ in active_kinds(tables):
        if getattr(kind, "RULE_BYTES", 0):
            records[name_of(kind)] = at
            at += kind.RULE_BYTES
    return records


def wide_moves(tables):
    """Does an active rule kind need 64-bit moves (WIDE_MOVES: a wall square in every
    move, fairyforge.encoding)?"""
    return any(getattr(kind, "WIDE_MOVES", False) for kind, _ in active_kinds(tables))


def active_kinds(tables):
    """(kind, its lowered dict) for the rule kinds a lowered game uses, in order."""
    return [(kind, tables.rules[name_of(kind)]) for kind in REGISTRY
            if hasattr(kind, "TEMPLATE") and kind.active(tables.rules[name_of(kind)])]
