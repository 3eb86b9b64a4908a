"""Shogi-family rules: `not tripled` drops (tori shogi), flipping pieces (kyoto shogi),
promotion on capture (micro shogi) and drops of promoted pieces.

Position tests from the rules' wording, with pyffish (Fairy-Stockfish) as the oracle
for the same positions; the bundled games' playouts and perft rows are in
tests/test_fsf_catalog.py.
"""

import pytest

sf = pytest.importorskip("pyffish")


def drops_of(pos, letter):
    return sorted(str(m) for m in pos.legal_moves() if str(m).startswith(letter + "@"))


def files_of(moves):
    return {m.split("@")[1][0] for m in moves}


# -- not tripled (torishogi) -------------------------------------------------------------
TWO_ON_C = "3k3/7/2S4/7/2S4/7/3K3[S] w 0 1"       # two white swallows on file c
ONE_ON_C = "3k3/7/7/7/2S4/7/3K3[S] w 0 1"


def test_a_third_swallow_may_not_join_a_file(games):
    pos = games["torishogi"].position(TWO_ON_C)
    assert "c" not in files_of(drops_of(pos, "S"))
    assert {"a", "b", "d", "e", "f", "g"} <= files_of(drops_of(pos, "S"))


def test_a_second_swallow_may(games):
    pos = games["torishogi"].position(ONE_ON_C)
    assert "c" in files_of(drops_of(pos, "S"))


def test_promoted_swallows_and_enemy_swallows_do_not_count(games):
    fen = "3k3/7/2s4/2+S4/2S4/7/3K3[S] w 0 1"    # a goose and a black swallow on c
    pos = games["torishogi"].position(fen)
    assert "c" in files_of(drops_of(pos, "S"))


@pytest.mark.parametrize("fen", [TWO_ON_C, ONE_ON_C, "3k3/7/2s4/2+S4/2S4/7/3K3[S] w 0 1"])
def test_swallow_drops_match_fairy_stockfish(games, fen):
    ours = sorted(str(m) for m in games["torishogi"].position(fen).legal_moves())
    assert ours == sorted(sf.legal_moves("torishogi", fen, []))
