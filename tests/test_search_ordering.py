"""The order the search tries moves in (compiler/core/search.pxi `start_picking`,
`pick_move`, `sort_rest`) against a plain oracle: Python's stable sort of the moves by
the scores `score_moves` gives them when every losing capture is found at once.

The search scores captures lazily (an exchange is evaluated only when picking reaches
the capture), sets the table's move, captures and promotions apart, picks the killers
one at a time and then sorts the rest with its own merge sort; none of that may change
the order but for ties among losing captures (one found losing when picked stands
before those it passed), which the comparison allows.  Killers and history come from a
short search of each position first, so the scores tie and differ as in a real search.
"""

import random

import pytest

import fairyforge as ff

# score_moves' scores of losing captures: -(1 << 24) plus the victim's value (far
# below the history scores of quiet moves, which stay within +-16384)
LOSING_BAND = (-(1 << 24), -(1 << 23))
KILLER = 1 << 22                  # ... and of the first killer


def _positions(game, count, seed):
    """Positions along random games, every third ply from the fifth."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        pos = game.start()
        for ply in range(rng.randrange(20, 90)):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            if ply >= 5 and ply % 3 == 0:
                found += 1
                yield pos, rng
                if found >= count:
                    return
            pos.push(rng.choice(moves))


def _losing(score):
    return LOSING_BAND[0] <= score < LOSING_BAND[1]


def _assert_same_order(picked, oracle, where):
    assert [s for _, s in picked] == [s for _, s in oracle], where
    for i, ((move, score), (expected, _)) in enumerate(zip(picked, oracle)):
        if not _losing(score):
            assert move == expected, (where, i)
    losing = sorted((s, m) for m, s in picked if _losing(s))
    assert losing == sorted((s, m) for m, s in oracle if _losing(s)), where


# (game, whether its lists are long enough that sort_rest merges more than once)
@pytest.mark.parametrize("name, long_lists", [("chess", False), ("crazyhouse", True),
                                              ("shogi", True)])
def test_picked_order_is_a_stable_sort_of_the_scores(name, long_lists):
    game = ff.load(name)
    seen = {"killers": 0, "losing": 0, "long lists": 0}
    for pos, rng in _positions(game, 40, seed=61):
        engine = pos.engine
        engine.search_depth(1)
        engine.search_depth(2)
        engine.search_depth(3)
        codes = [m.code for m in pos.legal_moves()]
        tt_move = rng.choice(codes) if rng.random() < 0.7 else 0
        for ply in (0, 2, 3):
            oracle = sorted(engine.ordering_scores(tt_move, ply), key=lambda ms: -ms[1])
            picked = engine.picked_order(tt_move, ply)
            _assert_same_order(picked, oracle, (pos.fen(), tt_move, ply))
            seen["killers"] += any(s == KILLER for _, s in picked)
            seen["losing"] += any(_losing(s) for _, s in picked)
            seen["long lists"] += len(picked) > 40
    # The comparison met what it is about: killers, losing captures, lists that
    # sort_rest merges more than once.
    assert seen["killers"] and seen["losing"], seen
    assert seen["long lists"] or not long_lists, seen
