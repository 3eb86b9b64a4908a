"""The playing engine: search finds forced mates, plays every bundled game legally and
beats a random mover.  (The engine protocols are tested in tests/test_uci_*.py and
tests/test_protocol_*.py.)"""

import random

import pytest

import fairyforge as ff
from fairyforge.search import think

from test_seed_rules import ICHESS_SAMPLE

ALL_GAMES = ff.bundled_games()


def test_chess_mate_in_two(games):
    # No mate in one here, a mate in two (checked by brute force with python-chess).
    pos = games["chess"].position("6k1/8/5K2/3R4/8/8/8/8 w - - 0 1")
    result = think(pos, depth=5)
    assert result.info.mate == 2
    pos.push(result.best_move)
    for reply in pos.legal_moves():             # whatever Black does, mate follows
        pos.push(reply)
        follow = think(pos, depth=3)
        pos.push(follow.best_move)
        assert pos.outcome().reason == "checkmate"
        pos.pop()
        pos.pop()


def test_shogi_mate_by_drop(games):
    pos = games["shogi"].position("8k/9/8P/9/9/9/9/9/K8[G] w - - 0 1")
    result = think(pos, depth=3)
    assert str(result.best_move) == "G@i8" and result.info.mate == 1


def test_ichess_finds_the_sample_games_final_mate(games):
    """docs/rules/ichess.md §9: before 35.Nb6# the engine finds the mate."""
    pos = games["ichess"].start()
    for move in ICHESS_SAMPLE[:-1]:
        pos.push_uci(move)
    result = think(pos, depth=3)
    assert str(result.best_move) == "a4b6" and result.info.mate == 1


@pytest.mark.parametrize("name", ALL_GAMES)
def test_go_depth_4_returns_a_legal_move(games, name):
    pos = games[name].start()
    result = think(pos, depth=4)
    assert result.best_move in pos.legal_moves()
    assert result.info.depth == 4 and result.info.nodes > 0


def test_search_respects_node_and_time_limits(games):
    pos = games["xiangqi"].start()
    assert think(pos, nodes=2000).info.nodes <= 4000
    import time
    started = time.monotonic()
    think(pos, movetime=0.3)
    assert time.monotonic() - started < 3.0


def test_search_leaves_the_position_unchanged(games):
    pos = games["kjartansson"].start()
    before = (pos.fen(), pos.key())
    think(pos, depth=3)
    assert (pos.fen(), pos.key()) == before


# In the games with a huge branching factor (the duck's every move once per empty square:
# about 1,800 moves a position) a depth-2 search takes about two seconds a move, and the
# random mover is beaten just as surely by depth 1 (captures resolved by quiescence): there
# the engine searches one ply.  The node cap keeps any other game that reached such a
# width within seconds (a depth cut short plays the last complete depth's move).
NODE_CAP = 300_000
WIDE = 500                      # legal moves at the start that make a game "wide"


def _depth_against_random(game):
    return 1 if len(game.start().legal_moves()) > WIDE else 2


def _versus_random(game, seed, max_plies=240):
    """One game: the engine (alternating colours) against a uniformly random mover."""
    depth = _depth_against_random(game)
    rng = random.Random(seed)
    engine_side = "white" if seed % 2 == 0 else "black"
    pos = game.start()
    for _ in range(max_plies):
        outcome = pos.outcome()
        if outcome is not None:
            return outcome.winner == engine_side
        if pos.turn == engine_side:
            pos.push(think(pos, depth=depth, nodes=NODE_CAP).best_move)
        else:
            pos.push(rng.choice(pos.legal_moves()))
    return False


# Known weaknesses (open), non-strict xfails so that a fix shows.  In misere only the
# opponent can win the game for the engine, by mating it.  The search scores that win
# (it plays into a forced selfmate and never gives mate: tests/test_game_end_positions.py),
# but a selfmate is forced only with far more force and depth than a depth-2 search
# against a random mover has, and a random mover mates by chance very rarely, so these
# games end undecided.  In codrus (compulsory captures, the king not royal) the depth-2
# engine wins 16 of 20 (measured 2026-11-23): enough for the two-game test, not for 19.
# In coffeerace (racing kings with compulsory captures) it stalemates the random mover,
# a draw there, in 1 or 2 of 10 games (seed 0 among them since quiescence may not stand
# pat where a capture is compulsory: 9 of 10 before that change, 8 of 10 after).
WEAK = {"misere": "misere: a random mover seldom mates, and no selfmate is forced within "
                  "depth 2",
        "coffeerace": "coffeerace: a depth-2 search stalemates the random mover (a draw) "
                      "in 1-2 of 10 games"}
WEAK_OVER_20 = {**WEAK, "codrus": "codrus: a depth-2 search wins 16 of 20"}


def _weak(names, weak):
    return [pytest.param(g, marks=pytest.mark.xfail(reason=weak[g], strict=False))
            if g in weak else g for g in names]


@pytest.mark.parametrize("name", _weak(ALL_GAMES, WEAK))
def test_engine_beats_a_random_mover(games, name):
    wins = sum(_versus_random(games[name], seed) for seed in range(2))
    assert wins == 2


@pytest.mark.slow
@pytest.mark.parametrize("name", _weak(ALL_GAMES, WEAK_OVER_20))
def test_engine_beats_a_random_mover_19_of_20(games, name):
    wins = sum(_versus_random(games[name], seed) for seed in range(20))
    assert wins >= 19


def test_play_in_the_terminal(games):
    """`fairyforge play`: the board, a human move, the engine's reply, undo, quit."""
    import io
    from fairyforge import play
    out = io.StringIO()
    play.play(games["chess"], human="white", depth=2,
              stdin=io.StringIO("e2e5\ne2e4\nundo\nmoves\nquit\n"), out=out)
    text = out.getvalue()
    assert "illegal move e2e5" in text                  # refused with its reason
    assert "Engine plays" in text and "for the engine" in text
    assert "a2a3" in text                               # `moves` after the undo
    assert "1 | R N B Q K B N R" in text
