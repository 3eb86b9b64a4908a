"""Board pictures: any position of any game as SVG text, like python-chess's chess.svg.

    import fairyforge as ff
    from fairyforge import svg
    pos = ff.load("shogi").start()
    open("shogi.svg", "w").write(svg.board(pos, regions=("promotion",)))

Pieces are drawn in a style chosen for each piece from the rule model (never from the
game's name): in a game whose captured pieces change sides and whose board turns for
the second player (shogi), every piece is a pentagon pointing at the opponent, since
the direction is what tells the owner; in a game whose royal piece is confined to a
palace (xiangqi), pieces are discs; otherwise a piece that moves like a chess piece is
drawn with its Unicode chess symbol, one that moves like a shogi piece as a pentagon,
and anything else as a disc with its letter.  Labels follow the piece's moves: kanji
for shogi movers, Chinese characters for xiangqi movers, the FEN letter otherwise (the
piece's name is in a <title>, shown as a tooltip).

Every drawn square and piece carries data- attributes (data-square, data-piece,
data-side, data-count) so that programs (the studio's script, the tests) can read
the picture back.
"""

import itertools
import re
from xml.sax.saxutils import escape

from .encoding import code_colour, code_type
from .fen import parse_square, square_name
from .svg_pieces import piece_styles

SQUARE = 40                  # user units per square; `size` scales the whole picture
MARGIN = 18                  # room for the coordinates
HAND_ROW = 46                # height of a hand's row
COLOURS = {
    "light": "#f0d9b5", "dark": "#b58863", "plain": "#eed8a8", "line": "#5a4632",
    "lastmove": "#cdd26a", "check": "#ff3030", "arrow": "#15781b",
    "promotion_white": "#4a7bd0", "promotion_black": "#d04a4a", "palace": "#7a5c2e",
    "drop": "#3aa05a", "river": "#7fb3d5", "marked": "#3a7bd5",
}
SIDES = ("white", "black")
_pictures = itertools.count(1)


def board(pos, *, flipped=False, lastmove=None, check=None, arrows=(), regions=(),
          size=None, coordinates=True):
    """The position as SVG text.

    flipped: draw the board from the second player's side.  lastmove: a Move (or UCI
    text) whose squares are tinted.  check: a square name to mark as in check (True:
    the royal piece of the side to move, if it is in check).  arrows: (from, to)
    square names, Move objects or UCI texts.  regions: names of the rule model's
    regions to shade ("promotion", "palace", "river", "drop") or collections of square
    names.  size: the picture's width in pixels (default: 40 per square).
    """
    layout = _Layout(pos.game, flipped)
    out = [_header(layout, size)]
    out.append(_squares(layout, pos, lastmove, check))
    out += [_region(layout, pos, region) for region in regions]
    if coordinates:
        out.append(_coordinates(layout))
    out.append(_pieces(layout, pos))
    if layout.hands:
        out.append(_hands(layout, pos))
    out += [_arrow(layout, pos, arrow) for arrow in arrows]
    out.append("</svg>\n")
    return "".join(out)


class _Layout:
    """Where things go: the board between two hand rows, squares SQUARE units wide."""

    def __init__(self, game, flipped):
        meta = game.meta
        self.game, self.flipped = game, flipped
        self.files, self.ranks = meta["files"], meta["ranks"]
        self.hands = bool(meta["has_drops"] or meta["setup_has_holdings"])
        self.hand_row = HAND_ROW if self.hands else 0
        self.left = MARGIN
        self.top = self.hand_row + MARGIN // 2
        self.width = self.files * SQUARE + 2 * MARGIN
        self.height = self.top + self.ranks * SQUARE + MARGIN + self.hand_row
        self.styles = piece_styles(game)
        # Ids unique to this picture: pages show several boards, and a marker or
        # gradient reference must find its own picture's definition.
        self.uid = f"ff{next(_pictures)}"
        # Checkered squares for chess-like games; a plain lined board where pieces
        # turn (shogi) or have palaces (xiangqi), as those games are drawn.
        self.checkered = not (all(s.shape == "pentagon" for s in self.styles)
                              or any(s.palace for s in self.styles))

    def corner(self, f, r):
        """Top-left user coordinates of square (file, rank)."""
        col = self.files - 1 - f if self.flipped else f
        row = r if self.flipped else self.ranks - 1 - r
        return self.left + col * SQUARE, self.top + row * SQUARE

    def centre(self, f, r):
        x, y = self.corner(f, r)
        return x + SQUARE / 2, y + SQUARE / 2


