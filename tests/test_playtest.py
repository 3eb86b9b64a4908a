"""`fairyforge playtest`: the database, the report, resuming, pairing and the CLI.

Games are tiny (depth 1, a few dozen plies) so that the whole file costs seconds.
The Dask cluster test is in test_playtest_cluster.py, the statistics in
test_playtest_stats.py.
"""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import chess.pgn
import pytest

from fairyforge import playtest
from fairyforge.cli import main
from fairyforge.playtest import store as store_module

CLI = [sys.executable, "-m", "fairyforge.cli", "playtest"]


def _rows(db, sql, *args):
    with sqlite3.connect(db) as handle:
        return handle.execute(sql, args).fetchall()


def count_games(db):
    """Games stored so far; 0 while the database or its tables do not exist yet."""
    if not os.path.exists(db):
        return 0
    try:
        return _rows(db, "SELECT COUNT(*) FROM games")[0][0]
    except sqlite3.OperationalError:
        return 0


@pytest.fixture(scope="module")
def chess_run(tmp_path_factory):
    """One small local run, shared by the tests that only read it."""
    folder = tmp_path_factory.mktemp("playtest")
    db = str(folder / "games.sqlite")
    outcome = playtest.run(["chess"], games=6, depth=1, max_plies=40, db=db, processes=2)
    return outcome, db, folder


def test_every_game_is_stored_with_what_it_needs(chess_run, games):
    outcome, db, _ = chess_run
    assert outcome.end == "complete" and outcome.played == outcome.stored == 6
    rows = _rows(db, "SELECT pair, opening, moves, plies, result, winner, reason, model_hash "
                     "FROM games ORDER BY pair")
    assert [r[0] for r in rows] == list(range(6))
    model_hash = playtest.RuleSet.load("chess").model_hash
    for pair, opening, moves, plies, result, winner, reason, stored_hash in rows:
        moves = moves.split()
        assert 2 <= len(opening.split()) <= 4 and moves[:len(opening.split())] == opening.split()
        assert len(moves) == plies <= 40 and stored_hash == model_hash
        assert result == {"white": "1-0", "black": "0-1", None: "1/2-1/2"}[winner]
        position = games["chess"].start()            # the moves replay, and end as stored
        for move in moves:
            position.push_uci(move)
        ended = position.outcome()
        assert (ended.reason if ended else "move limit") == reason
    run = _rows(db, "SELECT games, depth, movetime, max_plies, hash_mb, status FROM runs")[0]
    assert run == (6, 1, None, 40, 4, "complete")
    assert _rows(db, "PRAGMA user_version")[0][0] == store_module.SCHEMA_VERSION


def test_report_is_computed_from_the_database(chess_run):
    _, db, folder = chess_run
    md, js, images = playtest.write_report(db, str(folder / "report"))
    report = json.load(open(js))
    s = report["results"]["chess"]
    winners = [w for (w,) in _rows(db, "SELECT winner FROM games")]
    assert s["games"] == 6 and s["white_wins"] == winners.count("white")
    assert s["draws"] == winners.count(None)
    for key in ("white_win_rate", "black_win_rate", "draw_rate"):
        lo, hi = s[key]["ci95"]
        assert 0 <= lo <= s[key]["value"] <= hi <= 1
    text = open(md).read()
    assert "first player (White) wins" in text and "branching factor, opening" in text
    assert sorted(os.path.basename(p) for p in images) == ["convergence.png", "lengths.png",
                                                           "results.png"]


def test_pgn_export_replays_in_python_chess(chess_run, tmp_path):
    _, db, _ = chess_run
    path = tmp_path / "games.pgn"
    assert playtest.export_pgn(db, str(path)) == 6
    stored = {m: r for m, r in _rows(db, "SELECT moves, result FROM games")}
    with open(path) as handle:
        for _ in range(6):
            game = chess.pgn.read_game(handle)
            assert not game.errors and game.headers["Variant"] == "chess"
            moves = " ".join(m.uci() for m in game.mainline_moves())
            assert stored[moves] == game.headers["Result"]
        assert chess.pgn.read_game(handle) is None


def test_against_pairs_openings_and_compares(tmp_path):
    db = str(tmp_path / "games.sqlite")
    outcome = playtest.run(["chess", "crazyhouse"], games=4, depth=1, max_plies=30, db=db,
                           processes=2, sprt=playtest.Sprt())
    assert outcome.stored == 8
    openings = dict(_rows(db, "SELECT pair, opening FROM games WHERE slot = 0"))
    assert openings == dict(_rows(db, "SELECT pair, opening FROM games WHERE slot = 1"))
    md, js, _ = playtest.write_report(db, str(tmp_path))
    c = json.load(open(js))["comparison"]
    assert c["pairs"] == 4 and not c["same_model"]
    assert not c["all_identical"]          # drops change crazyhouse games at once
    assert "crazyhouse against chess" in open(md).read()


