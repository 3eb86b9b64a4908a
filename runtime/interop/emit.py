"""The statements of a Fairyforge definition written from an effective Fairy-Stockfish
configuration, one generator per concern (the `concern` of options.OPTIONS).

Each generator takes a `Writer` (the configuration, the board, the names of the pieces)
and returns `Line`s: a statement and the options it comes from (for its comment).  A
generator raises `ImportRefusal` for a value the language cannot express, and returns
`TAKE_BACK` when, in a child of a bundled game, the statement would have to take back
an inherited rule that the language cannot take back (the importer then writes the
whole game out instead of `extends`).
"""

import re
from dataclasses import dataclass, field

from . import emit_drops, emit_ends, emit_moves, emit_rules, fsf, regions
from .config import Setting
from .errors import ImportRefusal
from .lines import TAKE_BACK, Line

@dataclass
class Writer:
    config: object                  # config.Config
    names: dict                     # FSF type (or "+type" for a promoted one) -> our name
    symmetry: str
    extends: bool = False           # writing a child of a bundled game: override only
    parent: object = None           # the bundled parent's rule model (compiler.model)
    region_lines: list = field(default_factory=list)

    @property
    def files(self):
        return int(self.config.value("maxFile")) if self.config.value("maxFile").isdigit() \
            else ord(self.config.value("maxFile")) - ord("a") + 1

    @property
    def ranks(self):
        return int(self.config.value("maxRank"))

    def refuse(self, option, reason):
        setting = self.config.options.get(option)
        raise ImportRefusal(self.config.section, getattr(setting, "key", None) or option,
                            getattr(setting, "line", None), reason,
                            getattr(setting, "value", None))

    def squares(self, option):
        found = regions.squares(self.config.value(option), self.files, self.ranks)
        if found is None:
            self.refuse(option, "expected squares such as *8 or d4 e4")
        return found

    def region(self, name, white_option, black_option):
        """A region statement for a White/Black pair of options; returns its name."""
        white, black = self.squares(white_option), self.squares(black_option)
        sources = (white_option, black_option)
        if any(line.text.startswith(f"region {name} ") for line in self.region_lines):
            return name
        if regions.image(white, self.symmetry, self.files, self.ranks) == black:
            text = f"region {name} = {regions.expression(white, self.files, self.ranks)}"
            self.region_lines.append(Line(text, sources))
        else:
            for side, squares in (("white", white), ("black", black)):
                text = (f"region {name} for {side} = "
                        f"{regions.expression(squares, self.files, self.ranks)}")
                self.region_lines.append(Line(text, sources))
        return name

    def types(self, option):
        """The FSF piece types of a piece-set option that exist in the game."""
        setting = self.config.options[option]
        if setting.value.strip() == "*":
            found = set(self.config.pieces)
        elif setting.section is None:       # a default: chess letters name built-in types
            letters = {v: k for k, v in fsf.CHESS_PIECES.items()}
            found = {letters.get(ch) for ch in setting.value}
        else:
            found = {self.config.type_of(ch) for ch in setting.value if ch.isalpha()}
        return [t for t in self.config.pieces if t in found]

    def names_of(self, fsf_types):
        """Our names for FSF types, with the `+` pieces that promote to one of them:
        FSF's promoted piece is of its target's type (promotedPieceType = b:k makes
        kings), so rules that name the type name them too."""
        names = [self.names[t] for t in fsf_types]
        names += [self.names["+" + low] for low, high in promoted_pairs(self)
                  if high in fsf_types]
        return names

    def one_type(self, option):
        value = self.config.value(option)
        return self.config.type_of(value) if value not in ("-", "*", "") else None

    def same_for_both(self, white, black, what):
        """The value of a White/Black option pair, refused when the sides differ."""
        if self.types(white) != self.types(black):
            self.refuse(black, f"different {what} for White and Black are not in the "
                               "language yet")
        return self.types(white)


def snake(fsf_name):
    out = "".join("_" + c.lower() if c.isupper() else c for c in fsf_name)
    return out.replace("custom_piece", "custom")


# --- the concerns -----------------------------------------------------------------

