"""`fairyforge import` of the moves beyond a piece's Betza (gating from the hand, the
Cambodian first moves, the duck, petrification) and of Fairy-Stockfish's hand order.

Each option becomes its statement (small ini examples of the tests' own); what the
language cannot say is refused with the option and its line; a few imports are built
and compared with pyffish loading the same ini (tests/fsf_playouts.py: complete legal
move sets, check, FEN and game end along random playouts); and the order in which the
FEN writer puts a hand's pieces is compared with pyffish's, without building."""

import pytest

from fairyforge import interop
from fairyforge.compiler import loader
from fairyforge.fen_out import hand_order
from fsf_playouts import differential_playouts
from test_interop import BASE, build_imports, imported, statements

sf = pytest.importorskip("pyffish")

SEIRAWAN = ("[mini:chess]\narchbishop = h\nchancellor = e\npromotionPieceTypes = nbrqhe\n"
            "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - "
            "0 1\n")
CAMBODIAN = ("[mini:makruk]\nstartFen = rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - "
             "0 1\ngating = true\n")
DUCK = ("[mini:chess]\nking = -\ncommoner = k\ncastlingKingPiece = k\nextinctionValue = loss\n"
        "extinctionPieceTypes = k\nstalemateValue = win\n")


@pytest.mark.parametrize("ini, expected", [
    (SEIRAWAN + "gating = true\nseirawanGating = true\n", "gating from hand"),
    (CAMBODIAN + "cambodianMoves = true\n",
     "first move king mfsN, not in check, lost to rook on its lines"),
    (CAMBODIAN + "cambodianMoves = true\n", "first move met mfD"),
    (CAMBODIAN + "cambodianMoves = true\n",
     'setup "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1"'),
    (DUCK + "wallingRule = duck\n", "place a duck after every move"),
    ("[mini:chess]\npetrifyOnCaptureTypes = nbrq\n",
     "petrify knight, bishop, rook, queen after capturing"),
])
def test_each_option_becomes_its_statement(ini, expected):
    assert expected in statements(imported(ini, "mini"))


def test_castling_rights_and_gating_rights_share_the_castling_field():
    written = statements(imported(SEIRAWAN + "gating = true\nseirawanGating = true\n", "mini"))
    assert "castling for black king e8 to c8, rook a8 to d8" in written
    assert written[-1].endswith('w KQBCDFGkqbcdfg - 0 1"')


@pytest.mark.parametrize("options, option, reason", [
    ("wallingRule = edge", "wallingRule = edge", "walling rule 'edge' is not in the language"),
    ("wallingRule = arrow", "wallingRule = arrow", "walling rule 'arrow'"),
    ("wallingRule = duck\nwallOrMove = true", "wallOrMove = true", "a wall instead of a move"),
    ("wallingRule = duck\nwallingRegionWhite = *1 *2", "wallingRegionWhite = *1 *2",
     "part of the board"),
    ("seirawanGating = true", "seirawanGating = true", "needs gating = true"),
    ("gating = true", "gating = true", "without seirawanGating or cambodianMoves"),
    ("gating = true\nseirawanGating = true\ncambodianMoves = true", "cambodianMoves = true",
     "together"),
    ("petrifyOnCaptureTypes = r\npetrifyBlastPieces = true", "petrifyBlastPieces = true",
     "explosion"),
])
def test_what_the_language_cannot_say_is_refused_with_option_and_line(options, option, reason):
    with pytest.raises(interop.ImportRefusal) as refusal:
        imported(BASE + options + "\n", "mini")
    assert str(refusal.value).startswith(f"mini: {option} (line ")
    assert reason in str(refusal.value)


def test_a_promotion_of_a_piece_that_never_appears_is_left_out():
    """FSF's promotion of a type absent from the game does nothing (1d-chess keeps
    chess's pawn type, with no pawn): the language would refuse it as impossible."""
    found = statements(imported("[line:chess]\nmaxRank = 1\nmaxFile = 6\n"
                                "startFen = KR2rk w - - 0 1\n", "line"))
    assert not any(line.startswith("promote") for line in found)


def test_check_counts_where_the_castling_field_stands_are_read_as_fsf_reads_them():
    found = statements(imported("[rm:3check]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/"
                                "RNBQKBNR w 7+7 0 1\n", "rm"))
    assert 'setup "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 7+7 0 1"' in found
    assert "win by 7 checks" in found


def test_a_side_without_a_king_in_the_start_position_owns_none():
    """maharajah's White has no king and can never get one: the royal type is Black's
    only (`-/k`), the amazon White's pseudo-royal piece."""
    ini = ("[onesided]\nking = k\nrook = r\namazon = m\nmaxRank = 6\nmaxFile = 6\n"
           "castling = false\npromotionPawnTypes = -\nstartFen = 2k3/rrrrrr/6/6/6/3M2 w - - 0 1\n"
           "extinctionValue = loss\nextinctionPieceTypes = m\nextinctionPseudoRoyal = true\n")
    found = statements(imported(ini, "onesided"))
    assert "piece king -/k K royal" in found
    assert "pseudo royal amazon when at most 1" in found
    both = statements(imported(ini.replace("2k3/", "2k3/").replace("3M2", "2KM2"), "onesided"))
    assert "piece king K K royal" in both


