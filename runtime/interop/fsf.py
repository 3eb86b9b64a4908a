"""What Fairy-Stockfish knows before it reads a variants.ini: its built-in piece types,
the default of every option, and the built-in variants a section may name as parent.

Sources: Fairy-Stockfish's src/piece.cpp (the built-in pieces' Betza), src/variant.h
(the defaults) and src/variant.cpp (the built-in variants), restated here as data.
"""

# The built-in piece types in Fairy-Stockfish's PieceType order, which is the order in
# which a section's piece options are applied (a later type that takes a letter already
# in use removes the earlier owner of that letter).  The pawn's double step is not in its
# Betza: the options doubleStep and doubleStepRegion give it.
PIECE_TYPES = {
    "pawn": "fmWfceF", "knight": "N", "bishop": "B", "rook": "R", "queen": "Q",
    "fers": "F", "alfil": "A", "fersAlfil": "FA", "silver": "FfW", "aiwok": "RNF",
    "bers": "RF", "archbishop": "BN", "chancellor": "RN", "amazon": "QN",
    "knibis": "mNcB", "biskni": "mBcN", "kniroo": "mNcR", "rookni": "mRcN",
    "shogiPawn": "fW", "lance": "fR", "shogiKnight": "fN", "gold": "WfF",
    "dragonHorse": "BW", "clobber": "cW", "breakthrough": "fmWfF", "immobile": "",
    "cannon": "mRcpR", "janggiCannon": "pR", "soldier": "fsW", "horse": "nN",
    "elephant": "nA", "janggiElephant": "nZ", "banner": "RcpRnN", "wazir": "W",
    "commoner": "K", "centaur": "KN",
}
# Built-in types with rules of their own beyond their Betza: the import writes those rules
# (emit_rules.janggi_cannon), the export never writes a piece as one of them.
SPECIAL_TYPES = {"janggiCannon": "the janggi cannon's rules (it may not hop over or capture "
                                 "a cannon): the import writes them as `no hop over` and "
                                 "`no capture of`"}
CUSTOM_PIECES = tuple(f"customPiece{n}" for n in range(1, 26))
KING = "king"
PIECE_OPTIONS = (*PIECE_TYPES, *CUSTOM_PIECES, KING)      # the order they are applied in

CHESS_PIECES = {"pawn": "p", "knight": "n", "bishop": "b", "rook": "r", "queen": "q",
                "king": "k"}

