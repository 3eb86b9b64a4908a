"""`move rule N, restarted by PIECES` (docs/language.md, 3.22): the named pieces' moves
restart the halfmove clock instead of the forward-only pieces' ones.  Legan chess is
the game that needs it; tests/test_fsf_catalog.py compares it with pyffish along random
games, this module checks the clock itself and the statement's errors."""

import pytest

import fairyforge as ff


def test_a_pawn_that_is_not_forward_only_restarts_the_clock(games):
    legan = games["legan"]
    assert legan.variant.move_rule_pieces == ("pawn",)
    pos = legan.position("knbrp3/bqpp4/npp5/rp1p3P/p3P1PR/5PPN/4PPQB/3PRBNK w - - 7 9")
    pos.push_uci("h3g5")                        # a knight move: the count goes on
    assert pos.fen().split()[4] == "8"
    pos.push_uci("b5c4")                        # a pawn move: it restarts
    assert pos.fen().split()[4] == "0"


def test_without_the_clause_the_forward_only_pieces_restart_it(games):
    assert games["chess"].variant.move_rule_pieces is None
    pos = games["chess"].position("4k3/8/8/8/8/8/4P3/R3K3 w - - 7 9")
    pos.push_uci("e2e3")
    assert pos.fen().split()[4] == "0"


def test_an_unknown_piece_is_named_in_the_error(tmp_path):
    path = tmp_path / "bad.variant"
    path.write_text('variant bad extends chess\nmove rule 50, restarted by pawnn\n')
    with pytest.raises(ff.DefinitionError) as error:
        ff.load(str(path))
    assert "unknown piece 'pawnn'" in str(error.value)
