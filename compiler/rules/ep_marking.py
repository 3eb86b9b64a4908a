"""`mark every double step`: after every double step of an en passant piece, capturable
or not, the position records it and its FEN names the square passed and the square of
the piece that passed it (`e3e4`, `c5d6`).  This is Fairy-Stockfish's convention for
its custom en passant pieces (Berolina, Pawnback, Pawnsideways: `enPassantTypes` other
than its built-in pawn), which marks `between(from, to)` with the destination; without
the statement the square passed is marked only when an enemy could take there (`e3`),
as FSF does for its chess pawn.  The mark is part of the position's key, so a position
reached by a double step never repeats one reached otherwise (as in FSF).

`mark every double step of PIECE…` does the same for the named pieces only, which need
not take in passing themselves: the game's `en passant` pieces may take their double
steps.  This is FSF's rule for any piece's initial-only move other than its built-in
pawn's (wolf chess: the sergeant's `ifmnD` is marked `f3f4` and a pawn may take it in
passing, while a pawn's double step is marked only when an enemy pawn could take it).

Engine: the core's EP_ALWAYS_MARKED constant (compiler/core/make.pxi), set from this
field by compiler/lower.py, or with `of`, EP_MARKED_TYPES and the EP_MARKED table (the
generated half); FEN: runtime/fen_out.py writes the two squares,
compiler/positions.py reads them.  Oracle: pyffish's berolina, pawnback,
pawnsideways and wolf (tests/test_fsf_catalog.py, tests/test_en_passant_fields.py,
tests/test_first_moves.py).
"""

from dataclasses import dataclass, field

from ..nodes import Node
from .extinction import listed_names

ORDER = 12

GRAMMAR = '''
// mark every double step [of PIECES]: the en passant field names every double step (e3e4)
ep_marking_decl: "mark" "every" "double" "step" ("of" name_list)?
'''
KEYWORDS = ("mark",)


@dataclass
class MarkEveryDoubleStep(Node):
    pieces: list = field(default_factory=list)     # `of PIECE…` (empty: the en passant pieces)


STATEMENTS = {"ep_marking_decl": MarkEveryDoubleStep}
FIELDS = [("ep_always_marked", bool, False),
          ("ep_marked_pieces", tuple, ())]     # `of PIECE…`: these pieces' double steps


def resolve(nodes, context):
    if nodes and context.statements.get("en_passant") is None:
        context.error(nodes[-1], None, "mark every double step: the game has no en passant "
                      "(write `en passant PIECE` first)")
    named = listed_names(nodes, context, "is royal: name the pieces whose double steps "
                         "are marked")
    for node in nodes:
        for token in node.pieces:
            name = str(token)
            if name in named and not any(a.moves and a.lame_path
                                         for a in context.pieces[name]["atoms"]):
                context.error(node, token, f"mark every double step of {name}: a {name} has "
                              "no double step (write it as a lame leap, as in ifmnD)")
    return {"ep_always_marked": any(not node.pieces for node in nodes),
            "ep_marked_pieces": tuple(named)}


def lower(variant, lowerer):
    return {"on": variant.ep_always_marked,
            "types": [lowerer.type_index[name] for name in variant.ep_marked_pieces]}


def active(tables):
    return False                    # no partial: the core reads the constant


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    words.flag_wording("ep_always_marked", "special", "en passant marking",
                       "every double step is marked in the FEN (e3e4)",
                       "a double step is marked only when it can be taken (e3)")

    @words.variant_wording("ep_marked_pieces")
    def marked_pieces(cmp, old, new):
        old, new = tuple(old), cmp.map_b(tuple(new))
        if old != new:
            cmp.add("special", words.change_kind(old, new), "en passant marking",
                    f"{', '.join(old) or 'no piece'}'s double steps always marked -> "
                    f"{', '.join(new) or 'no piece'}'s")
