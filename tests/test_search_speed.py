"""bench/search_speed.py: our numbers beside another UCI engine's on the same positions
(here our own engine again, over UCI, so that the test needs no Fairy-Stockfish)."""

import json
import os
import shlex
import subprocess
import sys

SPEED = os.path.join(os.path.dirname(os.path.dirname(__file__)), "bench", "search_speed.py")


def test_against_another_engine_reports_both(tmp_path):
    other = f"{shlex.quote(sys.executable)} -m fairyforge.cli uci"
    run = subprocess.run([sys.executable, SPEED, "--depth", "2", "--against", other, "--json"],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    rows = json.loads(run.stdout)
    assert {row["game"] for row in rows} == {"chess", "shogi", "xiangqi", "crazyhouse"}
    for row in rows:
        assert row["depth"] == 2 and row["nodes"] > 0
        # The same search over UCI: the same depth, nodes and move.
        assert row["other"]["depth"] == 2 and row["other"]["nodes"] == row["nodes"], row
        assert row["other"]["best"] == row["best"], row


def test_a_missing_engine_is_refused_clearly():
    run = subprocess.run([sys.executable, SPEED, "--against", "/nonexistent/engine"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "--against /nonexistent/engine: no such engine" in run.stderr
    assert "Traceback" not in run.stderr
