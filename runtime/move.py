"""Moves as users see them: an engine move code with its UCI-style text."""

import copy
from dataclasses import dataclass, field
from typing import Optional

from .encoding import (F_CASTLE, F_DROP, F_EP, F_GATE_ON_ROOK, code_colour, code_type,
                       is_pass, move_from, move_gate, move_selector, move_to, move_wall,
                       selected_type)


def drop_letter(tokens):
    """The letter a drop names a piece by, from its (White's, Black's) FEN tokens: White's
    letter, as Fairy-Stockfish writes drops, or Black's uppercased for a piece only Black
    owns.  The compiler refuses two droppable pieces with the same drop letter."""
    return (tokens[0] or tokens[1].upper()).rstrip("~")


@dataclass(frozen=True)
class Move:
    """A move of a particular game.  str() gives it in Fairy-Stockfish's UCI style:
    `e2e4`, `e7e8q` (promotion), `b2h8+` (shogi-style promotion), `P@e4` (drop),
    `e2e4,e4d5` (the duck put on d5 after the move).

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
    def is_pass(self):
        """A pass (`passing allowed`): the royal piece's null move, such as e2e2."""
        return is_pass(self.code)

    @property
    def is_en_passant(self):
        return bool(self.code & F_EP)

    @property
    def from_square(self):
        if self.is_drop:
            return None
        return self.notation.square_of_index[move_from(self.code)]

    @property
    def to_square(self):
        return self.notation.square_of_index[move_to(self.code)]

    @property
    def drop(self):
        typ = selected_type(self.code)
        return self.notation.pieces[typ]["name"] if self.is_drop else None

    @property
    def promotion(self):
        typ = selected_type(self.code)
        if typ is None or self.is_drop:
            return None
        return self.notation.pieces[typ]["name"]

    @property
    def gate(self):
        """The piece put from the hand on the square the move leaves (gating), or None."""
        slot = move_gate(self.code)
        if not slot:
            return None
        return self.notation.pieces[self.notation.meta["gating"]["types"][slot - 1]]["name"]

    @property
    def gate_square(self):
        """Where the gated piece goes: the square the move leaves, or for a castling
        that gates on its rook's square that one (None without a gate)."""
        if not move_gate(self.code):
            return None
        return self.notation.gate_square(self.code)

    @property
    def wall_square(self):
        """The square the mover puts the duck (a wall) on after the move, or None."""
        wall = move_wall(self.code)
        return self.notation.square_of_index[wall] if wall else None

    @property
    def piece(self):
        if self.is_drop:
            return self.drop
        code = self._board_code(self.from_square)
        return self.notation.pieces[code_type(code)]["name"] if code and code >= 2 else None

    @property
    def capture(self):
        if self.is_drop or self.is_castling or self.board is None:
            return None
        squares = [self.to_square]
        if self.is_en_passant:
            # The piece taken stands beyond the square passed, in the direction of one
            # of the double steps (a Berolina pawn's two diagonals).
            names = self.notation.square_of_index
            squares = [names.get(move_to(self.code) + delta)
                       for delta in self.notation.meta["ep_victim_delta"][1 - self.side]]
        for square in filter(None, squares):
            code = self._board_code(square)
            if code is not None and code >= 2 and code_colour(code) != self.side:
                return self.notation.pieces[code_type(code)]["name"]
        return None

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
        self._castling_rook = {c["bit"]: c["rook_from"] for c in meta["castling"]}

    def with_castling_rooks(self, rooks):
        """This notation for a position whose castling options take their rooks from
        `rooks` ({castling bit: square index}; `chess960 castling`, where the FEN puts
        them)."""
        other = copy.copy(self)
        other._castling_rook = dict(rooks)
        return other

    def text(self, code, colour=0):
        frm, to, sel = move_from(code), move_to(code), move_selector(code)
        dest = self.square_of_index[to]
        if code & F_DROP:
            return f"{drop_letter(self.pieces[sel - 1]['tokens'])}@{dest}"
        if code & F_CASTLE and self.meta["chess960_castling"]:
            dest = self.square_of_index[self._castling_rook[sel]]     # the king takes its rook
        text = self.square_of_index[frm] + dest
        if sel and not code & F_CASTLE:
            text += self.pieces[sel - 1]["promotion_suffix"][colour]
        if move_gate(code):
            text = self._gate_text(code, text)
        if move_wall(code):              # the duck's square, after the move's destination
            text += f",{dest}{self.square_of_index[move_wall(code)]}"
        return text

    def _gate_text(self, code, text):
        """A gating move as Fairy-Stockfish writes it: the move and the gated piece's
        letter (`b1c3h`, castling `e1g1h`); a castling that gates on its rook's square
        from the rook's square to the king's (`h1e1h`)."""
        gated = self.pieces[self.meta["gating"]["types"][move_gate(code) - 1]]
        letter = (gated["tokens"][1] or gated["tokens"][0]).rstrip("~").lower()
        if code & F_CASTLE and code & F_GATE_ON_ROOK:
            text = self.gate_square(code) + self.square_of_index[move_from(code)]
        return text + letter

    def gate_square(self, code):
        """The square a gating move puts its piece on (its name)."""
        if code & F_CASTLE and code & F_GATE_ON_ROOK:
            return self.square_of_index[self._castling_rook[move_selector(code)]]
        return self.square_of_index[move_from(code)]

    def move(self, code, colour=0, board=None):
        """A Move; `board` (the engine's board() before the move, as a tuple) gives it
        its piece and capture."""
        return Move(code, self.text(code, colour), colour, self, board)
