"""The play diff: a behavioural witness that two games differ.

`play_diff(game_a, game_b, depth)` plays both compiled games side by side, breadth
first, and stops at the first position (after the shortest sequence of moves legal in
both) where their legal moves differ.  Moves are compared as UCI text, so the two games
need the same board size and piece letters (`check_playable`).

The search walks each game's `Position.engine` (the compiled engine's public handle):
raw move codes, no legality re-check and no history rules, for speed; the Position
gives the FEN of the position found.
"""

import time

from .result import DiffError, PlayDiff
from .words import piece_tokens

DEFAULT_MAX_POSITIONS = 500_000
PROGRESS_SECONDS = 2.0


class _Walker:
    """One game's side of the search: its legal moves as text, push and pop."""

    def __init__(self, position):
        self.position = position
        self.engine = position.engine
        self.notation = position.game.notation
        self.texts = {}         # (move code, colour) -> UCI text

    def moves(self):
        """{uci text: move code}"""
        colour = self.engine.state()[0]
        out = {}
        for code in self.engine.legal_moves():
            text = self.texts.get((code, colour))
            if text is None:
                text = self.texts[code, colour] = self.notation.text(code, colour)
            out[text] = code
        return out

    def push(self, code):
        self.engine.push(code)

    def pop(self):
        self.engine.pop()

    def key(self):
        return self.engine.key()

    def fen(self):
        """The FEN of the position now on the engine (None if it cannot be written)."""
        try:
            return self.position.fen()
        except Exception:           # noqa: BLE001 - the FEN is a courtesy in the report
            return None


def check_playable(va, vb):
    """Raise DiffError unless two variants (rule models) can be compared move by move:
    the same board size and the same piece letters."""
    if (va.files, va.ranks) != (vb.files, vb.ranks):
        raise DiffError(f"cannot compare by play: {va.name} is played on {va.files}x{va.ranks} "
                        f"and {vb.name} on {vb.files}x{vb.ranks}")
    la = {t.rstrip("~") for p in va.pieces for t in piece_tokens(p) if t}
    lb = {t.rstrip("~") for p in vb.pieces for t in piece_tokens(p) if t}
    if la != lb:
        parts = []
        if la - lb:
            parts.append(f"only {va.name} has {', '.join(sorted(la - lb))}")
        if lb - la:
            parts.append(f"only {vb.name} has {', '.join(sorted(lb - la))}")
        raise DiffError("cannot compare by play: the games' piece letters differ ("
                        + "; ".join(parts) + ")")


def play_diff(game_a, game_b, depth, fen=None, max_positions=DEFAULT_MAX_POSITIONS,
              progress=None, labels=None):
    """Breadth-first search for the shortest move sequence (moves legal in both games)
    after which the two games' legal moves differ, up to `depth` moves.

    game_a, game_b: compiled games (fairyforge.load).  fen: start here (in both games)
    instead of each game's start position.  Positions already seen (the same pair of
    positions reached by another order of moves) are skipped.  `progress`, if given, is
    called with a short message every few seconds of a long search.  `labels` names the
    two games in the report (default: their names, marked (A) and (B) if equal).
    Returns a PlayDiff; raises DiffError if the games cannot be compared by play and
    FenError if the FEN does not fit one of them.
    """
    if depth < 0:
        raise DiffError("the depth must be 0 or more")
    check_playable(game_a.variant, game_b.variant)
    pos_a = game_a.position(fen) if fen else game_a.start()
    pos_b = game_b.position(fen) if fen else game_b.start()
    if labels is None:
        labels = (game_a.name, game_b.name)
        if labels[0] == labels[1]:
            labels = (f"{labels[0]} (A)", f"{labels[1]} (B)")
    result = PlayDiff(a=labels[0], b=labels[1], depth=depth,
                      start_fen_a=pos_a.fen(), start_fen_b=pos_b.fen(), found=False)
    _Search(_Walker(pos_a), _Walker(pos_b), max_positions, progress).run(result)
    return result


class _Search:
    """The breadth-first search of play_diff over pairs of positions.

    A path is a tuple of (text, code in A, code in B); each position is reached by
    playing its path from the start and taken back afterwards.
    """

    def __init__(self, walker_a, walker_b, max_positions, progress):
        self.wa, self.wb = walker_a, walker_b
        self.max_positions, self.progress = max_positions, progress
        self.seen = {(walker_a.key(), walker_b.key())}
        self.positions = 0
        self.truncated = False      # stopped comparing at the position limit
        self.queue_full = False     # some positions were never queued (the limit again)
        self.started = self.last_report = time.monotonic()

    def run(self, result):
        frontier = [()]
        for level in range(result.depth + 1):
            result.searched_depth = level
            frontier = self._level(result, frontier, level)
            if result.found or self.truncated or not frontier:
                break
        result.positions = self.positions
        result.complete = result.found or not (self.truncated or self.queue_full)

    def _level(self, result, frontier, level):
        """Compare every position of one depth; the paths of the next one."""
        next_frontier = []
        for done, path in enumerate(frontier, 1):
            if self.positions >= self.max_positions:
                self.truncated = True
                break
            if self._visit(result, path, level < result.depth, next_frontier):
                break
            self._report(level, result.depth, done, len(frontier))
        return next_frontier

    def _visit(self, result, path, expand, next_frontier):
        """Compare the position at the end of `path`; True if the games differ there
        (the difference is written into `result`), else queue its unseen successors."""
        wa, wb = self.wa, self.wb
        for _, code_a, code_b in path:
            wa.push(code_a)
            wb.push(code_b)
        try:
            moves_a, moves_b = wa.moves(), wb.moves()
            self.positions += 1
            if moves_a.keys() != moves_b.keys():
                result.found = True
                result.sequence = [text for text, _, _ in path]
                result.only_a = sorted(set(moves_a) - set(moves_b))
                result.only_b = sorted(set(moves_b) - set(moves_a))
                result.fen_a, result.fen_b = wa.fen(), wb.fen()
                return True
            if expand:
                self._expand(path, moves_a, moves_b, next_frontier)
            return False
        finally:
            for _ in path:
                wa.pop()
                wb.pop()

    def _expand(self, path, moves_a, moves_b, next_frontier):
        """Queue the moves out of the current position that lead to an unseen pair."""
        wa, wb = self.wa, self.wb
        for text, code_a in moves_a.items():
            if self.positions + len(next_frontier) >= self.max_positions:
                self.queue_full = True
                return
            code_b = moves_b[text]
            wa.push(code_a)
            wb.push(code_b)
            key = (wa.key(), wb.key())
            wa.pop()
            wb.pop()
            if key not in self.seen:
                self.seen.add(key)
                next_frontier.append(path + ((text, code_a, code_b),))

    def _report(self, level, depth, done, total):
        """Pass on a progress message every few seconds."""
        now = time.monotonic()
        if self.progress is not None and now - self.last_report >= PROGRESS_SECONDS:
            self.last_report = now
            self.progress(f"depth {level} of {depth}: {done} of {total} positions at "
                          f"this depth, {self.positions} compared in all "
                          f"({now - self.started:.0f} s)")
