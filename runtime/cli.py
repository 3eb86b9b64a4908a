"""The `fairyforge` command.

    fairyforge check FILE...             check definitions; exit 2 on errors
    fairyforge show GAME                 the resolved rules as YAML
    fairyforge build GAME                compile (or find in the cache) a game's engine
    fairyforge perft GAME DEPTH [--fen FEN] [--divide]
    fairyforge games                     list the bundled games
    fairyforge diff A B [--play]         compare two rule sets
    fairyforge uci                       the engine over UCI, USI, UCCI or XBoard
    fairyforge play GAME                 play against the engine
    fairyforge playtest GAME [--against GAME2] --games N --depth D

GAME is a bundled game's name or the path of a definition file.
"""

import argparse
import json
import sys
import time

from .errors import DefinitionError, FairyforgeError

EXIT_OK, EXIT_DIFFERENT, EXIT_ERROR = 0, 1, 2


def _progress(message):
    print(f"  {message}", file=sys.stderr, flush=True)


def cmd_check(args):
    from .compiler import parse, resolve
    from .compiler.diagnostics import DiagnosticBag
    status = EXIT_OK
    report = []
    for path in args.files:
        bag = DiagnosticBag()
        try:
            definition = parse.parse_file(path, bag)
            resolve.resolve(definition, bag)   # also after syntax errors: report them all
        except OSError as err:
            print(f"{path}: error: cannot read: {err.strerror}", file=sys.stderr)
            status = EXIT_ERROR
            continue
        if bag:
            status = EXIT_ERROR
        if args.format == "json":
            report += [d.as_dict() for d in bag.sorted()]
        elif bag:
            for diagnostic in bag.sorted():
                print(diagnostic.render(), file=sys.stderr)
        elif not args.quiet:
            print(f"{path}: ok")
    if args.format == "json":
        print(json.dumps({"diagnostics": report}, indent=2))
    return status


def cmd_show(args):
    from .compiler import model, resolve
    variant = resolve.load_variant(args.game)
    sys.stdout.write(model.dump_yaml(variant))
    return EXIT_OK


def cmd_build(args):
    from .compiler import build, resolve
    variant = resolve.load_variant(args.game)
    started = time.monotonic()
    print(f"building {variant.name}", file=sys.stderr)
    path = build.build(variant, progress=_progress, force=args.force)
    print(path)
    print(f"  ready in {time.monotonic() - started:.1f} s (source: {build.source_path(path)})",
          file=sys.stderr)
    return EXIT_OK


def cmd_perft(args):
    from . import load
    game = load(args.game, progress=_progress)
    position = game.position(args.fen) if args.fen else game.start()
    started = time.monotonic()
    if args.divide:
        total = 0
        for move, count in position.divide(args.depth):
            print(f"{move}: {count}")
            total += count
        print()
    else:
        total = position.perft(args.depth)
    seconds = time.monotonic() - started
    if not args.quiet:
        rate = total / seconds if seconds > 0 else float("inf")
        print(f"perft {args.depth}: {seconds:.3f} s, {rate / 1e6:.2f} M nodes/s", file=sys.stderr)
    print(total)
    return EXIT_OK


def cmd_uci(args):
    from . import protocols
    return protocols.main(protocol=args.protocol)


def cmd_play(args):
    from . import load, play
    game = load(args.game, progress=_progress)
    play.play(game, human=args.side, depth=args.depth, movetime=args.movetime)
    return EXIT_OK


def cmd_playtest(args):
    import os
    from . import playtest
    if args.depth is None and args.movetime is None:
        args.depth = 3
    names = [args.game] + ([args.against] if args.against else [])
    limit = f"depth {args.depth}" if args.depth else f"{args.movetime} ms per move"
    settings = (f"{args.games} self-play games per rule set, {limit}, {args.max_plies} plies "
                f"at most, the first 2-4 plies random, on {args.processes or os.cpu_count()} cores")
    print(f"playtest: {settings}", file=sys.stderr)
    summaries = playtest.run(names, args.games, depth=args.depth,
                             movetime=args.movetime / 1000 if args.movetime else None,
                             max_plies=args.max_plies, processes=args.processes,
                             progress=_progress, seed=args.seed)
    out_dir = args.out or "playtest-" + "-vs-".join(os.path.basename(n).split(".")[0] for n in names)
    md, js, images = playtest.write_report(summaries, out_dir, settings)
    with open(md) as handle:
        sys.stdout.write(handle.read())
    print(f"report: {md}, {js}" + (f", plots: {', '.join(images)}" if images else ""),
          file=sys.stderr)
    return EXIT_OK


