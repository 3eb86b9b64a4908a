"""Moves a piece may make only while it has not moved, as Fairy-Stockfish marks them.

* `mark every double step of PIECE…` (compiler/rules/ep_marking.py): wolf chess's
  sergeant double steps like a pawn but does not take en passant; its double step is
  always marked with both squares (`b3b4`) and a pawn may take it in passing, while a
  pawn's double step is marked (one square) only when an enemy pawn could take it.

Oracle: pyffish (legal moves, check, FEN and game end after the same moves,
tests/fsf_playouts.py `play_and_compare`).
"""

import pytest

from fairyforge.errors import FenError
from fsf_playouts import definition_error, play_and_compare

sf = pytest.importorskip("pyffish")

# --- wolf: a sergeant's double step -------------------------------------------------------

# White's sergeant on b2 may double step past a black pawn (c4) and a black sergeant (a4).
SERGEANT = "7k/8/8/8/8/8/s1p5/8/1S6/K7 w - - 0 1"
PAWN = "7k/8/8/8/8/8/4p3/8/3P4/K7 w - - 0 1"


def test_sergeant_double_step_is_marked_with_both_squares(games):
    pos = play_and_compare(sf, games["wolf"], "wolf", SERGEANT, ["b2b4"])
    assert pos.fen().split()[3] == "b3b4"


def test_pawn_takes_a_sergeant_in_passing(games):
    pos = play_and_compare(sf, games["wolf"], "wolf", SERGEANT, ["b2b4"])
    assert "c4b3" in {str(m) for m in pos.legal_moves()}
    pos = play_and_compare(sf, games["wolf"], "wolf", SERGEANT, ["b2b4", "c4b3"])
    assert pos.fen().split()[0] == "7k/8/8/8/8/8/s7/1p6/8/K7"     # the sergeant is gone


def test_sergeant_does_not_take_in_passing(games):
    # The black sergeant's step to b3 is a quiet move: the white sergeant stays on b4.
    pos = play_and_compare(sf, games["wolf"], "wolf", SERGEANT, ["b2b4", "a4b3"])
    assert pos.fen().split()[0] == "7k/8/8/8/8/8/1Sp5/1s6/8/K7"


def test_pawn_double_step_is_marked_only_when_it_can_be_taken(games):
    pos = play_and_compare(sf, games["wolf"], "wolf", PAWN, ["d2d4"])
    assert pos.fen().split()[3] == "d3"
    pos = play_and_compare(sf, games["wolf"], "wolf", PAWN, ["a1a2", "e4e3", "d2d4"])
    assert pos.fen().split()[3] == "-"


def test_sergeant_mark_is_read_back(games):
    fen = sf.get_fen("wolf", SERGEANT, ["b2b4"])
    pos = play_and_compare(sf, games["wolf"], "wolf", fen)
    assert pos.fen() == fen
    with pytest.raises(FenError) as err:
        games["wolf"].position(fen.replace("b3b4", "c3c4"))
    assert err.value.field == "en passant"


def test_mark_of_a_piece_without_a_double_step(tmp_path):
    text = ("variant bad extends chess\n"
            "mark every double step of knight\n")
    message = definition_error(tmp_path, "bad", text)
    assert "bad.variant:2:" in message
    assert "mark every double step of knight: a knight has no double step" in message