def _header(layout, size):
    width = size or layout.width
    height = round(width * layout.height / layout.width)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
            f'viewBox="0 0 {layout.width} {layout.height}" width="{width}" '
            f'height="{height}" class="fairyforge-board" '
            f'data-files="{layout.files}" data-ranks="{layout.ranks}" '
            f'data-flipped="{str(layout.flipped).lower()}">'
            f'<title>{escape(layout.game.title)}</title>'
            f'<defs><marker id="{layout.uid}-arrowhead" markerWidth="3" markerHeight="4" refX="1.5" '
            'refY="2" orient="auto"><path d="M0,0.5 L3,2 L0,3.5 z" '
            f'fill="{COLOURS["arrow"]}"/></marker>'
            f'<radialGradient id="{layout.uid}-check"><stop offset="0%" stop-color="#ff0000"/>'
            '<stop offset="50%" stop-color="#e70000"/><stop offset="100%" '
            'stop-color="#ff0000" stop-opacity="0"/></radialGradient></defs>')


def _square_of(pos, value):
    """(file, rank) of a square name, or None."""
    meta = pos.game.meta
    return parse_square(value, meta["files"], meta["ranks"]) if value else None


def _move_squares(move):
    """(from, to) square names of a Move or UCI text (from is None for a drop)."""
    if move is None:
        return None, None
    text = str(move)
    found = re.findall(r"[a-z][0-9]{1,2}", text.split("@")[-1])
    if "@" in text:
        return None, found[0] if found else None
    return (found[0], found[1]) if len(found) >= 2 else (None, None)


def _squares(layout, pos, lastmove, check):
    frm, to = _move_squares(lastmove)
    tinted = {frm, to} - {None}
    if check is True:
        check = royal_square(pos) if pos.is_check() else None
    parts = ['<g class="squares">']
    for r in range(layout.ranks):
        for f in range(layout.files):
            name = square_name(f, r)
            x, y = layout.corner(f, r)
            if layout.checkered:
                kind = "light" if (f + r) % 2 else "dark"
            else:
                kind = "plain"
            fill = COLOURS["lastmove"] if name in tinted else COLOURS[kind]
            classes = kind + (" lastmove" if name in tinted else "")
            stroke = "" if layout.checkered else f' stroke="{COLOURS["line"]}" stroke-width="1"'
            parts.append(f'<rect class="square {classes}" data-square="{name}" x="{x}" y="{y}" '
                         f'width="{SQUARE}" height="{SQUARE}" fill="{fill}"{stroke}/>')
            if name == check:
                parts.append(f'<rect class="check" data-square="{name}" x="{x}" y="{y}" '
                             f'width="{SQUARE}" height="{SQUARE}" '
                             f'fill="url(#{layout.uid}-check)"/>')
    parts.append("</g>")
    return "".join(parts)


