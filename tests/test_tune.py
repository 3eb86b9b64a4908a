"""`fairyforge tune`: the Texel fit, the parameter file, and how builds use it.

The game is a user's definition extending crazyhouse (a drop game: values in hand
are fitted too), so that editing its rules (the stale-file test) is possible.
"""

import importlib.util
import json
import os
import warnings

import numpy as np
import pytest

import fairyforge as ff
from fairyforge.cli import main
from fairyforge.compiler import evalparams
from fairyforge.tune import fit as texel
from fairyforge.tune import tune

DEFINITION = 'variant tunetest "Tune test" extends crazyhouse\n'


@pytest.fixture(autouse=True)
def tuned_dir(tmp_path, monkeypatch):
    folder = tmp_path / "tuned"
    monkeypatch.setenv("FAIRYFORGE_TUNED", str(folder))
    return folder


@pytest.fixture
def definition(tmp_path):
    path = tmp_path / "tunetest.variant"
    path.write_text(DEFINITION)
    return path


# -- the regression ----------------------------------------------------------------------

def _synthetic(n, theta, k, rng, noisy):
    counts = rng.integers(-2, 3, size=(n, len(theta)))
    rows = [(list(range(len(theta))), list(map(int, row)), 0.0, 0.0) for row in counts]
    data = texel.Data.from_rows(rows, len(theta))
    probability = 1 / (1 + 10 ** (-k * (data.X @ theta) / 4))
    data.y = (rng.random(n) < probability).astype(float) if noisy else probability
    return data


def test_fit_recovers_known_values_from_exact_scores():
    rng = np.random.default_rng(1)
    truth, k = np.array([1.0, 3.2, 4.8, 9.5, 0.4]), 0.9
    data = _synthetic(4000, truth, k, rng, noisy=False)
    start = np.ones(len(truth))
    assert texel.fit_k(data, truth) == pytest.approx(k, abs=1e-3)
    theta, _ = texel.fit(data, start, k, alpha=np.full(len(truth), 1e-6))
    assert theta == pytest.approx(truth, abs=0.02)


def test_fit_recovers_known_values_from_game_like_results():
    """Results drawn as wins and losses (the real case): close, not exact."""
    rng = np.random.default_rng(2)
    truth, k = np.array([1.0, 3.0, 5.0]), 0.8
    data = _synthetic(30000, truth, k, rng, noisy=True)
    theta, _ = texel.fit(data, np.full(3, 2.0), k, alpha=np.full(3, 1e-3),
                         lower=np.zeros(3))
    assert theta == pytest.approx(truth, rel=0.12)
    assert texel.error(data, theta, k) < texel.error(data, np.full(3, 2.0), k)


def test_a_constant_edge_is_fitted_apart_from_the_values():
    """White wins more whatever the material (a first-move edge): the intercept takes
    it, and the piece values are still recovered."""
    rng = np.random.default_rng(4)
    truth, k, edge = np.array([1.0, 3.0]), 1.0, 0.8
    data = _synthetic(4000, truth, k, rng, noisy=False)
    data.y = 1 / (1 + 10 ** (-k * (data.X @ truth + edge) / 4))
    wide = data.with_intercept()
    theta, _ = texel.fit(wide, np.array([2.0, 2.0, 0.0]), k, alpha=np.full(3, 1e-6))
    assert theta == pytest.approx([1.0, 3.0, edge], abs=0.02)


def test_ridge_keeps_unseen_parameters_where_they_were():
    rng = np.random.default_rng(3)
    data = _synthetic(500, np.array([1.0, 0.0]), 1.0, rng, noisy=False)
    data.X = data.X.tolil()
    data.X[:, 1] = 0                # the second parameter never appears (nor mattered)
    data.X = data.X.tocsr()
    theta, _ = texel.fit(data, np.array([0.5, 7.0]), 1.0, alpha=np.array([1e-6, 1.0]))
    assert theta[1] == pytest.approx(7.0)
    assert theta[0] == pytest.approx(1.0, abs=0.02)


# -- tune, the file, the build -----------------------------------------------------------

def _expected_evaluation(params, fen_board, files, ranks):
    """White's evaluation of a board from the file's own numbers (no engine code)."""
    total = 0
    for rank_index, row in enumerate(fen_board.split("/")):
        r, f = ranks - 1 - rank_index, 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
                continue
            name = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen",
                    "k": "king"}[ch.lower()]
            white = ch.isupper()
            sq_f, sq_r = (f, r) if white else (f, ranks - 1 - r)     # mirror symmetry
            term = params["values"].get(name, 0) + params["pst"][name][sq_r][sq_f]
            total += term if white else -term
            f += 1
    return total


def test_tune_writes_the_file_and_the_next_build_uses_it(definition, tuned_dir):
    before = ff.load(str(definition))
    report = tune(str(definition), games=4, depth=1, processes=1, max_plies=60)
    assert report.path == str(tuned_dir / "tunetest.eval.json")
    params = json.loads(open(report.path).read())
    variant = before.variant
    assert params["model_hash"] == evalparams.model_hash(variant)
    assert params["symmetry"] == "mirror"
    droppable = {"queen", "rook", "bishop", "knight", "pawn"}
    assert set(params["values"]) == droppable | {f"{name}_from_pawn" for name in
                                                 ("queen", "rook", "bishop", "knight")}
    assert set(params["hand_values"]) == droppable
    assert report.positions > 0 and report.errors["train"][1] <= report.errors["train"][0]

    assert set(params["king_safety"]) == {"shelter", "near", "attacks", "holes"}
    assert set(params["king_safety"]["holes"]) == {p.name for p in variant.pieces}
    assert set(params["mobility"]) == {p.name for p in variant.pieces}
    assert set(params["passed"]) == {"pawn"}          # the type that promotes
    assert len(params["passed"]["pawn"]) == 8         # a bonus a rank
    assert "endgame" not in params      # (captures go to hand: the phase never falls)
    assert set(params["threats"]) == {"to_move", "waiting"}
    assert set(params["threats"]["waiting"]) == {p.name for p in variant.pieces if not p.royal}
    assert set(params["structure"]) == {"doubled", "isolated", "pair"}
    assert set(params["structure"]["doubled"]) == {"pawn"}
    # by the count of types the enemy holds in hand, then of attackers on the board
    assert [len(row) for row in params["king_attackers"]] == [8] * 8
    assert set(params.get("mobility_by_count", {})) <= {p.name for p in variant.pieces}
    assert all(len(row) == 32 for row in params.get("mobility_by_count", {}).values())
    assert set(params.get("mobility_safe", {})) <= {p.name for p in variant.pieces}

    # Make the learned numbers unmistakable, then check the engine adds exactly them.
    params["values"]["knight"] = 777
    params["hand_values"]["knight"] = 555
    params["pst"]["knight"][2][5] = 40          # f3 for White, f6 for Black
    params["king_safety"] = {"shelter": {"pawn": 10, "knight": 6},
                             "near": {"knight": -25, "queen": -40}, "holes": {"knight": -4}}
    params["mobility"] = {}                     # (below, on its own)
    params["passed"] = {}                       # (at the end)
    params["threats"] = params["structure"] = {}    # (their own tests: chess below)
    del params["king_attackers"]                    # (the same)
    params.pop("mobility_by_count", None)           # (the same)
    params.pop("drop_checks", None)                 # (the same)
    params.pop("board_checks", None)                # (the same)
    params.pop("threats_by_taker", None)            # (the same)
    params.pop("mobility_safe", None)               # (the same)
    evalparams.write(report.path, params)
    after = ff.load(str(definition))
    assert after.source_path != before.source_path    # a new build, a new cache key
    fen_board = "r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R"
    position = after.position(fen_board + "[Nn] w KQkq - 0 1")
    expected = _expected_evaluation(params, fen_board, 8, 8)
    assert position.engine.evaluate() == expected          # the hands cancel (N vs n)
    held = after.position(fen_board + "[N] w KQkq - 0 1")
    assert held.engine.evaluate() == expected + 555
    old = before.position(fen_board + "[N] w KQkq - 0 1")
    assert old.engine.evaluate() != held.engine.evaluate()
    # King safety: White's king has Black's knight next to it (near: -25) and four
    # empty squares around, but Black holds nothing; Black's king has five empty
    # squares around it while White holds a knight (holes: 5 x -4 for Black).
    lone = "4k3/8/8/8/8/8/3n4/4K3"
    attacked = after.position(lone + "[N] w - - 0 1")
    assert attacked.engine.evaluate() == _expected_evaluation(params, lone, 8, 8) + 555 - 25 + 20
    _features_agree_with_the_engine(after, params)
    # Mobility: Black's knight on d2 has six moves (b1 b3 c4 e4 f3 f1) at 3 each; the
    # kings have five each (White's takes the knight), which cancel.
    params["mobility"] = {"knight": 3, "king": -1}
    evalparams.write(report.path, params)
    mobile = ff.load(str(definition))
    assert mobile.position(lone + "[N] w - - 0 1").engine.evaluate() == \
        attacked.engine.evaluate() - 18
    assert mobile.position(lone + "[N] b - - 0 1").engine.evaluate() == \
        -(attacked.engine.evaluate() - 18)
    _features_agree_with_the_engine(mobile, params)
    # King attacks: of Black's board moves, the knight's d2-f1 lands next to White's
    # king (e1), none of White's near Black's: one attack at -7 for White.  On its own
    # (the term generates the moves itself), then with mobility (one generation).
    params["mobility"] = {}
    params["king_safety"]["attacks"] = {"knight": -7, "queen": -5}
    evalparams.write(report.path, params)
    attacking = ff.load(str(definition))
    assert "HAS_KING_ATTACKS = 1" in open(attacking.source_path).read()
    assert attacking.position(lone + "[N] w - - 0 1").engine.evaluate() == \
        attacked.engine.evaluate() - 7
    _features_agree_with_the_engine(attacking, params)
    params["mobility"] = {"knight": 3, "king": -1}
    evalparams.write(report.path, params)
    both = ff.load(str(definition))
    assert both.position(lone + "[N] b - - 0 1").engine.evaluate() == \
        -(attacked.engine.evaluate() - 18 - 7)
    _features_agree_with_the_engine(both, params)
    _passed_pawns_count(definition, report.path, params)


