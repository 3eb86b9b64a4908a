"""Run random playouts of generated engines built with AddressSanitizer + UBSan.

    python bench/sanitize.py                   # every bundled game
    python bench/sanitize.py chess shogi --plies 5000 --seed 7

For each game, the engine is built with `build(variant, sanitize=True)` (-O1 -g
-fsanitize=address,undefined; cached apart from the normal build), then a child
Python process with the ASan runtime preloaded plays random games against it:
legal_moves, push/pop round trips, perft and divide at small depths, FEN round trips,
refused moves and FENs.  Any out-of-bounds access, use after free or undefined
behaviour in the generated C stops the child with a sanitizer report, which is printed
here; the exit status is 1 if any game had one.

    LD_PRELOAD=$(gcc -print-file-name=libasan.so)
    ASAN_OPTIONS=detect_leaks=0                  (CPython's own allocations look leaked)
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

If the ASan runtime cannot be preloaded into this Python, `--valgrind` runs the
normally built engine under valgrind's memcheck instead (slow: use few plies).
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


# -- the child: play against a sanitized module -----------------------------------------

def child(game_name, module_path, plies, seed):
    import fairyforge as ff
    from fairyforge.compiler import build, resolve
    from fairyforge.game import Game

    variant = resolve.load_variant(game_name)
    game = Game(variant, build.import_module(module_path), module_path)
    with open("/proc/self/maps") as handle:
        maps = handle.read()
    if "libasan" not in maps and os.environ.get("FAIRYFORGE_SANITIZER") != "valgrind":
        raise SystemExit("the ASan runtime is not loaded: nothing is checked")
    rng = random.Random(seed)
    counts = {"plies": 0, "perft_nodes": 0, "refused_moves": 0, "refused_fens": 0,
              "games": 0}
    pos = game.start()
    counts["perft_nodes"] += pos.perft(3 if game.meta["files"] * game.meta["ranks"] <= 81 else 2)
    states = [(pos.fen(), pos.key())]
    for ply in range(plies):
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None or len(states) > 300:
            while len(states) > 1:
                pos.pop()
                states.pop()
                assert (pos.fen(), pos.key()) == states[-1], "pop did not restore the position"
            counts["games"] += 1
            continue
        if rng.random() < 0.05:                    # a refused move changes nothing
            text = rng.choice(["a1a1", "z9z9", "P@a1", "e2e4q", "hello", moves[0].uci + "x"])
            try:
                pos.push_uci(text)
                pos.pop()
            except ff.FairyforgeError:
                counts["refused_moves"] += 1
            assert (pos.fen(), pos.key()) == states[-1]
        move = rng.choice(moves)
        pos.push(move)
        counts["plies"] += 1
        fen, key = pos.fen(), pos.key()
        fresh = game.position(fen)
        assert fresh.key() == key, f"key differs from a fresh parse of {fen}"
        if rng.random() < 0.05:
            counts["perft_nodes"] += pos.perft(2)
            pos.divide(1)
        if rng.random() < 0.05:
            broken = list(fen)
            broken[rng.randrange(len(broken))] = rng.choice("0123456789kKpP/[]~+ x")
            try:
                game.position("".join(broken)).legal_moves()
            except ff.FenError:
                counts["refused_fens"] += 1
        if rng.random() < 0.1:
            pos.pop()
            assert (pos.fen(), pos.key()) == states[-1]
            pos.push(move)
        states.append((fen, key))
    while len(states) > 1:
        pos.pop()
        states.pop()
        assert (pos.fen(), pos.key()) == states[-1]
    try:
        pos.pop()
    except ff.EmptyHistoryError:
        pass
    print("RESULT " + json.dumps(counts), flush=True)


# -- the driver -------------------------------------------------------------------------

def sanitizer_env():
    libasan = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True,
                             text=True).stdout.strip()
    if not libasan or not os.path.isfile(libasan):
        return None
    env = dict(os.environ)
    env["LD_PRELOAD"] = libasan
    env["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=0:halt_on_error=1"
    env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    return env


def run_game(name, plies, seed, valgrind=False):
    from fairyforge.compiler import build, resolve
    variant = resolve.load_variant(name)
    started = time.monotonic()
    path = build.build(variant, sanitize=not valgrind)     # built here, without the preload
    built = time.monotonic() - started
    cmd = [sys.executable, os.path.abspath(__file__), "--child", name, path,
           str(plies), str(seed)]
    if valgrind:
        env = dict(os.environ, PYTHONMALLOC="malloc", FAIRYFORGE_SANITIZER="valgrind")
        cmd = ["valgrind", "--quiet", "--num-callers=30"] + cmd
    else:
        env = sanitizer_env()
        if env is None:
            raise SystemExit("no libasan.so: install gcc's sanitizer runtime, or use --valgrind")
    started = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    seconds = time.monotonic() - started
    result = None
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            result = json.loads(line[len("RESULT "):])
    if valgrind:
        # CPython itself has known memcheck false positives (int.from_bytes, the gc at
        # exit): keep only the errors with a frame in the generated module.
        module = os.path.basename(path).split(".")[0]
        blocks = re.split(r"==\d+== \n", proc.stderr)
        report = "\n".join(b for b in blocks if module in b)[-6000:]
    else:
        report = "\n".join(line for line in proc.stderr.splitlines()
                           if "==" in line or "runtime error" in line or "#" in line
                           or "Error" in line)[-6000:]
    ok = proc.returncode == 0 and result is not None and not report.strip()
    return {"game": name, "ok": ok, "returncode": proc.returncode, "result": result,
            "build_seconds": round(built, 1), "run_seconds": round(seconds, 1),
            "report": report or proc.stderr[-3000:], "module": path}


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "--child":
        child(argv[1], argv[2], int(argv[3]), int(argv[4]))
        return 0
    import fairyforge as ff
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("games", nargs="*", help="bundled games (default: all)")
    p.add_argument("--plies", type=int, default=2000, help="random plies per game")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--valgrind", action="store_true",
                   help="memcheck the normal build instead of ASan/UBSan")
    args = p.parse_args(argv)
    if args.valgrind and not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed")
    games = args.games or ff.bundled_games()
    failures = 0
    for name in games:
        outcome = run_game(name, args.plies, args.seed, args.valgrind)
        status = "clean" if outcome["ok"] else "FOUND A PROBLEM"
        counts = outcome["result"] or {}
        print(f"{name:<14} {status:<16} plies {counts.get('plies', '?'):>6}  perft nodes "
              f"{counts.get('perft_nodes', '?'):>8}  build {outcome['build_seconds']:>5} s  "
              f"run {outcome['run_seconds']:>6} s", flush=True)
        if not outcome["ok"]:
            failures += 1
            print(f"  exit status {outcome['returncode']}; module {outcome['module']}")
            print("  " + outcome["report"].replace("\n", "\n  "))
    print(f"{len(games)} games, {failures} with sanitizer findings "
          f"({'valgrind memcheck' if args.valgrind else 'AddressSanitizer + UBSan'})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
