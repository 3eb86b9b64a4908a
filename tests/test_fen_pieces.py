"""`extra pieces` (compiler/rules/fen_pieces.py): pyffish's fairy, whose FENs may hold
pieces that no setup or promotion brings, compared along random playouts from such
FENs; and what the statement changes and refuses."""

import random

import pytest

import fairyforge as ff
from fairyforge.errors import FenError
from fsf_playouts import compare_position, definition_error, load_text

sf = pytest.importorskip("pyffish")

FENS = [
    "7k/8/8/3s4/8/8/8/K7 b - - 0 1",
    "r3k2r/pppsfppp/2a5/8/8/2C5/PPPMFPPP/R3K2R w KQkq - 0 1",
    "4k3/2m1f3/8/1S6/6c1/8/3A4/4K3 w - - 0 1",
    "rnbqkbnr/ppp1pppp/8/3M4/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
]


@pytest.fixture(scope="module")
def fairy():
    return ff.load("fairy")


@pytest.mark.parametrize("fen", FENS)
def test_playouts_from_fens_with_extra_pieces(fairy, fen):
    rng = random.Random(fen)
    for _ in range(3):
        pos, moves = fairy.position(fen), []
        for _ in range(40):
            ours = compare_position(sf, "fairy", fen, moves, pos)
            if not ours or pos.outcome() is not None:
                break
            moves.append(rng.choice(ours))
            pos.push_uci(moves[-1])


HEADER = 'variant t "T" extends chess\npiece fers F F\n'
SETUP = 'setup "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"\n'


def test_without_the_statement_a_fen_may_not_hold_them(tmp_path_factory):
    game = load_text(tmp_path_factory, "t", HEADER + SETUP)
    with pytest.raises(FenError, match="fers can never stand on d4"):
        game.position("4k3/8/8/8/3F4/8/8/4K3 w - - 0 1")


def test_unknown_and_royal_pieces_are_refused(tmp_path):
    text = HEADER + "extra pieces fers, camel\n" + SETUP
    assert "t.variant:3:20: error: unknown piece 'camel'" in definition_error(tmp_path, "t", text)
    text = HEADER + "extra pieces king\n" + SETUP
    assert "'king' is royal" in definition_error(tmp_path, "t", text)
