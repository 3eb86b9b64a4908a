"""`draws count as wins for SIDE`: draw odds (armageddon): every game that would end
drawn, by stalemate, repetition, the move rule or a counting rule, is won by SIDE
instead (Fairy-Stockfish's materialCounting = blackdrawodds / whitedrawodds).

Engine (templates/rules/draw_odds.j2): the no_move_score hook scores a drawn stalemate
as SIDE's win; it runs before the stalemate rule's.  The search still scores a
repeated position below the root as 0, as it does in every game.  Position.outcome
gives the winner for every draw (runtime/position.py, `_draw_odds`).  Oracle:
pyffish's armageddon (tests/test_quick_variants.py, tests/test_fsf_catalog.py); the
reference interpreter does not implement it.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 39

GRAMMAR = '''
// draws count as wins for SIDE (armageddon's draw odds)
draw_odds_decl: "draws" "count" "as" "wins" "for" SIDE_NAME
'''
KEYWORDS = ("draws",)


@dataclass
class DrawOdds(Node):
    side: Any


STATEMENTS = {"draw_odds_decl": DrawOdds}
FIELDS = [("draw_odds", str, "")]           # "" or the side that wins the draws
TEMPLATE = "rules/draw_odds.j2"


def resolve(nodes, context):
    """The last statement counts."""
    if not nodes:
        return {"draw_odds": ""}
    return {"draw_odds": str(nodes[-1].side)}


def lower(variant, lowerer):
    stalemate_drawn = variant.stalemate == "draw" and not variant.stalemate_piece_count
    return {"side": ("white", "black").index(variant.draw_odds) if variant.draw_odds else -1,
            "stalemate_drawn": stalemate_drawn}


def active(tables):
    return tables["side"] >= 0


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("draw_odds")
    def draw_odds(cmp, old, new):
        if old != new:
            cmp.add("game_end", words.change_kind(old, new), "draw odds",
                    f"{old or 'no one'} wins draws -> {new or 'no one'} wins draws")
