"""Tuned against untuned: a self-play match between two builds of one game's engine.

    python bench/tune_match.py ichess --params /tmp/tuned/ichess.eval.json \\
        --games 200 (--nodes 2000 | --movetime 100) [--processes 2] [--json out.json]

One build uses the learned parameter file, the other the evaluation derived from the
rules; each random opening is played with both colours at a fixed node budget per
move, or at a fixed time per move (`--movetime`, milliseconds: a dearer evaluation
then pays for its cost; both builds share each worker process, so a machine's load
falls on both alike); Fairyforge's own Position is the arbiter (runtime/tune/match.py,
which `fairyforge tune --verify` uses too).  Prints the tuned build's wins, draws,
losses and Elo with its 95% interval.  bench/match.py plays two UCI engines under
pyffish instead, for the games pyffish knows.
"""

import argparse
import json
import sys

from fairyforge.compiler import evalparams, loader
from fairyforge.errors import FairyforgeError
from fairyforge.playtest.command import _count      # (1 or more, as `tune` counts)
from fairyforge.tune import match


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--params", required=True, help="the learned parameter file")
    parser.add_argument("--games", type=_count, default=200,
                        help="games (rounded up to even)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=_count, default=4000, help="nodes per move")
    limit.add_argument("--movetime", type=_count, help="milliseconds per move instead")
    parser.add_argument("--max-plies", type=_count, default=300)
    parser.add_argument("--processes", type=_count, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", help="also write the summary here")
    args = parser.parse_args(argv)
    try:
        variant = loader.load_variant(args.game)
        params = evalparams.read(args.params)
        if params["model_hash"] != evalparams.model_hash(variant):
            raise SystemExit(f"{args.params} was fitted to other rules of {variant.name}")
        evalparams.check_pieces(params, variant, args.params)
    except FairyforgeError as err:          # an unknown game, a damaged file
        raise SystemExit(f"tune_match.py: {err}") from None
    done = []

    def progress(result):
        done.append(result)
        print(f"[{len(done)}] tuned {result[0]} ({result[1]}, {result[2]} plies)",
              file=sys.stderr, flush=True)

    movetime = args.movetime / 1000 if args.movetime else None
    limit = f"{args.movetime} ms" if movetime else f"{args.nodes} nodes"
    result = match.run(variant, params, None, games=args.games, nodes=args.nodes,
                       max_plies=args.max_plies, processes=args.processes, seed=args.seed,
                       on_game=progress, movetime=movetime)
    print(f"{variant.name}: tuned vs untuned, {limit} a move: "
          f"{match.summary_text(result)}, mean {result['plies']:.0f} plies")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"game": variant.name, "nodes": None if movetime else args.nodes,
                       "movetime_ms": args.movetime, "summary": result}, out,
                      indent=1)


if __name__ == "__main__":
    sys.exit(main())
