"""Random games that prefer captures, for tests that compare two ways of computing
something at every position: captures make most pieces come and go (promotions,
drops, explosions, walls, gates), where such short cuts go wrong."""

import random

PLIES = 60


def capture_walk(game, seed, plies=PLIES):
    """The positions of one random game of `game` from its start, each yielded before
    its move is made: one Position, moved on in place (a capture half the time where
    there is one), until `plies` moves or the game's end."""
    rng = random.Random(seed)
    pos = game.start()
    for _ in range(plies):
        yield pos
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None:
            return
        captures = set(pos.engine.captures(from_all_moves=True))
        taking = [m for m in moves if m.code in captures]
        pos.push(rng.choice(taking if taking and rng.random() < 0.5 else moves))
    yield pos
