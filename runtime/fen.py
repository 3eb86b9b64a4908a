"""FEN in Fairy-Stockfish's style, for any board size and piece set.

    <board>[<holdings>] <side> <castling> <en passant> <halfmove> <fullmove>

Ranks run from the last to the first, separated by `/`; digits (possibly several, as
in `10`) count empty squares; a piece is an optional `+` (promoted shogi piece), a
letter (uppercase White, lowercase Black) and an optional `~` (a promoted piece that
demotes when captured).  Holdings are the pieces in hand, in brackets (`[]` or `[-]`
when empty), or as one more rank after a slash (`.../RNBQKBNR/Pp`, the crazyhouse form
lichess and Fairy-Stockfish read).  The counters are read up to COUNTER_LIMIT.  Everything after the side to move may be missing; shogi-style FENs
(`... w 0 1`) with no castling and en passant fields are accepted too.

This module is pure Python and knows nothing of a particular game: it is given a
board size and a table of piece tokens by its caller.  After the fullmove number, a
seventh field lists the sides that have already done what lifts their opponent's
event-conditioned restriction (WWII Chess rule 8: `w` once Japan has captured, checked or
promoted, which frees the USA): `-`, `w`, `b` or `wb`.

Check counters (n-check) come in either of Fairy-Stockfish's two forms: its own, the
checks each side still has to give, `3+3` (White's first) before the halfmove clock,
and lichess's, the checks each side has given, `+2+0` after the fullmove number.  They
are taken apart here and judged by the game (compiler/positions.py): only a game with a
check count has them.  A counting rule (makruk) puts its limit in place of the en
passant field and the plies counted in place of the halfmove clock, once counting has
started: `... w - 32 3 40`, three numbers where there are usually two.
"""

import re
from dataclasses import dataclass, field

from .errors import FenError

PIECE_TOKEN = re.compile(r"\+?[A-Za-z]~?")
CHECKS_LEFT = re.compile(r"([0-9]{1,6})\+([0-9]{1,6})")       # 3+3: checks still to give
CHECKS_GIVEN = re.compile(r"\+([0-9]{1,6})\+([0-9]{1,6})")    # +2+0: checks given (lichess)


def square_name(file_index, rank_index):
    """'a1' for (0, 0); ranks past 9 are written a10, a11, ..."""
    return f"{chr(ord('a') + file_index)}{rank_index + 1}"


def parse_square(text, files, ranks):
    """(file, rank) of an algebraic square name, or None if it is not on the board."""
    # No leading zero: 'a01' is not a square name (and would not match the name a1).
    m = re.fullmatch(r"([a-z])([1-9][0-9]?)", text)
    if not m:
        return None
    f, r = ord(m.group(1)) - ord("a"), int(m.group(2)) - 1
    if 0 <= f < files and 0 <= r < ranks:
        return f, r
    return None


@dataclass
class ParsedFen:
    """A FEN taken apart: pieces by (file, rank), holdings and the state fields.

    Pieces are given as whatever the caller's token table maps their FEN token to
    (for the runtime: (type index, colour)).
    """

    board: dict = field(default_factory=dict)       # (file, rank) -> token value
    holdings: list = field(default_factory=list)    # token values
    has_holdings: bool = False
    side: str = "white"
    castling: str = "-"
    en_passant: str = "-"
    halfmove: int = 0
    fullmove: int = 1
    lifted: str = "-"           # restrictions already lifted (see Position)
    checks_left: tuple = None   # (White, Black) checks still to give, from `3+3`
    checks_given: tuple = None  # (White, Black) checks given, from lichess's `+2+0`
    counting_limit: int = None  # a counting rule's limit, in place of the en passant field
    walls: frozenset = frozenset()  # (file, rank) of the wall squares (`*`): no piece
                                    # may stand on or pass them


def parse_board(text, files, ranks, tokens, walls=None):
    """Parse a board field (without holdings) into {(file, rank): tokens[token]}.  A
    wall square (`*`, as Fairy-Stockfish writes it) is added to the set `walls`; where
    the caller gives none, a wall is an error."""
    rows = text.split("/")
    if len(rows) != ranks:
        raise FenError("board", f"{len(rows)} ranks given, the board has {ranks}")
    board = {}
    for row_number, row in enumerate(rows):
        rank = ranks - 1 - row_number
        file, pos = 0, 0
        while pos < len(row):
            ch = row[pos]
            if "0" <= ch <= "9":        # not str.isdigit(): that accepts '²' and '٣' too
                m = re.compile(r"[0-9]+").match(row, pos)
                # A run of thousands of digits would make int() itself raise ValueError;
                # one of more digits than any board has files can never fit anyway.
                if len(m.group(0)) > 6:
                    raise FenError("board", f"rank {rank + 1} has more than {files} files")
                file += int(m.group(0))
                pos = m.end()
                continue
            if ch == "*" and walls is not None:
                if file >= files:
                    raise FenError("board", f"rank {rank + 1} has more than {files} files")
                walls.add((file, rank))
                file, pos = file + 1, pos + 1
                continue
            m = PIECE_TOKEN.match(row, pos)
            if not m:
                raise FenError("board", f"unexpected '{ch}' in rank {rank + 1}")
            if m.group(0) not in tokens:
                raise FenError("board", f"unknown piece '{m.group(0)}' in rank {rank + 1}")
            if file >= files:
                raise FenError("board", f"rank {rank + 1} has more than {files} files")
            board[(file, rank)] = tokens[m.group(0)]
            file += 1
            pos = m.end()
        if file != files:
            raise FenError("board", f"rank {rank + 1} has {file} files, the board has {files}")
    return board