def _passed_pawns_count(definition, path, params):
    """A pawn with no enemy pawn ahead on its file or the files beside it earns its
    rank's bonus (counted from its owner's side); one with an enemy pawn there does not."""
    params["king_safety"], params["mobility"] = {}, {}
    evalparams.write(path, params)
    plain = ff.load(str(definition))
    params["passed"] = {"pawn": [0, 0, 0, 0, 50, 9, 0, 0]}      # rank 5: 50, rank 6: 9
    evalparams.write(path, params)
    passing = ff.load(str(definition))
    assert "HAS_PASSED = 1" in open(passing.source_path).read()

    def edge(board):
        fen = board + "[] w - - 0 1"
        return passing.position(fen).engine.evaluate() - plain.position(fen).engine.evaluate()

    assert edge("4k3/8/8/4P3/8/8/8/4K3") == 50              # White's e5: its 5th rank
    assert edge("4k3/3p4/8/4P3/8/8/8/4K3") == 0             # d7 and e5 bar each other
    assert edge("4k3/8/8/4P3/8/3p4/8/4K3") == 50 - 9        # Black's d3 passes: its 6th
    assert edge("4k3/8/8/4P3/3p4/8/8/4K3") == 50 - 50       # d4 and e5 are past each other
    assert edge("4k3/8/8/P6P/8/8/8/4K3") == 2 * 50          # the edge files: nothing beside
    assert edge("4k3/1p4p1/8/P6P/8/8/8/4K3") == 0           # b7 bars a5, g7 bars h5 (and they them)
    _features_agree_with_the_engine(passing, params)


def _features_agree_with_the_engine(game, params, starts=()):
    """Along random games, the tuner's features (runtime/tune/features.py) add up to
    what the engine evaluates, king safety and mobility included: two implementations
    of one sum (mobility's and king attacks' counts come from the engine's generator,
    their sums do not).  The games start from the setup, and from each FEN of
    `starts`."""
    import random
    from fairyforge.tune.features import features, space_for
    space = space_for(game.variant, params)
    rng = random.Random(3)
    for start in [None] * 4 + list(starts):
        position = game.start() if start is None else game.position(start)
        for _ in range(80):
            engine = position.engine
            royals = (engine.royal_square(0), engine.royal_square(1))
            slots, counts, score = features(space, engine.board(), engine.hands(),
                                            game.meta["squares"], royals,
                                            engine.mobility_counts(),
                                            engine.king_attack_counts(),
                                            engine.threat_pairs(), engine.state()[0],
                                            engine.king_attackers(),
                                            engine.mobility_by_piece(),
                                            engine.drop_checks()
                                            if space.drop_check_types else None,
                                            engine.board_checks()
                                            if space.check_types else None,
                                            engine.safe_mobility_counts())
            sign = 1 if engine.state()[0] == 0 else -1
            assert engine.evaluate() * sign == score, position.fen()
            x = np.zeros(space.size)
            np.add.at(x, slots, counts)
            # (a blend by phase is divided in whole centipawns in the engine)
            assert abs(100 * x @ space.theta0 - score) < (1.0001 if space.endgame else 0.5), \
                position.fen()
            if position.outcome() is not None:
                break
            position.push(rng.choice(position.legal_moves()))


def _chess_with(params):
    from fairyforge.compiler import build
    from fairyforge.game import Game
    from fairyforge.compiler import loader
    variant = loader.load_variant("chess")
    params = dict(params, model_hash=evalparams.model_hash(variant))
    path, module = build.load_module(variant, evaluation=params)
    return Game(variant, module, path), params


def _flat_chess(**sections):
    """A chess parameter file with round values and flat square tables (what each
    test's hand computation starts from), and `sections` added."""
    flat = [[0] * 8 for _ in range(8)]
    return {"format": 1, "game": "chess", "symmetry": "mirror",
            "values": {"pawn": 100, "knight": 300, "bishop": 310, "rook": 500,
                       "queen": 900},
            "hand_values": {}, "pst": {name: flat for name in
                                       ("pawn", "knight", "bishop", "rook", "queen", "king")},
            **sections}


def test_endgame_tables_are_blended_in_by_phase():
    """With an endgame section, a piece's value and square bonus run from the file's
    middlegame numbers at the setup's material to its endgame numbers with none: the
    engine adds exactly that, and the tuner's features add up to the same."""
    king_eg = [[0] * 8 for _ in range(8)]
    king_eg[3][4] = 60                                  # e4 (e5 for Black)
    params = _flat_chess(endgame={"values": {"queen": 1200, "pawn": 150},
                                  "pst": {"king": king_eg}})
    game, params = _chess_with(params)
    setup_phase = 2 * (2 * 300 + 2 * 310 + 2 * 500 + 900)      # all but pawns and kings
    assert game.start().engine.evaluate() == 0
    # White: king e4, queen, two pawns; Black: king, rook.  Phase 900 + 500.
    pos = game.position("4k3/8/8/r7/4K3/8/PP6/Q7 w - - 0 1")
    middle = 900 + 2 * 100 - 500
    end = 1200 + 2 * 150 + 60 - 500
    phase = 900 + 500
    assert pos.engine.evaluate() == (middle * phase + end * (setup_phase - phase)) // setup_phase
    assert pos.engine.evaluate() > middle + 200         # mostly the ending's numbers
    _features_agree_with_the_engine(game, params)


