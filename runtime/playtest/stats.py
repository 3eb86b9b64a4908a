"""The statistics of a playtest: intervals, the Elo-like edge, and the stop rule.

Every rate gets a 95% Wilson score interval.  The first player's score s (a win 1, a
draw 1/2) is turned into an Elo-like edge, elo(s) = -400 log10(1/s - 1): the rating
difference that would give the first player that score.  With `--against`, game i of
both rule sets starts from the same opening (a *pair*); the change's effect is the
difference of the first player's scores, estimated from the per-pair differences
(which removes the openings' share of the noise), and shown in Elo at the first rule
set's edge.  The sequential test is a generalised SPRT (see `Sprt`); `GainTest` is
its one-sided form for two players of one game (bench/search_ab.py --sprt).
"""

import math
from dataclasses import dataclass, field

Z95 = 1.959963984540054        # the two-sided 95% normal quantile
# A pseudo-observation of variance added to the per-pair differences: it keeps the
# interval and the SPRT from treating a handful of identical pairs as certainty
# (with it, about 40 identical pairs are needed to accept "no change" at 20 Elo).
PRIOR_VARIANCE = 0.25


def wilson(successes, n, z=Z95):
    """The Wilson score interval of a proportion; (0.0, 1.0) when n is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # At 0 or n successes the exact end is 0 or 1 (rounding would leave 1e-17).
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def rate(successes, n):
    """A rate with its interval, as the report stores it."""
    lo, hi = wilson(successes, n)
    return {"count": successes, "of": n, "value": successes / n if n else None,
            "ci95": [lo, hi]}


def elo(score, n=None):
    """The Elo difference that gives `score`; clipped half a game from 0 and 1 when n
    (the games behind the score) is given (a quarter at most), else at 1e-6."""
    eps = min(0.5 / n, 0.25) if n else 1e-6
    s = min(max(score, eps), 1 - eps)
    return -400.0 * math.log10(1 / s - 1)


def logistic(elo_value):
    """The score that an Elo difference gives (the inverse of `elo`)."""
    return 1 / (1 + 10 ** (-elo_value / 400))


def score_interval(points, n):
    """The first player's score with its interval: Wilson on points out of n games.

    Counting a draw as half a success and using the binomial variance overstates the
    spread when there are draws, so the interval errs on the wide side.
    """
    value = points / n if n else None
    lo, hi = wilson(points, n)
    return {"value": value, "ci95": [lo, hi]}


def edge_elo(points, n):
    """The first player's Elo-like edge with its interval (the score's, transformed)."""
    if not n:
        return {"value": None, "ci95": [None, None]}
    interval = score_interval(points, n)
    lo, hi = interval["ci95"]
    return {"value": elo(points / n, n), "ci95": [elo(lo, n), elo(hi, n)]}


@dataclass
class PairedDifference:
    """Running sums of the per-pair differences d_i = b_i - a_i (first-player scores of
    the second and the first rule set in pair i), and of the first rule set's a_i."""

    n: int = 0
    sum_a: float = 0.0
    sum_d: float = 0.0
    sum_d2: float = 0.0

    def add(self, a, b):
        d = b - a
        self.n += 1
        self.sum_a += a
        self.sum_d += d
        self.sum_d2 += d * d

    @property
    def mean(self):
        return self.sum_d / self.n if self.n else 0.0

    @property
    def baseline(self):
        """The first rule set's score over the pairs (the point Elo is measured at)."""
        return self.sum_a / self.n if self.n else 0.5

    @property
    def variance(self):
        """The per-pair variance of d, with the prior pseudo-observation."""
        if not self.n:
            return PRIOR_VARIANCE
        spread = max(self.sum_d2 - self.n * self.mean ** 2, 0.0)
        return (spread + PRIOR_VARIANCE) / self.n

    def interval(self, z=Z95):
        """The score difference with its interval."""
        half = z * math.sqrt(self.variance / self.n) if self.n else 1.0
        return {"value": self.mean if self.n else None,
                "ci95": [max(self.mean - half, -1.0), min(self.mean + half, 1.0)]}

    def elo_interval(self, z=Z95):
        """The Elo-like difference of the edges (second minus first), with its interval:
        the score difference's interval, read in Elo at the first rule set's score."""
        if not self.n:
            return {"value": None, "ci95": [None, None]}
        base = self.baseline
        at = elo(base, self.n)
        diff = self.interval(z)
        to_elo = lambda d: elo(base + d, self.n) - at      # noqa: E731
        return {"value": to_elo(diff["value"]),
                "ci95": [to_elo(diff["ci95"][0]), to_elo(diff["ci95"][1])]}

    def score_shift(self, elo_change):
        """The score difference that an Elo change of the edge makes at the baseline."""
        at = elo(self.baseline, self.n or None)
        return logistic(at + elo_change) - logistic(at)


