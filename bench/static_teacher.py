"""A PGN whose [%eval] comments are Fairy-Stockfish's static evaluation: labels for
`fairyforge tune --eval-weight` without a search's tactics in them.

    python bench/static_teacher.py games/chess-fsf-eval.pgn.xz chess-static.pgn
    fairyforge tune chess --from-pgn chess-static.pgn --eval-weight 1

The games of `bench/match.py --pgn` carry each mover's search score, which a linear
evaluation can only partly follow: a score a few plies deep holds the tactics of its
line as well as the position's worth.  This writes the same games with each move's
comment replaced by Fairy-Stockfish's `eval` (its classical static evaluation, White's
view, pawns) of the position the move was played from, the position `fairyforge tune`
labels with it.  Positions in check, which the tuner skips, get no comment.  The
variant is each game's Variant tag (default chess), given to Fairy-Stockfish as
UCI_Variant.
"""

import argparse
import lzma
import os
import sys

from tqdm import tqdm

from fairyforge.errors import FairyforgeError
from fairyforge.pgn import export, read_games

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match  # noqa: E402  (bench/match.py: its UCI engine process)

ENGINE = "/usr/games/fairy-stockfish"
EVAL_SECONDS = 10.0             # an `eval` answers in a millisecond; more is a hang


def known_variants(declared):
    """The UCI_Variant choices among an engine's `option` lines."""
    for line in declared:
        if line.startswith("option name UCI_Variant "):
            words = line.split()
            return {words[i + 1] for i, word in enumerate(words[:-1]) if word == "var"}
    return set()


class StaticEval:
    """Fairy-Stockfish answering `eval` for positions given by FEN."""

    def __init__(self, command):
        self.engine = match.UciEngine(command, [], "Fairy-Stockfish")
        # (it would evaluate a variant it does not know as chess without a word)
        self.variants = known_variants(self.engine.declared)
        self.variant = None

    def __call__(self, variant, fen):
        """Its static evaluation of `fen`, White's view, in pawns."""
        if variant != self.variant:
            if variant not in self.variants:
                raise ValueError(f"Fairy-Stockfish does not know the variant {variant}")
            self.engine.send(f"setoption name UCI_Variant value {variant}")
            self.variant = variant
        self.engine.send(f"position fen {fen}")
        self.engine.send("eval")
        while True:         # (the trace's own "Total |" row comes first)
            line = self.engine.wait_for("Total", EVAL_SECONDS)
            if line.startswith("Total evaluation:"):
                return float(line.split()[2])

    def close(self):
        self.engine.close()


def relabelled(record, evaluate):
    """(the game's final position, one comment per move): each move's [%eval] the
    static evaluation of the position it was played from (None in check)."""
    moves = list(record.position.move_stack)
    position = record.position.game.position(record.position.setup_fen)
    comments = []
    for move in moves:
        if position.is_check():
            comments.append(None)
        else:
            comments.append(f"[%eval {evaluate(position.game.name, position.fen()):.2f}]")
        position.push(move)
    return position, comments


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a PGN file (.xz compressed or not)")
    parser.add_argument("output", help="the PGN to write")
    parser.add_argument("--engine", default=ENGINE, help=f"Fairy-Stockfish (default {ENGINE})")
    parser.add_argument("--games", type=int, default=0, help="only the first N games")
    args = parser.parse_args(argv)
    opener = lzma.open if args.source.endswith(".xz") else open
    try:
        with opener(args.source, "rt") as handle:
            text = handle.read()
    except OSError as err:
        parser.error(f"cannot read {args.source}: {err.strerror or err}")
    if not os.access(args.engine, os.X_OK):
        parser.error(f"{args.engine}: no such engine (apt-get install fairy-stockfish)")
    try:
        evaluate = StaticEval(args.engine)
    except (OSError, match.EngineFailure) as err:
        parser.error(f"{args.engine}: does not answer as Fairy-Stockfish ({err})")
    written = 0
    try:
        with open(args.output, "w") as out:
            for record in tqdm(read_games(text), desc="games", unit=" games"):
                if args.games and written >= args.games:
                    break
                position, comments = relabelled(record, evaluate)
                out.write(export(position, record.headers, comments) + "\n")
                written += 1
    except (FairyforgeError, ValueError, match.EngineFailure) as err:
        print(f"{args.source}, game {written + 1}: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"cannot write {args.output}: {err.strerror or err}", file=sys.stderr)
        return 1
    finally:
        evaluate.close()
    print(f"{written} games written to {args.output}, each score Fairy-Stockfish's static one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
