"""Phase 5, codegen: lowered tables -> the Cython source of one engine.

Only renders: every decision about numbering and layout was made by `lower`.  The
templates live in compiler/templates/; `TEMPLATE_FILES` is part of the build cache key.
"""

import re
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
    source = template.render(t=tables, version=VERSION, max_hand=MAX_HAND,
                             max_moves=max_moves, bytes_literal=bytes_literal,
                             int16_literal=int16_literal,
                             meta_literal=repr(tables.meta))
    return tidy(source)


TOP_LEVEL_DEFINITIONS = ("cdef ", "def ", "class ", "cpdef ")
SIGNS = [(re.compile(r"(\w|\]|\)) \+ -(\d)"), r"\1 - \2"),     # sq + -10 -> sq - 10
         (re.compile(r"(\w|\]|\)) - -(\d)"), r"\1 + \2"),      # sq - -9 -> sq + 9
         (re.compile(r"\+= -(\d)"), r"-= \1"),
         (re.compile(r"-= -(\d)"), r"+= \1")]


def tidy(source):
    """Make the rendered code read as if written by hand (users open it when an engine
    misbehaves): the template's always-true guards go (`if True:` blocks are
    dedented, `if True and x:` becomes `if x:`), offsets lose their double signs, and
    blank lines left by its macros are collapsed (at most one inside functions, two
    before top-level definitions), as are `pass` statements in blocks that have others."""
    lines = [_plain_signs(line) for line in _drop_true_guards(source.split("\n"))]
    following, upcoming = [], ""              # the next non-blank line after each
    for line in reversed(lines):
        following.append(upcoming)
        if line.strip():
            upcoming = line
    following.reverse()
    out, previous = [], ""                    # previous: the last non-blank line out
    for i, line in enumerate(lines):
        if line.strip():
            if line.strip() == "pass" and _has_statements(out, _indent(line)):
                continue                      # the template's guard for an empty block
            if line.startswith(TOP_LEVEL_DEFINITIONS) and previous.startswith(" "):
                while _blank_tail(out) < 2:   # a definition after another's body
                    out.append("")
            out.append(line)
            previous = line
            continue
        after = following[i]
        limit = 2 if after[:1] not in (" ", "") else 1
        if after.lstrip().startswith(("elif ", "else:", "pass", "except", "finally:")):
            limit = 0
        if out and _blank_tail(out) < limit:
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _plain_signs(line):
    """Offsets are rendered as signed numbers: `sq + -10` reads better as `sq - 10`.
    (Code lines only: a line with a string literal is left alone.)"""
    if "'" in line or '"' in line:
        return line
    for pattern, replacement in SIGNS:
        line = pattern.sub(replacement, line)
    return line


def _indent(line):
    return len(line) - len(line.lstrip())


def _has_statements(lines, indent):
    """Does the block that `lines` end in already hold a statement at `indent`?"""
    for line in reversed(lines):
        if line.strip():
            if _indent(line) == indent:
                return True
            if _indent(line) < indent:
                return False
    return False


def _blank_tail(lines):
    """How many blank lines end `lines`."""
    count = 0
    for line in reversed(lines):
        if line.strip():
            break
        count += 1
    return count


def _drop_true_guards(lines):
    """Remove `if True:` lines, dedenting their bodies; `if True and x:` -> `if x:`."""
    out, dedent_below = [], []          # indentation levels of removed guards
    for line in lines:
        indent = _indent(line)
        if line.strip():
            while dedent_below and indent <= dedent_below[-1]:
                dedent_below.pop()
        shift = 4 * len(dedent_below)
        if line.strip() == "if True:":
            dedent_below.append(indent)
            continue
        line = line.replace("if True and ", "if ", 1) if line.lstrip().startswith(
            "if True and ") else line
        out.append(line[shift:] if line.strip() else "")
    return out
