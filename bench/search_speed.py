"""Search speed on fixed positions: depth reached, nodes and nodes/s.

    python bench/search_speed.py                    # 1 s a position
    python bench/search_speed.py --seconds 3 --depth 9   # fixed depth (time ignored)
    python bench/search_speed.py --against          # beside Fairy-Stockfish's numbers
    python bench/search_speed.py --against /path/to/engine

Each position is searched from a fresh engine (new_game) with runtime/search.think, so
the numbers are the whole iterative deepening as `go movetime` runs it.  Nodes/s
depends on the machine's load; depth reached and nodes to a fixed depth do not, and are
what to compare between two builds of the search.

`--against` searches the same positions, with the same `go movetime` (or `go depth`),
with a UCI engine that knows the variants (Debian's `fairy-stockfish` by default: one
thread, its default hash), one position after another so the two never share the
machine, and prints its depth, nodes and nodes/s beside ours with the ratio of the
two nodes/s.  The engines count nodes alike (each position searched, quiescence
included), but they prune differently, so depth reached is the fairer comparison of
strength and nodes/s of raw speed.
"""

import argparse
import json
import os
import shlex
import sys

import fairyforge as ff
from fairyforge.search import think

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import FSF_BINARY, EngineFailure, UciEngine  # noqa: E402  (bench/ is no package)

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


def measure_other(engine, name, fen, seconds, depth):
    """The other engine's numbers on one position, searched as `measure` searches it."""
    engine.send(f"setoption name UCI_Variant value {name}")
    engine.send("ucinewgame")
    engine.ready()
    go = f"depth {depth}" if depth else f"movetime {round(seconds * 1000)}"
    info, best = engine.analyse(f"fen {fen}" if fen else "startpos", go,
                                seconds if not depth else 600)
    return {"depth": info.get("depth", 0), "nodes": info.get("nodes", 0),
            "seconds": round(info.get("time", 0) / 1000, 3), "nps": info.get("nps", 0),
            "best": best}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--depth", type=int, help="search to this depth instead")
    parser.add_argument("--against", nargs="?", const=FSF_BINARY, metavar="ENGINE",
                        help="also search each position with this UCI engine (default "
                             f"{FSF_BINARY}) and print its numbers beside ours")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    other = _start(args.against) if args.against else None
    rows = []
    try:
        for name, fen in POSITIONS:
            row = measure(name, fen, args.seconds, args.depth)
            if other:
                row["other"] = measure_other(other, name, fen, args.seconds, args.depth)
            rows.append(row)
    except EngineFailure as error:
        sys.exit(f"search_speed: {error}")
    finally:
        if other:
            other.close()
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(_table(rows, bool(other)))


def _start(command):
    program = shlex.split(command)[0] if command.strip() else command
    if not os.path.exists(program):
        sys.exit(f"search_speed: --against {command}: no such engine "
                 "(apt-get install fairy-stockfish, or give its path)")
    try:
        return UciEngine(command, [("Threads", 1)], os.path.basename(program))
    except (EngineFailure, OSError) as error:
        sys.exit(f"search_speed: --against {command}: {error}")


def _table(rows, against):
    lines = [f"{'game':10} {'position':28} {'depth':>5} {'nodes':>10} {'s':>6} {'nodes/s':>9}"
             + (f" {'| other depth':>12} {'nodes':>10} {'nodes/s':>9} {'ratio':>6}"
                if against else "") + "  best"]
    for row in rows:
        line = (f"{row['game']:10} {row['fen'][:28]:28} {row['depth']:5} {row['nodes']:10} "
                f"{row['seconds']:6.2f} {row['nps']:9}")
        if against:
            o = row["other"]
            ratio = f"{row['nps'] / o['nps']:6.2f}" if o["nps"] else f"{'-':>6}"
            line += f" | {o['depth']:10} {o['nodes']:10} {o['nps']:9} {ratio}"
        lines.append(line + f"  {row['best']}" + (f" / {row['other']['best']}" if against else ""))
    return "\n".join(lines)


if __name__ == "__main__":
    main()
