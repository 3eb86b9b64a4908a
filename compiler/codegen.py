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

from . import rules


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


def generate(tables, max_moves):
    """The .pyx source for a lowered variant."""
    env = _environment(tables)
    template = env.get_template(TEMPLATE)
    refusals = [(r.name, r.value) for r in rules.Refusal]
    game_ends = [(e.name, e.value) for e in rules.GameEnd]
    return template.render(t=tables, version=VERSION, max_hand=encoding.MAX_HAND,
                           max_moves=max_moves, bytes_literal=bytes_literal,
                           int16_literal=int16_literal, meta_literal=repr(tables.meta),
                           encoding=encoding.cython_source(rules.wide_moves(tables)).rstrip("\n"),
                           refusals=refusals, game_ends=game_ends,
                           ncodes=encoding.piece_code(tables.ntypes, 0),
                           hooks=render_hooks(env, tables),
                           counters=rules.uses_counters(tables),
                           counter_pairs=rules.counter_pairs(tables),
                           rule_bytes=rules.rule_bytes(tables),
                           rule_records=rules.rule_records(tables))
