"""`fairyforge import` and `fairyforge export` for the later rule kinds (explosions, capture
and hop bans, palace lines, passing, makpong, bikjang, material counting, pseudo-royal
pieces, promotion limits, flips, the drop flags, placement, en passant regions and
marks, Chess960, the flag's conditions, the move rule's pieces, stuck pieces).

Each option becomes its statement (small ini examples of the tests' own); a few
imports of the tests' own are built and compared with pyffish loading the same ini
(tests/fsf_playouts.py: complete legal move sets, check, FEN and game end along random
playouts); and exports of small definitions are loaded back into pyffish."""

import pytest

from fairyforge import interop
from fairyforge.compiler import loader
from fairyforge.interop.export import ExportRefusal, export_variant
from fsf_playouts import differential_playouts
from test_interop import BASE, build_imports, statements
from test_interop import imported as imported_text

sf = pytest.importorskip("pyffish")


def imported(ini, section="mini"):
    return imported_text(ini, section)


CHESS960 = ("castling = true\nchess960 = true\ncastlingKingsideFile = e\n"
            "castlingQueensideFile = b\nstartFen = r2k1r/pppppp/6/6/PPPPPP/R2K1R w KQkq - 0 1")
ATOMIC = ("king = -\ncommoner = k\nextinctionValue = loss\nextinctionPieceTypes = k\n"
          "extinctionPseudoRoyal = true\nblastOnCapture = true")
DROPS = "pieceDrops = true\ncapturesToHand = true\n"
FLIPS = ("doubleStep = false\ncustomPiece1 = a:fW\npromotedPieceType = p:r a:r\n"
         "pieceDemotion = true\nmandatoryPiecePromotion = true\n"
         "promotionRegionWhite = *1 *2 *3 *4 *5 *6\n"
         "promotionRegionBlack = *1 *2 *3 *4 *5 *6\npromotionPieceTypes = -\n")


@pytest.mark.parametrize("options, expected", [
    (ATOMIC, "captures explode"),
    (ATOMIC, "explosions spare pawn nearby"),
    (ATOMIC, "piece commoner K K royal"),           # FSF's atomic king: the royal piece
    (ATOMIC + "\nblastImmuneTypes = r", "explosions spare rook"),
    ("mutuallyImmuneTypes = r", "no capture of rook by rook"),
    ("janggiCannon = c", "piece janggi_cannon C pR"),
    ("janggiCannon = c", "no hop over janggi_cannon by janggi_cannon"),
    ("janggiCannon = c", "no capture of janggi_cannon by janggi_cannon"),
    ("diagonalLines = c1 d2 e3\nwazir = w", "region lines = c1 d2 e3"),
    ("diagonalLines = c1 d2 e3\nwazir = w", "move rook B along lines"),
    ("diagonalLines = c1 d2 e3\nwazir = w", "move wazir F along lines"),
    ("pass = true", "passing allowed"),
    ("passBlack = true", "passing allowed for black"),
    ("makpongRule = true", "in check, king may only capture the checker"),
    ("bikjangRule = true", "facing kings end the game"),
    ("materialCounting = blackdrawodds", "draws count as wins for black"),
    ("materialCounting = janggi\nwazir = w", "points rook 13, wazir 3, black 1.5"),
    ("queen = q\nextinctionValue = loss\nextinctionPieceTypes = q\n"
     "extinctionPseudoRoyal = true", "pseudo royal queen when at most 1"),
    ("queen = q\nextinctionValue = loss\nextinctionPieceTypes = q\n"
     "extinctionPseudoRoyal = true\ndupleCheck = true",
     "pseudo royal queen when at most 1, duple check"),
    ("queen = q\nextinctionValue = loss\nextinctionPieceTypes = q\nextinctionPieceCount = 1",
     "win by extinction of queen below 2"),
    ("extinctionValue = loss\nextinctionPieceTypes = *", "win by extinction of all pieces"),
    ("queen = q\npromotionPieceTypes = qr\npromotionLimit = q:1",
     "promotion to queen only while fewer than 1"),
    (FLIPS, "flip pawn, custom1"),
    (FLIPS + "piecePromotionOnCapture = true", "flip pawn, custom1 on capturing"),
    (FLIPS + DROPS + "dropPromoted = true", "drop all in drop_zone either side up"),
    (DROPS + "dropNoDoubled = r\ndropNoDoubledCount = 2", "drop rook in drop_zone not tripled"),
    (DROPS + "mustDrop = true", "drops are compulsory"),
    (DROPS + "dropNoDoubled = r\ndropNoDoubledCount = 0", "drop rook in all except all"),
    (DROPS + "bishop = b\ndropOppositeColoredBishop = true",
     "drop bishop in drop_zone on opposite colours"),
    ("enPassantRegionWhite = *3\nenPassantRegionBlack = *3\nmaxRank = 8\n"
     "startFen = r1k3/pppppp/6/6/6/6/PPPPPP/R1K3 w - - 0 1",
     "en passant pawn in en_passant_zone"),
    ("enPassantRegionWhite = *6\nenPassantRegionBlack = *3\nmaxRank = 8\n"
     "startFen = r1k3/pppppp/6/6/6/6/PPPPPP/R1K3 w - - 0 1", "region en_passant_zone = rank 3"),
    ("pawn = -\ncustomPiece1 = p:fmWfceFifmnD\npawnTypes = p", "mark every double step"),
    ("pawn = -\ncustomPiece1 = p:mWfceFifmnD\npawnTypes = p",
     "move rule 50, restarted by custom1"),
    ("nMoveRuleTypes = -", "move rule 50, restarted by captures only"),
    ("flagPiece = r\nflagRegionWhite = *6\nflagRegionBlack = *1\nflagMove = true",
     "win by rook reaching goal, after a reply"),
    ("flagPiece = k\nflagRegionWhite = *6\nflagRegionBlack = *1\nflagPieceSafe = true",
     "win by king reaching goal, if safe"),
    (DROPS + "customPiece1 = a:fW", "stuck pieces allowed"),
    (CHESS960, "chess960 castling"),
    (CHESS960, "castling for white king d1 to e1, rook f1 to d1"),   # written d1f1
])
def test_each_newly_supported_option_becomes_its_statement(options, expected):
    assert expected in statements(imported(BASE + options + "\n"))