def test_threats_count_cheaper_attackers_by_who_is_to_move():
    """A piece a cheaper enemy piece can take earns the taker's side THREAT (by the
    victim's type): `to_move` when the taker's side moves next, `waiting` when the
    victim's does; an attack by a piece worth as much or more, and one on the king,
    earn nothing.  The tuner's features add up to the engine's sum."""
    game, params = _chess_with(_flat_chess(threats={"to_move": {"rook": 7, "queen": 11},
                                                    "waiting": {"rook": 40, "queen": 90}}))
    plain, _ = _chess_with(_flat_chess())

    def edge(fen):
        # (the same position without the term: the difference, from White's view)
        sign = 1 if " w " in fen else -1
        return sign * (game.position(fen).engine.evaluate()
                       - plain.position(fen).engine.evaluate())

    # White's knight on d5 attacks Black's rook on c7 (and the queen on e7, by the
    # knight's move too); Black's rook on c7 attacks nothing cheaper-taken.
    fork = "4k3/2r1q3/8/3N4/8/8/8/K7 {} - - 0 1"
    assert edge(fork.format("w")) == 7 + 11                  # White may take: to_move
    assert edge(fork.format("b")) == 40 + 90                 # Black must answer: waiting
    # The d3 queen and d5 rook attack each other: only the rook's attack is a threat.
    assert edge("4k3/8/8/3r4/8/3Q4/8/K7 w - - 0 1") == -90
    assert edge("4k3/8/8/3r4/8/3Q4/8/K7 b - - 0 1") == -11
    # A pawn on d6 attacks the e7 queen (a pawn attacks the king on e7: nothing).
    assert edge("7k/4q3/3P4/8/8/8/8/K7 w - - 0 1") == 11
    assert edge("7k/4q3/3P4/8/8/8/8/K7 b - - 0 1") == 90
    assert edge("8/4k3/3P4/8/8/8/8/K7 b - - 0 1") == 0
    assert "HAS_THREATS = 1" in open(game.source_path).read()
    assert "HAS_THREATS = 0" in open(plain.source_path).read()
    _features_agree_with_the_engine(game, params)


def test_threats_by_taker_add_the_pairs_bonus_to_the_victims():
    """threats_by_taker adds, for a threat of one type on another, the pair's bonus to
    the victim's: a pawn attacking a knight earns the knight's and the pawn-on-knight
    bonus, a bishop attacking a rook the rook's alone.  The tuner's features add up to
    the engine's sum, and a fit writes the pairs back."""
    game, params = _chess_with(_flat_chess(
        threats={"to_move": {"knight": 10, "rook": 20}, "waiting": {"knight": 30}},
        threats_by_taker={"to_move": {"pawn": {"knight": 7}, "knight": {"rook": 3}},
                          "waiting": {"pawn": {"knight": 50}}}))
    plain, _ = _chess_with(_flat_chess())

    def edge(fen):
        sign = 1 if " w " in fen else -1
        return sign * (game.position(fen).engine.evaluate()
                       - plain.position(fen).engine.evaluate())

    pawn_on_knight = "4k3/8/8/4n3/3P4/8/8/K7 {} - - 0 1"       # d4 attacks e5
    assert edge(pawn_on_knight.format("w")) == 10 + 7
    assert edge(pawn_on_knight.format("b")) == 30 + 50
    assert edge("4k3/8/8/8/3r4/8/B7/K7 w - - 0 1") == 0       # a2 bishop, d4 rook: no line
    assert edge("4k3/8/8/8/3r4/2B5/8/K7 w - - 0 1") == 20     # c3 bishop on d4 rook
    assert edge("4k3/8/8/3r4/8/4N3/8/K7 w - - 0 1") == 20 + 3  # e3 knight on d5 rook
    _features_agree_with_the_engine(game, params)
    from fairyforge.tune.features import space_for, to_params
    space = space_for(game.variant, params)
    written = to_params(space, space.theta0, {})
    assert written["threats_by_taker"] == params["threats_by_taker"]
    assert written["threats"]["to_move"]["rook"] == 20


def test_safe_mobility_counts_the_moves_no_enemy_pawn_attacks():
    """mobility_safe adds, for each board move to a square no enemy piece of the
    cheapest type (a pawn) attacks, its type's bonus: a knight on b1 with its three
    moves and a pawn on e4 (attacking d3, not a3 or c3) earns two; a queen's attack on
    the square does not make it unsafe.  The tuner's features add up to the engine's
    sum."""
    game, params = _chess_with(_flat_chess(mobility_safe={"knight": 5, "king": 1}))
    plain, _ = _chess_with(_flat_chess())

    def edge(fen):
        sign = 1 if " w " in fen else -1
        return sign * (game.position(fen).engine.evaluate()
                       - plain.position(fen).engine.evaluate())

    # White: king h1 (g1, g2, h2 safe: 3), knight b1 (a3, c3, d2 safe: 3).  Black: king
    # h8 (g8, g7, h7: 3), pawn e4 (attacks d3, f3 for Black: no White move goes there).
    assert edge("7k/8/8/8/4p3/8/8/1N5K w - - 0 1") == 5 * 3 + 3 - 3
    # The pawn on b4 attacks a3 and c3: the knight keeps d2 alone.
    assert edge("7k/8/8/8/1p6/8/8/1N5K w - - 0 1") == 5 * 1 + 3 - 3
    # A queen on a5 attacks a3 and c3 too, and takes nothing from the count.
    assert edge("7k/8/8/q7/8/8/8/1N5K w - - 0 1") == 5 * 3 + 3 - 3
    assert "HAS_SAFE_MOBILITY = 1" in open(game.source_path).read()
    assert "HAS_SAFE_MOBILITY = 0" in open(plain.source_path).read()
    _features_agree_with_the_engine(game, params)
    from fairyforge.tune.features import space_for, to_params
    space = space_for(game.variant, params)
    assert to_params(space, space.theta0, {})["mobility_safe"]["knight"] == 5


def test_king_attackers_count_the_pieces_that_bear_next_to_the_king():
    """A royal piece earns its side king_attackers[n], n the enemy pieces with a board
    move next to it or onto it (the last number for that many or more): the engine
    adds exactly that, and the tuner's features add up to the same."""
    by_count = [0, 0, -10, -30, -60, -100, -150, -210]
    game, params = _chess_with(_flat_chess(king_attackers=by_count))
    plain, _ = _chess_with(_flat_chess())

    def edge(fen):
        sign = 1 if " w " in fen else -1
        return sign * (game.position(fen).engine.evaluate()
                       - plain.position(fen).engine.evaluate())

    # The a7 rook (to d7, e7, f7), the c5 knight (to d7) and the g4 bishop (through
    # f5 and e6 to d7): three attackers of e8; none of e1.
    assert edge("4k3/R7/8/2N5/6B1/8/8/4K3 w - - 0 1") == 30
    assert edge("4k3/R7/8/2N5/6B1/8/8/4K3 b - - 0 1") == 30
    assert edge("4k3/R7/8/2N5/8/8/8/4K3 w - - 0 1") == 10        # two
    assert edge("4k3/R7/8/8/8/8/8/4K3 w - - 0 1") == 0           # one
    # Black's queen (to d2, e2, f2) and rook (to d1, d2) against e1: 3 and 2.
    assert edge("3rk3/R7/8/2N5/6B1/8/q7/4K3 w - - 0 1") == 30 - 10
    assert "HAS_KING_ATTACKERS = 1" in open(game.source_path).read()
    assert "HAS_KING_ATTACKERS = 0" in open(plain.source_path).read()
    _features_agree_with_the_engine(game, params)


def _crazyhouse_with(king_attackers, **sections):
    """Crazyhouse with the derived evaluation, `king_attackers` and `sections` (quick
    build)."""
    from fairyforge.compiler import build, loader
    from fairyforge.game import Game
    from fairyforge.tune.features import space_for, to_params
    variant = loader.load_variant("crazyhouse")
    params = to_params(space_for(variant, None), space_for(variant, None).theta0, {})
    params["king_attackers"] = king_attackers
    params.update(sections)
    path, module = build.load_module(variant, evaluation=params, quick=True)
    return Game(variant, module, path), params


def test_in_a_drop_game_king_attackers_has_a_row_for_each_count_of_types_in_hand():
    """In crazyhouse a royal piece earns its side king_attackers[held][board]: held the
    types the enemy holds in hand, board its pieces with a board move next to the royal
    piece; a file written with one row counts the two together."""
    rows = [[-(10 * board + 100 * held) for board in range(8)] for held in range(8)]
    game, params = _crazyhouse_with(rows)
    single, _ = _crazyhouse_with([0, -1, -30, -60, -100, -150, -210, -280])
    plain, _ = _crazyhouse_with([])

    def edge(fen, against=game):
        return against.position(fen).engine.evaluate() - plain.position(fen).engine.evaluate()

    assert edge("4k3/8/8/8/8/8/8/4K3[QQN] w - - 0 1") == 200      # two types, no attacker
    # The a7 rook bears on d7, e7 and f7; White holds a knight: one and one.
    assert edge("4k3/R7/8/8/8/8/8/4K3[N] w - - 0 1") == 110
    assert edge("4k3/R7/8/8/8/8/8/4K3[N] w - - 0 1", single) == 30     # two together
    assert edge("4k3/R7/8/8/8/8/8/4K3[n] w - - 0 1") == 10 - 100      # Black holds one
    assert edge("4k3/R7/8/8/8/8/8/4K3[Nbp] w - - 0 1") == 110 - 200
    assert "ATTACKER_ROWS = 8" in open(game.source_path).read()
    _features_agree_with_the_engine(game, params)


