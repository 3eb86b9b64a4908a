"""The progress bar of a playtest (tqdm, on standard error).

It shows games done out of the total, games per second, the time left and the current
estimate with its interval.  tqdm turns itself off when standard error is not a
terminal, so piped or redirected output gets nothing extra.
"""

import sys

from tqdm import tqdm


class Progress:
    def __init__(self, total, done=0, enabled=None):
        # enabled=None: only on a terminal (tqdm's own test).
        self.bar = tqdm(total=total, initial=done, unit="game", file=sys.stderr,
                        disable=None if enabled is None else not enabled,
                        dynamic_ncols=True, smoothing=0.05, leave=True)

    def update(self, status=""):
        if status:
            self.bar.set_postfix_str(status, refresh=False)
        self.bar.update(1)

    def write(self, message):
        """A line above the bar (or plainly, without one)."""
        self.bar.write(message, file=sys.stderr)

    def close(self):
        self.bar.close()
