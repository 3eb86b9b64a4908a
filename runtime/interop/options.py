"""Every variants.ini option and what `fairyforge import` does with it: the table that
the import reads and that docs/language.md ("Coming from Fairy-Stockfish") restates.

OPTIONS maps an option to an `Option`: the concern (the group of statements it shapes,
see emit.py) and `unsupported`, None when the language expresses every value, else the
values it can express and why the others are refused.  To support an option once the
language has its statement: give it a concern, write the statement in emit.py, and
drop its `unsupported`.  Options for both sides (promotionPieceTypes) share the entry
of their White/Black pair.
"""

from dataclasses import dataclass

from . import fsf


@dataclass(frozen=True)
class Option:
    concern: str                    # the emit.py generator that writes its statements
    unsupported: str | None = None  # why a value other than `accepts` cannot be imported
    accepts: tuple = ()             # the values that can (the default is always one)


def _yes(concern):
    return Option(concern)


def _not_yet(reason, *accepts):
    return Option("refused", reason, accepts)


def _gui(_=None):
    return Option("gui")


NOT_YET = "is not in the language yet"

OPTIONS = {
    # for XBoard/WinBoard only: kept as a comment
    "variantTemplate": _gui(), "pieceToCharTable": _gui(), "pocketSize": _gui(),
    "pieceValueMg": _gui(), "pieceValueEg": _gui(),
    "maxRank": _yes("board"), "maxFile": _yes("board"),
    "startFen": _yes("setup"),
    "chess960": _yes("castling"),
    "twoBoards": _not_yet("two boards (bughouse) are not in the language"),
    "pawnTypes": _yes("promotion"),
    "promotionRegionWhite": _yes("promotion"), "promotionRegionBlack": _yes("promotion"),
    "promotionPawnTypesWhite": _yes("promotion"), "promotionPawnTypesBlack": _yes("promotion"),
    "promotionPieceTypesWhite": _yes("promotion"),
    "promotionPieceTypesBlack": _yes("promotion"),
    "promotedPieceType": _yes("promotion"),
    "mandatoryPawnPromotion": _yes("promotion"),
    "mandatoryPiecePromotion": _yes("promotion"),
    "sittuyinPromotion": _not_yet(f"sittuyin promotion {NOT_YET}"),
    "promotionLimit": _yes("promotion_limit"),
    "piecePromotionOnCapture": _yes("promotion"), "pieceDemotion": _yes("promotion"),
    "blastOnCapture": _yes("explosions"), "blastImmuneTypes": _yes("explosions"),
    "mutuallyImmuneTypes": _yes("capture_bans"),
    "petrifyOnCaptureTypes": _yes("petrify"), "petrifyBlastPieces": _yes("petrify"),
    "doubleStep": _yes("pieces"),
    "doubleStepRegionWhite": _yes("pieces"), "doubleStepRegionBlack": _yes("pieces"),
    "tripleStepRegionWhite": _not_yet(f"the pawn's triple step {NOT_YET}", "-"),
    "tripleStepRegionBlack": _not_yet(f"the pawn's triple step {NOT_YET}", "-"),
    "enPassantRegionWhite": _yes("en_passant"), "enPassantRegionBlack": _yes("en_passant"),
    "enPassantTypesWhite": _yes("en_passant"), "enPassantTypesBlack": _yes("en_passant"),
    "castling": _yes("castling"),
    "castlingKingsideFile": _yes("castling"), "castlingQueensideFile": _yes("castling"),
    "castlingRank": _yes("castling"), "castlingKingFile": _yes("castling"),
    "castlingKingPiece": _yes("castling"), "castlingRookPieces": _yes("castling"),
    "castlingRookKingsideFile": _yes("castling"),
    "castlingRookQueensideFile": _yes("castling"),
    "castlingDroppedPiece": _yes("castling"),
    "oppositeCastling": _not_yet(f"opposite castling {NOT_YET}"),
    "checking": _yes("checks"),
    "dropChecks": _not_yet(f"forbidding checks by drops {NOT_YET}"),
    "mustCapture": _yes("captures"),
    "mustDrop": _yes("drops"),
    "mustDropType": _not_yet("compulsory drops of one type only (`drops are compulsory` "
                             "is every type's) are not in the language yet", "*"),
    "pieceDrops": _yes("drops"), "capturesToHand": _yes("drops"),
    "firstRankPawnDrops": _yes("drops"), "promotionZonePawnDrops": _yes("drops"),
    "dropRegionWhite": _yes("drops"), "dropRegionBlack": _yes("drops"),
    "dropNoDoubled": _yes("drops"),
    "dropNoDoubledCount": _yes("drops"),
    "dropLoop": _yes("drops"),
    "enclosingDrop": _not_yet(f"enclosing drops (reversi, ataxx) {NOT_YET}"),
    "enclosingDropStart": _not_yet(f"enclosing drops (reversi, ataxx) {NOT_YET}"),
    "sittuyinRookDrop": _not_yet(f"sittuyin's placement phase {NOT_YET}"),
    "dropOppositeColoredBishop": _yes("drops"), "dropPromoted": _yes("drops"),
    "immobilityIllegal": _yes("drops"),
    "gating": _yes("gating"), "seirawanGating": _yes("gating"),
    "cambodianMoves": _yes("gating"),
    "wallingRule": _yes("walling"), "wallOrMove": _yes("walling"),
    "wallingRegionWhite": _yes("walling"), "wallingRegionBlack": _yes("walling"),
    "diagonalLines": _yes("lines"),
    "passWhite": _yes("pass"), "passBlack": _yes("pass"),
    "passOnStalemateWhite": _not_yet(f"passing on stalemate {NOT_YET}"),
    "passOnStalemateBlack": _not_yet(f"passing on stalemate {NOT_YET}"),
    "makpongRule": _yes("check_escape"),
    "flyingGeneral": _yes("facing_kings"),
    "soldierPromotionRank": _yes("pieces"),
    "flipEnclosedPieces": _not_yet(f"flipping enclosed pieces {NOT_YET}"),
    "nMoveRuleTypesWhite": _yes("move_rule"), "nMoveRuleTypesBlack": _yes("move_rule"),
    "nMoveRule": _yes("move_rule"),
    "nFoldRule": _yes("repetition"), "nFoldValue": _yes("repetition"),
    "nFoldValueAbsolute": _yes("repetition"),
    "perpetualCheckIllegal": _yes("repetition"),
    "moveRepetitionIllegal": _not_yet(f"moveRepetitionIllegal {NOT_YET}"),
    "chasingRule": _not_yet("xiangqi's full chasing rules (axf) are not in the language "
                            "yet (perpetual chase is a simpler rule)"),
    "stalemateValue": _yes("stalemate"),
    "stalematePieceCount": _yes("stalemate"),
    "checkmateValue": _yes("checkmate"),
    "shogiPawnDropMateIllegal": _yes("drops"),
    "shatarMateRule": _not_yet(f"shatar's mating rules {NOT_YET}"),
    "bikjangRule": _yes("bikjang"),
    "extinctionValue": _yes("extinction"), "extinctionClaim": _yes("extinction"),
    "extinctionPieceTypes": _yes("extinction"), "extinctionPieceCount": _yes("extinction"),
    "extinctionOpponentPieceCount": _yes("extinction"),
    "extinctionPseudoRoyal": _yes("pseudo_royal"), "dupleCheck": _yes("pseudo_royal"),
    "flagPieceWhite": _yes("flag"), "flagPieceBlack": _yes("flag"),
    "flagRegionWhite": _yes("flag"), "flagRegionBlack": _yes("flag"),
    "flagMove": _yes("flag"),
    "flagPieceCount": _not_yet(f"flagPieceCount {NOT_YET}", "1"),
    "flagPieceBlockedWin": _not_yet(f"flagPieceBlockedWin {NOT_YET}"),
    "flagPieceSafe": _yes("flag"),
    "checkCounting": _yes("check_count"),
    "connectN": _not_yet(f"connection wins {NOT_YET}", "0"),
    "connectPieceTypes": _not_yet(f"connection wins {NOT_YET}", "*"),
    "connectVertical": _not_yet(f"connection wins {NOT_YET}", "true"),
    "connectHorizontal": _not_yet(f"connection wins {NOT_YET}", "true"),
    "connectDiagonal": _not_yet(f"connection wins {NOT_YET}", "true"),
    "connectRegion1White": _not_yet(f"connection wins {NOT_YET}"),
    "connectRegion2White": _not_yet(f"connection wins {NOT_YET}"),
    "connectRegion1Black": _not_yet(f"connection wins {NOT_YET}"),
    "connectRegion2Black": _not_yet(f"connection wins {NOT_YET}"),
    "connectNxN": _not_yet(f"connection wins {NOT_YET}", "0"),
    "collinearN": _not_yet(f"connection wins {NOT_YET}", "0"),
    "connectValue": _not_yet(f"connection wins {NOT_YET}", "win"),
    "materialCounting": _yes("material"),
    "adjudicateFullBoard": _not_yet(f"material counting {NOT_YET}"),
    "countingRule": _yes("counting"),
    "castlingWins": _not_yet(f"castling as a win condition {NOT_YET}", "-"),
}
# mobilityRegionWhiteRook, ...: a piece's confinement (the piece part is FSF's type name)
MOBILITY_PREFIXES = ("mobilityRegionWhite", "mobilityRegionBlack")


def lookup(option):
    """The Option of an option as the ini writes it, or None for an unknown option."""
    if option in OPTIONS:
        return OPTIONS[option]
    for group, (white, _) in fsf.BOTH_SIDES.items():
        if option == group:
            return OPTIONS[white]
    if option.startswith(MOBILITY_PREFIXES):
        return Option("confine")
    if option in fsf.PIECE_OPTIONS:
        return Option("pieces")
    return None


def refusal_reason(option, setting):
    """Why `setting` of `option` cannot be imported, or None when it can."""
    entry = lookup(option)
    if entry is None:
        return "unknown option (not one of Fairy-Stockfish's variants.ini options)"
    if entry.unsupported is None:
        return None
    default = fsf.DEFAULTS.get(option)
    normal = {"", "-", "none", default, *entry.accepts}
    if setting.value in normal or (setting.value == "false" and default == "false"):
        return None
    return entry.unsupported
