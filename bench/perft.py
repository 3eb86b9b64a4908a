"""Perft benchmark for Fairyforge's compiled engines.

Usage:
    python bench/perft.py                       # every bundled game, table on stdout
    python bench/perft.py --games chess,shogi   # only these games (names or .variant paths)
    python bench/perft.py --depth 4 --repeat 3  # one depth for all games, best of 3 runs
    python bench/perft.py --json > run.json     # the same results as one JSON object

For each game, in fresh subprocesses and against a temporary FAIRYFORGE_CACHE that is
removed afterwards (your own cache is never read or written):
  1. cold build   - ff.load() with the cache empty, so the engine is generated and compiled;
  2. cached load  - ff.load() again in a new process, now served from the warm cache;
  3. perft        - perft from the start position, best of --repeat runs, plus the
                    process's peak resident memory (ru_maxrss).
Load times are measured inside the subprocess around ff.load() only; the
`import fairyforge` that precedes them is excluded.

When installed, python-chess (on chess) and cshogi (on shogi) are timed in the same run
and the ratio of our nodes/s to theirs is printed.  python-chess is pure Python.  cshogi
has no perft of its own, so its perft recursion is driven from Python (push/pop) with
the last ply bulk-counted in C++ by len(board.legal_moves).  Ratios are computed at
the comparison's depth (our engine is rerun at that depth), because bulk counting makes
nodes/s depend on depth.

Progress goes to stderr; builds run one at a time.  No timing is ever asserted.
"""

import argparse
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

DEFAULT_DEPTHS = {"chess": 5, "shogi": 5, "xiangqi": 5, "crazyhouse": 5}
OTHER_DEPTH = 4
PYTHON_CHESS_DEPTH = 4

# Code run in the subprocesses.  Each prints one JSON line on stdout; the last line wins.
LOAD_CODE = """
import json, sys, time
import fairyforge as ff
say = lambda message: print("      " + message, file=sys.stderr, flush=True)
started = time.perf_counter()
ff.load(sys.argv[1], progress=say)
print(json.dumps({"seconds": time.perf_counter() - started}))
"""

PEAK_MB = """
import resource, sys
def peak_mb():
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1 << 20) if sys.platform == "darwin" else rss / 1024  # bytes vs KiB
"""

PERFT_CODE = PEAK_MB + """
import json, time
import fairyforge as ff
game = ff.load(sys.argv[1])
repeat = int(sys.argv[2])
results = {}
for depth in map(int, sys.argv[3:]):
    best = None
    for _ in range(repeat):
        pos = game.start()
        started = time.perf_counter()
        nodes = pos.perft(depth)
        seconds = time.perf_counter() - started
        best = seconds if best is None else min(best, seconds)
    results[depth] = {"nodes": nodes, "seconds": best}
print(json.dumps({"runs": results, "peak_mb": peak_mb()}))
"""

# A plain perft for the comparison libraries, bulk-counted at the last ply like ours.
COMPARE_PERFT = """
def perft(board, depth):
    if depth == 1:
        return {leaf_count}
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes
"""

PYTHON_CHESS_CODE = PEAK_MB + """
import json, time
import chess
""" + COMPARE_PERFT.format(leaf_count="board.legal_moves.count()") + """
def new_board():
    return chess.Board()
"""

CSHOGI_CODE = PEAK_MB + """
import json, time
import cshogi
""" + COMPARE_PERFT.format(leaf_count="len(board.legal_moves)  # generated and counted in C++") + """
def new_board():
    return cshogi.Board()
"""

COMPARE_MAIN = """
depth, repeat = int(sys.argv[1]), int(sys.argv[2])
best = None
for _ in range(repeat):
    board = new_board()
    started = time.perf_counter()
    nodes = perft(board, depth)
    seconds = time.perf_counter() - started
    best = seconds if best is None else min(best, seconds)
print(json.dumps({"nodes": nodes, "seconds": best, "peak_mb": peak_mb()}))
"""