# Every rule option's default (variant.h), as the text an ini would write.  Piece-type
# options default to "absent"; a section without a parent starts with no pieces.
DEFAULTS = {
    "maxRank": "8", "maxFile": "8", "chess960": "false", "twoBoards": "false",
    "startFen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "pawnTypes": "p",
    "promotionRegionWhite": "*8", "promotionRegionBlack": "*1",
    "promotionPawnTypesWhite": "p", "promotionPawnTypesBlack": "p",
    "promotionPieceTypesWhite": "nbrq", "promotionPieceTypesBlack": "nbrq",
    "sittuyinPromotion": "false", "promotionLimit": "", "promotedPieceType": "",
    "piecePromotionOnCapture": "false", "mandatoryPawnPromotion": "true",
    "mandatoryPiecePromotion": "false", "pieceDemotion": "false",
    "blastOnCapture": "false", "blastImmuneTypes": "-", "mutuallyImmuneTypes": "-",
    "petrifyOnCaptureTypes": "-", "petrifyBlastPieces": "false",
    "doubleStep": "true", "doubleStepRegionWhite": "*2", "doubleStepRegionBlack": "*7",
    "tripleStepRegionWhite": "-", "tripleStepRegionBlack": "-",
    "enPassantRegionWhite": "*", "enPassantRegionBlack": "*",
    "enPassantTypesWhite": "p", "enPassantTypesBlack": "p",
    "castling": "true", "castlingDroppedPiece": "false",
    "castlingKingsideFile": "g", "castlingQueensideFile": "c", "castlingRank": "1",
    "castlingKingFile": "e", "castlingKingPiece": "k",
    "castlingRookKingsideFile": "", "castlingRookQueensideFile": "a",
    "castlingRookPieces": "r", "oppositeCastling": "false",
    "checking": "true", "dropChecks": "true", "mustCapture": "false",
    "mustDrop": "false", "mustDropType": "*", "pieceDrops": "false",
    "dropLoop": "false", "capturesToHand": "false", "firstRankPawnDrops": "false",
    "promotionZonePawnDrops": "false", "enclosingDrop": "none", "enclosingDropStart": "-",
    "dropRegionWhite": "*", "dropRegionBlack": "*", "sittuyinRookDrop": "false",
    "dropOppositeColoredBishop": "false", "dropPromoted": "false",
    "dropNoDoubled": "-", "dropNoDoubledCount": "1", "immobilityIllegal": "false",
    "gating": "false", "wallingRule": "none", "wallingRegionWhite": "*",
    "wallingRegionBlack": "*", "wallOrMove": "false", "seirawanGating": "false",
    "cambodianMoves": "false", "diagonalLines": "-", "passWhite": "false",
    "passBlack": "false", "passOnStalemateWhite": "false",
    "passOnStalemateBlack": "false", "makpongRule": "false", "flyingGeneral": "false",
    "soldierPromotionRank": "1", "flipEnclosedPieces": "none",
    "nMoveRuleTypesWhite": "p", "nMoveRuleTypesBlack": "p", "nMoveRule": "50",
    "nFoldRule": "3", "nFoldValue": "draw", "nFoldValueAbsolute": "false",
    "perpetualCheckIllegal": "false", "moveRepetitionIllegal": "false",
    "chasingRule": "none", "stalemateValue": "draw", "stalematePieceCount": "false",
    "checkmateValue": "loss", "shogiPawnDropMateIllegal": "false",
    "shatarMateRule": "false", "bikjangRule": "false", "extinctionValue": "none",
    "extinctionClaim": "false", "extinctionPseudoRoyal": "false", "dupleCheck": "false",
    "extinctionPieceTypes": "", "extinctionPieceCount": "0",
    "extinctionOpponentPieceCount": "0", "flagPieceWhite": "*", "flagPieceBlack": "*",
    "flagRegionWhite": "", "flagRegionBlack": "", "flagPieceCount": "1",
    "flagPieceBlockedWin": "false", "flagMove": "false", "flagPieceSafe": "false",
    "checkCounting": "false", "connectN": "0", "connectPieceTypes": "*",
    "connectVertical": "true", "connectHorizontal": "true", "connectDiagonal": "true",
    "connectRegion1White": "-", "connectRegion2White": "-", "connectRegion1Black": "-",
    "connectRegion2Black": "-", "connectNxN": "0", "collinearN": "0",
    "connectValue": "win", "materialCounting": "none", "adjudicateFullBoard": "false",
    "countingRule": "none", "castlingWins": "-",
}

# Options that set the White and Black options of a pair at once (the pair's own
# options, read after it, take precedence, as in Fairy-Stockfish's parser).
BOTH_SIDES = {
    "promotionPawnTypes": ("promotionPawnTypesWhite", "promotionPawnTypesBlack"),
    "promotionPieceTypes": ("promotionPieceTypesWhite", "promotionPieceTypesBlack"),
    "enPassantRegion": ("enPassantRegionWhite", "enPassantRegionBlack"),
    "enPassantTypes": ("enPassantTypesWhite", "enPassantTypesBlack"),
    "nMoveRuleTypes": ("nMoveRuleTypesWhite", "nMoveRuleTypesBlack"),
    "flagPiece": ("flagPieceWhite", "flagPieceBlack"),
    "flagRegion": ("flagRegionWhite", "flagRegionBlack"),
    "pass": ("passWhite", "passBlack"),
    "passOnStalemate": ("passOnStalemateWhite", "passOnStalemateBlack"),
}
# pawnTypes sets these three pairs at once (variant.h: "see promotionPawnTypes, ...").
PAWN_TYPES_SETS = ("promotionPawnTypes", "enPassantTypes", "nMoveRuleTypes")


