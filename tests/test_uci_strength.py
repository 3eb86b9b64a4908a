"""UCI completeness (issue 13): clock time management, MultiPV, Hash, Threads (Lazy SMP),
Ponder with ponderhit and UCI_LimitStrength/UCI_Elo, through python-chess where a user
would drive them, and through the raw protocol where the line format matters."""

import json
import os
import shlex
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

chess = pytest.importorskip("chess")
import chess.engine  # noqa: E402

from fairyforge import search, smp  # noqa: E402
from fairyforge.search import think  # noqa: E402
from fairyforge.strength import (FULL_NODES, FULL_STRENGTH_ELO, NODE_ANCHORS,  # noqa: E402
                                 Strength)
from fairyforge.timing import clock_budget  # noqa: E402

from test_uci_session import SEARCH_INFO, Engine, check_lines, started  # noqa: E402

# The tests marked quiet time clocks, move times and ponderhits against the wall (or
# python-chess's timeouts): they have the machine to itself under pytest-xdist
# (conftest.py, pytest_runtest_protocol).  The others may share it.

UCI = [sys.executable, "-m", "fairyforge.cli", "uci"]
MATCH = os.path.join(os.path.dirname(os.path.dirname(__file__)), "bench", "match.py")
MIDDLEGAME = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


@pytest.fixture
def uci(games):
    games["chess"]                                   # built before the engine starts
    engine = chess.engine.SimpleEngine.popen_uci(UCI)
    yield engine
    engine.quit()


@pytest.fixture
def raw(games):
    games["chess"]
    process = Engine()
    started(process)
    yield process
    process.finish()


# -- time management ----------------------------------------------------------------------

def test_clock_budget_shares_the_clock_and_keeps_a_reserve():
    soft, hard = clock_budget(60.0, 0.0, None, 0.03)
    assert 1.5 < soft < 2.5 and soft < hard <= 60 * 0.75
    soft_inc, _ = clock_budget(60.0, 1.0, None, 0.03)
    assert soft_inc > soft + 0.5                     # most of the increment is spent
    last, last_hard = clock_budget(10.0, 0.0, 1, 0.03)
    assert 4 < last <= last_hard <= 7.5              # the last move before the control
    tiny, tiny_hard = clock_budget(0.05, 0.0, None, 0.03)
    assert tiny_hard <= 0.05                         # never more than the clock holds
    assert clock_budget(60.0, 0.0, 10, 0.03)[0] > 2.5 * soft   # few moves to go: more each


@pytest.mark.quiet
def test_a_game_at_one_second_plus_100_ms_is_never_lost_on_time(uci):
    """Both sides on a 1 s + 0.1 s clock, the time each move really took (python-chess,
    the pipes and the process included) taken off its side's clock."""
    board, clocks, increment = chess.Board(), {chess.WHITE: 1.0, chess.BLACK: 1.0}, 0.1
    uci.analyse(board, chess.engine.Limit(depth=1))   # the engine is loaded before the clock
    used = []
    while not board.is_game_over() and board.ply() < 80:
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], white_inc=increment,
                                   black_clock=clocks[chess.BLACK], black_inc=increment)
        started = time.monotonic()
        result = uci.play(board, limit)
        spent = time.monotonic() - started
        used.append(spent)
        clocks[board.turn] -= spent
        assert clocks[board.turn] > 0, f"lost on time at ply {board.ply()}: {used}"
        clocks[board.turn] += increment
        assert result.move in board.legal_moves
        board.push(result.move)
    slowest = max(used)
    assert slowest < 0.75, (f"a move took {slowest:.2f} s, at ply {used.index(slowest)}: "
                            f"{[round(u, 3) for u in used]}")
    assert sum(used) / len(used) > 0.02                          # it does think


@pytest.mark.quiet
def test_movetime_is_kept(raw):
    raw.send("position startpos")
    started = time.monotonic()
    lines = raw.search("go movetime 300")
    spent = time.monotonic() - started
    check_lines(lines, [(SEARCH_INFO, "+"), r"bestmove \S+( ponder \S+)?"])
    assert 0.1 < spent < 1.0


# -- MultiPV ------------------------------------------------------------------------------

def test_analyse_with_multipv_3_gives_three_distinct_moves_best_first(uci):
    board = chess.Board(MIDDLEGAME)
    lines = uci.analyse(board, chess.engine.Limit(depth=4), multipv=3)
    assert [info["multipv"] for info in lines] == [1, 2, 3]
    moves = [info["pv"][0] for info in lines]
    assert len(set(moves)) == 3 and all(m in board.legal_moves for m in moves)
    scores = [info["score"].white().score(mate_score=100000) for info in lines]
    assert scores == sorted(scores, reverse=True)