# library label, importable module, game it is compared on, worker code, note
COMPARISONS = [
    ("python-chess", "chess", "chess", PYTHON_CHESS_CODE, "pure Python"),
    ("cshogi", "cshogi", "shogi", CSHOGI_CODE,
     "Python-driven perft: cshogi has no perft; last ply counted in C++ by len(legal_moves)"),
]


class BenchError(Exception):
    """A benchmark subprocess failed."""


def progress(message):
    print(message, file=sys.stderr, flush=True)


def run_python(code, args, cache_dir, cwd):
    """Run `python -c code args...` with FAIRYFORGE_CACHE=cache_dir; return its JSON line."""
    env = dict(os.environ, FAIRYFORGE_CACHE=cache_dir)
    proc = subprocess.run([sys.executable, "-c", code, *map(str, args)], env=env, cwd=cwd,
                          stdout=subprocess.PIPE, text=True)   # stderr passes through
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise BenchError(f"subprocess exited with status {proc.returncode}")
    return json.loads(lines[-1])


def game_label(spec):
    """A short name for a bundled game or a definition file path."""
    return os.path.splitext(os.path.basename(spec))[0]


def game_depth(name, override):
    return override or DEFAULT_DEPTHS.get(name, OTHER_DEPTH)


def bench_game(spec, depth, repeat, extra_depths):
    """Cold build, cached load and perft of one game, in a throwaway cache directory."""
    name = game_label(spec)
    work = tempfile.mkdtemp(prefix="fairyforge-bench-")
    cache = os.path.join(work, "cache")
    os.mkdir(cache)
    try:
        progress(f"[{name}] cold build (empty cache {cache})")
        cold = run_python(LOAD_CODE, [spec], cache, work)["seconds"]
        progress(f"[{name}] cached load")
        cached = run_python(LOAD_CODE, [spec], cache, work)["seconds"]
        depths = [depth] + [d for d in extra_depths if d != depth]
        progress(f"[{name}] perft {', '.join(map(str, depths))} (best of {repeat})")
        out = run_python(PERFT_CODE, [spec, repeat, *depths], cache, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    runs = {int(d): run for d, run in out["runs"].items()}
    main = runs[depth]
    return {"game": name, "depth": depth, "nodes": main["nodes"], "seconds": main["seconds"],
            "nodes_per_second": rate(main), "cold_build_seconds": cold,
            "cached_load_seconds": cached, "peak_mb": out["peak_mb"],
            "other_depths": {d: run for d, run in runs.items() if d != depth}}


def rate(run):
    return run["nodes"] / run["seconds"] if run["seconds"] > 0 else float("inf")


def bench_comparison(label, code, depth, repeat):
    """Time a comparison library's perft in a fresh subprocess."""
    progress(f"[{label}] perft {depth} (best of {repeat})")
    work = tempfile.mkdtemp(prefix="fairyforge-bench-")
    try:
        out = run_python(code + COMPARE_MAIN, [depth, repeat], work, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out["nodes_per_second"] = rate(out)
    return out


def compare(row, label, module, note, depth, repeat, code):
    """One comparison entry: their figures, ours at the same depth, and the ratio."""
    entry = {"library": label, "game": row["game"], "depth": depth, "note": note}
    if importlib.util.find_spec(module) is None:
        entry["available"] = False
        return entry
    theirs = bench_comparison(label, code, depth, repeat)
    ours = row if depth == row["depth"] else row["other_depths"][depth]
    ours_rate = rate(ours)
    entry.update(available=True, nodes=theirs["nodes"], seconds=theirs["seconds"],
                 nodes_per_second=theirs["nodes_per_second"], peak_mb=theirs["peak_mb"],
                 nodes_agree=theirs["nodes"] == ours["nodes"],
                 ours_nodes_per_second=ours_rate,
                 ratio=ours_rate / theirs["nodes_per_second"],
                 ratio_table_depth=row["nodes_per_second"] / theirs["nodes_per_second"])
    return entry


def comparison_depth(game, args):
    return args.python_chess_depth if game == "chess" else game_depth(game, args.depth)


def run(args):
    specs = resolve_games(args.games)
    results = {"meta": metadata(args), "games": [], "comparisons": [], "errors": []}
    for spec in specs:
        name = game_label(spec)
        wanted = [comparison_depth(name, args) for c in COMPARISONS if c[2] == name]
        try:
            row = bench_game(spec, game_depth(name, args.depth), args.repeat, wanted)
        except BenchError as err:
            progress(f"[{name}] FAILED: {err}")
            results["errors"].append({"game": name, "error": str(err)})
            continue
        results["games"].append(row)
        for label, module, game, code, note in COMPARISONS:
            if game == name:
                results["comparisons"].append(
                    compare(row, label, module, note, comparison_depth(name, args),
                            args.repeat, code))
    return results


def resolve_games(option):
    """The games to run: the --games list (names or file paths) or every bundled game."""
    if not option:
        import fairyforge as ff
        return ff.bundled_games()
    specs = [g.strip() for g in option.split(",") if g.strip()]
    return [os.path.abspath(g) if os.path.isfile(g) else g for g in specs]


def metadata(args):
    import fairyforge as ff
    return {"fairyforge": ff.__version__, "git_commit": git_commit(),
            "python": platform.python_version(), "platform": platform.platform(),
            "cpus": os.cpu_count(), "repeat": args.repeat, "depth_override": args.depth,
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def git_commit():
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        proc = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here,
                              capture_output=True, text=True)
    except OSError:
        return None
    return proc.stdout.strip() or None


def print_table(results):
    header = ("game", "depth", "nodes", "seconds", "M nodes/s", "cold build s",
              "cached load s", "peak MB")
    rows = [(r["game"], str(r["depth"]), f"{r['nodes']:,}", f"{r['seconds']:.4f}",
             f"{r['nodes_per_second'] / 1e6:.2f}", f"{r['cold_build_seconds']:.2f}",
             f"{r['cached_load_seconds']:.3f}", f"{r['peak_mb']:.1f}")
            for r in results["games"]]
    widths = [max(len(x) for x in col) for col in zip(header, *rows)]
    for i, line in enumerate([header, *rows]):
        cells = [line[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(line[1:], widths[1:])]
        print("  ".join(cells))
        if i == 0:
            print("  ".join("-" * w for w in widths))
    print_comparisons(results["comparisons"])
    for err in results["errors"]:
        print(f"\n{err['game']}: FAILED ({err['error']})")


def print_comparisons(entries):
    if entries:
        print()
    for c in entries:
        if not c["available"]:
            print(f"{c['library']}: not installed, comparison on {c['game']} skipped")
            continue
        print(f"{c['library']} on {c['game']}, depth {c['depth']}: {c['nodes']:,} nodes in "
              f"{c['seconds']:.3f} s = {c['nodes_per_second'] / 1e6:.3f} M nodes/s, "
              f"peak {c['peak_mb']:.1f} MB")
        print(f"  note: {c['note']}")
        ratio = (f"  ratio fairyforge/{c['library']}: {c['ratio']:.2f}x at depth {c['depth']} "
                 f"(fairyforge {c['ours_nodes_per_second'] / 1e6:.2f} M nodes/s)")
        if c["ratio"] != c["ratio_table_depth"]:
            ratio += f"; {c['ratio_table_depth']:.2f}x using the table's row"
        print(ratio)
        if not c["nodes_agree"]:
            print(f"  WARNING: node counts differ from fairyforge's at depth {c['depth']}")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Perft benchmark for Fairyforge engines.")
    parser.add_argument("--games", help="comma-separated games (default: all bundled)")
    parser.add_argument("--depth", type=int, help="perft depth for every game "
                        "(default: chess/shogi/xiangqi/crazyhouse 5, others 4)")
    parser.add_argument("--repeat", type=int, default=1, help="report the best of N runs")
    parser.add_argument("--python-chess-depth", type=int, default=PYTHON_CHESS_DEPTH,
                        help="depth for python-chess, which is slow (default: 4)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    args = parser.parse_args(argv)
    for option in ("depth", "repeat", "python_chess_depth"):
        value = getattr(args, option)
        if value is not None and value < 1:
            parser.error(f"--{option.replace('_', '-')} must be at least 1")
    return args


def main(argv=None):
    args = parse_args(argv)
    results = run(args)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_table(results)
    return 1 if results["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
