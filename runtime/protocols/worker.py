"""One `go`: the search in its own thread, so the command loop keeps reading.

The thread runs think() on the position the `go` was given and reports through
callbacks: `on_info(info)` after each depth, then `on_done(result)` exactly once.  An
infinite or ponder search holds its result until release() (`stop`, `ponderhit`), as
UCI requires, even when it ends early (a mate found, the deepest depth reached).
Nothing that goes wrong inside the search escapes the thread: it is reported as a note
and the search still ends with a move.
"""

import threading
import time

from ..search import Result, think

STOP_POLL = 0.01         # seconds between stop requests while waiting for the search
STOP_GRACE = 5.0         # the longest a stop waits for the search to notice


class SearchJob:
    def __init__(self, position, limits, held, on_info, on_done, on_note, moves=None):
        self.position = position
        self.limits = limits
        self.held = held
        self.on_info = on_info
        self.on_done = on_done
        self.on_note = on_note
        self.moves = moves
        self.stopping = False
        self.released = threading.Event()
        self.thread = threading.Thread(target=self._run, name="search", daemon=True)

    def start(self):
        self.thread.start()
        return self

    @property
    def running(self):
        return self.thread.is_alive()

    def release(self):
        """Let a held search send its result (it keeps searching if not yet done)."""
        self.released.set()

    def ponderhit(self):
        """The pondered move was played: the search's time limits start now, and its
        result is sent when they end (or at once if the search is done)."""
        budget = self.limits.get("budget")
        if budget is not None:
            budget.ponderhit()
        self.release()

    def stop(self):
        """Stop the search and wait until its result has been reported."""
        self.stopping = True
        self.released.set()
        deadline = time.monotonic() + STOP_GRACE
        while self.thread.is_alive() and time.monotonic() < deadline:
            # Asked again and again: a depth that starts just after one request
            # clears the engine's stop flag.
            self.position.engine.stop()
            self.thread.join(STOP_POLL)

    def _run(self):
        result = None
        try:
            result = think(self.position, on_info=self.on_info,
                           stop_flag=lambda: self.stopping, moves=self.moves, **self.limits)
        except Exception as err:         # the search failed: say so, still answer a move
            self.on_note(f"error: the search failed ({type(err).__name__}: {err})")
            result = self._fallback()
        if self.held:
            self.released.wait()
        self.on_done(result)

    def _fallback(self):
        try:
            legal = self.position.legal_moves()
        except Exception:
            legal = []
        return Result(legal[0] if legal else None, None)
