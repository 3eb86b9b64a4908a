"""One self-play game: what a worker runs, and the openings the coordinator deals out.

A game starts from a short random opening (2-4 plies by default, so that games
differ), then the engine plays both sides at a fixed depth or time per move.  A game
still running after `max_plies` is adjudicated a draw ("move limit").  The job and its
result are plain data, so they cross process and machine boundaries unchanged.

With `--against`, game i of every rule set gets the same opening: the coordinator
draws each random ply among the moves legal under all the rule sets at once.
"""

import os
import random
import socket
import time
from dataclasses import dataclass
from typing import Optional

from ..search import think
from .ruleset import game_for

OPENING_PLIES = (2, 4)


@dataclass(frozen=True)
class GameJob:
    """One game to play.  `slot` is the rule set's place in the run (0 = GAME, 1 = the
    --against rule set), `pair` the game's index; (slot, pair) names it in a run."""

    ruleset: object                 # a RuleSet
    slot: int
    pair: int
    opening: tuple                  # UCI move texts
    depth: Optional[int] = None
    movetime: Optional[float] = None    # seconds per move
    max_plies: int = 300
    hash_mb: int = 4
    nodes: Optional[int] = None         # node budget per move (fairyforge tune --nodes)

    @property
    def key(self):
        return (self.slot, self.pair)


def pair_seed(seed, pair):
    """The random seed of pair `pair`'s opening (stable across runs and resumes)."""
    return seed * 100003 + pair


def deal_opening(games, seed, plies=OPENING_PLIES):
    """A random opening legal under every game in `games` (compiled Games)."""
    rng = random.Random(seed)
    wanted = rng.randint(*plies)
    positions = [game.start() for game in games]
    moves = []
    for _ in range(wanted):
        if any(p.outcome() is not None for p in positions):
            break
        common = {str(m) for m in positions[0].legal_moves()}
        for p in positions[1:]:
            common &= {str(m) for m in p.legal_moves()}
        if not common:
            break
        text = rng.choice(sorted(common))
        for p in positions:
            p.push_uci(text)
        moves.append(text)
    return tuple(moves)


def worker_name():
    return f"{socket.gethostname()}:{os.getpid()}"


def play_game(job):
    """Play one game; returns a plain dict (see store.GAME_FIELDS for its keys)."""
    game = game_for(job.ruleset)
    position = game.start()
    position.engine.set_hash_size(job.hash_mb)
    branching, moves = [], []
    nodes, seconds = 0, 0.0
    outcome = None
    for ply in range(job.max_plies):
        outcome = position.outcome()
        if outcome is not None:
            break
        legal = position.legal_moves()
        branching.append(len(legal))
        if ply < len(job.opening):
            position.push_uci(job.opening[ply])
            moves.append(job.opening[ply])
            continue
        started = time.monotonic()
        result = think(position, depth=job.depth, nodes=job.nodes, movetime=job.movetime)
        seconds += time.monotonic() - started
        nodes += result.info.nodes if result.info else 0
        position.push(result.best_move)
        moves.append(str(result.best_move))
    else:
        outcome = position.outcome()
    winner, reason = (outcome.winner, outcome.reason) if outcome else (None, "move limit")
    return {"slot": job.slot, "pair": job.pair, "model_hash": job.ruleset.model_hash,
            "opening": list(job.opening), "moves": moves, "plies": len(moves),
            "winner": winner, "reason": reason, "result": result_text(winner),
            "nodes": nodes, "search_seconds": seconds, "branching": branching,
            "worker": worker_name()}


def result_text(winner):
    return {"white": "1-0", "black": "0-1"}.get(winner, "1/2-1/2")
