"""Typed statements: what the parser makes of each line of a definition.

One dataclass per statement kind, with its parts as named fields (lark tokens, which
keep their column, or values built from them: region expressions as nested tuples,
lists of names).  `loc` is the line's location and `loc_of(token)` the location of
one of its parts, for error messages.  The statements of the board, the pieces and
the setup are declared here; each rule kind declares its own in compiler/rules/.
"""

from dataclasses import dataclass, field
from typing import Any

from .diagnostics import Location


@dataclass
class Node:
    """A statement: its parts are the subclass's fields."""

    loc: Location = field(default=None, kw_only=True, repr=False, compare=False)
    text: str = field(default="", kw_only=True, repr=False, compare=False)

    @classmethod
    def from_parts(cls, parts):
        """Build the node from the grammar rule's children (overridden where the
        children are not simply the fields in order)."""
        return cls(*parts)

    def loc_of(self, token):
        column = getattr(token, "column", None) or self.loc.column
        return Location(self.loc.file, self.loc.line, column, self.loc.source_line)


def _tagged(parts, tag):
    """The value of a `(tag, value)` part, or None."""
    return next((p[1] for p in parts if isinstance(p, tuple) and p and p[0] == tag), None)


@dataclass
class VariantHeader(Node):
    name: Any
    title: Any = None
    extends: Any = None

    @classmethod
    def from_parts(cls, parts):
        title = next((p for p in parts[1:] if not isinstance(p, tuple)), None)
        return cls(parts[0], title, _tagged(parts[1:], "extends"))


@dataclass
class Board(Node):
    size: Any


@dataclass
class Symmetry(Node):
    mode: Any


@dataclass
class Region(Node):
    name: Any
    side: Any
    expr: Any

    @classmethod
    def from_parts(cls, parts):
        return cls(parts[0], parts[1], parts[2]) if len(parts) == 3 else cls(parts[0], None, parts[1])


@dataclass
class Piece(Node):
    name: Any
    letter: Any
    betza: Any
    royal: bool = False

    @classmethod
    def from_parts(cls, parts):
        return cls(parts[0], parts[1], parts[2], len(parts) > 3)


@dataclass
class ExtraMove(Node):
    """`move PIECE BETZA in REGION` or `... along REGION`."""

    piece: Any
    betza: Any
    scope: Any          # "in": from the region; "along": from, through and to it
    region: Any


@dataclass
class Initial(Node):
    pieces: list
    region: Any


@dataclass
class Confine(Node):
    pieces: list
    region: Any


@dataclass
class Promote(Node):
    piece: Any
    choices: list
    zone: Any
    trigger: str = "entering"
    forced: Any = None
    captured_only: bool = False     # `only to captured pieces`

    @classmethod
    def from_parts(cls, parts):
        rest = list(parts[3:])
        captured_only = bool(rest) and getattr(rest[-1], "type", None) == "CAPTURED_ONLY"
        if captured_only:
            rest.pop()
        trigger = "entering"
        if rest and isinstance(rest[0], str):      # "entering"/"leaving" (regions are tuples)
            trigger = rest.pop(0)
        return cls(parts[0], parts[1], parts[2], trigger, rest[0] if rest else None,
                   captured_only)


@dataclass
class Flip(Node):
    """`flip PIECE[, PIECE] [on capturing]`."""

    pieces: list
    on_capture: bool = False

    @classmethod
    def from_parts(cls, parts):
        return cls(parts[0], len(parts) > 1)


@dataclass
class StuckAllowed(Node):
    """`stuck pieces allowed`."""

    @classmethod
    def from_parts(cls, parts):
        return cls()


@dataclass
class Demote(Node):
    piece: Any
    to: Any


@dataclass
class CapturesFate(Node):
    """`captures go to hand | are removed [for SIDE]`."""

    fate: str
    side: Any
    token: Any

    @classmethod
    def from_parts(cls, parts):
        return cls("hand" if "hand" in parts[0] else "removed",
                   parts[1] if len(parts) > 1 else None, parts[0])


@dataclass
class Captured(Node):
    """`captured PIECE becomes PIECE` or `captured PIECE is removed` (becomes None)."""

    piece: Any
    becomes: Any = None


@dataclass
class CapturedRevert(Node):
    """`captured promoted pieces revert`."""

    @classmethod
    def from_parts(cls, parts):
        return cls()


@dataclass
class Drop(Node):
    pieces: Any                 # "all" or a list of names
    side: Any = None
    zone: Any = None
    flags: list = field(default_factory=list)

    @classmethod
    def from_parts(cls, parts):
        node = cls(parts[0])
        for item in parts[1:]:
            kind = getattr(item, "type", None)
            if kind == "SIDE_NAME":
                node.side = item
            elif kind == "DROP_FLAG":
                node.flags.append(" ".join(str(item).split()))
            else:
                node.zone = item
        return node


@dataclass
class Deploy(Node):
    """`deploy before moving [, PIECE last]`."""

    last: Any = None


@dataclass
class CastlingMove(Node):
    side: Any
    king_from: Any
    king_to: Any
    rook_from: Any
    rook_to: Any

    @classmethod
    def from_parts(cls, parts):
        return cls(*parts) if len(parts) == 5 else cls(None, *parts)


@dataclass
class EnPassant(Node):
    pieces: list
    zone: Any = None            # `in REGION`: where the square passed over must lie


@dataclass
class TakeBack(Node):
    """`no castling`, `no en passant`, `no drops`: a child takes back what it inherits."""

    what: str

    @classmethod
    def from_parts(cls, parts):
        return cls(" ".join(str(parts[0]).split()))


@dataclass
class Value(Node):
    piece: Any
    value: Any


@dataclass
class Sides(Node):
    white: Any
    black: Any


@dataclass
class Setup(Node):
    fen: Any


# Grammar rule -> node class, for the statements above.
STATEMENTS = {
    "variant_decl": VariantHeader, "board_decl": Board, "symmetry_decl": Symmetry,
    "region_decl": Region, "piece_decl": Piece, "move_decl": ExtraMove,
    "initial_decl": Initial, "confine_decl": Confine, "promote_decl": Promote,
    "demote_decl": Demote, "flip_decl": Flip, "stuck_decl": StuckAllowed, "captures_decl": CapturesFate, "captured_becomes": Captured,
    "captured_removed": Captured, "captured_revert": CapturedRevert, "drop_decl": Drop,
    "deploy_decl": Deploy, "castling_decl": CastlingMove, "en_passant_decl": EnPassant,
    "take_back_decl": TakeBack,
    "value_decl": Value, "sides_decl": Sides, "setup_decl": Setup,
}

