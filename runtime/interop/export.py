"""A game's rule model written as a Fairy-Stockfish variants.ini section, or the reason
Fairy-Stockfish cannot play it.

The section has no parent: Fairy-Stockfish's default template with every piece given
(a built-in piece type where one moves the same, else a customPiece with the Betza),
the board, promotions, drops, castling and the game ends as options.  Anything the
model says that no option can say raises `ExportRefusal` with the reason; nothing is
left out silently.
"""

# A piece's unconditional moves, as FEN writing matches pieces to FSF's built-in types.
from ..fen_out import _signature
from . import export_ends, export_rules, fsf, regions
from .errors import ExportRefusal


def export_variant(variant, name=None):
    """The variants.ini text of one section for `variant` (compiler.model.Variant),
    named `name` (default: the variant's name)."""
    _refuse_unsupported(variant)
    types = _piece_types(variant)
    lines = [f"[{name or variant.name}]", f"maxRank = {variant.ranks}",
             f"maxFile = {variant.files}"]
    for writer in (_pieces, _promotions, _steps, _castling, _drops, _confinement,
                   _game_ends, _repetition, *export_ends.WRITERS, *export_rules.WRITERS):
        lines += writer(variant, types)
    lines.append(f"startFen = {export_ends.setup_fen(variant)}")
    head = f"# {variant.title}: written by `fairyforge export {variant.name}`\n"
    return head + "\n".join(lines) + "\n"


def _refuse_unsupported(v):
    if any(p.letter.startswith("+") and p.promotion for p in v.pieces) or v.dead_drops_allowed:
        # FSF has them (pieceDemotion, dropPromoted, immobilityIllegal); not written yet
        raise ExportRefusal("the exporter does not write flipping pieces (flip), drops "
                            "either side up and stuck pieces allowed yet")
    checks = (
        (v.captures.to_hand_white != v.captures.to_hand_black,
         "per-side capture dispositions (captures go to hand for one side only)"),
        (bool(v.captures.becomes), "captured pieces that change type (captured … becomes/is "
                                   "removed)"),
        (v.deployment is not None, "a deployment phase (deploy before moving)"),
        (bool(v.restrictions), "restrictions (until … may not)"),
        (v.stalemating_illegal, "stalemating illegal"),
        (v.perpetual_chase is not None, "the perpetual chase rule of the language"),
        (v.perpetual_check == "illegal", "perpetual check illegal (FSF's perpetual check "
                                         "loses at the repetition)"),
        (v.perpetual_check_one_piece, "perpetual check by one piece"),
        (v.flag_reply == "white", "a reply for White after Black reaches the goal"),
        (bool(v.extinction) and bool(v.bare_king), "both extinction and bare king rules"),
        (v.repetition_count == 0, "game without a repetition rule (it always has one: nFoldRule)"),
        (any(p.tokens[0] is None or p.tokens[1] is None for p in v.pieces
             if p is not export_ends.unowned_royal(v)), "pieces that only one side owns (X/-)"),
        *export_ends.refusals(v),
    )
    for failed, reason in checks:
        if failed:
            raise ExportRefusal(reason if reason.startswith("the exporter") else
                                f"Fairy-Stockfish has no {reason}")


def _promotes_to_ordinary(v):
    return any(p.promotion and not v.piece(c).letter.startswith("+")
               for p in v.pieces if p.promotion for c in p.promotion.choices)


def _has_twins(v):
    return any(p.letter.endswith("~") for p in v.pieces)


def _piece_types(v):
    """{our piece name: (FSF option, letter)}: a built-in type that moves the same, else a
    custom piece slot.  A `+` piece is the type of a piece that moves the same where
    there is one (shogi's +P is a gold), else a type of its own with a spare letter;
    twins of `captured promoted pieces revert` are FSF's promoted pieces (`Q~`)."""
    from ..compiler.betza import parse_betza
    builtin = {}
    for name, betza in fsf.PIECE_TYPES.items():
        if betza and name not in fsf.SPECIAL_TYPES:     # (immobile: no moves to match)
            builtin.setdefault(_signature(parse_betza(betza.replace("e", ""))), name)
    slots = _Slots(v, builtin)
    for piece in v.pieces:
        if piece is export_ends.unowned_royal(v):
            continue                        # (no royal piece: `king = -`)
        if not piece.letter.endswith("~") and not piece.letter.startswith("+"):
            slots.assign(piece, _letter(piece))
    for piece in v.pieces:
        if piece.letter.startswith("+"):
            slots.assign(piece, None)
    by_token = {p.tokens[0]: p.name for p in v.pieces}
    for twin in v.pieces:                   # Q~ is FSF's promoted queen: the queen's type
        if twin.letter.endswith("~"):
            slots.types[twin.name] = slots.types[by_token[twin.tokens[0].rstrip("~")]]
    return slots.types


