"""Lines in and out of an engine protocol session.

Input is read in bounded pieces, so a 50 MB line costs a bounded amount of memory and
is answered with one short error; bytes that are not UTF-8 are replaced, never fatal.
Output goes through one lock, so the search thread's `info` lines and the command
loop's answers never interleave within a line, and a reader that went away (a closed
pipe) quietly ends the output instead of raising in whichever thread wrote last.
"""

import threading
from dataclasses import dataclass

MAX_LINE = 1 << 20          # input lines longer than this (1 MiB) are refused whole
ECHO_LIMIT = 80             # how much of a user's input an error line repeats
PATH_LIMIT = 240            # how much of a file's path a line names (deep folders are common)
NOTE_LIMIT = 400            # the longest diagnostic line written


def clip(text, limit=ECHO_LIMIT):
    """`text` on one line, cut to `limit` characters with a count of what was cut."""
    text = " ".join(str(text).split("\n"))
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


@dataclass
class TooLong:
    """An input line over MAX_LINE: its length and its start, for the error message."""

    length: int
    head: str


class LineReader:
    """Reads lines from a binary or text stream; None at the end of input."""

    def __init__(self, stream):
        self.stream = getattr(stream, "buffer", stream)

    def readline(self):
        chunk = self.stream.readline(MAX_LINE + 1)
        if not chunk:
            return None
        text = self._decode(chunk)
        if len(chunk) <= MAX_LINE or text.endswith("\n"):
            return text.rstrip("\r\n")
        length = len(chunk)
        while chunk and not self._decode(chunk).endswith("\n"):
            chunk = self.stream.readline(MAX_LINE + 1)   # skip the rest of the line
            length += len(chunk)
        return TooLong(length, text[:ECHO_LIMIT])

    @staticmethod
    def _decode(chunk):
        if isinstance(chunk, bytes):
            return chunk.decode("utf-8", errors="replace")
        return chunk


class Output:
    """The protocol's output stream: whole lines, one writer at a time."""

    def __init__(self, stream):
        self.stream = stream
        self.lock = threading.Lock()
        self.closed = False

    def send(self, line):
        with self.lock:
            if self.closed:
                return
            try:
                self.stream.write(line + "\n")
                self.stream.flush()
            except (OSError, ValueError):      # the reader went away: stop writing
                self.closed = True

    def close(self):
        with self.lock:
            self.closed = True