def test_a_rule_that_never_comes_into_play_is_flagged(tmp_path):
    child = tmp_path / "chess75.variant"
    child.write_text('variant chess75 "Chess, 75-move rule" extends chess\nmove rule 75\n')
    db = str(tmp_path / "games.sqlite")
    playtest.run(["chess", str(child)], games=3, depth=1, max_plies=30, db=db, processes=2)
    md, js, _ = playtest.write_report(db, str(tmp_path))
    c = json.load(open(js))["comparison"]
    assert c["all_identical"] and not c["same_model"] and c["identical_pairs"]["count"] == 3
    assert "all 3 paired games were move-for-move identical" in open(md).read()


def test_a_comparison_never_weighs_a_learned_evaluation_against_a_derived_one(tmp_path):
    """chess ships learned parameters, a variant extending it has none: both then play
    with the evaluation derived from their rules, else the evaluation would be compared
    along with the rules."""
    from fairyforge.playtest.runner import load_rulesets
    child = tmp_path / "chess75.variant"
    child.write_text('variant chess75 "Chess, 75-move rule" extends chess\nmove rule 75\n')
    said = []
    mixed = load_rulesets(["chess", str(child)], log=said.append)
    assert [r.evaluation for r in mixed] == ["derived", "derived"]
    assert any("only chess has learned parameters" in line for line in said)
    assert [r.evaluation for r in load_rulesets(["chess", "chess"])] == ["auto", "auto"]


def test_sprt_stops_a_comparison_when_the_answer_is_clear(tmp_path):
    # The same rules twice: every pair is identical, and "no change" is clear after
    # a few dozen pairs, long before the 400 asked for.
    db = str(tmp_path / "games.sqlite")
    outcome = playtest.run(["chess", "chess"], games=400, depth=1, max_plies=12, db=db,
                           processes=2, sprt=playtest.Sprt(elo1=20))
    assert outcome.end.startswith("stopped: no change of 20 Elo")
    assert outcome.stored < 200
    assert _rows(db, "SELECT status FROM runs")[0][0] == outcome.end
    again = playtest.run(["chess", "chess"], games=400, depth=1, max_plies=12, db=db,
                         processes=2, sprt=playtest.Sprt(elo1=20), resume=True)
    assert again.played == 0 and again.end == outcome.end       # a stopped run stays stopped


def wait_for_games(db, count, alive, limit=120):
    """Wait until `count` games are stored, while alive() holds."""
    deadline = time.monotonic() + limit
    while count_games(db) < count:
        assert alive(), "the playtest ended before it could be interrupted"
        assert time.monotonic() < deadline, "no games appeared"
        time.sleep(0.05)


