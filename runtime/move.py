"""Moves as users see them: an engine move code with its UCI-style text."""

from dataclasses import dataclass

from .encoding import F_CASTLE, F_DROP, F_EP, move_from, move_selector, move_to


@dataclass(frozen=True)
class Move:
    """A move of a particular game.  str() gives it in Fairy-Stockfish's UCI style:
    `e2e4`, `e7e8q` (promotion), `b2h8+` (shogi-style promotion), `P@e4` (drop)."""

    code: int
    uci: str

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


class Notation:
    """Turns engine move codes into text for one game (built from the module's META)."""

    def __init__(self, meta):
        self.meta = meta
        files = meta["files"]
        self.square_of_index = {index: f"{chr(97 + i % files)}{i // files + 1}"
                                for i, index in enumerate(meta["squares"])}
        self.index_of_square = {v: k for k, v in self.square_of_index.items()}
        self.pieces = meta["pieces"]

    def text(self, code, colour=0):
        frm, to, sel = move_from(code), move_to(code), move_selector(code)
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

    def move(self, code, colour=0):
        return Move(code, self.text(code, colour))