def board(w):
    return [Line(f"board {w.files}x{w.ranks}", ("maxFile", "maxRank")),
            Line(f"symmetry {w.symmetry}")]


def pieces(w):
    """`piece` lines (in a child of a bundled game, those the ini changes)."""
    lines = []
    cfg = w.config
    steps_changed = any(cfg.options[o].from_ini for o in
                        ("doubleStep", "doubleStepRegionWhite", "doubleStepRegionBlack"))
    for fsf_type, piece in cfg.pieces.items():
        stepping = fsf_type == "pawn" or "i" in piece.betza
        if w.extends and not piece.setting.from_ini and not (stepping and steps_changed):
            continue
        if fsf_type == "janggiCannon":
            lines += emit_rules.janggi_cannon(w, piece)
            continue
        emit_rules.refuse_lame_atoms(w, fsf_type, piece)
        betza = piece.betza.replace("e", "")            # FSF's e: en passant, see below
        if fsf_type == "pawn":
            betza += "ifmnD" if cfg.flag("doubleStep") else ""
        if fsf_type == "soldier" and int(cfg.value("soldierPromotionRank")) > 1:
            lines += _soldier(w, piece)
            continue
        royal = " royal" if fsf_type in (fsf.KING, emit_rules.royal_stand_in(cfg)) else ""
        if royal and re.search(r"[pg][a-z]*[A-Z]", betza):
            raise ImportRefusal(cfg.section, piece.setting.key or fsf_type, piece.setting.line,
                                "a royal piece that hops (Betza p or g): Fairy-Stockfish's "
                                "check after a move misses its checks (pyffish's gives_check "
                                "disagrees with the same position read from its FEN)",
                                piece.setting.value)
        key = piece.setting.key or fsf_type
        letters = emit_rules.royal_letters(w, piece) if royal else piece.letter.upper()
        lines.append(Line(f"piece {w.names[fsf_type]} {letters} {betza}{royal}"
                          .rstrip(), (key,)))
    return _no_royal(w) + lines + _promoted_pieces(w)


def _no_royal(w):
    """A game without Fairy-Stockfish's king declares the language's royal type with the
    letters -/-, owned by neither side (docs/language.md, games without a royal piece)."""
    inherited = w.extends and any(p.royal and p.tokens[0] for p in w.parent.pieces)
    if fsf.KING in w.config.pieces or (w.extends and not inherited) or \
            emit_rules.royal_stand_in(w.config):
        return []
    king = next((s for t, s in w.config.removed if t == fsf.KING), None)
    return [Line("piece unowned -/- K royal", (getattr(king, "key", None) or "king",))]


def _soldier(w, piece):
    """Fairy-Stockfish's soldier steps only forward until soldierPromotionRank, then
    sideways too: the xiangqi soldier's `move … in` statement."""
    rank = int(w.config.value("soldierPromotionRank"))
    name = w.names["soldier"]
    w.region_lines.append(Line(f"region across = ranks {rank}-{w.ranks}",
                               ("soldierPromotionRank",)))
    return [Line(f"piece {name} {piece.letter.upper()} fW", (piece.setting.key or "soldier",)),
            Line(f"move {name} sW in across", ("soldierPromotionRank",))]


def initial(w):
    """`initial` for the pieces with initial moves (the pawn's double step, a custom
    piece's `i` moves): Fairy-Stockfish allows them in the double-step region only,
    whatever ranks the pieces start on."""
    cfg = w.config
    names = [w.names[t] for t, p in cfg.pieces.items()
             if "i" in p.betza or (t == "pawn" and cfg.flag("doubleStep"))]
    if not names:
        return []
    if not cfg.flag("doubleStep"):
        w.refuse("doubleStep", "pieces with initial (i) moves need the double-step region, "
                               "and doubleStep = false removes it")
    zone = w.region("double_step", "doubleStepRegionWhite", "doubleStepRegionBlack")
    return [Line(f"initial {', '.join(names)} in {zone}",
                 ("doubleStep", "doubleStepRegionWhite", "doubleStepRegionBlack"))]