def test_rows_by_types_in_hand_are_refused_in_a_game_without_drops(tuned_dir):
    from fairyforge.compiler import loader
    variant = loader.load_variant("chess")
    params = dict(_flat_chess(king_attackers=[[0] * 8] * 8),
                  model_hash=evalparams.model_hash(variant))
    evalparams.write(str(tuned_dir / "chess.eval.json"), params)
    with pytest.raises(evalparams.ParameterFileError,
                       match="chess.eval.json: king_attackers: chess has no drops"):
        evalparams.for_build(variant)


def test_mobility_by_count_adds_a_bonus_by_each_pieces_count_of_moves():
    """A piece earns its side mobility_by_count[type][n], n its board moves (the last
    number for that many or more), on top of mobility's line: the engine adds exactly
    that, and the tuner's features add up to the same."""
    knight = [-80, -50, -30, -15, -5, 0, 4, 7, 9] + [0] * 23
    game, params = _chess_with(_flat_chess(mobility={"knight": 2},
                                           mobility_by_count={"knight": knight}))
    plain, _ = _chess_with(_flat_chess(mobility={"knight": 2}))

    def edge(fen):
        sign = 1 if " w " in fen else -1
        return sign * (game.position(fen).engine.evaluate()
                       - plain.position(fen).engine.evaluate())

    assert edge("4k3/8/8/8/8/8/8/N3K3 w - - 0 1") == -30           # a1: b3 and c2
    assert edge("4k3/8/8/8/8/8/8/N3K3 b - - 0 1") == -30           # whoever is to move
    assert edge("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1") == 9            # d4: eight
    assert edge("4k3/8/8/8/3n4/8/8/4K3 w - - 0 1") == -9           # Black's, on d4
    # c2 and b3 taken by White's own pawns: none; Black's h8 knight has f7 and g6.
    assert edge("4k2n/8/8/8/8/1P6/2P5/N3K3 w - - 0 1") == -80 - (-30)
    assert "HAS_MOBILITY_BY_COUNT = 1" in open(game.source_path).read()
    assert "HAS_MOBILITY_BY_COUNT = 0" in open(plain.source_path).read()
    _features_agree_with_the_engine(game, params)


def test_drop_checks_count_the_squares_a_piece_in_hand_could_check_from():
    """A side earns drop_checks safe[type] for each empty square from which a piece of
    that type in its hand would attack the enemy king, nobody of the enemy guarding it,
    and defended[type] for each one guarded; the tuner's features add up to the
    engine's sum."""
    game, params = _crazyhouse_with([], drop_checks={
        "safe": {"knight": 30, "rook": 2, "pawn": 7},
        "defended": {"knight": 10, "rook": -5, "pawn": -1}})
    plain, _ = _crazyhouse_with([])

    def edge(fen):
        return game.position(fen).engine.evaluate() - plain.position(fen).engine.evaluate()

    # d6, f6, c7 and g7, none guarded; whoever is to move.
    assert edge("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1") == 4 * 30
    assert edge("4k3/8/8/8/8/8/8/4K3[N] b - - 0 1") == -4 * 30
    # A bishop on e7 guards d6 and f6.
    assert edge("4k3/4b3/8/8/8/8/8/4K3[N] w - - 0 1") == 2 * 30 + 2 * 10
    assert edge("4k3/8/8/8/8/8/8/4K3[n] w - - 0 1") == -4 * 30      # Black's, at e1
    # The rook: e7 .. e2 (e1 is White's king) and a8 .. h8 less e8: the king guards
    # e7, d8 and f8.  A pawn: d7 and f7, both guarded by the king.
    assert edge("4k3/8/8/8/8/8/8/4K3[R] w - - 0 1") == 10 * 2 + 3 * -5
    assert edge("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1") == 2 * -1
    # A black pawn may not be dropped on the first rank: d2 and f2 only.
    assert edge("4k3/8/8/8/8/8/8/4K3[p] w - - 0 1") == -2 * -1
    assert "HAS_DROP_CHECKS = 1" in open(game.source_path).read()
    assert "HAS_DROP_CHECKS = 0" in open(plain.source_path).read()
    _features_agree_with_the_engine(game, params)


def test_drop_checks_of_the_side_to_move_add_their_own_terms():
    """safe_to_move and defended_to_move add to safe and defended for the squares of
    the side to move only (it may drop the check now); the features agree."""
    game, params = _crazyhouse_with([], drop_checks={
        "safe": {"knight": 30}, "defended": {"knight": 10},
        "safe_to_move": {"knight": 50}, "defended_to_move": {"knight": -4}})
    plain, _ = _crazyhouse_with([])

    def edge(fen):
        return game.position(fen).engine.evaluate() - plain.position(fen).engine.evaluate()

    # d6, f6, c7 and g7, none guarded: from the side to move's view.
    assert edge("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1") == 4 * (30 + 50)
    assert edge("4k3/8/8/8/8/8/8/4K3[N] b - - 0 1") == -4 * 30
    assert edge("4k3/8/8/8/8/8/8/4K3[n] b - - 0 1") == 4 * (30 + 50)
    # A bishop on e7 guards d6 and f6.
    assert edge("4k3/4b3/8/8/8/8/8/4K3[N] w - - 0 1") == 2 * (30 + 50) + 2 * (10 - 4)
    _features_agree_with_the_engine(game, params)


def test_board_checks_count_the_moves_that_would_give_check():
    """A side earns board_checks safe[type] for each board move of a piece of that type
    to a square from which it would attack the enemy king, nobody of the enemy guarding
    the square, and defended[type] where one does, whoever is to move; the tuner's
    features add up to the engine's sum."""
    game, params = _chess_with(_flat_chess(board_checks={
        "safe": {"knight": 40, "rook": 3},
        "defended": {"knight": 9, "rook": -2, "pawn": -5}}))
    plain, _ = _chess_with(_flat_chess())

    def edge(fen):
        sign = 1 if " w " in fen else -1
        return sign * (game.position(fen).engine.evaluate()
                       - plain.position(fen).engine.evaluate())

    assert edge("4k3/8/8/8/8/8/8/N3K3 w - - 0 1") == 0            # b3, c2: no check
    assert edge("4k3/8/8/1N6/8/8/8/4K3 w - - 0 1") == 2 * 40      # c7 and d6
    assert edge("4k3/8/8/1N6/8/8/8/4K3 b - - 0 1") == 2 * 40      # whoever is to move
    assert edge("4k3/2p5/8/1N6/8/8/8/4K3 w - - 0 1") == 40 + 9    # takes c7; d6 guarded
    assert edge("4k3/8/8/8/8/8/8/R3K3 w - - 0 1") == 3            # a8, along the rank
    assert edge("4k3/8/8/8/8/8/8/3RK3 w - - 0 1") == -2           # d8, the king guards it
    assert edge("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1") == -5          # d7, guarded
    assert edge("4k3/8/8/8/1n6/8/8/4K3 w - - 0 1") == -2 * 40     # Black's: c2 and d3
    assert "HAS_BOARD_CHECKS = 1" in open(game.source_path).read()
    assert "HAS_BOARD_CHECKS = 0" in open(plain.source_path).read()
    _features_agree_with_the_engine(game, params)


