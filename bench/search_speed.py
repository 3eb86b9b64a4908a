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
    ("shogi", "lns2gsnl/5r1k1/pppp3p1/6p1p/2P2p3/P3g1P2/1P1P1PSPP/LbS2RG2/1NKG3NL[PPb] w - - 0 21"),
    ("shogi", "l1k3snl/2gs1g1b1/+P1pppp1pp/1p7/L3P4/r2B1Pp2/1P1P3PP/1KS1R1G2/1N1G2SNL[NPpp] w - - 1 21"),
    ("xiangqi", None),
    ("crazyhouse", None),
    ("crazyhouse", "r1b1kn2/1ppp2b1/p1n1p2R/3n2Bp/3Pp3/N1P3Q1/PP3PPP/R2QKB1R[pp] w KQq - 0 21"),
    ("crazyhouse", "2kr3r/1bqn1Pp1/p2bp3/2ppP3/1p1P1P2/4PQ1B/PpPKN2R/2R3N1[NPPb] w - - 0 21"),
]
# (the middlegames: move 21 of games from bench/games/*-fsf.pgn.xz, pieces in hand)


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