@pytest.mark.parametrize("options", [
    "",                                         # a promotion that FSF forces
    DROPS + "promotionRegionWhite = *6\npromotionRegionBlack = *1",  # pawns: not on rank 6
    "immobilityIllegal = true\n" + DROPS + "customPiece1 = a:fW",
])
def test_stuck_pieces_are_allowed_only_where_it_changes_something(options):
    assert "stuck pieces allowed" not in statements(imported(BASE + options + "\n"))


def test_a_piece_declared_again_leaves_the_promotion_choices_as_in_fairy_stockfish():
    # variant.h: add_piece removes the piece that had the letter, and remove_piece takes
    # its type out of promotionPieceTypes, unless the section lists them itself
    found = statements(imported("[tq:chess]\nqueen = q\n", "tq"))
    assert "promote pawn to knight, bishop, rook in last_rank forced in last_rank" in \
        [line.replace("promotion_zone", "last_rank") for line in found]
    found = statements(imported("[tq:chess]\nqueen = q\npromotionPieceTypes = q\n", "tq"))
    assert any(line.startswith("promote pawn to queen in") for line in found)


def test_promoted_piece_types_add_to_the_inherited_ones():
    # parser.cpp sets each listed type's promotion and leaves the others' alone
    found = statements(imported("[gp:gorogoro]\nlance = l\npromotedPieceType = l:g\n"
                                "startFen = sgkgs/5/1ppp1/1PPP1/5/SGKGS[Ll] w - - 0 1\n", "gp"))
    assert found[0] == 'variant gp "gp" extends gorogoro'
    assert any(line.startswith("promote pawn to tokin in") for line in found)
    assert any(line.startswith("promote lance to") for line in found)


def test_castling_with_dropped_pieces_comes_from_the_castling_files():
    ini = ("[place:chess]\nstartFen = 8/pppppppp/8/8/8/8/PPPPPPPP/8[KRRkrr] w - - 0 1\n"
           "pieceDrops = true\nmustDrop = true\ndropRegionWhite = *1\ndropRegionBlack = *8\n"
           "castlingDroppedPiece = true\n")
    found = statements(imported(ini, "place"))
    assert found[0] == 'variant place "place" extends chess'
    assert {"castling for white king e1 to g1, rook h1 to f1",
            "castling for black king e8 to c8, rook a8 to d8",
            "castling with dropped rook", "drops are compulsory"} <= set(found)


def test_a_child_of_janggi_writes_only_its_changes():
    found = statements(imported("[jh:janggi]\nnMoveRule = 100\n"
                                "startFen = rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/"
                                "4K4/RNBA1ABN1 w - - 0 1\n", "jh"))
    assert found[0] == 'variant jh "jh" extends janggi'
    assert "move rule 100, restarted by captures only" in found    # FSF's pawn type: none
    assert not any(line.startswith(("piece", "move ", "points")) for line in found
                   if not line.startswith("move rule"))


