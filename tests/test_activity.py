"""The evaluation's activity terms (mobility, by count too, king attacks and
attackers, threats, board checks)
count exactly the board moves the generator lists.

The engine adds them up in a walk generated beside the move generator
(engine.pyx.j2 activity_0/1, moves.j2 `tally`), which writes no move list; the
reference is the list itself: Engine.mobility_counts, mobility_by_piece,
king_attack_counts, king_attackers, threat_counts, safe_mobility_counts and board_checks count gen_moves' GEN_BOARD moves, and the learned
tables turn the counts into centipawns.  The shipped builds (those with learned activity terms) are checked as
they are; games whose pieces move in the other ways the generator knows (a region's
lines, hops over a limited screen, grasshoppers, promotions only by capture or only to
a captured type, moves that can repeat) get every term with made-up values, in the
unoptimized build (the walk is the same code)."""

import random

import pytest

import fairyforge as ff
from fairyforge.compiler import build, evalparams, loader
from fairyforge.compiler.resolve import load_variant
from fairyforge.game import Game

# The shipped files with activity terms (ichess: mobility only, and deployment, when
# nothing on the board moves); the other seed games' files have none.
SHIPPED = ["chess", "shogi", "xiangqi", "crazyhouse", "ichess"]

# Each reaches a branch of the walk the shipped games do not.
MOVEMENTS = {
    "janggi": "lines along the palace's diagonals, hops whose screen may not be a cannon",
    "grasshopper": "grasshoppers",
    "micro": "promotion only by capture",
    "grand": "promotion only to a captured type",
}

# Partly overlapping moves: the generator lists them and drops the repeats
# (lower.may_repeat_moves; tests/test_betza_overlaps.py).
OVERLAPS = """\
variant overlaps "Partly overlapping Betza"
board 6x6
symmetry mirror
piece king K K royal
piece a A fRD
piece b B fmWifmR2
piece d D DpR
piece p P fmWfcF
setup "1dk3/ppp3/6/2a3/PPPB2/3DK1 w - - 0 1"
"""


def expected_activity(engine, variant, params, colour):
    """`colour`'s activity from the move list's counts and the parameter file's tables
    (as lower.py rounds them; no threat on a royal piece)."""
    ntypes = len(variant.pieces)
    mobility = params.get("mobility", {})
    attacks = params.get("king_safety", {}).get("attacks", {})
    to_move = engine.state()[0] == colour
    threat = params.get("threats", {}).get("to_move" if to_move else "waiting", {})
    moves = engine.mobility_counts()[colour * ntypes:][:ntypes]
    safe_moves = engine.safe_mobility_counts()[colour * ntypes:][:ntypes]
    safe = params.get("mobility_safe", {})
    near = engine.king_attack_counts()[colour * ntypes:][:ntypes]
    taken = engine.threat_counts()[colour * ntypes:][:ntypes]
    pairs = engine.threat_pairs()[colour * ntypes * ntypes:][:ntypes * ntypes]
    by_taker = params.get("threats_by_taker", {}).get("to_move" if to_move else "waiting", {})
    total = 0
    for t, piece in enumerate(variant.pieces):
        total += round(mobility.get(piece.name, 0)) * moves[t]
        total += round(safe.get(piece.name, 0)) * safe_moves[t]
        total -= round(attacks.get(piece.name, 0)) * near[t]
        if not piece.royal:
            total += round(threat.get(piece.name, 0)) * taken[t]
            for taker, row in enumerate(variant.pieces):
                total += round(by_taker.get(row.name, {}).get(piece.name, 0)) \
                    * pairs[taker * ntypes + t]
    by_count = params.get("mobility_by_count", {})
    for t, moves in engine.mobility_by_piece()[colour] or ():
        row = by_count.get(variant.pieces[t].name)
        total += round(row[min(moves, len(row) - 1)]) if row else 0
    checks = params.get("board_checks", {})
    to_move = engine.state()[0] == colour
    for term in evalparams.BOARD_CHECKS:
        kind, to_move_only = evalparams.check_term(term)
        if to_move_only and not to_move:
            continue                # (added for the side to move's moves only)
        for t, count in enumerate(engine.board_checks()[colour][kind]):
            total += round(checks.get(term, {}).get(variant.pieces[t].name, 0)) * count \
                if not variant.pieces[t].royal else 0
    table = params.get("king_attackers")
    if table and engine.royal_square(0) >= 0 and engine.royal_square(1) >= 0:
        board, held = engine.king_attackers()[colour]
        assert held == 0 or variant.drops
        if isinstance(table[0], list):              # a drop game's rows, by types in hand
            total -= round(table[min(held, len(table) - 1)][min(board, len(table[0]) - 1)])
        else:                       # (a single row counts the two together: older files)
            total -= round(table[min(board + held, len(table) - 1)])
    return total