def test_board_checks_of_the_side_to_move_add_their_own_terms():
    """safe_to_move and defended_to_move add to safe and defended for the moves of
    the side to move only (it may give the check now); the features agree."""
    game, params = _chess_with(_flat_chess(board_checks={
        "safe": {"knight": 40}, "defended": {"knight": 9},
        "safe_to_move": {"knight": 25}, "defended_to_move": {"knight": -3}}))
    plain, _ = _chess_with(_flat_chess())

    def edge(fen):
        sign = 1 if " w " in fen else -1
        return sign * (game.position(fen).engine.evaluate()
                       - plain.position(fen).engine.evaluate())

    assert edge("4k3/8/8/1N6/8/8/8/4K3 w - - 0 1") == 2 * (40 + 25)   # c7 and d6
    assert edge("4k3/8/8/1N6/8/8/8/4K3 b - - 0 1") == 2 * 40          # White waits
    assert edge("4k3/2p5/8/1N6/8/8/8/4K3 w - - 0 1") == 40 + 25 + 9 - 3   # d6 guarded
    assert edge("4k3/8/8/8/1n6/8/8/4K3 b - - 0 1") == -2 * (40 + 25)  # Black's, to move
    _features_agree_with_the_engine(game, params)


def test_drop_checks_are_refused_in_a_game_without_drops(tuned_dir):
    from fairyforge.compiler import loader
    variant = loader.load_variant("chess")
    params = dict(_flat_chess(drop_checks={"safe": {"knight": 5}}),
                  model_hash=evalparams.model_hash(variant))
    evalparams.write(str(tuned_dir / "chess.eval.json"), params)
    with pytest.raises(evalparams.ParameterFileError,
                       match="chess.eval.json: drop_checks: chess has no drops"):
        evalparams.for_build(variant)


def test_structure_counts_doubled_isolated_and_pairs():
    """Doubled and isolated pieces of a type that promotes, and pairs, each earn
    their side the file's bonus; the tuner's features add up to the engine's sum."""
    game, params = _chess_with(_flat_chess(structure={
        "doubled": {"pawn": -13}, "isolated": {"pawn": -7}, "pair": {"bishop": 41}}))
    plain, _ = _chess_with(_flat_chess())

    def edge(board):
        fen = board + " w - - 0 1"
        return game.position(fen).engine.evaluate() - plain.position(fen).engine.evaluate()

    assert edge("4k3/8/8/8/8/8/3PP3/4K3") == 0                  # d2, e2: neither
    assert edge("4k3/8/8/8/8/3P4/3P4/4K3") == -13 - 2 * 7       # d2, d3: doubled, isolated
    assert edge("4k3/8/8/8/8/P7/P1P5/4K3") == -13 - 3 * 7       # a-pawns doubled; all isolated
    assert edge("4k3/8/8/8/8/P7/PP6/4K3") == -13                # a2, a3 doubled, b2 beside them
    assert edge("4k3/8/8/8/8/8/8/2B1KB2") == 41                 # White's two bishops
    assert edge("2b1kb2/8/8/8/8/8/8/2B1KB2") == 0               # both sides' pairs
    assert edge("4k3/p7/8/8/8/8/8/4K3") == 7                    # Black's isolated a7
    assert "HAS_STRUCTURE = 1" in open(game.source_path).read()
    assert "HAS_STRUCTURE = 0" in open(plain.source_path).read()
    _features_agree_with_the_engine(game, params)


PASSED_KING = {"own": {"pawn": [0, 0, 0, -4, -6, -10, -12, 0]},
               "enemy": {"pawn": [0, 0, 0, 8, 12, 20, 30, 0]}}
PAWN_ENDINGS = ("8/8/5P2/8/8/8/k7/4K3 w - - 0 1", "8/5k2/8/1p3P2/8/2K5/8/8 b - - 0 1",
                "8/p7/8/8/5K2/8/2k2P2/8 w - - 0 1")


def test_passed_king_counts_each_kings_distance_to_the_square_ahead():
    """passed_king adds, for a passed pawn, its own king's distance to the square
    ahead of it times the `own` entry for its rank, and the enemy king's times the
    `enemy` entry, each distance at most PASSED_KING_DISTANCE; without endgame
    tables, wholly.  The tuner's features add up to the engine's sum."""
    game, params = _chess_with(_flat_chess(passed_king=PASSED_KING))
    plain, _ = _chess_with(_flat_chess())

    def edge(board):
        fen = board + " w - - 0 1"
        return game.position(fen).engine.evaluate() - plain.position(fen).engine.evaluate()

    # f6 (rank 6), ahead f7: White's king e1 six squares away (counted 5), Black's a2 five.
    assert edge("8/8/5P2/8/8/8/k7/4K3") == -10 * 5 + 20 * 5
    # White's king e6 next to f7, Black's still five away.
    assert edge("8/8/4KP2/8/8/8/k7/8") == -10 * 1 + 20 * 5
    # Black's c3 is on its rank 6, ahead c2: its king h1 five away, White's a1 two.
    assert edge("8/8/8/8/8/2p5/8/K6k") == -(-10 * 5 + 20 * 2)
    # A pawn on the last rank but one, ahead the last: White's g7, ahead g8 (king h7).
    assert edge("8/6Pk/8/8/8/8/8/K7") == -12 * 5 + 30 * 1
    # f6 and g7 stop each other: neither is passed.
    assert edge("8/6p1/5P2/8/8/8/k7/4K3") == 0
    assert "HAS_PASSED_KING = 1" in open(game.source_path).read()
    assert "HAS_PASSED_KING = 0" in open(plain.source_path).read()
    _features_agree_with_the_engine(game, params, PAWN_ENDINGS)
    from fairyforge.tune.features import space_for, to_params
    space = space_for(game.variant, params)
    assert to_params(space, space.theta0, {})["passed_king"] == PASSED_KING


def test_passed_king_counts_in_the_ending_where_endgame_tables_blend():
    """With endgame tables, passed_king is an ending's term: blended in with them by
    phase, it counts wholly with no pieces but pawns and kings, and the tuner's
    features (its endgame share) add up to the engine's sum."""
    game, params = _chess_with(_flat_chess(passed_king=PASSED_KING,
                                           endgame={"values": {"pawn": 100}}))
    plain, _ = _chess_with(_flat_chess(endgame={"values": {"pawn": 100}}))

    def edge(board):
        fen = board + " w - - 0 1"
        return game.position(fen).engine.evaluate() - plain.position(fen).engine.evaluate()

    assert edge("8/8/5P2/8/8/8/k7/4K3") == -10 * 5 + 20 * 5
    # Two queens on the board: the phase is 1800 of the setup's 6040.
    assert abs(edge("q7/8/5P2/8/k7/8/8/4K2Q") - 50 * (6040 - 1800) / 6040) <= 1
    _features_agree_with_the_engine(game, params, PAWN_ENDINGS)


def test_the_cache_key_holds_every_table_a_build_reads():
    """Two files that differ only in their endgame or threat tables build two modules:
    a cache key that left a table out would reuse the first build for the second."""
    flat = _flat_chess()
    keys = {evalparams.canonical(flat),
            evalparams.canonical({**flat, "endgame": {"values": {"queen": 1000}}}),
            evalparams.canonical({**flat, "threats": {"waiting": {"queen": 50}}}),
            evalparams.canonical({**flat, "structure": {"pair": {"bishop": 50}}}),
            evalparams.canonical({**flat, "search_settings": {"null_move": 1}}),
            evalparams.canonical({**flat, "king_attackers": [0, 0, -5, -9, -20, -40, -60, -80]}),
            evalparams.canonical({**flat, "mobility_by_count": {"queen": [-9] + [0] * 31}}),
            evalparams.canonical({**flat, "drop_checks": {"safe": {"queen": 9}}}),
            evalparams.canonical({**flat, "board_checks": {"safe": {"queen": 9}}}),
            evalparams.canonical({**flat, "passed_king": PASSED_KING})}
    assert len(keys) == 10


