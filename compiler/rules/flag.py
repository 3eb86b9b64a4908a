"""`win by PIECES reaching REGION [, SIDE may reply]`: a side that brings one of these
pieces into its version of the region has won (king of the hill, racing kings;
Fairy-Stockfish's flagPiece and flagRegionWhite/Black).  With `, black may reply` the
first player's arrival does not end the game at once when Black, not in check, can
bring a piece of its own into its region with its next move: the game goes on, and
it is a draw if Black does arrive, a win for White if not (FSF's flagMove, used by
racing kings, where only the second player gets that reply).  With `, after a reply`
an arrival never ends the game at once: the other side always moves, and the side
that arrived wins if, when its turn comes again, one of its listed pieces still
stands in its region (FSF's flagMove with a piece that is not the king: jeson mor).

Engine (templates/rules/flag.j2): the game_end hook looks at the region's squares
only; the reply test generates the replying side's moves once, when the first player
has arrived.  As in Fairy-Stockfish, only the side that just moved is looked at (a
FEN whose side to move already stands in its region plays on), unless the reply rule
is on.  An ended game has no legal moves.  Position.outcome reports
Outcome(winner, "goal reached") or Outcome(None, "goal reached") for the draw.
Oracle: pyffish, with its built-in kingofthehill and racingkings and with variants.ini
configurations (tests/test_flag.py); the reference interpreter does not implement it.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 75

GRAMMAR = '''
// win by PIECES reaching REGION [, SIDE may reply | , after a reply | , if safe]
flag_decl: "win" "by" name_list "reaching" region_expr (FLAG_REPLY | FLAG_AFTER_REPLY | FLAG_SAFE)?
FLAG_REPLY.2: /,[ \\t]*(white|black)[ \\t]+may[ \\t]+reply(?![A-Za-z0-9_])/
FLAG_AFTER_REPLY.2: /,[ \\t]*after[ \\t]+a[ \\t]+reply(?![A-Za-z0-9_])/
FLAG_SAFE.2: /,[ \\t]*if[ \\t]+safe(?![A-Za-z0-9_])/
'''
KEYWORDS = ("win",)
TERMINAL_WORDS = {"FLAG_REPLY": ", black may reply", "FLAG_AFTER_REPLY": ", after a reply",
                  "FLAG_SAFE": ", if safe"}


@dataclass
class WinByReaching(Node):
    pieces: list
    region: Any
    reply: Any = None           # the FLAG_REPLY, FLAG_AFTER_REPLY or FLAG_SAFE token

    @classmethod
    def from_parts(cls, parts):
        return cls(*parts)


STATEMENTS = {"flag_decl": WinByReaching}
FIELDS = [("flag_pieces", tuple, ()),       # names of the pieces that must arrive
          ("flag_region", object, None),    # SquareSet: where they must arrive
          ("flag_reply", str, ""),          # "", the side that may still reply, or
                                            # "after": every arrival waits for a reply
          ("flag_safe", bool, False)]       # arriving counts only where not attacked
TEMPLATE = "rules/flag.j2"
ENDS = {"FLAG": "goal reached"}


def resolve(nodes, context):
    """The last statement counts (a child replaces its parent's goal)."""
    if not nodes:
        return {}
    node = nodes[-1]
    names = []
    for token in node.pieces:
        name = context.piece_name(node, token)
        if name is not None and name not in names:
            names.append(name)
    errors = len(context.bag.items)
    region = context.as_set(node, node.region)
    for side in ("white", "black"):
        if len(context.bag.items) == errors and not region.for_side(side):
            context.error(node, node.pieces[0], f"the goal region has no square for {side}")
    safe = getattr(node.reply, "type", "") == "FLAG_SAFE"
    reply = str(node.reply).lstrip(", \t").split()[0] if node.reply and not safe else ""
    if reply and reply not in ("white", "black"):
        reply = "after"                       # `, after a reply`
    return {"flag_pieces": tuple(names), "flag_region": region, "flag_reply": reply,
            "flag_safe": safe}


def lower(variant, lowerer):
    if not variant.flag_pieces:
        return {"types": []}
    return {"types": [lowerer.type_index[name] for name in variant.flag_pieces],
            "squares": [sorted(lowerer.side_squares(variant.flag_region, colour))
                        for colour in (0, 1)],
            "reply": ("white", "black").index(variant.flag_reply)
            if variant.flag_reply in ("white", "black") else -1,
            "after_reply": variant.flag_reply == "after", "safe": variant.flag_safe}


def active(tables):
    return bool(tables["types"])


def _words(pieces, region, reply):
    if not pieces:
        return "no goal region"
    squares = ", ".join(region.white) if region else ""
    text = f"a {' or '.join(pieces)} reaching {squares} wins"
    if reply == "after":
        return text + " (after a reply)"
    if reply == "safe":
        return text + " (where not attacked)"
    return text + (f" ({reply} may reply)" if reply else "")


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule (compiler/diff/rules.py gives
    the helpers)."""
    @words.variant_wording("flag_pieces", "flag_region", "flag_reply", "flag_safe")
    def flag(cmp, old, new):
        old = (tuple(old[0]), old[1], old[2] or ("safe" if old[3] else ""))
        new = (cmp.map_b(tuple(new[0])), new[1], new[2] or ("safe" if new[3] else ""))
        if old != new:
            cmp.add("game_end", words.change_kind(old[0], new[0]), "goal",
                    f"{_words(*old)} -> {_words(*new)}")
