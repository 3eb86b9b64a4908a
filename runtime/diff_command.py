"""`fairyforge diff A B`: compare two games' rules, or their engines' behaviour.

    fairyforge diff A B [--format text|yaml|json]
    fairyforge diff A B --play [--depth N] [--fen FEN] [--max-positions N]

A and B are bundled games' names or definition files.  Without --play the resolved
rule models are compared (never the text); with --play both games are compiled and
searched breadth-first for the shortest move sequence after which their legal moves
differ.  Exit status as diff(1): 0 no difference, 1 differences, 2 an error.

cli.py registers the subcommand with `add_parser(subparsers)`; `run(args)` returns
the exit status.  The comparisons themselves are fairyforge.compiler.diff's (a
package: the model diff, the move describer and the play diff).
"""

import argparse
import sys

from .errors import DefinitionError, FairyforgeError

EXIT_SAME, EXIT_DIFFERENT, EXIT_ERROR = 0, 1, 2
DEFAULT_DEPTH = 4


def _progress(message):
    print(f"  {message}", file=sys.stderr, flush=True)


def _non_negative(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number")
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def _positive(text):
    value = _non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def add_parser(subparsers):
    """Register the `diff` subcommand on an argparse subparsers object."""
    from .compiler.diff import DEFAULT_MAX_POSITIONS, FORMATS
    d = subparsers.add_parser(
        "diff", help="compare two games' rules (or, with --play, their legal moves)",
        description="Compare two games by their resolved rules: board and regions, pieces "
                    "and their moves (in words and Betza), captures, drops, special rules, "
                    "game end and setup.  Formatting, statement order, comments and region "
                    "names never count.  With --play, compare the compiled engines instead: "
                    "find the shortest move sequence after which their legal moves differ.  "
                    "Exit status: 0 no difference, 1 differences, 2 error.")
    d.add_argument("a", metavar="A", help="a bundled game's name or a definition file")
    d.add_argument("b", metavar="B", help="a bundled game's name or a definition file")
    d.add_argument("--play", action="store_true",
                   help="compare by play: search for a position where the legal moves differ")
    d.add_argument("--depth", type=_non_negative, default=None, metavar="N",
                   help=f"with --play: longest move sequence to try (default {DEFAULT_DEPTH})")
    d.add_argument("--fen", default=None, metavar="FEN",
                   help="with --play: start from this position (in both games)")
    d.add_argument("--max-positions", type=_positive, default=DEFAULT_MAX_POSITIONS,
                   metavar="N", dest="max_positions",
                   help=f"with --play: stop after comparing N positions "
                        f"(default {DEFAULT_MAX_POSITIONS})")
    d.add_argument("--format", choices=FORMATS, default="text",
                   help="output format (default text)")
    d.set_defaults(func=run)
    return d


def run(args):
    """Run `fairyforge diff` for parsed arguments; returns the exit status (0, 1 or 2)."""
    try:
        return _run(args)
    except DefinitionError as err:
        print(str(err), file=sys.stderr)
        return EXIT_ERROR
    except FairyforgeError as err:
        print(f"fairyforge diff: error: {err}", file=sys.stderr)
        return EXIT_ERROR
    except OSError as err:
        name = err.filename or ""
        print(f"fairyforge diff: error: cannot read {name}: {err.strerror or err}",
              file=sys.stderr)
        return EXIT_ERROR


def _run(args):
    from .compiler import diff
    if not args.play and (args.fen is not None or args.depth is not None):
        option = "--fen" if args.fen is not None else "--depth"
        print(f"fairyforge diff: error: {option} only applies with --play", file=sys.stderr)
        return EXIT_ERROR
    if not args.play:
        result = diff.diff_files(args.a, args.b)
        sys.stdout.write(diff.render(result, args.format))
        return EXIT_DIFFERENT if result else EXIT_SAME

    from . import load
    from .compiler.resolve import load_variant
    # Resolve and check both first, so that a bad definition or two games that cannot be
    # compared by play are reported before any build.
    diff.check_playable(load_variant(args.a), load_variant(args.b))
    games = []
    for name in (args.a, args.b):
        games.append(load(name, progress=_progress))
    depth = DEFAULT_DEPTH if args.depth is None else args.depth
    labels = None
    if games[0].name == games[1].name:
        labels = (f"A ({args.a})", f"B ({args.b})")
    result = diff.play_diff(games[0], games[1], depth, fen=args.fen,
                            max_positions=args.max_positions, progress=_progress,
                            labels=labels)
    sys.stdout.write(diff.render(result, args.format))
    if not result.complete:
        print(f"fairyforge diff: warning: the search stopped after {result.positions} "
              "positions (--max-positions); the answer covers only part of the depth",
              file=sys.stderr)
    return EXIT_DIFFERENT if result.found else EXIT_SAME

