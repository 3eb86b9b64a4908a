"""Engine protocols: UCI, USI, UCCI and XBoard (CECP), as Fairy-Stockfish speaks them.

`fairyforge uci` serves one session on standard input and output; the first command
(`uci`, `usi`, `ucci` or `xboard`) chooses the protocol.  The layers:

* streams.py: bounded line input, one locked output;
* loop.py: the command loop and the choice of protocol;
* session.py: variants, options, background builds, the position, the search;
* builds.py: engines built in a child process, cancellable, with progress;
* worker.py: one search in its own thread;
* limits.py, options.py, notation.py: `go` limits, options, each dialect's notation;
* uci.py, usi.py, ucci.py, xboard.py: the protocols' syntax.
"""

import sys


def main(stdin=None, stdout=None, protocol="uci"):
    """Serve a protocol session (standard input and output by default)."""
    from .loop import run
    return run(stdin or sys.stdin, stdout or sys.stdout, protocol)
