"""Standard algebraic notation (SAN) for any game, written as Fairy-Stockfish writes it.

    Nf3  exd5  Raa1  R10e5  e8=Q  Bxh8+  Bxh8=  P@e4  O-O  Qh5#

A piece is named by its owner's FEN letter in upper case (`+B` for a promoted shogi
bishop); a pawn, that is a piece that moves like a chess pawn or takes part in en
passant, is named by no letter.  A promotion to a piece whose letter is the mover's
with a `+` in front is written shogi style, `+`; any other promotion `=Q`.  When a move
that could promote with `+` does not, `=` follows it, so that a `+` always means the
promotion and the check mark never has to be guessed.  `+` after all that marks check
and `#` checkmate.  Drops are `P@e4`, castling `O-O` (towards the h-side) or `O-O-O`.
A gating move ends with `/` and the gated piece's letter, before the check mark
(`Nc3/H`; a castling names the gate's square too, `O-O/He1`).
In duck chess the duck's square follows a comma: `e4,d5`, `O-O,e1`.

Reading is lenient where it can be without guessing: the `x`, the check marks and
the `=` of a declined promotion may be left out, and a pawn may be given its letter;
an ambiguous or impossible text raises a MoveError that says why.
"""

import re
from dataclasses import dataclass, replace
from typing import Optional

from .encoding import code_colour, code_type, move_selector
from .errors import IllegalMoveError, InvalidMoveError, MoveError
from .svg_pieces import moves_like_chess_pawn


class AmbiguousMoveError(MoveError):
    """The SAN fits more than one legal move; `candidates` holds their SAN."""

    def __init__(self, move, candidates):
        self.candidates = list(candidates)
        super().__init__(move, f"ambiguous move {move}: it could be "
                               f"{' or '.join(self.candidates)}")


SYNTAX = re.compile(
    r"(?:(?P<castle>O-O(?:-O)?)"
    r"|(?P<drop>\+?[A-Z])@(?P<drop_to>[a-p][0-9]{1,2})"
    r"|(?P<letter>\+?[A-Z])?(?P<file>[a-p])?(?P<rank>[0-9]{1,2})?(?P<x>x)?"
    r"(?P<to>[a-p][0-9]{1,2})(?P<promo>=\+?[A-Z]|=|\+)?)"
    r"(?P<gate>/[A-Z](?:[a-p][0-9]{1,2})?)?"
    r"(?:,(?P<wall>[a-p][0-9]{1,2}))?")
CHECKS = re.compile(r"[+#]*")


@dataclass(frozen=True)
class Parts:
    """A move's SAN taken apart (what reading compares)."""

    letter: str                  # "" for a pawn; the drop's letter for a drop
    origin: Optional[tuple]      # (file letter, rank text) of the piece; None for a drop
    capture: bool
    to: str
    promotion: str               # "", "+", "=Q"; "=" for a declined + promotion
    castle: str = ""
    drop: bool = False
    gate: str = ""               # gating: "/H", a castling's "/He1"
    wall: str = ""               # the duck's square (`place a duck after every move`)

    def text(self, hint):
        duck = f",{self.wall}" if self.wall else ""
        if self.castle:
            return self.castle + self.gate + duck
        if self.drop:
            return f"{self.letter}@{self.to}{duck}"
        return (f"{self.letter}{hint}{'x' if self.capture else ''}{self.to}{self.promotion}"
                f"{self.gate}{duck}")


def san(pos, move):
    """The SAN of a legal move (a Move or UCI text) in this position."""
    return SanTable(pos).san(move)


def san_moves(pos):
    """[(Move, SAN)] of every legal move."""
    table = SanTable(pos)
    return [(m, table.san(m)) for m in table.legal]


def parse_san(pos, text):
    """The legal Move that a SAN text names (InvalidMoveError, IllegalMoveError or
    AmbiguousMoveError otherwise)."""
    return SanTable(pos).parse(text)


