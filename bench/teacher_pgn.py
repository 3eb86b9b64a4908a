"""A match's games as PGN whose every score is the opponent's: a teacher's labels for
the positions our engine plays into.

    python bench/match.py --variant chess --games 800 --nodes 5000 --opening-plies 4 \\
        --json ours-vs-fsf.json
    python bench/teacher_pgn.py ours-vs-fsf.json ours-vs-fsf.pgn
    fairyforge tune chess --from-pgn ours-vs-fsf.pgn --eval-weight 1

`fairyforge tune --eval-weight` reads a move's `[%eval]` comment as the score of the
position the mover searched (the one before its move).  In match.py's PGN both
engines' scores are there; for learning from the opponent (Fairy-Stockfish), ours must
go.  Each of the opponent's moves keeps its score.  Each of ours gets the score the
opponent gave one ply earlier: that was the value of the position after the
opponent's own move, which is the position our engine then searched, as long as the
opponent played the move its search preferred (at full strength it does; with
`UCI_LimitStrength` it sometimes does not).  Our first move after the opening, which
has no earlier score, gets none (its position is then labelled by the game's result).
"""

import argparse
import json
import os
import sys
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match  # noqa: E402  (bench/match.py: GameRecord and its PGN writer)


def opponent_scores(record):
    """The record's scores (White's view, one a ply after the opening) with each of our
    engine's replaced by the opponent's score one ply earlier."""
    ours_first = (len(record.opening) % 2 == 0) == record.engine_white
    scores = []
    for ply, score in enumerate(record.scores):
        ours = (ply % 2 == 0) == ours_first
        scores.append((record.scores[ply - 1] if ply > 0 else None) if ours else score)
    return scores


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("match_json", help="bench/match.py --json's file")
    parser.add_argument("pgn", help="the PGN to write")
    args = parser.parse_args(argv)
    try:
        with open(args.match_json) as handle:
            data = json.load(handle)
        settings = SimpleNamespace(**data["settings"])
        records = [match.GameRecord(**game) for game in data["games"]]
    except (OSError, ValueError, KeyError, TypeError) as err:
        parser.error(f"{args.match_json}: not a match.py --json file ({err})")
    for record in records:
        record.scores = opponent_scores(record)
    match.write_pgn(args.pgn, settings, records)
    print(f"{len(records)} games written to {args.pgn}, every score the opponent's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
