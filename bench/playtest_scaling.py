"""How fast playtests run: games per second on one core, on all local cores, and on a
Dask cluster of 1, 2, ... worker processes on this machine.

    python bench/playtest_scaling.py                       # chess, depth 2, 60 games
    python bench/playtest_scaling.py --game frontofhouse --games 100 --workers 1,2,4
    python bench/playtest_scaling.py --json

Every configuration plays the same games (same seed, so the same openings and, at a
fixed depth, the same moves) into its own temporary database.  The time is the wall
time of `playtest.run`, which includes starting the local worker processes or
connecting to the cluster, but not starting the cluster itself (shown apart).  The
engine is built once, before any timing, into the cache in use.
"""

import argparse
import json
import os
import sys
import tempfile
import time

from fairyforge import playtest


def timed_run(game, games, depth, max_plies, **where):
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        outcome = playtest.run([game], games=games, depth=depth, max_plies=max_plies,
                               db=os.path.join(folder, "games.sqlite"), **where)
        seconds = time.perf_counter() - started
    assert outcome.stored == games, outcome
    return seconds


def cluster_rows(args, workers):
    from distributed import Client, LocalCluster
    rows = []
    for n in workers:
        started = time.perf_counter()
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster):
            startup = time.perf_counter() - started
            seconds = timed_run(args.game, args.games, args.depth, args.max_plies,
                                cluster=cluster.scheduler_address)
        rows.append({"backend": f"dask LocalCluster, {n} worker{'s' * (n > 1)}",
                     "workers": n, "seconds": seconds, "startup_seconds": startup})
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="chess")
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--max-plies", type=int, default=120)
    p.add_argument("--workers", default="1,2,3,4", help="cluster sizes to time")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    playtest.RuleSet.load(args.game)
    from fairyforge.playtest.ruleset import game_for
    game_for(playtest.RuleSet.load(args.game))                 # build before timing
    cores = os.cpu_count() or 1
    rows = []
    for n in sorted({1, cores}):
        print(f"local, {n} process(es) ...", file=sys.stderr)
        rows.append({"backend": f"local, {n} process{'es' * (n > 1)}", "workers": n,
                     "seconds": timed_run(args.game, args.games, args.depth, args.max_plies,
                                          processes=n), "startup_seconds": 0.0})
    print("dask clusters ...", file=sys.stderr)
    rows += cluster_rows(args, [int(w) for w in args.workers.split(",")])
    for row in rows:
        row["games_per_second"] = args.games / row["seconds"]
        row["cpu_seconds_per_game"] = row["seconds"] * min(row["workers"], cores) / args.games
    if args.json:
        print(json.dumps({"game": args.game, "games": args.games, "depth": args.depth,
                          "max_plies": args.max_plies, "cores": cores, "rows": rows}, indent=2))
        return
    print(f"{args.games} games of {args.game}, depth {args.depth}, at most {args.max_plies} "
          f"plies, {cores} cores")
    print(f"{'backend':32} {'s':>8} {'games/s':>9} {'core-s/game':>12} {'cluster start s':>16}")
    for row in rows:
        print(f"{row['backend']:32} {row['seconds']:8.2f} {row['games_per_second']:9.2f} "
              f"{row['cpu_seconds_per_game']:12.3f} {row['startup_seconds']:16.2f}")


if __name__ == "__main__":
    main()