class _Slots:
    """Fairy-Stockfish piece types handed out to a game's pieces."""

    def __init__(self, v, builtin):
        self.v, self.builtin, self.types = v, builtin, {}
        self.builtin_commoner = next(sig for sig, name in builtin.items() if name == "commoner")
        self.customs, self.used = list(fsf.CUSTOM_PIECES), set()
        taken = {p.tokens[0].lstrip("+").lower() for p in v.pieces if p.tokens[0]}
        self.spare = [c for c in "zyxwvutsrqponmlkjihgfedcba" if c not in taken]

    def assign(self, piece, letter):
        if piece.royal:
            # FSF's atomic blows up a pseudo-royal commoner, never its king type
            if self.v.explosions and _signature(piece.moves) == self.builtin_commoner:
                self.types[piece.name] = ("commoner", letter)
                self.used.add("commoner")
            else:
                self.types[piece.name] = (fsf.KING, letter)
            return
        if letter is None:                  # a + piece: share a type that moves the same
            same = [o for o in self.types.values()
                    if o[0] != fsf.KING and self._moves(o) == _signature(piece.moves)]
            if same and not any(a.initial or a.only_in for a in piece.moves):
                self.types[piece.name] = same[0]
                return
            if not self.spare:
                raise ExportRefusal("Fairy-Stockfish has too few letters for the game's "
                                    "promoted pieces")
            letter = self.spare.pop(0)
        option = ("soldier" if _soldier_rank(piece, self.v)
                  else self.builtin.get(_signature(piece.moves)))
        if option == "pawn" and piece.promotion is None:
            option = None                   # FSF's pawn type never stays on the last rank
        if option is None or option in self.used or _has_conditions(piece, option):
            if not self.customs:
                raise ExportRefusal("Fairy-Stockfish has 25 custom piece types, the game "
                                    "needs more")
            option = self.customs.pop(0)
        self.used.add(option)
        self.types[piece.name] = (option, letter)

    def _moves(self, slot):
        owner = next(p for p in self.v.pieces if self.types.get(p.name) == slot)
        return _signature(owner.moves)


def _soldier_rank(piece, v):
    """The rank from which a forward-stepping piece also steps sideways (`fW` and `sW in
    ranks N-last`): Fairy-Stockfish's soldier with soldierPromotionRank = N."""
    plain = [a for a in piece.moves if a.only_in is None]
    extra = [a for a in piece.moves if a.only_in is not None]
    if not extra or [(a.dx, a.dy, a.kind) for a in plain] != [(0, 1, "leap")] or \
            sorted((a.dx, a.dy, a.kind) for a in extra) != [(-1, 0, "leap"), (1, 0, "leap")]:
        return None
    ranks = {int(s[1:]) for s in extra[0].only_in.white}
    low = min(ranks)
    if ranks != set(range(low, v.ranks + 1)) or len(extra[0].only_in.white) != \
            v.files * len(ranks):
        return None
    return low


def _has_conditions(piece, option):
    """Initial or region-only moves a built-in type does not have (the pawn's double
    step and the soldier's sideways steps are options of their own)."""
    extra = [a for a in piece.moves if a.initial or a.only_in is not None]
    if option == "pawn":
        return any(not a.initial or (a.dx, a.dy, a.kind) != (0, 2, "leap") for a in extra)
    if option == "soldier":
        return any(a.initial or abs(a.dx) != 1 or a.dy != 0 for a in extra)
    return bool(extra)


def _letter(piece):
    token = piece.tokens[0]
    if piece.tokens[1] != token.lower():
        raise ExportRefusal(f"Fairy-Stockfish has no per-side letters ({piece.name} is "
                            f"{token}/{piece.tokens[1]})")
    return token.lower()


def _pieces(v, types):
    lines, written = [], set()
    for piece in v.pieces:
        if piece.name not in types:         # the royal type nobody owns
            continue
        option, letter = types[piece.name]
        if option in written:               # a + piece or a twin sharing a type
            continue
        written.add(option)
        if option.startswith("customPiece") or (option == fsf.KING and piece.betza != "K"):
            lines.append(f"{option} = {letter}:{_betza(piece)}")
        else:
            lines.append(f"{option} = {letter}")
        if option == "soldier" and _soldier_rank(piece, v):
            lines.append(f"soldierPromotionRank = {_soldier_rank(piece, v)}")
    return lines


