"""The evaluation's two short cuts: the material and square sums kept up move by move
(board.pxi Pos.material, material_eg, phase: put and remove add and take away each
piece, make saves them and unmake puts them back, as with the Zobrist key), and the
table of structure and passed-piece bonuses kept by the key of the pieces they count
(evaluate.pxi PAWN_TABLE).

Either going wrong would not show in perft or in any search's legality, only in a
slightly wrong evaluation, so every bundled game is walked at random (captures
preferred, where most pieces come and go: promotions, drops, explosions, walls, gates)
and at each position the evaluation must equal that of the same position read afresh
from its FEN, whose sums are counted from the board, and the evaluation with those
bonuses counted afresh (`fresh`); taking every move back must give the start's
evaluation again."""

import pytest

import fairyforge as ff
from capture_walks import capture_walk


@pytest.mark.parametrize("name", ff.bundled_games())
def test_kept_sums_and_cached_structure_match_a_fresh_count_along_random_games(games, name):
    game = games[name]
    start = game.start().engine.evaluate()
    for pos in capture_walk(game, 5):
        kept = pos.engine.evaluate()
        assert kept == game.position(pos.fen()).engine.evaluate(), pos.fen()
        assert kept == pos.engine.evaluate(fresh=True), pos.fen()
    made = len(pos.move_stack)
    assert made > 0
    for _ in range(made):
        pos.pop()
    assert pos.engine.evaluate() == start
