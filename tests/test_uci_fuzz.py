"""Fuzzing the engine protocols with random command streams (seeded, so reproducible).

Each case starts `fairyforge uci` and sends a random stream: handshakes (UCI, USI,
UCCI), options with good and bad values, positions (from random playouts, mutated,
with illegal moves, huge digit runs), searches of every kind (`go infinite` included)
interleaved with `position`, `stop`, `ucinewgame`, `d`, `quit` at random moments, and
garbage (random bytes, megabyte lines).  A case ends with `quit`, with the end of
input, or with `stop` + `isready` + `quit`.  Each case has a time limit, and counts:

* crash: the process exits with a non-zero status or writes anything on stderr;
* hang: it does not finish within the time limit;
* escape: an `internal error` line (an exception that escaped every command's handling);
* violation: an output line that is no protocol line, or more best moves than `go`s
  (fewer too, for a case that ends with stop + isready).

Some cases are XBoard sessions instead (new, variant, usermove, go, force, analyze ...),
checked for crashes, hangs, escapes and lines outside XBoard's protocol.

The CI run is a handful of cases; FAIRYFORGE_FUZZ=long runs the campaign
(FAIRYFORGE_UCI_FUZZ_CASES, 300 by default, random seeds):

    FAIRYFORGE_FUZZ=long python -m pytest -s tests/test_uci_fuzz.py

Either way the summary prints a table (FAIRYFORGE_UCI_FUZZ_REPORT=path.json writes it).
"""

import json
import os
import random
import re
import threading
import time
from dataclasses import dataclass, field

import pytest

import fairyforge as ff

from test_uci_session import Engine

LONG = os.environ.get("FAIRYFORGE_FUZZ", "").lower() == "long"
CASES = int(os.environ.get("FAIRYFORGE_UCI_FUZZ_CASES", "300")) if LONG else 6
CASE_LIMIT = 60.0               # seconds a case may take, end included
WARM = ("chess", "crazyhouse", "shogi", "xiangqi")
PROTOCOL_LINE = re.compile(
    r"(id (name|author) .*|option .*|(uci|usi|ucci)ok|readyok|bye|nobestmove"
    r"|info (string .*|depth \d+( score (cp |mate )?-?\d+)?( nodes \d+ nps \d+ time \d+"
    r"( pv( \S+)+)?)?)|bestmove \S+( ponder \S+)?)")
XBOARD_LINE = re.compile(
    r"(feature .*|# .*|move \S+|pong ?\S*|Illegal move \(.*\): .*|Error \(.*\): .*"
    r"|tellusererror .*|(1-0|0-1|1/2-1/2) \{.*\}|\d+ -?\d+ \d+ \d+\t.*)")


@dataclass
class Tally:
    cases: int = 0
    by_protocol: dict = field(default_factory=dict)
    commands: int = 0
    searches: int = 0
    output_lines: int = 0
    crashes: list = field(default_factory=list)
    hangs: list = field(default_factory=list)
    escapes: list = field(default_factory=list)
    violations: list = field(default_factory=list)


TALLY = Tally()


# -- the streams ---------------------------------------------------------------------------

class Material:
    """FENs and move sequences of the warm games, from random playouts."""

    def __init__(self, games, rng):
        self.lines = {}
        for name in WARM:
            game, lines = games[name], []
            for _ in range(6):
                position, moves = game.start(), []
                for _ in range(rng.randrange(0, 40)):
                    legal = position.legal_moves()
                    if not legal or position.outcome():
                        break
                    move = rng.choice(legal)
                    position.push(move)
                    moves.append(str(move))
                lines.append((game.start_fen, moves, position.fen()))
            self.lines[name] = lines


def stream(rng, material, tmp):
    """A random command stream: (line or bytes, pause in seconds) pairs, and the ending."""
    if rng.random() < 0.15:
        return xboard_stream(rng, material), rng.choice(["quit", "close"])
    steps = [(rng.choice(["uci", "uci", "uci", "usi", "ucci"]), 0)]
    variant = "chess"
    for _ in range(rng.randrange(5, 40)):
        line, variant = command(rng, material, variant, tmp)
        steps.append((line, pause(rng)))
    ending = rng.choice(["quit", "stop-quit", "stop-quit", "close"])
    return steps, ending


def xboard_stream(rng, material):
    """An XBoard session: the engine keeps the game and answers moves with moves."""
    steps = [("xboard", 0), ("protover 2", 0)]
    for _ in range(rng.randrange(5, 30)):
        variant = rng.choice(WARM)
        start, moves, fen = rng.choice(material.lines[variant])
        line = rng.choice([
            "new", f"variant {rng.choice(['normal', *WARM, 'nosuch'])}", "force", "go",
            "playother", "?", "undo", "remove", "post", "nopost", "analyze", "exit",
            f"sd {rng.randrange(-1, 4)}", f"st {rng.randrange(0, 2)}", "level 40 5 0",
            "level x", f"time {rng.randrange(0, 10000)}", "otim 100", f"ping {rng.randrange(99)}",
            f"setboard {fen}", f"setboard {mutate(rng, fen)}", "memory 32", "cores 2",
            "option UCI_Chess960=1", "d", "hard", "result 1-0 {x}",
            f"usermove {rng.choice(moves) if moves else 'e2e4'}", "e2e4", "e7e5", "a1a1",
            garbage(rng)])
        steps.append((line, pause(rng)))
    return steps