class SanTable:
    """The SAN of every legal move of one position, for writing and reading many."""

    def __init__(self, pos):
        self.pos = pos
        self.legal = pos.legal_moves()
        ucis = {m.uci for m in self.legal}
        self.parts = {m: _parts(pos, m, ucis) for m in self.legal}
        self.groups = {}                # (letter, destination) -> the Moves going there
        # Reading a text looks only at the moves to its square (the duck's thousands of
        # moves a position made a scan of them all per text slow).
        self.by_target = {}
        for m, p in self.parts.items():
            if not (p.drop or p.castle):
                self.groups.setdefault((p.letter, p.to), []).append(m)
            self.by_target.setdefault(_target(p), []).append(m)
        self.by_uci = {m.uci: m for m in self.legal}
        self._texts = {}

    def bare(self, move):
        """The SAN without its check mark."""
        return self.parts[move].text(_hint(move, self.parts, self.groups))

    def san(self, move):
        chosen = self._legal(move)
        if chosen not in self._texts:
            self._texts[chosen] = self.bare(chosen) + _check_mark(self.pos, chosen)
        return self._texts[chosen]

    def _legal(self, move):
        wanted = str(move)
        chosen = self.by_uci.get(wanted)
        if chosen is None:
            self.pos.push_uci(wanted)      # not legal: raises the position's own reason
        return chosen

    def parse(self, text):
        if not isinstance(text, str):
            raise InvalidMoveError(repr(text),
                                   f"a move must be a string, got {type(text).__name__}")
        clean = re.sub(r"[!?]+$", "", text.strip()).replace("0-0-0", "O-O-O")
        clean = clean.replace("0-0", "O-O")
        readings = _readings(clean)
        if not readings:
            raise InvalidMoveError(text, f"'{text}' is not SAN: write moves like e4, Nf3, "
                                         "exd5, e8=Q, Bxh8+, P@e4 or O-O")
        found = [m for r in readings for m in self.by_target.get(_reading_target(r), ())
                 if _fits(r, self.parts[m])]
        found = list(dict.fromkeys(found))      # two readings may name the same move
        if len(found) > 1:
            found = [m for m in found if self.san(m) == clean] or found
        if len(found) == 1:
            return found[0]
        if found:
            raise AmbiguousMoveError(text, sorted(self.bare(m) for m in found))
        raise _why_not(self.pos, text, readings[0], self.legal)


def _readings(text):
    """The ways to take a SAN text apart (a trailing + may be a promotion or a check)."""
    out = []
    body = text.rstrip("+#")
    marks = text[len(body):]
    for split in range(len(marks) + 1):
        m = SYNTAX.fullmatch(body + marks[:split])
        if m and CHECKS.fullmatch(marks[split:]):
            out.append(m)
    return out


def _target(parts):
    """Where a move goes, as `_reading_target` finds it in a text: its square (a drop's
    too) or its castling, and the duck's square."""
    return (parts.castle or parts.to, parts.wall)


def _reading_target(reading):
    """The `_target` of the moves a parsed text may name."""
    where = reading.group("castle") or reading.group("drop_to") or reading.group("to")
    return (where, reading.group("wall") or "")


def _fits(reading, parts):
    """Does a parsed text name this move (given its Parts)?"""
    if (reading.group("gate") or "") != parts.gate:
        return False
    if (reading.group("wall") or "") != parts.wall:
        return False
    if reading.group("castle"):
        return parts.castle == reading.group("castle")
    if reading.group("drop"):
        return parts.drop and (parts.letter, parts.to) == (reading.group("drop"),
                                                             reading.group("drop_to"))
    if parts.castle or parts.drop or parts.to != reading.group("to"):
        return False
    letter = reading.group("letter") or ""
    if letter != parts.letter and not (letter == "P" and parts.letter == ""):
        return False
    file, rank = reading.group("file"), reading.group("rank")
    if (file and file != parts.origin[0]) or (rank and rank != parts.origin[1]):
        return False
    promo = reading.group("promo") or ""
    return promo == parts.promotion or (promo == "" and parts.promotion == "=")


def _parts(pos, move, ucis):
    parts = _move_parts(pos, move, ucis)
    return replace(parts, wall=move.wall_square) if move.wall_square else parts


def _kingside(meta, move):
    """Is a castling the king's-side one?  (By its right's letter: under `chess960
    castling` the king may castle without moving, g1h1.)"""
    bit = move_selector(move.code)
    return next(c["fen"] for c in meta["castling"] if c["bit"] == bit).upper() == "K"


def _move_parts(pos, move, ucis):
    meta = pos.game.meta
    colour = move.side
    gate = _gate(meta, move)
    if move.is_castling:
        castle = "O-O" if _kingside(meta, move) else "O-O-O"
        return Parts("K", None, False, move.to_square, "", castle=castle,
                     gate=gate + (move.gate_square if gate else ""))
    if move.is_drop:
        return Parts(move.uci.split("@")[0], None, False, move.to_square, "", drop=True)
    typ = _type_of(meta, move.piece)
    letter = "" if typ in _pawn_types(pos.game) else _letter(meta, typ, colour)
    origin = (move.from_square[0], move.from_square[1:])
    promotion = ""
    if move.promotion is not None:
        promoted = _letter(meta, _type_of(meta, move.promotion), colour)
        mover = _letter(meta, typ, colour)
        promotion = "+" if promoted == "+" + mover else "=" + promoted
    elif move.uci + "+" in ucis:
        promotion = "="                      # a declined shogi-style promotion
    return Parts(letter, origin, move.capture is not None, move.to_square, promotion,
                 gate=gate)


