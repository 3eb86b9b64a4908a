"""Two rule options that Fairy-Stockfish games need (docs/language.md):

* `move rule N, restarted by PIECES` (3.22): the named pieces' moves restart the
  halfmove clock instead of the forward-only pieces' ones (Legan chess);
* `repetition N RESULT for SIDE` (3.20): the result of a repetition is that side's,
  whoever is to move (minishogi: the fourth repetition loses for White).

tests/test_fsf_catalog.py compares these games with pyffish along random games; this
module checks the rules themselves, where random games seldom go."""

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


@pytest.mark.parametrize("side_to_move,cycle", [
    ("w", ["e1d1", "a5b5", "d1e1", "b5a5"]),
    ("b", ["a5b5", "e1d1", "b5a5", "d1e1"])])
def test_repetition_for_white_whoever_moves(games, side_to_move, cycle):
    """Minishogi's sennichite: White loses the fourth occurrence, as pyffish says."""
    sf = pytest.importorskip("pyffish")
    fen = f"k4/5/5/5/4K[-] {side_to_move} - - 0 1"
    pos = games["minishogi"].position(fen)
    for ply, move in enumerate(cycle * 3, start=1):
        pos.push_uci(move)
        ended, value = sf.is_optional_game_end("minishogi", fen, (cycle * 3)[:ply])
        assert (pos.outcome() is not None) == ended
    assert pos.outcome() == ff.Outcome("black", "repetition")
    assert value == (-32000 if pos.turn == "white" else 32000)


def test_repetition_for_a_side_is_shown_and_diffed(games):
    assert games["minishogi"].variant.repetition_side == "white"
    assert games["shogi"].variant.repetition_side is None
