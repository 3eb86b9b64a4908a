"""Two search settings of one build against each other: an A/B match for the search.

    python bench/search_ab.py chess --a null_move=1 --games 400 --movetime 50
    python bench/search_ab.py shogi --a lmr_divisor=180 --b lmr_divisor=225 --nodes 20000

The compiled search reads its pruning parameters at run time (search.pxi, Settings;
`Engine.search_settings()` lists them with their defaults), so one build can play
itself with two of them: `--a` gives the settings of the side whose points are
counted, `--b` the other's (each NAME=VALUE, repeatable; unnamed settings keep their
defaults); both use the evaluation a build of the game uses (its learned file, if
it has one).  Each random opening (2-4 plies) is played with both colours, at a fixed
time per move (`--movetime`, milliseconds: what a pruning saves or costs in time is
what counts) or a fixed node budget (`--nodes`); both sides live in each worker
process and Fairyforge's own Position is the arbiter (runtime/tune/match.py), so it
works in every game, the seed games included, and needs no UCI round trip: at 50 ms
a move a 2-core machine plays about 15 chess games a minute.  Prints A's wins, draws,
losses and Elo with its 95% interval.  `--sprt ELO1` stops the match as soon as a
sequential test decides between "A gains ELO1" and "A gains nothing" (5% error each
way; --games is then the most played), so that a clear loser ends early and a small
gain can be given the games it needs.  Against another program, use match.py.
"""

import argparse
import json
import sys

from fairyforge.compiler import evalparams, loader
from fairyforge.errors import FairyforgeError
from fairyforge.playtest.command import _count      # (1 or more, as `tune` counts)
from fairyforge.playtest.stats import GainTest
from fairyforge.tune import match


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--a", action="append", default=[], type=_setting,
                        metavar="NAME=VALUE", help="a search setting of the measured side")
    parser.add_argument("--b", action="append", default=[], type=_setting,
                        metavar="NAME=VALUE", help="a search setting of its opponent")
    parser.add_argument("--games", type=_count, default=200, help="games (rounded up to even)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=_count, default=20000, help="nodes per move")
    limit.add_argument("--movetime", type=_count, help="milliseconds per move instead")
    parser.add_argument("--max-plies", type=_count, default=300)
    parser.add_argument("--processes", type=_count, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sprt", type=float, metavar="ELO1",
                        help="stop early once a sequential test (SPRT, 5%% errors) tells "
                             "A gaining ELO1 from A gaining nothing; --games is then the most")
    parser.add_argument("--json", help="also write the summary here")
    args = parser.parse_args(argv)
    a, b = dict(args.a), dict(args.b)
    if a == b:
        parser.error("--a and --b give the same settings: nothing to compare")
    try:
        variant = loader.load_variant(args.game)
        params = evalparams.for_build(variant)     # the evaluation a build of it uses
        _check(variant, params, a, b)
    except (FairyforgeError, ValueError) as err:  # an unknown game or setting
        raise SystemExit(f"search_ab.py: {err}") from None
    done = []
    test = GainTest(args.sprt) if args.sprt else None

    def progress(result):
        done.append(result)
        print(f"[{len(done)}] A {result[0]} ({result[1]}, {result[2]} plies)",
              file=sys.stderr, flush=True)
        if test is not None:
            test.add(result[0])
            return test.verdict is not None
        return False

    movetime = args.movetime / 1000 if args.movetime else None
    result = match.run(variant, params, params, games=args.games, nodes=args.nodes,
                       max_plies=args.max_plies, processes=args.processes, seed=args.seed,
                       on_game=progress, movetime=movetime, new_search=a, old_search=b)
    limit = f"{args.movetime} ms" if movetime else f"{args.nodes} nodes"
    print(f"{variant.name}: A {_text(a)} vs B {_text(b)}, {limit} a move: "
          f"{match.summary_text(result)}, mean {result['plies']:.0f} plies")
    if test is not None:
        print(f"SPRT (A +{args.sprt:g} Elo against +0): {_verdict(test)}, "
              f"LLR {test.llr:.2f} in bounds {test.bounds[0]:.2f} .. {test.bounds[1]:.2f}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"game": variant.name, "a": a, "b": b,
                       "nodes": None if movetime else args.nodes,
                       "movetime_ms": args.movetime, "summary": result,
                       "sprt": None if test is None else
                       {"elo1": args.sprt, "llr": test.llr, "bounds": list(test.bounds),
                        "verdict": test.verdict}}, out, indent=1)


def _setting(text):
    """NAME=VALUE, VALUE a whole number."""
    name, sep, value = text.partition("=")
    if not sep or not name or not value.strip().isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=VALUE, VALUE a whole number")
    return name.strip(), int(value)


def _check(variant, params, *settings):
    """Refuse an unknown name or a value out of range here, before any worker does."""
    engine = match.game_with(variant, params).start().engine
    for each in settings:
        engine.configure_search(**each)


def _verdict(test):
    return {"H1": f"A gains about {test.elo1:g} Elo or more",
            "H0": f"A gains less than {test.elo1:g} Elo",
            None: "undecided when the games ran out"}[test.verdict]


def _text(settings):
    return ",".join(f"{k}={v}" for k, v in sorted(settings.items())) or "(defaults)"


if __name__ == "__main__":
    sys.exit(main())
