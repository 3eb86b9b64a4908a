"""`pseudo royal PIECES [when at most N] [, duple check]`: pieces besides the royal one
that a side may not leave attacked (Fairy-Stockfish's extinctionPseudoRoyal with
extinctionPieceTypes and extinctionPieceCount = N - 1, and dupleCheck).  Coregal chess
makes every queen pseudo-royal; sho shogi a king (or crown prince) while it is its
side's only one; spartan chess the same, with Black's two kings lost by "duple check".

A side's pieces of a listed type are pseudo-royal while it has at most N of that type
on the board (always, without `when at most N`).  A move may not leave one of them
attacked (a capture of a pseudo-royal piece of the opponent is no exception, but for
one taken en passant, as in Fairy-Stockfish); with `duple check`
it may also not leave every piece of the listed types attacked at once, whatever their
number.  A castling piece that is pseudo-royal may not castle out of or through an
attack.  A side whose pseudo-royal piece is attacked is in check (checkmate when it has
no legal move).  As in Fairy-Stockfish, the counts are those before the move, and a
promotion to a listed type that raises the count above N takes the pseudo-royalty of
all of that side's pieces of the type.

Engine (templates/rules/pseudo_royal.j2): the why_illegal hook tests the mover's
pseudo-royal pieces after the move; `pseudo_royal_attacked` (called by the core's
in_check only in games with HAS_PSEUDO_ROYALS) says whether a side is in check through
them.  Oracle: pyffish with its built-in coregal, shoshogi and spartan
(tests/test_fsf_catalog.py, tests/test_royals.py); the reference interpreter does not
implement it.
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node
from .extinction import listed_names

ORDER = 80

GRAMMAR = '''
// pseudo royal PIECES [when at most N] [, duple check]: pieces that may not be left attacked
pseudo_royal_decl: "pseudo" "royal" name_list ("when" "at" "most" INT)? DUPLE_CHECK?
DUPLE_CHECK.2: /,?[ \\t]*duple[ \\t]+check(?![A-Za-z0-9_])/
'''
KEYWORDS = ("pseudo",)
TERMINAL_WORDS = {"DUPLE_CHECK": ", duple check"}


@dataclass
class PseudoRoyal(Node):
    pieces: list
    most: Any = None            # the INT token of `when at most N`
    duple: Any = None           # the DUPLE_CHECK token

    @classmethod
    def from_parts(cls, parts):
        most = next((p for p in parts[1:] if getattr(p, "type", "") == "INT"), None)
        duple = next((p for p in parts[1:] if getattr(p, "type", "") == "DUPLE_CHECK"), None)
        return cls(parts[0], most, duple)


STATEMENTS = {"pseudo_royal_decl": PseudoRoyal}
FIELDS = [("pseudo_royal", tuple, ()),          # names of the pseudo-royal types
          ("pseudo_royal_most", int, 0),        # ... while a side has at most this many (0: always)
          ("duple_check", bool, False)]         # every one of them attacked is check too
TEMPLATE = "rules/pseudo_royal.j2"
REFUSALS = {"PSEUDO_ROYAL_ATTACKED": "it would leave a piece of {mover} that may not be "
                                     "attacked (pseudo royal) attacked"}


def resolve(nodes, context):
    """The types add up; the last `when at most N` and any `duple check` hold."""
    names = listed_names(nodes, context, "is royal already: list the pieces that are "
                         "royal besides it")
    most, duple = 0, False
    for node in nodes:
        if node.most is not None:
            most = int(node.most)
            if most < 1:
                context.error(node, node.most, "'when at most' needs a count of at least 1")
        duple = duple or node.duple is not None
    return {"pseudo_royal": tuple(names), "pseudo_royal_most": most, "duple_check": duple}


def lower(variant, lowerer):
    return {"types": [lowerer.type_index[name] for name in variant.pseudo_royal],
            "most": variant.pseudo_royal_most, "duple": variant.duple_check}


def active(tables):
    return bool(tables["types"])


def _words(names, most, duple):
    if not names:
        return "no pseudo-royal pieces"
    text = " and ".join(names) + " may not be left attacked"
    if most:
        text += f" while a side has at most {most}"
    return text + (" (duple check)" if duple else "")


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("pseudo_royal", "pseudo_royal_most", "duple_check")
    def pseudo_royal(cmp, old, new):
        old = (tuple(old[0]), old[1], old[2])
        new = (cmp.map_b(tuple(new[0])), new[1], new[2])
        if old != new:
            cmp.add("game_end", words.change_kind(old[0], new[0]), "pseudo-royal pieces",
                    f"{_words(*old)} -> {_words(*new)}")
