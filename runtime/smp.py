"""Lazy SMP: helper threads searching beside the main search.

Each helper has its own engine (Engine.clone(): the same position and history, its own
killers and history tables) and shares the main engine's transposition table, whose
entries are written lock-free and verified on reading (compiler/core/search.pxi).  A
helper deepens on its own, half of them one ply ahead of the others, so that they fill
the table with entries the main search then finds.  Only the main search reports; the
helpers' nodes count in its totals.

Safety: each engine is used by one thread only (the engines refuse concurrent use), the
compiled module has no other mutable state, and the search releases the GIL, so the
threads really run in parallel.
"""

import threading

MAX_HELPER_DEPTH = 64
STOP_POLL = 0.01


class Helpers:
    def __init__(self, engine, count, codes):
        self.engines = [engine.clone() for _ in range(max(count, 0))]
        self.codes = codes
        self.counts = [0] * len(self.engines)
        self.done = False
        self.threads = [threading.Thread(target=self._search, args=(i,), daemon=True,
                                         name=f"search helper {i + 1}")
                        for i in range(len(self.engines))]

    @property
    def nodes(self):
        return sum(self.counts)

    def start(self):
        for thread in self.threads:
            thread.start()

    def _search(self, index):
        engine = self.engines[index]
        depth = 1 + index % 2
        while not self.done and depth < MAX_HELPER_DEPTH:
            used = engine.search_depth(depth, moves=self.codes)[2]
            self.counts[index] += used
            depth += 1

    def stop(self):
        """Stop every helper and wait for it (a stop request that comes just before a
        helper starts its next depth is cleared by it: so asked again until it ends)."""
        self.done = True
        for engine, thread in zip(self.engines, self.threads):
            while thread.is_alive():
                engine.stop()
                thread.join(STOP_POLL)
