"""Phase 5, codegen: lowered tables -> the Cython source of one engine.

Only renders: every decision about numbering and layout was made by `lower`.  The
main template (templates/engine.pyx.j2) holds what every game generates from its
tables (constants, tables, attacks, move generation); each rule kind in use renders
its partial (templates/rules/*.j2) into the engine's hook points; the game-independent
core is hand-written Cython (compiler/core/*.pxi), which the generated source includes.
`source_files()` lists all of it for the build cache key.
"""

import struct
from importlib import resources

import jinja2

import fairyforge
from fairyforge import encoding

from . import evalparams, rules


TEMPLATE = "engine.pyx.j2"
VERSION = fairyforge.__version__      # part of the build cache key


def _package_folder(name):
    return resources.files("fairyforge.compiler").joinpath(name)


def core_folder():
    """The hand-written Cython the generated engines include (a real directory)."""
    return str(_package_folder("core"))


def source_files():
    """Every file whose text shapes a generated engine: templates and core, sorted."""
    found = []
    for folder in ("templates", "templates/rules", "core"):
        for entry in _package_folder(folder).iterdir():
            if entry.name.endswith((".j2", ".pxi")):
                found.append(entry)
    return sorted(found, key=lambda entry: (entry.parent.name, entry.name))


def _signed(offset, operator=""):
    """An offset with its sign as an operator: `+ 10`, `- 10` (or `+= 10`, `-= 10`)."""
    return f"+{operator} {offset}" if offset >= 0 else f"-{operator} {-offset}"


# Offsets are rendered as `sq - 10`, never `sq + -10`.
FILTERS = {
    "plus": _signed,                                        # sq {{ 10|plus }}  -> sq + 10
    "minus": lambda offset: _signed(-offset),               # sq {{ 10|minus }} -> sq - 10
    "plus_assign": lambda offset: _signed(offset, "="),     # to {{ 10|plus_assign }} -> to += 10
    "minus_assign": lambda offset: _signed(-offset, "="),
    # A macro's lines placed at an indentation (its trailing newline dropped, so
    # that nesting macros leaves no blank lines behind).
    "block": lambda text, width: jinja2.filters.do_indent(str(text).rstrip("\n"), width),
}


def _environment(tables):
    loader = jinja2.PackageLoader("fairyforge.compiler", "templates")
    env = jinja2.Environment(loader=loader, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
                             autoescape=False)

    def piece_name(code):
        colour = "white" if encoding.code_colour(code) == 0 else "black"
        return f"{colour} {tables.pieces[encoding.code_type(code)]['name']}"

    env.filters.update(FILTERS)
    env.filters["piece_name"] = piece_name
    env.filters["type_name"] = lambda t: tables.pieces[t]["name"]
    return env


def bytes_literal(row):
    return repr(bytes(row))


def int16_literal(row):
    """A bytes literal holding signed 16-bit values, little-endian (compiles to one C
    string instead of a Python list of numbers)."""
    return repr(struct.pack(f"<{len(row)}h", *row))


def render_hooks(env, tables):
    """The code each hook point receives: the active rule kinds' macros, in order."""
    parts = {hook: [] for hook in rules.HOOKS}
    for kind, lowered in rules.active_kinds(tables):
        partial = env.get_template(kind.TEMPLATE).module
        for hook in rules.HOOKS:
            macro = getattr(partial, hook, None)
            if macro is not None:
                parts[hook].append(str(macro(tables, lowered)).rstrip("\n"))
    return {hook: "\n".join(text for text in texts if text.strip())
            for hook, texts in parts.items()}


def safety_by_lines(tables, hooks):
    """Can a move leave its own royal piece attacked only by changing a square on a
    line to it (ON_LINE), so that a side not in check need not test most moves?  Not
    where a rule changes the board after a move (explosions, gating, walls, petrified
    pieces), decides what check is, or adds pseudo-royal pieces, nor without a royal
    piece."""
    return (tables.royal_type >= 0 and not hooks["after_make"]
            and not hooks["royal_attacked"] and not tables.rules["pseudo_royal"]["types"])


