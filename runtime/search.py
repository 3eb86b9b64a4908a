"""Thinking: iterative deepening over the generated engine's alpha-beta search.

Each depth is one call into the compiled module (the search itself runs in C without
the GIL); this module decides how deep to go, stops on the node or time limit, keeps
the last completed iteration's move (or that of an interrupted one, where a move it
searched to the end beat it), and reports progress as UCI-style `info`.

MultiPV: each depth searches the root once per line, each time without the moves of
the lines before it, so line k is the best move that is none of lines 1..k-1.  Threads
(Lazy SMP, smp.py) search copies of the root beside the main search, sharing its
transposition table.  Time (timing.py) is a soft limit checked between depths and a
hard limit inside the search.  Strength limiting (strength.py) searches a few lines
with a node budget and picks one of them by the Elo asked for.
"""

import time
from dataclasses import dataclass, field
from typing import Optional

from .smp import Helpers
from .timing import Budget

MATE = 30000
MATE_BOUND = 29000
INF = 32000
MAX_DEPTH = 64
# Aspiration windows: from this depth on, a single line is first searched in a window
# of the search setting `aspiration` (centipawns, 0: off; Engine.configure_search)
# around the previous depth's score, widened (doubled on the failing side) until the
# score falls inside it.
ASPIRATION_DEPTH = 4


