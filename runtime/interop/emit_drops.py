"""The drop rules beyond the drop zone, written from a Fairy-Stockfish configuration:
the flags of `drop` (not doubled / not tripled, mating loses, either side up, on
opposite colours), compulsory drops, castling rights gained by drops, and `stuck pieces
allowed` where Fairy-Stockfish's `immobilityIllegal = false` changes anything.
Generators as in emit.py."""

from . import fsf, regions
from .errors import ImportRefusal
from .lines import Line


def hand_order_clash(config, variant):
    """FSF writes a hand in descending order of its piece-type numbers (custom pieces
    above every built-in type); Fairyforge's FEN writer (runtime/fen_out.py, hand_order)
    knows FSF's types by their moves.  The first pair of pieces (FSF types) that can be
    held and that the two would write in different orders, or None."""
    from ..fen_out import hand_order
    if not variant.drops:
        return None
    by_letter = {p.letter: t for t, p in config.pieces.items() if t != fsf.KING}
    held = _holdable(config)
    ours = [by_letter[p.tokens[0].lower()] for p in (variant.pieces[i] for i in
                                                     hand_order(variant))
            if p.tokens[0] and p.tokens[0].lower() in by_letter and not p.royal]
    ours = [t for t in ours if t in held]
    order = list(fsf.PIECE_OPTIONS)
    theirs = sorted(ours, key=order.index, reverse=True)
    for a, b in zip(ours, theirs):
        if a != b:
            return b, a
    return None


def _holdable(config):
    """The FSF types that can reach a hand: those of the start position (board and
    hands), and the promotion choices where a captured promoted pawn stays promoted
    (dropLoop; else it goes to hand as a pawn).  FSF's types that are only the target of
    promotedPieceType (pandemonium's customPiece1) never stand in the setup: the import
    writes them as `+` pieces, which return to hand unpromoted."""
    board = config.value("startFen").split()[0]
    letters = {ch.lower() for ch in board if ch.isalpha()}
    held = {t for t, p in config.pieces.items() if p.letter in letters}
    if config.flag("dropLoop"):
        from .emit import Writer
        held |= set(Writer(config, {}, "mirror").types("promotionPieceTypesWhite"))
    return held


def all_flags(w):
    """The flags of `drop all`: dropPromoted lets a piece that has a promoted type be
    dropped as it (movegen.cpp, `drop_promoted() && promoted_piece_type(pt)`)."""
    return " either side up" if w.config.flag("dropPromoted") else ""


def piece_flags(w, fsf_type, no_doubled):
    """The flags of one piece's `drop` statement ("" when it has none)."""
    cfg, flags = w.config, ""
    if fsf_type == no_doubled:
        # position.h: a file is closed once it holds dropNoDoubledCount of the piece
        count = cfg.value("dropNoDoubledCount")
        if count not in ("1", "2"):
            w.refuse("dropNoDoubledCount", "a count other than 0 (never dropped), 1 (not "
                                           "doubled) or 2 (not tripled) is not in the "
                                           "language yet")
        flags += " not doubled" if count == "1" else " not tripled"
    if fsf_type == "shogiPawn" and cfg.flag("shogiPawnDropMateIllegal"):
        flags += " mating loses"            # FSF's convention: the mating drop loses
    if fsf_type == "bishop" and cfg.flag("dropOppositeColoredBishop"):
        flags += " on opposite colours"
    return flags


def compulsory(w):
    """mustDrop (of every type: mustDropType `*`)."""
    if w.config.flag("mustDrop"):
        return [Line("drops are compulsory", ("mustDrop",))]
    return []


def dropped_castling(w):
    """castlingDroppedPiece: the castlings of the castling files on the castling rank,
    which a king or rook dropped there brings into force (position.cpp, do_move); the
    start position need not hold the pieces."""
    cfg = w.config
    rooks = w.types("castlingRookPieces")
    if len(rooks) != 1 or w.one_type("castlingKingPiece") not in (fsf.KING, None):
        w.refuse("castlingDroppedPiece", "castling with dropped pieces needs the royal king "
                                         "and one rook type")
    from .emit import _file
    king = _file(w, "castlingKingFile")
    lines = []
    for side, rank in (("white", int(cfg.value("castlingRank")) - 1),
                       ("black", w.ranks - int(cfg.value("castlingRank")))):
        for wing, step, rook_default in (("Kingside", 1, w.files - 1), ("Queenside", -1, 0)):
            option = f"castlingRook{wing}File"
            rook = _file(w, option) if cfg.value(option) else rook_default
            king_to = _file(w, f"castling{wing}File")
            squares = [regions.name((f, rank)) for f in (king, king_to, rook, king_to - step)]
            lines.append(Line("castling for {} king {} to {}, rook {} to {}".format(
                side, *squares), ("castlingDroppedPiece", f"castling{wing}File")))
    return lines + [Line(f"castling with dropped {w.names[rooks[0]]}",
                         ("castlingDroppedPiece",))]


def needs_stuck_pieces(variant):
    """Whether the language's rule against stuck pieces forbids something in this game
    (compiler.model.Variant, written out whole, so that its promotions say where FSF
    forces them) that Fairy-Stockfish's immobilityIllegal = false allows: a drop onto a
    square where the piece could never move again, or a move there that FSF does not
    force to promote (docs/language.md, section 3.27)."""
    from ..compiler.geometry import PieceWalk
    squares = [(f, r) for f in range(variant.files) for r in range(variant.ranks)]
    droppable = {d.piece: d for d in variant.drops}
    for piece in variant.pieces:
        for colour, side in enumerate(("white", "black")):
            if piece.tokens[colour] is None:
                continue
            walk = PieceWalk.of(variant, piece, colour)
            dead = {regions.name(sq) for sq in squares if not walk.can_move_from(sq)}
            if piece.confined_to is not None:        # never dropped outside it either
                dead &= set(piece.confined_to.for_side(side))
            drop = droppable.get(piece.name)
            if drop and dead & set(drop.zone.for_side(side)):
                return True
            promotion = piece.promotion
            if promotion and (dead & set(promotion.zone.for_side(side))
                              - set(promotion.forced.for_side(side))):
                return True
    return False