def test_multipv_lines_come_in_order_at_every_depth(raw):
    raw.ask("setoption name MultiPV value 3")
    lines = raw.search("position startpos", "go depth 3")
    infos = [line for line in lines if line.startswith("info depth")]
    ranks = [int(line.split(" multipv ")[1].split()[0]) for line in infos]
    assert ranks == [1, 2, 3] * 3
    assert len({line.split(" pv ")[1].split()[0] for line in infos[-3:]}) == 3


def test_multipv_larger_than_the_legal_moves_reports_each_once(games):
    position = games["chess"].position("7k/8/8/8/8/8/8/K7 w - - 0 1")      # three moves
    result = think(position, depth=2, multipv=10)
    assert len(result.lines) == 3
    assert len({str(info.pv[0]) for info in result.lines}) == 3


# -- Hash ---------------------------------------------------------------------------------

def test_hash_tables_have_the_size_asked_for(games):
    module = games["chess"].module
    assert [module.HashTable(mb).megabytes for mb in (1, 16, 100)] == [1, 16, 64]
    position = games["chess"].start()
    position.engine.set_hash_size(4)
    assert position.engine.hash_table.megabytes == 4


def test_the_table_is_kept_between_searches_and_cleared_by_ucinewgame(raw):
    def nodes():
        lines = raw.search("position startpos moves e2e4", "go depth 6")
        return int(lines[-2].split(" nodes ")[1].split()[0])
    raw.ask("setoption name Hash value 8")
    first = nodes()
    again = nodes()                         # a new Position, the session's table
    raw.ask("ucinewgame")
    fresh = nodes()
    assert again < first // 2
    assert fresh == first


def test_a_hash_size_that_is_not_a_power_of_two_is_reported(raw):
    raw.ask("setoption name Hash value 100")
    lines = raw.search("position startpos", "go depth 1")
    assert "info string Hash 100 MB: the table has 64 MB (a power of two)" in lines
    assert raw.ask("setoption name Hash value 4097") == [
        "info string error: Hash 4097 is out of range: from 1 to 4096"]


# -- Threads ------------------------------------------------------------------------------

@pytest.mark.quiet
def test_two_threads_play_legal_moves(uci):
    uci.configure({"Threads": 2})
    board = chess.Board()
    for _ in range(6):
        result = uci.play(board, chess.engine.Limit(time=0.1), info=chess.engine.INFO_ALL)
        assert result.move in board.legal_moves
        assert result.info["nodes"] > 0
        board.push(result.move)


def test_nodes_count_every_thread(games, monkeypatch):
    """The reported nodes are the main search's plus the helpers', at every depth."""
    seen = {}

    class Recorded(smp.Helpers):
        def __init__(self, *args):
            super().__init__(*args)
            seen["helpers"] = self

    class RecordedRun(search._Run):
        def __init__(self, *args):
            super().__init__(*args)
            seen["run"] = self

    monkeypatch.setattr(search, "Helpers", Recorded)
    monkeypatch.setattr(search, "_Run", RecordedRun)
    checks = []

    def on_info(info):
        main, helpers = seen["run"].main_nodes, seen["helpers"].nodes
        checks.append((info.nodes, main, helpers))

    position = games["chess"].position(MIDDLEGAME)
    position.engine.new_game()
    result = think(position, depth=7, threads=3, on_info=on_info)
    assert result.best_move in position.legal_moves()
    assert len(seen["helpers"].engines) == 2
    for reported, main, helpers in checks:
        assert reported <= main + helpers
    assert checks[-1][0] > checks[-1][1]          # the helpers' nodes are in the total
    assert not any(t.is_alive() for t in seen["helpers"].threads)


def test_helpers_search_copies_with_the_same_history(games):
    position = games["chess"].start()
    for move in ("g1f3", "g8f6", "f3g1", "f6g8"):
        position.push_uci(move)
    clone = position.engine.clone()
    assert clone.key() == position.engine.key()
    assert clone.history_keys() == position.engine.history_keys()
    assert clone.hash_table is position.engine.hash_table


# -- Ponder -------------------------------------------------------------------------------

@pytest.mark.quiet
def test_play_with_ponder_through_python_chess(uci):
    """The opponent plays the predicted move (ponderhit), then another move (stop)."""
    board = chess.Board()
    limit = chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1, black_inc=0.1)
    result = uci.play(board, limit, ponder=True)
    assert result.move in board.legal_moves and result.ponder is not None
    board.push(result.move)
    board.push(result.ponder)                      # as predicted: ponderhit
    started = time.monotonic()
    result = uci.play(board, limit, ponder=True)
    assert time.monotonic() - started < 2.0        # the clock's budget, not infinite
    assert result.move in board.legal_moves
    board.push(result.move)
    other = next(m for m in board.legal_moves if m != result.ponder)
    board.push(other)                              # not as predicted: stop, new search
    result = uci.play(board, limit, ponder=True)
    assert result.move in board.legal_moves