def test_the_duck_with_explosions_keeps_both():
    """atomicduck: each rule kind keeps its own per-ply record (tests/test_rule_records.py)."""
    found = statements(imported("[mini:atomic]\nwallingRule = duck\n", "mini"))
    assert "place a duck after every move" in found


def test_an_empty_en_passant_region_writes_no_en_passant():
    """nuclear: with enPassantRegion = - FSF marks no double step, even of a custom pawn."""
    found = statements(imported("[mini:chess]\npawn = -\ncustomPiece1 = p:fmWfceFifmnD\n"
                                "pawnTypes = p\nenPassantRegion = -\n", "mini"))
    assert "no en passant" in found                 # (the parent's is taken back)
    assert not any(line.startswith(("en passant", "mark every")) for line in found)


# --- the hand's order -------------------------------------------------------------

# FSF's built-in types that the FEN writer used not to know (soldier, janggi cannon and
# elephant, horse) and a plain pR hopper, which is no janggi cannon but a custom
# piece, all in hand.
HANDS_INI = """[hands]
maxRank = 8
maxFile = 8
castling = false
pieceDrops = true
capturesToHand = true
king = k
soldier = s
janggiCannon = c
janggiElephant = e
horse = h
wazir = w
pawn = p
rook = r
customPiece1 = a:mNcK
customPiece2 = o:pR
startFen = 4k3/8/8/8/8/8/8/4K3[PAORHECSWpaorhecsw] w - - 0 1
"""


def test_a_hand_is_written_in_fairy_stockfishs_piece_order(tmp_path):
    sf.load_variant_config(HANDS_INI)
    path = tmp_path / "hands.variant"
    path.write_text(interop.translate(interop.read_ini(HANDS_INI), "hands", "test.ini",
                                      str(path)).text)
    variant = loader.load_variant(str(path))
    held = [variant.pieces[i] for i in hand_order(variant)]     # (not `+` nor `~` twins)
    ours = "".join(p.tokens[0] for p in held if not p.royal and p.tokens[0].isalpha())
    fen = sf.get_fen("hands", sf.start_fen("hands"), [])
    theirs = fen[fen.index("[") + 1:fen.index("]")]
    assert ours == theirs[:len(theirs) // 2]


def test_a_custom_piece_in_hand_that_moves_as_a_built_in_one_is_refused():
    """FSF numbers it above every built-in type, the FEN writer, which knows FSF's types
    by their moves, as the built-in one."""
    with pytest.raises(interop.ImportRefusal, match="customPiece1 before wazir in a hand"):
        imported(HANDS_INI.replace("a:mNcK", "a:W").replace("wazir = w\n", "wazir = w\n")
                 .replace("[PAO", "[WPAO"), "hands")


def test_a_piece_that_only_promotion_reaches_does_not_block_the_import():
    """pandemonium's case: a custom piece that moves as a built-in one but is only the
    target of promotedPieceType is written as a `+` piece and never stands in a hand."""
    ini = ("[mini]\nmaxRank = 6\nmaxFile = 6\ncastling = false\npieceDrops = true\n"
           "capturesToHand = true\nking = k\nshogiPawn = p\ngold = g\ncustomPiece1 = a:WF\n"
           "promotedPieceType = p:a\npromotionRegionWhite = *6\npromotionRegionBlack = *1\n"
           "startFen = 2k3/2p3/6/6/2P3/2K3[Gg] w - - 0 1\n")
    assert "piece promoted_shogi_pawn +P WF" in statements(imported(ini, "mini"))


# --- pyffish as the oracle -----------------------------------------------------------

ORACLE_INI = f"""[gates:chess]
archbishop = h
chancellor = e
promotionPieceTypes = nbrqhe
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1
gating = true
seirawanGating = true
pieceDrops = true
capturesToHand = true
[firstmoves:makruk]
startFen = rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1
gating = true
cambodianMoves = true
countingRule = cambodian
[ducks:chess]
king = -
commoner = k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = k
stalemateValue = win
wallingRule = duck
[stones:chess]
petrifyOnCaptureTypes = nbrq
"""
ORACLE = ["gates", "firstmoves", "ducks", "stones"]


@pytest.fixture(params=ORACLE)
def imported_game(request, tmp_path):
    """(section, the built game of its import), pyffish having loaded the same ini."""
    return request.param, build_imports(ORACLE_INI, [request.param], tmp_path)[request.param]


def test_an_import_plays_as_pyffish_plays_the_ini(imported_game):
    name, game = imported_game
    assert differential_playouts(sf, game, name, 100, seed=7)[0] >= 100