def pause(rng):
    r = rng.random()
    return 0 if r < 0.6 else rng.uniform(0, 0.05) if r < 0.9 else rng.uniform(0.1, 0.4)


def command(rng, material, variant, tmp):
    kind = rng.choices(["position", "go", "stop", "setoption", "isready", "new", "d",
                        "garbage", "ponderhit", "handshake"],
                       [25, 25, 12, 10, 8, 5, 5, 6, 2, 2])[0]
    if kind == "position":
        return position(rng, material, variant), variant
    if kind == "go":
        return go(rng), variant
    if kind == "setoption":
        return setoption(rng, tmp)
    if kind == "garbage":
        return garbage(rng), variant
    return {"stop": "stop", "isready": "isready", "new": "ucinewgame", "d": "d",
            "ponderhit": "ponderhit",
            "handshake": rng.choice(["uci", "usi", "ucci"])}[kind], variant


def position(rng, material, variant):
    start, moves, fen = rng.choice(material.lines.get(variant) or material.lines["chess"])
    r = rng.random()
    if r < 0.35:
        head = "position startpos"
    elif r < 0.6:
        head, moves = f"position fen {fen}", []
    elif r < 0.8:
        head, moves = f"position fen {mutate(rng, fen)}", []
    elif r < 0.9:
        head = f"position fen {start}"
    else:
        head, moves = rng.choice(["position fen 8/8/8/8/8/8/8/" + "9" * rng.randrange(1, 6000),
                                  "position sfen " + fen, "position", "position fen",
                                  "position startpos moves"]), []
    moves = list(moves)
    if moves and rng.random() < 0.3:
        moves.insert(rng.randrange(len(moves)), rng.choice(["e2e5", "zz", "P@a9", "a1a1",
                                                            "0000", "e7e8q", "x" * 300]))
    return head + (" moves " + " ".join(moves) if moves else "")


def mutate(rng, fen):
    chars = list(fen)
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(chars))
        chars[i] = rng.choice("0123456789pnbrqkPNBRQK/[]- wb+~" + chr(rng.randrange(32, 0x3000)))
    return "".join(chars)


def go(rng):
    options = ["depth 1", "depth 2", "depth 3", f"nodes {rng.randrange(1, 5000)}",
               f"movetime {rng.randrange(1, 150)}", "infinite", "ponder", "mate 2",
               "wtime 300 btime 300 winc 10 binc 10", "btime 500 wtime 500 byoyomi 50",
               "nodes 18446744073709551616", f"depth {10 ** rng.randrange(2, 40)}",
               "movetime -5", "depth x", "wobble", "searchmoves e2e4 d2d4", "movestogo 0",
               "time 1 increment 0", f"nodes {'9' * rng.randrange(1, 60)}"]
    chosen = rng.sample(options, rng.randrange(0, 3))
    if not any(word in " ".join(chosen) for word in ("depth", "nodes", "movetime", "infinite",
                                                     "ponder", "mate", "time")):
        chosen.append("depth 2")
    return "go " + " ".join(chosen)


def setoption(rng, tmp):
    name = rng.choice(["Hash", "UCI_Variant", "UCI_Variant", "UCI_Chess960", "VariantPath",
                       "Threads", "MultiPV", "Ponder", "NoSuch", "USI_Hash", "", "Skill Level"])
    values = {"Hash": ["1", "16", "64", "abc", "-3", "0", "4097", "9" * 50],
              "UCI_Variant": list(WARM) + ["nosuch", "CHESS", ""],
              "UCI_Chess960": ["true", "false", "maybe"],
              "VariantPath": [str(tmp), "/nonexistent", "", "/x" * 2000]}
    value = rng.choice(values.get(name, ["1", "4", "true", "x"]))
    variant = value.lower() if name == "UCI_Variant" and value.lower() in WARM else None
    line = f"setoption name {name} value {value}" if rng.random() < 0.9 else f"setoption {name}"
    return line, variant or "chess"


def garbage(rng):
    r = rng.random()
    if r < 0.3:
        return bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 80))).replace(b"\n", b"")
    if r < 0.5:
        return rng.choice(["x", "go" * 1000, "position fen " + "/" * 5000]) * rng.randrange(1, 400)
    if r < 0.55:
        return b"y" * rng.randrange(1 << 20, 3 << 20)
    return " ".join(rng.choice(["go", "stop", "position", "fen", "moves", "startpos", "depth",
                                "infinite", "-", "999", "value", "name", "setoption", "\t"])
                    for _ in range(rng.randrange(1, 8)))