@dataclass
class Info:
    """What an iteration found (UCI `info`): score in centipawns or mate in N moves."""

    depth: int
    score: int
    nodes: int
    seconds: float
    pv: list = field(default_factory=list)      # Move objects
    multipv: Optional[int] = None               # the line's rank in a MultiPV search

    @property
    def mate(self):
        if self.score > MATE_BOUND:
            return (MATE - self.score + 1) // 2
        if self.score < -MATE_BOUND:
            return -((MATE + self.score + 1) // 2)
        return None

    @property
    def nps(self):
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0

    def uci(self):
        score = f"mate {self.mate}" if self.mate is not None else f"cp {self.score}"
        pv = " ".join(str(m) for m in self.pv)
        rank = f" multipv {self.multipv}" if self.multipv else ""
        return (f"info depth {self.depth}{rank} score {score} nodes {self.nodes} "
                f"nps {self.nps} time {int(self.seconds * 1000)} pv {pv}").rstrip()


@dataclass
class Result:
    best_move: Optional[object]       # a Move, None when there is no legal move
    info: Optional[Info]
    lines: list = field(default_factory=list)     # the last depth's Info per line


class _Run:
    """The state of one think(): limits, the nodes spent, the lines found."""

    def __init__(self, position, legal, nodes, budget, helpers):
        self.engine = position.engine
        self.position = position
        self.codes = [m.code for m in legal]
        self.by_code = {m.code: m for m in legal}
        self.node_limit = nodes
        self.budget = budget
        self.helpers = helpers
        self.main_nodes = 0
        self.stopped = False
        self.window = self.engine.search_settings()["aspiration"]

    @property
    def nodes(self):
        return self.main_nodes + (self.helpers.nodes if self.helpers else 0)

    def search_line(self, depth, codes, alpha=-INF, beta=INF, first=None):
        """One search of the root restricted to `codes`, in the window (alpha, beta),
        the move `first` (a code) searched first: (score, Move or None).  A stopped
        search gives the best of the moves it searched to the end, or None."""
        nodes_left = self.node_limit - self.main_nodes if self.node_limit else 0
        if self.node_limit and nodes_left <= 0:
            self.stopped = True
            return None, None
        score, code, used, stopped = self.engine.search_depth(
            depth, node_limit=nodes_left, seconds=self.budget.hard_left(), moves=codes,
            alpha=alpha, beta=beta, first=first or 0)
        self.main_nodes += used
        self.stopped = self.stopped or stopped
        return score, self.by_code.get(code)

    def aspiring_line(self, depth, codes, guess, first):
        """search_line in a narrow window around `guess` (the previous depth's score),
        widened on the side it fails until the score lies inside it."""
        window = self.window
        if not window or guess is None or depth < ASPIRATION_DEPTH \
                or abs(guess) >= MATE_BOUND:
            return self.search_line(depth, codes, first=first)
        below = above = window
        while True:
            alpha, beta = max(guess - below, -INF), min(guess + above, INF)
            score, move = self.search_line(depth, codes, alpha, beta, first)
            if move is None or self.stopped:
                return score, move
            if alpha < score < beta or (alpha == -INF and beta == INF):
                return score, move
            if score <= alpha:
                below = INF if below >= 4 * window else below * 2
            else:
                above = INF if above >= 4 * window else above * 2

    def iteration(self, depth, lines_wanted, guess=None, first=None):
        """One depth: up to `lines_wanted` (score, move) lines, best first; [] when the
        depth was stopped before its first line was complete.  `guess` and `first`: the
        previous depth's score and move (a code), for an aspiration window and the
        first move searched when a single line is wanted."""
        lines, excluded = [], set()
        for _ in range(lines_wanted):
            codes = [c for c in self.codes if c not in excluded]
            if not codes:
                break
            if lines_wanted == 1:
                score, move = self.aspiring_line(depth, codes, guess, first)
            else:
                score, move = self.search_line(depth, codes)
            if move is None:
                break
            lines.append((score, move))       # a stopped depth 1 still gives its best
            if self.stopped:
                break
            excluded.add(move.code)
        lines.sort(key=lambda line: -line[0])
        return lines


def think(position, depth=None, nodes=None, movetime=None, on_info=None, stop_flag=None,
          moves=None, budget=None, multipv=1, threads=1, strength=None):
    """Search `position` and return a Result; at least one depth is always completed.

    depth: plies (default: as deep as the limits allow, at most 64); nodes: node budget;
    movetime: seconds, or budget: a timing.Budget (a clock's soft and hard limits);
    multipv: lines reported per depth; threads: search threads (Lazy SMP); strength: a
    strength.Strength that limits and randomises the play.  on_info(Info) is called
    for each line of each completed depth.  moves, if given, restricts the search to
    those of the legal moves (UCI `searchmoves`).
    """
    legal = position.legal_moves()           # history-dependent rules applied here
    if moves is not None:
        legal = [m for m in legal if m in moves]
    if not legal:
        return Result(None, None)
    if strength is not None:
        depth, nodes, multipv = strength.limits(depth, nodes, multipv)
    if budget is None:
        budget = Budget.fixed(movetime) if movetime else Budget()
    limit_depth = min(depth or MAX_DEPTH, MAX_DEPTH)
    if depth is None and nodes is None and not budget.timed:
        limit_depth = 4
    helpers = Helpers(position.engine, threads - 1, [m.code for m in legal]) \
        if threads > 1 else None
    run = _Run(position, legal, nodes, budget, helpers)
    try:
        if helpers:
            helpers.start()
        lines = _deepen(run, limit_depth, multipv, on_info, stop_flag)
    finally:
        budget.detach()
        if helpers:
            helpers.stop()
    best = lines[0] if lines else None
    if strength is not None and lines:
        best = strength.choose(lines)
    if best is not None and len(best.pv) == 1:
        best.pv = best.pv + _reply(position, best.pv[0])
    return Result(best.pv[0] if best else legal[0], best, lines)


def _deepen(run, limit_depth, multipv, on_info, stop_flag):
    """Iterative deepening: the Infos of the last completed depth, best first, or of
    an interrupted one whose best move beat the last completed depth's."""
    started = run.budget.attach(run.engine)
    lines = []
    for d in range(1, limit_depth + 1):
        if d > 1 and not run.budget.may_deepen():
            break                                 # too late for a new depth
        choice = lines[0].pv[0] if lines else None
        found = run.iteration(d, multipv, lines[0].score if lines else None,
                              choice.code if choice else None)
        if not found:
            break
        if run.stopped and lines and (multipv > 1 or found[0][1] == choice):
            break                                 # nothing better found: discarded
        seconds = time.monotonic() - started
        lines = [Info(d, score, run.nodes, seconds, _pv(run.position, move),
                      k + 1 if multipv > 1 else None)
                 for k, (score, move) in enumerate(found)]
        if on_info:
            for info in lines:
                on_info(info)
        if run.stopped or (stop_flag is not None and stop_flag()):
            break
        mate = lines[0].mate
        if multipv == 1 and mate is not None and mate > 0 and d >= 2 * mate + 1:
            break                                 # a forced mate found: deeper is pointless
    return lines


def _pv(position, best):
    """The principal variation starting with `best`, as Move objects."""
    notation = position.notation
    engine = position.engine
    line = [best]
    engine.push(best.code)
    try:
        colour = engine.state()[0]
        for code in engine.principal_variation(12):
            line.append(notation.move(code, colour))
            colour ^= 1
    finally:
        engine.pop()
    return line


REPLY_NODES = 20000                 # the most a reply search may take


def _reply(position, best):
    """[the expected answer to `best`] when the transposition table no longer holds it
    (its entry was overwritten later in the iteration): a short search of the position
    after the move, once per think(), so that the result's line (and UCI's `ponder`
    move) is never cut to the best move alone.  [] when the opponent has no move."""
    engine = position.engine
    engine.push(best.code)
    try:
        colour = engine.state()[0]
        # One ply (captures resolved by quiescence) is enough for a plausible answer,
        # and is cheap in every game: two plies cost five seconds a move in the duck's
        # 2,000-move positions.
        score, code, used, stopped = engine.search_depth(1, node_limit=REPLY_NODES)
        return [position.notation.move(code, colour)] if code else []
    finally:
        engine.pop()