def _promoted_pieces(w):
    """Shogi-style promotions (promotedPieceType = p:g) make a `+` piece that moves like
    the target type."""
    lines = []
    for piece, target in promoted_pairs(w):
        if w.extends and not w.config.options["promotedPieceType"].from_ini:
            continue
        letter = w.config.pieces[piece].letter.upper()
        betza = w.config.pieces[target].betza.replace("e", "")
        lines.append(Line(f"piece {w.names['+' + piece]} +{letter} {betza}",
                          ("promotedPieceType",)))
    return lines


def promoted_pairs(w):
    pairs = []
    for item in w.config.value("promotedPieceType").split():
        if ":" not in item:
            w.refuse("promotedPieceType", f"expected pairs such as p:g, found {item!r}")
        low, high = (w.config.type_of(ch) for ch in item.split(":", 1))
        if low and high:
            pairs.append((low, high))
    return pairs


def promotion(w):
    lines = []
    pawns = w.same_for_both("promotionPawnTypesWhite", "promotionPawnTypesBlack",
                            "promotion pawn types")
    choices = w.same_for_both("promotionPieceTypesWhite", "promotionPieceTypesBlack",
                              "promotion choices")
    if not (pawns and choices) and not promoted_pairs(w):
        return TAKE_BACK if w.extends else lines      # (a parent's promotions stay)
    zone = w.region("promotion_zone", "promotionRegionWhite", "promotionRegionBlack")
    forced = f" forced in {zone}" if w.config.flag("mandatoryPawnPromotion") else ""
    sources = ("promotionPawnTypesWhite", "promotionPieceTypesWhite", "promotionRegionWhite",
               "mandatoryPawnPromotion")
    for pawn in pawns:
        names = ", ".join(w.names[c] for c in choices if c != pawn)
        if names and _appears(w, pawn, choices):
            lines.append(Line(f"promote {w.names[pawn]} to {names} in {zone}{forced}", sources))
    if w.config.flag("pieceDemotion") or w.config.flag("piecePromotionOnCapture"):
        return lines + _flips(w)
    # Fairy-Stockfish forces a piece promotion on every move that may promote, leaving
    # the zone included: forced squares count only for such moves, so `forced in all`.
    forced = " forced in all" if w.config.flag("mandatoryPiecePromotion") else ""
    for piece, _ in promoted_pairs(w):
        lines.append(Line(f"promote {w.names[piece]} to {w.names['+' + piece]} in {zone} "
                          f"on entering or leaving{forced}",
                          ("promotedPieceType", "mandatoryPiecePromotion")))
    return lines


def _appears(w, fsf_type, choices):
    """Whether pieces of an FSF type can ever stand on the board: in the start position
    or reached by a promotion.  FSF's promotion of a type that never appears does
    nothing (1d-chess inherits chess's pawn), and the language refuses one that cannot
    happen, so it is left out."""
    letters = {ch.lower() for ch in w.config.value("startFen").split()[0] if ch.isalpha()}
    reached = set(choices) | {high for _, high in promoted_pairs(w)}
    return w.config.pieces[fsf_type].letter in letters or fsf_type in reached


def _flips(w):
    """pieceDemotion: a promoted piece demotes on its next move (kyotoshogi), which with
    mandatoryPiecePromotion over the whole board is `flip`; piecePromotionOnCapture
    turns pieces over on captures only (`on capturing`)."""
    cfg, board = w.config, regions.everything(w.files, w.ranks)
    if not (cfg.flag("pieceDemotion") and cfg.flag("mandatoryPiecePromotion")) or \
            w.squares("promotionRegionWhite") != board or \
            w.squares("promotionRegionBlack") != board:
        w.refuse("pieceDemotion" if cfg.flag("pieceDemotion") else "piecePromotionOnCapture",
                 "pieces that promote and demote are `flip`, which needs pieceDemotion, "
                 "mandatoryPiecePromotion and the whole board as the promotion region")
    names = ", ".join(w.names[piece] for piece, _ in promoted_pairs(w))
    capturing = " on capturing" if cfg.flag("piecePromotionOnCapture") else ""
    return [Line(f"flip {names}{capturing}", ("pieceDemotion", "piecePromotionOnCapture",
                                              "mandatoryPiecePromotion"))]


