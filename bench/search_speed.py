"""Search speed on fixed positions: depth reached, nodes and nodes/s.

    python bench/search_speed.py                    # 1 s a position
    python bench/search_speed.py --seconds 3 --depth 9   # fixed depth (time ignored)

Each position is searched from a fresh engine (new_game) with runtime/search.think, so
the numbers are the whole iterative deepening as `go movetime` runs it.  Nodes/s
depends on the machine's load; depth reached and nodes to a fixed depth do not, and are
what to compare between two builds of the search.
"""

import argparse
import json

import fairyforge as ff
from fairyforge.search import think

POSITIONS = [
    ("chess", None),                                                   # start
    ("chess", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),  # 1.e4 e5
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "8/2k5/3p4/p2P1p2/P2P1P2/8/3K4/8 w - - 0 1"),                # pawn ending
    ("shogi", None),
    ("xiangqi", None),
    ("crazyhouse", None),
]


def measure(name, fen, seconds, depth):
    game = ff.load(name)
    position = game.position(fen) if fen else game.start()
    position.engine.new_game()
    if depth:
        result = think(position, depth=depth)
    else:
        result = think(position, movetime=seconds)
    info = result.info
    return {"game": name, "fen": fen or "start", "depth": info.depth, "nodes": info.nodes,
            "seconds": round(info.seconds, 3), "nps": info.nps, "score": info.score,
            "best": str(result.best_move)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--depth", type=int, help="search to this depth instead")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [measure(name, fen, args.seconds, args.depth) for name, fen in POSITIONS]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'game':10} {'position':28} {'depth':>5} {'nodes':>10} {'s':>6} {'nodes/s':>9}"
          f"  best")
    for row in rows:
        print(f"{row['game']:10} {row['fen'][:28]:28} {row['depth']:5} {row['nodes']:10} "
              f"{row['seconds']:6.2f} {row['nps']:9}  {row['best']}")


if __name__ == "__main__":
    main()
