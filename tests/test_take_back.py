"""A child variant takes back what it inherits (`no castling`, `no en passant`, `no
drops`), redefines a region for its own board, and hears about a problem with an
inherited statement in its own file."""

import textwrap

import pytest

import fairyforge as ff
from fairyforge.compiler import loader
from fairyforge.errors import DefinitionError

LOS_ALAMOS = """\
    variant losalamos "Los Alamos chess" extends chess
    board 6x6
    region last_rank = rank 6
    no castling
    no en passant
    piece pawn P fmWfcF
    setup "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1"
    """


def write(tmp_path, text, name="child.variant"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


def test_a_child_takes_back_castling_and_en_passant(tmp_path):
    variant = loader.load_variant(write(tmp_path, LOS_ALAMOS))
    assert variant.castling == () and variant.en_passant == ()
    assert variant.piece("pawn").promotion.zone.white == tuple(f"{f}6" for f in "abcdef")
    # Los Alamos chess (6x6, no bishops, no double step): 10 first moves for White.
    game = ff.load(write(tmp_path, LOS_ALAMOS))
    assert game.start().perft(1) == 10


def test_castling_can_be_given_again_after_taking_it_back(tmp_path):
    text = ('variant again extends chess\nno castling\ncastling king e1 to g1, rook h1 to f1\n'
            'setup "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk - 0 1"\n')
    variant = loader.load_variant(write(tmp_path, text))
    assert [(c.side, c.king_to) for c in variant.castling] == [("white", "g1"), ("black", "g8")]


def test_no_drops_takes_back_crazyhouse_drops(tmp_path):
    text = 'variant nodrops extends crazyhouse\nno drops\ncaptures are removed\n'
    variant = loader.load_variant(write(tmp_path, text))
    assert variant.drops == ()


def test_an_inherited_problem_is_reported_in_the_child(tmp_path):
    path = write(tmp_path, """\
        variant small "Small" extends chess
        board 6x6
        setup "rnbqkb/pppppp/6/6/PPPPPP/RNBQKB w - - 0 1"
        """)
    with pytest.raises(DefinitionError) as err:
        loader.load_variant(path)
    text = str(err.value)
    assert all(d.location.file == path for d in err.value.diagnostics)
    assert "square g1 is off the 6x6 board (inherited from chess, line 17: " \
           "`castling king e1 to g1, rook h1 to f1`)" in text


def test_take_back_needs_a_known_word(tmp_path):
    with pytest.raises(DefinitionError) as err:
        loader.load_variant(write(tmp_path, "variant x extends chess\nno promotion\n"))
    assert "castling, en passant or drops" in str(err.value) or "facing" in str(err.value)
