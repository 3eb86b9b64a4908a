"""Moves as users see them: an engine move code with its UCI-style text."""

from dataclasses import dataclass, field
from typing import Optional

FROM_MASK = 511
F_DROP = 1 << 25
F_CASTLE = 1 << 26
F_EP = 1 << 27


def decode(code):
    """(from index, to index, selector, flags) of an engine move code: the selector is
    the promotion or dropped type + 1, or the castling option.  (The one place outside
    Notation.text that reads the move's bits.)"""
    return code & FROM_MASK, (code >> 9) & FROM_MASK, (code >> 18) & 127, code & ~((1 << 25) - 1)


@dataclass(frozen=True)
class Move:
    """A move of a particular game.  str() gives it in Fairy-Stockfish's UCI style:
    `e2e4`, `e7e8q` (promotion), `b2h8+` (shogi-style promotion), `P@e4` (drop).

    from_square, to_square (square names; from_square is None for a drop), drop and
    promotion (piece names, or None) come from the move itself; piece (the moving
    piece's name) and capture (the captured piece's name, or None) are known for the
    moves a Position hands out (legal_moves, push, parse_san) and None otherwise.
    Only `code` and `uci` take part in comparisons.
    """

    code: int
    uci: str
    side: int = field(default=0, compare=False, repr=False)     # 0 first player, 1 second
    notation: Optional["Notation"] = field(default=None, compare=False, repr=False)
    board: Optional[tuple] = field(default=None, compare=False, repr=False)  # before it

    def __str__(self):
        return self.uci

    @property
    def is_drop(self):
        return bool(self.code & F_DROP)

    @property
    def is_castling(self):
        return bool(self.code & F_CASTLE)

    @property
    def is_en_passant(self):
        return bool(self.code & F_EP)

    @property
    def from_square(self):
        frm, _, _, flags = decode(self.code)
        return None if flags & F_DROP else self.notation.square_of_index[frm]

    @property
    def to_square(self):
        return self.notation.square_of_index[decode(self.code)[1]]

    @property
    def drop(self):
        _, _, sel, flags = decode(self.code)
        return self.notation.pieces[sel - 1]["name"] if flags & F_DROP else None

    @property
    def promotion(self):
        _, _, sel, flags = decode(self.code)
        if not sel or flags & (F_DROP | F_CASTLE):
            return None
        return self.notation.pieces[sel - 1]["name"]

    @property
    def piece(self):
        if self.is_drop:
            return self.drop
        code = self._board_code(self.from_square)
        return self.notation.pieces[(code >> 1) - 1]["name"] if code and code >= 2 else None

    @property
    def capture(self):
        if self.is_drop or self.is_castling or self.board is None:
            return None
        square = self.to_square
        if self.is_en_passant:
            delta = self.notation.meta["ep_victim_delta"][1 - self.side]
            square = self.notation.square_of_index[decode(self.code)[1] + delta]
        code = self._board_code(square)
        if code is None or code < 2 or code & 1 == self.side:
            return None
        return self.notation.pieces[(code >> 1) - 1]["name"]

    def _board_code(self, square):
        """The board code on a square before the move (None without a board)."""
        if self.board is None:
            return None
        return self.board[self.notation.compact_of_square[square]]


class Notation:
    """Turns engine move codes into text for one game (built from the module's META)."""

    def __init__(self, meta):
        self.meta = meta
        files = meta["files"]
        self.square_of_index = {index: f"{chr(97 + i % files)}{i // files + 1}"
                                for i, index in enumerate(meta["squares"])}
        self.index_of_square = {v: k for k, v in self.square_of_index.items()}
        # Square name -> position in the engine's board() list (a1, b1, ...).
        self.compact_of_square = {self.square_of_index[index]: i
                                  for i, index in enumerate(meta["squares"])}
        self.pieces = meta["pieces"]

    def text(self, code, colour=0):
        frm, to, sel, _ = decode(code)
        dest = self.square_of_index[to]
        if code & F_DROP:
            # Drops name the piece by its White letter, as Fairy-Stockfish does (or
            # Black's, uppercased, for a piece only Black owns).
            tokens = self.pieces[sel - 1]["tokens"]
            letter = (tokens[0] or tokens[1].upper()).rstrip("~")
            return f"{letter}@{dest}"
        text = self.square_of_index[frm] + dest
        if sel and not code & F_CASTLE:
            text += self.pieces[sel - 1]["promotion_suffix"][colour]
        return text

    def move(self, code, colour=0, board=None):
        """A Move; `board` (the engine's board() before the move, as a tuple) gives it
        its piece and capture."""
        return Move(code, self.text(code, colour), colour, self, board)