def _chess(**options):
    return {"pieces": dict(CHESS_PIECES), "options": options}


_SHATRANJ = {"pieces": {"pawn": "p", "knight": "n", "rook": "r", "king": "k",
                        "alfil": "b", "fers": "q"},
             "options": {"startFen": "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1",
                         "promotionPieceTypes": "q", "doubleStep": "false",
                         "castling": "false", "extinctionValue": "loss",
                         "extinctionClaim": "true", "extinctionPieceTypes": "*",
                         "extinctionPieceCount": "1", "extinctionOpponentPieceCount": "2",
                         "stalemateValue": "loss", "nMoveRule": "70"}}

_SHOGI = {"pieces": {"shogiPawn": "p", "silver": "s", "gold": "g", "bishop": "b",
                     "dragonHorse": "h", "rook": "r", "bers": "d", "king": "k",
                     "lance": "l", "shogiKnight": "n"},
          "options": {"maxRank": "9", "maxFile": "9",
                      "startFen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
                                  "[-] w 0 1",
                      "pieceDrops": "true", "capturesToHand": "true",
                      "promotionRegionWhite": "*7 *8 *9", "promotionRegionBlack": "*1 *2 *3",
                      "doubleStep": "false", "castling": "false",
                      "promotedPieceType": "p:g s:g b:h r:d l:g n:g",
                      "dropNoDoubled": "p", "immobilityIllegal": "true",
                      "shogiPawnDropMateIllegal": "true", "stalemateValue": "loss",
                      "nFoldRule": "4", "nMoveRule": "0", "perpetualCheckIllegal": "true"}}

_PALACE_WHITE = "d1 e1 f1 d2 e2 f2 d3 e3 f3"           # xiangqi's and janggi's palaces
_PALACE_BLACK = "d8 e8 f8 d9 e9 f9 d10 e10 f10"


def _palace(*pieces):
    """The mobility regions that keep each of `pieces` (FSF's names, capitalised) in
    its side's palace (xiangqi's and janggi's king and advisor)."""
    return {f"mobilityRegion{side}{piece}": palace for piece in pieces
            for side, palace in (("White", _PALACE_WHITE), ("Black", _PALACE_BLACK))}


_XIANGQI = {"pieces": {"rook": "r", "horse": "n", "king": "k:W", "cannon": "c",
                       "soldier": "p", "elephant": "b", "fers": "a"},
            "options": {"maxRank": "10", "maxFile": "9",
                        "startFen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
                                    " w - - 0 1",
                        **_palace("King", "Fers"),
                        "mobilityRegionWhiteElephant": "*1 *2 *3 *4 *5",
                        "mobilityRegionBlackElephant": "*6 *7 *8 *9 *10",
                        "soldierPromotionRank": "6", "doubleStep": "false",
                        "castling": "false", "stalemateValue": "loss",
                        "perpetualCheckIllegal": "true", "flyingGeneral": "true",
                        "nMoveRule": "0"}}
# (Fairy-Stockfish's xiangqi also has chasingRule = axf, which Fairyforge's xiangqi
# leaves out, docs/rules/xiangqi.md: a child of xiangqi inherits our xiangqi's rules.)

_GARDNER = _chess(maxRank="5", maxFile="5", startFen="rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1",
                  promotionRegionWhite="*5", promotionRegionBlack="*1", doubleStep="false",
                  castling="false")
_CAPABLANCA = {"pieces": {**CHESS_PIECES, "archbishop": "a", "chancellor": "c"},
               "options": {"maxFile": "10", "castlingKingsideFile": "i",
                           "castlingQueensideFile": "c", "promotionPieceTypes": "acqrbn",
                           "startFen": "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/"
                                       "RNABQKBCNR w KQkq - 0 1"}}
_JANUS = {"pieces": {**CHESS_PIECES, "archbishop": "j"},
          "options": {"maxFile": "10", "castlingKingsideFile": "i",
                      "castlingQueensideFile": "b", "promotionPieceTypes": "jqrbn",
                      "startFen": "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR "
                                  "w KQkq - 0 1"}}

