"""What a diff gives back: a RuleDiff of Groups of Entries, or a PlayDiff."""

from dataclasses import asdict, dataclass, field
from typing import Optional

from fairyforge.errors import FairyforgeError

GROUPS = (
    ("board", "Board and regions"),
    ("pieces", "Pieces"),
    ("captures", "Captures"),
    ("drops", "Drops"),
    ("special", "Special rules"),
    ("game_end", "Game end"),
    ("setup", "Setup"),
    ("other", "Other rules"),
)
GROUP_TITLES = dict(GROUPS)
KINDS = ("added", "removed", "changed")
MARKERS = {"added": "+", "removed": "-", "changed": "~"}


class DiffError(FairyforgeError):
    """Two games cannot be compared the way that was asked (e.g. by play)."""


@dataclass
class Entry:
    """One difference: `kind` is added, removed or changed (from A to B)."""

    kind: str
    subject: str
    text: str
    details: list = field(default_factory=list)

    def as_dict(self):
        return {"kind": self.kind, "subject": self.subject, "text": self.text,
                "details": list(self.details)}


@dataclass
class Group:
    name: str
    title: str
    entries: list = field(default_factory=list)

    def __bool__(self):
        return bool(self.entries)

    def __iter__(self):
        return iter(self.entries)

    def __len__(self):
        return len(self.entries)

    def find(self, subject):
        """The entries about `subject`."""
        return [e for e in self.entries if e.subject == subject]

    def as_dict(self):
        return {"name": self.name, "title": self.title,
                "entries": [e.as_dict() for e in self.entries]}


@dataclass
class RuleDiff:
    """The rule differences between variants A and B (only groups with entries)."""

    a: dict                     # name, title, parent of A
    b: dict
    groups: list = field(default_factory=list)

    def __bool__(self):
        return any(self.groups)

    @property
    def count(self):
        return sum(len(g) for g in self.groups)

    def group(self, name):
        """The group called `name` (empty if it has no differences)."""
        if name not in GROUP_TITLES:
            raise KeyError(f"no diff group '{name}' (groups: {', '.join(GROUP_TITLES)})")
        for g in self.groups:
            if g.name == name:
                return g
        return Group(name, GROUP_TITLES[name])

    def entries(self):
        return [e for g in self.groups for e in g.entries]

    def as_dict(self):
        def public(ident):
            return {k: v for k, v in ident.items() if not k.startswith("_")}
        return {"a": public(self.a), "b": public(self.b), "differences": self.count,
                "groups": [g.as_dict() for g in self.groups]}


@dataclass
class PlayDiff:
    """The result of a behavioural comparison.

    found: a position was reached where the legal moves differ; `sequence` is the
    shortest move sequence leading to it (moves legal in both games), `only_a` and
    `only_b` the moves just one of the games allows there.  complete: the search
    covered every position up to `depth` (False when it stopped at the position limit).
    """

    a: str
    b: str
    depth: int
    start_fen_a: str
    start_fen_b: str
    found: bool
    sequence: list = field(default_factory=list)
    fen_a: Optional[str] = None
    fen_b: Optional[str] = None
    only_a: list = field(default_factory=list)
    only_b: list = field(default_factory=list)
    positions: int = 0
    complete: bool = True
    searched_depth: int = 0

    def __bool__(self):
        return self.found

    def as_dict(self):
        return asdict(self)         # every field is a scalar or a list of strings