def en_passant(w):
    takers = w.same_for_both("enPassantTypesWhite", "enPassantTypesBlack",
                             "en passant types")
    able = [t for t in takers if _has_double_step(w, t)]
    lines = [Line("no en passant")] if w.extends else []
    if not able or not (w.squares("enPassantRegionWhite") or w.squares("enPassantRegionBlack")):
        return lines                        # (an empty region: FSF marks no double step)
    _refuse_promoting_en_passant(w, able)
    where = ""
    if w.squares("enPassantRegionWhite") != regions.everything(w.files, w.ranks) or \
            w.squares("enPassantRegionBlack") != regions.everything(w.files, w.ranks):
        # FSF names the squares where the capturer lands, ours the squares passed over:
        # White's passed squares are enPassantRegionBlack
        where = " in " + w.region("en_passant_zone", "enPassantRegionBlack",
                                  "enPassantRegionWhite")
    lines.append(Line(f"en passant {', '.join(w.names[t] for t in able)}{where}",
                      ("enPassantTypesWhite", "enPassantRegionWhite")))
    if any(t != "pawn" for t in takers):
        # FSF marks every double step once an enemy en passant type is not its pawn
        # (position.cpp, do_move: `enPassantTypes[them] & ~piece_set(PAWN)`)
        lines.append(Line("mark every double step", ("enPassantTypesWhite",)))
    return lines


def _refuse_promoting_en_passant(w, takers):
    """FSF's en passant capture is a move type of its own that never promotes
    (movegen.cpp, make_move_and_gating<EN_PASSANT>); ours goes through the piece's
    promotions.  A game where a pawn that promotes can take in passing into its
    promotion zone (shinobiplus) is refused."""
    promoting = set(w.types("promotionPawnTypesWhite")) | {low for low, _ in promoted_pairs(w)}
    if "pawn" not in takers or "pawn" not in promoting or not w.config.flag("doubleStep"):
        return
    for mover, capturer, step in (("White", "Black", 1), ("Black", "White", -1)):
        passed = {(f, r + step) for f, r in w.squares(f"doubleStepRegion{mover}")}
        zone = w.squares(f"promotionRegion{capturer}")
        if passed & zone:
            w.refuse(f"promotionRegion{capturer}", f"{capturer}'s pawn may take en passant "
                     "into its promotion zone: Fairy-Stockfish never promotes an en passant "
                     "capture (a move type of its own), Fairyforge's promotion rules do")


def _has_double_step(w, fsf_type):
    betza = w.config.pieces[fsf_type].betza
    return (fsf_type == "pawn" and w.config.flag("doubleStep")) or "nD" in betza


def castling(w):
    """Each side's castlings as Fairy-Stockfish finds them when it reads the start FEN:
    the castling king on the castling rank, the rook the first castling piece from the
    wing's file towards the king."""
    lines = [Line("no castling")] if w.extends else []
    cfg = w.config
    if not cfg.flag("castling"):
        return lines
    if cfg.flag("castlingDroppedPiece"):
        return lines + emit_drops.dropped_castling(w)
    # the castling piece: the royal king, or in a game without one any piece (the
    # language castles with the piece on the castling's king square)
    king_type = w.one_type("castlingKingPiece") or fsf.KING
    setup = _setup_board(w)
    for side, rank in (("white", int(cfg.value("castlingRank")) - 1),
                       ("black", w.ranks - int(cfg.value("castlingRank")))):
        kings = sorted(f for (f, r), piece in setup.items()
                       if r == rank and piece == (king_type, side))
        if len(kings) != 1:
            continue
        for wing in ("Kingside", "Queenside"):
            if _right(wing, side) not in _castling_field(w):
                continue                    # a right the start FEN lacks never returns
            castle = _castling(w, setup, side, rank, kings[0], wing)
            if castle:
                lines.append(castle)
    if cfg.flag("chess960") and len(lines) > w.extends:
        lines.append(Line("chess960 castling", ("chess960",)))
    return lines


def _right(wing, side):
    letter = "K" if wing == "Kingside" else "Q"
    return letter if side == "white" else letter.lower()


