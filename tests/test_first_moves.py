"""Moves a piece may make only while it has not moved, as Fairy-Stockfish marks them.

* `mark every double step of PIECE…` (compiler/rules/ep_marking.py): wolf chess's
  sergeant double steps like a pawn but does not take en passant; its double step is
  always marked with both squares (`b3b4`) and a pawn may take it in passing, while a
  pawn's double step is marked (one square) only when an enemy pawn could take it.
* `first move PIECE BETZA [, not in check] [, lost to PIECE on its lines]`
  (compiler/rules/first_moves.py): cambodian's king leaps like a knight to the rank in
  front and its met two squares ahead, while they have not moved; the rights stand in
  the castling field by file (`DEde`); the king's is not used in check and is lost to a
  rook moving onto its lines.
* `counting cambodian` (compiler/rules/counting.py).

Oracle: pyffish (legal moves, check, FEN and game end after the same moves,
tests/fsf_playouts.py `play_and_compare`).
"""

import random

import pytest

from fairyforge.errors import FenError
from fsf_playouts import compare_position, definition_error, play_and_compare

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


# --- cambodian: the king's and the met's first moves ---------------------------------------

CAMBODIAN = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1"


def _moves(pos):
    return {str(m) for m in pos.legal_moves()}


def test_king_and_met_first_leaps(games):
    pos = play_and_compare(sf, games["cambodian"], "cambodian", CAMBODIAN)
    assert {"d1b2", "d1f2"} <= _moves(pos)
    assert "e1e3" not in _moves(pos)                 # a pawn stands on e3
    pos = play_and_compare(sf, games["cambodian"], "cambodian", CAMBODIAN, ["e3e4", "d6d5"])
    assert "e1e3" in _moves(pos)
    pos = play_and_compare(sf, games["cambodian"], "cambodian", CAMBODIAN,
                           ["e3e4", "d6d5", "e1e3"])
    assert pos.fen().split()[2] == "Dde"


def test_a_right_is_lost_when_its_piece_moves(games):
    pos = play_and_compare(sf, games["cambodian"], "cambodian", CAMBODIAN,
                           ["d1d2", "e8e7", "d2d1", "e7e8"])
    assert pos.fen().split()[2] == "Ed"
    assert "d1b2" not in _moves(pos)


def test_no_king_leap_in_check(games):
    pos = play_and_compare(sf, games["cambodian"], "cambodian", "4k3/8/8/8/8/8/1n6/3KM3 w DEe - 0 1")
    assert pos.is_check() and "d1b2" not in _moves(pos) and "d1f2" not in _moves(pos)


@pytest.mark.parametrize("move,rights", [("a2e2", "DE"), ("a2a8", "DE"), ("a2h2", "DEe")])
def test_a_rook_on_the_kings_lines_takes_its_right(games, move, rights):
    # (e6's pawn blocks the e-file: the right goes all the same, as in FSF)
    fen = "4k3/8/4p3/8/8/8/R7/3KM3 w DEe - 0 1"
    pos = play_and_compare(sf, games["cambodian"], "cambodian", fen, [move])
    assert pos.fen().split()[2] == rights


def test_capture_on_a_rights_square(games):
    fen = "4k3/8/8/4r3/8/8/8/3KM3 b DEe - 0 1"
    pos = play_and_compare(sf, games["cambodian"], "cambodian", fen, ["e5e1"])
    assert "E" not in pos.fen().split()[2]


def test_rights_in_the_fen_are_checked(games):
    game = games["cambodian"]
    with pytest.raises(FenError) as err:
        game.position(CAMBODIAN.replace("DEde", "DEFde"))
    assert err.value.field == "castling"
    with pytest.raises(FenError) as err:
        game.position("4k3/8/8/8/8/8/8/4K3 w D - 0 1")
    assert err.value.field == "castling" and "no white king on d1" in str(err.value)


def test_cambodian_counting(games):
    # White keeps three pieces: the board's honour starts (63 moves, 126 plies).
    fen = "r3k3/8/8/8/8/8/8/R2KM3 w DEe - 0 1"
    pos = play_and_compare(sf, games["cambodian"], "cambodian", fen, ["a1b1"])
    assert pos.fen().split()[3:5] == ["126", "0"]
    # A bare king against a rook: the pieces' honour, 15 moves.
    fen = "4k3/8/8/8/8/8/R7/3KM3 w DEe - 0 1"
    pos = play_and_compare(sf, games["cambodian"], "cambodian", fen, ["a2a3"])
    assert pos.fen().split()[3] == "30"


def test_cambodian_counting_along_capturing_playouts(games):
    """Playouts that prefer captures reach the counting rule: every position's moves,
    check, FEN (the count in it) and game end as pyffish has them."""
    game, start = games["cambodian"], sf.start_fen("cambodian")
    rng, counted, positions = random.Random(3), 0, 0
    while positions < 300:
        pos, moves = game.position(start), []
        for _ in range(200):
            ours = compare_position(sf, "cambodian", start, moves, pos)
            positions += 1
            counted += pos.fen().split()[3].isdigit()
            if not ours or pos.outcome() is not None:
                break
            better = [str(m) for m in pos.legal_moves() if m.capture]
            move = rng.choice(better if better and rng.random() < 0.7 else ours)
            moves.append(move)
            pos.push_uci(move)
    assert counted > 50


def test_fsf_suite_row_with_a_zero_counting_limit(games):
    # Fairy-Stockfish's suite writes "0" (not counting) in place of the en passant field.
    pos = games["cambodian"].position(
        "r1s1ks1r/3nm3/pppNpppp/3n4/5P2/PPPPPNPP/8/R1SKMS1R b DEe 0 0 5")
    assert pos.perft(2) == 72


@pytest.mark.parametrize("line,message", [
    ("first move met fD", "only leaps to empty squares are supported"),
    ("first move king mfW", "a king already moves there"),
    ("first move queen mfD", "unknown piece 'queen'"),
    ("first move rook mfD", "a rook already moves there"),
    ("first move king mfsN, lost to tower on its lines", "unknown piece 'tower'"),
])
def test_first_move_errors(tmp_path, line, message):
    text = "variant bad extends makruk\n" + line + "\n"
    found = definition_error(tmp_path, "bad", text)
    assert "bad.variant:2:" in found and message in found


def test_first_moves_of_two_pieces_on_one_file(tmp_path):
    text = ("variant bad extends makruk\n"
            "first move rook mfN\n"
            "first move pawn mfD\n")
    found = definition_error(tmp_path, "bad", text)
    assert "stand on one file in the setup" in found


def test_first_move_piece_not_in_setup(tmp_path):
    text = ("variant bad extends makruk\n"
            "piece wazir W W\n"
            "first move wazir mfD\n")
    found = definition_error(tmp_path, "bad", text)
    assert "bad.variant:3:" in found and "no wazir in the setup" in found
