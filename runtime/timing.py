"""How long one search may take: a soft and a hard limit.

The soft limit is checked between the depths of iterative deepening: no new depth is
started once the time spent is past it.  The hard limit is checked inside the search
(the engine's deadline): the depth in progress is stopped there, and kept only where
a move it searched to the end beat the last completed depth's choice.  A
budget may start held (`go ponder`): no limit until ponderhit() starts the clock.

The limits of a clock (`go wtime ... movestogo`) come from clock_budget().
"""

import threading
import time

DEFAULT_MOVES_TO_GO = 30      # a sudden-death clock is shared as if this many moves remain
SOFT_SHARE_MAX = 0.5          # the soft limit never exceeds this share of the clock
HARD_SHARE_MAX = 0.5          # nor the hard limit this share
HARD_OVER_SOFT = 2.0          # the hard limit is this many soft limits
INCREMENT_USED = 0.75         # the share of the increment spent on each move ...
INCREMENT_RESERVE = 10        # ... with this many increments on the clock; less below
KEPT_INCREMENTS = 5           # a clock with an increment keeps this many (or half) unspent
NEXT_DEPTH_FACTOR = 0.55      # a new depth starts only before this share of the soft limit
MIN_SECONDS = 0.005


def clock_budget(clock, increment, moves_to_go, overhead):
    """(soft, hard) seconds for a move with `clock` seconds left, `increment` seconds
    gained per move, `moves_to_go` moves to the next time control (None: sudden death)
    and `overhead` seconds lost per move outside the search (the GUI, the pipes)."""
    # Spending the whole increment on a short clock leaves no reserve against a slow
    # move (a loaded machine, a slow GUI): a few increments are kept off the clock, and
    # the shorter what is left, the less of the increment is spent, so that the clock
    # settles several increments above zero.
    kept = min(KEPT_INCREMENTS * increment, clock * 0.5) if moves_to_go != 1 else 0.0
    available = max(clock - overhead - kept, 0.0)
    share = available / (moves_to_go or DEFAULT_MOVES_TO_GO)
    if increment > 0:
        share += increment * INCREMENT_USED * min(available / (INCREMENT_RESERVE * increment), 1)
    soft = available * SOFT_SHARE_MAX if moves_to_go == 1 else \
        min(share, available * SOFT_SHARE_MAX)
    hard = min(soft * HARD_OVER_SOFT, available * HARD_SHARE_MAX)
    soft = max(soft, MIN_SECONDS)
    return soft, max(hard, soft)


class Budget:
    """The time limits of one search (seconds; None: no limit of that kind)."""

    def __init__(self, soft=None, hard=None, held=False, next_depth=NEXT_DEPTH_FACTOR):
        self.soft = soft
        self.hard = hard
        self.next_depth = next_depth  # a new depth starts only before this share of soft
        self.held = held             # pondering: the limits start at ponderhit()
        self.started = time.monotonic()
        self.lock = threading.Lock()
        self.engine = None           # the engine searching, while it searches
        self.timer = None

    @classmethod
    def fixed(cls, seconds):
        """`go movetime`: the whole time is spent.  A depth cut short by the limit is
        not wasted (its move is kept where it beat the last depth's), and no time is
        saved for later moves, so new depths start until the time is up."""
        return cls(seconds, seconds, next_depth=1.0)

    @property
    def timed(self):
        return self.soft is not None or self.hard is not None

    def attach(self, engine):
        """The search starts on `engine`: its start time (for the reports)."""
        with self.lock:
            self.engine = engine
            if not self.held:
                self.started = time.monotonic()
            return time.monotonic()

    def detach(self):
        with self.lock:
            self.engine = None
            if self.timer is not None:
                self.timer.cancel()

    def ponderhit(self):
        """The move pondered on was played: the limits run from now."""
        with self.lock:
            if not self.held:
                return
            self.held = False
            self.started = time.monotonic()
            self._arm()

    def _arm(self):
        """Stop the depth in progress at the hard limit: a depth started while pondering
        has no deadline in the engine (the depths started later get one)."""
        if self.hard is not None and self.engine is not None:
            self.timer = threading.Timer(self.hard, self.engine.stop)
            self.timer.daemon = True
            self.timer.start()

    def elapsed(self):
        return time.monotonic() - self.started

    def may_deepen(self):
        """May another depth start?"""
        if self.held or self.soft is None:
            return True
        return self.elapsed() < self.soft * self.next_depth

    def hard_left(self):
        """Seconds to the hard limit for the engine's deadline (0: none)."""
        if self.held or self.hard is None:
            return 0.0
        return max(self.hard - self.elapsed(), 1e-3)
