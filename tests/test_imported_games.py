"""The bundled games that come from Fairy-Stockfish's variants.ini (written by
`fairyforge import`, then tidied), each against pyffish playing the original section.

A definition joins by itself: its header names its section (`# From Fairy-Stockfish's
variants.ini, section [NAME...]`).  tests/data/fsf_imported.ini holds those sections
(and their ini ancestors) as variants.ini writes them; pyffish loads it once, under the
sections' own names, which no built-in variant and no other test uses.  The comparison
is the catalog's (tests/fsf_playouts.py): complete legal move sets, check, FEN and game
end along random playouts from the start."""

import os
import re

import pytest

import fairyforge as ff
from conftest import DATA
from fairyforge import interop
from fairyforge.compiler import loader
from fsf_playouts import differential_playouts

sf = pytest.importorskip("pyffish")

POSITIONS = 100                  # compared positions per game in CI
SLOW_POSITIONS = 2000            # with --runslow
INI = os.path.join(DATA, "fsf_imported.ini")
MARKER = re.compile(r"^#.*Fairy-Stockfish's variants\.ini, section \[([^]:]+)", re.M)


def imported_games():
    """{game: section} for the bundled definitions that name a variants.ini section."""
    found = {}
    for name in ff.bundled_games():
        with open(loader.bundled_path(name), encoding="utf-8") as handle:
            match = MARKER.search(handle.read())
        if match:
            found[name] = match.group(1)
    return found


@pytest.fixture(scope="module")
def fsf_sections():
    with open(INI, encoding="utf-8") as handle:
        text = handle.read()
    sf.load_variant_config(text)
    return interop.read_ini(text)


def test_every_imported_game_has_its_section_and_name(fsf_sections):
    games = imported_games()
    assert len(games) >= 20
    for name, section in games.items():
        assert name == section and section in fsf_sections and section in sf.variants()


@pytest.mark.parametrize("name", sorted(imported_games()))
def test_an_imported_game_plays_as_fairy_stockfish_plays_its_section(games, fsf_sections,
                                                                    name):
    positions, _ = differential_playouts(sf, games[name], name, POSITIONS, seed=1)
    assert positions >= POSITIONS


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(imported_games()))
def test_long_playouts_of_an_imported_game(games, fsf_sections, name):
    positions, _ = differential_playouts(sf, games[name], name, SLOW_POSITIONS, seed=2)
    assert positions >= SLOW_POSITIONS


def test_fairyforge_games_lists_them(capsys):
    from fairyforge.cli import main
    assert main(["games"]) == 0
    listed = {line.split()[0] for line in capsys.readouterr().out.splitlines() if line}
    assert set(imported_games()) <= listed
