"""Fairy-Stockfish's variants.ini, read with the line of every option.

The format: sections `[name]` or `[name:parent]`, then `key = value` lines; a line
starting with `#` or `;` is a comment.  configparser would do the syntax, but the
errors of `fairyforge import` must name each option's line, which configparser does
not keep, so this small reader does it.  A key written twice in one section keeps its
last value, as Fairy-Stockfish's parser does; `repeated` remembers the earlier lines.
"""

import re
from dataclasses import dataclass, field

from ..errors import FairyforgeError

_SECTION = re.compile(r"^\[\s*([^\]:]+?)\s*(?::\s*([^\]]+?)\s*)?\]\s*$")


class IniError(FairyforgeError):
    """A variants.ini that cannot be read: the file and line say where."""


@dataclass
class Entry:
    value: str
    line: int


@dataclass
class Section:
    name: str
    parent: str | None
    line: int
    options: dict = field(default_factory=dict)      # key -> Entry
    repeated: list = field(default_factory=list)     # (key, earlier line)


def read_ini(text, filename="variants.ini"):
    """The sections of an ini text, in file order: {name: Section}."""
    sections, current = {}, None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        header = _SECTION.match(line)
        if header:
            name, parent = header.group(1), header.group(2)
            if name in sections:
                raise IniError(f"{filename}:{number}: section [{name}] is already defined "
                               f"on line {sections[name].line}")
            current = sections[name] = Section(name, parent, number)
            continue
        if "=" not in line:
            raise IniError(f"{filename}:{number}: expected 'key = value' or '[section]', "
                           f"found {line!r}")
        if current is None:
            raise IniError(f"{filename}:{number}: option outside a section: {line!r}")
        key, value = (part.strip() for part in line.split("=", 1))
        if key in current.options:
            current.repeated.append((key, current.options[key].line))
        current.options[key] = Entry(value, number)
    return sections
