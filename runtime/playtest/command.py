"""The `fairyforge playtest` command line."""

import argparse
import os
import sys

EXIT_OK, EXIT_ERROR, EXIT_INTERRUPTED = 0, 2, 130


def _checked(convert, noun, valid, rule):
    """An argparse type: `convert` the text, then refuse values that are not `valid`."""
    def parse(text):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not {noun}") from None
        if not valid(value):
            raise argparse.ArgumentTypeError(f"must be {rule}, not {text}")
        return value
    return parse


_count = _checked(int, "a whole number", lambda v: v >= 1, "1 or more")
_seconds = _checked(float, "a number of seconds", lambda v: 0 < v < float("inf"),
                    "more than 0 seconds")
_elo = _checked(float, "a number", lambda v: 0 < v < float("inf"), "more than 0")
_probability = _checked(float, "a number", lambda v: 0 < v < 1, "between 0 and 1")


def add_parser(sub):
    pt = sub.add_parser(
        "playtest", help="self-play games and a report on how the game plays",
        description="Self-play games of a rule set (or two, with --against), each game "
                    "stored in SQLite as it finishes, and a report with intervals and "
                    "plots. See docs/playtest.md.")
    pt.add_argument("game", metavar="GAME", help="a bundled game or a definition file")
    pt.add_argument("--against", metavar="GAME2", help="a second rule set to compare with "
                    "(the same openings for both; stops early when the SPRT decides)")
    pt.add_argument("--games", type=_count, default=20, metavar="N",
                    help="games per rule set (default 20)")
    limit = pt.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=_count, metavar="D", help="search depth per move (default 3)")
    limit.add_argument("--movetime", type=_seconds, metavar="SECONDS",
                       help="seconds per move instead of a depth, as in `play` "
                            "(fractions allowed: 0.25)")
    pt.add_argument("--max-plies", type=_count, default=300, metavar="N",
                    help="adjudicate a draw after N plies (default 300)")
    pt.add_argument("--seed", type=int, default=1, help="seed of the random openings (default 1)")
    where = pt.add_mutually_exclusive_group()
    where.add_argument("--processes", type=_count, metavar="N",
                       help="local worker processes (default: all cores)")
    where.add_argument("--cluster", metavar="ADDRESS",
                       help="play on a Dask cluster, e.g. tcp://10.0.0.5:8786")
    pt.add_argument("--out", metavar="DIR",
                    help="report directory (default playtest-GAME[-vs-GAME2])")
    pt.add_argument("--db", metavar="FILE", help="the games database (default DIR/games.sqlite)")
    pt.add_argument("--resume", action="store_true",
                    help="continue the database's latest run (give the same options)")
    pt.add_argument("--pgn", metavar="FILE", help="also export the run's games as PGN")
    sprt = pt.add_argument_group("stop rule for --against (SPRT)")
    sprt.add_argument("--sprt-elo", type=_elo, default=20.0, metavar="ELO",
                      help="the smallest change of the first player's edge worth "
                           "detecting (elo1, default 20; elo0 is 0)")
    sprt.add_argument("--sprt-alpha", type=_probability, default=0.05, metavar="P",
                      help="false alarm rate (default 0.05)")
    sprt.add_argument("--sprt-beta", type=_probability, default=0.05, metavar="P",
                      help="chance to miss a change of ELO (default 0.05)")
    sprt.add_argument("--no-sprt", action="store_true", help="play every game, never stop early")
    pt.set_defaults(func=cmd_playtest)
    return pt


def _say(message):
    print(f"playtest: {message}", file=sys.stderr, flush=True)


def _plan(args):
    from . import runner, stats
    from .store import RunSettings
    names = [args.game] + ([args.against] if args.against else [])
    if args.depth is None and args.movetime is None:
        args.depth = 3
    test = None
    if args.against and not args.no_sprt:
        test = stats.Sprt(elo1=args.sprt_elo, alpha=args.sprt_alpha, beta=args.sprt_beta)
    out = args.out or "playtest-" + "-vs-".join(
        os.path.basename(n).split(".")[0] for n in names)
    settings = RunSettings(games=args.games, seed=args.seed, depth=args.depth,
                           movetime=args.movetime, max_plies=args.max_plies,
                           sprt=runner.settings_json(test))
    plan = runner.Plan(names, settings, args.db or os.path.join(out, "games.sqlite"),
                       resume=args.resume, processes=args.processes, cluster=args.cluster,
                       sprt=test, log=lambda message: print(f"  {message}", file=sys.stderr))
    return plan, out


def cmd_playtest(args):
    from . import runner, write_report
    from .report import settings_text
    plan, out = _plan(args)
    run = {"id": None, "games": args.games, "depth": args.depth, "movetime": args.movetime,
           "max_plies": args.max_plies, "opening_plies": plan.settings.opening_plies,
           "seed": args.seed}
    outcome = runner.run(plan, announce=lambda message: _say(f"{settings_text(run)}; {message}"))
    md, js, images = write_report(plan.db_path, out, outcome.run_id)
    with open(md) as handle:
        sys.stdout.write(handle.read())
    if args.pgn:
        from .pgn import export_pgn
        count = export_pgn(plan.db_path, args.pgn, outcome.run_id)
        _say(f"{count} games written to {args.pgn}")
    _say(f"{outcome.end}: {outcome.stored} games stored in {outcome.db_path} "
         f"({outcome.played} played now); report: {md}, {js}"
         + (f", plots: {', '.join(images)}" if images else ""))
    if outcome.end == "interrupted":
        _say("run the same command with --resume to play the games still missing")
        return EXIT_INTERRUPTED
    return EXIT_OK
