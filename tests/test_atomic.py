"""Explosions: `captures explode` and `explosions spare PIECES [nearby]`
(compiler/rules/explosions.py), in definitions/atomic, nocheckatomic and atomar.

Position tests from the rule's wording, each checked against Fairy-Stockfish as well
(pyffish knows the three games): the legal moves, the position after the move (FEN)
and the game end.  tests/test_fsf_catalog.py adds the random-playout differential and
FSF's perft rows.
"""

import pytest

import fairyforge as ff
from conftest import definition_error
from fsf_playouts import play_and_compare
from fairyforge.errors import IllegalMoveError

sf = pytest.importorskip("pyffish")


@pytest.fixture(scope="module")
def atomic():
    return ff.load("atomic")


@pytest.fixture(scope="module")
def nocheck():
    return ff.load("nocheckatomic")


@pytest.fixture(scope="module")
def atomar():
    return ff.load("atomar")


def agree(game, variant, fen, moves=()):
    return play_and_compare(sf, game, variant, fen, moves)


def test_a_capture_removes_the_capturer_and_the_pieces_around_but_pawns(atomic):
    fen = "4k3/8/2npb3/3q4/8/8/3R4/4K3 w - - 0 1"
    pos = agree(atomic, "atomic", fen, ["d2d5"])
    # the rook, the queen, the knight and the bishop are gone; the pawn on d6 stays
    assert pos.fen() == "4k3/8/3p4/8/8/8/8/4K3 b - - 0 1"
    assert pos.is_check() is False


def test_a_capturing_pawn_explodes_too(atomic):
    pos = agree(atomic, "atomic", "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", ["e4d5"])
    assert pos.fen() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1"


def test_en_passant_blasts_around_the_square_the_pawn_moves_to(atomic):
    fen = "4k3/8/2n5/3pP3/8/8/8/4K3 w - d6 0 2"
    pos = agree(atomic, "atomic", fen, ["e5d6"])
    assert pos.fen() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1".replace(" 1", " 2")


def test_taking_back_restores_the_blast(atomic):
    fen = "r3k2r/8/8/3q4/8/8/3R4/R3K2R w KQkq - 0 1"
    pos = atomic.position(fen)
    key = pos.key()
    for move in ("d2d5", "a1a8", "h1h8"):
        pos.push_uci(move)
        pos.pop()
        assert pos.fen() == fen and pos.key() == key


def test_a_blasted_rook_loses_its_castling_right(atomic):
    pos = agree(atomic, "atomic", "r3k2r/1q6/8/8/8/8/6Q1/R3K2R w KQkq - 0 1", ["g2b7"])
    assert pos.fen().split()[2] == "KQk"


def test_a_king_may_not_capture(atomic):
    pos = agree(atomic, "atomic", "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1")
    assert "e1d2" not in map(str, pos.legal_moves())
    with pytest.raises(IllegalMoveError, match="explosion would destroy White's king"):
        pos.push_uci("e1d2")


def test_a_move_may_not_blow_up_ones_own_king(atomic):
    pos = agree(atomic, "atomic", "4k3/8/8/8/8/8/3n4/3RK3 w - - 0 1")
    assert "d1d2" not in map(str, pos.legal_moves())


def test_blowing_up_the_enemy_king_wins_even_from_check(atomic):
    # White is in check from the rook on e8; taking the knight on a8 blows up the
    # black king on b8, which is legal although the check remains
    fen = "nk2r3/8/8/8/8/8/8/Q3K3 w - - 0 1"
    pos = agree(atomic, "atomic", fen)
    assert pos.is_check()
    assert "a1a8" in map(str, pos.legal_moves()) and "a1b1" not in map(str, pos.legal_moves())
    pos = agree(atomic, "atomic", fen, ["a1a8"])
    assert pos.outcome() == ff.Outcome("white", "explosion")
    assert pos.legal_moves() == [] and pos.perft(2) == 0


def test_kings_side_by_side_do_not_check(atomic):
    # the black rook attacks e2, but the white king there touches Black's king
    fen = "8/8/8/8/8/4k3/8/4K2r w - - 0 1"
    pos = agree(atomic, "atomic", fen)
    assert "e1e2" in map(str, pos.legal_moves())
    pos = agree(atomic, "atomic", fen, ["e1e2"])
    assert not pos.is_check()


def test_castling_may_pass_an_attacked_square_beside_the_enemy_king(atomic):
    fen = "5r2/8/8/8/8/8/5k2/R3K2R w KQ - 0 1"
    pos = agree(atomic, "atomic", fen)
    assert "e1g1" in map(str, pos.legal_moves())


def test_no_check_king_captures_and_blows_itself_up(nocheck):
    pos = agree(nocheck, "nocheckatomic", "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", ["e1d2"])
    assert pos.outcome() == ff.Outcome("black", "extinction")


def test_no_check_king_may_stay_attacked(nocheck):
    pos = agree(nocheck, "nocheckatomic", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1")
    assert not pos.is_check()
    assert "e1e2" in map(str, pos.legal_moves()) and "e1f1" in map(str, pos.legal_moves())


def test_atomar_kings_survive_blasts_and_do_not_take_each_other(atomar):
    pos = agree(atomar, "atomar", "8/8/8/8/8/3k4/3nK3/8 w - - 0 1", ["e2d2"])
    assert pos.fen().startswith("8/8/8/8/8/3k4/3K4/8 b")    # the king took and survived
    pos = agree(atomar, "atomar", "8/8/8/8/8/8/3kK3/8 w - - 0 1")
    assert "e2d2" not in map(str, pos.legal_moves())
    with pytest.raises(IllegalMoveError, match="forbids this piece to take that one"):
        pos.push_uci("e2d2")


def test_the_rule_reaches_only_games_that_use_it(atomic):
    with open(atomic.source_path) as handle:
        source = handle.read()
    assert "cdef void explode(" in source and "HAS_CHECK_RULE = 1" in source
    with open(ff.load("chess").source_path) as handle:
        chess = handle.read()
    assert "explode" not in chess and "RULE_BYTES = 0" in chess



def test_sparing_needs_explosions(tmp_path):
    text = definition_error(tmp_path, "variant bad extends chess\nexplosions spare pawn nearby\n")
    assert "bad.variant:2:18:" in text and "needs 'captures explode'" in text


def test_sparing_an_unknown_piece(tmp_path):
    text = definition_error(tmp_path, "variant bad extends chess\ncaptures explode\n"
                               "explosions spare pwan nearby\n")
    assert "bad.variant:3:18:" in text and "unknown piece 'pwan' (did you mean 'pawn'?)" in text
