"""The statements of the moves that go beyond a piece's Betza, written from a
Fairy-Stockfish configuration: gating from the hand (`gating` with `seirawanGating`),
the first moves of Cambodian chess (`gating` with `cambodianMoves`), the duck
(`wallingRule = duck`) and petrification (`petrifyOnCaptureTypes`).  Generators as in
emit.py (a `Writer` in, `Line`s out, `TAKE_BACK` for a child that would have to take
back a parent's rule)."""

from . import fsf, regions
from .lines import TAKE_BACK, Line

# Fairy-Stockfish's Cambodian moves (movegen.cpp, "Special moves"): while its square
# keeps its gating right, the king leaps as a knight to an empty square of the next
# rank when not in check, losing the right when an enemy rook moves onto its rank or
# file (position.cpp, do_move: the rook's attacks on an empty board); the fers (met)
# leaps two squares straight ahead to an empty square.
CAMBODIAN_KING = "mfsN"
CAMBODIAN_FERS = "mfD"

GATING_OPTIONS = ("gating", "seirawanGating", "cambodianMoves")


def gating(w):
    """gating: rights in the start FEN's castling field, used by S-chess's gates from
    the hand (seirawanGating) or by the Cambodian first moves (cambodianMoves)."""
    cfg = w.config
    seirawan, cambodian = cfg.flag("seirawanGating"), cfg.flag("cambodianMoves")
    if not cfg.flag("gating"):
        if seirawan or cambodian:
            w.refuse("seirawanGating" if seirawan else "cambodianMoves",
                     "needs gating = true (Fairy-Stockfish keeps no gating rights without it, "
                     "so the option does nothing)")
        return _absent(w, lambda p: p.gate_pieces or p.first_moves)
    if seirawan and cambodian:
        w.refuse("cambodianMoves", "seirawanGating and cambodianMoves together are not in the "
                                   "language yet (one use of the gating rights per game)")
    other = _absent(w, (lambda p: p.first_moves) if seirawan else (lambda p: p.gate_pieces))
    if other == TAKE_BACK:                  # (the parent's other use of the rights)
        return TAKE_BACK
    if seirawan:
        return [Line("gating from hand", ("gating", "seirawanGating"))]
    if cambodian:
        return _cambodian(w)
    w.refuse("gating", "gating rights without seirawanGating or cambodianMoves are not in "
                       "the language (nothing uses them)")


def _absent(w, test):
    """In a child: a parent's rule of the same family that the ini does not keep."""
    return TAKE_BACK if w.extends and test(w.parent) else []


def _cambodian(w):
    """`first move` statements for FSF's king and fers types, those the game has."""
    lines = []
    sources = ("gating", "cambodianMoves")
    if fsf.KING in w.config.pieces:
        lost = f", lost to {w.names['rook']} on its lines" if "rook" in w.config.pieces else ""
        lines.append(Line(f"first move {w.names[fsf.KING]} {CAMBODIAN_KING}, not in check"
                          f"{lost}", sources))
    if "fers" in w.config.pieces:
        lines.append(Line(f"first move {w.names['fers']} {CAMBODIAN_FERS}", sources))
    if not lines:
        w.refuse("cambodianMoves", "the Cambodian moves are the king's and the fers's, and "
                                   "the game has neither")
    return lines


def rights_letters(w):
    """The castling field's letters that are gating rights (not K, Q, k, q): the files
    of the squares keeping a gating right, which the setup keeps as written."""
    if not w.config.flag("gating"):
        return ""
    fields = w.config.value("startFen").split()
    field = fields[2] if len(fields) > 2 and not fields[2].isdigit() else "-"
    return "".join(ch for ch in field if ch.isalpha() and ch not in "KQkq")


def walling(w):
    """wallingRule = duck: `place a duck after every move`; the other walling rules,
    walling regions and wallOrMove are not in the language yet."""
    cfg = w.config
    rule = cfg.value("wallingRule")
    if rule == "none":
        return _absent(w, lambda p: p.walling)
    if rule != "duck":
        w.refuse("wallingRule", f"the walling rule '{rule}' is not in the language yet (the "
                                "duck is: `place a duck after every move`)")
    if cfg.flag("wallOrMove"):
        w.refuse("wallOrMove", "a wall instead of a move (wallOrMove) is not in the language "
                               "yet")
    board = regions.everything(w.files, w.ranks)
    for option in ("wallingRegionWhite", "wallingRegionBlack"):
        if w.squares(option) != board:
            w.refuse(option, "a duck placed in part of the board only is not in the "
                             "language yet")
    return [Line("place a duck after every move", ("wallingRule",))]


def petrify(w):
    """petrifyOnCaptureTypes: `petrify PIECE… after capturing` (with the `+` pieces
    promoted to a listed type, which FSF counts as that type)."""
    cfg = w.config
    if cfg.flag("petrifyBlastPieces"):
        w.refuse("petrifyBlastPieces", "petrifying the pieces an explosion removes is not in "
                                       "the language yet")
    types = w.types("petrifyOnCaptureTypes")
    if not types:
        return _absent(w, lambda p: p.petrify_on_capture)
    lines = [Line(f"petrify {', '.join(w.names_of(types))} after capturing",
                  ("petrifyOnCaptureTypes",))]
    if w.extends and w.parent.petrify_on_capture:
        return TAKE_BACK                    # (the lists of several statements add up)
    return lines