def royal_square(pos):
    """The square of the royal piece of the side to move, or None (e.g. in hand)."""
    meta = pos.game.meta
    royal, colour = meta["royal_type"], pos.engine.state()[0]
    for i, code in enumerate(pos.engine.board()):
        if code >= 2 and code_type(code) == royal and code_colour(code) == colour:
            return square_name(i % meta["files"], i // meta["files"])
    return None


def region_squares(game, name):
    """The squares a named region of the rule model covers, as {side: set of (f, r)}.

    promotion: where each side's pieces promote; palace: where confined pieces must
    stay; drop: where each side may drop something; river: the squares on either side
    of a line that confinement or a zone-only move divides the board at.
    """
    variant = game.variant
    files, ranks = variant.files, variant.ranks

    def squares(square_set, side):
        return {parse_square(s, files, ranks) for s in square_set.for_side(side)}

    found = {side: set() for side in SIDES}
    for side in SIDES:
        if name == "promotion":
            for piece in variant.pieces:
                if piece.promotion is not None:
                    found[side] |= squares(piece.promotion.zone, side)
        elif name == "palace":
            for piece in variant.pieces:
                if piece.confined_to is not None and not _whole_ranks(
                        squares(piece.confined_to, side), files):
                    found[side] |= squares(piece.confined_to, side)
        elif name == "drop":
            for drop in variant.drops:
                found[side] |= squares(drop.zone, side)
        elif name != "river":
            raise ValueError(f"unknown region '{name}': use promotion, palace, river or drop")
    return found


def river_lines(game):
    """Ranks r such that a river runs between rank r and r + 1 (0-based): where a
    confinement zone or a zone-only move's area is a block of whole ranks."""
    variant = game.variant
    files, ranks = variant.files, variant.ranks
    blocks = []
    for piece in variant.pieces:
        if piece.confined_to is not None:
            blocks.append(piece.confined_to.white)
        blocks += [a.only_in.white for a in piece.moves if a.only_in is not None]
    lines = set()
    for block in blocks:
        cells = {parse_square(s, files, ranks) for s in block}
        if _whole_ranks(cells, files):
            used = sorted({r for _, r in cells})
            for edge in (used[0] - 1, used[-1]):
                if 0 <= edge < ranks - 1:
                    lines.add(edge)
    return sorted(lines)


def _whole_ranks(cells, files):
    """Is this set of squares a block of consecutive whole ranks (a board half)?"""
    used = sorted({r for _, r in cells})
    return bool(used) and len(cells) == files * len(used) and used == list(
        range(used[0], used[-1] + 1))


def _region(layout, pos, region):
    if not isinstance(region, str):
        cells = {_square_of(pos, s) for s in region} - {None}
        return _tint(layout, cells, COLOURS["marked"], "marked")
    if region == "river":
        return _river(layout, pos.game)
    found = region_squares(pos.game, region)
    if region == "promotion":
        return (_tint(layout, found["white"], COLOURS["promotion_white"], "promotion white")
                + _tint(layout, found["black"], COLOURS["promotion_black"], "promotion black"))
    if region == "drop":
        side = pos.turn
        return _tint(layout, found[side], COLOURS["drop"], f"drop {side}")
    return _tint(layout, found["white"] | found["black"], COLOURS[region], region)


def _tint(layout, cells, colour, label):
    parts = [f'<g class="region {label}" fill="{colour}" fill-opacity="0.22">']
    for f, r in sorted(cells):
        x, y = layout.corner(f, r)
        parts.append(f'<rect data-square="{square_name(f, r)}" x="{x}" y="{y}" '
                     f'width="{SQUARE}" height="{SQUARE}"/>')
    return "".join(parts) + "</g>"


def _river(layout, game):
    parts = ['<g class="region river">']
    for r in river_lines(game):
        _, y_low = layout.corner(0, r)
        _, y_high = layout.corner(0, r + 1)
        y = (max(y_low, y_high))
        parts.append(f'<rect x="{layout.left}" y="{y - 4}" width="{layout.files * SQUARE}" '
                     f'height="8" fill="{COLOURS["river"]}" fill-opacity="0.7"/>')
    return "".join(parts) + "</g>"


def _coordinates(layout):
    parts = ['<g class="coordinates" font-family="sans-serif" font-size="10" '
             'fill="#555" text-anchor="middle">']
    bottom = layout.top + layout.ranks * SQUARE + 12
    for f in range(layout.files):
        x, _ = layout.centre(f, 0)
        parts.append(f'<text x="{x}" y="{bottom}">{chr(97 + f)}</text>')
    for r in range(layout.ranks):
        _, y = layout.centre(0, r)
        parts.append(f'<text x="{MARGIN / 2}" y="{y + 3.5}">{r + 1}</text>')
    return "".join(parts) + "</g>"


def _pieces(layout, pos):
    meta = pos.game.meta
    files = meta["files"]
    parts = ['<g class="pieces">']
    for i, code in enumerate(pos.engine.board()):
        if code < 2:
            continue
        typ, colour = code_type(code), code_colour(code)
        f, r = i % files, i // files
        cx, cy = layout.centre(f, r)
        token = meta["pieces"][typ]["tokens"][colour]
        attrs = (f'class="piece" data-square="{square_name(f, r)}" data-piece="{token}" '
                 f'data-side="{SIDES[colour]}"')
        parts.append(draw_piece(layout, typ, colour, cx, cy, attrs))
    return "".join(parts) + "</g>"


def draw_piece(layout, typ, colour, cx, cy, attrs, scale=1.0):
    """One piece as an SVG group centred on (cx, cy)."""
    style = layout.styles[typ]
    # Pieces point at their opponent: the second player's turn upside down, unless
    # the board is flipped, which swaps who sits at the bottom.
    upside_down = (colour == 1) != layout.flipped
    body = style.draw(colour, upside_down)
    transform = f"translate({cx:g},{cy:g})"
    if scale != 1.0:
        transform += f" scale({scale:g})"
    name = layout.game.meta["pieces"][typ]["name"]
    return (f'<g {attrs} transform="{transform}"><title>{escape(SIDES[colour])} '
            f'{escape(name)}</title>{body}</g>')


def _hands(layout, pos):
    meta = pos.game.meta
    pieces = meta["pieces"]
    ntypes = len(pieces)
    counts = pos.engine.hands()
    parts = ['<g class="hands">']
    for colour in (0, 1):
        at_bottom = (colour == 0) != layout.flipped
        y = (layout.height - HAND_ROW / 2) if at_bottom else HAND_ROW / 2
        side = SIDES[colour]
        parts.append(f'<g class="hand" data-side="{side}">')
        x = layout.left + SQUARE / 2
        for typ in range(ntypes):
            count = counts[colour * ntypes + typ]
            if not count:
                continue
            token = pieces[typ]["tokens"][colour]
            attrs = (f'class="hand-piece" data-side="{side}" data-piece="{token}" '
                     f'data-drop="{drop_letter(pos.game, typ)}" data-count="{count}"')
            parts.append(draw_piece(layout, typ, colour, x, y, attrs, 0.85))
            parts.append(f'<text class="count" x="{x + 15:g}" y="{y + 16:g}" '
                         'font-family="sans-serif" font-size="11" font-weight="bold" '
                         f'fill="#222">{count}</text>')
            x += SQUARE * 1.1
        parts.append("</g>")
    return "".join(parts) + "</g>"


def drop_letter(game, typ):
    """The letter a drop of this type is written with (P in P@e4)."""
    tokens = game.meta["pieces"][typ]["tokens"]
    return (tokens[0] or tokens[1].upper()).rstrip("~")


def _arrow(layout, pos, arrow):
    if isinstance(arrow, (tuple, list)):
        frm, to = arrow
    else:
        frm, to = _move_squares(arrow)
    a, b = _square_of(pos, frm), _square_of(pos, to)
    if a is None or b is None:
        raise ValueError(f"an arrow needs two squares of the board, got {arrow!r}")
    (x1, y1), (x2, y2) = layout.centre(*a), layout.centre(*b)
    return (f'<line class="arrow" data-from="{frm}" data-to="{to}" x1="{x1:g}" y1="{y1:g}" '
            f'x2="{x2:g}" y2="{y2:g}" stroke="{COLOURS["arrow"]}" stroke-width="6" '
            f'stroke-opacity="0.75" stroke-linecap="round" '
            f'marker-end="url(#{layout.uid}-arrowhead)"/>')
