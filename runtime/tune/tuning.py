"""Tuning a game: play or read games, fit the evaluation, write the parameter file
(the package docstring, fairyforge/tune/__init__.py, gives the method)."""


import time
from dataclasses import dataclass, field

import numpy as np

from ..compiler import build, evalparams, loader
from ..errors import ArgumentError
from . import fit as texel
from .features import space_for, to_params
from .samples import from_database, pgn_games, positions, self_play

HOLDOUT_EVERY = 10              # every 10th game is kept out of the fit to check it
ALPHA_SQUARES = 200.0           # ridge weights, in positions (see fit.py), where no
ALPHA_VALUES = 2.0              # games are held out to choose them
# The ridges tried (values, squares); the one with the least held-out error is kept.
# (The two lightest serve large sets of scored games: on 1,500 of Fairy-Stockfish's
# chess games, 132,588 positions, the held-out error was 0.01807 at 2,200, 0.01758 at
# 2,20 and 0.01732 at 0.5,5; docs/engine.md.)
RIDGES = ((0.5, 5.0), (2.0, 20.0), (2.0, 200.0), (20.0, 2000.0), (200.0, 20000.0),
          (2000.0, 200000.0))
# The evaluation's optional terms (`--without`), by the name the command line gives them.
OPTIONAL_TERMS = ("king-safety", "king-attackers", "mobility", "mobility-by-count",
                  "drop-checks", "board-checks", "threats", "threats-by-taker", "structure",
                  "passed", "endgame", "safe-mobility", "passed-king")


@dataclass
class Report:
    path: str
    games: int
    positions: int
    k: float
    errors: dict                 # {"train"|"holdout": (before, after)}
    values: list                 # (piece, current, learned, current hand, learned hand)
    seconds: float
    data: dict = field(repr=False, default=None)        # the parameters written
    variant: object = field(repr=False, default=None)
    previous: dict = field(repr=False, default=None)    # what they replace (None: derived)


def check_arguments(games, depth, nodes, from_db, ridge, from_pgn=None, without=(),
                    eval_weight=0.0):
    unknown = [term for term in without if term not in OPTIONAL_TERMS]
    if unknown:
        raise ArgumentError(f"--without {unknown[0]}: the terms that can be left out are "
                            f"{', '.join(OPTIONAL_TERMS)}")
    if from_db is not None and from_pgn is not None:
        raise ArgumentError("give --from-db or --from-pgn, not both")
    if from_db is None and from_pgn is None and (games is None or games < 1):
        raise ArgumentError("--games must be 1 or more")
    if depth is not None and nodes is not None:
        raise ArgumentError("give --depth or --nodes, not both")
    if depth is not None and not 1 <= depth <= 64:
        raise ArgumentError("--depth must be between 1 and 64")
    if nodes is not None and nodes < 1:
        raise ArgumentError("--nodes must be 1 or more")
    if any(not 0 <= weight < float("inf") for weight in ridge):
        raise ArgumentError("--ridge weights must be 0 or more")
    if not 0 <= eval_weight <= 1:
        raise ArgumentError(f"--eval-weight must be between 0 and 1, not {eval_weight}")
    if eval_weight and from_pgn is None:
        raise ArgumentError("--eval-weight needs --from-pgn: the scores are the PGN's "
                            "[%eval] comments")