def test_a_files_search_settings_reach_its_engine_and_no_other(games):
    """crazyhouse's bundled file sets null move and the history malus on, chess's the
    malus, null move and eight others (matches measured them for those games); what a file leaves
    out keeps the defaults of every game.  The names a file may use are the engine's
    settings."""
    crazyhouse = evalparams.read(evalparams.bundled_path("crazyhouse"))
    assert crazyhouse["search_settings"] == {"history_malus": 1, "null_move": 1}
    assert games["crazyhouse"].start().engine.search_settings()["null_move"] == 1
    assert games["crazyhouse"].start().engine.search_settings()["history_malus"] == 1
    assert games["crazyhouse"].start().engine.search_settings()["tempo"] == 0
    shipped = evalparams.read(evalparams.bundled_path("chess"))["search_settings"]
    assert shipped == {"cont_history": 1, "history_malus": 1, "qs_delta": 200, "tempo": 20,
                       "cut_reduction": 1, "lmr_first": 2, "probcut": 200, "null_move": 1,
                       "qs_promotions": 800, "aspiration": 40}
    assert evalparams.read(evalparams.bundled_path("shogi"))["search_settings"] == \
        {"history_malus": 1}
    assert games["shogi"].start().engine.search_settings()["history_malus"] == 1
    chess = games["chess"].start().engine.search_settings()
    assert {name: chess[name] for name in shipped} == shipped
    assert chess["singular_depth"] == 0 and chess["lmr_futility"] == 0
    assert sorted(chess) == sorted(evalparams.SEARCH_SETTINGS)


def test_tune_fits_endgame_tables_unless_told_not_to(tmp_path):
    """`--without endgame` leaves the blend out (none in a file that had none)."""
    from fairyforge.tune.features import space_for
    from fairyforge.compiler import loader
    variant = loader.load_variant("chess")
    with_blend, without = space_for(variant, None, endgame=True), space_for(variant, None)
    assert with_blend.endgame and not without.endgame
    assert with_blend.size == without.size + len(without.value_types) + without.square_count
    # Where captured pieces return by drops the phase never falls: no blend to fit.
    assert not space_for(loader.load_variant("crazyhouse"), None, endgame=True).endgame
    # Endgame numbers start where the middlegame's are (the ridge pulls them there).
    assert (with_blend.theta0[with_blend.endgame_value_block()]
            == with_blend.theta0[:len(with_blend.value_types)]).all()


def test_value_in_the_definition_overrides_the_file(definition, tuned_dir):
    definition.write_text(DEFINITION + "value knight 3.5\n")
    variant = ff.load(str(definition)).variant
    from fairyforge.tune.features import space_for, to_params
    space = space_for(variant, None)
    params = to_params(space, space.theta0, {})
    params["values"]["knight"] = 999
    evalparams.write(str(tuned_dir / "tunetest.eval.json"), params)
    game = ff.load(str(definition))
    with open(game.source_path) as handle:
        source = handle.read()
    assert "= 350         # knight" in source and "999" not in source


def test_a_stale_file_is_ignored_with_a_warning_naming_it(definition, tuned_dir):
    variant = ff.load(str(definition)).variant
    from fairyforge.tune.features import space_for, to_params
    space = space_for(variant, None)
    params = to_params(space, space.theta0, {})
    params["values"]["queen"] = 1234
    path = str(tuned_dir / "tunetest.eval.json")
    evalparams.write(path, params)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                     # a matching file: no warning
        tuned = ff.load(str(definition))
    assert "= 1234" in open(tuned.source_path).read()
    definition.write_text(DEFINITION + "drop pawn in ranks 2-6\n")   # the rules change
    with pytest.warns(evalparams.StaleParametersWarning, match=path):
        game = ff.load(str(definition))
    assert "1234" not in open(game.source_path).read()


def test_a_damaged_file_is_an_error_naming_it(definition, tuned_dir):
    os.makedirs(tuned_dir)
    path = tuned_dir / "tunetest.eval.json"
    path.write_text("{not json")
    with pytest.raises(evalparams.ParameterFileError, match="tunetest.eval.json"):
        ff.load(str(definition))


@pytest.mark.parametrize("field, table, message", [
    ("king_safety", {"shelter": {"dragon": 5}}, "king_safety shelter: no piece named dragon"),
    ("king_safety", {"near": {"queen": "a lot"}}, "king_safety near: expected numbers by piece"),
    ("king_safety", {"near": {"queen": float("nan")}},
     "king_safety near: expected numbers by piece"),
    ("king_safety", {"moat": {}}, "king_safety holds only shelter, near, attacks, holes"),
    ("mobility", {"dragon": 5}, "mobility: no piece named dragon"),
    ("mobility", {"queen": "a lot"}, "mobility: expected numbers by piece"),
    ("mobility", [3, 4], "mobility: expected numbers by piece"),
    ("mobility_safe", {"knight": "a lot"}, "mobility_safe: expected numbers by piece"),
    ("mobility_safe", {"dragon": 3}, "mobility_safe: no piece named dragon"),
    ("passed", {"pawn": [0, 5]}, "passed pawn: expected 8 values, one a rank"),
    ("passed", {"pawn": 5}, "passed: expected a list of numbers by rank"),
    ("passed", {"dragon": [0] * 8}, "passed: no piece named dragon"),
    ("passed", {"knight": [0] * 8}, "passed knight: only a piece that promotes"),
    ("passed_king", {"own": {"knight": [0] * 8}}, "passed_king own knight: only a piece that "
                                                  "promotes"),
    ("passed_king", {"own": {"pawn": [0, 5]}}, "passed_king own pawn: expected 8 values"),
    ("passed_king", {"enemy": {"dragon": [0] * 8}}, "passed_king enemy: no piece named dragon"),
    ("passed_king", {"near": {}}, "passed_king: expected \"own\" and \"enemy\""),
    ("passed_king", {"own": {"pawn": 5}}, "passed_king: expected"),
    ("endgame", {"values": {"dragon": 5}}, "endgame values: no piece named dragon"),
    ("endgame", {"pst": {"king": [[0] * 8] * 7}}, "endgame pst king: expected 8 rows of 8"),
    ("endgame", {"values": {"queen": "a lot"}}, "endgame holds \"values\" \\(numbers by piece\\)"),
    ("endgame", {"pst": {"king": [[None] * 8] * 8}}, "endgame holds"),
    ("endgame", {"kings": {}}, "endgame holds \"values\" .* nothing else"),
    ("endgame", [1], "endgame holds"),
    ("threats", {"hanging": {}}, "threats holds only to_move, waiting"),
    ("king_attackers", [0, -5], "king_attackers: expected a list of 8 numbers"),
    ("king_attackers", {"queen": -5}, "king_attackers: expected a list of 8 numbers"),
    ("king_attackers", ["a lot"] * 8, "king_attackers: expected a list of 8 numbers"),
    ("king_attackers", [[0] * 8] * 7, "king_attackers: expected a list of 8 numbers"),
    ("king_attackers", [[0] * 7] * 8, "king_attackers: expected a list of 8 numbers"),
    ("king_attackers", [[0] * 8] * 7 + [0], "king_attackers: expected a list of 8 numbers"),
    ("mobility_by_count", {"queen": [0] * 8}, "mobility_by_count: expected a list of 32 numbers"),
    ("mobility_by_count", [0] * 32, "mobility_by_count: expected a list of 32 numbers"),
    ("mobility_by_count", {"queen": ["a lot"] * 32}, "mobility_by_count: expected a list"),
    ("mobility_by_count", {"dragon": [0] * 32}, "mobility_by_count: no piece named dragon"),
    ("drop_checks", {"unsafe": {}}, "drop_checks holds only safe, defended, safe_to_move, "
                                    "defended_to_move"),
    ("drop_checks", {"safe": {"queen": "a lot"}}, "drop_checks holds only"),
    ("drop_checks", {"safe": {"dragon": 5}}, "drop_checks safe: no piece named dragon"),
    ("board_checks", {"safer": {}}, "board_checks holds only safe, defended, safe_to_move, "
                                    "defended_to_move"),
    ("board_checks", {"defended": {"dragon": 5}}, "board_checks defended: no piece named dragon"),
    ("structure", {"tripled": {}}, "structure holds only doubled, isolated, pair"),
    ("structure", {"doubled": {"knight": -5}}, "structure doubled knight: only a piece that promotes"),
    ("structure", {"pair": {"dragon": 5}}, "structure pair: no piece named dragon"),
    ("threats", {"waiting": {"queen": "a lot"}}, "threats holds only"),
    ("threats", {"waiting": {"dragon": 5}}, "threats waiting: no piece named dragon"),
    ("threats_by_taker", {"waiting": {"pawn": 5}}, "threats_by_taker holds only to_move, "
                                                   "waiting, each a table by taking piece"),
    ("threats_by_taker", {"later": {}}, "threats_by_taker holds only"),
    ("threats_by_taker", {"waiting": {"dragon": {"queen": 5}}},
     "threats_by_taker waiting: no piece named dragon"),
    ("threats_by_taker", {"waiting": {"pawn": {"dragon": 5}}},
     "threats_by_taker waiting pawn: no piece named dragon"),
    ("search_settings", {"nul_move": 1}, "search_settings: no search setting named 'nul_move'"),
    ("search_settings", {"null_move": 1001}, "null_move must be a whole number from 0 to 1000"),
    ("search_settings", {"null_move": True}, "null_move must be a whole number"),
    ("search_settings", {"lmr_divisor": 0}, "lmr_divisor must be a whole number from 1"),
    ("search_settings", {"tempo": 2.5}, "tempo must be a whole number"),
    ("search_settings", [1], "search_settings: expected numbers by setting name"),
])
def test_a_bad_optional_table_is_an_error_naming_the_file(tuned_dir, field, table, message):
    from fairyforge.compiler import loader
    from fairyforge.tune.features import space_for, to_params
    variant = loader.load_variant("crazyhouse")
    space = space_for(variant, None)
    params = to_params(space, space.theta0, {})
    params[field] = table
    path = str(tuned_dir / "crazyhouse.eval.json")
    evalparams.write(path, params)
    with pytest.raises(evalparams.ParameterFileError, match=message) as caught:
        evalparams.for_build(variant)
    assert path in str(caught.value)


