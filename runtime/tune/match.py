"""Does a learned evaluation play better?  A self-play match between two builds.

One build uses the new parameters, the other the evaluation it replaces (the derived
one, or an earlier file); search, rules and limits are the same.  Each random opening
(2-4 plies) is played twice, once with each colour, at a fixed node budget per move,
so that the comparison does not depend on the machine's load, or at a fixed time per
move, so that a dearer evaluation pays for its cost as it does in play.  Both builds
live in each worker process and Fairyforge's own Position is the arbiter, so this
works for every game, those no other program knows included.  `fairyforge tune
--verify N` and bench/tune_match.py use it.
"""

import json
from dataclasses import dataclass

from ..playtest.backend import open_backend
from ..playtest.selfplay import deal_opening, pair_seed
from ..playtest.stats import edge_elo
from ..search import think

OPENING_PLIES = (2, 4)
_BUILDS = {}             # in each worker: (model, parameters) -> Game


@dataclass(frozen=True)
class MatchJob:
    variant: object      # the rule model
    new: dict            # the parameters under test
    old: dict            # what they replace (None: the derived evaluation)
    opening: tuple
    new_white: bool
    nodes: int           # per move (None: movetime instead)
    max_plies: int
    movetime: float = None   # seconds per move
    old_movetime: float = None   # the old build's, when it differs (time odds)
    new_search: tuple = ()   # (name, value) search settings of each side's engine
    old_search: tuple = ()   # (Engine.configure_search): bench/search_ab.py


def game_with(variant, params):
    """The compiled game of `variant` with the evaluation `params` (None: derived)."""
    key = (variant.name, json.dumps(params, sort_keys=True))
    if key not in _BUILDS:
        from ..compiler import build
        from ..game import Game
        path, module = build.load_module(variant, evaluation=params)
        _BUILDS[key] = Game(variant, module, path)
    return _BUILDS[key]


def play(job):
    """One game; returns (points of the new parameters, ending, plies)."""
    new = game_with(job.variant, job.new).start()
    old = game_with(job.variant, job.old).start()
    new.engine.configure_search(**dict(job.new_search))
    old.engine.configure_search(**dict(job.old_search))
    for text in job.opening:
        new.push_uci(text)
        old.push_uci(text)
    while len(new.move_stack) < job.max_plies:
        outcome = new.outcome()
        if outcome is not None:
            white = {"white": 1.0, "black": 0.0}.get(outcome.winner, 0.5)
            return (white if job.new_white else 1 - white), outcome.reason, len(new.move_stack)
        new_moves = (new.turn == "white") == job.new_white
        mover = new if new_moves else old
        movetime = job.movetime if new_moves or job.old_movetime is None else job.old_movetime
        move = str(think(mover, nodes=job.nodes, movetime=movetime).best_move)
        new.push_uci(move)
        old.push_uci(move)
    return 0.5, "move limit", job.max_plies


def run(variant, new, old, games=100, nodes=4000, max_plies=300, processes=None, seed=7,
        on_game=None, movetime=None, old_movetime=None, new_search=None, old_search=None):
    """Play `games` games (pairs of openings, both colours) at `nodes` a move, or at
    `movetime` seconds a move when it is given (and the old build at `old_movetime`,
    when that is given: time odds, to see what a stronger player scores); a summary
    dict.  `new_search` and `old_search` are search settings (a dict) for each side's
    engine (Engine.configure_search).  on_game(result) is called after each game; when
    it returns true the match stops there (the games still playing are abandoned)."""
    if movetime is not None:
        nodes = None
    first = game_with(variant, new)          # builds both here, before the workers do
    game_with(variant, old)
    jobs = []
    for pair in range((games + 1) // 2):
        opening = deal_opening([first], pair_seed(seed, pair), OPENING_PLIES)
        jobs += [MatchJob(variant, new, old, opening, white, nodes, max_plies, movetime,
                          old_movetime, tuple(sorted((new_search or {}).items())),
                          tuple(sorted((old_search or {}).items())))
                 for white in (True, False)]
    results = []
    with open_backend(processes=processes) as pool:
        for _job, result in pool.imap_unordered(play, jobs):
            results.append(result)
            if on_game and on_game(result):
                break                   # the caller has seen enough (search_ab --sprt)
    return summary(results)


def summary(results):
    n = len(results)
    points = sum(r[0] for r in results)
    wins = sum(r[0] == 1.0 for r in results)
    losses = sum(r[0] == 0.0 for r in results)
    return {"games": n, "wins": wins, "draws": n - wins - losses, "losses": losses,
            "score": points / n if n else None, "elo": edge_elo(points, n),
            "plies": sum(r[2] for r in results) / n if n else None, "results": results}


def summary_text(s):
    value, (lo, hi) = s["elo"]["value"], s["elo"]["ci95"]
    shown = lambda v: "inf" if v is None else f"{round(v):+d}"     # noqa: E731
    return (f"{s['games']} games +{s['wins']} ={s['draws']} -{s['losses']}, score "
            f"{s['score']:.3f}, Elo {shown(value)} (95% {shown(lo)} .. {shown(hi)})")
