"""`mark every double step`: after every double step of an en passant piece, capturable
or not, the position records it and its FEN names the square passed and the square of
the piece that passed it (`e3e4`, `c5d6`).  This is Fairy-Stockfish's convention for
its custom en passant pieces (Berolina, Pawnback, Pawnsideways: `enPassantTypes` other
than its built-in pawn), which marks `between(from, to)` with the destination; without
the statement the square passed is marked only when an enemy could take there (`e3`),
as FSF does for its chess pawn.  The mark is part of the position's key, so a position
reached by a double step never repeats one reached otherwise (as in FSF).

Engine: the core's EP_ALWAYS_MARKED constant (compiler/core/make.pxi), set from this
field by compiler/lower.py; FEN: runtime/fen_out.py writes the two squares,
compiler/positions.py reads them.  Oracle: pyffish's berolina, pawnback and
pawnsideways (tests/test_fsf_catalog.py, tests/test_en_passant_fields.py).
"""

from dataclasses import dataclass

from ..nodes import Node

ORDER = 12

GRAMMAR = '''
// mark every double step: the en passant field names every double step (e3e4)
ep_marking_decl: "mark" "every" "double" "step"
'''
KEYWORDS = ("mark",)


@dataclass
class MarkEveryDoubleStep(Node):
    pass


STATEMENTS = {"ep_marking_decl": MarkEveryDoubleStep}
FIELDS = [("ep_always_marked", bool, False)]


def resolve(nodes, context):
    if nodes and context.statements.get("en_passant") is None:
        context.error(nodes[-1], None, "mark every double step: the game has no en passant "
                      "(write `en passant PIECE` first)")
    return {"ep_always_marked": bool(nodes)}


def lower(variant, lowerer):
    return {"on": variant.ep_always_marked}


def active(tables):
    return False                    # no partial: the core reads the constant


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    words.flag_wording("ep_always_marked", "special", "en passant marking",
                       "every double step is marked in the FEN (e3e4)",
                       "a double step is marked only when it can be taken (e3)")
