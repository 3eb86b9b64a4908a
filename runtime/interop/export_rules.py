"""The export of the later rule kinds that Fairy-Stockfish has options for: makpong's
check escape, draw odds, explosions, Chess960 castling, marked double steps and en
passant regions, promotion limits, extinction below a count or of every piece,
pseudo-royal pieces, castling by a non-royal piece, and the placement rules.  Each
writer takes the rule model and the piece types (export._piece_types) and returns ini
lines, or raises `ExportRefusal` with the reason FSF cannot say it."""

from .errors import ExportRefusal


def _letters(names, types):
    return "".join(types[n][1] for n in names)


def check_escape(v, types):
    return ["makpongRule = true"] if v.royal_stays_in_check else []


def draw_odds(v, types):
    if not v.draw_odds:
        return []
    if v.points:
        raise ExportRefusal("Fairy-Stockfish has one materialCounting: draw odds and points "
                            "together")
    return [f"materialCounting = {v.draw_odds}drawodds"]


def explosions(v, types):
    """blastOnCapture: FSF spares its pawn type beside every blast (position.cpp), so the
    pieces spared nearby must be the pieces written as its pawn."""
    if not v.explosions:
        return []
    pawns = {name for name, (option, _) in types.items() if option == "pawn"}
    if set(v.explosion_spared_nearby) != pawns:
        raise ExportRefusal("Fairy-Stockfish spares its pawn type beside an explosion, and "
                            "only it (explosions spare … nearby)")
    lines = ["blastOnCapture = true"]
    if v.explosion_immune:
        lines.append(f"blastImmuneTypes = {_letters(v.explosion_immune, types)}")
    return lines


def capture_bans(v, types):
    """mutuallyImmuneTypes: pieces that may not take a piece of their own type (other
    bans are refused, export_ends.refusals)."""
    if not v.capture_bans:
        return []
    return [f"mutuallyImmuneTypes = {_letters([a for a, _ in v.capture_bans], types)}"]


def chess960(v, types):
    return ["chess960 = true"] if v.chess960_castling else []


def marked_double_steps(v, types):
    """FSF marks every double step once an en passant type is not its pawn type, and
    only then (position.cpp, do_move)."""
    if not v.en_passant:
        return []
    custom = any(types[name][0] != "pawn" for name in v.en_passant)
    if custom != bool(v.ep_always_marked):
        raise ExportRefusal("Fairy-Stockfish marks every double step exactly when an en "
                            "passant piece is not its pawn type (mark every double step)")
    return []


def en_passant_region(v, types):
    """Our zone holds the squares passed over; FSF's region for a side holds the squares
    where that side's capturer lands: the other side's passed squares."""
    from .export import _squares
    zone = v.en_passant_zone
    if zone is None:
        return []
    return [f"enPassantRegionWhite = {_squares(zone.black, v)}",
            f"enPassantRegionBlack = {_squares(zone.white, v)}"]


def promotion_limits(v, types):
    """promotionLimit (movegen.cpp: a promotion to a type while fewer than N of it), and
    `only to captured pieces`, which is the limit of each choice's setup count."""
    limits = dict(v.promotion_limits)
    captured_only = [p for p in v.pieces if p.promotion and p.promotion.captured_only]
    if captured_only and (v.captures.to_hand_white or v.captures.to_hand_black):
        raise ExportRefusal("Fairy-Stockfish has promotion limits, not promotion only to "
                            "captured pieces, which with captures going to hand differ")
    for piece in captured_only:
        for choice in piece.promotion.choices:
            limits.setdefault(choice, _setup_count(v, choice))
    if not limits:
        return []
    pairs = list(dict.fromkeys(f"{types[name][1]}:{n}" for name, n in limits.items() if n > 0))
    if len(pairs) != len({types[name][1] for name in limits}):
        raise ExportRefusal("Fairy-Stockfish reads a promotion limit of 0 as no limit")
    return [f"promotionLimit = {' '.join(pairs)}"]


def _setup_count(v, name):
    """White's pieces of this type in the setup (FSF's limit counts one side's)."""
    from ..fen import parse_board, split_board_field
    tokens = {t: (p.name, side) for p in v.pieces
              for t, side in zip(p.tokens, ("white", "black")) if t}
    board, _ = split_board_field(v.setup.split()[0], v.ranks)
    placed = parse_board(board, v.files, v.ranks, tokens, walls=set())
    return sum(1 for owner in placed.values() if owner == (name, "white"))


def extinction(v, types):
    """`win by extinction of … below N` (one count for every listed type in FSF) and
    `win by extinction of all pieces`; pseudo-royal pieces are FSF's extinction types
    with extinctionPseudoRoyal (then FSF's extinction does not end the game)."""
    lines = []
    below = set(dict(v.extinction_below).values())
    if v.extinction_all:
        if v.extinction or v.pseudo_royal:
            raise ExportRefusal("Fairy-Stockfish has one extinctionPieceTypes: every piece "
                                "together with listed types")
        lines += ["extinctionValue = loss", "extinctionPieceTypes = *",
                  "extinctionPieceCount = 0"]
    if below:
        if len(below) > 1 or len(dict(v.extinction_below)) != len(v.extinction):
            raise ExportRefusal("Fairy-Stockfish has one extinctionPieceCount for all the "
                                "listed types")
        lines.append(f"extinctionPieceCount = {below.pop() - 1}")
    return lines + _pseudo_royal(v, types)


def _pseudo_royal(v, types):
    if not v.pseudo_royal:
        return []
    if v.extinction or v.extinction_all or v.extinction_wins or v.bare_king:
        raise ExportRefusal("Fairy-Stockfish's pseudo-royal pieces are its extinction "
                            "types: pseudo royal pieces together with an extinction rule")
    most = v.pseudo_royal_most or v.files * v.ranks
    return ["extinctionValue = loss",
            f"extinctionPieceTypes = {_letters(v.pseudo_royal, types)}",
            f"extinctionPieceCount = {most - 1}", "extinctionPseudoRoyal = true",
            f"dupleCheck = {'true' if v.duple_check else 'false'}"]


def castling_piece(v, types):
    """castlingKingPiece: the piece that castles, where it is not the royal one."""
    pieces = {c.piece for c in v.castling if c.piece and not v.piece(c.piece).royal}
    if not pieces:
        return []
    if len(pieces) > 1:
        raise ExportRefusal("Fairy-Stockfish castles with one piece type")
    return [f"castlingKingPiece = {types[pieces.pop()][1]}"]


def placement(v, types):
    lines = ["mustDrop = true"] if v.drops_compulsory else []
    opposite = [d.piece for d in v.drops if d.opposite_colours]
    if opposite:
        if {types[name][0] for name in opposite} != {"bishop"}:
            raise ExportRefusal("Fairy-Stockfish drops its bishop type only on opposite "
                                "colours")
        lines.append("dropOppositeColoredBishop = true")
    if v.castling_dropped_rook:
        lines.append("castlingDroppedPiece = true")
    return lines


WRITERS = (check_escape, draw_odds, explosions, capture_bans, chess960, marked_double_steps,
           en_passant_region, promotion_limits, extinction, castling_piece, placement)
