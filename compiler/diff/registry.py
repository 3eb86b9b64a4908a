"""The model diff's registry: which wording renders which field of the rule model.

Two tables, both filled by decorators when the wording modules are imported, and both
read in registration order (the order of the entries within a report group):

* VARIANT_WORDING: `@variant_wording(*fields)` registers `compare(cmp, old, new)` for
  fields of the Variant.  `old` and `new` are A's and B's values of the field (a tuple
  of values when several fields are named); `cmp` is the Comparison below.  The
  function adds its entries with `cmp.add(group, kind, subject, text, details)` and
  returns nothing.  `compare=None` (`claim_fields`) marks fields that are shown
  elsewhere (the header's name, title and parent).
* PIECE_ASPECTS: `@piece_aspect(name, *fields, describe=...)` registers
  `compare(cmp, pa, pb) -> [lines]` for fields of a PieceType that both games have
  (matched by name, or by letter when renamed); when it returns lines, `name` joins
  the list of what changed ("knight (N, N): moves, value changed") and the lines are the
  entry's details.  `describe(cmp, piece, side) -> [lines]` gives the aspect's part of
  the description of a piece only one game has (`side` is cmp.side_a or cmp.side_b).

Fields that no registration names are still compared, generically: Variant fields in
"Other rules" ("field X changed from .. to .."), PieceType fields among a piece's
"other fields".  So a field added to the model is diffed from the start, and gets its
own words when its rule registers them.
"""

import re
from dataclasses import dataclass
from typing import Callable, Optional

from .result import GROUPS, Entry, Group, RuleDiff
from .words import Board, field_of, unknown_field_changes


@dataclass(frozen=True)
class VariantWording:
    fields: tuple
    compare: Optional[Callable]


@dataclass(frozen=True)
class PieceAspect:
    name: str
    fields: tuple
    compare: Callable
    describe: Optional[Callable]


VARIANT_WORDING = []
PIECE_ASPECTS = []


def variant_wording(*fields):
    """Register `compare(cmp, old, new)` as the wording of these Variant fields."""
    def register(compare):
        VARIANT_WORDING.append(VariantWording(tuple(fields), compare))
        return compare
    return register


def claim_fields(*fields):
    """Variant fields that the report shows elsewhere (they are never "other rules")."""
    VARIANT_WORDING.append(VariantWording(tuple(fields), None))


def piece_aspect(name, *fields, describe=None):
    """Register `compare(cmp, pa, pb) -> lines` as the wording of a piece's aspect."""
    def register(compare):
        PIECE_ASPECTS.append(PieceAspect(name, tuple(fields), compare, describe))
        return compare
    return register


def known_variant_fields():
    return {name for w in VARIANT_WORDING for name in w.fields}


def known_piece_fields():
    return {name for aspect in PIECE_ASPECTS for name in aspect.fields}


@dataclass(frozen=True)
class Side:
    """One game of the two, as the wording sees it."""

    variant: object
    board: Board
    pieces: dict                # name -> PieceType
    becomes: dict               # captured type -> type in hand (None: removed), A's names


class Comparison:
    """The two variants being compared, with what every wording needs: their boards,
    their pieces matched by name (or by letter when a piece was renamed), and the
    groups of the report."""

    def __init__(self, a, b):
        self.a, self.b = a, b
        self.board_a, self.board_b = Board.of(a), Board.of(b)
        self.groups = {name: Group(name, title) for name, title in GROUPS}
        pieces_a = {p.name: p for p in field_of(a, "pieces", ())}
        pieces_b = {p.name: p for p in field_of(b, "pieces", ())}
        self.renamed = _renamed(pieces_a, pieces_b)   # B's name -> A's name
        becomes_b = {self.name_a(k): self.map_b(v) for k, v in _becomes(b)}
        self.side_a = Side(a, self.board_a, pieces_a, dict(_becomes(a)))
        self.side_b = Side(b, self.board_b, pieces_b, becomes_b)

    def add(self, group, kind, subject, text, details=()):
        self.groups[group].entries.append(Entry(kind, subject, text, list(details)))

    def name_a(self, name_b):
        """B's piece name in A's terms (so a renamed piece matches its references)."""
        return self.renamed.get(name_b, name_b)

    def map_b(self, value):
        """B's piece name, or a tuple of names, in A's terms."""
        if value is None:
            return None
        if isinstance(value, str):
            return self.name_a(value)
        return tuple(self.map_b(v) for v in value)

    def both(self, pa, pb):
        """A piece's name, with B's name too when it was renamed."""
        return pa.name if pa.name == pb.name else f"{pa.name} ({pb.name} in {self.b.name})"

    def report(self):
        """The groups that have entries, in the report's order."""
        return [g for g in self.groups.values() if g.entries]


def _becomes(variant):
    return field_of(field_of(variant, "captures"), "becomes", ()) or ()


def _renamed(pieces_a, pieces_b):
    """{B's name: A's name} for pieces only one game names that share a letter."""
    renamed = {}
    only_a = [n for n in pieces_a if n not in pieces_b]
    for nb in (n for n in pieces_b if n not in pieces_a):
        letter = pieces_b[nb].letter
        for na in only_a:
            if pieces_a[na].letter == letter and na not in renamed.values():
                renamed[nb] = na
                break
    return renamed


def compare_variants(a, b):
    """Run every registered wording over two variants; the report's groups."""
    cmp = Comparison(a, b)
    for wording in VARIANT_WORDING:
        if wording.compare is None:
            continue
        old = tuple(field_of(a, name) for name in wording.fields)
        new = tuple(field_of(b, name) for name in wording.fields)
        if len(wording.fields) == 1:
            old, new = old[0], new[0]
        wording.compare(cmp, old, new)
    _other_rules(cmp)
    return cmp


def _other_rules(cmp):
    """The Variant fields no wording claims, generically, under "Other rules"."""
    for line in unknown_field_changes(cmp.a, cmp.b, known_variant_fields(), "",
                                      cmp.board_a, cmp.board_b):
        m = re.match(r"field ([\w.]+)", line)
        subject = m.group(1).split(".")[0] if m else "rules"
        cmp.add("other", "changed", subject, line)


def _identity(variant, source=None):
    out = {"name": field_of(variant, "name"), "title": field_of(variant, "title"),
           "parent": field_of(variant, "parent")}
    if source is not None:
        out["source"] = source
    return out


def diff_variants(a, b, source_a=None, source_b=None):
    """Compare two rule models (Variants); returns a RuleDiff (falsy when they are equal)."""
    groups = compare_variants(a, b).report()
    ida, idb = _identity(a, source_a), _identity(b, source_b)
    if ida["name"] == idb["name"]:
        ida["_same_name"] = idb["_same_name"] = True
    return RuleDiff(ida, idb, groups)


def diff_files(a, b):
    """Compare two bundled games or definition files by their resolved rules.

    Raises DefinitionError / UnknownGameError (FairyforgeError) if either does not load.
    """
    from ..resolve import load_variant
    return diff_variants(load_variant(a), load_variant(b), source_a=a, source_b=b)
