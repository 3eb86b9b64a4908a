"""Move loss: what our moves cost, by a stronger search's judgement.

    python bench/move_loss.py crazyhouse                  # 100 positions, judge 1 s
    python bench/move_loss.py chess --positions 200 --judge-ms 2000 --json out.json
    python bench/move_loss.py chess --match m.json --positions 2000 --judge-ms 50

Positions are drawn from the games in bench/games/GAME-fsf.pgn.xz (Fairy-Stockfish
against itself), between the 8th ply and the 80th.  At each, our engine (`fairyforge
uci`, a fresh game) and Fairy-Stockfish at full strength each choose a move in the
same short time (`--movetime`, 100 ms); the judge, Fairy-Stockfish with `--judge-ms`,
scores the position and then each move that differs from its own choice
(`go searchmoves`), and a move's loss is the judge's best score less the move's.  The
table counts the moves that lose more than 0, 30, 100, 300 and 1000 centipawns, for
us and for Fairy-Stockfish at the same time, and their mean loss (each loss cut at
1000: a missed mate counts as 1000): where the two differ most tells tactics (the
large losses) from judgement (the small ones).  A match says how much weaker; this
says where.  Each position costs about two judge searches; one core.

With `--match FILE` (a `bench/match.py --json` file), the moves judged are the ones
the two engines played in that match's games instead: positions are drawn from every
ply after the opening, the played move is judged as above, and the table adds each
side's mean loss by the number of pieces on the board (pyffish counts them from the
FEN), so that a match's losses can be placed in the opening, the middlegame or the
ending.
"""

import argparse
import io
import json
import lzma
import os
import random
import sys

import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import FSF_BINARY, UciEngine  # noqa: E402  (bench/ is no package)

GAMES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "games")
THRESHOLDS = (0, 30, 100, 300, 1000)
LOSS_CAP = 1000                       # centipawns: a mate missed counts as this much
FIRST_PLY, LAST_PLY = 8, 80           # where in a game positions are drawn from


def game_lines(variant):
    """The move lists (UCI) of the recorded games of `variant`."""
    path = os.path.join(GAMES_DIR, f"{variant}-fsf.pgn.xz")
    if not os.path.exists(path):
        sys.exit(f"move_loss.py: no recorded games for {variant} ({path})")
    stream = io.StringIO(lzma.open(path, "rt").read())
    lines = []
    while (game := chess.pgn.read_game(stream)) is not None:
        lines.append([move.uci() for move in game.mainline_moves()])
    return lines


def match_positions(path, count, rng):
    """`count` of the positions of a match's games (bench/match.py --json), each as
    (moves before it, the move played there, "ours" or "opponent": who played it)."""
    with open(path) as source:
        games = json.load(source)["games"]
    plies = []
    for game in games:
        moves, ours_white = game["moves"], game["engine_white"]
        for ply in range(len(game["opening"]), len(moves)):
            mover = "ours" if (ply % 2 == 0) == ours_white else "opponent"
            plies.append((moves[:ply], moves[ply], mover))
    return rng.sample(plies, min(count, len(plies)))


def board_pieces(sf, variant, moves):
    """How many pieces stand on the board after `moves` (the FEN's board field)."""
    board = sf.get_fen(variant, sf.start_fen(variant), moves).split()[0]
    return sum(char.isalpha() for char in board.split("[")[0])


def judge_played(judge, moves, played, judge_ms):
    """The played move's loss after `moves` by the judge (None where it gave no score)."""
    judge.send("ucinewgame")
    best, top = search(judge, moves, f"movetime {judge_ms}")
    if played == best:
        return 0
    _, score = search(judge, moves, f"movetime {judge_ms} searchmoves {played}")
    return None if score is None or top is None else max(0, top - score)


PHASES = ((25, 999), (17, 24), (11, 16), (0, 10))   # pieces on the board, both kings counted


def review_match(args):
    """--match: judge the moves a match's engines played; print the tables."""
    with open(args.match) as source:
        played_variant = json.load(source)["settings"]["variant"]
    if played_variant != args.variant:
        sys.exit(f"move_loss.py: {args.match} is a match of {played_variant}, "
                 f"not {args.variant}")
    positions = match_positions(args.match, args.positions, random.Random(args.seed))
    rows = judge_match_moves(args.variant, positions, args.judge_ms)
    report = {name: summary([{name + "_loss": row["loss"]} for row in rows
                             if row["mover"] == name], name) for name in ("ours", "opponent")}
    print(f"\n{args.variant}, the moves played in {args.match}, judged at {args.judge_ms} ms:")
    print_loss_table(report, (("ours", "ours"), ("opponent", "opponent")))
    print_losses_by_pieces(rows)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"summary": report, "rows": rows}, out, indent=1)


