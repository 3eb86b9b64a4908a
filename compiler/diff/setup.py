"""The wording of the start position: the squares, the hands and the FEN's other fields.

Setups are compared as parsed positions, piece by piece (so a renamed piece on the same
square is no difference); a setup that does not parse is compared as text.
"""

from collections import Counter

from fairyforge.fen import parse_fen

from .registry import variant_wording
from .words import piece_tokens, square_name

# The FEN fields besides the board and the hands, in the order they are reported.
STATE_FIELDS = (("en_passant", "en passant square"), ("halfmove", "halfmove clock"),
                ("fullmove", "fullmove number"), ("lifted", "lifted restrictions"))


def parse_setup(variant):
    """The start position with every piece as (side, piece name), or None."""
    table, by_letter = {}, {}
    for piece in variant.pieces:
        for side, token in zip(("white", "black"), piece_tokens(piece)):
            if token:
                table.setdefault(token, (piece.name, side))
        by_letter[piece.letter] = piece.name
        table.setdefault(piece.letter, (piece.name, "white"))
    try:
        parsed = parse_fen(variant.setup, variant.files, variant.ranks, table)
    except Exception:           # noqa: BLE001 - an unparsable setup is compared as text
        return None
    names = {p.name for p in variant.pieces}

    def normal(value):
        # the FEN reader gives back the table's values; an older one gave (letter, side)
        first, side = value
        return (side, first if first in names else by_letter.get(first, first))

    parsed.board = {sq: normal(v) for sq, v in parsed.board.items()}
    parsed.holdings = [normal(v) for v in parsed.holdings]
    return parsed


def _piece_words(entry, rename=None):
    """'white knight'; `rename` maps B's piece names to A's (to compare, not to show)."""
    side, name = entry
    return f"{side} {rename(name) if rename else name}"


@variant_wording("setup")
def setup(cmp, fen_a, fen_b):
    pa, pb = parse_setup(cmp.a), parse_setup(cmp.b)
    if pa is None or pb is None:
        if fen_a != fen_b:
            cmp.add("setup", "changed", "setup", f"setup: {fen_a} -> {fen_b}")
        return
    _squares(cmp, pa, pb)
    _hands(cmp, pa, pb)
    if pa.side != pb.side:
        cmp.add("setup", "changed", "side to move", f"side to move first: {pa.side} -> {pb.side}")
    if set(pa.castling.replace("-", "")) != set(pb.castling.replace("-", "")):
        cmp.add("setup", "changed", "castling rights",
                f"castling rights at the start: {pa.castling} -> {pb.castling}")
    for attr, noun in STATE_FIELDS:
        if not hasattr(pa, attr) or not hasattr(pb, attr):
            continue
        if getattr(pa, attr) != getattr(pb, attr):
            cmp.add("setup", "changed", noun,
                    f"{noun} at the start: {getattr(pa, attr)} -> {getattr(pb, attr)}")


def _squares(cmp, pa, pb):
    squares = []
    for sq in sorted(set(pa.board) | set(pb.board), key=lambda s: (s[1], s[0])):
        ea, eb = pa.board.get(sq), pb.board.get(sq)
        wa = _piece_words(ea) if ea else "empty"
        if wa != (_piece_words(eb, cmp.name_a) if eb else "empty"):
            squares.append(f"{square_name(*sq)}: {wa} -> {_piece_words(eb) if eb else 'empty'}")
    if squares:
        cmp.add("setup", "changed", "board", f"start position: {len(squares)} "
                f"square{'s' if len(squares) != 1 else ''} differ", squares)


def _hands(cmp, pa, pb):
    hands_a = Counter(_piece_words(h) for h in pa.holdings)
    hands_b = Counter(_piece_words(h, cmp.name_a) for h in pb.holdings)
    if hands_a == hands_b:
        return
    details = [f"{words}: {hands_a[words]} -> {hands_b[words]} in hand"
               for words in sorted(set(hands_a) | set(hands_b))
               if hands_a[words] != hands_b[words]]
    cmp.add("setup", "changed", "hands", "start position: the pieces in hand differ", details)
