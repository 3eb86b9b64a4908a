"""Tuned against untuned: a self-play match between two builds of one game's engine.

    python bench/tune_match.py ichess --params /tmp/tuned/ichess.eval.json \\
        --games 200 --nodes 4000 [--processes 2] [--json out.json]

One build uses the learned parameter file, the other the evaluation derived from the
rules; everything else (search, rules, limits) is the same.  Each random opening is
played twice, once with each colour, at a fixed node budget per move (a fixed number of
nodes keeps the comparison fair on a loaded machine, where time per move would not).
Both builds run in one process per worker; Fairyforge's own Position is the arbiter
(no other program knows the seed games).  Prints wins, draws and losses of the tuned
build and its Elo with the 95% interval (runtime/playtest/stats.py).

bench/match.py plays two UCI engines under pyffish instead, for the games pyffish knows.
"""

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor

from fairyforge.compiler import build, evalparams, loader
from fairyforge.game import Game
from fairyforge.playtest.selfplay import deal_opening, pair_seed
from fairyforge.playtest.stats import edge_elo
from fairyforge.search import think

_GAMES = {}


def _games(source, params_path):
    """(tuned, untuned) compiled games, built once per worker."""
    key = (source, params_path)
    if key not in _GAMES:
        variant = loader.load_variant(source)
        params = evalparams.read(params_path)
        if params["model_hash"] != evalparams.model_hash(variant):
            raise SystemExit(f"{params_path} was fitted to other rules of {variant.name}")
        evalparams.check_pieces(params, variant, params_path)
        pair = []
        for evaluation in (params, None):
            path, module = build.load_module(variant, evaluation=evaluation)
            pair.append(Game(variant, module, path))
        _GAMES[key] = tuple(pair)
    return _GAMES[key]


def play(job):
    """One game; returns (points of the tuned build, reason, plies)."""
    source, params_path, opening, tuned_white, nodes, max_plies = job
    tuned, untuned = _games(source, params_path)
    positions = [tuned.start(), untuned.start()]     # [0]: the tuned build's view
    for text in opening:
        for p in positions:
            p.push_uci(text)
    while len(positions[0].move_stack) < max_plies:
        outcome = positions[0].outcome()
        if outcome is not None:
            white_points = {"white": 1.0, "black": 0.0}.get(outcome.winner, 0.5)
            points = white_points if tuned_white else 1 - white_points
            return points, outcome.reason, len(positions[0].move_stack)
        white_to_move = positions[0].turn == "white"
        mover = positions[0] if white_to_move == tuned_white else positions[1]
        move = think(mover, nodes=nodes).best_move
        for p in positions:
            p.push_uci(str(move))
    return 0.5, "move limit", max_plies


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--params", required=True, help="the learned parameter file")
    parser.add_argument("--games", type=int, default=200, help="games (even: pairs)")
    parser.add_argument("--nodes", type=int, default=4000, help="nodes per move")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", help="also write the summary here")
    args = parser.parse_args(argv)
    variant = loader.load_variant(args.game)
    tuned, _ = _games(args.game, args.params)        # builds both before the workers do
    jobs = []
    for pair in range((args.games + 1) // 2):
        opening = deal_opening([tuned], pair_seed(args.seed, pair), (2, 4))
        for tuned_white in (True, False):
            jobs.append((args.game, args.params, opening, tuned_white, args.nodes,
                         args.max_plies))
    results = []
    with ProcessPoolExecutor(args.processes) as pool:
        for i, result in enumerate(pool.map(play, jobs), 1):
            results.append(result)
            print(f"[{i}/{len(jobs)}] tuned {result[0]} ({result[1]}, {result[2]} plies)",
                  file=sys.stderr, flush=True)
    print(summary_text(variant.name, args, results))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"game": variant.name, "nodes": args.nodes, "results": results,
                       "summary": summary(results)}, out, indent=1)


def summary(results):
    points = sum(r[0] for r in results)
    wins = sum(r[0] == 1.0 for r in results)
    losses = sum(r[0] == 0.0 for r in results)
    return {"games": len(results), "wins": wins, "draws": len(results) - wins - losses,
            "losses": losses, "score": points / len(results),
            "elo": edge_elo(points, len(results)),
            "plies": sum(r[2] for r in results) / len(results)}


def summary_text(name, args, results):
    s = summary(results)
    value, (lo, hi) = s["elo"]["value"], s["elo"]["ci95"]
    shown = lambda v: "inf" if v is None else f"{round(v):+d}"     # noqa: E731
    return (f"{name}: tuned vs untuned, {args.nodes} nodes a move: {s['games']} games "
            f"+{s['wins']} ={s['draws']} -{s['losses']}, score {s['score']:.3f}, "
            f"Elo {shown(value)} (95% {shown(lo)} .. {shown(hi)}), "
            f"mean {s['plies']:.0f} plies")


if __name__ == "__main__":
    sys.exit(main())
