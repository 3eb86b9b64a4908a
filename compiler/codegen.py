"""Phase 5, codegen: lowered tables -> the Cython source of one engine.

Only renders: every decision about numbering and layout was made by `lower`.  The
templates live in compiler/templates/; `TEMPLATE_FILES` is part of the build cache key.
"""

from importlib import resources

import jinja2

from .lower import MAX_HAND

TEMPLATE = "engine.pyx.j2"
VERSION = "0.1.0"


def template_text():
    return resources.files("fairyforge.compiler").joinpath("templates", TEMPLATE).read_text()


def _environment(tables):
    env = jinja2.Environment(loader=jinja2.FunctionLoader(lambda name: template_text()),
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined, autoescape=False)

    def piece_name(code):
        colour = "white" if code % 2 == 0 else "black"
        return f"{colour} {tables.pieces[(code >> 1) - 1]['name']}"

    env.filters["piece_name"] = piece_name
    env.filters["type_name"] = lambda t: tables.pieces[t]["name"]
    return env


def bytes_literal(row):
    return repr(bytes(row))


def int16_literal(row):
    """A bytes literal holding signed 16-bit values, little-endian (compiles to one C
    string instead of a Python list of numbers)."""
    import struct
    return repr(struct.pack(f"<{len(row)}h", *row))


def generate(tables, max_moves):
    """The .pyx source for a lowered variant."""
    env = _environment(tables)
    template = env.get_template(TEMPLATE)
    return template.render(t=tables, version=VERSION, max_hand=MAX_HAND,
                           max_moves=max_moves, bytes_literal=bytes_literal,
                           int16_literal=int16_literal,
                           meta_literal=repr(tables.meta))
