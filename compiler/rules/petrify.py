"""`petrify PIECES after capturing`: a piece of these types that captures turns into a
wall square where it lands (Fairy-Stockfish's petrifyOnCaptureTypes, its petrified
variant).  The type that counts is the one the piece had before the move, so a pawn
that captures and promotes is not petrified unless pawns are listed (as in FSF).  A
wall is no piece: it never moves, blocks lines and cannot be captured (`*` in a FEN).

A royal piece among them may not capture at all (it would turn to stone, and its side
would lose it), and so it gives no check either: a royal piece that stands attacked
only by the enemy's petrifying royal piece is safe, so the two kings may stand side by
side (FSF's "petrifiable pseudo-royals can't capture").  As in FSF, the position still
counts as check then (`is_check`), and a castling king may not pass a square the enemy
king attacks.

Engine (templates/rules/petrify.j2): the after_make hook puts a wall on the capture
square (the core's unmake puts the capturer back over it, so no unmake hook is
needed); the why_illegal hook refuses a royal piece's capture (ROYAL_PETRIFIED); the
check_excused hook lets a royal piece stand next to the enemy's.  Oracle: pyffish's
petrified (tests/test_walling.py, tests/test_fsf_catalog.py).
"""

from dataclasses import dataclass

from ..nodes import Node

ORDER = 16

GRAMMAR = '''
// petrify PIECES after capturing: a capturing piece of these types becomes a wall
petrify_decl: "petrify" name_list "after" "capturing"
'''
KEYWORDS = ("petrify",)


@dataclass
class PetrifyAfterCapturing(Node):
    pieces: list


STATEMENTS = {"petrify_decl": PetrifyAfterCapturing}
FIELDS = [("petrify_on_capture", tuple, ())]      # names of the types that petrify
TEMPLATE = "rules/petrify.j2"
REFUSALS = {"ROYAL_PETRIFIED": "{mover}'s {royal} may not capture: it would turn into a wall"}


def resolve(nodes, context):
    names = []
    for node in nodes:
        for token in node.pieces:
            name = context.piece_name(node, token)
            if name is not None and name not in names:
                names.append(name)
    return {"petrify_on_capture": tuple(names)}


def lower(variant, lowerer):
    types = [lowerer.type_index[name] for name in variant.petrify_on_capture]
    royal = next((lowerer.type_index[p.name] for p in variant.pieces
                  if p.royal and p.name in variant.petrify_on_capture), None)
    return {"types": types, "royal": royal}


def active(tables):
    return bool(tables["types"])


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("petrify_on_capture")
    def petrify(cmp, old, new):
        old, new = set(old), set(cmp.map_b(tuple(new)))
        if old != new:
            cmp.add("captures", words.change_kind(old, new), "petrification",
                    f"capturers that turn into walls: {', '.join(sorted(old)) or 'none'} -> "
                    f"{', '.join(sorted(new)) or 'none'}")