_MAKRUK = {"pieces": {"pawn": "p", "knight": "n", "rook": "r", "king": "k", "silver": "s",
                      "fers": "m"},
           "options": {"startFen": "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
                       "promotionRegionWhite": "*6 *7 *8", "promotionRegionBlack": "*3 *2 *1",
                       "promotionPieceTypes": "m", "doubleStep": "false", "castling": "false",
                       "nMoveRule": "0", "countingRule": "makruk"}}
_ASEAN = {"pieces": {"pawn": "p", "knight": "n", "rook": "r", "king": "k", "silver": "b",
                     "fers": "q"},
          "options": {"startFen": "rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1",
                      "promotionPieceTypes": "rnbq", "doubleStep": "false",
                      "castling": "false", "countingRule": "asean"}}
# Giveaway: the king an ordinary piece (a commoner), captures compulsory, losing every
# piece or being stalemated wins; antichess is giveaway without castling.
_GIVEAWAY = {"pieces": {**{t: c for t, c in CHESS_PIECES.items() if t != KING},
                        "commoner": "k"},
             "options": {"castlingKingPiece": "k", "promotionPieceTypes": "kqrbn",
                         "stalemateValue": "win", "extinctionValue": "win",
                         "extinctionPieceTypes": "*", "mustCapture": "true"}}
_ANTICHESS = {"pieces": _GIVEAWAY["pieces"],
              "options": {**_GIVEAWAY["options"], "castling": "false",
                          "startFen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"}}
_MINISHOGI_BASE = {"pieces": {t: _SHOGI["pieces"][t] for t in _SHOGI["pieces"]
                              if t not in ("lance", "shogiKnight")},
                   "options": {**_SHOGI["options"], "maxRank": "5", "maxFile": "5",
                               "startFen": "rbsgk/4p/5/P4/KGSBR[-] w 0 1",
                               "promotionRegionWhite": "*5", "promotionRegionBlack": "*1",
                               "promotedPieceType": "p:g s:g b:h r:d"}}
_CHECKS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {0}+{0} 0 1"
# Atomic without check: the king an ordinary piece whose extinction loses, captures
# exploding; atomic makes it pseudo-royal (it may not be left attacked).
_NOCHECKATOMIC = {"pieces": _GIVEAWAY["pieces"],
                  "options": {"castlingKingPiece": "k", "extinctionValue": "loss",
                              "extinctionPieceTypes": "k", "blastOnCapture": "true"}}
_JANGGI = {"pieces": {"rook": "r", "horse": "n", "king": "k:W", "soldier": "p",
                      "janggiCannon": "c", "janggiElephant": "b", "wazir": "a"},
           "options": {"maxRank": "10", "maxFile": "9",
                       "startFen": "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/"
                                   "RNBA1ABNR w - - 0 1",
                       **_palace("King", "Wazir"),
                       "doubleStep": "false", "castling": "false", "stalemateValue": "loss",
                       "perpetualCheckIllegal": "true", "bikjangRule": "true",
                       "materialCounting": "janggi",
                       "diagonalLines": "d1 f1 e2 d3 f3 d8 f8 e9 d10 f10", "pass": "true"}}