def tune(source, games=200, depth=None, nodes=None, from_db=None, output=None,
         processes=None, seed=1, max_plies=300, on_game=None, ridge=None, from_pgn=None,
         without=(), eval_weight=0.0):
    """Fit `source`'s evaluation (a bundled name or a definition's path); a Report.
    The OPTIONAL_TERMS in `without` are not fitted: they keep their current numbers
    (none, for a derived evaluation), and the engine pays nothing for a term it lacks.
    With `eval_weight` w > 0, each position's target is (1 - w) x its game's result +
    w x the result its [%eval] comment predicts (fit.blend_with_teacher)."""
    check_arguments(games, depth, nodes, from_db, ridge or RIDGES[0], from_pgn, without,
                    eval_weight)
    if depth is None and nodes is None:
        depth = 2
    started = time.monotonic()
    variant = loader.load_variant(source)
    current = evalparams.for_build(variant)
    game = _game(variant, current)
    if from_db is not None:
        records = from_database(from_db, evalparams.model_hash(variant))
    elif from_pgn is not None:
        records = pgn_games(from_pgn, game)
    else:
        from ..playtest.ruleset import RuleSet
        records = self_play(RuleSet.load(source), game, games, depth=depth, nodes=nodes,
                            seed=seed, processes=processes, max_plies=max_plies,
                            on_game=on_game)
    space = space_for(variant, current, endgame="endgame" not in without)
    rows, game_of_row = [], []
    for index, record in enumerate(records):
        found = positions(game, space, record)
        rows += found
        game_of_row += [index] * len(found)
    if not rows:
        raise ArgumentError(f"the {len(records)} games gave no quiet position to "
                            "learn from: play more games")
    data = texel.Data.from_rows(rows, space.size)
    teacher = np.array([np.nan if row[4] is None else row[4] for row in rows], float)
    data.y, k_teacher, scored = texel.blend_with_teacher(data.y, teacher, eval_weight)
    if eval_weight and not scored:
        raise ArgumentError(f"--eval-weight: no position of {from_pgn} has an [%eval] "
                            "comment to learn from")
    holdout = np.array(game_of_row) % HOLDOUT_EVERY == HOLDOUT_EVERY - 1
    if holdout.all() or not holdout.any():
        holdout = np.zeros(len(rows), bool)
    free = np.ones(space.size + 1, bool)            # (+1: White's edge, see _fit)
    if "king-safety" in without:
        free[space.safety_block()] = False
    if "king-attackers" in without:
        free[space.attackers_block()] = False
    if "mobility" in without:
        free[space.mobility_block()] = False
    if "safe-mobility" in without:
        free[space.safe_mobility_block()] = False
    if "passed-king" in without:
        free[space.passed_king_block()] = False
    if "mobility-by-count" in without:
        free[space.by_count_block()] = False
    if "drop-checks" in without:
        free[space.drop_checks_block()] = False
    if "board-checks" in without:
        free[space.board_checks_block()] = False
    if "threats" in without:
        free[space.threats_block()] = False
        free[space.taker_threats_block()] = False
    if "threats-by-taker" in without:
        free[space.taker_threats_block()] = False
    if "structure" in without:
        free[space.structure_block()] = False
    if "passed" in without:
        free[space.passed_block()] = False
    if "endgame" in without:
        free[space.endgame_block()] = False      # (a file's endgame tables, if it has some)
    theta, k, errors, ridge = _fit_best(space, data.subset(~holdout),
                                        data.subset(holdout) if holdout.any() else None,
                                        ridge, free)
    fit_info = {"games": len(records), "positions": len(rows), "k": round(k, 4),
                "errors": errors, "source": from_db or from_pgn or "self-play", "ridge": list(ridge),
                "without": list(without),
                **({"eval_weight": eval_weight, "k_teacher": round(k_teacher, 4),
                    "scored_positions": scored} if eval_weight else {}),
                "search": ("as played" if from_db or from_pgn else
                           f"depth {depth}" if depth else f"nodes {nodes}"),
                "date": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())}
    params = to_params(space, theta, fit_info)
    if current and current.get("search_settings"):
        # Measured by matches, not fitted: a refit of the evaluation keeps them.
        params["search_settings"] = current["search_settings"]
        params["fit"] = params.pop("fit")
    path = output or evalparams.default_path(variant.name)
    evalparams.write(path, params)
    return Report(path, len(records), len(rows), k, errors, _value_table(space, theta),
                  time.monotonic() - started, params, variant, current)


def _game(variant, params):
    from ..game import Game
    path, module = build.load_module(variant, evaluation=params)
    return Game(variant, module, path)


def _fit_best(space, train, holdout, ridge, free):
    """The fit with the given ridge, or else with the one of RIDGES whose fit predicts
    the held-out games best (the default ridge when no game is held out)."""
    if ridge is not None or holdout is None:
        ridge = ridge or (ALPHA_VALUES, ALPHA_SQUARES)
        return (*_fit(space, train, holdout, ridge, free), ridge)
    fits = [(*_fit(space, train, holdout, candidate, free), candidate) for candidate in RIDGES]
    return min(fits, key=lambda fit: fit[2]["holdout"][1])


def _fit(space, train, holdout, ridge, free):
    """K, then theta (only the `free` parameters move); the errors before and after on
    the training and held-out games.

    The fit has one parameter more than the engine: White's constant edge (see
    fit.Data.with_intercept), left out of the engine's tables."""
    train = train.with_intercept()
    holdout = holdout.with_intercept() if holdout is not None else None
    theta0 = np.append(space.theta0, 0.0)
    k = texel.fit_k(train, theta0)
    alpha = np.full(len(theta0), float(ridge[0]))
    alpha[space.square_block()] = float(ridge[1])
    alpha[space.endgame_square_block()] = float(ridge[1])
    alpha[-1] = 0.0
    lower = np.full(len(theta0), -np.inf)
    lower[:space.square_block().start] = 0.0
    lower[space.endgame_value_block()] = 0.0
    theta, _ = texel.fit(train, theta0, k, alpha, lower, free)
    errors = {"train": [texel.error(train, theta0, k), texel.error(train, theta, k)]}
    if holdout is not None:
        errors["holdout"] = [texel.error(holdout, theta0, k), texel.error(holdout, theta, k)]
    errors = {name: [round(e, 6) for e in pair] for name, pair in errors.items()}
    errors["white_edge"] = round(100 * theta[-1])
    return theta[:-1], k, errors


def _value_table(space, theta):
    """Per piece: (name, current value, learned value, current hand, learned hand)."""
    rows = []
    for t, piece in enumerate(space.variant.pieces):
        if piece.royal:
            continue
        now = space.tables[0][t]
        learned = (int(round(100 * theta[space.value_slot(t)]))
                   if t in space.value_types else now)
        hand_now = space.tables[1][t] if space.hand_types else None
        hand = (int(round(100 * theta[space.hand_slot(t)]))
                if t in space.hand_types else hand_now)
        rows.append((piece.name, now, learned, hand_now, hand))
    return rows
