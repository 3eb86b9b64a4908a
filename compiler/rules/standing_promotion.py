"""`promote PIECE to CHOICE[, CHOICE…] standing on ZONE` and `draw when a lone PIECE can
only promote`: promotion as a move of its own, as in sittuyin (Burmese chess,
Fairy-Stockfish's sittuyinPromotion).

A PIECE standing on a square of ZONE (the side's version), or anywhere when it is the
last PIECE its side has on the board, may spend its move turning into a CHOICE, either
where it stands (UCI `g7g7f`) or by moving as the CHOICE captures onto an empty square
(`g7f8f`).  The promotion is refused where the new piece would attack an enemy piece
from its square, or where the move gives check (also a discovered one).  The PIECE's
own moves never promote.  `promotion to CHOICE only while fewer than N` (FSF's
promotionLimit; compiler/rules/promotion_limit.py) limits it as it limits any
promotion: sittuyin promotes to a met only while the side has none.

`draw when a lone PIECE can only promote` (FSF's sittuyin stalemate, its rule 3.9 c.7):
a side with only two pieces on the board, one of them a PIECE, not in check, whose
every legal move is such a promotion, draws.  Like Fairy-Stockfish's
is_optional_game_end, it ends the game without taking the moves away:
Position.outcome reports Outcome(None, "only promotions"), the search scores it as a
draw (the `draw` hook).

Engine (templates/rules/standing_promotion.j2): the extra_moves hook generates the
promotions, the why_illegal hook refuses the checking ones, the core makes a
promotion whose from and to squares are the same in place (PROMOTES_IN_PLACE).
Oracle: pyffish's sittuyin (tests/test_sittuyin.py and the catalog); the reference
interpreter does not implement it.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 82

GRAMMAR = '''
// promote PIECE to CHOICE[, CHOICE] standing on ZONE: promotion as a move of its own
standing_promote_decl: "promote" NAME "to" name_list "standing" "on" region_expr
// draw when a lone PIECE can only promote
lone_promotion_draw_decl: "draw" "when" "a" "lone" NAME "can" "only" "promote"
'''
KEYWORDS = ("promote", "draw")


@dataclass
class StandingPromote(Node):
    piece: Any
    choices: list
    zone: Any


@dataclass
class LonePromotionDraw(Node):
    piece: Any


@dataclass(frozen=True)
class StandingPromotion:
    """The rule: PIECE turns into one of `choices` standing on `zone` (a SquareSet)."""
    piece: str
    choices: tuple
    zone: Any


STATEMENTS = {"standing_promote_decl": StandingPromote,
              "lone_promotion_draw_decl": LonePromotionDraw}
FIELDS = [("standing_promotion", object, None),       # StandingPromotion, or None
          ("lone_promotion_draw", bool, False)]
TEMPLATE = "rules/standing_promotion.j2"
REFUSALS = {"PROMOTION_CHECKS": "a promotion standing on its square may not give check"}


def resolve(nodes, context):
    """The last statement of each kind counts (a child replaces its parent's)."""
    rules = [n for n in nodes if isinstance(n, StandingPromote)]
    draws = [n for n in nodes if isinstance(n, LonePromotionDraw)]
    out = {}
    rule = _rule(rules[-1], context) if rules else None
    if rules:
        out["standing_promotion"] = rule
    if draws:
        node = draws[-1]
        name = context.piece_name(node, node.piece)
        if name is not None and (rule is None or rule.piece != name):
            context.error(node, node.piece, f"'{name}' has no `promote {name} to … "
                          "standing on …` statement: it cannot only promote")
        out["lone_promotion_draw"] = True
    return out


def _rule(node, context):
    name = context.piece_name(node, node.piece)
    choices = [context.piece_name(node, token) for token in node.choices]
    if name is None or None in choices:
        return None
    if context.pieces[name]["royal"]:
        context.error(node, node.piece, f"'{name}' is royal and cannot promote")
        return None
    for token, choice in zip(node.choices, choices):
        if choice == name or context.pieces[choice]["royal"]:
            context.error(node, token, f"'{name}' cannot promote to "
                          f"{'itself' if choice == name else 'the royal ' + repr(choice)}")
            return None
        if not _plain_leaper(context.pieces[choice]["atoms"]):
            context.error(node, token, f"a standing promotion's piece must capture by "
                          f"plain leaps only (as a met, F): '{choice}' does not")
            return None
    if any(getattr(st, "piece", None) is not None and str(st.piece) == name
           for st in context.lists.get("promote", ())):
        context.error(node, node.piece, f"'{name}' already has a `promote` statement: "
                      "a piece promotes either on entering a zone or standing on it")
        return None
    return StandingPromotion(name, tuple(choices), context.as_set(node, node.zone))


def _plain_leaper(atoms):
    """Captures only by leaps with no condition (the engine's attack test is a table of
    leaps)."""
    attacks = [a for a in atoms if a.captures]
    return bool(attacks) and all(a.kind == "leap" and not a.lame_path and not a.initial
                                 and a.only_in is None and not a.along for a in attacks)


def lower(variant, lowerer):
    rule = variant.standing_promotion
    if rule is None:
        return {"on": False}
    pieces = {p.name: p for p in variant.pieces}
    choices = []
    for name in rule.choices:
        leaps = [(a.dx, a.dy) for a in pieces[name].moves if a.captures]
        choices.append({"type": lowerer.type_index[name], "name": name,
                        "offsets": [sorted({lowerer.offset(dx, dy, colour) for dx, dy in leaps})
                                    for colour in (0, 1)]})
    return {"on": True, "type": lowerer.type_index[rule.piece], "choices": choices,
            "zone": [sorted(lowerer.side_squares(rule.zone, colour)) for colour in (0, 1)],
            "lone_draw": variant.lone_promotion_draw}


def move_bound(variant):
    """The most standing promotions a position can add to the move list (the engine's
    move lists are sized by geometry.move_list_bound plus this): every square holding
    the PIECE, each choice in place and by each of its leaps."""
    rule = variant.standing_promotion
    if rule is None:
        return 0
    pieces = {p.name: p for p in variant.pieces}
    return variant.files * variant.ranks * sum(
        1 + sum(1 for a in pieces[name].moves if a.captures) for name in rule.choices)


def active(tables):
    return tables["on"]


def _words(rule):
    if rule is None:
        return "no standing promotion"
    return f"{rule[0]} to {', '.join(rule[1])} standing on {', '.join(rule[2].white)}"


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("standing_promotion")
    def standing_promotion(cmp, old, new):
        old = None if old is None else (old.piece, tuple(old.choices), old.zone)
        new = None if new is None else (cmp.map_b((new.piece,))[0],
                                        cmp.map_b(tuple(new.choices)), new.zone)
        if old != new:
            cmp.add("pieces", words.change_kind(old, new), "standing promotion",
                    f"{_words(old)} -> {_words(new)}")
    words.flag_wording("lone_promotion_draw", "game_end", "lone promotion draw",
                       "a lone pawn that can only promote draws",
                       "a lone pawn that can only promote no longer draws")