def test_passed_king_is_refused_where_no_side_owns_a_royal_piece(tuned_dir):
    """Giveaway's only royal type is one neither side owns: no distance to measure, so
    a passed_king table there is an error naming the file, not a term that is silently
    0."""
    from fairyforge.compiler import loader
    from fairyforge.tune.features import space_for, to_params
    variant = loader.load_variant("giveaway")
    space = space_for(variant, None)
    params = to_params(space, space.theta0, {})
    params["passed_king"] = {"own": {"pawn": [0, 0, 0, -5, -10, -15, -20, 0]}}
    path = str(tuned_dir / "giveaway.eval.json")
    evalparams.write(path, params)
    with pytest.raises(evalparams.ParameterFileError,
                       match="giveaway has no royal piece that a side owns") as caught:
        evalparams.for_build(variant)
    assert path in str(caught.value)


def test_tune_learns_from_a_playtest_database(definition, tmp_path, capsys):
    from fairyforge import playtest
    db = str(tmp_path / "games.sqlite")
    playtest.run([str(definition)], games=4, depth=1, max_plies=60, db=db, processes=1)
    out = str(tmp_path / "from-db.json")
    assert main(["tune", str(definition), "--from-db", db, "-o", out, "--verify", "2",
                 "--verify-nodes", "50", "--processes", "1"]) == 0
    text = capsys.readouterr().out
    assert "4 games" in text and "knight" in text and "king safety" in text
    assert "new evaluation against the old: 2 games +" in text
    assert json.load(open(out))["fit"]["source"] == db
    # The same database says nothing about other rules.
    assert main(["tune", "chess", "--from-db", db, "-o", out]) == 2
    assert "none of its 4 games was played under these rules" in capsys.readouterr().err


def test_a_verification_match_can_give_each_move_a_fixed_time(definition, monkeypatch):
    """bench/tune_match.py --movetime: each move is searched for the time given, not
    to a node budget, so that a dearer evaluation pays for its cost."""
    from fairyforge.compiler import loader
    from fairyforge.tune import match
    from fairyforge.tune.features import space_for, to_params
    variant = loader.load_variant(str(definition))
    space = space_for(variant, None)
    params = to_params(space, space.theta0, {})
    limits = _record_limits(monkeypatch, match)
    job = match.MatchJob(variant, params, None, ("e2e4", "e7e5"), True, None, 8, 0.01)
    points, _reason, plies = match.play(job)
    assert plies == 8 and points == 0.5
    assert limits and all(limit == {"nodes": None, "movetime": 0.01}
                          for _turn, limit in limits)


def _record_limits(monkeypatch, match):
    """(side to move, limits) of every search the match asks for, in order."""
    limits, searched = [], match.think

    def recorded_think(position, **limit):
        limits.append((position.turn, limit))
        return searched(position, **limit)
    monkeypatch.setattr(match, "think", recorded_think)
    return limits


def test_time_odds_give_the_old_build_its_own_time(definition, monkeypatch):
    """bench/tune_match.py --odds: the new build's moves get `movetime`, the old
    build's `old_movetime`, each on its own side's turns."""
    from fairyforge.compiler import loader
    from fairyforge.tune import match
    variant = loader.load_variant(str(definition))
    limits = _record_limits(monkeypatch, match)
    job = match.MatchJob(variant, None, None, ("e2e4", "e7e5"), False, None, 8, 0.02, 0.005)
    assert match.play(job)[2] == 8
    assert [(turn, limit["movetime"]) for turn, limit in limits] == \
        [("white", 0.005), ("black", 0.02)] * 3


TUNE_MATCH = os.path.join(os.path.dirname(os.path.dirname(__file__)), "bench", "tune_match.py")


