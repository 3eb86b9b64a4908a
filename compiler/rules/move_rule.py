"""`move rule N [, restarted by PIECES]`: a draw after N moves by each side without a
capture or a move of a piece that only moves forward (chess's fifty-move rule); with
`restarted by`, the moves of the listed pieces restart the count instead of those of
the forward-only ones (Fairy-Stockfish's nMoveRuleTypes).

Engine: the search scores such a position as a draw (templates/rules/move_rule.j2);
Position.outcome reports it.  Oracle: tests/oracle/interpreter.py,
`OraclePosition.outcome`.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 60

GRAMMAR = '''
// move rule N: a draw after N moves by each side without a capture or a pawn move
// `restarted by captures only`: no piece's move restarts it (only captures, drops
// and promotions do)
move_rule_decl: "move" "rule" INT ("," "restarted" "by" (name_list | CAPTURES_ONLY))?
CAPTURES_ONLY.2: /captures[ \t]+only(?![A-Za-z0-9_])/
'''
KEYWORDS = ("move",)
TERMINAL_WORDS = {"CAPTURES_ONLY": "captures only"}
LIMIT = 10000


@dataclass
class MoveRule(Node):
    moves: Any
    pieces: Any = None                      # the `restarted by` names, or None

    @classmethod
    def from_parts(cls, parts):
        return cls(parts[0], parts[1] if len(parts) > 1 else None)


STATEMENTS = {"move_rule_decl": MoveRule}
FIELDS = [("move_rule", int, 0),
          ("move_rule_pieces", object, None)]    # None: the forward-only pieces
TEMPLATE = "rules/move_rule.j2"


def resolve(nodes, context):
    if not nodes:
        return {"move_rule": 0, "move_rule_pieces": None}
    node = nodes[-1]
    moves = context.small_int(node.moves)
    if not 1 <= moves <= LIMIT:
        context.error(node, node.moves, f"move rule {node.moves}: the number of moves must "
                      f"be between 1 and {LIMIT}")
    return {"move_rule": moves, "move_rule_pieces": _restarting(node, context)}


def _restarting(node, context):
    """The pieces named after `restarted by`, in order, once each (None without it;
    none for `captures only`)."""
    if node.pieces is None:
        return None
    if not isinstance(node.pieces, list):     # the CAPTURES_ONLY token
        return ()
    names = []
    for token in node.pieces:
        name = context.piece_name(node, token)
        if name is not None and name not in names:
            names.append(name)
    return tuple(names)


def restarts_clock(variant, piece):
    """Whether a move of `piece` (a model piece) restarts the move-rule clock: one of the
    `restarted by` pieces, else a piece all of whose moves go forward (the chess pawn).
    A counting rule (makruk's) keeps the same clock, so it restarts it likewise.
    Without either only captures, drops and promotions do, as in Fairy-Stockfish,
    whose clock keeps counting in shogi and xiangqi."""
    if not (variant.move_rule or variant.counting):
        return False
    if variant.move_rule_pieces is not None:
        return piece.name in variant.move_rule_pieces
    return bool(piece.moves) and all(a.dy > 0 for a in piece.moves)


def lower(variant, lowerer):
    return {"moves": variant.move_rule, "undoable": _undoable_moves(variant, lowerer)}


def _undoable_moves(variant, lowerer):
    """[(type index, {colour: board-array offsets})] of the `restarted by` pieces'
    quiet moves that the piece could undo with a quiet move back (Pawnsideways'
    sideways step): Fairy-Stockfish's nMoveRuleTypes restart the count only on moves
    that cannot be undone.  Empty for the derived forward-only pieces."""
    if variant.move_rule_pieces is None:
        return []
    reach = max(variant.files, variant.ranks)
    undoable = []
    for index, piece in enumerate(variant.pieces):
        if piece.name not in variant.move_rule_pieces:
            continue
        steps = {(a.dx * k, a.dy * k) for a in piece.moves
                 if a.moves and not a.initial and a.kind in ("leap", "ride")
                 for k in range(1, 2 if a.kind == "leap" else (a.max_steps or reach) + 1)}
        back = sorted((dx, dy) for dx, dy in steps if (-dx, -dy) in steps)
        if back:
            undoable.append((index, {c: sorted({lowerer.offset(dx, dy, c) for dx, dy in back})
                                     for c in (0, 1)}))
    return undoable


def active(tables):
    return bool(tables["moves"])


def _words(n, pieces=None):
    if not n:
        return "no move rule"
    if pieces is not None and not pieces:
        return f"{n}-move rule restarted by captures only"
    return f"{n}-move rule" + (f" restarted by {', '.join(pieces)}" if pieces is not None else "")


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule (compiler/diff/rules.py gives
    the helpers)."""
    @words.variant_wording("move_rule", "move_rule_pieces")
    def move_rule(cmp, old, new):
        new = (new[0], None if new[1] is None else tuple(cmp.map_b(tuple(new[1]))))
        if (old[0], None if old[1] is None else tuple(old[1])) != new:
            cmp.add("game_end", words.change_kind(old[0], new[0]), "move rule",
                    f"{_words(*old)} -> {_words(*new)}")
