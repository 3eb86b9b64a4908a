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

    python bench/tune_match.py wwii --odds 4 --movetime 200 --games 40

`--odds RATIO` gives the untuned build RATIO times less time a move (`--movetime`
is the other's); without `--params` both builds use the derived evaluation.  Such a
match says how much a clearly stronger player scores in a game under this format:
in a game whose armies are unequal (WWII) paired openings compress strength, and
four times the time shows only +35 Elo.
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
    parser.add_argument("--params", help="the learned parameter file (without it, with "
                        "--odds: the derived evaluation on both sides)")
    parser.add_argument("--against", metavar="FILE",
                        help="the parameter file the other build uses (default: the "
                             "evaluation derived from the rules)")
    parser.add_argument("--games", type=_count, default=200,
                        help="games (rounded up to even)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=_count, default=4000, help="nodes per move")
    limit.add_argument("--movetime", type=_count, help="milliseconds per move instead")
    parser.add_argument("--odds", type=_ratio, metavar="RATIO",
                        help="the untuned build thinks RATIO times less (needs --movetime)")
    parser.add_argument("--max-plies", type=_count, default=300)
    parser.add_argument("--processes", type=_count, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", help="also write the summary here")
    args = parser.parse_args(argv)
    if args.odds and not args.movetime:
        parser.error("--odds needs --movetime (the time of the build given the odds)")
    if not args.params and not args.odds:
        parser.error("give --params (or --odds, to play the derived evaluation against "
                     "itself with more time)")
    try:
        variant = loader.load_variant(args.game)
        params = _parameters(args.params, variant) if args.params else None
        against = _parameters(args.against, variant) if args.against else None
        if params is None:
            params = against            # (--odds alone: one evaluation, more time)
    except FairyforgeError as err:          # an unknown game, a damaged file
        raise SystemExit(f"tune_match.py: {err}") from None
    done = []
    first = "tuned" if args.params else "with odds"     # the build whose points are counted

    def progress(result):
        done.append(result)
        print(f"[{len(done)}] {first} {result[0]} ({result[1]}, {result[2]} plies)",
              file=sys.stderr, flush=True)

    movetime = args.movetime / 1000 if args.movetime else None
    old_movetime = movetime / args.odds if args.odds else None
    limit = f"{args.movetime} ms" if movetime else f"{args.nodes} nodes"
    if old_movetime:
        limit += f" against {1000 * old_movetime:g} ms"
    result = match.run(variant, params, against, games=args.games, nodes=args.nodes,
                       max_plies=args.max_plies, processes=args.processes, seed=args.seed,
                       on_game=progress, movetime=movetime, old_movetime=old_movetime)
    other = args.against or "derived"
    sides = (f"{args.params or other}{' with odds' if args.odds else ''} vs {other}"
             if args.params or args.odds else other)
    print(f"{variant.name}: {sides}, {limit} a move: "
          f"{match.summary_text(result)}, mean {result['plies']:.0f} plies")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"game": variant.name, "nodes": None if movetime else args.nodes,
                       "movetime_ms": args.movetime, "odds": args.odds,
                       "summary": result}, out,
                      indent=1)


def _parameters(path, variant):
    """The parameter file at `path`, checked against the game's rules and pieces."""
    params = evalparams.read(path)
    if params["model_hash"] != evalparams.model_hash(variant):
        raise SystemExit(f"{path} was fitted to other rules of {variant.name}")
    evalparams.check_pieces(params, variant, path)
    return params


def _ratio(text):
    """--odds: a number above 1."""
    try:
        ratio = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 1 < ratio < float("inf"):
        raise argparse.ArgumentTypeError("must be a number above 1")
    return ratio


if __name__ == "__main__":
    sys.exit(main())
