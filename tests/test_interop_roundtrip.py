"""`fairyforge export` against Fairy-Stockfish: every bundled game is exported, loaded
back into pyffish (`load_variant_config`) under a name of its own, and compared with
our engine along random playouts (tests/fsf_playouts.py: complete legal move sets,
check, FEN and game end), or refused with the reason Fairy-Stockfish cannot play it.

The games come from `fairyforge games`, so a new definition joins by itself; the
exported sections are named `rt-GAME`, which no other test uses, so loading them does
not change what pyffish knows under the names the other tests use."""

import pytest

import fairyforge as ff
from fairyforge.compiler import loader
from fairyforge.interop.export import ExportRefusal, export_variant
from fsf_playouts import differential_playouts

sf = pytest.importorskip("pyffish")

POSITIONS = 60                  # compared positions per game in CI
SLOW_POSITIONS = 1000           # with --runslow

# The bundled games Fairy-Stockfish cannot play, and why (part of the reason it gives)
REFUSED = {
    "chessgi": "captured promoted pieces that stay promoted",
    "chesstonia": "captured promoted pieces that stay promoted",
    "loop": "captured promoted pieces that stay promoted",
    "chigorin": "only one side owns",
    "sortofalmost": "only one side owns",
    "frontofhouse": "captured pieces that change type",
    "kjartansson": "captured pieces that change type",
    "ichess": "a deployment phase",
    "wwii": "per-side capture dispositions",
}


def exportable():
    return [name for name in ff.bundled_games() if name not in REFUSED]


def _section(game, name):
    section = f"rt-{name}"
    if section not in sf.variants():
        sf.load_variant_config(export_variant(game.variant, name=section))
    return section


@pytest.mark.parametrize("name", exportable())
def test_an_exported_game_plays_in_fairy_stockfish_as_here(games, name):
    game = games[name]
    positions, _ = differential_playouts(sf, game, _section(game, name), POSITIONS, seed=4)
    assert positions >= POSITIONS


@pytest.mark.slow
@pytest.mark.parametrize("name", exportable())
def test_long_exported_playouts(games, name):
    game = games[name]
    positions, _ = differential_playouts(sf, game, _section(game, name), SLOW_POSITIONS,
                                         seed=5)
    assert positions >= SLOW_POSITIONS


@pytest.mark.parametrize("name, reason", sorted(REFUSED.items()))
def test_an_export_fairy_stockfish_cannot_play_is_refused_with_the_reason(name, reason):
    with pytest.raises(ExportRefusal, match=f"^Fairy-Stockfish has no .*{reason}"):
        export_variant(loader.load_variant(name))
