"""Playing weaker on purpose (UCI_LimitStrength, UCI_Elo).

Two handicaps, both set from the Elo asked for:

- a node budget: FULL_NODES at full strength, halved for every ELO_PER_DOUBLING Elo
  below it (a search with half the nodes plays about that much weaker);
- a choice among the best LINES moves: each line's score plus Gaussian noise of
  NOISE_PER_ELO centipawns per Elo below full strength, the highest wins; so a weak
  setting sometimes plays the second or fourth best move, more often the lower it is.

Calibration: FULL_STRENGTH_ELO is where the unlimited engine stands on Fairy-Stockfish's
UCI_Elo scale at 100 ms a move (bench/match.py against Debian's Fairy-Stockfish 11.1:
in chess, 40.5/80 against UCI_Elo 2000 on 2026-11-23, after late-move reductions,
exchange evaluation, futility pruning and the shipped chess evaluation; the engine
had scored 3.5/28 against 2000 and 27/28 against 1500 before them).  ELO_PER_DOUBLING and NOISE_PER_ELO
are the model's two slopes, not yet fitted to Fairy-Stockfish; bench/match.py measures
them (our engine at an UCI_Elo against Fairy-Stockfish at the same UCI_Elo should score
about 50%).  Settings above
FULL_STRENGTH_ELO cannot be honoured and play at full strength.
"""

import random

MIN_ELO = 500                  # the range Fairy-Stockfish advertises
MAX_ELO = 2850
FULL_STRENGTH_ELO = 2000       # the unlimited engine at 100 ms a move (see above)
FULL_NODES = 100_000           # about 100 ms of search on one core
ELO_PER_DOUBLING = 150        # fitted in self-play: 1200 v 1500 scored 4.5/40 (docs/engine.md)
MIN_NODES = 64
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
        return max(int(FULL_NODES * 2 ** (-self.deficit / ELO_PER_DOUBLING)), MIN_NODES)

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
        return max(lines, key=lambda info: info.score + self.rng.gauss(0, self.noise))
