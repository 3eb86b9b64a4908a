"""`extra pieces PIECES`: piece types that no setup, drop or promotion brings into the
game, but that a FEN may place on any square (Fairy-Stockfish's `fairy` pseudo-variant:
chess whose positions may also hold a silver, fers, archbishop, chancellor or
commoner, for its endgame code).  Without the statement such a piece is refused on
every square of a FEN (compiler/positions.py: no move, drop or promotion puts one
there).  The engine needs nothing: a piece on the board moves as its Betza says.

Oracle: pyffish's fairy (tests/test_fen_pieces.py, and the catalog's differential).
"""

from dataclasses import dataclass

from ..nodes import Node

ORDER = 83

GRAMMAR = '''
// extra pieces PIECES: pieces a FEN may place anywhere, though no setup, drop or promotion brings them
extra_pieces_decl: "extra" "pieces" name_list
'''
KEYWORDS = ("extra",)


@dataclass
class ExtraPieces(Node):
    pieces: list


STATEMENTS = {"extra_pieces_decl": ExtraPieces}
FIELDS = [("extra_pieces", tuple, ())]        # names a FEN may place on any square


def resolve(nodes, context):
    """Every statement adds its pieces (a child adds to its parent's)."""
    names = []
    for node in nodes:
        for token in node.pieces:
            name = context.piece_name(node, token)
            if name is None:
                continue
            if context.pieces[name]["royal"]:
                context.error(node, token, f"'{name}' is royal: a FEN holds the royal "
                              "pieces of the setup, not extra ones")
            elif name not in names:
                names.append(name)
    return {"extra_pieces": tuple(names)} if names else {}


def lower(variant, lowerer):
    return {}


def active(tables):
    return False


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("extra_pieces")
    def extra(cmp, old, new):
        old, new = tuple(old), cmp.map_b(tuple(new))
        if set(old) != set(new):
            cmp.add("setup", words.change_kind(old, new), "extra pieces",
                    f"extra pieces: {', '.join(old) or 'none'} -> {', '.join(new) or 'none'}")