@pytest.mark.parametrize("argv, message", [
    (["--odds", "4"], "--odds needs --movetime"),
    (["--odds", "1", "--movetime", "10"], "--odds: must be a number above 1"),
    (["--odds", "x", "--movetime", "10"], "--odds: 'x' is not a number"),
    ([], "give --params (or --odds"),
])
def test_tune_match_refuses_bad_odds_in_one_line(argv, message, capsys):
    """Refused before anything is built, naming the option."""
    spec = importlib.util.spec_from_file_location("bench_tune_match", TUNE_MATCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(SystemExit) as exit_info:
        module.main(["chess", *argv])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_tune_match_names_an_unreadable_against_file(tmp_path):
    """--against FILE: a file that is not one is one line naming it."""
    spec = importlib.util.spec_from_file_location("bench_tune_match", TUNE_MATCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    bad = tmp_path / "bad.eval.json"
    bad.write_text("{not json")
    with pytest.raises(SystemExit) as exit_info:
        module.main(["chess", "--odds", "2", "--movetime", "10", "--against", str(bad)])
    assert str(exit_info.value).startswith("tune_match.py: ")
    assert "bad.eval.json" in str(exit_info.value)


@pytest.mark.parametrize("argv, message", [
    (["--games", "0"], "--games: must be 1 or more"),
    (["--depth", "0"], "--depth: must be between 1 and 64"),
    (["--depth", "2", "--nodes", "10"], "not allowed with argument"),
    (["--nodes", "many"], "'many' is not a whole number"),
    (["--ridge", "2"], "--ridge: must be two numbers, 0 or more"),
    (["--ridge", "2,-1"], "--ridge: must be two numbers, 0 or more"),
    (["--without", "speed"], "'speed' is not one of king-safety, king-attackers, mobility"),
])
def test_bad_arguments_are_refused_clearly(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["tune", "chess", *argv])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_bad_game_and_database_are_refused_clearly(tmp_path, capsys):
    assert main(["tune", "chesss"]) == 2
    assert "did you mean 'chess'" in capsys.readouterr().err
    assert main(["tune", "chess", "--from-db", str(tmp_path / "none.sqlite")]) == 2
    assert "no such file" in capsys.readouterr().err
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    assert main(["tune", "chess", "--from-db", str(junk)]) == 2
    assert "not a playtest database" in capsys.readouterr().err


# -- learning from PGN, and the parameter files bundled with the games ------------------

MATES = """[Variant "chess"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Variant "chess"]
[Result "0-1"]
[OpeningPlies "2"]

1. f3 e5 2. g4 Qh4# 0-1

[Variant "chess"]
[Result "*"]

1. d4 d5 *
"""


def test_tune_learns_from_a_pgn_file(tmp_path, capsys):
    pgn = tmp_path / "games.pgn"
    pgn.write_text(MATES)
    out = str(tmp_path / "from-pgn.json")
    assert main(["tune", "chess", "--from-pgn", str(pgn), "-o", out]) == 0
    assert "2 games" in capsys.readouterr().out        # the unfinished game says nothing
    data = json.load(open(out))
    assert data["fit"]["source"] == str(pgn) and data["fit"]["search"] == "as played"
    # Chess's phase falls as pieces come off: endgame tables are fitted too.
    assert set(data["endgame"]) == {"values", "pst"}
    assert set(data["endgame"]["pst"]) == set(data["pst"])


def test_tune_without_a_term_keeps_it_as_it_is(tmp_path, capsys, tuned_dir):
    """--without leaves terms unfitted: a chess file's mobility keeps its numbers, and
    king safety, which that file lacks, stays out of the build."""
    shipped = evalparams.read(evalparams.bundled_path("chess"))
    shipped.pop("king_safety", None)
    evalparams.write(str(tuned_dir / "chess.eval.json"), shipped)    # the user's file
    assert any(shipped["mobility"].values())
    pgn = tmp_path / "games.pgn"
    pgn.write_text(MATES)
    assert main(["tune", "chess", "--from-pgn", str(pgn),
                 "--without", "mobility,king-safety"]) == 0
    assert "king safety" not in capsys.readouterr().out
    data = json.load(open(tuned_dir / "chess.eval.json"))
    assert data["fit"]["without"] == ["mobility", "king-safety"]
    assert data["mobility"] == shipped["mobility"]
    assert not any(v for table in data["king_safety"].values() for v in table.values())
    source = open(ff.load("chess").source_path).read()
    assert "HAS_MOBILITY = 1" in source and "HAS_KING_SAFETY = 0" in source


def test_a_refit_keeps_the_files_search_settings(tmp_path, capsys, tuned_dir):
    """Search settings are measured by matches, not fitted: tune carries them over."""
    shipped = evalparams.read(evalparams.bundled_path("chess"))
    shipped["search_settings"] = {"singular_depth": 6}
    evalparams.write(str(tuned_dir / "chess.eval.json"), shipped)
    pgn = tmp_path / "games.pgn"
    pgn.write_text(MATES)
    assert main(["tune", "chess", "--from-pgn", str(pgn)]) == 0
    data = json.load(open(tuned_dir / "chess.eval.json"))
    assert data["search_settings"] == {"singular_depth": 6}
    assert list(data)[-1] == "fit"


SCORED = """[Variant "chess"]
[Result "1-0"]

1. e4 e5 2. Bc4 {[%eval 0.40]} 2... Nc6 {[%eval 0.5]} 3. Qh5 {[%eval #2]}
3... Nf6 {[%eval #1]} 4. Qxf7# 1-0

[Variant "chess"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 {[%eval 0.20]} 2... e6 {[%eval -0.10]} 3. Nc3 1/2-1/2
"""


def test_blending_a_teachers_scores_into_the_targets():
    y = np.array([1.0, 1.0, 0.0, 0.0, 0.5])
    teacher = np.array([3.0, np.nan, -3.0, 0.5, 0.0])
    targets, k, scored = texel.blend_with_teacher(y, teacher, 1.0)
    assert scored == 4 and k > 0
    assert targets[1] == 1.0                          # no score: the result stays
    assert targets[0] > 0.5 > targets[2] and targets[4] == pytest.approx(0.5)
    half, _, _ = texel.blend_with_teacher(y, teacher, 0.5)
    assert half == pytest.approx((y + targets) / 2)
    assert texel.blend_with_teacher(y, teacher, 0.0)[0] is y


def test_tune_learns_from_eval_comments(tmp_path, capsys):
    pgn = tmp_path / "scored.pgn"
    pgn.write_text(SCORED)
    out = str(tmp_path / "scored.json")
    assert main(["tune", "chess", "--from-pgn", str(pgn), "--eval-weight", "0.5",
                 "-o", out]) == 0
    # seven quiet positions past the openings' two plies (Qxf7# is a capture), of
    # which Nc3's has no comment
    assert "7 quiet positions" in capsys.readouterr().out
    fit_info = json.load(open(out))["fit"]
    assert fit_info["eval_weight"] == 0.5 and fit_info["scored_positions"] == 6


@pytest.mark.parametrize("arguments, text, message", [
    (["--eval-weight", "1.5"], SCORED, "between 0 and 1"),
    (["--eval-weight", "0.5"], MATES, "no position of"),
    (["--eval-weight", "0.5"], SCORED.replace("[%eval 0.5]", "[%eval big]"),
     "game from line 1, ply 4: '[%eval big]' is not an evaluation"),
])
def test_bad_eval_weight_input_is_refused(tmp_path, capsys, arguments, text, message):
    pgn = tmp_path / "games.pgn"
    pgn.write_text(text)
    try:
        code = main(["tune", "chess", "--from-pgn", str(pgn)] + arguments)
    except SystemExit as stop:              # argparse refuses the number itself
        code = stop.code
    assert code == 2
    assert message in capsys.readouterr().err


def test_eval_weight_needs_a_pgn_file():
    with pytest.raises(ff.ArgumentError, match="needs --from-pgn"):
        tune("chess", games=2, eval_weight=0.5)


@pytest.mark.parametrize("text, message", [
    ('[Variant "shogi"]\n[Result "1-0"]\n\n1. P7f 1-0\n', "game from line 1: a game of shogi, not chess"),
    ('[Result "1-0"]\n\n1. e4 e5 2. Ke3 1-0\n', "game from line 1, ply 3: illegal move Ke3"),
    ('[Result "*"]\n\n1. e4 *\n', "no finished game of chess"),
    ('[FEN "8/8/8/8 w - - 0 1"]\n[Result "1-0"]\n\n1. e4 1-0\n', "FEN"),
])
def test_a_bad_pgn_file_is_refused_naming_it(tmp_path, capsys, text, message):
    pgn = tmp_path / "bad.pgn"
    pgn.write_text(text)
    assert main(["tune", "chess", "--from-pgn", str(pgn)]) == 2
    err = capsys.readouterr().err
    assert "bad.pgn" in err and message in err


def test_the_users_file_comes_before_the_bundled_one(tuned_dir):
    bundled = evalparams.bundled_path("chess")
    assert evalparams.lookup_path("chess") == (bundled if os.path.exists(bundled) else None)
    tuned_dir.mkdir()
    (tuned_dir / "chess.eval.json").write_text("{}")
    assert evalparams.lookup_path("chess") == str(tuned_dir / "chess.eval.json")


BUNDLED = sorted(name[:-len(".eval.json")] for name in os.listdir(
    os.path.dirname(evalparams.bundled_path("chess"))) if name.endswith(".eval.json")) \
    if os.path.isdir(os.path.dirname(evalparams.bundled_path("chess"))) else []


@pytest.mark.parametrize("name", BUNDLED)
def test_a_bundled_parameter_file_fits_its_games_rules(name):
    """A bundled game's file must be fitted to the rules it ships with: else every
    build would warn and fall back to the derived evaluation."""
    from fairyforge.compiler import loader
    variant = loader.load_variant(name)
    data = evalparams.read(evalparams.bundled_path(name))
    assert data["model_hash"] == evalparams.model_hash(variant)
    evalparams.check_pieces(data, variant, evalparams.bundled_path(name))


def test_the_report_names_each_row_of_king_attackers():
    from fairyforge.tune.command import _attackers_lines
    assert _attackers_lines([0] * 8) == [] and _attackers_lines(None) == []
    assert _attackers_lines([0, 5, 0, 0, 0, 0, 0, -9]) == [
        "king attackers (centipawns for the royal piece's side, by their count): "
        "0: +0, 1: +5, 2: +0, 3: +0, 4: +0, 5: +0, 6: +0, 7+: -9"]
    rows = _attackers_lines([[0] * 8, [-3] + [0] * 7] + [[0] * 8] * 6)
    assert len(rows) == 8
    assert "the enemy holding 1 type in hand): 0: -3, 1: +0" in rows[1]
    assert "the enemy holding 7 or more types in hand)" in rows[7]



def test_the_report_names_the_drop_checks():
    from fairyforge.tune.command import _drop_check_lines
    assert _drop_check_lines(None) == [] and _drop_check_lines({"safe": {"knight": 0}}) == []
    assert _drop_check_lines({"safe": {"knight": 12, "pawn": 0},
                              "defended": {"knight": -3}}) == [
        "drop checks, safe (centipawns a square a piece in hand could check from): "
        "knight +12",
        "drop checks, defended (centipawns a square a piece in hand could check from): "
        "knight -3"]