def assert_activity_along_random_games(game, params, games=2, plies=80, seed=5):
    rng = random.Random(seed)
    for _ in range(games):
        position = game.start()
        for _ in range(plies):
            engine = position.engine
            for colour in (0, 1):
                assert engine.activity(colour) == \
                    expected_activity(engine, game.variant, params, colour), \
                    (position.fen(), colour)
            moves = position.legal_moves()
            if not moves or position.outcome() is not None:
                break
            position.push(rng.choice(moves))


def made_up_terms(variant):
    """Every activity term, a different value for each type."""
    names = [p.name for p in variant.pieces]
    return {"format": 1, "game": variant.name, "symmetry": evalparams.symmetry_of(variant),
            "values": {}, "hand_values": {}, "pst": {},
            "mobility": {n: 3 + i for i, n in enumerate(names)},
            "mobility_safe": {n: 2 + 3 * i for i, n in enumerate(names)},
            "mobility_by_count": {n: [(moves - 6) * (moves - 20) // 4 + i for moves in range(32)]
                                  for i, n in enumerate(names)},
            "king_safety": {"attacks": {n: -5 - 2 * i for i, n in enumerate(names)}},
            "king_attackers": [[3 - 4 * board - 9 * held + board * held for board in range(8)]
                               for held in range(8)] if variant.drops
                              else [3, -4, -9, -17, -26, -38, -51, -66],
            "threats": {"to_move": {n: 7 + i for i, n in enumerate(names)},
                        "waiting": {n: 11 + 3 * i for i, n in enumerate(names)}},
            "threats_by_taker": {"to_move": {a: {n: 2 * i - j for i, n in enumerate(names)}
                                             for j, a in enumerate(names)},
                                 "waiting": {a: {n: 5 + j * i for i, n in enumerate(names)}
                                             for j, a in enumerate(names)}},
            "board_checks": {"safe": {n: 13 + 5 * i for i, n in enumerate(names)},
                             "defended": {n: -4 - 2 * i for i, n in enumerate(names)},
                             "safe_to_move": {n: 6 - 3 * i for i, n in enumerate(names)},
                             "defended_to_move": {n: 2 + i for i, n in enumerate(names)}},
            "model_hash": evalparams.model_hash(variant)}


def quick_game_with(variant, params):
    path, module = build.load_module(variant, evaluation=params, quick=True)
    return Game(variant, module, path)


@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_activity_terms_count_the_generators_moves(name):
    game = ff.load(name)
    params = evalparams.for_build(game.variant)
    assert "HAS_MOBILITY = 1" in open(game.source_path).read()
    assert_activity_along_random_games(game, params)


@pytest.mark.parametrize("name", sorted(MOVEMENTS))
def test_every_term_counts_the_generators_moves(name):
    variant = loader.load_variant(name)
    params = made_up_terms(variant)
    assert_activity_along_random_games(quick_game_with(variant, params), params)


def test_moves_that_can_repeat_are_counted_once(tmp_path):
    path = tmp_path / "overlaps.variant"
    path.write_text(OVERLAPS)
    variant = load_variant(str(path))
    params = made_up_terms(variant)
    game = quick_game_with(variant, params)
    assert "drop_repeats(mv, 0, n)" in open(game.source_path).read()
    assert_activity_along_random_games(game, params)


def test_a_term_the_file_leaves_out_is_not_rendered():
    """Xiangqi's shipped file has no threats: the walk looks at no capture's victim
    (there is no threat_worth in it), and still counts as the move list does where a
    cheaper piece attacks a dearer one (the horse on d4 the chariot on e6)."""
    game = ff.load("xiangqi")
    params = evalparams.for_build(game.variant)
    assert not params.get("threats")
    assert "threat_worth(" not in open(game.source_path).read()
    position = game.position("4k4/9/9/9/4r4/9/3N5/9/9/4K4 w - - 0 1")
    assert sum(position.engine.threat_counts()) > 0
    assert position.engine.activity(0) == expected_activity(position.engine, game.variant,
                                                            params, 0)


def test_without_activity_terms_the_walk_is_not_generated():
    """Kjartansson's file has every activity value 0: no walk, activity 0."""
    game = ff.load("kjartansson")
    source = open(game.source_path).read()
    assert "HAS_MOBILITY = 0" in source and "mark_near_king(" not in source
    assert game.start().engine.activity(0) == game.start().engine.activity(1) == 0
