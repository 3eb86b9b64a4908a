"""`points PIECE N, PIECE N, … [, SIDE N]`: a game that a rule ends without a winner
(two passes in a row, facing kings answered by a pass) is decided on points instead:
each side adds up the points of its pieces on the board, the side named last adds its
bonus (janggi's komi: Black 1.5), and the side with more points wins; equal points
leave the draw.  Fairy-Stockfish's `materialCounting = janggi` (rook 13, janggi cannon
7, horse 5, janggi elephant 3, wazir 3, soldier 2, and 1.5 for Black).  Pieces not
named count nothing.

Engine (templates/rules/points.j2): `points_result(p)`, the result for the side to
move, used by the game_end hooks of `passing` and `facing kings end the game`; no hook
of its own.  Oracle: pyffish's janggi (tests/test_janggi.py), whose double-pass and
bikjang ends are decided by material counting.
"""

from dataclasses import dataclass

from ..nodes import Node

ORDER = 76
SIDES = ("white", "black")

GRAMMAR = '''
// points PIECE N, … [, SIDE N]: a game a rule would draw is won on points
points_decl: "points" point_entry ("," point_entry)*
point_entry: NAME NUMBER
'''
KEYWORDS = ("points",)
TRANSFORMS = {"point_entry": lambda children: (children[0], children[1])}


@dataclass
class Points(Node):
    entries: list

    @classmethod
    def from_parts(cls, parts):
        return cls(list(parts))


STATEMENTS = {"points_decl": Points}
FIELDS = [("points", tuple, ()),            # (piece name, points) pairs
          ("points_bonus", tuple, ())]      # ("white" or "black", points) or ()
TEMPLATE = "rules/points.j2"


def resolve(nodes, context):
    """The last statement counts (a child replaces its parent's table)."""
    if not nodes:
        return {}
    node = nodes[-1]
    table, bonus = [], ()
    for name_token, number in node.entries:
        value = float(str(number))
        if value < 0 or value * 2 != int(value * 2):
            context.error(node, number, "points are whole or half numbers, at least 0")
            continue
        if str(name_token) in SIDES:
            if bonus:
                context.error(node, name_token, "one side's bonus only")
            bonus = (str(name_token), value)
        elif (name := context.piece_name(node, name_token)) is not None:
            table.append((name, value))
    if not table:
        context.error(node, None, "`points` names at least one piece and its points")
    return {"points": tuple(table), "points_bonus": bonus}


def lower(variant, lowerer):
    """Points doubled, so that the engine counts in whole numbers."""
    bonus = variant.points_bonus
    white_bonus = 0 if not bonus else int(2 * bonus[1]) * (1 if bonus[0] == "white" else -1)
    return {"on": bool(variant.points), "white_bonus": white_bonus,
            "doubled": [(lowerer.type_index[n], int(2 * v)) for n, v in variant.points]}


def active(tables):
    return tables["on"]


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("points")
    def points(cmp, old, new):
        if tuple(map(tuple, old)) != tuple(map(tuple, new)):
            cmp.add("game_end", words.change_kind(old, new), "points",
                    f"points: {_words(old)} -> {_words(new)}")

    @words.variant_wording("points_bonus")
    def points_bonus(cmp, old, new):
        if tuple(old) != tuple(new):
            cmp.add("game_end", words.change_kind(old, new), "points bonus",
                    f"points bonus: {_words([old]) if old else 'none'} -> "
                    f"{_words([new]) if new else 'none'}")


def _words(table):
    return ", ".join(f"{name} {value:g}" for name, value in table) or "none"