def parse_holdings(text, tokens):
    """Parse the inside of the holdings brackets into [tokens[token]]."""
    if text in ("", "-"):
        return []
    out, pos = [], 0
    while pos < len(text):
        m = PIECE_TOKEN.match(text, pos)
        if not m:
            raise FenError("holdings", f"unexpected '{text[pos]}'")
        if m.group(0) not in tokens:
            raise FenError("holdings", f"unknown piece '{m.group(0)}'")
        out.append(tokens[m.group(0)])
        pos = m.end()
    return out


# The largest halfmove clock or fullmove number read from a FEN a user gives.  The
# engine keeps both in a C int (at most ENGINE_COUNTER_LIMIT); the margin of 147 million
# plies between the two is more moves than a history in memory can hold, so the
# counters never overflow.  A FEN the engine itself wrote (Position.copy) is read up to
# the engine's limit, so a copy never fails even near COUNTER_LIMIT.
COUNTER_LIMIT = 2_000_000_000
ENGINE_COUNTER_LIMIT = 2**31 - 1


def _counter(text, name, minimum, limit):
    if not re.fullmatch(r"[0-9]+", text):
        raise FenError(name, f"'{_clip(text)}' is not a number")
    # Compare digits before int(): thousands of digits would make int() raise.
    value = int(text) if len(text.lstrip("0")) <= len(str(limit)) else None
    if value is None or value > limit:
        raise FenError(name, f"must be at most {limit}, got {_clip(text)}")
    if value < minimum:
        raise FenError(name, f"must be at least {minimum}, got {value}")
    return value


def _clip(text, width=24):
    """A field for an error message: at most `width` characters of it."""
    return text if len(text) <= width else f"{text[:width]}... ({len(text)} characters)"


def split_board_field(text, ranks):
    """(board, holdings or None) of the first FEN field.

    Holdings come in brackets after the board (`...RNBQKBNR[Pp]`), or, as lichess and
    Fairy-Stockfish also read crazyhouse FENs, as one more rank after a slash
    (`...RNBQKBNR/Pp`, `...RNBQKBNR/` with empty hands)."""
    m = re.fullmatch(r"([^\[\]]*)(?:\[([^\[\]]*)\])?", text)
    if not m:
        raise FenError("holdings", "holdings must be one bracketed group after the board, as in [Pp]")
    board, holdings = m.group(1), m.group(2)
    # (A last part with digits is a rank too many, left to parse_board to report.)
    if holdings is None and board.count("/") == ranks \
            and not re.search(r"[0-9]", board.rpartition("/")[2]):
        board, _, holdings = board.rpartition("/")
    return board, holdings


def _is_counter(text):
    """Is a field one of the counters (a number, or checks still to give as `3+3`)?"""
    return re.fullmatch(r"[0-9]+", text) is not None or CHECKS_LEFT.fullmatch(text) is not None


def _has_counting_limit(rest):
    """Do the fields after the castling field start with a counting limit in place of
    the en passant field?  Then three numbers follow the castling field, or a number,
    check counters and two numbers (karouk: `30 1+1 6 40`)."""
    numbers = [text for i, text in enumerate(rest[:4])
               if not (i == 1 and CHECKS_LEFT.fullmatch(text))]
    return len(numbers) >= 3 and all(re.fullmatch(r"[0-9]+", text) for text in numbers[:3])


def parse_fen(fen, files, ranks, tokens, counter_limit=COUNTER_LIMIT):
    """Split and check a whole FEN; game-specific checks are the caller's."""
    if not isinstance(fen, str):
        raise FenError("fen", "a FEN must be a string")
    parts = fen.split()
    if not parts:
        raise FenError("board", "the FEN is empty")
    result = ParsedFen()
    board_text, holdings_text = split_board_field(parts[0], ranks)
    walls = set()
    result.board = parse_board(board_text, files, ranks, tokens, walls)
    result.walls = frozenset(walls)
    if holdings_text is not None:
        result.has_holdings = True
        result.holdings = parse_holdings(holdings_text, tokens)
    rest = parts[1:]
    if rest:
        side = rest.pop(0)
        if side not in ("w", "b"):
            raise FenError("side", f"side to move must be w or b, got '{_clip(side)}'")
        result.side = "white" if side == "w" else "black"
    # Optional castling and en passant fields; a shogi-style FEN goes straight to counters.
    if rest and not _is_counter(rest[0]):
        result.castling = rest.pop(0)
    if rest and not _is_counter(rest[0]):
        result.en_passant = rest.pop(0)
    if _has_counting_limit(rest):
        result.counting_limit = _counter(rest.pop(0), "counting limit", 0, counter_limit)
    if rest and CHECKS_LEFT.fullmatch(rest[0]):
        result.checks_left = tuple(int(n) for n in CHECKS_LEFT.fullmatch(rest.pop(0)).groups())
    elif rest and "+" in rest[0]:
        raise FenError("check counters", f"'{_clip(rest[0])}' must be the checks each side "
                       "has still to give, as in 3+3")
    if rest:
        result.halfmove = _counter(rest.pop(0), "halfmove clock", 0, counter_limit)
    if rest:
        result.fullmove = _counter(rest.pop(0), "fullmove number", 1, counter_limit)
    if rest and CHECKS_GIVEN.fullmatch(rest[0]):
        result.checks_given = tuple(int(n) for n in CHECKS_GIVEN.fullmatch(rest.pop(0)).groups())
    elif rest and rest[0].startswith("+"):
        raise FenError("check counters", f"'{_clip(rest[0])}' must be the checks each side "
                       "has given, as in +2+0")
    if rest:
        result.lifted = rest.pop(0)
    if rest:
        raise FenError("fen", f"unexpected extra field '{_clip(rest[0])}'")
    return result