# -- running a case --------------------------------------------------------------------------

def run_case(seed, material, tmp):
    rng = random.Random(seed)
    steps, ending = stream(rng, material, tmp)
    engine = Engine()
    gos = sum(1 for line, _ in steps if isinstance(line, str) and line.split()[:1] == ["go"])
    xboard = steps[0][0] == "xboard"
    TALLY.by_protocol[steps[0][0]] = TALLY.by_protocol.get(steps[0][0], 0) + 1
    done = threading.Event()
    seen = []                   # lines the feeder read while waiting for readyok

    def feed():
        try:
            for line, delay in steps:
                engine.send(line)
                time.sleep(delay)
            if ending == "stop-quit":
                engine.send("stop", "isready")
                seen.extend(engine.until("readyok", CASE_LIMIT))
            if ending != "close":
                engine.send("quit")
            engine.process.stdin.close()
        except (OSError, AssertionError):
            pass
        finally:
            done.set()

    started = time.monotonic()
    threading.Thread(target=feed, daemon=True).start()
    finished = done.wait(CASE_LIMIT)
    try:
        engine.process.wait(max(CASE_LIMIT - (time.monotonic() - started), 1))
    except Exception:
        finished = False
    record(seed, engine, finished, None if xboard else gos, ending, seen)
    engine.kill()
    return steps


def record(seed, engine, finished, gos, ending, seen):
    TALLY.cases += 1
    TALLY.searches += gos or 0
    if not finished or engine.process.poll() is None:
        TALLY.hangs.append(seed)
        return
    time.sleep(0.05)
    out = list(seen)
    while not engine.lines.empty():
        line = engine.lines.get()
        if line is not None:
            out.append(line)
    TALLY.output_lines += len(out)
    if engine.process.returncode != 0 or any(line for line in engine.stderr if line):
        TALLY.crashes.append((seed, engine.process.returncode, engine.stderr[-5:]))
    if any("internal error" in line for line in out):
        TALLY.escapes.append((seed, [line for line in out if "internal error" in line][:3]))
    if gos is None:                                 # XBoard: its own lines, no go count
        bad = [line for line in out if not XBOARD_LINE.fullmatch(line)]
        if bad:
            TALLY.violations.append((seed, bad[:3]))
        return
    bad = [line for line in out if not PROTOCOL_LINE.fullmatch(line)]
    answered = sum(1 for line in out if line.startswith(("bestmove", "nobestmove")))
    if bad or answered > gos or (ending == "stop-quit" and answered != gos):
        TALLY.violations.append((seed, bad[:3], gos, answered))


def report_lines():
    t = TALLY
    kinds = ", ".join(f"{name} {count}" for name, count in sorted(t.by_protocol.items()))
    return [f"UCI stream fuzzing, campaign: {'long' if LONG else 'ci'} (cases opened with: "
            f"{kinds})",
            f"{'cases':>6} {'commands':>9} {'searches':>9} {'output lines':>13} {'crashes':>8} "
            f"{'hangs':>6} {'escapes':>8} {'violations':>11}",
            f"{t.cases:>6} {t.commands:>9} {t.searches:>9} {t.output_lines:>13} "
            f"{len(t.crashes):>8} {len(t.hangs):>6} {len(t.escapes):>8} {len(t.violations):>11}"]


@pytest.fixture(scope="module")
def reporter(request):
    yield
    writer = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if writer is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            writer.write_line("")
            for line in report_lines():
                writer.write_line(line)
    target = os.environ.get("FAIRYFORGE_UCI_FUZZ_REPORT")
    if target:
        with open(target, "w") as handle:
            json.dump({"campaign": "long" if LONG else "ci", **TALLY.__dict__}, handle,
                      indent=1, default=str)


@pytest.fixture(scope="module")
def material(games):
    for name in (WARM if not LONG else ff.bundled_games()):
        games[name]                      # built before the sessions start
    return Material(games, random.Random(7))


def test_random_command_streams(material, reporter, tmp_path):
    (tmp_path / "mini.variant").write_text(
        'variant minifuzz "Mini"\nboard 4x4\npiece king K K royal\npiece rook R R\n'
        'setup "1k2/4/4/R2K w - - 0 1"\n')
    (tmp_path / "bad.variant").write_text("variant\n")
    first = random.randrange(1 << 30) if LONG else 0
    for seed in range(first, first + CASES):
        steps = run_case(seed, material, tmp_path)
        TALLY.commands += len(steps)
    assert not TALLY.crashes, TALLY.crashes
    assert not TALLY.hangs, TALLY.hangs
    assert not TALLY.escapes, TALLY.escapes
    assert not TALLY.violations, TALLY.violations
