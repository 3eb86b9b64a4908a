"""`chess960 castling`: castling written as Chess960 writes it (Fairy-Stockfish's
chess960 = true).  A castling move is written in UCI as the king taking its own rook
(`e1h1`, `f1a1`), and the FEN's castling field names each right by its rook's file
(Shredder-FEN: `HAha`, `JAja` on ten files).  The castling moves themselves are the
game's `castling` statements, whose rules are already Chess960's: every square
between the king, the rook and their destinations empty but for the two pieces, and
no square of the king's path attacked.  A FEN may give the rights as `KQkq` (for the
king's outermost rook on each side, as X-FEN does) or by file, in every game
(compiler/positions.py).

Engine: nothing (the moves are the same); runtime/move.py writes the castling move,
runtime/fen_out.py the rights.  Oracle: pyffish's fischerandom and caparandom
(tests/test_fsf_catalog.py, tests/test_chess960.py).
"""

from dataclasses import dataclass

from ..nodes import Node

ORDER = 13

GRAMMAR = '''
// chess960 castling: castling written as the king taking its rook (e1h1), rights by file (HAha)
chess960_decl: "chess960" "castling"
'''
KEYWORDS = ("chess960",)


@dataclass
class Chess960Castling(Node):
    pass


STATEMENTS = {"chess960_decl": Chess960Castling}
FIELDS = [("chess960_castling", bool, False)]


def resolve(nodes, context):
    if nodes and not context.lists["castling"]:
        context.error(nodes[-1], None, "chess960 castling: the game has no castling "
                      "(write a `castling` statement first)")
    return {"chess960_castling": bool(nodes)}


def lower(variant, lowerer):
    return {"on": variant.chess960_castling}


def active(tables):
    return False                    # no partial: the engine's moves are the same


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    words.flag_wording("chess960_castling", "special", "castling notation",
                       "castling written as the king taking its rook (e1h1), rights by file (HAha)",
                       "castling written as the king's move (e1g1), rights as KQkq")