@pytest.mark.quiet
def test_ponderhit_starts_the_clock_and_stop_ends_a_ponder(raw):
    raw.ask("setoption name Ponder value true")
    raw.send("position startpos moves e2e4 e7e5", "go ponder wtime 2000 btime 2000")
    assert not any(line.startswith("bestmove") for line in raw.quiet(1.0))
    started = time.monotonic()
    raw.send("ponderhit")
    raw.until(r"bestmove \S+( ponder \S+)?", 5)
    assert time.monotonic() - started < 2000 * 0.75 / 1000 + 0.3
    raw.send("position startpos", "go ponder wtime 60000 btime 60000")
    assert not any(line.startswith("bestmove") for line in raw.quiet(0.5))
    started = time.monotonic()
    raw.send("stop")
    raw.until(r"bestmove \S+( ponder \S+)?", 5)
    assert time.monotonic() - started < 1.0


# -- UCI_LimitStrength and UCI_Elo --------------------------------------------------------

def test_lower_elo_searches_fewer_nodes_and_picks_among_more_moves():
    budgets = [Strength(elo).node_budget for elo in (500, 1000, 1500, 2000)]
    assert budgets[0] < budgets[1] < budgets[2] < budgets[3] < FULL_NODES
    assert [Strength(elo).node_budget for elo, _ in NODE_ANCHORS[1:]] == \
        [nodes for _, nodes in NODE_ANCHORS[1:]]
    assert Strength(FULL_STRENGTH_ELO).node_budget is None
    assert Strength(2850).limits(None, None, 1) == (None, None, 1)
    assert Strength(400).elo == 500 and Strength(4000).elo == 2850


def test_a_weak_setting_sometimes_plays_a_lesser_line(games):
    position = games["chess"].position(MIDDLEGAME)
    lines = think(position, depth=3, multipv=4).lines
    weak, strong = Strength(600, seed=1), Strength(1700, seed=1)
    weak_choices = {str(weak.choose(lines).pv[0]) for _ in range(60)}
    assert len(weak_choices) > 1
    full = Strength(FULL_STRENGTH_ELO, seed=1)
    assert {str(full.choose(lines).pv[0]) for _ in range(20)} == {str(lines[0].pv[0])}
    assert strong.noise < weak.noise


def test_a_weak_setting_never_plays_a_line_further_below_the_best_than_its_noise():
    # Lines as a search reports them, best first; only their scores matter.  A Gaussian
    # noise as wide as the bound would pick the third line in some of these tries.
    weak = Strength(600, seed=3)
    lines = [SimpleNamespace(score=score) for score in (0, -50, -2 * int(weak.noise), -900)]
    chosen = {weak.choose(lines).score for _ in range(2000)}
    assert chosen == {0, -50}


@pytest.mark.quiet
def test_limit_strength_through_python_chess(uci):
    uci.configure({"UCI_LimitStrength": True, "UCI_Elo": 800})
    board = chess.Board()
    result = uci.play(board, chess.engine.Limit(time=2.0), info=chess.engine.INFO_ALL)
    assert result.move in board.legal_moves
    assert result.info["nodes"] <= 4 * Strength(800).node_budget


def test_an_elo_above_full_strength_is_explained(raw):
    lines = raw.ask("setoption name UCI_Elo value 2500")
    assert lines == [f"info string UCI_Elo 2500 is above the engine's full strength (about "
                     f"{FULL_STRENGTH_ELO}): with UCI_LimitStrength it plays at full strength"]
    assert raw.ask("setoption name UCI_Elo value 200") == [
        "info string error: UCI_Elo 200 is out of range: from 500 to 2850"]


@pytest.mark.slow
def test_a_lower_elo_loses_to_a_higher_one(tmp_path, games):
    games["chess"]
    out = tmp_path / "match.json"
    ours = f"{shlex.quote(sys.executable)} -m fairyforge.cli uci"
    run = subprocess.run(
        [sys.executable, MATCH, "--engine", ours, "--opponent", ours,
         "--engine-option", "UCI_LimitStrength=true", "--engine-option", "UCI_Elo=800",
         "--opponent-option", "UCI_LimitStrength=true", "--opponent-option", "UCI_Elo=1600",
         "--movetime", "100", "--games", "6", "--concurrency", "2", "--max-plies", "200",
         "--seed", "5", "--json", str(out)],
        capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stderr
    summary = json.loads(out.read_text())["summary"]
    points = summary["wins"] + summary["draws"] / 2
    assert points < summary["games"] * 0.3, summary
