"""Where pieces can go on an empty board: the one place that walks a piece's moves
outside the engine.

The resolver asks whether a promotion can ever happen, the lowering phase which
squares a piece could never leave (no drops there, forced promotion) and how mobile a
piece is (its value), and the runtime which squares a piece could ever stand on (to
refuse impossible FENs).  All of them walk the same moves: the piece's atoms turned
for the side (`orient`), from (file, rank) squares, honouring initial-only and
region-only moves and confinement, as `PieceWalk` does.
"""

from fairyforge.fen import parse_square

SIDES = ("white", "black")


def orient(dx, dy, colour, symmetry):
    """A White-relative vector as `colour` (0 White, 1 Black) plays it: Black's ranks
    run the other way, and with `rotate` symmetry its files too."""
    if colour == 0:
        return dx, dy
    return (-dx if symmetry == "rotate" else dx), -dy


def move_list_bound(files, ranks, pieces, ndrops, ncastlings, ngates=0, walls=False):
    """A bound on the pseudo-legal moves of any position the game allows: every square
    holding the piece with the most moves, a rider going the board's length in each of
    its directions, each move once per promotion choice (and once unpromoted), plus
    every drop on every square and every castling, and with gating (`ngates` types) each
    move from a back-rank square and each castling once more per type, on the king's
    square or the rook's.  The engine sizes its move lists by it, so it must never be
    below what a position can have.

    With `walls` (a wall placed after every move), each move comes once per square
    left empty: with k squares taken, k pieces make at most k * most board moves, each
    leaving at most squares - k + 1 empty, and k * (squares - k + 1) is at most
    (squares + 1)^2 / 4."""
    squares = files * ranks
    most = 0
    for piece in pieces:
        reach = sum(a.max_steps or max(files, ranks) for a in piece.moves)
        choices = len(piece.promotion.choices) + 1 if piece.promotion else 1
        most = max(most, reach * choices)
    gates = ngates * (files * most + 2 * ncastlings)
    if walls:
        return ((most * (squares + 1) ** 2 // 4 + ndrops * squares * squares
                 + (ncastlings + 16 + gates) * squares))
    return squares * most + ndrops * squares + ncastlings + gates + 16


def squares_of(names, files, ranks):
    """{(file, rank)} of square names."""
    return {parse_square(n, files, ranks) for n in names}


