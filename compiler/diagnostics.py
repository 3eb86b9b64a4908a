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


MAX_REPORTED = 200      # diagnostics shown before "... and N more errors"


class DiagnosticBag:
    """Collects every error of a phase so that all of them are reported, not just the first.

    A mistake can be seen twice (once per side, say): it is kept once, by a set of the
    diagnostics already held, so that collecting stays linear in their number.
    """

    def __init__(self):
        self.items = []
        self._seen = set()

    def error(self, location, message):
        diagnostic = Diagnostic(location, message)
        if diagnostic not in self._seen:
            self._seen.add(diagnostic)
            self.items.append(diagnostic)

    def sorted(self):
        return sorted_by_place(self.items)

    def reported(self, limit=MAX_REPORTED):
        """The diagnostics to show (the first `limit` in file order) and how many more
        there are."""
        return first_of(self.sorted(), limit)

    def __bool__(self):
        return bool(self.items)

    def __len__(self):
        return len(self.items)

    def raise_if_any(self):
        if self.items:
            from fairyforge.errors import DefinitionError
            raise DefinitionError(self.sorted())


def sorted_by_place(diagnostics):
    return sorted(diagnostics, key=lambda d: (d.location.file, d.location.line,
                                              d.location.column))


def first_of(diagnostics, limit=MAX_REPORTED):
    """(the first `limit` diagnostics, how many are left out): a file with thousands of
    errors is reported by its first ones and a count, not a flood."""
    diagnostics = list(diagnostics)
    return diagnostics[:limit], max(len(diagnostics) - limit, 0)


def more_line(omitted):
    """The line that stands for the diagnostics left out ("" when none are)."""
    if not omitted:
        return ""
    return f"... and {omitted} more error{'s' if omitted != 1 else ''}"


def render_all(diagnostics, limit=MAX_REPORTED):
    """Every diagnostic rendered, up to `limit`, then the line counting the rest."""
    shown, omitted = first_of(diagnostics, limit)
    lines = [d.render() for d in shown]
    if omitted:
        lines.append(more_line(omitted))
    return "\n".join(lines)
