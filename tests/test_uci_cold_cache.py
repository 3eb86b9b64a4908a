"""A cold cache: the first session of a game builds its engine without keeping clients
waiting, and a build cut short at any moment leaves the cache usable.

These tests use an empty temporary cache each, so they build engines from scratch
(a few seconds each on an idle machine).
"""

import os
import re
import signal
import subprocess
import sys
import time

import pytest

from test_uci_session import SEARCH_INFO, Engine, check_lines

# The tests marked quiet are timed against python-chess's timeouts and a few seconds'
# build: they have the machine to itself under pytest-xdist (conftest.py,
# pytest_runtest_protocol).  The killed build's test times nothing and may share it.


@pytest.fixture
def cold_cache(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("FAIRYFORGE_CACHE", str(cache))     # for the processes started here
    monkeypatch.setenv("FAIRYFORGE_BUILD", "optimized")    # as users build (conftest: quick)
    return cache


@pytest.mark.quiet
def test_python_chess_plays_crazyhouse_and_chess_with_its_default_timeouts(cold_cache):
    """python-chess gives `play` 10 s plus the move time, build included: the build runs
    in the background from `setoption name UCI_Variant` (or the first `position`)."""
    chess = pytest.importorskip("chess")
    import chess.engine
    import chess.variant
    engine = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "fairyforge.cli", "uci"])
    try:
        for board in (chess.variant.CrazyhouseBoard(), chess.Board()):
            while not board.is_game_over(claim_draw=True) and board.ply() < 40:
                result = engine.play(board, chess.engine.Limit(time=0.05))
                assert result.move in board.legal_moves, (board.fen(), result.move)
                board.push(result.move)
            info = engine.analyse(board, chess.engine.Limit(time=0.1))
            assert board.is_game_over() or "score" in info
        engine.ping()
    finally:
        engine.quit()
    names = sorted(os.listdir(cold_cache))
    assert [n for n in names if not n.endswith(".lock")] == [
        n for n in names if re.fullmatch(r"ff_(chess|crazyhouse)_[0-9a-f]+", n)]


@pytest.mark.quiet
def test_isready_answers_during_a_build_and_go_waits_for_it(cold_cache):
    engine = Engine()
    try:
        engine.send("uci")
        engine.until("uciok")
        started = time.monotonic()
        engine.send("setoption name UCI_Variant value shogi", "isready")
        lines = engine.until("readyok", 30)
        assert time.monotonic() - started < 8          # 5 s at most waiting for the build
        assert lines[0].startswith("info string variant shogi files 9 ranks 9 ")
        progress = (r"info string (building shogi: .*|waiting for the shogi engine to be "
                    r"built|shogi: a quickly compiled engine plays .*)")
        assert all(re.fullmatch(progress, line) for line in lines[1:-1]), lines
        # `go` waits for the quick engine, which plays until the optimized one replaces
        # it; the position set before carries over to that one.
        lines = engine.search("position startpos moves c3c4", "go depth 2", timeout=300)
        assert all(re.fullmatch(progress, line) for line in lines
                   if line.startswith("info string")), lines
        check_lines([line for line in lines if not line.startswith("info string")],
                    [(SEARCH_INFO, "+"), r"bestmove \S+ ponder \S+"])
        lines = engine.until(r"info string shogi engine ready \(.*", 300)
        assert all(re.fullmatch(progress, line) for line in lines[:-1]), lines
        # c3c4 was White's first move: Black, to move after it, cannot play it.
        lines = engine.search("go depth 2 searchmoves c3c4 c7c6", timeout=300)
        assert lines[0] == "info string error: searchmoves: c3c4 is not a legal move", lines
        check_lines(lines[1:], [(SEARCH_INFO, "+"), r"bestmove c7c6 ponder \S+"])
        assert engine.quit() == []
    finally:
        engine.kill()


@pytest.mark.quiet
def test_quit_during_a_build_ends_at_once_and_leaves_no_temporary_files(cold_cache):
    engine = Engine()
    try:
        engine.send("uci", "setoption name UCI_Variant value xiangqi", "position startpos",
                    "go depth 3")
        engine.until(r"info string building xiangqi: (quick engine: )?(cythonizing|"
                     r"compiling C)", 60)
        started = time.monotonic()
        rest = engine.quit(timeout=10)
        assert time.monotonic() - started < 5
        assert all(line.startswith("info string") for line in rest), rest
    finally:
        engine.kill()
    assert [n for n in os.listdir(cold_cache) if not n.endswith(".lock")] == []


def test_a_build_killed_midway_leaves_a_usable_cache(cold_cache):
    """SIGKILL to the process that builds (no chance to clean up), at the C compiler:
    the next load builds again and works; the cache never holds a half-made entry."""
    builder = subprocess.Popen([sys.executable, "-m", "fairyforge.protocols.builds", "chess"],
                               stdout=subprocess.PIPE, text=True, start_new_session=True)
    for line in builder.stdout:
        if "compiling C" in line:
            break
    os.killpg(builder.pid, signal.SIGKILL)
    builder.wait(10)
    entries = [n for n in os.listdir(cold_cache) if re.fullmatch(r"ff_chess_[0-9a-f]+", n)]
    assert entries == []                 # no entry: the rename had not happened
    check = subprocess.run([sys.executable, "-c", "import fairyforge as ff; "
                            "print(ff.load('chess').start().perft(3))"],
                           capture_output=True, text=True, timeout=600)
    assert check.returncode == 0, check.stderr
    assert check.stdout.strip() == "8902"
