"""Moves and positions as each protocol writes them.

Fairyforge's own move text is UCI style (`e2e4`, `e7e8q`, `b2h8+`, `P@e4`, ranks from 1,
castling as the king's move).  The protocols differ from it as Fairy-Stockfish's do:

* UCI with UCI_Chess960: castling is written as the king taking its own rook (`e1h1`);
  a FEN's castling field may name the rooks' files (Shredder-FEN `HAha`).
* USI: files numbered from the right, ranks lettered from the top (`7g7f`), drops
  with `*` (`P*5e`), positions as SFEN (`b` is the first player, hands as `2P`).
* UCCI and XBoard: on boards of exactly ten ranks, ranks are numbered from 0 (`h2e2`
  is `h2e2` on xiangqi's 0-9 ranks), as xiangqi programs write them.

A move read from a client is matched against the legal moves written in the dialect,
so every dialect accepts exactly what it writes.
"""

import re

OUR_MOVE = re.compile(r"(?:(?P<piece>\+?[A-Za-z])@|(?P<ff>[a-z])(?P<fr>[0-9]+))"
                      r"(?P<tf>[a-z])(?P<tr>[0-9]+)(?P<suffix>.*)")


class Dialect:
    """UCI: Fairyforge's own notation, with Chess960 castling when asked for."""

    drop_mark = "@"
    square_pattern = r"[a-z][0-9]+"

    def __init__(self, game, chess960=False):
        self.game = game
        self.files = game.meta["files"]
        self.ranks = game.meta["ranks"]
        self.chess960 = chess960
        # (king from, king to) -> rook square, for writing castling as king-takes-rook
        self.castling_rooks = {(c.king_from, c.king_to): c.rook_from
                               for c in game.variant.castling}

    # -- squares -----------------------------------------------------------------------
    def square(self, file, rank):
        """A square (0-based file and rank) as the dialect writes it."""
        return f"{chr(97 + file)}{rank + 1}"

    def _convert_square(self, file_letter, rank_digits):
        return self.square(ord(file_letter) - 97, int(rank_digits) - 1)

    # -- moves -------------------------------------------------------------------------
    def move(self, move):
        """A Move (or its text) as the dialect writes it."""
        text = str(move)
        if self.chess960 and getattr(move, "is_castling", False):
            rook = self.castling_rooks.get((text[:2], text[2:4]))
            if rook is not None:
                return text[:2] + rook
        m = OUR_MOVE.fullmatch(text)
        if m is None:
            return text
        target = self._convert_square(m["tf"], m["tr"])
        if m["piece"]:
            return f"{m['piece']}{self.drop_mark}{target}{m['suffix']}"
        return f"{self._convert_square(m['ff'], m['fr'])}{target}{m['suffix']}"

    def find(self, text, legal_moves):
        """The legal Move that `text` names in this dialect, or None."""
        for candidate in self._spellings(text):
            for move in legal_moves:
                if self.move(move) == candidate:
                    return move
        return None

    def _spellings(self, text):
        """The text, and the forms clients also send: a trailing `=` (shogi: do not
        promote) dropped, an uppercase promotion letter lowered."""
        yield text
        if text.endswith("="):
            yield text[:-1]
        if text[-1:].isupper() and text[-2:-1].isdigit():
            yield text[:-1] + text[-1].lower()

    def ours(self, text):
        """A dialect move turned into Fairyforge's text (for error messages)."""
        return text

    # -- positions ---------------------------------------------------------------------
    def fen(self, words):
        """The FEN that the words after `position fen` stand for."""
        text = " ".join(words)
        if not self.chess960:
            return text
        return shredder_to_fen(text, self.game)


class Usi(Dialect):
    """USI: shogi's coordinates and SFEN."""

    drop_mark = "*"
    square_pattern = r"[0-9]+[a-z]"

    def square(self, file, rank):
        return f"{self.files - file}{chr(97 + self.ranks - 1 - rank)}"

    def ours(self, text):
        def convert(m):
            file, rank = self.files - int(m[1]), self.ranks - 1 - (ord(m[2]) - 97)
            return f"{chr(97 + file)}{rank + 1}"
        return re.sub(r"([0-9]+)([a-z])", convert, text.replace("*", "@"))


class ZeroRanks(Dialect):
    """UCCI and XBoard: ranks from 0 on ten-rank boards (xiangqi's convention)."""

    def square(self, file, rank):
        return f"{chr(97 + file)}{rank if self.ranks == 10 else rank + 1}"

    def ours(self, text):
        if self.ranks != 10:
            return text
        return re.sub(r"([a-z])([0-9]+)", lambda m: f"{m[1]}{int(m[2]) + 1}", text)


# -- FEN conversions ------------------------------------------------------------------

def sfen_to_fen(words, game):
    """SFEN words (`board side hands [move]`) as a Fairyforge FEN."""
    if len(words) < 2:
        return " ".join(words)            # let the FEN reader say what is missing
    board, side = words[0], words[1]
    hands = words[2] if len(words) > 2 else "-"
    number = words[3] if len(words) > 3 else "1"
    held = ""
    for count, letter in re.findall(r"([0-9]*)(\+?[A-Za-z])", "" if hands == "-" else hands):
        held += letter * min(int(count or 1), 1000)
    side = {"b": "w", "w": "b"}.get(side, side)
    fullmove = (int(number) - 1) // 2 + 1 if number.isdigit() and int(number) > 0 else number
    drops = game.meta["has_drops"] or game.meta["setup_has_holdings"]
    return f"{board}{f'[{held}]' if drops or held else ''} {side} - - 0 {fullmove}"


def fen_to_sfen(fen):
    """A Fairyforge FEN as SFEN (for `d` in a USI session)."""
    words = fen.split()
    board, held = words[0], ""
    if "[" in board:
        board, held = board[:-1].split("[", 1)
    side = words[1] if len(words) > 1 else "w"
    fullmove = int(words[-1]) if words[-1].isdigit() else 1
    counts = {}
    for letter in re.findall(r"\+?[A-Za-z]", held.replace("-", "")):
        counts[letter] = counts.get(letter, 0) + 1
    hands = "".join(f"{n if n > 1 else ''}{letter}" for letter, n in counts.items()) or "-"
    ply = 2 * (fullmove - 1) + (1 if side == "b" else 0)
    return f"{board} {'b' if side == 'w' else 'w'} {hands} {ply + 1}"


def shredder_to_fen(fen, game):
    """A FEN whose castling field names the rooks' files (Shredder-FEN, as Chess960
    GUIs send it) with the field in the game's own letters (KQkq)."""
    words = fen.split()
    if len(words) < 3 or not re.fullmatch(r"[A-Za-z]+", words[2]):
        return fen
    letters = {}
    for rule in game.meta["castling"]:
        file = game.notation.square_of_index[rule["rook_from"]][0]
        letters[file.upper() if rule["colour"] == 0 else file] = rule["fen"]
    words[2] = "".join(letters.get(ch, ch) for ch in words[2])
    return " ".join(words)
