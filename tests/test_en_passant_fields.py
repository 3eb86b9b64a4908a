"""Fairy-Stockfish's multi-square en passant field and the pawns that need it.

`mark every double step` (compiler/rules/ep_marking.py): after every double step the
FEN names the square passed and the piece's square (`e3e4`), capturable or not, and a
FEN with either form is read.  Berolina's diagonal double step is taken en passant by
a pawn capturing straight onto the square passed.  `move rule …, restarted by` does
not restart the count on a move the piece could undo (Pawnsideways' sideways step).
Oracle: pyffish (get_fen and legal_moves on the same moves).
"""

import pytest

from conftest import definition_error
from fairyforge.errors import FenError

sf = pytest.importorskip("pyffish")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def _after(game, variant, moves, fen=START):
    pos = game.position(fen)
    for move in moves:
        pos.push_uci(move)
    assert pos.fen() == sf.get_fen(variant, fen, moves)
    return pos


@pytest.mark.parametrize("variant,moves,field", [
    ("berolina", ["e2c4"], "d3c4"),
    ("berolina", ["e2g4"], "f3g4"),
    ("berolina", ["e2c4", "d7b5"], "b5c6"),
    ("pawnback", ["e2e4"], "e3e4"),
    ("pawnsideways", ["e2e4", "d7d5"], "d5d6"),
])
def test_every_double_step_is_marked_as_fsf_writes_it(games, variant, moves, field):
    pos = _after(games[variant], variant, moves)
    assert pos.fen().split()[3] == field


def test_a_double_step_in_chess_is_still_marked_only_when_it_can_be_taken(games):
    pos = _after(games["chess"], "chess", ["e2e4"])
    assert pos.fen().split()[3] == "-"


def test_the_berolina_double_step_is_taken_by_a_straight_capture(games):
    # Black's pawn on d4 captures straight onto d3, which White's e2c4 passed: the
    # pawn on c4 is taken.
    fen = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"
    pos = _after(games["berolina"], "berolina", ["e2c4"], fen)
    legal = sorted(m.uci for m in pos.legal_moves())
    assert legal == sorted(sf.legal_moves("berolina", fen, ["e2c4"]))
    assert "d4d3" in legal
    move = next(m for m in pos.legal_moves() if m.uci == "d4d3")
    assert move.is_en_passant and move.capture == "pawn"
    pos.push_uci("d4d3")
    assert pos.fen() == sf.get_fen("berolina", fen, ["e2c4", "d4d3"])
    assert "P" not in pos.fen().split()[0]


@pytest.mark.parametrize("field", ["c5d6", "d6c5", "d6"])
def test_both_forms_of_the_field_are_read(games, field):
    fen = f"rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PP1PPPPP/RNBQKBNR w KQkq {field} 0 1"
    pos = games["berolina"].position(fen)
    assert sorted(m.uci for m in pos.legal_moves()) == \
        sorted(sf.legal_moves("berolina", fen, []))
    assert "d5d6" in [m.uci for m in pos.legal_moves()]
    assert pos.fen().split()[3] == "c5d6"


def test_the_named_piece_decides_which_pawn_passed(games):
    # Both c5 and e5 could have passed d6 (c7 and e7 are empty): the field says which.
    board = "rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PP1PPPPP/RNBQKBNR"
    for field in ("c5d6", "d6e5"):
        pos = games["berolina"].position(f"{board} w KQkq {field} 0 1")
        pos.push_uci("d5d6")
        assert pos.fen().split()[0] == sf.get_fen(
            "berolina", f"{board} w KQkq {field} 0 1", ["d5d6"]).split()[0]


@pytest.mark.parametrize("field,message", [
    ("d6c5e5", "must be a square, or the square passed and the square of the piece"),
    ("d6z9", "'z9' is not a square of the board"),
    ("d6b5", "no black piece has just passed d6b5"),
    ("c5e5", "no black piece has just passed c5e5"),
    ("d3", "no black piece has just passed d3"),
])
def test_a_bad_field_is_a_fen_error(games, field, message):
    with pytest.raises(FenError) as err:
        games["berolina"].position(
            f"rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PP1PPPPP/RNBQKBNR w KQkq {field} 0 1")
    assert err.value.field == "en passant"
    assert message in str(err.value)


def test_a_sideways_step_does_not_restart_the_count(games):
    moves = ["e2e3", "f7f6", "a2a4", "f6g6", "e3d3", "g6g5"]
    pos = _after(games["pawnsideways"], "pawnsideways", moves)
    assert pos.fen().split()[4] == "0"          # g6g5 goes forward: restarted
    pos = _after(games["pawnsideways"], "pawnsideways", moves[:5])
    assert pos.fen().split()[4] == "2"          # f6g6, e3d3: sideways, counted


def test_pawnback_pawn_moves_never_restart_the_count(games):
    pos = _after(games["pawnback"], "pawnback", ["e2e4", "d7d5", "e4e3"])
    assert pos.fen().split()[4] == "3"


def test_marking_needs_en_passant(tmp_path):
    message = definition_error(tmp_path, 'variant bad extends chess\nno en passant\nmark every double step\n')
    assert "bad.variant:3:1: error: mark every double step: the game has no en passant" \
        in message
