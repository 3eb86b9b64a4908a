"""`counting RULE with PAWN, ROOK, KHON, KNIGHT`: Fairy-Stockfish's counting rules
(countingRule = makruk, asean or cambodian), a draw when the side that is behind survives a
number of moves once the pawns are gone.

Makruk's rule: once no pawn is left on the board, the side to move starts counting
when the other side has more than its king: the *board's honour*, 64 moves, while the
counting side has more than its king; the *pieces' honour* once it has only its king,
with a limit set by what the other side has: two rooks 8 moves, one rook 16, two
khons 22, two knights 32, one khon 44, else 64.  A capture or a promotion that leaves
the side to move with its king alone starts the count again, from the number of
pieces on the board (each ply counts, and the pieces' honour starts at twice the
pieces on the board); a bare king that takes the last pawn starts from one ply less.
ASEAN's rule counts only for a bare king, from zero, with no pawn on the board: 16
moves against a rook, 44 against a khon, 64 against a knight.  Cambodian's rule is
makruk's with the limits one move shorter (63 for the board's honour; 7, 15, 21, 31, 43
and 63 for the pieces'), and a side starts the board's honour as soon as it has at
most three pieces, pawns or not (the pieces' honour still waits for the last pawn to
go).  When the count passes
its limit (in plies, twice the moves) the game is drawn, unless the side to move is
checkmated.  The four pieces name the types that play the pawn's, the rook's, the
khon's and the knight's parts in these tables.

Like Fairy-Stockfish (whose is_optional_game_end reports it), the count ends the game
without taking its moves away: Position.outcome reports Outcome(None, "counting"), the
search scores it as a draw (the `draw` hook), and the legal moves stay.  The engine
keeps the limit and the plies counted in a pair of the core's counters (COUNTERS =
"plain": not in the Zobrist key, so that repetitions still count, as in Fairy-Stockfish;
in a game that also counts checks, karouk, the pair after the checks').  The
FEN carries them as Fairy-Stockfish writes them once counting has started: the limit
in plies in place of the en passant field, the plies counted in place of the halfmove
clock (`8/8/8/3k4/8/8/8/R2K4 b - 32 3 40`).

Engine: templates/rules/counting.j2.  Oracle: pyffish's makruk, asean and cambodian
(tests/test_counting.py, tests/test_first_moves.py, is_optional_game_end and FEN along random playouts).
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 79
COUNTERS = "plain"
ROLES = ("pawn", "rook", "khon", "knight")

GRAMMAR = '''
// counting RULE with PAWN, ROOK, KHON, KNIGHT: a draw when the side behind survives long enough
counting_decl: "counting" COUNTING_RULE "with" name_list
COUNTING_RULE: "makruk" | "asean" | "cambodian"
'''
KEYWORDS = ("counting",)
TERMINAL_WORDS = {"COUNTING_RULE": "makruk, asean or cambodian"}

# The limits in moves, as Fairy-Stockfish's Position::count_limit gives them.
LIMITS = {"makruk": (8, 16, 22, 32, 44, 64), "asean": (16, 44, 64),
          "cambodian": (7, 15, 21, 31, 43, 63)}


@dataclass
class Counting(Node):
    rule: Any
    pieces: list


STATEMENTS = {"counting_decl": Counting}
FIELDS = [("counting", str, ""),             # "", "makruk", "asean" or "cambodian"
          ("counting_pieces", tuple, ())]    # the pawn's, rook's, khon's, knight's types
TEMPLATE = "rules/counting.j2"


def resolve(nodes, context):
    """The last statement counts."""
    if not nodes:
        return {}
    node = nodes[-1]
    names = [context.piece_name(node, token) for token in node.pieces]
    if len(names) != len(ROLES):
        context.error(node, node.pieces[0], f"counting names {len(ROLES)} pieces, the "
                      f"types that play the parts of {', '.join(ROLES)}; {len(names)} given")
    return {"counting": str(node.rule), "counting_pieces": tuple(names)}


def lower(variant, lowerer):
    if not variant.counting:
        return {"rule": ""}
    # The counting pair comes after the check count's (the hashed pair is the first).
    return {"rule": variant.counting, "pair": 2 if variant.check_count else 0,
            "types": [lowerer.type_index[name] for name in variant.counting_pieces]}


def active(tables):
    return bool(tables["rule"])


def fen_limits(rule):
    """The counting limits a FEN may give (in plies)."""
    return tuple(2 * moves for moves in LIMITS.get(rule, ()))


def _words(rule, pieces):
    return f"{rule} counting ({', '.join(pieces)})" if rule else "no counting rule"


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule (compiler/diff/rules.py gives
    the helpers)."""
    @words.variant_wording("counting", "counting_pieces")
    def counting(cmp, old, new):
        old, new = (old[0], tuple(old[1])), (new[0], cmp.map_b(tuple(new[1])))
        if old != new:
            cmp.add("game_end", words.change_kind(old[0], new[0]), "counting",
                    f"{_words(*old)} -> {_words(*new)}")
