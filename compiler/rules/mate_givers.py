"""Who gave the mate: two statements that change a checkmate's result by the pieces
that gave it (shatar, Mongolian chess; Fairy-Stockfish's shatarMateRule).

* `checkmate by PIECES alone loses`: a checkmate given by these pieces alone (every
  piece that checks the mated king is one of them) loses for the side that gave it:
  the mated side wins.  Shatar: a mate by knights alone.
* `checkmate without a check by PIECES draws`: a checkmate is a draw unless one of the
  checks of its series was given by one of these pieces (a *shak*).  The series is the
  run of the mated side's turns, back from the mate, on which it stood in check: the
  mate itself, the check before it if the mated side was in check on its turn before,
  and so on.  Shatar: a check by a rook, a bers or a knight (Fairy-Stockfish counts the
  knight too).  Like Fairy-Stockfish, the series is looked for only among the moves
  played from the position's FEN: a position read from a FEN has no earlier checks.

The first comes first: a mate by knights alone is won by the mated side even after a
rook's check.  Both leave mates by any other pieces to the game's checkmate rule.

Engine (templates/rules/mate_givers.j2): the game_end hook, where the side to move is
in check and has no legal move, looks at the checking pieces on a copy of the board on
which the other pieces of the mating side have changed colour (they block as before
and attack nothing); the series' earlier checks are looked at by taking the moves back
two plies at a time, and making them again.  Position.outcome reports
Outcome(winner, "checkmate by lone pieces") or Outcome(None, "checkmate without a
decisive check").  Oracle: pyffish's shatar (tests/test_endings_shatar.py, and the
catalog's differential).
"""

from dataclasses import dataclass

from ..nodes import Node

ORDER = 82                  # after the rules that end a game at once, as in FSF

GRAMMAR = '''
// checkmate by PIECES alone loses: the mated side wins a mate these pieces alone gave
mate_alone_decl: "checkmate" "by" name_list "alone" "loses"
// checkmate without a check by PIECES draws: unless one of these gave a check of its series
mate_series_decl: "checkmate" "without" "a" "check" "by" name_list "draws"
'''
KEYWORDS = ("checkmate",)


@dataclass
class MateAloneLoses(Node):
    pieces: list


@dataclass
class MateWithoutCheckDraws(Node):
    pieces: list


STATEMENTS = {"mate_alone_decl": MateAloneLoses, "mate_series_decl": MateWithoutCheckDraws}
FIELDS = [("mate_alone_loses", tuple, ()),        # names: a mate by these alone loses
          ("mate_needs_check_by", tuple, ())]     # names: a mate without their check draws
TEMPLATE = "rules/mate_givers.j2"
ENDS = {"MATE_BY_LONE_PIECES": "checkmate by lone pieces",
        "MATE_WITHOUT_DECISIVE_CHECK": "checkmate without a decisive check"}


def resolve(nodes, context):
    """The last statement of each form counts (a child replaces its parent's list)."""
    fields = {}
    for cls, field in ((MateAloneLoses, "mate_alone_loses"),
                       (MateWithoutCheckDraws, "mate_needs_check_by")):
        mine = [node for node in nodes if isinstance(node, cls)]
        if mine:
            fields[field] = _names(mine[-1], context)
    if fields and not any(info["royal"] for info in context.pieces.values()):
        node = nodes[-1]
        context.error(node, None, "a rule on who gave the checkmate needs a royal piece "
                      "to checkmate")
    return fields


def _names(node, context):
    names = []
    for token in node.pieces:
        name = context.piece_name(node, token)
        if name is None:
            continue
        if name in names:
            context.error(node, token, f"'{name}' is listed twice")
            continue
        names.append(name)
    return tuple(names)


def lower(variant, lowerer):
    return {"alone": [lowerer.type_index[name] for name in variant.mate_alone_loses],
            "series": [lowerer.type_index[name] for name in variant.mate_needs_check_by]}


def active(tables):
    return bool(tables["alone"] or tables["series"])


def diff_wording(words):
    """How `fairyforge diff` words a change of these rules."""
    for field, title in (("mate_alone_loses", "mate by lone pieces"),
                         ("mate_needs_check_by", "mate without a decisive check")):
        _register(words, field, title)


def _register(words, field, title):
    @words.variant_wording(field)
    def wording(cmp, old, new):
        old, new = tuple(old), cmp.map_b(tuple(new))
        if set(old) != set(new):
            cmp.add("game_end", words.change_kind(old, new), title,
                    f"{title}: {_list(old)} -> {_list(new)}")


def _list(names):
    return ", ".join(names) if names else "no such rule"
