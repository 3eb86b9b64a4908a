"""Playing weaker on purpose (UCI_LimitStrength, UCI_Elo).

Two handicaps, both set from the Elo asked for:

- a node budget: FULL_NODES at full strength, fewer below it, log-linear in Elo between
  the NODE_ANCHORS;
- a choice among the best LINES moves: each line's score plus a random bonus of up to
  NOISE_PER_ELO centipawns per Elo below full strength, the highest wins; so a weak
  setting sometimes plays the second or fourth best move, but never one worse than the
  best by more than the bound.

Calibration, against Debian's Fairy-Stockfish 11.1 in chess at 100 ms a move
(bench/match.py, 100 games each, 2026-11-25; our engine with the same UCI_Elo as
Fairy-Stockfish should score about 50%):

- FULL_STRENGTH_ELO: the unlimited engine scored 46.5% against UCI_Elo 2100 and 8%
  against 2500, both about 2075.
- The old model (the budget halved every 150 Elo, Gaussian noise) was too strong at
  1500 (63.5%) and far too weak at 1000 (12-26% in four variants of it): Fairy-
  Stockfish's low settings are stronger than a search of a few hundred nodes that
  sometimes hangs a piece.  With the anchors and the bounded noise: 1500 57%
  (+49, -19 .. +117), 1000 45.5% (-31, -99 .. +37).
- Below 1000 the anchor is extrapolated, not measured; other games use chess's scale.

Settings above FULL_STRENGTH_ELO cannot be honoured and play at full strength.
"""

import random

MIN_ELO = 500                  # the range Fairy-Stockfish advertises
MAX_ELO = 2850
FULL_STRENGTH_ELO = 2075       # the unlimited engine at 100 ms a move (see above)
FULL_NODES = 100_000           # about 100 ms of search on one core
# The node budget at each anchor Elo, the budget between two anchors log-linear in Elo.
# The curve is steep near full strength and flat below 1500, because Fairy-Stockfish's
# low settings are stronger than a search halved again and again (see above).
NODE_ANCHORS = ((FULL_STRENGTH_ELO, FULL_NODES), (1500, 3800), (1000, 1500), (MIN_ELO, 600))
LINES = 4
NOISE_PER_ELO = 0.1            # centipawns of noise per Elo below full strength


class Strength:
    def __init__(self, elo, seed=None):
        self.elo = min(max(elo, MIN_ELO), MAX_ELO)
        self.deficit = max(FULL_STRENGTH_ELO - self.elo, 0)
        self.rng = random.Random(seed)

    @property
    def node_budget(self):
        """Nodes a move may search (None: unlimited, at or above full strength)."""
        if self.deficit == 0:
            return None
        # self.elo is at least MIN_ELO, the last anchor, so some pair brackets it
        for (high, high_nodes), (low, low_nodes) in zip(NODE_ANCHORS, NODE_ANCHORS[1:]):
            if self.elo >= low:
                share = (self.elo - low) / (high - low)
                return round(low_nodes * (high_nodes / low_nodes) ** share)

    @property
    def noise(self):
        """The standard deviation of the noise added to each line's score (cp)."""
        return self.deficit * NOISE_PER_ELO

    def limits(self, depth, nodes, multipv):
        """think()'s depth, nodes and multipv under this handicap."""
        budget = self.node_budget
        if budget is not None:
            nodes = min(nodes, budget) if nodes else budget
            multipv = max(multipv, LINES)
        return depth, nodes, multipv

    def choose(self, lines):
        """The Info of the line to play, among the depth's lines (best first)."""
        if self.deficit == 0 or len(lines) == 1:
            return lines[0]
        # A bounded bonus, not a Gaussian: a line more than `noise` below the best is
        # never played, so a weak setting plays inexact moves but never hangs a piece
        # by the noise's tail alone.
        return max(lines, key=lambda info: info.score + self.rng.uniform(0, self.noise))
