"""Repetition cycles: the rules that look at the moves of a repeated cycle.

A repetition rule (`repetition N ...`) ends the game when a position occurs for the
N-th time.  The perpetual rules look at the moves made since the first of those N
occurrences (the cycle, repeated N-1 times):

* perpetual check: every move of one side gave check (`by one piece`: and one and the
  same piece gave all those checks);
* perpetual chase: one piece of one side attacked one and the same enemy non-royal
  piece after every move of its side, and every move of the other side was a move of
  that chased piece (it only shuttled) -- Kjartansson's rule 6, docs/rules/kjartansson.md
  §7.4 and ambiguity 15, a simplified form of xiangqi's chase rule.

"The same piece" needs identities that follow pieces around the board, which a
position (squares and piece codes) does not have.  A PieceTracker gives every piece
an identity number when the game is set up or the piece is dropped and moves it with
the piece; after each move, a Record says which piece moved and what the mover's
pieces attack.  Only games with a rule that needs identities pay for them.
"""

from collections import Counter
from dataclasses import dataclass

from .encoding import F_DROP, code_colour, code_type, move_from, move_to


@dataclass(frozen=True)
class Record:
    """What one move did, for the cycle rules."""

    moved: int          # identity of the piece that moved (or was dropped)
    gave_check: bool
    checkers: frozenset  # identities of the mover's pieces attacking the enemy royal piece
    chases: frozenset    # (attacker, target) identities: the mover's attacks on non-royal pieces


class PieceTracker:
    """Piece identities along a game's history (see the module docstring)."""

    def __init__(self, engine, meta):
        self.engine = engine
        self.squares = meta["squares"]
        self.royal_type = meta["royal_type"]
        self.next_id = 0
        self.ids = [self._fresh_ids(self.board())]      # per position of the history

    # -- following the pieces ------------------------------------------------------------
    def board(self):
        return dict(zip(self.squares, self.engine.board()))

    def _fresh_ids(self, board):
        ids = {}
        for square, code in board.items():
            if code > 1:
                ids[square] = self.next_id
                self.next_id += 1
        return ids

    def follow(self, code, before, after):
        """The identities after `code` was played from the position whose identities
        are `self.ids[-1]`: `before` and `after` are the boards ({square: code})."""
        ids = dict(self.ids[-1])
        to = move_to(code)
        if code & F_DROP:
            ids[to] = self.next_id
            self.next_id += 1
            return ids
        frm = move_from(code)
        mover = ids.pop(frm)
        displaced = ids.pop(to, None)        # a captured piece (or a castling rook)
        ids[to] = mover
        # Whatever else changed: an en passant victim left the board, a castling rook
        # went from one square to another (or from under the king's destination).
        vacated = [sq for sq in list(ids) if after[sq] < 2]
        filled = [sq for sq, c in after.items() if c > 1 and sq not in ids]
        movers = [ids.pop(sq) for sq in vacated]
        if displaced is not None and code_colour(before[to]) == code_colour(before[frm]):
            movers.append(displaced)
        for square in filled:
            if movers:
                ids[square] = movers.pop(0)
            else:                            # (cannot happen; keep the tracker whole)
                ids[square] = self.next_id
                self.next_id += 1
        return ids

    def after(self, code, before, mover):
        """(identities, Record) for `code`, which the engine has just made from the
        position whose board was `before` ({square: code}); `mover` made it."""
        board = self.board()
        ids = self.follow(code, before, board)
        checkers, chases = set(), set()
        for frm, to in self.engine.capture_pairs(mover):
            if code_type(board[to]) == self.royal_type:
                checkers.add(ids[frm])
            else:
                chases.add((ids[frm], ids[to]))
        return ids, Record(ids[move_to(code)], self.engine.is_check(), frozenset(checkers),
                           frozenset(chases))

    def push(self, ids):
        self.ids.append(ids)

    def pop(self):
        self.ids.pop()


# -- the rules ------------------------------------------------------------------------------

def refuses_moves(meta):
    """Does a rule of the game make moves illegal because of the history (so that
    legal moves may differ from what perft, which sees one position, counts)?"""
    return "illegal" in (meta["perpetual_check"], meta["perpetual_chase"])


def needs_identities(meta):
    """Does a rule of the game speak of "the same piece" along the history?"""
    return bool(meta["perpetual_chase"] or meta["perpetual_check_one_piece"])


def most_repeated(keys):
    """How often the most frequent position of `keys` occurs."""
    return max(Counter(keys).values())


def cycle_moves(keys, needed):
    """If the last position of `keys` (the repetition keys of the positions of a game,
    oldest first) occurs for the `needed`-th time, the index of the first move of the
    cycle (the first of those occurrences): moves first..len(keys)-2 made it.
    Else None."""
    occurrences = [i for i, k in enumerate(keys) if k == keys[-1]]
    if len(occurrences) < needed:
        return None
    return occurrences[-needed]


def split_sides(records):
    """The records of the last mover's moves and of the other side's, in a cycle."""
    return records[::-1][0::2], records[::-1][1::2]


def perpetual_check(mine, one_piece):
    """Did these moves (one side's, in a cycle) all give check (with one piece)?"""
    if not mine or not all(r.gave_check for r in mine):
        return False
    if one_piece:
        return bool(frozenset.intersection(*(r.checkers for r in mine)))
    return True


def perpetual_chase(mine, theirs):
    """Did one piece of the side that made `mine` attack one and the same enemy piece
    after each of those moves, while every one of `theirs` moved that piece?"""
    if not mine or not theirs:
        return False
    common = frozenset.intersection(*(r.chases for r in mine))
    return any(all(r.moved == target for r in theirs) for _, target in common)