def test_sigint_then_resume_plays_exactly_the_missing_games(tmp_path):
    out, total = str(tmp_path / "pt"), 12
    args = CLI + ["chess", "--games", str(total), "--movetime", "0.02", "--max-plies", "30",
                  "--processes", "2", "--out", out]
    db = os.path.join(out, "games.sqlite")
    # Its own process group, as a shell gives a job: Ctrl-C reaches the workers too.
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        wait_for_games(db, 2, lambda: proc.poll() is None)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "--resume" in err
    first = _rows(db, "SELECT pair, moves FROM games")
    assert 2 <= len(first) < total
    done = subprocess.run(args + ["--resume"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = _rows(db, "SELECT slot, pair, session FROM games")
    assert sorted(pair for _, pair, _ in rows) == list(range(total))        # none twice
    assert sum(session == 1 for *_, session in rows) == len(first)
    assert sum(session == 2 for *_, session in rows) == total - len(first)
    assert set(_rows(db, "SELECT pair, moves FROM games WHERE session = 1")) == set(first)
    assert _rows(db, "SELECT session, end_reason FROM sessions") == [(1, "interrupted"),
                                                                      (2, "complete")]
    assert "| games | 12 |" in done.stdout


def test_piped_output_has_no_progress_bar(chess_run, tmp_path):
    proc = subprocess.run(CLI + ["chess", "--games", "2", "--depth", "1", "--max-plies", "10",
                                 "--out", str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 0
    assert "\r" not in proc.stderr and "game/s" not in proc.stderr
    assert proc.stderr.count("\n") == 2                 # the settings line and the summary


def test_progress_bar_on_a_terminal_shows_rate_and_estimate(capsys):
    from fairyforge.playtest.progress import Progress
    bar = Progress(total=4, done=1, enabled=True)
    bar.update("first player 0.500 (0.1-0.9)")
    bar.close()
    err = capsys.readouterr().err
    assert "2/4" in err and "game/s" in err and "first player 0.500" in err


@pytest.mark.parametrize("args,message", [
    (["chess", "--depth", "0"], "--depth: must be 1 or more, not 0"),
    (["chess", "--games", "-1"], "--games: must be 1 or more, not -1"),
    (["chess", "--games", "0"], "--games: must be 1 or more, not 0"),
    (["chess", "--movetime", "0"], "--movetime: must be more than 0 seconds"),
    (["chess", "--movetime", "fast"], "'fast' is not a number of seconds"),
    (["chess", "--depth", "2", "--movetime", "1"], "not allowed with argument --depth"),
    (["chess", "--processes", "2", "--cluster", "tcp://127.0.0.1:1"], "not allowed with"),
    (["chess", "--against", "chess", "--sprt-alpha", "1.5"], "must be between 0 and 1"),
])
def test_bad_arguments_are_refused(args, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["playtest"] + args)
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_an_unknown_game_fails_before_any_announcement(tmp_path, capsys):
    assert main(["playtest", "nosuch", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "no bundled game or definition file named 'nosuch'" in err
    assert "self-play" not in err and not (tmp_path / "x").exists()


def test_movetime_is_seconds_with_fractions(tmp_path, capsys):
    out = str(tmp_path / "pt")
    assert main(["playtest", "chess", "--games", "1", "--movetime", "0.01", "--max-plies", "6",
                 "--out", out]) == 0
    assert "0.01 s per move" in capsys.readouterr().err
    assert _rows(os.path.join(out, "games.sqlite"), "SELECT depth, movetime FROM runs") == [(None, 0.01)]


def test_resume_refuses_other_settings_and_other_rules(chess_run, tmp_path, capsys):
    _, db, _ = chess_run
    assert main(["playtest", "chess", "--games", "7", "--depth", "1", "--max-plies", "40",
                 "--db", db, "--resume", "--out", str(tmp_path)]) == 2
    assert "was started with --games 6, not 7" in capsys.readouterr().err
    assert main(["playtest", "crazyhouse", "--games", "6", "--depth", "1", "--max-plies", "40",
                 "--db", db, "--resume", "--out", str(tmp_path)]) == 2
    assert "these rules are not the same" in capsys.readouterr().err
    assert main(["playtest", "chess", "--resume", "--db", str(tmp_path / "new.sqlite"),
                 "--out", str(tmp_path)]) == 2
    assert "holds no playtest to resume" in capsys.readouterr().err


def test_a_file_that_is_not_a_playtest_database_is_refused(tmp_path, capsys):
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as handle:
        handle.execute("CREATE TABLE notes (text TEXT)")
    assert main(["playtest", "chess", "--db", str(other), "--out", str(tmp_path)]) == 2
    assert "is not a playtest database of schema version 1" in capsys.readouterr().err
    text = tmp_path / "text.sqlite"
    text.write_text("hello, not a database" * 100)
    assert main(["playtest", "chess", "--db", str(text), "--out", str(tmp_path)]) == 2
    assert "is not a usable playtest database" in capsys.readouterr().err


def test_an_unreachable_cluster_is_a_clear_error():
    pytest.importorskip("distributed")
    from fairyforge.playtest.backend import DaskBackend
    with pytest.raises(playtest.PlaytestError, match="cannot reach the Dask scheduler"):
        DaskBackend("tcp://127.0.0.1:9", wait_seconds=2)


def test_a_dead_local_worker_loses_no_game(tmp_path):
    """The out-of-memory killer takes a worker process: its game is played again."""
    import multiprocessing
    import threading
    db = str(tmp_path / "games.sqlite")
    before = set(multiprocessing.active_children())
    result = {}
    thread = threading.Thread(target=lambda: result.update(outcome=playtest.run(
        ["chess"], games=10, movetime=0.02, max_plies=30, db=db, processes=2)))
    thread.start()
    wait_for_games(db, 2, thread.is_alive)
    workers = set(multiprocessing.active_children()) - before
    os.kill(sorted(workers, key=lambda p: p.pid)[0].pid, signal.SIGKILL)
    thread.join(timeout=300)
    assert result["outcome"].end == "complete"
    assert sorted(p for (p,) in _rows(db, "SELECT pair FROM games")) == list(range(10))
    # A fresh pool took over: more worker processes played than the two first started.
    assert len(_rows(db, "SELECT DISTINCT worker FROM games")) >= 3
