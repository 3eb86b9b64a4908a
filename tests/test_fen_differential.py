"""FEN output, byte for byte against Fairy-Stockfish (pyffish), along random games.

For every bundled game that Fairy-Stockfish also knows by name, random playouts are
made with our move generator; at every ply `pos.fen()` must equal
`pyffish.get_fen(variant, start, moves)`: the board, the holdings and their order, the
castling and en passant fields and both counters.  A few hundred positions per game
run in CI; `--runslow` plays many more.
"""

import random

import pytest

import fairyforge as ff

sf = pytest.importorskip("pyffish")

SHARED = sorted(set(ff.bundled_games()) & set(sf.variants()))
PLIES = 120


def test_the_shared_games_are_the_expected_ones():
    # If Fairy-Stockfish learns a bundled game's name, it joins the comparison; the four
    # classics must always be in it.
    assert {"chess", "crazyhouse", "shogi", "xiangqi"} <= set(SHARED)


def _differences(game, seed, playouts, at_least=0):
    """[(ply, moves, ours, theirs)] for random playouts from the start position: at
    least `playouts` of them, more while fewer than `at_least` positions were compared
    (games that end quickly, such as dobutsu)."""
    start = sf.start_fen(game.name)
    rnd, found, compared, played = random.Random(seed), [], 0, 0
    while played < playouts or compared < at_least:
        played += 1
        pos, moves = game.start(), []
        for ply in range(PLIES):
            ours, theirs = pos.fen(), sf.get_fen(game.name, start, moves)
            compared += 1
            if ours != theirs:
                found.append((ply, list(moves), ours, theirs))
            legal = pos.legal_moves()
            if not legal or pos.outcome() is not None:
                break
            move = rnd.choice(legal)
            moves.append(str(move))
            pos.push(move)
    return found, compared


@pytest.mark.parametrize("variant", SHARED)
def test_fen_equals_fairy_stockfish_along_random_games(games, variant):
    found, compared = _differences(games[variant], seed=2026, playouts=2, at_least=150)
    assert compared >= 150
    assert not found, found[:3]


@pytest.mark.slow
@pytest.mark.parametrize("variant", SHARED)
def test_fen_equals_fairy_stockfish_along_many_games(games, variant):
    found, compared = _differences(games[variant], seed=7, playouts=60)
    assert not found, found[:3]


@pytest.mark.parametrize("variant", SHARED)
def test_we_read_what_fairy_stockfish_writes(games, variant):
    """Fairy-Stockfish's own start FEN (shogi's `[-] w 0 1` included) and the FENs it
    writes along a game are read, and written back as it writes them."""
    game, start = games[variant], sf.start_fen(variant)
    rnd, moves = random.Random(5), []
    for _ in range(40):
        fen = sf.get_fen(variant, start, moves)
        assert game.position(fen).fen() == fen
        legal = sf.legal_moves(variant, start, moves)
        if not legal:
            break
        moves.append(rnd.choice(legal))
    assert game.position(start).fen() == sf.get_fen(variant, start, [])


@pytest.mark.parametrize("variant, fen", [
    ("shogi", "lnsgkgsnl/9/9/9/9/9/9/9/LNSGKGSNL[PPPLNSGBRpplnsgbr] w - - 0 1"),
    ("crazyhouse", "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR[PPNBRQpnbrqq] b KQkq - 3 7"),
])
def test_holdings_order_is_fairy_stockfishs(games, variant, fen):
    # FSF writes a side's hand in descending order of its internal piece numbering.
    assert games[variant].position(fen).fen() == sf.get_fen(variant, fen, [])
