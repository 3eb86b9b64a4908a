"""Placement phases: `drops are compulsory`, `drop … on opposite colours` and `castling
with dropped ROOK` (compiler/rules/placement.py), and a royal piece the setup holds in
hand.  Position tests from the rules' wording, with pyffish's placement as the oracle
for the same positions; the bundled game's playouts and Fairy-Stockfish's perft rows
are in tests/test_fsf_catalog.py."""

import pytest

from fairyforge.errors import IllegalMoveError
from fsf_playouts import definition_error

sf = pytest.importorskip("pyffish")


def legal(pos):
    return sorted(str(m) for m in pos.legal_moves())


def test_the_start_offers_drops_on_the_first_rank_only(games):
    moves = legal(games["placement"].start())
    assert all("@" in m and m.endswith("1") for m in moves)
    assert "K@e1" in moves                     # the king is in hand and droppable


def test_a_side_that_can_drop_must(games):
    pos = games["placement"].start()
    with pytest.raises(IllegalMoveError, match="White has a piece to drop, and drops are "
                                               "compulsory"):
        pos.push_uci("e2e4")


def test_with_an_empty_hand_pieces_move(games):
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1"
    assert "e2e4" in legal(games["placement"].position(fen))


def test_bishops_go_on_opposite_colours(games):
    fen = "8/pppppppp/8/8/8/8/PPPPPPPP/2B5[KQRRBNNkqrrbbnn] w - - 0 1"   # c1 is dark
    moves = legal(games["placement"].position(fen))
    assert "B@a1" not in moves and "B@e1" not in moves        # dark, like c1
    assert "B@b1" in moves and "B@f1" in moves


def test_other_drops_keep_room_for_the_second_bishop(games):
    # c1 holds a (dark) bishop; e1 is dark, f1 light: the knight must leave f1 free
    fen = "8/pppppppp/8/8/8/8/PPPPPPPP/RQBK2NR[BNkqrrbbnn] w - - 0 1"
    moves = legal(games["placement"].position(fen))
    assert moves == ["B@f1", "N@e1"]


def test_a_dropped_king_and_rook_gain_the_castling_right(games):
    pos = games["placement"].position("8/pppppppp/8/8/8/8/PPPPPPPP/7R[KQRBBNNkqrrbbnn] w - - 0 1")
    pos.push_uci("K@e1")
    assert pos.fen().split()[2] == "K"
    pos = games["placement"].position("8/pppppppp/8/8/8/8/PPPPPPPP/4K3[QRRBBNNkqrrbbnn] w - - 0 1")
    pos.push_uci("R@a1")
    assert pos.fen().split()[2] == "Q"
    pos.push_uci("R@h8")
    assert pos.fen().split()[2] == "Q"                 # no black king on e8


@pytest.mark.parametrize("fen", [
    "8/pppppppp/8/8/8/8/PPPPPPPP/2B5[KQRRBNNkqrrbbnn] w - - 0 1",
    "8/pppppppp/8/8/8/8/PPPPPPPP/RQBK2NR[BNkqrrbbnn] w - - 0 1",
    "8/pppppppp/8/8/8/8/PPPPPPPP/RQBKBNNR[kqrrbbnn] b - - 0 1",
    "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/QR1BKNN1[BRk] w - - 0 1",
    "r3k3/pppppppp/8/8/8/8/PPPPPPPP/R6R[Kr] w q - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/8[KQRRBBNN] w - - 0 2",
])
def test_positions_match_fairy_stockfish(games, fen):
    assert legal(games["placement"].position(fen)) == sorted(sf.legal_moves("placement", fen, []))


# -- definition errors ----------------------------------------------------------------------
BASE = """variant placer extends chess
setup "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1"
"""


@pytest.mark.parametrize("line,column,words", [
    ("castling with dropped king", 23, "'king' is royal: name the piece that castles with it"),
    ("castling with dropped rok", 23, "unknown piece 'rok'"),
    ("drops are compulsry", 7, "expected"),
])
def test_placement_errors_name_the_place(tmp_path, line, column, words):
    message = definition_error(tmp_path, "placer", BASE + line + "\n")
    assert f"placer.variant:3:{column}" in message
    assert words in message