# Built-in variants that a section may name as parent: {FSF name: {"pieces": {type:
# letter, or "letter:Betza"}, "options": {...}}}.  A section descending from one becomes
# a child of the bundled definition of the same name (`extends NAME`), which must play
# the same game; while Fairyforge bundles no definition of that name the section is
# refused, naming its parent.
BUILTIN_PARENTS = {
    "chess": _chess(),
    "crazyhouse": _chess(
        startFen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        pieceDrops="true", capturesToHand="true"),
    "kingofthehill": _chess(
        flagPiece="k", flagRegionWhite="d4 e4 d5 e5", flagRegionBlack="d4 e4 d5 e5"),
    "racingkings": _chess(
        startFen="8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", flagPiece="k",
        flagRegionWhite="*8", flagRegionBlack="*8", flagMove="true", castling="false",
        checking="false"),
    "shatranj": _SHATRANJ,
    "chaturanga": {"pieces": _SHATRANJ["pieces"],
                   "options": {**_SHATRANJ["options"], "extinctionValue": "none",
                               "startFen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - "
                                           "0 1"}},
    "shogi": _SHOGI,
    "xiangqi": _XIANGQI,
    "gardner": _GARDNER,
    "capablanca": _CAPABLANCA,
    "janus": _JANUS,
    "3check": _chess(startFen=_CHECKS.format(3), checkCounting="true"),
    "5check": _chess(startFen=_CHECKS.format(5), checkCounting="true"),
    "makruk": _MAKRUK,
    "asean": _ASEAN,
    "losers": _chess(checkmateValue="win", stalemateValue="win", extinctionValue="win",
                     extinctionPieceTypes="*", extinctionPieceCount="1", mustCapture="true"),
    "giveaway": _GIVEAWAY,
    "antichess": _ANTICHESS,
    "suicide": {"pieces": _ANTICHESS["pieces"],
                "options": {**_ANTICHESS["options"], "stalematePieceCount": "true"}},
    "nocheckatomic": _NOCHECKATOMIC,
    "atomic": {"pieces": _NOCHECKATOMIC["pieces"],
               "options": {**_NOCHECKATOMIC["options"], "extinctionPseudoRoyal": "true"}},
    "breakthrough": {"pieces": {"breakthrough": "p"},
                     "options": {"startFen": "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1",
                                 "doubleStep": "false", "castling": "false",
                                 "stalemateValue": "loss", "flagPiece": "p",
                                 "flagRegionWhite": "*8", "flagRegionBlack": "*1"}},
    "janggi": _JANGGI,
    "grand": {"pieces": {**CHESS_PIECES, "archbishop": "a", "chancellor": "c"},
              "options": {"maxRank": "10", "maxFile": "10",
                          "startFen": "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/"
                                      "1NBQKCABN1/R8R w - - 0 1",
                          "promotionPieceTypes": "acqrbn",
                          "promotionRegionWhite": "*8 *9 *10",
                          "promotionRegionBlack": "*3 *2 *1",
                          "promotionLimit": "a:1 c:1 q:1 r:2 b:2 n:2",
                          "mandatoryPawnPromotion": "false", "immobilityIllegal": "true",
                          "doubleStepRegionWhite": "*3", "doubleStepRegionBlack": "*8",
                          "castling": "false"}},
    "placement": _chess(
        startFen="8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1",
        mustDrop="true", pieceDrops="true", capturesToHand="false", dropRegionWhite="*1",
        dropRegionBlack="*8", dropOppositeColoredBishop="true", castlingDroppedPiece="true"),
    "extinction": {"pieces": _GIVEAWAY["pieces"],
                   "options": {"castlingKingPiece": "k", "promotionPieceTypes": "kqrbn",
                               "extinctionValue": "loss", "extinctionPieceTypes": "kqrbnp"}},
    "losalamos": {"pieces": {t: c for t, c in CHESS_PIECES.items() if t != "bishop"},
                  "options": {"maxRank": "6", "maxFile": "6",
                              "startFen": "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1",
                              "promotionRegionWhite": "*6", "promotionRegionBlack": "*1",
                              "promotionPieceTypes": "qrn", "doubleStep": "false",
                              "castling": "false"}},
    "pocketknight": _chess(
        startFen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1",
        pieceDrops="true", capturesToHand="false"),
    "minishogi": {"pieces": _MINISHOGI_BASE["pieces"],
                  "options": {**_MINISHOGI_BASE["options"], "nFoldValue": "loss",
                              "nFoldValueAbsolute": "true"}},
    "gorogoro": {"pieces": _MINISHOGI_BASE["pieces"],
                 "options": {**_MINISHOGI_BASE["options"], "maxRank": "6",
                             "startFen": "sgkgs/5/1ppp1/1PPP1/5/SGKGS[-] w 0 1",
                             "promotionRegionWhite": "*5 *6",
                             "promotionRegionBlack": "*2 *1"}},
}
