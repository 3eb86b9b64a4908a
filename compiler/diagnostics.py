"""Diagnostics: where in a definition file something is wrong, and how to say so."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    """A place in a definition file (line and column count from 1)."""

    file: str
    line: int
    column: int
    source_line: str = ""

    def __str__(self):
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    """One problem in a definition: its location and a message in plain words."""

    location: Location
    message: str

    def render(self):
        """`file:line:col: message`, then the offending line and a caret under the column."""
        loc = self.location
        text = f"{loc}: error: {self.message}"
        if loc.source_line:
            line = loc.source_line.rstrip("\n").expandtabs(1)
            text += f"\n    {line}\n    {' ' * (max(loc.column, 1) - 1)}^"
        return text

    def as_dict(self):
        loc = self.location
        return {"file": loc.file, "line": loc.line, "column": loc.column,
                "severity": "error", "message": self.message}


class DiagnosticBag:
    """Collects every error of a phase so that all of them are reported, not just the first."""

    def __init__(self):
        self.items = []

    def error(self, location, message):
        diagnostic = Diagnostic(location, message)
        if diagnostic not in self.items:        # one mistake can be seen twice (both sides)
            self.items.append(diagnostic)

    def sorted(self):
        return sorted(self.items, key=lambda d: (d.location.file, d.location.line,
                                                 d.location.column))

    def __bool__(self):
        return bool(self.items)

    def raise_if_any(self):
        if self.items:
            from fairyforge.errors import DefinitionError
            raise DefinitionError(self.sorted())
