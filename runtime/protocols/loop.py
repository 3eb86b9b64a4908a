"""The command loop: one line at a time, for ever, whatever the line.

The loop reads a line, hands it to the protocol and reads the next; it never waits for
a search (which runs in its own thread) or for a build (which runs in a child process),
so `stop`, `isready` and `quit` are read at once.  The protocol is chosen the way
Fairy-Stockfish chooses it: by the command that opens the session (`uci`, `usi`, `ucci`,
`xboard`), UCI until one comes, and a later handshake switches again.  No input line
can end the loop but `quit` and the end of input: an error inside a command is reported
as a diagnostic line and the loop goes on.
"""

from .session import Session
from .streams import MAX_LINE, LineReader, Output, TooLong, clip


def protocols():
    from .ucci import Ucci
    from .uci import Uci
    from .usi import Usi
    from .xboard import XBoard
    return {"uci": Uci, "usi": Usi, "ucci": Ucci, "xboard": XBoard}


def run(stdin, stdout, protocol="uci", variants=None):
    """Serve one session on the given streams; returns the exit status (0)."""
    kinds = protocols()
    session = Session(Output(stdout), variants)
    session.protocol = kinds[protocol](session)
    reader = LineReader(stdin)
    try:
        while True:
            line = reader.readline()
            if line is None:
                break                               # end of input: as `quit`
            if isinstance(line, TooLong):
                session.note(f"error: a line of {line.length} bytes was ignored (the limit "
                             f"is {MAX_LINE}): '{line.head}...'")
                continue
            if not dispatch(session, line, kinds):
                break
    finally:
        session.close()
    return 0


def dispatch(session, line, kinds):
    """One command line; False once the session should end."""
    words = line.split()
    if not words:
        return True
    if words[0] in kinds and not isinstance(session.protocol, kinds[words[0]]):
        session.stop_search()
        session.protocol = kinds[words[0]](session)
    try:
        return session.protocol.handle(line, words)
    except Exception as err:          # a bug of ours: reported, and the session goes on
        session.note(f"error: internal error on '{clip(line)}': {type(err).__name__}: "
                     f"{clip(str(err), 200)}")
        return True