def _castling_field(w):
    fields = fsf_read_fen(w.config.value("startFen")).split()
    field = fields[2] if len(fields) > 2 and not fields[2].isdigit() else "-"
    gates = emit_moves.rights_letters(w)
    field = "".join(ch for ch in field if ch not in gates) or "-"
    if any(ch not in "KQkq-" for ch in field):
        w.refuse("startFen", "castling rights named by the rook's file (Shredder FEN) are "
                             "not in the language yet")
    return field


def _castling(w, setup, side, rank, king, wing):
    step = 1 if wing == "Kingside" else -1
    rook_option = f"castlingRook{wing}File"
    start = _file(w, rook_option) if w.config.value(rook_option) else w.files - 1
    rooks = set(w.types("castlingRookPieces"))
    rook = next((f for f in range(min(start, w.files - 1), king, -step)
                 if setup.get((f, rank)) in {(r, side) for r in rooks}), None)
    if rook is None:
        return None
    king_to = _file(w, f"castling{wing}File")
    if abs(king_to - king) < (1 if w.config.flag("chess960") else 2):
        w.refuse(f"castling{wing}File", "a castling in which the king moves one square: "
                 "Fairy-Stockfish writes it as the king taking its rook (d1a1) and its other "
                 "castlings by the king's square (d1g1), with KQkq rights; `chess960 "
                 "castling` writes every castling as the king taking its rook, the rights by "
                 "file (HAha)")
    squares = [regions.name((f, rank)) for f in (king, king_to, rook, king_to - step)]
    return Line("castling for {} king {} to {}, rook {} to {}".format(side, *squares),
                ("castling", f"castling{wing}File", rook_option, "castlingRank"))


def _file(w, option):
    value = w.config.value(option)
    if value.isdigit():
        return int(value) - 1
    if len(value) == 1 and value.isalpha():
        return ord(value) - ord("a")
    w.refuse(option, "expected a file such as g")


def _setup_board(w):
    """{(file, rank): (FSF type, side)} of the start position."""
    from ..errors import FenError
    from ..fen import parse_board, split_board_field
    tokens = {}
    for fsf_type, piece in w.config.pieces.items():
        for text, side in ((piece.letter.upper(), "white"), (piece.letter, "black")):
            tokens[text] = tokens[text + "~"] = tokens["+" + text] = (fsf_type, side)
    try:
        board_text, _ = split_board_field(w.config.value("startFen").split()[0], w.ranks)
        return parse_board(board_text, w.files, w.ranks, tokens)
    except (FenError, IndexError) as err:
        w.refuse("startFen", f"the start position cannot be read: {err}")


def drops(w):
    cfg = w.config
    lines = [Line("no drops")] if w.extends else []
    if cfg.flag("capturesToHand"):
        if not cfg.flag("pieceDrops"):
            w.refuse("capturesToHand", "captures to hand without pieceDrops are not in "
                                       "the language")
        lines.append(Line("captures go to hand", ("capturesToHand",)))
        if w.types("promotionPieceTypesWhite") and w.types("promotionPawnTypesWhite") \
                and not cfg.flag("dropLoop"):
            # Fairy-Stockfish returns a captured promoted pawn to hand as a pawn, unless
            # dropLoop keeps it promoted (the language's default)
            lines.append(Line("captured promoted pieces revert", ("capturesToHand",)))
    elif w.extends:
        lines.append(Line("captures are removed", ("capturesToHand",)))
    if not cfg.flag("pieceDrops"):
        return lines
    zone = w.region("drop_zone", "dropRegionWhite", "dropRegionBlack")
    lines.append(Line(f"drop all in {zone}{emit_drops.all_flags(w)}",
                      ("pieceDrops", "dropRegionWhite", "dropPromoted")))
    no_doubled = w.one_type("dropNoDoubled")
    for fsf_type in cfg.pieces:
        if fsf_type == no_doubled and cfg.value("dropNoDoubledCount") == "0":
            # every file is closed to it (position.h: a file holding 0 or more)
            lines.append(Line(f"drop {w.names[fsf_type]} in all except all",
                              ("dropNoDoubled", "dropNoDoubledCount")))
            continue
        flags = emit_drops.piece_flags(w, fsf_type, no_doubled)
        if fsf_type == "pawn":
            lines.append(Line(f"drop {w.names[fsf_type]} in {_pawn_drops(w, zone)}{flags}",
                              ("firstRankPawnDrops", "promotionZonePawnDrops")))
        elif flags:
            lines.append(Line(f"drop {w.names[fsf_type]} in {zone}{flags}",
                              ("dropNoDoubled", "dropNoDoubledCount",
                               "shogiPawnDropMateIllegal", "dropOppositeColoredBishop")))
    return lines + emit_drops.compulsory(w)


