"""`captures explode`: a capture blows up the capturing piece and every piece on the
eight squares around the capture square (atomic chess; Fairy-Stockfish's
blastOnCapture).  `explosions spare PIECES nearby` keeps pieces of these types that
stand next to the blast (FSF always spares pawns there), and `explosions spare PIECES`
keeps them everywhere, their own captures included (FSF's blastImmuneTypes, atomar's
kings).

With a royal piece (atomic): a move may not blow up the mover's royal piece, so a
royal piece never captures; a move that blows up the enemy's is legal even when it
leaves the mover's attacked; two royal pieces side by side cannot check each other
(neither can be taken without blowing up its taker's), and a side whose royal piece
has exploded has lost.  Without one (nocheckatomic, atomar: the king is an ordinary
piece) `win by extinction of king` ends the game instead.

Engine (templates/rules/explosions.j2): the after_make hook removes the blast and keeps
what it removed in Pos.rule_hist (RULE_BYTES = 9 per ply), the unmake hook puts it back, the
why_illegal hook refuses a self-explosion (ROYAL_EXPLODED), the royal_attacked hook
makes touching royal pieces safe (check, castling through check), and the game_end
hook ends the game when a royal piece has exploded.  Oracle: pyffish's atomic,
nocheckatomic and atomar (tests/test_atomic.py, tests/test_fsf_catalog.py); the
reference interpreter does not implement it.
"""

from dataclasses import dataclass

from ..nodes import Node

ORDER = 15

GRAMMAR = '''
// captures explode: the capturer and the pieces around the capture square are removed
explosion_decl: "captures" "explode"
// explosions spare PIECES [nearby]: these survive blasts (only beside them, with nearby)
explosion_spare_decl: "explosions" "spare" name_list NEARBY?
NEARBY: "nearby"
'''
KEYWORDS = ("captures", "explosions")


@dataclass
class CapturesExplode(Node):
    pass


@dataclass
class ExplosionsSpare(Node):
    pieces: list
    nearby: object = None


STATEMENTS = {"explosion_decl": CapturesExplode, "explosion_spare_decl": ExplosionsSpare}
FIELDS = [("explosions", bool, False),
          ("explosion_spared_nearby", tuple, ()),   # survive beside a blast
          ("explosion_immune", tuple, ())]          # survive every blast
TEMPLATE = "rules/explosions.j2"
RULE_BYTES = 9                 # per move: what the blast removed from its nine squares
REFUSALS = {"ROYAL_EXPLODED": "the explosion would destroy {mover}'s {royal}"}
ENDS = {"ROYAL_EXPLODED_END": "explosion"}


def resolve(nodes, context):
    on = any(isinstance(node, CapturesExplode) for node in nodes)
    nearby, immune = [], []
    for node in nodes:
        if isinstance(node, ExplosionsSpare):
            if not on:
                context.error(node, node.pieces[0], "'explosions spare' needs "
                              "'captures explode' (there are no explosions to spare)")
            names = [context.piece_name(node, token) for token in node.pieces]
            target = nearby if node.nearby else immune
            target += [name for name in names if name and name not in target]
    return {"explosions": on, "explosion_spared_nearby": tuple(nearby),
            "explosion_immune": tuple(immune)}


def lower(variant, lowerer):
    royal = next((p for p in variant.pieces if p.royal), None)
    owned = royal is not None and all(token is not None for token in royal.tokens)
    immune = [lowerer.type_index[name] for name in variant.explosion_immune]
    return {"on": variant.explosions,
            "nearby": [lowerer.type_index[name] for name in variant.explosion_spared_nearby],
            "immune": immune,
            # a royal piece both sides own, which a blast can destroy
            "royal": variant.explosions and owned and lowerer.type_index[royal.name] not in immune}


def active(tables):
    return tables["on"]


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    words.flag_wording("explosions", "captures", "explosions",
                       "a capture blows up the capturer and the pieces around it",
                       "captures no longer explode")

    _names_wording(words, "explosion_spared_nearby", "spared beside a blast")
    _names_wording(words, "explosion_immune", "immune to blasts")


def _names_wording(words, field, what):
    """Register the wording of a change to one of the lists of spared pieces."""
    @words.variant_wording(field)
    def compare(cmp, old, new):
        old, new = set(old), set(cmp.map_b(tuple(new)))
        if old != new:
            cmp.add("captures", words.change_kind(old, new), "explosions",
                    f"{what}: {', '.join(sorted(old)) or 'none'} -> "
                    f"{', '.join(sorted(new)) or 'none'}")