def royal_lines(tables):
    """What ON_LINE marks around a royal piece (SAFETY_BY_LINES): the attack lines as
    sorted (step, squares at most, 0 for any) pairs of every rider and hopper, the
    squares of lame leaps' legs as offsets from the attacked square, and whether any
    of the lines is a hopper's (HOP_LINES)."""
    lines, legs, hops = set(), set(), False
    for entry in tables.attack_entries[0] + tables.attack_entries[1]:
        if entry["kind"] == "ride":
            lines.add((entry["off"], entry["max_steps"] or 0))
        elif entry["kind"] in ("hop", "grasshop"):
            lines.add((entry["off"], 0))
            hops = True
        else:
            legs.update(-entry["off"] + leg for leg in entry["lame"])
    return sorted(lines), sorted(legs), hops


def _reach(tables, atom):
    """How many of the atom's steps fit on the board (a line cannot be longer)."""
    fits = [(size - 1) // abs(d) for d, size in ((atom["dx"], tables.files),
                                                   (atom["dy"], tables.ranks)) if d]
    return max(1, min(fits)) if fits else 1


def check_patterns(tables):
    """How each piece attacks a square from a distance (CHECKS_FROM): per piece code,
    its name, the sorted offsets of its unconditional capturing leaps (a piece there
    gives check) and the sorted (step, squares at most, 0 for any) lines along which
    it may (its rides and hops, as far as the board allows, and leaps bound by a lame
    leg or a region, as one step: the attack test decides)."""
    patterns = []
    for piece in tables.pieces:
        for colour, info in enumerate(piece["colours"]):
            always, maybe = set(), set()
            for a in info["atoms"]:
                if not a["captures"]:
                    continue
                reach = _reach(tables, a)
                bound = (a["lame"] or a["initial_reg"] is not None or a["only_reg"] is not None
                         or info["confine_reg"] is not None)
                if a["kind"] == "leap" and not bound:
                    always.add(a["off"])
                elif a["kind"] == "leap":
                    maybe.add((a["off"], 1))
                elif a["kind"] == "ride":
                    maybe.add((a["off"], min(a["max_steps"] or reach, reach)))
                else:
                    maybe.add((a["off"], reach))       # a hop: any distance
            if always or maybe:
                patterns.append((info["code"], f"{('White', 'Black')[colour]} {piece['name']}",
                                 sorted(always), sorted(maybe)))
    return patterns


def generate(tables, max_moves):
    """The .pyx source for a lowered variant."""
    env = _environment(tables)
    template = env.get_template(TEMPLATE)
    refusals = [(r.name, r.value) for r in rules.Refusal]
    game_ends = [(e.name, e.value) for e in rules.GameEnd]
    hooks = render_hooks(env, tables)
    by_lines = safety_by_lines(tables, hooks)
    return template.render(t=tables, version=VERSION, max_hand=encoding.MAX_HAND,
                           max_moves=max_moves, bytes_literal=bytes_literal,
                           int16_literal=int16_literal, meta_literal=repr(tables.meta),
                           encoding=encoding.cython_source(rules.wide_moves(tables)).rstrip("\n"),
                           refusals=refusals, game_ends=game_ends,
                           ncodes=encoding.piece_code(tables.ntypes, 0),
                           hooks=hooks, safety_by_lines=by_lines,
                           king_attacker_counts=evalparams.KING_ATTACKERS,
                           hand_attacker_counts=evalparams.HAND_ATTACKERS,
                           mobility_counts=evalparams.MOBILITY_COUNTS,
                           passed_king_distance=evalparams.PASSED_KING_DISTANCE,
                           royal_lines=royal_lines(tables), check_patterns=check_patterns(tables),
                           check_by_lines=by_lines and not hooks["check_excused"],
                           counters=rules.uses_counters(tables),
                           counter_pairs=rules.counter_pairs(tables),
                           rule_bytes=rules.rule_bytes(tables),
                           rule_records=rules.rule_records(tables))