def _betza(piece):
    if "(" in piece.betza:
        raise ExportRefusal(f"{piece.name}'s moves in a region (move … in) have no "
                            "Fairy-Stockfish option")
    return piece.betza


def _squares(square_set, v):
    """A side's squares as a Fairy-Stockfish bitboard: `*N` for whole ranks."""
    cells = {(ord(s[0]) - 97, int(s[1:]) - 1) for s in square_set}
    text = regions.expression(frozenset(cells), v.files, v.ranks)
    if text == "all except all":
        return "-"
    if text == "all":                       # (FSF reads no lone "*": every rank instead)
        text = f"ranks 1-{v.ranks}"
    out = []
    for part in text.replace("ranks ", "R").replace("rank ", "r").split():
        if part.startswith("R"):
            low, high = part[1:].split("-")
            out += [f"*{n}" for n in range(int(low), int(high) + 1)]
        else:
            out.append(f"*{part[1:]}" if part.startswith("r") else part)
    return " ".join(out)


def _pair(name, square_set, v):
    return [f"{name}White = {_squares(square_set.white, v)}",
            f"{name}Black = {_squares(square_set.black, v)}"]


def _letters(names, types):
    return "".join(types[n][1] for n in names)


def _promotions(v, types):
    pawns = [p for p in v.pieces if p.promotion and not _to_plus(p, v)]
    shogi = [p for p in v.pieces if p.promotion and _to_plus(p, v)]
    lines = ["promotionPieceTypes = -"] if not pawns else []
    zones = {(p.promotion.zone, p.promotion.on_leaving) for p in pawns + shogi}
    if len(zones) > 1:
        raise ExportRefusal("Fairy-Stockfish has one promotion zone for all pieces")
    if pawns:
        choices = {p.promotion.choices for p in pawns}
        if len(choices) > 1 or any(p.promotion.on_leaving for p in pawns):
            raise ExportRefusal("Fairy-Stockfish promotes every pawn type to the same "
                                "choices, on entering the zone")
        lines += [f"promotionPawnTypes = {_letters([p.name for p in pawns], types)}",
                  f"promotionPieceTypes = {_letters(pawns[0].promotion.choices, types)}",
                  f"mandatoryPawnPromotion = {_forced(pawns, v)}"]
    if shogi:
        pairs = [f"{types[p.name][1]}:{types[p.promotion.choices[0]][1]}" for p in shogi]
        lines += [f"promotedPieceType = {' '.join(pairs)}",
                  f"mandatoryPiecePromotion = {_forced(shogi, v)}"]
    if zones:
        lines += _pair("promotionRegion", next(iter(zones))[0], v)
    return lines


def _to_plus(piece, v):
    choices = piece.promotion.choices
    if len(choices) == 1 and v.piece(choices[0]).letter.startswith("+"):
        return True
    if any(v.piece(c).letter.startswith("+") for c in choices):
        raise ExportRefusal(f"{piece.name} promotes to a + piece among other choices")
    return False


def _forced(pieces, v):
    """mandatory…Promotion: true when every move that may promote must (the forced
    squares, with the dead ones the language always forces, cover the zone, and the
    whole board for a promotion on leaving the zone too), false when only the dead
    squares are forced (immobilityIllegal then forces those, see _immobility)."""
    board = {regions.name((f, r)) for f in range(v.files) for r in range(v.ranks)}
    verdicts = set()
    for piece in pieces:
        for colour, side in enumerate(("white", "black")):
            zone = set(piece.promotion.zone.for_side(side))
            forced = set(piece.promotion.forced.for_side(side))
            must = board if piece.promotion.on_leaving else zone
            if forced | (_dead(v, piece, colour) & zone) >= must:
                verdicts.add("true")
            elif not forced:
                verdicts.add("false")
            else:
                verdicts.add(None)
    if len(verdicts) != 1 or None in verdicts:
        raise ExportRefusal("Fairy-Stockfish forces promotion on every move that may promote "
                            "or only where the piece could not move again")
    return verdicts.pop()


def _dead(v, piece, colour):
    """The squares (names) where the piece could never move again."""
    from ..compiler.geometry import PieceWalk
    walk = PieceWalk.of(v, piece, colour)
    return {regions.name((f, r)) for f in range(v.files) for r in range(v.ranks)
            if not walk.can_move_from((f, r))}


