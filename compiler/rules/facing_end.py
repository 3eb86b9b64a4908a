"""`facing kings end the game`: the royal pieces may face each other (on one file or
rank with nothing between: janggi's bikjang), and then the side to move must break
the facing.  A move that leaves them facing is refused; a pass (`passing allowed`)
accepts it and ends the game: a draw, or decided on points where the game has a
`points` table.  Fairy-Stockfish's bikjangRule (janggi, janggitraditional).

Castling moves are not looked at (no game has both).  As in Fairy-Stockfish, the
pass that accepts the facing is allowed even when the side to move is in check (the
`check_excused` hook point): the game ends with it.

Engine (templates/rules/facing_end.j2): the why_illegal hook looks at the board before
and after the move, check_excused lets the accepting pass stand in check, and the
game_end hook ends the game after a pass with the royal pieces facing.  Oracle:
pyffish's janggi and janggitraditional (tests/test_janggi.py).
"""

from dataclasses import dataclass

from ..nodes import Node
from . import facing_kings

ORDER = 78

GRAMMAR = '''
// facing kings end the game: facing royal pieces must be parted, or a pass ends the game
facing_end_decl: "facing" "kings" "end" "the" "game"
'''
KEYWORDS = ("facing",)


@dataclass
class FacingKingsEnd(Node):
    @classmethod
    def from_parts(cls, parts):
        return cls()


STATEMENTS = {"facing_end_decl": FacingKingsEnd}
FIELDS = [("facing_kings_end", bool, False)]
TEMPLATE = "rules/facing_end.j2"
REFUSALS = {"ROYALS_STILL_FACING": "the two {royal}s face each other: the move must part "
                                   "them (or pass, which ends the game)"}
ENDS = {"FACING_KINGS": "facing kings"}


def resolve(nodes, context):
    for node in nodes:
        if sum(piece["royal"] for piece in context.pieces.values()) != 1:
            context.error(node, None, "`facing kings end the game` needs one royal piece type")
        elif context.rule_nodes[facing_kings]:
            context.error(node, None, "`facing kings end the game` contradicts `no facing "
                          "kings` (which forbids the facing)")
    return {"facing_kings_end": bool(nodes)}


def lower(variant, lowerer):
    return {"on": variant.facing_kings_end, "by_points": bool(variant.points)}


def active(tables):
    return tables["on"]


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    words.flag_wording("facing_kings_end", "game_end", "facing kings end the game",
                       "facing kings must be parted; a pass ends the game",
                       "facing kings no longer end the game")
