"""Fairy-Stockfish bitboards (`*8`, `d4 e4 d5 e5`, `a*`) as sets of squares, and sets
of squares as Fairyforge region expressions (`rank 8`, `ranks 7-9`, `d4 e4`)."""

import re

_TOKEN = re.compile(r"^([a-z*])(\d+|\*)$")


def squares(text, files, ranks):
    """The squares (file, rank), 0-based, of a bitboard option's value; None if the text
    is not a bitboard."""
    found = set()
    for token in text.split():
        if token == "-":
            break
        if token == "*":                    # Fairy-Stockfish's AllSquares
            return everything(files, ranks)
        match = _TOKEN.match(token)
        if not match:
            return None
        file_part, rank_part = match.groups()
        file_range = range(files) if file_part == "*" else [ord(file_part) - ord("a")]
        rank_range = range(ranks) if rank_part == "*" else [int(rank_part) - 1]
        found |= {(f, r) for f in file_range for r in rank_range if 0 <= f < files
                  and 0 <= r < ranks}
    return frozenset(found)


def everything(files, ranks):
    return frozenset((f, r) for f in range(files) for r in range(ranks))


def image(squares_, symmetry, files, ranks):
    """Black's version of White's squares under the board's symmetry."""
    if symmetry == "mirror":
        return frozenset((f, ranks - 1 - r) for f, r in squares_)
    return frozenset((files - 1 - f, ranks - 1 - r) for f, r in squares_)


def name(square):
    f, r = square
    return f"{chr(ord('a') + f)}{r + 1}"


def expression(squares_, files, ranks):
    """A region expression for a set of squares: whole ranks as `rank N` / `ranks A-B`,
    the rest square by square."""
    if not squares_:
        return "all except all"
    if squares_ == everything(files, ranks):
        return "all"
    full = [r for r in range(ranks) if all((f, r) in squares_ for f in range(files))]
    parts = [_ranks_text(run) for run in _runs(full)]
    rest = sorted((sq for sq in squares_ if sq[1] not in full), key=lambda s: (s[1], s[0]))
    parts += [name(sq) for sq in rest]
    return " ".join(parts)


def _runs(numbers):
    runs = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs


def _ranks_text(run):
    if len(run) == 1:
        return f"rank {run[0] + 1}"
    return f"ranks {run[0] + 1}-{run[-1] + 1}"
