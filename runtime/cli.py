"""The `fairyforge` command.

    fairyforge check FILE...             check definitions; exit 2 on errors
    fairyforge show GAME [--svg FILE]    the resolved rules as YAML (or a picture)
    fairyforge build GAME                compile (or find in the cache) a game's engine
    fairyforge perft GAME DEPTH [--fen FEN] [--divide] [--chess960]
    fairyforge games                     the bundled games: name, title, definition file
    fairyforge cache list|clean|path     the built engines on disk
    fairyforge studio                    the web studio on http://127.0.0.1:8765/
    fairyforge diff A B [--play]         compare two rule sets
    fairyforge uci                       the engine over UCI, USI, UCCI or XBoard
    fairyforge play GAME                 play against the engine
    fairyforge playtest GAME [--against GAME2] --games N --depth D [--cluster ADDRESS]
    fairyforge import FILE.ini [SECTION...] [-o DIR]   Fairy-Stockfish sections as definitions
    fairyforge export GAME [-o FILE]     a game as a Fairy-Stockfish variants.ini section
    fairyforge tune GAME [--games N] [--depth D|--nodes N] [--from-db FILE] [-o FILE]

GAME (and FILE) is a bundled game's name or the path of a definition file;
`fairyforge --version` prints the version.
"""

import argparse
import json
import os
import sys
import time

from .errors import DefinitionError, FairyforgeError

EXIT_OK, EXIT_DIFFERENT, EXIT_ERROR = 0, 1, 2


def _progress(message):
    print(f"  {message}", file=sys.stderr, flush=True)


def cmd_check(args):
    from .compiler import loader, parse, resolve
    from .compiler.diagnostics import DiagnosticBag, render_all
    status = EXIT_OK
    report, omitted = [], 0     # JSON: the diagnostics shown, and how many were left out
    for path in args.files:
        bag = DiagnosticBag()
        try:
            # A bundled game's name checks its definition, as every other command reads it.
            source = path if os.path.exists(path) else (loader.bundled_path(path) or path)
            definition = parse.parse_file(source, bag)
            resolve.resolve(definition, bag)   # also after syntax errors: report them all
        except OSError as err:
            hint = loader.did_you_mean(path, loader.bundled_names())
            print(f"{path}: error: cannot read: {err.strerror}"
                  + (f", and no bundled game has that name{hint}" if "/" not in path else ""),
                  file=sys.stderr)
            status = EXIT_ERROR
            continue
        if bag:
            status = EXIT_ERROR
        shown, more = bag.reported()
        if args.format == "json":
            report += [d.as_dict() for d in shown]
            omitted += more
        elif bag:
            print(render_all(bag.sorted()), file=sys.stderr)
        elif not args.quiet:
            print(f"{path}: ok")
    if args.format == "json":
        # "omitted" is there only when diagnostics were left out (the text's last line)
        print(json.dumps({"diagnostics": report, **({"omitted": omitted} if omitted else {})},
                         indent=2))
    return status


def cmd_show(args):
    from .compiler import loader, model
    if args.svg:
        return _show_svg(args)
    variant = loader.load_variant(args.game)
    sys.stdout.write(model.dump_yaml(variant))
    return EXIT_OK


def _show_svg(args):
    """Draw the start position (the diagram for a rules page) into an SVG file."""
    from . import load, svg
    game = load(args.game, progress=_progress)
    picture = svg.board(game.start(), regions=("promotion", "palace", "river"))
    try:
        with open(args.svg, "w", encoding="utf-8") as handle:
            handle.write(picture)
    except OSError as err:
        print(f"fairyforge: error: cannot write {args.svg}: {err.strerror}", file=sys.stderr)
        return EXIT_ERROR
    print(f"{args.svg}: the start position of {game.title}", file=sys.stderr)
    return EXIT_OK


def cmd_build(args):
    from .compiler import build, loader
    variant = loader.load_variant(args.game)
    started = time.monotonic()
    print(f"building {variant.name}", file=sys.stderr)
    path = build.build(variant, progress=_progress, force=args.force)
    print(path)
    print(f"  ready in {time.monotonic() - started:.1f} s (source: {build.source_path(path)})",
          file=sys.stderr)
    return EXIT_OK


def cmd_uci(args):
    from . import protocols
    return protocols.main(protocol=args.protocol)


def cmd_play(args):
    from . import load, play
    game = load(args.game, progress=_progress)
    play.play(game, human=args.side, depth=args.depth, movetime=args.movetime, fen=args.fen)
    return EXIT_OK


def cmd_studio(args):
    from . import studio
    return studio.serve(host=args.host, port=args.port, open_browser=not args.no_browser)


def cmd_games(args):
    """Each bundled game: its name, its title and the definition file (to copy and edit)."""
    from . import bundled_games
    from .compiler import loader
    rows = [(name, loader.load_variant(name).title, loader.bundled_path(name))
            for name in bundled_games()]
    name_width = max(len(name) for name, _, _ in rows)
    title_width = max(len(title) for _, title, _ in rows)
    for name, title, path in rows:
        print(f"{name:<{name_width}}  {title:<{title_width}}  {path}")
    return EXIT_OK


def parser():
    p = argparse.ArgumentParser(prog="fairyforge",
                                description="Compile chess-variant rule files into fast engines.")
    from . import __version__
    p.add_argument("--version", action="version", version=f"fairyforge {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    c = sub.add_parser("check", help="check definition files (or bundled games) for errors")
    c.add_argument("files", nargs="+", metavar="FILE", help="a definition file or a bundled name")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument("-q", "--quiet", action="store_true", help="print nothing for good files")
    c.set_defaults(func=cmd_check)

    s = sub.add_parser("show", help="print a game's resolved rules as YAML")
    s.add_argument("game", metavar="GAME")
    s.add_argument("--svg", metavar="FILE", help="draw the start position into an SVG file")
    s.set_defaults(func=cmd_show)

    b = sub.add_parser("build", help="compile a game's engine (cached)")
    b.add_argument("game", metavar="GAME")
    b.add_argument("--force", action="store_true", help="rebuild even if cached")
    b.set_defaults(func=cmd_build)

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
                    help="the side you play (default white; the board is turned for black)")
    pl.add_argument("--depth", type=int, help="engine search depth (default: --movetime)")
    pl.add_argument("--movetime", type=float, default=2.0, help="engine seconds per move")
    pl.add_argument("--fen", help="start from this position instead of the setup")
    pl.set_defaults(func=cmd_play)

    from .playtest import command as playtest_command
    playtest_command.add_parser(sub)
    from .tune import command as tune_command
    tune_command.add_parser(sub)

    st = sub.add_parser("studio", help="write, play and compare variants in the browser")
    st.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    st.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1, this machine only)")
    st.add_argument("--no-browser", action="store_true", help="do not open the browser")
    st.set_defaults(func=cmd_studio)

    g = sub.add_parser("games", help="list the bundled games with their titles and files")
    g.set_defaults(func=cmd_games)

    from . import cache_command, diff_command, perft_command
    from .interop import command as interop_command
    interop_command.add_parsers(sub)          # import FILE.ini, export GAME
    perft_command.add_parser(sub)
    diff_command.add_parser(sub)
    cache_command.add_parser(sub)
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
