"""Where games are played: local worker processes, or a Dask cluster.

Both backends offer one call, the API that `playtest` uses and that `fairyforge tune`
is meant to use for its self-play:

    with open_backend(cluster=None, processes=None) as pool:
        for job, result in pool.imap_unordered(func, jobs):
            ...                      # results arrive as they finish, in any order

`func` is a module-level function of one picklable argument (for playtests,
`selfplay.play_game` and a `selfplay.GameJob`).  Every job yields exactly one result:
a job whose worker dies is played again on another worker, and an exception raised by
`func` itself is raised here.  Leaving the `with` block (or closing the generator
early, as the stop rule does) cancels the jobs not yet finished and stops the work in
flight.

Dask distributed was chosen over Ray (docs/playtest.md says why): a cluster is a
`dask scheduler` and any number of `dask worker ADDRESS` processes, and
`distributed.LocalCluster` gives tests a real multi-process cluster in a second.
"""

import contextlib
import logging
import multiprocessing
import os
import signal
import uuid
from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from .ruleset import PlaytestError

# How often a job may lose its worker before the playtest gives up on it.
MAX_WORKER_LOSSES = 5


def open_backend(cluster=None, processes=None):
    """A Dask cluster at `cluster` (an address such as tcp://host:8786), else local
    processes (`processes`, default one per core)."""
    if cluster:
        return DaskBackend(cluster)
    return LocalBackend(processes or os.cpu_count() or 1)


def _ignore_sigint():
    # Ctrl-C goes to the whole process group: the coordinator handles it, and stops
    # the workers itself; a worker must not die half-way through a result.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalBackend:
    """Worker processes on this machine (concurrent.futures)."""

    def __init__(self, processes):
        if processes < 1:
            raise PlaytestError("--processes must be 1 or more")
        self.processes = processes
        self.description = f"local, {processes} process{'es' if processes > 1 else ''}"
        self.workers = processes
        self._executor = None
        self._children = set()

    def _start(self):
        before = set(multiprocessing.active_children())
        self._executor = ProcessPoolExecutor(self.processes, initializer=_ignore_sigint)
        return before

    def imap_unordered(self, func, jobs):
        jobs = list(jobs)
        left = set(range(len(jobs)))
        losses = 0
        while left:
            before = self._start()
            futures = {self._executor.submit(func, jobs[i]): i for i in sorted(left)}
            self._children = set(multiprocessing.active_children()) - before
            try:
                for future in self._as_completed(futures):
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        continue        # lost with a dead worker: played again below
                    left.discard(futures[future])
                    yield jobs[futures[future]], result
            finally:
                self._stop()
            if left:
                losses += 1
                if losses > MAX_WORKER_LOSSES:
                    raise PlaytestError("the local worker processes keep dying "
                                        f"({losses} times): is memory short?")

    @staticmethod
    def _as_completed(futures):
        waiting = set(futures)
        while waiting:
            done, waiting = wait(waiting, return_when=FIRST_COMPLETED)
            yield from done

    def _stop(self):
        if self._executor is None:
            return
        self._children |= set(multiprocessing.active_children()) - self._children
        self._executor.shutdown(wait=False, cancel_futures=True)
        for child in self._children:          # only the processes this pool started
            if child.is_alive():
                child.terminate()
        for child in self._children:
            child.join(timeout=5)
        self._executor, self._children = None, set()

    def close(self):
        self._stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class DaskBackend:
    """The workers of a Dask distributed cluster."""

    def __init__(self, address, wait_seconds=60):
        try:
            from distributed import Client
        except ImportError:
            raise PlaytestError("--cluster needs Dask distributed: "
                                "pip install 'fairyforge[cluster]'") from None
        try:
            self.client = Client(address, timeout=f"{wait_seconds}s")
        except (OSError, TimeoutError, ValueError) as err:
            raise PlaytestError(f"cannot reach the Dask scheduler at {address}: {err}") from None
        try:
            self.client.wait_for_workers(1, timeout=wait_seconds)
        except TimeoutError:
            self.client.close()
            raise PlaytestError(f"no worker joined the Dask scheduler at {address} in "
                                f"{wait_seconds} s: start some with `dask worker {address}`") from None
        self.address = address
        self._futures = {}
        self.description = f"dask {address}, {self.workers} workers at the start"

    @property
    def workers(self):
        """The workers connected now."""
        return len(self.client.scheduler_info(n_workers=-1)["workers"])

    def imap_unordered(self, func, jobs):
        from distributed import as_completed
        from distributed.scheduler import KilledWorker
        run = uuid.uuid4().hex[:8]
        jobs = list(jobs)
        futures = self.client.map(func, jobs, pure=False,
                                  key=[f"fairyforge-{run}-{i}" for i in range(len(jobs))])
        self._futures = dict(zip(futures, range(len(jobs))))
        stream = as_completed(futures)
        del futures          # only self._futures and the stream hold the unfinished ones
        losses = [0] * len(jobs)
        try:
            for future in stream:
                i = self._futures.pop(future)
                try:
                    result = future.result()
                except CancelledError:
                    raise PlaytestError(
                        f"the Dask cluster at {self.address} dropped the games (was the "
                        "scheduler restarted or lost?): the finished games are stored; "
                        "run again with --resume") from None
                except KilledWorker:
                    # The scheduler moves a job to another worker each time its worker
                    # dies, up to its own limit (distributed.scheduler.allowed-failures);
                    # past that we submit it afresh, up to ours.
                    losses[i] += 1
                    if losses[i] > MAX_WORKER_LOSSES:
                        raise PlaytestError("a game keeps killing its Dask workers") from None
                    retry = self.client.submit(func, jobs[i], pure=False,
                                               key=f"fairyforge-{run}-{i}-retry{losses[i]}")
                    self._futures[retry] = i
                    stream.add(retry)
                    continue
                # Let the cluster forget a result we hold: a worker lost later would
                # otherwise make the scheduler play the game again to restore it.
                future.release()
                yield jobs[i], result
        finally:
            self._cancel()

    def _cancel(self):
        if self._futures:
            with contextlib.suppress(OSError, TimeoutError, CancelledError):
                self.client.cancel(list(self._futures))     # a lost scheduler: nothing to do
            self._futures = {}

    def close(self):
        self._cancel()
        # Closing while the client tries to reach a lost scheduler makes Dask log the
        # cancelled reconnection as an error with a traceback: the user was told already.
        client_log = logging.getLogger("distributed.client")
        level = client_log.level
        client_log.setLevel(logging.CRITICAL)
        try:
            self.client.close()
        finally:
            client_log.setLevel(level)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
