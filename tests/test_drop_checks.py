"""Drop checks: the squares from which a piece held in hand would attack the enemy royal
piece (compiler/evalparams.py DROP_CHECKS).

The engine finds them in a walk generated from the attack tables (engine.pyx.j2
drop_checks_0/1, moves.j2 `drop_check_walk`): back from the royal piece along each way a
droppable piece attacks.  The reference, Engine.drop_checks, finds them another way: it
puts each piece in hand on each empty square it may be dropped on, on a board where the
side's other pieces are turned to the enemy's, and asks the attack test.  The two must
agree on every position of random games, in the bundled drop games and in a made-up one
whose droppable pieces hop, leap lamely, jump as grasshoppers and reach one square two
ways (the walk then counts it once)."""

import random

import pytest

import fairyforge as ff
from fairyforge.compiler import build, evalparams, loader
from fairyforge.compiler.resolve import load_variant
from fairyforge.game import Game

GAMES = ["crazyhouse", "shogi", "torishogi", "kyotoshogi", "chessgi", "makhouse", "ichess"]

HOPPERS = """\
variant hopdrops "Hoppers, lame leapers and overlapping riders in hand"
board 8x8
symmetry mirror
piece king K K royal
piece cannon C mRcpR
piece grasshopper G gQ
piece horse H nN
piece lancer L fRD
piece pawn P fmWfcF
captures go to hand
drop all in all
drop pawn in ranks 2-7
setup "lhgckcgl/pppppppp/8/8/8/8/PPPPPPPP/LHGCKCGL[] w - - 0 1"
"""


def made_up_drop_checks(variant):
    """A different safe and defended bonus for each type."""
    names = [p.name for p in variant.pieces]
    return {"format": 1, "game": variant.name, "symmetry": evalparams.symmetry_of(variant),
            "values": {}, "hand_values": {}, "pst": {},
            "drop_checks": {"safe": {n: 5 + 3 * i for i, n in enumerate(names)},
                            "defended": {n: -2 - 7 * i for i, n in enumerate(names)},
                            "safe_to_move": {n: 11 - 2 * i for i, n in enumerate(names)},
                            "defended_to_move": {n: 4 + i for i, n in enumerate(names)}},
            "model_hash": evalparams.model_hash(variant)}


def expected(engine, variant, params, colour):
    """`colour`'s drop-check term from the reference's counts and the file's tables (0
    for a royal type, as lower.py leaves it; the to_move tables where `colour` is to
    move)."""
    safe, defended = engine.drop_checks()[colour]
    tables = params["drop_checks"]
    terms = [("safe", safe), ("defended", defended)]
    if engine.state()[0] == colour:
        terms += [("safe_to_move", safe), ("defended_to_move", defended)]
    total = 0
    for t, piece in enumerate(variant.pieces):
        if not piece.royal:
            for term, squares in terms:
                total += round(tables.get(term, {}).get(piece.name, 0)) * squares[t]
    return total


def quick_game_with(variant, params):
    path, module = build.load_module(variant, evaluation=params, quick=True)
    return Game(variant, module, path)


def assert_walk_along_random_games(game, params, games=3, plies=120, seed=7):
    """The walk agrees with the reference at every position, and the games reach
    positions with drop checks of both kinds (else the test would prove little)."""
    variant = game.variant
    rng = random.Random(seed)
    seen = [0, 0]
    for _ in range(games):
        position = game.start()
        for _ in range(plies):
            engine = position.engine
            for colour in (0, 1):
                assert engine.drop_check_score(colour) == \
                    expected(engine, variant, params, colour), (position.fen(), colour)
                safe, defended = engine.drop_checks()[colour]
                seen[0] += sum(safe) > 0
                seen[1] += sum(defended) > 0
            moves = position.legal_moves()
            if not moves or position.outcome() is not None:
                break
            position.push(rng.choice(moves))
    assert min(seen) > 0, seen


def test_the_shipped_crazyhouse_file_counts_as_the_reference():
    game = ff.load("crazyhouse")
    params = evalparams.for_build(game.variant)
    assert "HAS_DROP_CHECKS = 1" in open(game.source_path).read()
    assert_walk_along_random_games(game, params)


@pytest.mark.parametrize("name", GAMES)
def test_the_walk_counts_what_dropping_each_piece_finds(name):
    variant = loader.load_variant(name)
    params = made_up_drop_checks(variant)
    assert_walk_along_random_games(quick_game_with(variant, params), params)


def test_hoppers_lame_leapers_and_overlaps(tmp_path):
    path = tmp_path / "hopdrops.variant"
    path.write_text(HOPPERS)
    variant = load_variant(str(path))
    params = made_up_drop_checks(variant)
    game = quick_game_with(variant, params)
    assert_walk_along_random_games(game, params)
    source = open(game.source_path).read()
    assert "DROP_CHECK_REPEATS = 1" in source       # the lancer's D leap and its ride
    assert "# hop" in source and "# grasshop" in source

