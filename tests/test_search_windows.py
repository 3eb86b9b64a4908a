"""The root's search window (aspiration windows, runtime/search.py and search.pxi's
search_root): a score inside the window is exact, a fail low or high is a bound on the
side it fails, and think() with aspiration windows on still finds the same mates."""

import pytest

from fairyforge.search import think

MIDDLEGAME = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def _score(game, fen, depth, alpha, beta):
    pos = game.position(fen)
    pos.engine.new_game()                     # no table entries from earlier searches
    score, move, nodes, stopped = pos.engine.search_depth(depth, alpha=alpha, beta=beta)
    assert move and not stopped
    return score


def test_window_scores_are_exact_inside_and_bounds_outside(games):
    chess = games["chess"]
    exact = _score(chess, MIDDLEGAME, 4, -32000, 32000)
    assert _score(chess, MIDDLEGAME, 4, exact - 30, exact + 30) == exact
    assert _score(chess, MIDDLEGAME, 4, exact + 1, exact + 60) <= exact + 1    # fails low
    assert _score(chess, MIDDLEGAME, 4, exact - 60, exact - 1) >= exact - 1    # fails high


@pytest.mark.parametrize("window", [10, 40])
def test_aspiration_windows_keep_the_score_and_find_mates(games, window):
    chess = games["chess"]
    pos = chess.position(MIDDLEGAME)
    pos.engine.new_game()
    pos.engine.configure_search(aspiration=0)          # a full window each depth
    full = think(pos, depth=6)
    pos.engine.configure_search(aspiration=window)
    pos.engine.new_game()
    narrow = think(pos, depth=6)
    # Re-searches see table entries the first pass left, so the moves may differ, but
    # a widened window still ends on an exact score of the same search depth.
    assert narrow.info.depth == full.info.depth == 6
    assert abs(narrow.info.score - full.info.score) < 100
    # (Each position has its own engine: the window is set on each.  A mate score is
    # searched in a full window, so these check that the windows lead to the mates.)
    mate = _with_window(chess.position("6k1/8/5K2/3R4/8/8/8/8 w - - 0 1"), window)
    assert think(mate, depth=5).info.mate == 2
    drop = think(_with_window(games["shogi"].position("8k/9/8P/9/9/9/9/9/K8[G] w - - 0 1"),
                              window), depth=3)
    assert str(drop.best_move) == "G@i8" and drop.info.mate == 1


def _with_window(position, window):
    position.engine.configure_search(aspiration=window)
    return position