def _steps(v, types):
    """Initial moves (the double step) and en passant.  Fairy-Stockfish allows every
    piece's initial moves in one region, the double-step region."""
    initial = {(p.initial_squares.white, p.initial_squares.black) for p in v.pieces
               if any(a.initial for a in p.moves)}
    if len(initial) > 1:
        raise ExportRefusal("Fairy-Stockfish has one region for initial moves (the double "
                            "step) shared by every piece")
    # doubleStep gates every piece's initial moves, the pawn type's double step included
    plain_pawn = any(types.get(p.name, ("",))[0] == "pawn"
                     and not any(a.initial for a in p.moves) for p in v.pieces)
    if initial and plain_pawn:
        raise ExportRefusal("Fairy-Stockfish gives its pawn type the double step whenever "
                            "another piece has initial moves")
    lines = [f"doubleStep = {'true' if initial else 'false'}"]
    if initial:
        white, black = initial.pop()
        lines += [f"doubleStepRegionWhite = {_squares(white, v)}",
                  f"doubleStepRegionBlack = {_squares(black, v)}"]
    letters = _letters(v.en_passant, types) or "-"
    return lines + [f"enPassantTypes = {letters}"]


def _castling(v, types):
    """The castlings as FSF's options: one shape per wing for both sides, on one relative
    rank, the rook next to the castled king (FSF finds the rook from castlingRook…File)."""
    if not v.castling:
        return ["castling = false"]
    shapes, ranks = {}, set()
    for c in v.castling:
        rank = int(c.king_from[1:])
        ranks.add(rank if c.side == "white" else v.ranks + 1 - rank)
        wing = "Kingside" if _file_of(c.rook_from) > _file_of(c.king_from) else "Queenside"
        shapes.setdefault(wing, set()).add((c.king_from[0], c.king_to[0], c.rook_from[0],
                                            c.rook_to[0]))
    if len(ranks) > 1:
        raise ExportRefusal("Fairy-Stockfish castles on one rank, the same for both sides")
    lines = ["castling = true", f"castlingRank = {ranks.pop()}"]
    for wing, found in shapes.items():
        if len(found) > 1:
            raise ExportRefusal("Fairy-Stockfish castles the same way for both sides")
        king_from, king_to, rook_from, rook_to = found.pop()
        step = -1 if wing == "Kingside" else 1
        if ord(rook_to) != ord(king_to) + step:
            raise ExportRefusal("Fairy-Stockfish puts the rook next to the castled king")
        lines += [f"castling{wing}File = {king_to}", f"castlingKingFile = {king_from}",
                  f"castlingRook{wing}File = {rook_from}"]
    rooks = {v.castling_dropped_rook} if v.castling_dropped_rook else \
        {_setup_piece(v, c.rook_from) for c in v.castling}
    lines.append(f"castlingRookPieces = {_letters(sorted(rooks), types)}")
    return list(dict.fromkeys(lines))


def _file_of(square):
    return ord(square[0])


def _setup_piece(v, square):
    from ..fen import parse_board, split_board_field
    tokens = {t: p.name for p in v.pieces for t in p.tokens if t}
    board, _ = split_board_field(v.setup.split()[0], v.ranks)
    placed = parse_board(board, v.files, v.ranks, tokens, walls=set())  # walls stay in the FEN
    return placed[(ord(square[0]) - 97, int(square[1:]) - 1)]


def _drops(v, types):
    if not v.drops:
        return ["pieceDrops = false", "capturesToHand = false"] + _immobility(v, False)
    zones = {(d.zone.white, d.zone.black) for d in v.drops}
    base = max(zones, key=lambda z: len(z[0]) + len(z[1]))
    # captured promoted pieces that stay promoted in hand: Fairy-Stockfish's dropLoop
    loop = v.captures.to_hand_white and _promotes_to_ordinary(v) and not _has_twins(v)
    lines = ["pieceDrops = true",
             f"capturesToHand = {'true' if v.captures.to_hand_white else 'false'}",
             f"dropLoop = {'true' if loop else 'false'}",
             f"dropRegionWhite = {_squares(base[0], v)}",
             f"dropRegionBlack = {_squares(base[1], v)}"]
    for drop in v.drops:
        lines += _drop_rule(v, types, drop, base)
    return lines + _immobility(v, True)


def _drop_rule(v, types, drop, base):
    option, letter = types[drop.piece]
    lines = []
    if drop.not_doubled:
        lines.append(f"dropNoDoubled = {letter}")
        if drop.file_limit != 1:
            lines.append(f"dropNoDoubledCount = {drop.file_limit}")
    if drop.not_mating or drop.mating_loses:
        if option != "shogiPawn":
            raise ExportRefusal("Fairy-Stockfish forbids mating drops of the shogi pawn only")
        lines.append("shogiPawnDropMateIllegal = true")
    if option == "pawn":                # (FSF's defaults forbid rank 1 and the zone)
        return lines + _pawn_drop_options(v, drop, base)
    if (drop.zone.white, drop.zone.black) == base:
        return lines
    raise ExportRefusal(f"Fairy-Stockfish has one drop region for all pieces ({drop.piece} "
                        "has its own)")


