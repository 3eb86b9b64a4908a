"""The capture generator (gen_captures: the move generator without its quiet moves)
that quiescence search and the exchange evaluation use.

It must find exactly the captures that the full generator finds: a capture it missed
would make quiescence blind to it, and nothing else checks that (perft counts use the
full generator).  Every bundled game is walked at random, and at each position the two
lists of captures are compared.
"""

import pytest

import fairyforge as ff
from capture_walks import capture_walk
from fairyforge.encoding import F_CASTLE, F_DROP, F_EP, move_to

# The moves the exchange evaluation never makes: it takes a piece on its square.
NOT_EXCHANGES = F_DROP | F_CASTLE | F_EP


@pytest.mark.parametrize("name", ff.bundled_games())
def test_the_capture_generator_finds_every_capture(games, name):
    game = games[name]
    seen = 0
    for seed in (1, 2):
        for pos in capture_walk(game, seed):
            expected = pos.engine.captures(from_all_moves=True)
            assert sorted(pos.engine.captures()) == sorted(expected), pos.fen()
            seen += len(expected)
    assert seen > 0, "the walks met no capture: they test nothing"


@pytest.mark.parametrize("name", ff.bundled_games())
def test_the_exchange_evaluation_lists_the_captures_onto_a_square_in_order(games, name):
    """The exchange evaluation lists only the moves of the pieces that attack its
    square (engine.pyx.j2 captures_onto): it must find every capture onto the square
    that the capture generator finds, in the same order (the first of equal captures is
    the one it makes, so another order would change the search)."""
    game = games[name]
    seen = 0
    for seed in (3, 4):
        for pos in capture_walk(game, seed):
            listed = pos.engine.captures()
            for square in {move_to(m) for m in listed}:
                onto = [m for m in listed if move_to(m) == square and not m & NOT_EXCHANGES]
                found = [m for m in pos.engine.captures_onto(square) if not m & NOT_EXCHANGES]
                assert found == onto, (pos.fen(), square)
                seen += len(onto)
    assert seen > 0, "the walks met no capture: they test nothing"
