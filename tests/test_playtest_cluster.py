"""`fairyforge playtest --cluster`: a real Dask cluster of worker processes on this
machine, one of which is killed in the middle of the run."""

import json
import os
import signal
import sqlite3
import subprocess
import sys

import pytest

from test_playtest import count_games, wait_for_games

distributed = pytest.importorskip("distributed")

GAMES = 18


@pytest.fixture()
def cluster():
    # Three single-threaded worker processes, each under a nanny that restarts it.
    with distributed.LocalCluster(n_workers=3, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        with distributed.Client(local) as client:
            yield local.scheduler_address, client


def test_a_killed_worker_loses_no_game(cluster, tmp_path, games):
    games["chess"]                      # built here, so that the workers find it cached
    address, client = cluster
    out = tmp_path / "pt"
    db = str(out / "games.sqlite")
    proc = subprocess.Popen(
        [sys.executable, "-m", "fairyforge.cli", "playtest", "chess", "--games", str(GAMES),
         "--movetime", "0.02", "--max-plies", "30", "--cluster", address, "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_games(db, 3, lambda: proc.poll() is None)
        workers = client.run(os.getpid)              # {address: pid}
        victim = sorted(workers.values())[0]
        os.kill(victim, signal.SIGKILL)              # in the middle of a game
        stored_at_kill = count_games(db)
        stdout, stderr = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr
    assert stored_at_kill < GAMES
    with sqlite3.connect(db) as handle:
        rows = handle.execute("SELECT pair, worker, winner FROM games").fetchall()
        backend = handle.execute("SELECT backend FROM sessions").fetchone()[0]
    assert sorted(pair for pair, _, _ in rows) == list(range(GAMES))      # all, once each
    assert backend.startswith(f"dask {address}, 3 workers")
    report = json.load(open(out / "report.json"))["results"]["chess"]
    winners = [w for _, _, w in rows]
    assert report["games"] == GAMES
    assert (report["white_wins"], report["black_wins"], report["draws"]) == (
        winners.count("white"), winners.count("black"), winners.count(None))
    assert f"| games | {GAMES} |" in stdout
