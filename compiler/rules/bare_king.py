"""`bare king loses [, unless bared back]`: a side left with nothing but its king, on
the board and in hand, has lost when the other side still has more (shatranj,
courier; Fairy-Stockfish's extinctionValue = loss with extinctionPieceTypes = * and
extinctionPieceCount = 1, and extinctionOpponentPieceCount = 2).  `unless bared back`
(FSF's extinctionClaim) gives the bared side one reply when the other has a single
piece besides its king: taking it leaves two bare kings, and the game goes on.
`no bare king` takes a parent's rule back (chaturanga extends shatranj).
`bare king draws`: a side left with nothing but its king draws the game at once,
whatever the other side has (shatar's *robado*; FSF's extinctionValue = draw with
extinctionPieceTypes = * and extinctionPieceCount = 1).

Engine (templates/rules/bare_king.j2): the game_end hook counts each side's pieces,
the side that just moved first.  An ended game has no legal moves.  Position.outcome
reports Outcome(winner, "bare king").  Oracle: pyffish's built-in shatranj and a
variants.ini configuration (tests/test_bare_king.py); the reference interpreter does
not implement it.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 71

GRAMMAR = '''
// bare king loses [, unless bared back]
bare_king_decl: "bare" "king" "loses" BARED_BACK?
// no bare king: take back the parent's bare-king rule
no_bare_king_decl: "no" "bare" "king"
// bare king draws: a side left with its king alone draws
bare_king_draw_decl: "bare" "king" "draws"
BARED_BACK.2: /,[ \\t]*unless[ \\t]+bared[ \\t]+back(?![A-Za-z0-9_])/
'''
KEYWORDS = ("bare", "no")
TERMINAL_WORDS = {"BARED_BACK": ", unless bared back"}


@dataclass
class BareKingLoses(Node):
    bared_back: Any = None


@dataclass
class NoBareKing(Node):
    pass


@dataclass
class BareKingDraws(Node):
    pass


STATEMENTS = {"bare_king_decl": BareKingLoses, "no_bare_king_decl": NoBareKing,
              "bare_king_draw_decl": BareKingDraws}
FIELDS = [("bare_king", str, "")]       # "", "loses", "loses unless bared back" or "draws"
TEMPLATE = "rules/bare_king.j2"
ENDS = {"BARE_KING": "bare king"}


def resolve(nodes, context):
    if not nodes:
        return {}
    node = nodes[-1]                    # the child's statement replaces its parent's
    if isinstance(node, NoBareKing):
        return {"bare_king": ""}
    if not any(piece["royal"] for piece in context.pieces.values()):
        context.error(node, None, "`bare king draws` needs a royal piece (a king)"
                      if isinstance(node, BareKingDraws)
                      else "`bare king loses` needs a royal piece (a king)")
    if isinstance(node, BareKingDraws):
        return {"bare_king": "draws"}
    return {"bare_king": "loses unless bared back" if node.bared_back else "loses"}


def lower(variant, lowerer):
    return {"on": bool(variant.bare_king), "bared_back": "unless" in variant.bare_king,
            "draws": variant.bare_king == "draws"}


def active(tables):
    return tables["on"]


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("bare_king")
    def bare_king(cmp, old, new):
        if old != new:
            cmp.add("game_end", words.change_kind(old, new), "bare king",
                    f"bare king: {old or 'no rule'} -> {new or 'no rule'}")
