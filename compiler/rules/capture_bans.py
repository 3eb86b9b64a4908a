"""`no capture of VICTIMS by CAPTURERS`: pieces of the capturing types may not take
pieces of the victim types (janggi: a cannon may not capture a cannon; Fairy-
Stockfish builds that into its janggi cannon).  The capturing piece's type is the one
it had before the move (a promotion does not change it).

`no hop over SCREENS by HOPPERS`: the hopping moves (Betza `p` and `g`) of the hopper
types may not jump a piece of the screen types, of either side (janggi: a cannon never
jumps a cannon).  It is a property of the moves themselves, so the generated move and
attack code skips such hops (compiler/templates/moves.j2, `screen_allowed`, from the
lowered atoms' `screen_codes`): a cannon behind a cannon gives no check.

Engine (templates/rules/capture_bans.j2): the why_illegal hook refuses such a capture
(CAPTURE_BANNED) after it is made.  A banned capture never takes the royal piece (the
victims cannot be royal), so check and attack tests are unchanged.  Oracle: pyffish's
janggi for the cannon's captures (tests/test_captures.py); the reference interpreter
does not implement it.
"""

from dataclasses import dataclass

from ..nodes import Node

ORDER = 75

GRAMMAR = '''
// no capture of VICTIMS by CAPTURERS
capture_ban_decl: "no" "capture" "of" name_list "by" name_list
// no hop over SCREENS by HOPPERS
screen_ban_decl: "no" "hop" "over" name_list "by" name_list
'''
KEYWORDS = ("no",)


@dataclass
class NoCapture(Node):
    victims: list
    capturers: list


@dataclass
class NoHopOver(Node):
    screens: list
    hoppers: list


STATEMENTS = {"capture_ban_decl": NoCapture, "screen_ban_decl": NoHopOver}
FIELDS = [("capture_bans", tuple, ()),      # (capturer, victim) name pairs
          ("screen_bans", tuple, ())]       # (hopper, screen) name pairs
TEMPLATE = "rules/capture_bans.j2"
REFUSALS = {"CAPTURE_BANNED": "a `no capture of` rule forbids this piece to take that one"}


def resolve(nodes, context):
    pairs, screens = [], []
    for node in nodes:
        if isinstance(node, NoHopOver):
            screens += _screen_pairs(node, context, screens)
            continue
        victims = _names(node, node.victims, context, victims=True)
        capturers = _names(node, node.capturers, context, victims=False)
        pairs += [(c, v) for c in capturers for v in victims if (c, v) not in pairs]
    return {"capture_bans": tuple(pairs), "screen_bans": tuple(screens)}


def _screen_pairs(node, context, known):
    """(hopper, screen) pairs of one `no hop over` line; a hopper must hop."""
    screens = [n for n in (context.piece_name(node, t) for t in node.screens) if n]
    hoppers = []
    for token in node.hoppers:
        name = context.piece_name(node, token)
        if name is None:
            continue
        if not any(a.kind in ("hop", "grasshop") for a in context.pieces[name]["atoms"]):
            context.error(node, token, f"'{name}' never hops over a piece (no Betza p or g "
                          "move): `no hop over` names hoppers such as a cannon (pR)")
            continue
        hoppers.append(name)
    return [(h, s) for h in hoppers for s in screens if (h, s) not in known]


def _names(node, tokens, context, victims):
    names = []
    for token in tokens:
        name = context.piece_name(node, token)
        if name is None:
            continue
        if victims and context.pieces[name]["royal"]:
            context.error(node, token, f"'{name}' is royal: a capture of it may not be "
                          "forbidden (it would still give check)")
            continue
        names.append(name)
    return names


def lower(variant, lowerer):
    return {"pairs": [(lowerer.type_index[c], lowerer.type_index[v])
                      for c, v in variant.capture_bans]}


def active(tables):
    return bool(tables["pairs"])        # (screen bans live in the move code: moves.j2)


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("capture_bans")
    def capture_bans(cmp, old, new):
        old = {tuple(pair) for pair in old}
        new = {tuple(cmp.map_b(tuple(pair))) for pair in new}
        for capturer, victim in sorted(new - old):
            cmp.add("captures", "added", "capture ban",
                    f"a {capturer} may not capture a {victim}")
        for capturer, victim in sorted(old - new):
            cmp.add("captures", "removed", "capture ban",
                    f"a {capturer} may capture a {victim} again")

    @words.variant_wording("screen_bans")
    def screen_bans(cmp, old, new):
        old = {tuple(pair) for pair in old}
        new = {tuple(cmp.map_b(tuple(pair))) for pair in new}
        for hopper, screen in sorted(new - old):
            cmp.add("pieces", "added", "screen ban", f"a {hopper} may not hop over a {screen}")
        for hopper, screen in sorted(old - new):
            cmp.add("pieces", "removed", "screen ban", f"a {hopper} may hop over a {screen} again")
