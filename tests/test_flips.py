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


# -- a mating drop: refused (not mating) or legal and losing (mating loses) ---------------
MATING_DROP_FEN = "8k/6S2/7G1/9/9/9/9/9/4K4[P] w - - 0 1"     # P@i8 mates
FSF_SHOGI = """variant fsfshogi extends shogi
drop pawn in all not doubled mating loses
"""


@pytest.fixture(scope="module")
def fsf_shogi(tmp_path_factory):
    from fsf_playouts import load_text
    return load_text(tmp_path_factory, "fsfshogi", FSF_SHOGI)


def test_not_mating_refuses_the_drop(games):
    pos = games["shogi"].position(MATING_DROP_FEN)
    assert pos.perft(1) == 86
    assert "P@i8" not in [str(m) for m in pos.legal_moves()]


def test_mating_loses_counts_the_drop_as_fairy_stockfish(fsf_shogi):
    pos = fsf_shogi.position(MATING_DROP_FEN)
    assert pos.perft(1) == 87 == len(sf.legal_moves("shogi", MATING_DROP_FEN, []))
    assert not fsf_shogi.variant.drops[-1].not_mating


def test_after_a_mating_drop_the_mated_side_wins(fsf_shogi):
    pos = fsf_shogi.position(MATING_DROP_FEN)
    pos.push_uci("P@i8")
    assert pos.legal_moves() == []
    assert pos.outcome().winner == "black"
    assert pos.outcome().reason == "checkmate by a forbidden drop"
    assert sf.game_result("shogi", MATING_DROP_FEN, ["P@i8"]) > 0     # side to move wins


def test_a_mating_drop_of_another_piece_is_plain_checkmate(fsf_shogi):
    fen = "8k/6S2/7G1/9/9/9/9/9/4K4[G] w - - 0 1"
    pos = fsf_shogi.position(fen)
    pos.push_uci("G@i8")
    assert pos.outcome().winner == "white"
    assert pos.outcome().reason == "checkmate"


def test_a_checking_drop_that_does_not_mate_goes_on(fsf_shogi):
    fen = "8k/9/7G1/9/9/9/9/9/4K4[P] w - - 0 1"
    pos = fsf_shogi.position(fen)
    pos.push_uci("P@i8")
    assert pos.is_check() and pos.outcome() is None
