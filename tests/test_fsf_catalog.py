"""The catalog of Fairy-Stockfish variants against Fairy-Stockfish itself.

* A pyffish differential for every bundled game whose name pyffish knows (discovered
  from `fairyforge games` and `pyffish.variants()`, so a new definition joins by
  itself): along random playouts from the start, complete legal move sets, check,
  FEN and game end (tests/fsf_playouts.py, `differential_playouts`).
* Fairy-Stockfish's own perft suite (tests/data/perft_fsf_suite.tsv, a copy of its
  tests/perft.sh rows): every row of a bundled game, the shallow ones in CI and the
  deep ones with --runslow.  bench/fsf_suite.py prints the whole table, with the rows
  of the games not bundled yet and why (docs/fsf-variants.md).

The engines dominate the time: they are built once per run, two at a time, before the
first test (`_prebuilt`).
"""

import csv
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

import fairyforge as ff
from conftest import DATA
from fsf_playouts import differential_playouts

sf = pytest.importorskip("pyffish")

POSITIONS = 50                   # compared positions per game in CI
SLOW_POSITIONS = 2000            # with --runslow
SHALLOW = 5_000_000              # perft rows up to this many nodes run in CI (< 2 s each)
SUITE = os.path.join(DATA, "perft_fsf_suite.tsv")

# Known rule differences, each a deliberate choice of a bundled definition; the tests
# expect them to fail (strict xfail), so a fix shows up.
MOVE_RULE_DIFFERENCES = {
    "xiangqi": "Fairy-Stockfish adjudicates a fifty-move draw; the classic xiangqi "
               "definition has no move rule (its behaviour is kept as it is)",
}


# The rows of perft.sh's "960 variants" section (tests/data/perft_fsf_chess960.tsv),
# which Fairy-Stockfish runs with UCI_Chess960 = true: castling from any king and rook
# squares, given by the FEN.  They run on the game's Chess960 twin
# (`ff.load(name, chess960=True)`: the definition with `chess960 castling` added).
with open(os.path.join(DATA, "perft_fsf_chess960.tsv")) as _handle:
    CHESS960_ROWS = {(r["variant"], r["fen"]) for r in csv.DictReader(_handle, delimiter="\t")}


def catalog():
    """The bundled games Fairy-Stockfish also knows, by the same name."""
    return sorted(set(ff.bundled_games()) & set(sf.variants()))


def suite_rows():
    """The rows of Fairy-Stockfish's perft suite whose game is bundled."""
    bundled = set(ff.bundled_games())
    with open(SUITE) as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [r for r in rows if r["variant"] in bundled]


def _build(name):
    if isinstance(name, tuple):          # (name, "chess960"): the game's Chess960 twin
        ff.load(name[0], chess960=True)
    else:
        ff.load(name)
    return name


@pytest.fixture(scope="module", autouse=True)
def _prebuilt():
    """Build every engine this module needs into the cache, two processes at a time
    (the tests then load them from it)."""
    names = sorted(set(catalog()) | {r["variant"] for r in suite_rows()})
    names += sorted({(v, "chess960") for v, _ in CHESS960_ROWS})
    with ProcessPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
        list(pool.map(_build, names))


@pytest.mark.parametrize("variant", catalog())
def test_playouts_match_pyffish(games, variant):
    positions, _ = differential_playouts(sf, games[variant], variant, POSITIONS, seed=1)
    assert positions >= POSITIONS


@pytest.mark.slow
@pytest.mark.parametrize("variant", catalog())
def test_long_playouts_match_pyffish(games, variant):
    positions, _ = differential_playouts(sf, games[variant], variant, SLOW_POSITIONS, seed=2)
    assert positions >= SLOW_POSITIONS


def _move_rule_params():
    return [pytest.param(v, marks=pytest.mark.xfail(reason=MOVE_RULE_DIFFERENCES[v], strict=True))
            if v in MOVE_RULE_DIFFERENCES else v for v in catalog()]


@pytest.mark.parametrize("variant", _move_rule_params())
def test_move_rule_matches_pyffish(games, variant):
    """The move rule (or its absence): a position whose halfmove clock has just reached
    2N is drawn by it exactly when Fairy-Stockfish's optional game end says so."""
    fields = games[variant].start().fen().split()
    for clock in (100, 140, 200):
        fen = " ".join(fields[:4] + [str(clock), "200"])
        pos = games[variant].position(fen)
        ours = getattr(pos.outcome(), "reason", None) == "move rule"
        theirs, _ = sf.is_optional_game_end(variant, fen, [])
        assert ours == theirs, (variant, clock)


def _suite_params(select):
    return [pytest.param(r["variant"], r["fen"], int(r["depth"]), int(r["nodes"]),
                         id=f"{r['variant']}-d{r['depth']}-{r['fen'][:24]}")
            for r in suite_rows() if select(int(r["nodes"]))]


def _perft(games, variant, fen, depth):
    game = (ff.load(variant, chess960=True) if (variant, fen) in CHESS960_ROWS
            else games[variant])
    pos = game.start() if fen == "startpos" else game.position(fen)
    return pos.perft(depth)


@pytest.mark.parametrize("variant,fen,depth,nodes", _suite_params(lambda n: n <= SHALLOW))
def test_fsf_suite_row(games, variant, fen, depth, nodes):
    assert _perft(games, variant, fen, depth) == nodes


@pytest.mark.slow
@pytest.mark.parametrize("variant,fen,depth,nodes", _suite_params(lambda n: n > SHALLOW))
def test_fsf_suite_deep_row(games, variant, fen, depth, nodes):
    assert _perft(games, variant, fen, depth) == nodes
