"""Thinking: iterative deepening over the generated engine's alpha-beta search.

Each depth is one call into the compiled module (the search itself runs in C without
the GIL); this module decides how deep to go, stops on the node or time limit, keeps
the last completed iteration's move, and reports progress as UCI-style `info`.
"""

import time
from dataclasses import dataclass, field
from typing import Optional

MATE = 30000
MATE_BOUND = 29000
MAX_DEPTH = 64


@dataclass
class Info:
    """What an iteration found (UCI `info`): score in centipawns or mate in N moves."""

    depth: int
    score: int
    nodes: int
    seconds: float
    pv: list = field(default_factory=list)      # Move objects

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
        return (f"info depth {self.depth} score {score} nodes {self.nodes} nps {self.nps} "
                f"time {int(self.seconds * 1000)} pv {pv}").rstrip()


@dataclass
class Result:
    best_move: Optional[object]       # a Move, None when there is no legal move
    info: Optional[Info]


def think(position, depth=None, nodes=None, movetime=None, on_info=None, stop_flag=None,
          moves=None):
    """Search `position` and return a Result; at least one depth is always completed.

    depth: plies (default: as deep as the limits allow, at most 64); nodes: node budget;
    movetime: seconds.  on_info(Info) is called after each completed depth.  moves, if
    given, restricts the search to those of the legal moves (UCI `searchmoves`).
    """
    engine = position.engine
    legal = position.legal_moves()           # history-dependent rules applied here
    if moves is not None:
        legal = [m for m in legal if m in moves]
    if not legal:
        return Result(None, None)
    codes = [m.code for m in legal]
    by_code = {m.code: m for m in legal}
    limit_depth = min(depth or MAX_DEPTH, MAX_DEPTH)
    if depth is None and nodes is None and movetime is None:
        limit_depth = 4
    started = time.monotonic()
    best, info, spent_nodes = legal[0], None, 0
    for d in range(1, limit_depth + 1):
        elapsed = time.monotonic() - started
        seconds_left = movetime - elapsed if movetime else 0.0
        if movetime and d > 1 and elapsed > movetime * 0.5:
            break                                 # the next depth would not finish
        nodes_left = nodes - spent_nodes if nodes else 0
        if nodes and nodes_left <= 0:
            break
        score, move, used, stopped = engine.search_depth(
            d, node_limit=max(nodes_left, 0), seconds=max(seconds_left, 0.0), moves=codes)
        spent_nodes += used
        if stopped and info is not None:
            break                                 # an interrupted depth is discarded
        if move:
            best = by_code.get(move, best)
        pv = _pv(position, best)
        info = Info(d, score, spent_nodes, time.monotonic() - started, pv)
        if on_info:
            on_info(info)
        if stopped or (stop_flag is not None and stop_flag()):
            break
        if info.mate is not None and info.mate > 0 and d >= 2 * info.mate + 1:
            break                                 # a forced mate found: deeper is pointless
    return Result(best, info)


def _pv(position, best):
    """The principal variation starting with `best`, as Move objects."""
    notation = position.game.notation
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
