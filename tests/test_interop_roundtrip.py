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

POSITIONS = 30                  # compared positions per game in CI
SLOW_POSITIONS = 1000           # with --runslow

# The bundled games Fairy-Stockfish cannot play, and why (part of the reason it gives)
REFUSED = {
    "pawnsking": "one flag piece type per side",
    "chesstonia": "mating drops of the shogi pawn only",
    "chigorin": "only one side owns",
    "sortofalmost": "only one side owns",
    "frontofhouse": "captured pieces that change type",
    "kjartansson": "captured pieces that change type",
    "ichess": "a deployment phase",
    "wwii": "per-side capture dispositions",
    "breakthrough": "without a repetition rule",
    "jesonmor": "without a repetition rule",
    "horde": "only one side owns",
    "spartan": "only one side owns",
    "janggi": "captures restricted by piece type other than mutuallyImmuneTypes",
    "janggicasual": "captures restricted by piece type other than mutuallyImmuneTypes",
    "janggimodern": "captures restricted by piece type other than mutuallyImmuneTypes",
    "janggitraditional": "captures restricted by piece type other than mutuallyImmuneTypes",
    # Rules Fairy-Stockfish has options for, which the exporter does not write yet
    "seirawan": "gating from the hand",
    "shouse": "gating from the hand",
    "wolf": "marked double steps of named pieces",
    "cambodian": "first moves",
    "dobutsu": "flipping pieces",
    "kyotoshogi": "flipping pieces",
    "micro": "flipping pieces",
    "gustav3": "wall squares",
    "omicron": "wall squares",
    "troitzky": "wall squares",
    "duck": "the duck",
    "petrified": "petrification",
    "karouk": "first moves",
    "sittuyin": "stuck pieces allowed",
    "shatar": "mates that lose or draw by their givers",
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
    with pytest.raises(ExportRefusal, match=f"^(Fairy-Stockfish|the exporter) .*{reason}"):
        export_variant(loader.load_variant(name))


@pytest.mark.parametrize("lines, reason", [
    ("no capture of knight by bishop", "captures restricted by piece type other than"),
    ("win by losing all of rook, knight", "several piece types"),
    ("win by losing all of rook\nwin by extinction of queen", "one extinctionValue"),
])
def test_the_later_rule_kinds_are_refused_where_fairy_stockfish_has_no_option(
        tmp_path, lines, reason):
    path = tmp_path / "mine.variant"
    path.write_text(f"variant mine extends chess\n{lines}\n")
    with pytest.raises(ExportRefusal, match=reason):
        export_variant(loader.load_variant(str(path)))


@pytest.mark.parametrize("game, options", [
    ("antichess", ["commoner = k", "king = -", "mustCapture = true",
                   "extinctionValue = win", "extinctionPieceTypes = *",
                   "extinctionPieceCount = 0"]),
    ("losers", ["checkmateValue = win", "extinctionPieceCount = 1"]),
    ("suicide", ["stalematePieceCount = true"]),
    ("5check", ["checkCounting = true"]),
    ("makruk", ["countingRule = makruk"]),
    ("minishogi", ["nFoldValue = loss", "nFoldValueAbsolute = true"]),
    ("loop", ["dropLoop = true"]),
])
def test_the_later_rule_kinds_are_written_as_their_options(game, options):
    written = export_variant(loader.load_variant(game)).splitlines()
    assert set(options) <= set(written)
