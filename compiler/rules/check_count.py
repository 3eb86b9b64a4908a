"""`win by N checks`: the side that gives its N-th check wins (three-check and
five-check; Fairy-Stockfish's checkCounting, with N taken from its start FEN's `3+3`).

Every move that leaves the opponent's royal piece attacked counts, a check by
discovered attack or by castling included.  The engine keeps, per side, the checks it
still has to give in the core's two counters (Pos.counter, COUNTERS = "hashed"): they are
part of the Zobrist key (repetition and the transposition table tell positions with
different counts apart) and come back on unmake.  The FEN carries them as
Fairy-Stockfish writes them, `3+3` (White's and Black's checks still to give) before
the halfmove clock; the lichess form, `+2+0` (checks given) after the fullmove number,
is read too (runtime/fen.py, compiler/positions.py).

Engine (templates/rules/check_count.j2): after_make counts a check, game_end ends the
game when the side that just moved has no check left to give (as Fairy-Stockfish, only
that side is looked at), evaluate rewards checks given.  An ended game has no legal
moves; perft counts none there, as Fairy-Stockfish does; the search scores it like a
mate.  Position.outcome reports Outcome(winner, "checks").  Oracle: pyffish, with its
built-in 3check and 5check and a variants.ini configuration (tests/test_check_count.py);
the reference interpreter does not implement it.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 78
COUNTERS = "hashed"
LIMIT = 99                  # the engine's counters (MAX_COUNTER in compiler/core/board.pxi)

GRAMMAR = '''
// win by N checks: the side that gives its N-th check wins
check_count_decl: "win" "by" INT CHECK_WORD
CHECK_WORD: "checks" | "check"
'''
KEYWORDS = ("win",)
TERMINAL_WORDS = {"CHECK_WORD": "checks"}


@dataclass
class WinByChecks(Node):
    count: Any
    word: Any = None


STATEMENTS = {"check_count_decl": WinByChecks}
FIELDS = [("check_count", int, 0)]          # N; 0: no such rule
TEMPLATE = "rules/check_count.j2"
ENDS = {"CHECKS": "checks"}


def resolve(nodes, context):
    """The last statement counts (a child can change its parent's N)."""
    if not nodes:
        return {}
    node = nodes[-1]
    count = context.small_int(node.count)
    if not 1 <= count <= LIMIT:
        context.error(node, node.count, f"win by {node.count} checks: the number of checks "
                      f"must be between 1 and {LIMIT}")
    elif not any(info["royal"] for info in context.pieces.values()):
        context.error(node, node.count, "win by checks: the game has no royal piece to check")
    return {"check_count": count}


def lower(variant, lowerer):
    return {"count": variant.check_count}


def active(tables):
    return bool(tables["count"])


def _words(count):
    return f"{count} checks win" if count else "no check count"


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule (compiler/diff/rules.py gives
    the helpers)."""
    @words.variant_wording("check_count")
    def check_count(cmp, old, new):
        if old != new:
            cmp.add("game_end", words.change_kind(old, new), "check count",
                    f"{_words(old)} -> {_words(new)}")
