"""Squares and regions as the resolver evaluates them.

Region expressions arrive from the parser as nested tuples (`("ranks", lo, hi)`,
`("union", parts)`, `("ref", name)` ...).  They are written from White's side and
mirrored for Black by the board's symmetry, unless a statement names its side.  The
result is a set of (file, rank) pairs for each side; the model stores square names.
"""

from fairyforge.fen import parse_square, square_name

from .loader import did_you_mean
from .model import SquareSet

SIDES = ("white", "black")


def small_int(token, limit=10 ** 6):
    """int(token), or limit + 1 for a number too long to matter (int() refuses numbers of
    thousands of digits with ValueError; every count in a definition is small)."""
    text = str(token).lstrip("0") or "0"
    return int(text) if len(text) <= 9 else limit + 1


class RegionResolver:
    """Evaluating squares and region expressions on the board being resolved.

    Mixed into the Resolver, which provides files, ranks, symmetry, the regions
    defined so far ((name, side) -> squares) and error().
    """

    def mirror(self, sq):
        f, r = sq
        if self.symmetry == "rotate":
            return (self.files - 1 - f, self.ranks - 1 - r)
        return (f, self.ranks - 1 - r)

    def square(self, st, token):
        sq = parse_square(str(token), self.files, self.ranks)
        if sq is None:
            self.error(st, token, f"square {token} is off the {self.files}x{self.ranks} board")
        return sq

    def _rank_bound(self, st, token):
        value = small_int(token)
        if not 1 <= value <= self.ranks:
            self.error(st, token, f"rank {value} is off the board (ranks 1-{self.ranks})")
            return None
        return value - 1

    def _file_bound(self, st, token):
        index = ord(str(token)) - ord("a")
        if not 0 <= index < self.files:
            last = chr(ord("a") + self.files - 1)
            self.error(st, token, f"file {token} is off the board (files a-{last})")
            return None
        return index

    def _white_atom(self, st, expr):
        """Squares of one literal region atom, written from White's side."""
        kind = expr[0]
        if kind == "ranks":
            lo, hi = self._rank_bound(st, expr[1]), self._rank_bound(st, expr[2])
            if lo is None or hi is None:
                return set()
            lo, hi = min(lo, hi), max(lo, hi)
            return {(f, r) for f in range(self.files) for r in range(lo, hi + 1)}
        if kind == "files":
            lo, hi = self._file_bound(st, expr[1]), self._file_bound(st, expr[2])
            if lo is None or hi is None:
                return set()
            lo, hi = min(lo, hi), max(lo, hi)
            return {(f, r) for f in range(lo, hi + 1) for r in range(self.ranks)}
        if kind == "rect":
            a, b = self.square(st, expr[1]), self.square(st, expr[2])
            if a is None or b is None:
                return set()
            return {(f, r) for f in range(min(a[0], b[0]), max(a[0], b[0]) + 1)
                    for r in range(min(a[1], b[1]), max(a[1], b[1]) + 1)}
        if kind == "all":
            return {(f, r) for f in range(self.files) for r in range(self.ranks)}
        raise AssertionError(kind)

    def region(self, st, expr, side, literal=False):
        """Evaluate a region expression for one side.

        Squares are written from White's side and mirrored for Black, unless `literal`
        (a statement that names its side, `for black`): then they are the board's own
        squares, as in `castling for black`.
        """
        kind = expr[0]
        if kind == "ref":
            name = str(expr[1])
            if (name, side) not in self.regions:
                self.error(st, expr[1], f"unknown region '{name}'"
                           + did_you_mean(name, self.region_names))
                return set()
            return set(self.regions[(name, side)])
        if kind == "union":
            out = set()
            for sub in expr[1]:
                out |= self.region(st, sub, side, literal)
            return out
        if kind == "inter":
            out = self.region(st, expr[1][0], side, literal)
            for sub in expr[1][1:]:
                out &= self.region(st, sub, side, literal)
            return out
        if kind == "except":
            out = self.region(st, expr[1], side, literal)
            for sub in expr[2]:
                out -= self.region(st, sub, side, literal)
            return out
        squares = self._white_atom(st, expr)
        if side == "black" and not literal:
            squares = {self.mirror(sq) for sq in squares}
        return squares

    def square_set(self, st, expr):
        return self.names(self.region(st, expr, "white")), self.names(self.region(st, expr, "black"))

    @staticmethod
    def names(squares):
        return tuple(square_name(f, r) for f, r in sorted(squares, key=lambda s: (s[1], s[0])))

    def as_set(self, st, expr):
        white, black = self.square_set(st, expr)
        return SquareSet(white, black)