def judge_match_moves(variant, positions, judge_ms):
    """A row for each (moves, played, mover) of `positions`: the played move's loss by
    a full-strength Fairy-Stockfish, and the pieces on the board before it."""
    import pyffish as sf
    judge = UciEngine(FSF_BINARY, [("UCI_Variant", variant)], "judge")
    rows = []
    try:
        judge.ready()
        for k, (moves, played, mover) in enumerate(positions, 1):
            rows.append({"moves": moves, "played": played, "mover": mover,
                         "pieces": board_pieces(sf, variant, moves),
                         "loss": judge_played(judge, moves, played, judge_ms)})
            if k % 50 == 0 or k == len(positions):
                print(f"[{k}/{len(positions)}] judged", flush=True)
    finally:
        judge.close()
    return rows


def print_loss_table(report, names):
    """The counts of moves over each threshold and the mean loss, a line per engine."""
    print("engine           judged  " + "  ".join(f">{t:>4}" for t in THRESHOLDS) + "  mean loss")
    for name, label in names:
        s = report[name]
        print(f"{label:<16} {s['judged']:>6}  " +
              "  ".join(f"{s['over'][t]:>5}" for t in THRESHOLDS) + f"  {s['mean']:>9}")


def print_losses_by_pieces(rows):
    """Each side's mean loss (cut at LOSS_CAP) by the pieces on the board."""
    print("\nmean loss by pieces on the board (moves judged):")
    for low, high in PHASES:
        cells = []
        for name in ("ours", "opponent"):
            losses = [min(row["loss"], LOSS_CAP) for row in rows if row["mover"] == name
                      and row["loss"] is not None and low <= row["pieces"] <= high]
            cells.append(f"{sum(losses) / max(len(losses), 1):7.1f} ({len(losses)})")
        label = f"{low}+" if high == 999 else f"{low}-{high}"
        print(f"  {label:<6} ours {cells[0]}   opponent {cells[1]}")


def draw_positions(lines, count, rng):
    """`count` positions, each a game's first moves, from games long enough to have
    moves left after it."""
    long_enough = [line for line in lines if len(line) >= FIRST_PLY + 2]
    positions = []
    while len(positions) < count:
        line = rng.choice(long_enough)
        positions.append(line[:rng.randrange(FIRST_PLY, min(len(line) - 2, LAST_PLY))])
    return positions


SEARCH_SECONDS = 60                   # the most one search may take before it fails


def search(engine, moves, go):
    """(best move, score) for the position after `moves` from the start."""
    return engine.best_move(moves, go, SEARCH_SECONDS)


def judge_position(engines, moves, movetime, judge_ms):
    """One position: each engine's move, the judge's, and each move's loss (None where
    the judge gave no score)."""
    ours, theirs, judge = engines
    for engine in engines:
        engine.send("ucinewgame")
    row = {"moves": moves}
    row["ours"], _ = search(ours, moves, f"movetime {movetime}")
    row["fsf"], _ = search(theirs, moves, f"movetime {movetime}")
    row["best"], top = search(judge, moves, f"movetime {judge_ms}")
    for name in ("ours", "fsf"):
        if row[name] == row["best"]:
            row[name + "_loss"] = 0
            continue
        _, score = search(judge, moves, f"movetime {judge_ms} searchmoves {row[name]}")
        row[name + "_loss"] = None if score is None or top is None else max(0, top - score)
    return row


def summary(rows, name):
    losses = [row[name + "_loss"] for row in rows if row[name + "_loss"] is not None]
    return {"judged": len(losses),
            "over": {threshold: sum(loss > threshold for loss in losses)
                     for threshold in THRESHOLDS},
            "mean": round(sum(min(loss, LOSS_CAP) for loss in losses) / max(len(losses), 1), 1)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--movetime", type=int, default=100, help="ms for each move judged")
    parser.add_argument("--judge-ms", type=int, default=1000, help="ms for each judge search")
    parser.add_argument("--engine", default="fairyforge uci", help="our engine's command")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write every position's row here")
    parser.add_argument("--match", help="judge the moves played in this match.py --json "
                        "file instead (positions from its games; --engine and --movetime "
                        "are not used)")
    args = parser.parse_args(argv)
    if args.match:
        return review_match(args)

    positions = draw_positions(game_lines(args.variant), args.positions,
                               random.Random(args.seed))
    options = [("UCI_Variant", args.variant)]
    engines = (UciEngine(args.engine, options, "ours"), UciEngine(FSF_BINARY, options, "fsf"),
               UciEngine(FSF_BINARY, options, "judge"))
    rows = []
    try:
        for engine in engines:
            engine.ready()
        for k, moves in enumerate(positions, 1):
            rows.append(judge_position(engines, moves, args.movetime, args.judge_ms))
            row = rows[-1]
            print(f"[{k}/{len(positions)}] ours {row['ours']} ({row['ours_loss']}), "
                  f"Fairy-Stockfish {row['fsf']} ({row['fsf_loss']}), judge {row['best']}",
                  flush=True)
    finally:
        for engine in engines:
            engine.close()
    report = {name: summary(rows, name) for name in ("ours", "fsf")}
    print(f"\n{args.variant}, {args.movetime} ms a move, judged at {args.judge_ms} ms:")
    print_loss_table(report, (("ours", "ours"), ("fsf", "Fairy-Stockfish")))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"summary": report, "rows": rows}, out, indent=1)


if __name__ == "__main__":
    main()
