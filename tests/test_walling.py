"""Walls made by the rules: `petrify PIECES after capturing` (petrified) and
`a duck is placed after every move` (duck chess).  Each position is compared with
pyffish (legal moves, check, FEN, game end: fsf_playouts.play_and_compare);
tests/test_fsf_catalog.py adds the playout differential and FSF's perft rows.
"""

import pytest

import fairyforge as ff
from fsf_playouts import definition_error, play_and_compare
from fairyforge.errors import IllegalMoveError

sf = pytest.importorskip("pyffish")


@pytest.fixture(scope="module")
def petrified():
    return ff.load("petrified")


def agree(game, variant, fen, moves=()):
    return play_and_compare(sf, game, variant, fen, moves)


def moves_from(pos, square):
    return sorted(str(m) for m in pos.legal_moves() if str(m).startswith(square))


# -- petrify ... after capturing --------------------------------------------------------

def test_a_capturing_queen_turns_into_a_wall(petrified):
    pos = agree(petrified, "petrified", "k7/8/8/3p4/4Q3/8/8/4K3 w - - 0 1", ["e4d5"])
    assert pos.fen() == "k7/8/8/3*4/8/8/8/4K3 b - - 0 1"
    assert not pos.is_check()                # a wall gives no check


def test_a_wall_blocks_lines_and_cannot_be_taken(petrified):
    fen = "k7/8/8/3p4/4Q3/8/8/3RK3 w - - 0 1"
    pos = agree(petrified, "petrified", fen, ["e4d5", "a8b8"])
    assert moves_from(pos, "d1") == ["d1a1", "d1b1", "d1c1", "d1d2", "d1d3", "d1d4"]


def test_take_back_restores_the_capturer_and_its_victim(petrified):
    fen = "k7/8/8/3p4/4Q3/8/8/4K3 w - - 0 1"
    pos = petrified.position(fen)
    pos.push_uci("e4d5")
    pos.pop()
    assert pos.fen() == fen
    assert pos.perft(3) == petrified.position(fen).perft(3)


def test_a_pawn_does_not_petrify_even_when_it_promotes(petrified):
    pos = agree(petrified, "petrified", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", ["a7b8q"])
    assert pos.fen().startswith("1Q2k3/")


def test_the_king_may_not_capture(petrified):
    fen = "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1"
    pos = agree(petrified, "petrified", fen)
    assert "e1d2" not in moves_from(pos, "e1")
    with pytest.raises(IllegalMoveError, match="turn into a wall"):
        pos.push_uci("e1d2")


def test_kings_may_stand_side_by_side_and_that_counts_as_check(petrified):
    pos = agree(petrified, "petrified", "8/8/8/4k3/8/3K4/8/8 w - - 0 1")
    assert "d3d4" in moves_from(pos, "d3") and "d3e4" in moves_from(pos, "d3")
    pos = agree(petrified, "petrified", "8/8/8/4k3/8/3K4/8/8 w - - 0 1", ["d3d4"])
    assert pos.is_check()                    # as Fairy-Stockfish reports it
    assert petrified.position(pos.fen()).fen() == pos.fen()    # a legal FEN (white "in check")


def test_a_king_may_not_castle_past_the_enemy_king(petrified):
    agree(petrified, "petrified", "8/8/8/8/8/8/5k2/R3K2R w KQ - 0 1")


def test_a_capture_that_petrifies_may_uncover_its_own_king(petrified):
    # The knight takes on d5 and becomes a wall there; the pin on the king is shut.
    agree(petrified, "petrified", "4k3/4r3/8/3p4/8/4N3/8/4K3 w - - 0 1")
    agree(petrified, "petrified", "4k3/8/8/3p4/8/2N5/8/r3K3 w - - 0 1")


def test_perft_matches_fairy_stockfish(petrified):
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert petrified.position(fen).perft(2) == _fsf_perft("petrified", fen, 2)


def _fsf_perft(variant, fen, depth, moves=()):
    legal = sf.legal_moves(variant, fen, list(moves))
    if depth == 1:
        return len(legal)
    return sum(_fsf_perft(variant, fen, depth - 1, [*moves, m]) for m in legal)


def test_petrify_names_known_pieces(tmp_path):
    text = ('variant bad "Bad" extends chess\n'
            'petrify queen, dragon after capturing\n')
    message = definition_error(tmp_path, "bad", text)
    assert "bad.variant:2:16" in message and "unknown piece 'dragon'" in message
