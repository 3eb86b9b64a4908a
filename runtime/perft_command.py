"""`fairyforge perft GAME DEPTH [--fen FEN] [--divide] [--chess960] [-q]`: count the
legal-move tree (`--chess960`: on the game's Chess960 twin, Fairy-Stockfish's
UCI_Chess960, castling from the FEN's king and rook squares).

The count is the last line of standard output; the timing goes to standard error.  The
first moves are counted one at a time (each subtree in C), which gives two things: on
a terminal a progress bar (tqdm, when installed) shows them pass, and Ctrl-C is seen
between two subtrees at the latest -- the command then prints "interrupted" and exits
with status 130.  When standard error is not a terminal nothing else is printed.

cli.py registers the subcommand with `add_parser(subparsers)`; `run(args)` returns the
exit status.
"""

import argparse
import sys
import time

EXIT_OK = 0
# Deeper than any tree that could ever be counted, and far below what would overflow
# the engine's per-ply move buffers.
MAX_DEPTH = 64


def depth_arg(text):
    """DEPTH: a whole number from 0 to MAX_DEPTH, or a message saying what is wrong."""
    try:
        value = int(text)
    except ValueError:
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise argparse.ArgumentTypeError(f"must be a whole number, not '{shown}'")
    if not 0 <= value <= MAX_DEPTH:
        shown = str(value) if len(text) <= 20 else f"a number of {len(text)} digits"
        raise argparse.ArgumentTypeError(f"must be from 0 to {MAX_DEPTH} (got {shown})")
    return value


def add_parser(subparsers):
    f = subparsers.add_parser("perft", help="count leaf nodes of the move tree",
                              description="Count the leaf nodes of the legal-move tree; the "
                                          "count is the last line of standard output.")
    f.add_argument("game", metavar="GAME", help="a bundled game's name or a definition file")
    f.add_argument("depth", type=depth_arg, metavar="DEPTH",
                   help=f"plies to look ahead (0 to {MAX_DEPTH})")
    f.add_argument("--fen", help="start from this position instead of the setup")
    f.add_argument("--divide", action="store_true", help="count per first move")
    f.add_argument("--chess960", action="store_true",
                   help="castle as Chess960 from the FEN's king and rooks (Fairy-Stockfish's "
                        "UCI_Chess960): the game with `chess960 castling` added")
    f.add_argument("-q", "--quiet", action="store_true", help="print only the count")
    f.set_defaults(func=run)
    return f


def _progress_bar(total, depth):
    """A tqdm bar on standard error when it is a terminal (and tqdm is installed), else None."""
    if not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=f"perft {depth}", unit="move", file=sys.stderr, leave=False)


def count(position, depth, divide=False, say=print):
    """The leaf count at `depth`, first move by first move (`say` gets each divide line).

    Perft counts the engine's legal moves: the history-dependent rules that
    Position.legal_moves applies (perpetual check and chase) play no part in it, so
    the first moves come from the engine handle, as Position.perft's own do.
    """
    if depth == 0:
        return 1
    engine, notation = position.engine, position.notation
    colour = engine.state()[0]
    codes = engine.legal_moves()
    bar = _progress_bar(len(codes), depth)
    total = 0
    try:
        for code in codes:
            move = notation.move(code, colour)
            if bar is not None:
                bar.set_postfix_str(str(move), refresh=True)
            engine.push(code)
            try:
                nodes = engine.perft(depth - 1)
            finally:
                engine.pop()
            total += nodes
            if divide:
                line = f"{move}: {nodes}"
                if bar is not None:
                    bar.write(line, file=sys.stdout)    # above the bar, not through it
                else:
                    say(line)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return total


def run(args):
    from . import load
    if args.divide and args.depth == 0:
        print("fairyforge perft: error: --divide needs DEPTH 1 or more (it lists the "
              "first moves)", file=sys.stderr)
        return 2
    game = load(args.game, progress=lambda m: print(f"  {m}", file=sys.stderr, flush=True),
                chess960=args.chess960)
    position = game.position(args.fen) if args.fen else game.start()
    started = time.monotonic()
    total = count(position, args.depth, divide=args.divide,
                  say=lambda line: print(line, flush=True))
    if args.divide:
        print()
    seconds = time.monotonic() - started
    if not args.quiet:
        rate = total / seconds if seconds > 0 else float("inf")
        print(f"perft {args.depth}: {seconds:.3f} s, {rate / 1e6:.2f} M nodes/s", file=sys.stderr)
    print(total)
    return EXIT_OK