def _pawn_drops(w, zone):
    cfg, text = w.config, zone
    if not cfg.flag("promotionZonePawnDrops"):
        text += f" except {w.region('promotion_zone', 'promotionRegionWhite', 'promotionRegionBlack')}"
    if not cfg.flag("firstRankPawnDrops"):
        text += " except rank 1"
    return f"({text})" if " " in text else text


def repetition(w):
    count = int(w.config.value("nFoldRule"))
    if count < 2:
        return TAKE_BACK if w.extends else []
    side = " for white" if w.config.flag("nFoldValueAbsolute") else ""
    lines = [Line(f"repetition {count} {emit_ends.result(w, 'nFoldValue')}{side}",
                  ("nFoldRule", "nFoldValue", "nFoldValueAbsolute"))]
    if w.config.flag("perpetualCheckIllegal"):
        lines.append(Line("perpetual check loses", ("perpetualCheckIllegal",)))
    elif w.extends:
        return TAKE_BACK
    return lines


def move_rule(w):
    """nMoveRule, and nMoveRuleTypes as `restarted by` where its pieces are not the
    ones the language derives (Fairy-Stockfish's pawn type, which goes forward only)."""
    count = int(w.config.value("nMoveRule"))
    if count == 0:
        return TAKE_BACK if w.extends and w.parent.move_rule else []
    restart = w.same_for_both("nMoveRuleTypesWhite", "nMoveRuleTypesBlack",
                              "move rule pieces")
    if restart == ["pawn"] and not _other_forward_pieces(w):
        if w.extends and not w.config.options["nMoveRule"].from_ini:
            return []                       # (the parent's stands: new pieces only)
        return [Line(f"move rule {count}", ("nMoveRule",))]
    names = ", ".join(w.names[t] for t in restart) or "captures only"
    return [Line(f"move rule {count}, restarted by {names}",
                 ("nMoveRule", "nMoveRuleTypesWhite"))]


def _other_forward_pieces(w):
    """Pieces besides the pawn type that the language would take as forward-only (every
    Betza atom forward): they would restart the clock, which FSF's do not."""
    import re
    forward = re.compile(r"^(?:[a-z]*f[a-z]*[A-Z]+\d*)+$")
    return any(t != "pawn" and p.betza and forward.match(p.betza.replace("e", ""))
               and not re.search(r"[bslrvh]", p.betza) for t, p in w.config.pieces.items())


def setup(w):
    written = w.config.value("startFen")
    fen = fsf_read_fen(written)
    fields = fen.split()
    if fen != written and fields[1] == "w" and fields[-2] != "0":
        w.refuse("startFen", f"Fairy-Stockfish reads it as '{fen}': a halfmove clock of "
                             f"{fields[-2]} before any move, which Fairyforge refuses; write "
                             "all six fields (w - - 0 1)")
    if not w.config.flag("castling") and len(fields) > 3 and fields[2].isalpha():
        # FSF ignores the castling rights without castling, not the gating rights
        fields[2] = emit_moves.rights_letters(w) or "-"
        fen = " ".join(fields)
    return [Line(f'setup "{fen}"', ("startFen",))]


def fsf_read_fen(fen):
    """The start FEN as Fairy-Stockfish reads it.  With the castling field and two
    numbers (`w - 0 1`), it takes the first number for the en passant field (none) and
    the second for the halfmove clock, the move number staying 1."""
    fields = fen.split()
    if len(fields) == 5 and re.fullmatch(r"\d+\+\d+", fields[2]):
        # check counts where the castling field stands (rookmate's `w 7+7 0 1`): FSF
        # reads no castling, no en passant, the counts and the two counters
        return " ".join(fields[:2] + ["-", "-"] + fields[2:])
    if len(fields) == 5 and not fields[2].isdigit() and fields[3].isdigit() \
            and fields[4].isdigit():
        return " ".join(fields[:3] + ["-", fields[4], "1"])
    return fen


