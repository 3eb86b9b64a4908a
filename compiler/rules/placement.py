"""A placement phase, as in placement chess and sittuyin: the pieces start in hand and
are dropped before (and while) the game goes on.  Three rules, each a statement:

* `drops are compulsory` (Fairy-Stockfish's mustDrop): a side that can drop must; a move
  on the board is refused (DROP_REQUIRED) while the mover has a legal drop.
* `drop PIECE … on opposite colours` (a drop flag the core resolves, FSF's
  dropOppositeColoredBishop): a side's pieces of that type must be able to end on
  squares of both colours; a drop that would prevent it is refused (SAME_COLOURS).
* `castling with dropped ROOK` (FSF's castlingDroppedPiece): a king or a ROOK dropped on
  its square of a `castling` statement, with the other already on its own, gains that
  castling right (after_make hook).  The core takes ROOK as the castling rook where the
  setup has none (compiler/lower.py, `_castling`).

Engine (templates/rules/placement.j2).  Oracle: pyffish's placement (tests/test_placement.py
and the catalog); the reference interpreter does not implement it.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 72

GRAMMAR = '''
// drops are compulsory: a side that can drop must drop
must_drop_decl: "drops" MUST_DROP
MUST_DROP.2: "are compulsory"

// castling with dropped ROOK: dropped king and rook gain their castling right
castling_drops_decl: "castling" "with" "dropped" NAME
'''
KEYWORDS = ("drops",)
TERMINAL_WORDS = {"MUST_DROP": "are compulsory"}


@dataclass
class DropsCompulsory(Node):
    words: Any = None


@dataclass
class CastlingWithDrops(Node):
    rook: Any


STATEMENTS = {"must_drop_decl": DropsCompulsory, "castling_drops_decl": CastlingWithDrops}
FIELDS = [("drops_compulsory", bool, False),
          ("castling_dropped_rook", str, "")]      # the rook of `castling with dropped`
TEMPLATE = "rules/placement.j2"
REFUSALS = {"DROP_REQUIRED": "{mover} has a piece to drop, and drops are compulsory",
            "SAME_COLOURS": "the pieces dropped `on opposite colours` could no longer "
                            "stand on squares of both colours"}


def resolve(nodes, context):
    out = {"drops_compulsory": any(isinstance(n, DropsCompulsory) for n in nodes)}
    rooks = [n for n in nodes if isinstance(n, CastlingWithDrops)]
    if rooks:
        name = context.piece_name(rooks[-1], rooks[-1].rook)
        if name is not None and context.pieces[name]["royal"]:
            context.error(rooks[-1], rooks[-1].rook, f"'{name}' is royal: name the piece "
                          "that castles with it")
            name = None
        out["castling_dropped_rook"] = name or ""
    return out


def lower(variant, lowerer):
    return {"must_drop": variant.drops_compulsory,
            "colours": [lowerer.type_index[d.piece] for d in variant.drops
                        if d.opposite_colours],
            "castling": bool(variant.castling_dropped_rook)}


def active(tables):
    return tables["must_drop"] or bool(tables["colours"]) or tables["castling"]


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    words.flag_wording("drops_compulsory", "drops", "compulsory drops",
                       "a side that can drop must drop", "drops are no longer compulsory")
    words.flag_wording("castling_dropped_rook", "castling", "castling with dropped pieces",
                       "a dropped king and rook gain their castling right",
                       "dropped pieces no longer gain castling rights")
