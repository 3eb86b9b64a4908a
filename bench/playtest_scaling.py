"""How fast playtests run: games per second on one core, on all local cores, and on a
Dask cluster of 1, 2, ... worker processes on this machine.

    python bench/playtest_scaling.py                       # chess, depth 2, 60 games
    python bench/playtest_scaling.py --game frontofhouse --games 100 --workers 1,2,4
    python bench/playtest_scaling.py --json

Every configuration plays the same games (same seed, so the same openings and, at a
fixed depth, the same moves) into its own temporary database, `--repeat` times; the
best wall time counts.  The wall time is that of `playtest.run`, which includes
starting the local worker processes or connecting to the cluster, but not starting the
cluster itself (shown apart).  CPU seconds per game add up every process involved:
the coordinator (with a LocalCluster's scheduler, which runs in it), the local worker
processes, or the Dask worker processes; unlike wall time, they hardly depend on what
else the machine is doing, so they show the overhead that each extra worker costs.
The engine is built once, before any timing, into the cache in use.
"""

import argparse
import json
import os
import resource
import sys
import tempfile
import time

from fairyforge import playtest


def own_cpu(who=resource.RUSAGE_SELF):
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def timed_run(game, games, depth, max_plies, worker_cpu=lambda: 0.0, **where):
    """(wall seconds, CPU seconds of every process involved) of one run."""
    with tempfile.TemporaryDirectory() as folder:
        cpu = own_cpu() + own_cpu(resource.RUSAGE_CHILDREN) + worker_cpu()
        started = time.perf_counter()
        outcome = playtest.run([game], games=games, depth=depth, max_plies=max_plies,
                               db=os.path.join(folder, "games.sqlite"), **where)
        seconds = time.perf_counter() - started
        cpu = own_cpu() + own_cpu(resource.RUSAGE_CHILDREN) + worker_cpu() - cpu
    assert outcome.stored == games, outcome
    return seconds, cpu


def best(args, repeat, **where):
    runs = [timed_run(args.game, args.games, args.depth, args.max_plies, **where)
            for _ in range(repeat)]
    return min(runs)


def cluster_rows(args, workers):
    from distributed import Client, LocalCluster
    rows = []
    for n in workers:
        print(f"dask LocalCluster, {n} worker(s) ...", file=sys.stderr)
        started = time.perf_counter()
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            startup = time.perf_counter() - started
            worker_cpu = lambda: sum(client.run(time.process_time).values())  # noqa: E731
            seconds, cpu = best(args, args.repeat, cluster=cluster.scheduler_address,
                                worker_cpu=worker_cpu)
        rows.append({"backend": f"dask LocalCluster, {n} worker{'s' * (n > 1)}",
                     "workers": n, "seconds": seconds, "cpu_seconds": cpu,
                     "startup_seconds": startup})
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="chess")
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--max-plies", type=int, default=120)
    p.add_argument("--workers", default="1,2,3,4", help="cluster sizes to time")
    p.add_argument("--repeat", type=int, default=3, help="runs per configuration (best counts)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    playtest.RuleSet.load(args.game)
    from fairyforge.playtest.ruleset import game_for
    game_for(playtest.RuleSet.load(args.game))                 # build before timing
    cores = os.cpu_count() or 1
    rows = []
    for n in sorted({1, cores}):
        print(f"local, {n} process(es) ...", file=sys.stderr)
        seconds, cpu = best(args, args.repeat, processes=n)
        rows.append({"backend": f"local, {n} process{'es' * (n > 1)}", "workers": n,
                     "seconds": seconds, "cpu_seconds": cpu, "startup_seconds": 0.0})
    rows += cluster_rows(args, [int(w) for w in args.workers.split(",")])
    load = os.getloadavg()[0]
    for row in rows:
        row["games_per_second"] = args.games / row["seconds"]
        row["cpu_seconds_per_game"] = row["cpu_seconds"] / args.games
    if args.json:
        print(json.dumps({"game": args.game, "games": args.games, "depth": args.depth,
                          "max_plies": args.max_plies, "cores": cores, "load": load,
                          "rows": rows}, indent=2))
        return
    print(f"{args.games} games of {args.game}, depth {args.depth}, at most {args.max_plies} "
          f"plies, {cores} cores, best of {args.repeat}, load average {load:.1f} at the end")
    print(f"{'backend':32} {'wall s':>8} {'games/s':>9} {'CPU s/game':>11} {'cluster start s':>16}")
    for row in rows:
        print(f"{row['backend']:32} {row['seconds']:8.2f} {row['games_per_second']:9.2f} "
              f"{row['cpu_seconds_per_game']:11.3f} {row['startup_seconds']:16.2f}")


if __name__ == "__main__":
    main()
