"""The evaluation's short cut: the table of structure and passed-piece bonuses kept
by the key of the pieces they count (evaluate.pxi PAWN_TABLE), read instead of
counting them afresh.

A wrong entry would not show in perft or in any search's legality, only in a
slightly wrong evaluation, so every bundled game is walked at random (captures
preferred, where most pieces come and go: promotions, drops, explosions, walls, gates)
and at each position the evaluation must equal that of the same position read afresh
from its FEN and the evaluation with those bonuses counted afresh (`fresh`); taking
every move back must give the start's evaluation again."""

import pytest

import fairyforge as ff
from capture_walks import capture_walk


@pytest.mark.parametrize("name", ff.bundled_games())
def test_cached_structure_matches_a_fresh_count_along_random_games(games, name):
    game = games[name]
    start = game.start().engine.evaluate()
    for pos in capture_walk(game, 5):
        cached = pos.engine.evaluate()
        assert cached == game.position(pos.fen()).engine.evaluate(), pos.fen()
        assert cached == pos.engine.evaluate(fresh=True), pos.fen()
    made = len(pos.move_stack)
    assert made > 0
    for _ in range(made):
        pos.pop()
    assert pos.engine.evaluate() == start
