"""How each piece of a game is drawn: its shape and label, chosen from the rule model.

A piece is recognised by what it does, not by its name: its move atoms (direction,
kind, range, move/capture) are compared with those of the classic pieces, written
here in Betza and read by the compiler's own Betza reader.  Conditions that do not
change the piece's character (an initial double step, a move allowed only across the
river, a confinement) are left out of the comparison.

Shapes: "pentagon" (a shogi piece, pointing at the opponent), "disc" (a xiangqi piece
or a generic one) and "glyph" (a Unicode chess symbol).
"""

from dataclasses import dataclass
from functools import lru_cache

from .compiler.betza import parse_betza
from .compiler.resolve import merge_atoms

# Betza of a classic piece -> label (first player's, second player's).
CHESS = {"K": ("\u2654", "\u265a"), "Q": ("\u2655", "\u265b"), "R": ("\u2656", "\u265c"),
         "B": ("\u2657", "\u265d"), "N": ("\u2658", "\u265e"),
         "fmWfcFifmnD": ("\u2659", "\u265f"), "fmWfcF": ("\u2659", "\u265f")}
SHOGI = {"K": ("\u738b", "\u7389"), "R": ("\u98db", "\u98db"), "B": ("\u89d2", "\u89d2"),
         "WfF": ("\u91d1", "\u91d1"), "FfW": ("\u9280", "\u9280"),
         "ffN": ("\u6842", "\u6842"), "fR": ("\u9999", "\u9999"), "fW": ("\u6b69", "\u6b69"),
         "RF": ("\u9f8d", "\u9f8d"), "BW": ("\u99ac", "\u99ac")}
# A promoted piece that moves as a gold keeps a sign of what it was (pawn: tokin).
PROMOTED_GOLD = {"fW": "\u3068", "FfW": "\u5168", "ffN": "\u572d", "fR": "\u674f"}
XIANGQI = {"W": ("\u5e25", "\u5c07"), "K": ("\u5e25", "\u5c07"), "F": ("\u4ed5", "\u58eb"),
           "nA": ("\u76f8", "\u8c61"), "nN": ("\u508c", "\u99ac"), "R": ("\u4fe5", "\u8eca"),
           "mRcpR": ("\u70ae", "\u7832"), "fsW": ("\u5175", "\u5352"),
           "fW": ("\u5175", "\u5352")}
CHESS_FONT = "DejaVu Sans, Segoe UI Symbol, Noto Sans Symbols2, FreeSerif, sans-serif"
CJK_FONT = ("Noto Sans CJK JP, Noto Serif CJK JP, WenQuanYi Micro Hei, Hiragino Mincho ProN, "
            "Yu Mincho, MS Mincho, SimSun, serif")
LATIN_FONT = "DejaVu Sans, Arial, sans-serif"


def signature(atoms):
    """What a piece does, without the conditions that leave its character alone."""
    return frozenset((a.dx, a.dy, a.kind, a.max_steps, a.moves, a.captures, bool(a.lame_path))
                     for a in atoms)


@lru_cache(maxsize=None)
def _table(name):
    table = {"chess": CHESS, "shogi": SHOGI, "xiangqi": XIANGQI,
             "promoted_gold": {k: (v, v) for k, v in PROMOTED_GOLD.items()}}[name]
    return {signature(merge_atoms(parse_betza(betza))): labels
            for betza, labels in table.items()}


def moves_like_chess_pawn(piece):
    """Does a piece of the rule model move as a chess pawn (double step or not)?"""
    return _table("chess").get(signature(piece.moves)) == CHESS["fmWfcF"]


@dataclass(frozen=True)
class PieceStyle:
    shape: str          # "pentagon", "disc" or "glyph"
    labels: tuple       # (first player's, second player's) label
    font: str
    promoted: bool      # drawn in red, as promoted shogi pieces are
    palace: bool        # the game has a palace (xiangqi colours)

    def draw(self, colour, upside_down):
        """The piece's SVG, centred on (0, 0)."""
        label = self.labels[colour]
        if self.shape == "glyph":
            return _glyph(label, colour, self.font)
        if self.shape == "pentagon":
            return _pentagon(label, self.font, self.promoted, upside_down)
        return _disc(label, colour, self.font, self.palace, self.promoted)