class PieceWalk:
    """A piece's moves for one side, walked on an empty files x ranks board.

    Built without `initial` squares, initial-only moves are allowed everywhere (what
    "could this ever happen" asks); region-only moves keep their region.
    """

    def __init__(self, files, ranks, symmetry, atoms, colour, initial=None, confine=None):
        """`atoms`: MoveAtoms, White-relative; `initial`, `confine`: {(file, rank)} or
        None (an atom's `only_in` is read for this side)."""
        self.files, self.ranks, self.confine = files, ranks, confine
        self.colour, self.symmetry = colour, symmetry
        self.banned_screens = set()     # types its hops may not jump (`no hop over`; set by `of`)
        side = SIDES[colour]
        self.atoms = []
        for a in atoms:
            only = (squares_of(a.only_in.for_side(side), files, ranks)
                    if a.only_in is not None else None)
            need = (initial or set()) if a.initial and initial is not None else None
            self.atoms.append((a, orient(a.dx, a.dy, colour, symmetry), need, only))

    @classmethod
    def of(cls, variant, piece, colour):
        """A piece of the model, with all its conditions."""
        files, ranks, side = variant.files, variant.ranks, SIDES[colour]
        confine = (squares_of(piece.confined_to.for_side(side), files, ranks)
                   if piece.confined_to is not None else None)
        walk = cls(files, ranks, variant.symmetry, piece.moves, colour,
                   squares_of(piece.initial_squares.for_side(side), files, ranks), confine)
        names = [p.name for p in variant.pieces]
        walk.banned_screens = {names.index(screen) for hopper, screen
                               in variant.screen_bans if hopper == piece.name}
        return walk

    def on_board(self, square):
        return 0 <= square[0] < self.files and 0 <= square[1] < self.ranks

    def lines(self, square):
        """For each atom that applies on `square`: (atom, the squares along its line
        in order, as far as the board and its range allow)."""
        longest = max(self.files, self.ranks)
        for atom, (dx, dy), need, only in self.atoms:
            if (need is not None and square not in need) or \
                    (only is not None and square not in only):
                continue
            steps = 1 if atom.kind == "leap" else (atom.max_steps or longest)
            if atom.kind in ("hop", "grasshop"):
                steps = longest          # a hopper lands somewhere along its line
            line = []
            for k in range(1, steps + 1):
                to = (square[0] + k * dx, square[1] + k * dy)
                if not self.on_board(to) or (atom.along and to not in only):
                    break               # (a move `along` a region stops where it ends)
                line.append(to)
            yield atom, line

    def targets(self, square):
        """(atom, square) for every square a move from `square` can end on when the
        board is empty but for the screens a hopper needs (a hopper's target is any
        square past the first one on its line)."""
        for atom, line in self.lines(square):
            landing = line[1:] if atom.kind in ("hop", "grasshop") else line
            for to in landing:
                if self.confine is None or to in self.confine:
                    yield atom, to

    def reach(self, square):
        """Every square on the lines of the piece's moves from `square` (a superset of
        its targets: a hopper's first square counts), within its confinement."""
        for _, line in self.lines(square):
            for to in line:
                if self.confine is None or to in self.confine:
                    yield to

    def can_move_from(self, square):
        return next(self.targets(square), None) is not None

    def mobility(self, square):
        """How many squares the piece reaches from `square` on an empty board, a move
        or a capture counting half, a hop half again (it needs a screen)."""
        total = 0.0
        for atom, line in self.lines(square):
            weight = (0.5 if atom.moves else 0) + (0.5 if atom.captures else 0)
            if atom.kind in ("hop", "grasshop"):
                weight *= 0.5
            for to in line:
                if self.confine is not None and to not in self.confine:
                    break
                total += weight
        return total

    def closure(self, seeds, avoid=frozenset()):
        """Every square reachable from `seeds` by moves, in any number of steps, without
        passing through `avoid` (where the piece would have to promote)."""
        seen = set(seeds)
        todo = list(seen)
        while todo:
            square = todo.pop()
            for to in self.reach(square):
                if to not in seen and to not in avoid:
                    seen.add(to)
                    todo.append(to)
        return seen

    def captures(self, board, origin):
        """The squares the piece on `origin` attacks on `board` ({(file, rank): (type,
        colour)}): where it could capture an enemy piece, as the engine generates
        captures (lame leaps blocked, riders stopped, hoppers over one screen)."""
        found = set()
        for atom, line in self.lines(origin):
            if not atom.captures or not self._unblocked(board, origin, atom):
                continue
            target = self._capture_square(board, atom, line)
            if target is not None and self._banned_screen(board, atom, line, target):
                continue
            if target is not None and board[target][1] != self.colour and (
                    self.confine is None or target in self.confine):
                found.add(target)
        return found

    def _banned_screen(self, board, atom, line, target):
        """Does a hop to `target` jump a piece its `no hop over` rule bans?"""
        if atom.kind not in ("hop", "grasshop") or not self.banned_screens:
            return False
        screen = next(to for to in line if to in board)
        return screen != target and board[screen][0] in self.banned_screens

    def _unblocked(self, board, origin, atom):
        """Are the squares a lame leap passes empty?"""
        for x, y in atom.lame_path:
            dx, dy = orient(x, y, self.colour, self.symmetry)
            if (origin[0] + dx, origin[1] + dy) in board:
                return False
        return True

    @staticmethod
    def _capture_square(board, atom, line):
        """The occupied square an atom's capture would land on along `line`, or None."""
        if atom.kind == "leap":
            return line[0] if line and line[0] in board else None
        occupied = [to for to in line if to in board]
        if atom.kind == "ride":
            return occupied[0] if occupied else None
        if atom.kind == "hop":              # over exactly one screen, to the next piece
            return occupied[1] if len(occupied) > 1 else None
        if not occupied:                    # grasshop: right behind the first piece
            return None
        behind = line.index(occupied[0]) + 1
        return line[behind] if behind < len(line) and line[behind] in board else None
