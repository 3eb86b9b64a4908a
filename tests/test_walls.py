"""Wall squares: `*` in a FEN (Fairy-Stockfish's wall squares), in the setup of
definitions/gustav3, omicron and troitzky or in any FEN a user gives.  No piece may
enter or pass a wall; a leaper jumps over it.

Each position is checked against pyffish as well (legal moves and FEN);
tests/test_fsf_catalog.py adds the playout differential and FSF's perft rows.
"""

import pytest

import fairyforge as ff
from fsf_playouts import play_and_compare
from fairyforge.errors import FenError, IllegalMoveError

sf = pytest.importorskip("pyffish")


@pytest.fixture(scope="module")
def chess():
    return ff.load("chess")


def agree(game, variant, fen, moves=()):
    return play_and_compare(sf, game, variant, fen, moves)


def moves_from(pos, square):
    return sorted(str(m) for m in pos.legal_moves() if str(m).startswith(square))


def test_a_fen_with_walls_reads_and_writes_back(chess):
    fen = "rnbqkbnr/pppppppp/8/3*4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    pos = agree(chess, "chess", fen)
    assert pos.fen() == fen
    assert pos.copy().fen() == fen


def test_a_rider_stops_before_a_wall(chess):
    pos = agree(chess, "chess", "4k3/8/8/8/R2*4/8/8/4K3 w - - 0 1")
    assert "a4d4" not in moves_from(pos, "a4") and "a4e4" not in moves_from(pos, "a4")
    assert "a4c4" in moves_from(pos, "a4")


def test_a_leaper_jumps_over_a_wall_but_never_lands_on_one(chess):
    pos = agree(chess, "chess", "4k3/8/8/8/8/1**5/1*6/N3K3 w - - 0 1")
    assert moves_from(pos, "a1") == ["a1c2"]


def test_a_pawn_cannot_double_step_through_a_wall(chess):
    pos = agree(chess, "chess", "4k3/8/8/8/8/4*3/4P3/4K3 w - - 0 1")
    assert moves_from(pos, "e2") == []


def test_walls_stay_through_moves_and_take_backs(chess):
    fen = "4k3/8/8/8/8/2*5/8/R3K3 w Q - 0 1"
    pos = agree(chess, "chess", fen, ["a1a3", "e8d8", "a3b3"])
    assert pos.fen().startswith("3k4/8/8/8/8/1R*5/8/4K3")
    for _ in range(3):
        pos.pop()
    assert pos.fen() == fen
    pos.push_uci("a1b1")
    with pytest.raises(IllegalMoveError):
        pos.push_uci("c3c4")                 # a wall is not a piece: it never moves


def test_a_wall_shields_the_king_in_a_fen(chess):
    # the rook's line to the king is walled off: Black is not in check, though White
    # is to move (a FEN that puts the side not to move in check is refused)
    pos = agree(chess, "chess", "R3*2k/8/8/8/8/8/8/4K3 w - - 0 1")
    assert not pos.is_check()
    with pytest.raises(FenError, match="black is in check"):
        chess.position("R5k1/8/8/8/8/8/8/4K3 w - - 0 1")


def test_a_wall_counts_as_a_file(chess):
    with pytest.raises(FenError, match="rank 8 has more than 8 files"):
        chess.position("rnbqkbnr*/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")


@pytest.mark.parametrize("variant", ["gustav3", "omicron", "troitzky"])
def test_the_walled_games_start_as_fairy_stockfish_does(variant):
    pos = agree(ff.load(variant), variant, sf.start_fen(variant))
    assert "*" in pos.fen()