@lru_cache(maxsize=None)
def piece_styles(game):
    """A PieceStyle for each piece type of a game, in the order of game.meta["pieces"]."""
    variant = game.variant
    palace = any(p.royal and p.confined_to is not None for p in variant.pieces)
    changes_sides = bool(variant.captures.to_hand_white or variant.captures.to_hand_black)
    turning = variant.symmetry == "rotate" and changes_sides
    bases = {choice: piece for piece in variant.pieces if piece.promotion
             for choice in piece.promotion.choices}
    return [_style(piece, bases, palace, turning) for piece in variant.pieces]


def _style(piece, bases, palace, turning):
    sig = signature(piece.moves)
    promoted = piece.letter.startswith("+")
    letter = piece.letter.split("/")[0].lstrip("+").rstrip("~") or \
        piece.letter.split("/")[-1].upper().lstrip("+").rstrip("~")
    kanji = _table("shogi").get(sig)
    base = bases.get(piece.name)
    if promoted and base is not None and sig == signature(merge_atoms(parse_betza("WfF"))):
        kanji = _table("promoted_gold").get(signature(base.moves), kanji)
    chinese = _table("xiangqi").get(sig) if palace else None
    if turning:
        labels = kanji or chinese and (chinese[0], chinese[0])
        return _lettered("pentagon", labels, letter, promoted, palace)
    if palace:
        return _lettered("disc", chinese, letter, promoted, palace)
    glyph = _table("chess").get(sig)
    if glyph and not promoted:
        return PieceStyle("glyph", glyph, CHESS_FONT, False, False)
    if kanji:
        return PieceStyle("pentagon", kanji, CJK_FONT, promoted, False)
    return _lettered("disc", None, letter, promoted, False)


def _lettered(shape, labels, letter, promoted, palace):
    if labels:
        return PieceStyle(shape, labels, CJK_FONT, promoted, palace)
    return PieceStyle(shape, (letter, letter), LATIN_FONT, promoted, palace)


def _text(label, font, fill, size, dy=0.0, extra=""):
    return (f'<text x="0" y="{dy:g}" text-anchor="middle" dominant-baseline="central" '
            f'font-family="{font}" font-size="{size}" fill="{fill}"{extra}>{label}</text>')


def _glyph(label, colour, font):
    # The solid chess symbol for both sides (the outline symbols are too heavy in
    # common fonts): white with a dark outline for the first player, dark for the
    # second; the symbol's cut-outs let the square show through as detail.
    solid = chr(ord(label) + 6) if colour == 0 else label
    fill = "#fff" if colour == 0 else "#111"
    return _text(solid + "\ufe0e", font, fill, 34, 1,
                 ' stroke="#111" stroke-width="1.6" stroke-linejoin="round" '
                 'paint-order="stroke"')


def _pentagon(label, font, promoted, upside_down):
    rotate = ' transform="rotate(180)"' if upside_down else ""
    ink = "#c21807" if promoted else "#111"
    size = 20 if len(label) == 1 else 13
    return (f'<g{rotate}><path d="M0,-17 L11,-12 L14,16 L-14,16 L-11,-12 Z" fill="#f6dca0" '
            f'stroke="#5a4632" stroke-width="1.2"/>{_text(label, font, ink, size, 2)}</g>')


def _disc(label, colour, font, palace, promoted):
    if palace:
        fill, ring, ink = "#f7e7c4", "#7a5c2e", "#c21807" if colour == 0 else "#111"
    else:
        fill, ring, ink = ("#fafafa", "#222", "#111") if colour == 0 else ("#333", "#000", "#fff")
    if promoted and not palace:
        ink = "#c21807" if colour == 0 else "#ff8a7a"
    size = 20 if len(label) == 1 else 14
    return (f'<circle r="16" fill="{fill}" stroke="{ring}" stroke-width="1.5"/>'
            f'<circle r="13" fill="none" stroke="{ring}" stroke-width="0.6"/>'
            f'{_text(label, font, ink, size, 0.5)}')