def checks(w):
    if w.config.flag("checking"):
        return TAKE_BACK if w.extends else []
    return [Line("no checks", ("checking",))]


def facing_kings(w):
    if w.config.flag("flyingGeneral"):
        return [Line("no facing kings", ("flyingGeneral",))]
    return TAKE_BACK if w.extends else []


def flag(w):
    cfg = w.config
    white, black = w.squares("flagRegionWhite"), w.squares("flagRegionBlack")
    if not white and not black:
        return TAKE_BACK if w.extends else []
    pieces_ = w.same_for_both("flagPieceWhite", "flagPieceBlack", "flag pieces")
    zone = w.region("goal", "flagRegionWhite", "flagRegionBlack")
    return [Line(f"win by {', '.join(w.names_of(pieces_))} reaching {zone}"
                 f"{_flag_condition(w, pieces_)}",
                 ("flagPieceWhite", "flagRegionWhite", "flagRegionBlack", "flagMove",
                  "flagPieceSafe"))]


def _flag_condition(w, pieces_):
    """flagMove: Black's reply to the king's arrival (racing kings), or for any other
    flag piece the arrival that counts only after the reply (jeson mor); flagPieceSafe:
    the arrival counts where the piece is not attacked."""
    move, safe = w.config.flag("flagMove"), w.config.flag("flagPieceSafe")
    if move and safe:
        w.refuse("flagPieceSafe", "flagPieceSafe together with flagMove is not in the "
                                  "language yet (one condition per goal)")
    if safe and pieces_ != [fsf.KING]:
        # position.cpp: FSF asks for safety only while exactly flagPieceCount pieces stand
        # in the region; `if safe` asks it of every one (two knights there, one attacked)
        w.refuse("flagPieceSafe", "flagPieceSafe with flag pieces other than the king: "
                 "FSF looks at safety only while one piece stands in the region, `if safe` "
                 "at every arrival")
    if safe:
        return ", if safe"
    if not move:
        return ""
    return ", black may reply" if pieces_ == [fsf.KING] else ", after a reply"


def confine(w):
    lines = []
    for fsf_type in w.config.pieces:
        capital = fsf_type[0].upper() + fsf_type[1:]
        white, black = f"mobilityRegionWhite{capital}", f"mobilityRegionBlack{capital}"
        if white not in w.config.options and black not in w.config.options:
            continue
        for option in (white, black):           # one side given: the other goes anywhere
            w.config.options.setdefault(option, Setting("*"))
        zone = w.region(f"{w.names[fsf_type]}_region", white, black)
        lines.append(Line(f"confine {w.names[fsf_type]} to {zone}", (white, black)))
    return lines


# The order in which the concerns are written (regions come first, collected on the way)
CONCERNS = {"board": board, "pieces": pieces, "initial": initial, "promotion": promotion,
            "en_passant": en_passant, "castling": castling, "gating": emit_moves.gating,
            "drops": drops,
            "confine": confine, "facing_kings": facing_kings, "checks": checks,
            "captures": emit_ends.compulsory, "explosions": emit_rules.explosions,
            "petrify": emit_moves.petrify, "walling": emit_moves.walling,
            "capture_bans": emit_rules.capture_bans, "lines": emit_rules.palace_lines,
            "pass": emit_rules.passing, "check_escape": emit_rules.check_escape,
            "bikjang": emit_rules.bikjang, "material": emit_rules.material,
            "pseudo_royal": emit_rules.pseudo_royal,
            "promotion_limit": emit_rules.promotion_limit, "flag": flag,
            "extinction": emit_ends.extinction, "check_count": emit_ends.check_count,
            "checkmate": emit_ends.checkmate, "stalemate": emit_ends.stalemate,
            "counting": emit_ends.counting, "repetition": repetition,
            "move_rule": move_rule, "setup": setup}