def _pawn_drop_options(v, drop, base):
    """The pawn's drop zone as Fairy-Stockfish's exceptions to the drop region (both
    compared without the squares where the pawn could never move again)."""
    piece = v.piece(drop.piece)
    for first in ("false", "true"):
        for in_zone in ("false", "true"):
            if all(_fsf_pawn_zone(v, piece, base, first, in_zone, side)
                   == set(drop.zone.for_side(side)) - _dead(v, piece, colour)
                   for colour, side in enumerate(("white", "black"))):
                return [f"firstRankPawnDrops = {first}", f"promotionZonePawnDrops = {in_zone}"]
    raise ExportRefusal(f"Fairy-Stockfish cannot restrict {drop.piece} drops that way")


def _fsf_pawn_zone(v, piece, base, first, in_zone, side):
    colour = 0 if side == "white" else 1
    zone = set(base[colour])
    if in_zone == "false" and piece.promotion:
        zone -= set(piece.promotion.zone.for_side(side))
    if first == "false":
        rank = "1" if side == "white" else str(v.ranks)
        zone = {s for s in zone if s[1:] != rank}
    return zone - _dead(v, piece, colour)


def _immobility(v, drops):
    """The language never drops a piece where it could not move again and forces its
    promotion there: Fairy-Stockfish's immobilityIllegal, needed where drops or optional
    promotions could otherwise leave a piece stuck."""
    optional = any(p.promotion and _forced([p], v) == "false" for p in v.pieces)
    return ["immobilityIllegal = true"] if drops or optional else []


def _confinement(v, types):
    """confine: mobilityRegionWhiteRook = ..., named after the FSF piece option."""
    lines = []
    for piece in v.pieces:
        if piece.confined_to is None or piece.name not in types:
            continue
        option = types[piece.name][0]
        capital = option[0].upper() + option[1:]
        lines += [f"mobilityRegionWhite{capital} = {_squares(piece.confined_to.white, v)}",
                  f"mobilityRegionBlack{capital} = {_squares(piece.confined_to.black, v)}"]
    return lines


def _game_ends(v, types):
    lines = [f"stalemateValue = {v.stalemate}", f"nMoveRule = {v.move_rule}",
             f"checking = {'false' if v.no_checks else 'true'}",
             f"flyingGeneral = {'true' if v.no_facing_kings else 'false'}"]
    if v.extinction:
        lines += ["extinctionValue = loss",
                  f"extinctionPieceTypes = {_letters(v.extinction, types)}"]
    if v.bare_king:
        lines += ["extinctionValue = loss", "extinctionPieceTypes = *",
                  "extinctionPieceCount = 1", "extinctionOpponentPieceCount = 2",
                  f"extinctionClaim = {'true' if 'unless' in v.bare_king else 'false'}"]
    if v.flag_pieces:
        everyone = {p.name for p in v.pieces if not p.letter.endswith("~")}
        if len(v.flag_pieces) > 1 and set(v.flag_pieces) != everyone:
            raise ExportRefusal("Fairy-Stockfish has one flag piece type per side, or all")
        flag = types[v.flag_pieces[0]][1] if len(v.flag_pieces) == 1 else "*"
        lines += [f"flagPiece = {flag}",
                  *_pair("flagRegion", v.flag_region, v),
                  f"flagMove = {_flag_move(v, types)}"]
        lines += ["flagPieceSafe = true"] if v.flag_safe else []
    return lines


def _flag_move(v, types):
    """FSF's flagMove is Black's reply for its king type, the arrival that counts after
    the reply for any other flag piece."""
    if not v.flag_reply:
        return "false"
    kings = [types[name][0] == fsf.KING for name in v.flag_pieces]
    if (v.flag_reply == "black") != all(kings) or (v.flag_reply == "after") == any(kings):
        raise ExportRefusal("Fairy-Stockfish's flagMove gives Black a reply when the flag "
                            "piece is the king, and waits for the reply with any other")
    return "true"


def _repetition(v, types):
    lines = [f"nFoldRule = {v.repetition_count}"]
    if v.repetition_side is None:
        lines.append(f"nFoldValue = {v.repetition_result}")
    if v.perpetual_check == "loses":
        lines.append("perpetualCheckIllegal = true")
    return lines
