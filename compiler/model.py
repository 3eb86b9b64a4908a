"""Phase 3, the rule model: the single source of truth about a variant.

Frozen dataclasses, fully resolved: no names of regions (only the squares they stand
for), no inheritance, every default explicit.  Code generation reads only this; `diff`
compares two of these; `fairyforge show` dumps one as canonical YAML.

Squares are written as algebraic names ("e4", "a10").  Everything that depends on the
side is stored for both sides (`SquareSet.white`, `SquareSet.black`); move vectors are
stored from White's side (dy > 0 is forward) together with the board's `symmetry`,
which says how Black's moves are derived.
"""

from dataclasses import dataclass, field, fields, is_dataclass, make_dataclass
from typing import Optional

import yaml


@dataclass(frozen=True)
class SquareSet:
    """A set of squares for each side (Black's usually mirrors White's)."""

    white: tuple
    black: tuple

    def for_side(self, side):
        return self.white if side == "white" else self.black


@dataclass(frozen=True)
class MoveAtom:
    """One direction of one way of moving.

    kind: "leap" (one jump), "ride" (repeated steps until blocked, at most max_steps,
    0 = unlimited), "hop" (a rider that must jump exactly one piece: cannons) or
    "grasshop" (lands right behind the first piece on the line).
    """

    dx: int
    dy: int
    kind: str
    max_steps: int
    moves: bool                 # may go to an empty square
    captures: bool              # may capture an enemy piece
    lame_path: tuple = ()       # vectors that must be empty for a lame (n) leap
    initial: bool = False       # only from the piece's initial squares (Betza i)
    only_in: Optional[SquareSet] = None   # only while standing in these squares
    along: bool = False         # and only through and to squares of only_in (`move … along`)


@dataclass(frozen=True)
class Promotion:
    """How a piece promotes: to one of `choices` on a move ending in `zone`.

    on_leaving: a move starting in the zone may promote too (shogi).
    forced: squares where promotion is compulsory (besides the squares where the
    unpromoted piece could never move again, which the compiler always adds).
    """

    choices: tuple
    zone: SquareSet
    on_leaving: bool
    forced: SquareSet
    on_capture: bool = False    # only captures promote (`flip … on capturing`)
    # `only to captured pieces`: to a choice only while the side has fewer of it on the
    # board than in the setup (grand chess; Fairy-Stockfish's promotionLimit)
    captured_only: bool = False


@dataclass(frozen=True)
class PieceType:
    name: str
    letter: str                 # FEN letter as written ("+P" for a promoted shogi piece,
                                # "Q~" for a piece that demotes when captured, "C/r")
    tokens: tuple               # FEN tokens (White's, Black's); None where that side
                                # can never own the piece
    betza: str                  # the Betza text, all move statements included
    royal: bool
    moves: tuple                # MoveAtoms
    initial_squares: SquareSet  # where its `i` moves are allowed
    confined_to: Optional[SquareSet]
    promotion: Optional[Promotion]
    demotes_to: Optional[str]   # the type a captured piece of this type becomes in hand
    value: Optional[float] = None


@dataclass(frozen=True)
class DropRule:
    """Where one piece type may be dropped, and the restrictions on it."""

    piece: str
    zone: SquareSet
    not_doubled: bool           # not on a file holding an own unpromoted piece of its type
    not_mating: bool            # a drop of it may not give checkmate
    # with not_doubled: how many own unpromoted ones a file may hold before a drop there
    # is refused (1 for `not doubled`, 2 for `not tripled`)
    file_limit: int = 1
    # a drop of it that checkmates is legal and loses (Fairy-Stockfish's convention;
    # not_mating is then false)
    mating_loses: bool = False
    # `either side up`: the piece it may also be dropped as (its `+` side), or ""
    also_as: str = ""
    # `on opposite colours`: the side's pieces of this type must be able to end on squares
    # of both colours (compiler/rules/placement.py)
    opposite_colours: bool = False


@dataclass(frozen=True)
class Castling:
    side: str
    king_from: str
    king_to: str
    rook_from: str
    rook_to: str
    piece: str = ""             # the type that castles as the king (the setup's piece on
                                # king_from); royal or not (giveaway's king is not)


@dataclass(frozen=True)
class Captures:
    """What happens to a captured piece: for each capturing side, hand or removal,
    and per-type conversions ("becomes"; None = removed from play)."""

    to_hand_white: bool
    to_hand_black: bool
    becomes: tuple = ()         # (captured type, type in hand or None)


@dataclass(frozen=True)
class Deployment:
    """A deployment phase: while a side's royal piece is still in its hand, that side
    may only drop pieces (it moves nothing on the board), and `last` may be dropped only
    when it is the only piece left in hand."""

    last: Optional[str]


@dataclass(frozen=True)
class Game:
    """What every variant has: its name, board, pieces, setup, and how pieces are
    captured, dropped, castled and taken en passant.  `Variant` adds the fields of the
    rule kinds (compiler/rules/, FIELDS), each with the default that means "no such
    rule"."""

    name: str
    title: str
    parent: Optional[str]
    files: int
    ranks: int
    symmetry: str               # "mirror" (ranks flipped) or "rotate" (half turn)
    pieces: tuple               # PieceTypes, in declaration order
    setup: str                  # start position, Fairy-Stockfish FEN
    captures: Captures
    drops: tuple                # DropRules; empty = no drops
    dead_drops_allowed: bool
    castling: tuple             # Castlings
    en_passant: tuple           # names of the pieces that make and take en passant
    deployment: Optional[Deployment]
    side_names: tuple = ("White", "Black")   # what messages call the two players
    en_passant_zone: Optional[SquareSet] = None   # `en passant … in REGION`: the squares
                                                  # passed over that may be taken there

    def piece(self, name):
        for p in self.pieces:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def has_drops(self):
        return bool(self.drops)


def _variant_class():
    """The Game fields followed by every rule kind's (in registry order)."""
    from . import rules
    owned = [(name, kind, field(default=default)) for name, kind, default in rules.fields()]
    variant = make_dataclass("Variant", owned, bases=(Game,), frozen=True,
                             namespace={"__doc__": "A variant's whole rule model: the Game "
                                        "fields and the rule kinds' fields."})
    variant.__module__ = __name__          # so that pickle (process pools, Dask) finds it
    return variant


Variant = _variant_class()


def to_plain(obj):
    """The model as plain dicts, lists and scalars (for YAML and JSON)."""
    if is_dataclass(obj):
        return {f.name: to_plain(getattr(obj, f.name)) for f in fields(obj)}
    if isinstance(obj, (tuple, list)):
        return [to_plain(x) for x in obj]
    return obj


def dump_yaml(variant, fast=False):
    """Canonical YAML of a variant: stable key order, one document.

    `fast` uses libyaml's emitter where PyYAML has it (ten times faster; what the build
    cache key hashes on every load), whose line breaks may differ from the pure-Python
    one's that `fairyforge show` prints."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper) if fast else yaml.SafeDumper
    return yaml.dump(to_plain(variant), Dumper=dumper, sort_keys=False,
                     default_flow_style=None, width=100)