def _gate(meta, move):
    """A gating move's mark, as Fairy-Stockfish writes it: `/` and the gated piece's
    letter (`Nc3/H`; a castling adds the square, `O-O/He1`); "" for other moves."""
    if move.gate is None:
        return ""
    return "/" + _letter(meta, _type_of(meta, move.gate), move.side)


def _hint(move, parts, groups):
    """The origin file, rank or square that tells this move from its twins: the moves
    of other pieces with the same letter to the same square (Fairy-Stockfish goes by
    the letter too, so a crazyhouse queen and a promoted one are twins)."""
    mine = parts[move]
    if mine.castle or mine.drop:
        return ""
    twins = [parts[m] for m in groups[(mine.letter, mine.to)]
             if m.from_square != move.from_square]
    file, rank = mine.origin
    if mine.letter == "" and mine.capture:
        # A pawn's capture always names its file (exd5).
        return file + (rank if any(p.origin[0] == file for p in twins) else "")
    if not twins:
        return ""
    if all(p.origin[0] != file for p in twins):
        return file
    if all(p.origin[1] != rank for p in twins):
        return rank
    return file + rank


def _check_mark(pos, move):
    engine = pos.engine
    engine.push(move.code)
    try:
        if not engine.is_check():
            return ""
        return "+" if engine.legal_moves() else "#"
    finally:
        engine.pop()


def _type_of(meta, name):
    return next(i for i, p in enumerate(meta["pieces"]) if p["name"] == name)


def _letter(meta, typ, colour):
    token = meta["pieces"][typ]["tokens"][colour] or meta["pieces"][typ]["tokens"][1 - colour]
    return token.upper().rstrip("~")


def _pawn_types(game):
    found = game.__dict__.get("_san_pawn_types")
    if found is None:
        variant = game.variant
        found = game._san_pawn_types = {
            i for i, piece in enumerate(variant.pieces)
            if piece.name in variant.en_passant or moves_like_chess_pawn(piece)}
    return found


def _why_not(pos, text, reading, legal):
    """The error for a SAN that names no legal move: the position's own reason when the
    text names one piece's move (or all the pieces it may name are refused for one
    reason), else what is missing."""
    meta = pos.game.meta
    side = meta["side_names"][pos.engine.state()[0]]
    if reading.group("castle"):
        return IllegalMoveError(text, f"illegal move {text}: {side} cannot castle that way now")
    suffix = ""
    if reading.group("drop"):
        ucis = [f"{reading.group('drop')}@{reading.group('drop_to')}"]
    else:
        promo = reading.group("promo") or ""
        suffix = "+" if promo == "+" else promo[1:].lower()
        duck = f",{reading.group('to')}{reading.group('wall')}" if reading.group("wall") else ""
        ucis = [origin + reading.group("to") + suffix + duck
                for origin in _origins(pos, reading)]
    if not ucis:
        what = reading.group("letter") or "pawn"
        return IllegalMoveError(text, f"illegal move {text}: {side} has no {what} that could "
                                      f"go to {reading.group('to')}")
    reasons = {}
    for uci in ucis:
        reason = _refusal(pos, uci, {m.uci for m in legal})
        if len(ucis) == 1 or "that way" not in reason:
            reasons.setdefault(reason, uci)
    if len(reasons) == 1:
        reason, uci = next(iter(reasons.items()))
        return IllegalMoveError(text, f"illegal move {text} ({uci}): {reason}")
    origins = ", ".join(uci.split(",")[0][:-len(reading.group("to")) - len(suffix)]
                        for uci in ucis)
    return IllegalMoveError(text, f"illegal move {text}: none of {side}'s pieces on "
                                  f"{origins} can go to {reading.group('to')}")


def _refusal(pos, uci, legal_ucis):
    """The position's reason for refusing a move given in UCI."""
    if uci in legal_ucis:                 # cannot happen: the SAN would have fitted
        return "it does not read as this move"
    try:
        pos.push_uci(uci)
    except MoveError as err:
        return str(err).split(": ", 1)[-1]
    pos.pop()
    return "it does not read as this move"


def _origins(pos, reading):
    """Squares of the mover's pieces that the text's letter and origin hints name."""
    meta = pos.game.meta
    colour = pos.engine.state()[0]
    files = meta["files"]
    letter = reading.group("letter") or ""
    pawns = _pawn_types(pos.game)
    out = []
    for i, code in enumerate(pos.engine.board()):
        if code < 2 or code_colour(code) != colour:
            continue
        typ = code_type(code)
        named = "" if typ in pawns else _letter(meta, typ, colour)
        if named != letter and not (letter == "P" and named == ""):
            continue
        square = f"{chr(97 + i % files)}{i // files + 1}"
        if reading.group("file") and square[0] != reading.group("file"):
            continue
        if reading.group("rank") and square[1:] != reading.group("rank"):
            continue
        out.append(square)
    return out
