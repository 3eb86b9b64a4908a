"""Static exchange evaluation (compiler/core/search.pxi, `see`) against a slow reference.

The reference plays the exchange out with the public Position API: on the capture's
square, each side in turn takes with its least valuable piece that can legally capture
there (of those, the capture that gains most, a promotion counting), or stops when
taking would lose.  Where several captures tie, the engine picks one of them; the
reference follows each, so the engine's value must be one of the reference's.
"""

import random

import pytest

import fairyforge as ff
from fairyforge.encoding import EMPTY, OFF, code_type, move_from, move_to

SEE_LEVELS = 12           # search.pxi's limit on the recaptures followed


def _code_at(pos, square):
    """The piece code on `square` (the engine's square number, as in move codes)."""
    return pos.engine.board()[pos.game.meta["squares"].index(square)]


def _value_at(pos, values, square):
    code = _code_at(pos, square)
    return values[code_type(code)] if code > OFF else 0


def _victim_square(pos, move):
    """The square of the piece `move` captures: its destination, or for an en passant
    capture the square the move empties besides its origin."""
    if not move.is_en_passant:
        return move_to(move.code)
    before = pos.engine.board()
    pos.push(move)
    after = pos.engine.board()
    pos.pop()
    squares = pos.game.meta["squares"]
    return next(squares[i] for i, (b, a) in enumerate(zip(before, after))
                if b > OFF and a == EMPTY and squares[i] != move_from(move.code))


def _captures_on(pos, square):
    return [m for m in pos.legal_moves()
            if not (m.is_drop or m.is_castling or m.is_en_passant)
            and move_to(m.code) == square]


def _reply_values(pos, values, square, level):
    """Every value the side to move's best exchange on `square` can have (ties)."""
    if level >= SEE_LEVELS or _code_at(pos, square) <= OFF:
        return {0}
    victim = _value_at(pos, values, square)
    options = []
    for move in _captures_on(pos, square):
        mover = _value_at(pos, values, move_from(move.code))
        pos.push(move)
        options.append((mover, victim + _value_at(pos, values, square) - mover, move))
        pos.pop()
    if not options:
        return {0}
    least = min(mover for mover, _, _ in options)
    best_gain = max(gain for mover, gain, _ in options if mover == least)
    results = set()
    for mover, gain, move in options:
        if mover == least and gain == best_gain:
            pos.push(move)
            results |= {max(0, gain - r)
                        for r in _reply_values(pos, values, square, level + 1)}
            pos.pop()
    return results


def reference_see(pos, move, values):
    """The set of values the exchange starting with the capture `move` can have."""
    victim = _value_at(pos, values, _victim_square(pos, move))
    mover = _value_at(pos, values, move_from(move.code))
    square = move_to(move.code)
    pos.push(move)
    gain = victim + _value_at(pos, values, square) - mover
    replies = _reply_values(pos, values, square, 0)
    pos.pop()
    return {gain - r for r in replies}


def _is_capture(pos, move):
    return (not move.is_drop and not move.is_castling
            and _code_at(pos, _victim_square(pos, move)) not in (EMPTY, OFF))


def _random_positions(game, count, seed):
    rng = random.Random(seed)
    found = 0
    while found < count:
        pos = game.start()
        for _ in range(rng.randrange(10, 70)):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            captures = [m for m in moves if _is_capture(pos, m)]
            if len(captures) >= 2:
                found += 1
                yield pos
                if found >= count:
                    return
            pos.push(rng.choice(captures if captures and rng.random() < 0.3 else moves))


@pytest.mark.parametrize("name", ["chess", "shogi", "xiangqi", "grasshopper"])
def test_see_matches_reference(name):
    game = ff.load(name)
    found = []
    for pos in _random_positions(game, 50, seed=13):
        values = pos.engine.piece_values()
        for move in pos.legal_moves():
            if _is_capture(pos, move):
                expected = reference_see(pos, move, values)
                found.append(pos.engine.see(move.code))
                assert found[-1] in expected, (pos.fen(), str(move))
    assert len(found) >= 100
    assert min(found) < 0 < max(found)        # losing and winning exchanges were met


@pytest.mark.parametrize("name", ["chess", "xiangqi"])
def test_the_orderings_cached_answer_is_the_exchange_evaluations(name):
    """The search orders captures by losing_capture, which caches its answers by
    position and move: asked twice (the second answer from the cache), it says what
    see() says, for every capture of positions that share most of their moves."""
    game = ff.load(name)
    asked = 0
    for pos in _random_positions(game, 50, seed=29):
        values = pos.engine.piece_values()
        for move in pos.legal_moves():
            if not _is_capture(pos, move):
                continue
            cheap = _value_at(pos, values, _victim_square(pos, move)) \
                >= _value_at(pos, values, move_from(move.code))
            expected = not cheap and pos.engine.see(move.code) < 0
            assert pos.engine.losing_capture(move.code) == expected, (pos.fen(), str(move))
            assert pos.engine.losing_capture(move.code) == expected, (pos.fen(), str(move))
            asked += 1
    assert asked >= 100


def _see_of(game, fen, uci):
    """(the engine's SEE of the move `uci` at `fen`, {piece letter: value})."""
    pos = game.position(fen)
    move = next(m for m in pos.legal_moves() if str(m) == uci)
    values = pos.engine.piece_values()
    letters = {piece["letter"].lower(): values[i]
               for i, piece in enumerate(game.meta["pieces"])}
    return pos.engine.see(move.code), letters


# (game, position, capture, the exchange's value as {piece letter: count}).
KNOWN_EXCHANGES = [
    # A rook takes a pawn the black rook defends: it loses the exchange without the
    # queen behind it, and wins the pawn with it (black then does better not to take).
    ("chess", "3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", {"p": 1, "r": -1}),
    ("chess", "3rk3/8/8/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5", {"p": 1}),
    # An undefended piece is simply won; a pawn taking a defended knight wins the
    # knight for the pawn.
    ("chess", "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1d5", {"n": 1}),
    ("chess", "4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", {"n": 1, "p": -1}),
    # The knight on f6 defends d5, but the rook on f1 pins it to its king on f8: the
    # rook's capture of d5 wins the pawn.  With the king on g8 the knight recaptures.
    ("chess", "5k2/8/5n2/3p4/8/8/8/3R1RK1 w - - 0 1", "d1d5", {"p": 1}),
    ("chess", "6k1/8/5n2/3p4/8/8/8/3R1RK1 w - - 0 1", "d1d5", {"p": 1, "r": -1}),
    # The red rook takes the pawn on e5; the black cannon on e8 recaptures over the
    # screen on e7, so the rook is lost for the pawn.  Without the screen the cannon
    # cannot take, and the pawn is won.
    ("xiangqi", "5k3/9/4c4/4p4/9/4p4/9/9/4R4/3K5 w - - 0 1", "e2e5", {"p": 1, "r": -1}),
    ("xiangqi", "5k3/9/4c4/9/9/4p4/9/9/4R4/3K5 w - - 0 1", "e2e5", {"p": 1}),
]


@pytest.mark.parametrize("name, fen, uci, counts", KNOWN_EXCHANGES)
def test_see_of_known_exchanges(name, fen, uci, counts):
    see, values = _see_of(ff.load(name), fen, uci)
    assert see == sum(values[letter] * count for letter, count in counts.items())