@pytest.mark.parametrize("options, option, reason", [
    ("flagPiece = k\nflagRegionWhite = *6\nflagRegionBlack = *1\nflagMove = true\n"
     "flagPieceSafe = true", "flagPieceSafe = true", "one condition per goal"),
    (DROPS + "dropNoDoubled = r\ndropNoDoubledCount = 3", "dropNoDoubledCount = 3",
     "a count other than 0 (never dropped), 1"),
    ("materialCounting = unweighted", "materialCounting = unweighted", "'unweighted'"),
    ("customPiece1 = a:fW\npromotedPieceType = a:r\npieceDemotion = true",
     "pieceDemotion = true", "the whole board as the promotion region"),
    ("promotionLimit = x:1", "promotionLimit = x:1", "expected pairs such as q:1"),
    ("flagRegionWhite = *6\nflagRegionBlack = *1\nflagPieceSafe = true",
     "flagPieceSafe = true", "flag pieces other than the king"),
    ("blastOnCapture = true", "blastOnCapture = true", "beside Fairy-Stockfish's king type"),
    ("promotedPieceType = p:r\npromotionRegionWhite = *4 *5 *6\nmaxRank = 8\n"
     "startFen = r1k3/pppppp/6/6/6/6/PPPPPP/R1K3 w - - 0 1",
     "promotionRegionWhite = *4 *5 *6", "may take en passant into its promotion zone"),
])
def test_what_the_new_statements_cannot_say_is_refused_with_option_and_line(
        options, option, reason):
    with pytest.raises(interop.ImportRefusal) as refusal:
        imported(BASE + options + "\n")
    assert str(refusal.value).startswith(f"mini: {option} (line ")
    assert reason in str(refusal.value)


# --- pyffish as the oracle -----------------------------------------------------------

ORACLE_INI = """[rules-blast]
commoner = k
rook = r
knight = n
pawn = p
extinctionValue = loss
extinctionPieceTypes = k
extinctionPseudoRoyal = true
maxRank = 6
maxFile = 6
startFen = rnk1nr/pppppp/6/6/PPPPPP/RNK1NR w - - 0 1
castling = false
promotionRegionWhite = *6
promotionRegionBlack = *1
promotionPieceTypes = rn
blastOnCapture = true
mutuallyImmuneTypes = n
materialCounting = blackdrawodds
[rules-royal:chess]
extinctionValue = loss
extinctionPieceTypes = q
extinctionPseudoRoyal = true
promotionLimit = q:2 n:3
enPassantRegionWhite = *6
enPassantRegionBlack = *4
flagPiece = k
flagRegionWhite = *5
flagRegionBlack = *4
flagPieceSafe = true
[rules-flip]
king = k
shogiPawn = p
silver = s
rook = r
bishop = b
maxRank = 5
maxFile = 5
startFen = s1k1p/5/5/5/P1K1S[] w - - 0 1
castling = false
promotedPieceType = p:r s:b
promotionPieceTypes = -
promotionRegionWhite = *1 *2 *3 *4 *5
promotionRegionBlack = *1 *2 *3 *4 *5
mandatoryPiecePromotion = true
pieceDemotion = true
pieceDrops = true
capturesToHand = true
dropPromoted = true
stalemateValue = loss
[rules-pass:makruk]
makpongRule = true
pass = true
"""
ORACLE = ["rules-blast", "rules-royal", "rules-flip", "rules-pass"]


@pytest.fixture(scope="module")
def oracle_games(tmp_path_factory):
    return build_imports(ORACLE_INI, ORACLE, tmp_path_factory.mktemp("imported"))


@pytest.mark.parametrize("name", ORACLE)
def test_an_import_of_the_new_rules_plays_as_pyffish_plays_the_ini(oracle_games, name):
    positions, _ = differential_playouts(sf, oracle_games[name], name, 100, seed=7)
    assert positions >= 100


@pytest.mark.parametrize("game, options", [
    ("makpong", ["makpongRule = true"]),
    ("armageddon", ["materialCounting = blackdrawodds"]),
    ("atomar", ["blastOnCapture = true", "blastImmuneTypes = k", "mutuallyImmuneTypes = k"]),
    ("fischerandom", ["chess960 = true"]),
    ("threekings", ["extinctionPieceCount = 2"]),
    ("coregal", ["extinctionPseudoRoyal = true", "extinctionPieceTypes = q"]),
    ("placement", ["mustDrop = true", "dropOppositeColoredBishop = true",
                   "castlingDroppedPiece = true"]),
    ("grand", ["promotionLimit = a:1 c:1 q:1 r:2 b:2 n:2"]),
    ("giveaway", ["castlingKingPiece = k"]),
])
def test_the_exporter_writes_the_new_rules_as_their_options(game, options):
    written = export_variant(loader.load_variant(game)).splitlines()
    assert set(options) <= set(written)


@pytest.mark.parametrize("lines, reason", [
    ("explosions spare knight nearby", "spares its pawn type beside an explosion"),
    ("piece pawn P fmWfcFifmnD\nmark every double step", "marks every double step exactly"),
    ("pseudo royal queen\nwin by extinction of rook", "pseudo royal pieces together with"),
])
def test_what_fairy_stockfish_cannot_say_of_the_new_rules_is_refused(tmp_path, lines, reason):
    path = tmp_path / "mine.variant"
    head = "captures explode\n" if "explosions" in lines else ""
    path.write_text(f"variant mine extends chess\n{head}{lines}\n")
    with pytest.raises(ExportRefusal, match=reason):
        export_variant(loader.load_variant(str(path)))