def cmd_games(args):
    from . import bundled_games
    for name in bundled_games():
        print(name)
    return EXIT_OK


def parser():
    p = argparse.ArgumentParser(prog="fairyforge",
                                description="Compile chess-variant rule files into fast engines.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    c = sub.add_parser("check", help="check definition files for errors")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument("-q", "--quiet", action="store_true", help="print nothing for good files")
    c.set_defaults(func=cmd_check)

    s = sub.add_parser("show", help="print a game's resolved rules as YAML")
    s.add_argument("game", metavar="GAME")
    s.set_defaults(func=cmd_show)

    b = sub.add_parser("build", help="compile a game's engine (cached)")
    b.add_argument("game", metavar="GAME")
    b.add_argument("--force", action="store_true", help="rebuild even if cached")
    b.set_defaults(func=cmd_build)

    f = sub.add_parser("perft", help="count leaf nodes of the move tree")
    f.add_argument("game", metavar="GAME")
    f.add_argument("depth", type=int, metavar="DEPTH")
    f.add_argument("--fen", help="start from this position instead of the setup")
    f.add_argument("--divide", action="store_true", help="count per first move")
    f.add_argument("-q", "--quiet", action="store_true", help="print only the count")
    f.set_defaults(func=cmd_perft)

    protocols = {"uci": "the engine on stdin/stdout: UCI, or USI, UCCI, XBoard as the first "
                        "command says (docs/engine.md)",
                 "usi": "the same, starting in USI (shogi GUIs)",
                 "ucci": "the same, starting in UCCI (xiangqi GUIs)",
                 "xboard": "the same, starting in XBoard/CECP"}
    for name, text in protocols.items():
        sub.add_parser(name, help=text).set_defaults(func=cmd_uci, protocol=name)

    pl = sub.add_parser("play", help="play against the engine in the terminal")
    pl.add_argument("game", metavar="GAME")
    pl.add_argument("--side", choices=("white", "black"), default="white",
                    help="the side you play (default white)")
    pl.add_argument("--depth", type=int, help="engine search depth (default: --movetime)")
    pl.add_argument("--movetime", type=float, default=2.0, help="engine seconds per move")
    pl.set_defaults(func=cmd_play)

    pt = sub.add_parser("playtest", help="self-play games and a report on how the game plays")
    pt.add_argument("game", metavar="GAME")
    pt.add_argument("--against", metavar="GAME2", help="a second rule set to compare with")
    pt.add_argument("--games", type=int, default=20, help="games per rule set (default 20)")
    pt.add_argument("--depth", type=int, help="search depth per move (default 3)")
    pt.add_argument("--movetime", type=int, help="milliseconds per move instead of a depth")
    pt.add_argument("--max-plies", type=int, default=300, help="adjudicate a draw after this")
    pt.add_argument("--processes", type=int, help="worker processes (default: all cores)")
    pt.add_argument("--seed", type=int, default=1, help="seed of the random openings")
    pt.add_argument("--out", help="report directory (default playtest-GAME[-vs-GAME2])")
    pt.set_defaults(func=cmd_playtest)

    g = sub.add_parser("games", help="list the bundled games")
    g.set_defaults(func=cmd_games)

    from . import diff_command
    diff_command.add_parser(sub)
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    if getattr(args, "depth", 1) is not None and getattr(args, "depth", 1) < 0:
        print("fairyforge: error: DEPTH must be 0 or more", file=sys.stderr)
        return EXIT_ERROR
    try:
        return args.func(args)
    except DefinitionError as err:
        print(str(err), file=sys.stderr)
        return EXIT_ERROR
    except FairyforgeError as err:          # FenError, MoveError, BuildError, ...
        print(f"fairyforge: error: {err}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("fairyforge: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (as with `| head`): stop quietly, as Unix tools do.
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