def llr(pairs, elo0, elo1):
    """The generalised SPRT's log-likelihood ratio of H1 (the edge changed by elo1)
    against H0 (by elo0), in the normal approximation over the per-pair differences."""
    if not pairs.n:
        return 0.0
    d0, d1 = pairs.score_shift(elo0), pairs.score_shift(elo1)
    return pairs.n * (d1 - d0) * (2 * pairs.mean - d0 - d1) / (2 * pairs.variance)


@dataclass(frozen=True)
class Sprt:
    """A two-sided sequential test of whether the rule change moves the first player's
    edge, built from two one-sided generalised SPRTs (Sobel and Wald):

        H0: the edge changed by elo0 (0);  H1: it changed by +elo1, or by -elo1.

    Each side runs at alpha/2 (the false alarm rate in total is alpha) and beta (the
    chance to miss a change of elo1).  A side stops when its LLR leaves
    [log(beta / (1 - alpha/2)), log((1 - beta) / (alpha/2))].  The test decides
    "changed" as soon as one side accepts H1, and "no change of elo1 or more" once
    both sides have accepted H0.
    """

    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05
    elo0: float = 0.0

    @property
    def bounds(self):
        half = self.alpha / 2
        return (math.log(self.beta / (1 - half)), math.log((1 - self.beta) / half))

    def as_dict(self):
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta}


class SprtRun:
    """The test as it goes: feed it the pairs after each new one with `update`.

    Each side's verdict is locked the first time its LLR leaves the bounds, as a
    sequential test requires (a later drift back does not reopen it).
    """

    def __init__(self, test):
        self.test = test
        self.sides = {"up": None, "down": None}     # None, "H0" or "H1"
        self.sides_at = {"up": None, "down": None}  # pairs seen when each side locked
        self.llr = {"up": 0.0, "down": 0.0}
        self.decided_at = None                      # pairs seen when it decided

    def update(self, pairs):
        lo, hi = self.test.bounds
        for side, sign in (("up", 1), ("down", -1)):
            value = llr(pairs, self.test.elo0, self.test.elo0 + sign * self.test.elo1)
            self.llr[side] = value
            if self.sides[side] is None and (value >= hi or value <= lo):
                self.sides[side] = "H1" if value >= hi else "H0"
                self.sides_at[side] = pairs.n
        if self.decided_at is None and self.decision:
            self.decided_at = pairs.n
        return self.decision

    @property
    def decision(self):
        elo1 = f"{self.test.elo1:g}"
        if self.sides["up"] == "H1":
            return f"the first player's edge rose by about {elo1} Elo or more"
        if self.sides["down"] == "H1":
            return f"the first player's edge fell by about {elo1} Elo or more"
        if self.sides["up"] == "H0" and self.sides["down"] == "H0":
            return f"no change of {elo1} Elo or more in the first player's edge"
        return None

    def as_dict(self):
        return {**self.test.as_dict(), "bounds": list(self.test.bounds),
                "llr": dict(self.llr), "sides": dict(self.sides),
                "sides_decided_after_pairs": dict(self.sides_at),
                "decision": self.decision, "decided_after_pairs": self.decided_at}


@dataclass
class GainTest:
    """A one-sided generalised SPRT over one side's game scores (a win 1, a draw 1/2)
    against an opponent: H0, it is as strong; H1, it is `elo1` stronger.  Each game is
    an observation, its opening's noise included, so the test errs on the slow side.
    `verdict` is "H1" or "H0" once the LLR leaves [log(beta / (1 - alpha)),
    log((1 - beta) / alpha)], else None (bench/search_ab.py --sprt stops there)."""

    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    games: PairedDifference = field(default_factory=PairedDifference, init=False)

    def add(self, score):
        self.games.add(0.5, score)      # against an even match: the baseline is 1/2

    @property
    def bounds(self):
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    @property
    def llr(self):
        return llr(self.games, 0.0, self.elo1)

    @property
    def verdict(self):
        lo, hi = self.bounds
        value = self.llr
        return "H1" if value >= hi else ("H0" if value <= lo else None)


def mean_interval(values, z=Z95):
    """A mean with its normal-approximation interval (for game lengths)."""
    n = len(values)
    if not n:
        return {"value": None, "ci95": [None, None]}
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n)
    return {"value": mean, "ci95": [mean - half, mean + half]}
