"""The playtest's statistics against known values and against their definitions."""

import math
import random

import pytest

from fairyforge.playtest import stats


@pytest.mark.parametrize("k,n,lo,hi", [
    # Published Wilson score intervals (z = 1.96), e.g. Newcombe (1998), table I.
    (5, 10, 0.2366, 0.7634),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
])
def test_wilson_known_values(k, n, lo, hi):
    got = stats.wilson(k, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_wilson_without_games_is_uninformative():
    assert stats.wilson(0, 0) == (0.0, 1.0)
    assert stats.rate(0, 0)["value"] is None


@pytest.mark.parametrize("score,expected", [(0.5, 0.0), (0.75, 190.849), (0.64, 99.95),
                                            (0.25, -190.849), (10 / 11, 400.0)])
def test_elo_known_values(score, expected):
    assert stats.elo(score) == pytest.approx(expected, abs=0.01)
    assert stats.logistic(stats.elo(score)) == pytest.approx(score)


def test_elo_is_finite_at_a_perfect_score():
    # Clipped half a game from 1: 20 wins of 20 read as 19.5 of 20.
    assert stats.elo(1.0, 20) == pytest.approx(stats.elo(19.5 / 20))


def _pairs(a, b):
    pairs = stats.PairedDifference()
    for x, y in zip(a, b):
        pairs.add(x, y)
    return pairs


def test_paired_difference_by_hand():
    # d = b - a = [0, .5, .5, 0]: mean .25, spread .25, variance (.25 + prior .25) / 4.
    pairs = _pairs([1, 0.5, 0, 0.5], [1, 1, 0.5, 0.5])
    assert pairs.mean == 0.25 and pairs.variance == pytest.approx(0.125)
    half = 1.959964 * math.sqrt(0.125 / 4)
    assert pairs.interval()["ci95"] == pytest.approx([0.25 - half, 0.25 + half], abs=1e-6)
    e = pairs.elo_interval()
    # Measured at the first rule set's score, 0.5 (Elo 0); the top end is clipped at
    # half a game from 1 (3.5 of 4).
    assert e["value"] == pytest.approx(190.849, abs=0.01)
    assert e["ci95"][0] == pytest.approx(stats.elo(0.5 + 0.25 - half), abs=0.01)
    assert e["ci95"][0] == pytest.approx(-67.9, abs=0.1)
    assert e["ci95"][1] == pytest.approx(stats.elo(0.875), abs=0.01)


def test_llr_is_the_normal_log_likelihood_ratio():
    rng = random.Random(3)
    a = [rng.choice((0, 0.5, 1)) for _ in range(200)]
    b = [rng.choice((0, 0.5, 0.5, 1, 1)) for _ in range(200)]
    pairs = _pairs(a, b)
    d0, d1 = pairs.score_shift(0), pairs.score_shift(25)
    var = pairs.variance
    by_definition = sum(((y - x) - d0) ** 2 - ((y - x) - d1) ** 2
                        for x, y in zip(a, b)) / (2 * var)
    assert stats.llr(pairs, 0, 25) == pytest.approx(by_definition)


def test_sprt_bounds():
    lo, hi = stats.Sprt(elo1=20, alpha=0.05, beta=0.05).bounds
    assert lo == pytest.approx(math.log(0.05 / 0.975))
    assert hi == pytest.approx(math.log(0.95 / 0.025))


def _simulate(edge_a, edge_b, rng, test, limit=6000, draw=0.3):
    """Paired games with the first player's Elo edge edge_a and edge_b (no draws
    beyond `draw`); returns the decision and the pairs it took."""
    run, pairs = stats.SprtRun(test), stats.PairedDifference()

    def game(edge):
        if rng.random() < draw:
            return 0.5
        return 1.0 if rng.random() < stats.logistic(edge) else 0.0
    for _ in range(limit):
        pairs.add(game(edge_a), game(edge_b))
        if run.update(pairs):
            return run.decision, pairs.n
    return None, pairs.n


def test_sprt_finds_a_clear_change_and_its_direction():
    rng = random.Random(7)
    test = stats.Sprt(elo1=20)
    rose, n_up = _simulate(40, 120, rng, test)
    fell, n_down = _simulate(120, 40, rng, test)
    assert rose.startswith("the first player's edge rose") and n_up < 2000
    assert fell.startswith("the first player's edge fell") and n_down < 2000


def test_sprt_accepts_no_change_and_keeps_its_error_rate():
    rng = random.Random(11)
    test = stats.Sprt(elo1=20, alpha=0.05, beta=0.05)
    decisions = [_simulate(50, 50, rng, test)[0] for _ in range(40)]
    no_change = sum(d is not None and d.startswith("no change") for d in decisions)
    false_alarms = sum(d is not None and not d.startswith("no change") for d in decisions)
    assert no_change >= 30            # the rest mostly still undecided after 6000 pairs
    assert false_alarms <= 6          # alpha 0.05 of 40 is 2; 6 is about its 99.5th percentile


def test_identical_pairs_need_a_few_dozen_before_no_change():
    run, pairs = stats.SprtRun(stats.Sprt(elo1=20)), stats.PairedDifference()
    decided = None
    for n in range(1, 200):
        pairs.add(0.5, 0.5)
        if run.update(pairs):
            decided = n
            break
    assert decided is not None and 20 <= decided <= 80
    assert run.decision.startswith("no change")


def test_sprt_verdict_is_locked_once_a_bound_is_crossed():
    run = stats.SprtRun(stats.Sprt(elo1=20))
    pairs = stats.PairedDifference()
    for _ in range(300):
        pairs.add(0.0, 1.0)
        if run.update(pairs):
            break
    assert run.sides["up"] == "H1"
    for _ in range(3000):                       # the data turn round afterwards
        pairs.add(1.0, 0.0)
        run.update(pairs)
    assert run.sides["up"] == "H1" and run.decision.startswith("the first player's edge rose")


def test_mean_interval():
    m = stats.mean_interval([10, 20, 30, 40])
    sd = math.sqrt(((15 ** 2) * 2 + (5 ** 2) * 2) / 3)
    assert m["value"] == 25
    assert m["ci95"] == pytest.approx([25 - 1.959964 * sd / 2, 25 + 1.959964 * sd / 2], abs=1e-4)


def test_the_gain_test_decides_clear_runs_and_waits_on_even_ones():
    wins, even, losses = stats.GainTest(20), stats.GainTest(20), stats.GainTest(20)
    for k in range(60):
        wins.add(1.0 if k % 4 else 0.5)           # 87.5%: far above +20
        losses.add(0.0 if k % 4 else 0.5)
        even.add(k % 2)                           # 50%, but few games
    assert wins.verdict == "H1" and losses.verdict == "H0"
    assert even.verdict is None and even.bounds[0] < even.llr < even.bounds[1]
    assert even.bounds == pytest.approx((-math.log(19), math.log(19)))   # Wald's, at 5% and 5%
