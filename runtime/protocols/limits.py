"""`go` and its limits: parsed, checked and turned into what think() takes.

Every number is checked: a word that is not a whole number is reported and skipped, a
value beyond what the engine can use (nodes of 2^64 and more, depths past the deepest
search) is reported and clamped, so a `go` always ends in a best move.
"""

from dataclasses import dataclass, field
from typing import Optional

from ..search import MAX_DEPTH
from ..timing import Budget, clock_budget
from .streams import clip

MAX_NODES = (1 << 64) - 1          # the engine counts nodes in 64 bits
MAX_MILLISECONDS = 10 ** 12        # about 30 years
DEFAULT_DEPTH = 6                  # a bare `go`

NUMBERS = ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo",
           "mate", "byoyomi", "time", "opptime", "increment", "oppincrement")
KEYWORDS = set(NUMBERS) | {"infinite", "ponder", "searchmoves"}


@dataclass
class Go:
    """The limits of one search, as the client gave them (times in milliseconds)."""

    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime: Optional[int] = None
    mate: Optional[int] = None
    clock: dict = field(default_factory=dict)     # wtime, btime, winc, binc (ms)
    movestogo: Optional[int] = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: list = field(default_factory=list)
    stop_early: bool = False      # `stop` came while the engine was still being built

    @property
    def held(self):
        """An infinite or ponder search keeps its best move until `stop`."""
        return self.infinite or self.ponder


def parse_go(words, note, first_player_is="w"):
    """A Go from the words after `go`; `note(text)` reports what is wrong.

    `first_player_is` is "b" in USI, where `btime` is the first player's clock.
    """
    go = Go()
    i = 0
    while i < len(words):
        word = words[i].lower()
        i += 1
        if word in ("infinite", "ponder"):
            setattr(go, word, True)
        elif word == "searchmoves":
            go.searchmoves, i = words[i:], len(words)
        elif word in NUMBERS:
            text = words[i] if i < len(words) else None
            value = _number(text, word, note)
            if value is not None or (text is not None and text.lower() not in KEYWORDS):
                i += 1                  # the number, or the word that should have been one
            if value is not None:
                _store(go, word, value, note, first_player_is)
        else:
            note(f"go: unknown word '{clip(word)}' ignored")
    return go


def _number(text, word, note):
    digits = text[1:] if text and text[:1] in "+-" else text
    if not digits or not digits.isdigit() or not digits.isascii():
        note(f"go: {word} needs a whole number" + (f", not '{clip(text)}'" if text else ""))
        return None
    if len(digits) > 40:
        return (-1 if text[0] == "-" else 1) * 10 ** 40
    return int(text)


def _store(go, word, value, note, first_player_is):
    if word == "depth":
        if value > MAX_DEPTH:
            note(f"go: depth {clip(str(value))} is beyond the deepest search ({MAX_DEPTH}): "
                 f"searching to depth {MAX_DEPTH}")
        go.depth = min(max(value, 1), MAX_DEPTH)
    elif word == "nodes":
        if value > MAX_NODES:
            note(f"go: nodes {clip(str(value))} is beyond the largest node limit (2^64-1): "
                 "searching without a node limit")
            return
        go.nodes = max(value, 1)
    elif word == "mate":
        go.mate = min(max(value, 1), MAX_DEPTH)
    elif word == "movestogo":
        go.movestogo = max(min(value, 10 ** 6), 1)
    elif word == "movetime":
        go.movetime = min(max(value, 1), MAX_MILLISECONDS)
    else:
        _store_clock(go, word, min(max(value, 0), MAX_MILLISECONDS), first_player_is)


def _store_clock(go, word, value, first_player_is):
    if word == "byoyomi":                  # USI: added to both clocks and increments
        for side in "wb":
            go.clock[side + "inc"] = value
            go.clock[side + "time"] = go.clock.get(side + "time", 0) + value
        return
    if word in ("time", "opptime", "increment", "oppincrement"):     # UCCI, in seconds
        go.clock["ucci_" + word] = value * 1000
        return
    side, kind = word[0], word[1:]
    if first_player_is == "b":             # USI's black (sente) is Fairyforge's white
        side = "w" if side == "b" else "b"
    go.clock[side + kind] = value


def think_limits(go, side, overhead_ms=0):
    """Keyword arguments for think() for the side to move ("white" or "black").
    `overhead_ms`: the time lost per move outside the search (UCI `Move Overhead`)."""
    limits = {}
    if go.depth is not None:
        limits["depth"] = go.depth
    if go.mate is not None:
        limits["depth"] = min(limits.get("depth", MAX_DEPTH), 2 * go.mate - 1)
    if go.nodes is not None:
        limits["nodes"] = go.nodes
    budget = _time_budget(go, side[0], overhead_ms / 1000)
    if budget is not None:
        limits["budget"] = budget
    if go.infinite or (go.ponder and budget is None):
        limits.setdefault("depth", MAX_DEPTH)
    if go.stop_early:
        limits = {"depth": 1}
    if not limits:
        limits["depth"] = DEFAULT_DEPTH
    return limits


def _time_budget(go, us, overhead):
    """The Budget of a `go movetime` or clock (held until ponderhit when pondering);
    None without a time limit or with `infinite`."""
    if go.infinite:
        return None
    if go.movetime is not None:
        budget = Budget.fixed(go.movetime / 1000)
    else:
        clock = go.clock.get(us + "time", go.clock.get("ucci_time"))
        if clock is None:
            return None
        increment = go.clock.get(us + "inc", go.clock.get("ucci_increment", 0))
        budget = Budget(*clock_budget(clock / 1000, increment / 1000, go.movestogo,
                                      overhead))
    budget.held = go.ponder
    return budget
