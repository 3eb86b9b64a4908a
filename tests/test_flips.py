"""Shogi-family rules: `not tripled` drops (tori shogi), flipping pieces (kyoto shogi),
promotion on capture (micro shogi) and drops of promoted pieces.

Position tests from the rules' wording, with pyffish (Fairy-Stockfish) as the oracle
for the same positions; the bundled games' playouts and perft rows are in
tests/test_fsf_catalog.py.
"""

import pytest

from fsf_playouts import definition_error

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


# -- flipping (kyotoshogi: every move; micro: every capture) -------------------------------
KYOTO_HAND = "p+nks+l/5/5/5/+LSK+NP[P] w 0 1"


def legal(pos):
    return sorted(str(m) for m in pos.legal_moves())


def test_every_move_of_a_flipping_piece_turns_it_over(games):
    pos = games["kyotoshogi"].start()
    moves = legal(pos)
    assert "b1b2+" in moves and "b1b2" not in moves          # a silver becomes a bishop
    assert "a1a2-" in moves and "a1a2" not in moves          # a +L (gold) turns back
    assert "c1c2" in moves                                   # the king does not flip
    pos.push_uci("a1a2-")
    assert pos.fen().startswith("p+nks+l/5/5/L4/1SK+NP[] b")


def test_a_flip_is_not_irreversible_for_the_move_clock(games):
    pos = games["kyotoshogi"].position("p+nks+l/5/5/5/+LSK+NP[] w - - 7 9")
    pos.push_uci("b1b2+")
    assert pos.fen().split()[4] == "8"


def test_a_piece_in_hand_drops_either_side_up(games):
    pos = games["kyotoshogi"].position(KYOTO_HAND)
    moves = legal(pos)
    assert {"P@c3", "+P@c3"} <= set(moves)
    pos.push_uci("+P@c3")
    assert pos.fen() == "p+nks+l/5/2+P2/5/+LSK+NP[] b - - 0 1"
    pos.pop()
    assert pos.fen() == "p+nks+l/5/5/5/+LSK+NP[P] w - - 0 1"


def test_stuck_pieces_allowed_lets_a_pawn_drop_on_the_last_rank(games):
    fen = "2k2/5/5/5/2K2[Pp] w 0 1"
    assert "P@a5" in legal(games["kyotoshogi"].position(fen))
    assert "P@a9" not in legal(games["shogi"].position("4k4/9/9/9/9/9/9/9/4K4[P] w - - 0 1"))


def test_micro_flips_on_captures_only(games):
    fen = "k3/4/1p2/1R2/3K[] w 0 1"
    moves = legal(games["micro"].position(fen))
    assert "b2b3+" in moves and "b2b3" not in moves          # the capture flips
    assert "b2a2" in moves and "b2a2+" not in moves          # a quiet move does not


@pytest.mark.parametrize("variant,fen", [
    ("kyotoshogi", KYOTO_HAND),
    ("kyotoshogi", "2k2/5/5/5/2K2[Pp] w 0 1"),
    ("kyotoshogi", "p+nks+l/5/2+P2/5/+LSK+NP[] b - - 0 1"),
    ("micro", "k3/4/1p2/1R2/3K[] w 0 1"),
    ("micro", "kb+r+l/p3/4/3P/+L+RBK[Pp] w 0 1"),
])
def test_flip_positions_match_fairy_stockfish(games, variant, fen):
    assert legal(games[variant].position(fen)) == sorted(sf.legal_moves(variant, fen, []))


@pytest.mark.parametrize("text,words", [
    ("a1a2", "must turn back on a2: write a1a2-"),
    ("b1a2-", "'-' is not a promotion choice of this move (choices: +)"),
])
def test_flip_suffix_errors(games, text, words):
    from fairyforge.errors import IllegalMoveError
    with pytest.raises(IllegalMoveError, match=words.replace("(", r"\(").replace(")", r"\)")
                       .replace("+", r"\+")):
        games["kyotoshogi"].start().push_uci(text)


def test_a_turned_drop_needs_the_piece_in_hand_and_the_rule(games):
    from fairyforge.errors import IllegalMoveError
    with pytest.raises(IllegalMoveError, match="White has no silver in hand"):
        games["kyotoshogi"].position(KYOTO_HAND).push_uci("+S@c3")
    shogi = games["shogi"].position("4k4/9/9/9/9/9/9/9/4K4[P] w - - 0 1")
    with pytest.raises(IllegalMoveError, match="a pawn may not be dropped turned over"):
        shogi.push_uci("+P@e5")


# -- definition errors ----------------------------------------------------------------------
FLIP_BASE = """variant flipper
board 5x5
piece king K K royal
piece pawn P fW
piece rook +P R
piece gold G WfF
captures go to hand
setup "2k2/5/5/5/2K2[] w 0 1"
"""


@pytest.mark.parametrize("line,column,words", [
    ("flip gold", 6, "'gold' has no other side to flip to: declare a piece lettered +G"),
    ("flip rook", 6, "flip names the unpromoted side: 'rook' (+P) is the promoted side"),
    ("flip king", 6, "'king' has no other side to flip to"),
    ("flip pawnn", 6, "unknown piece 'pawnn'"),
    ("drop gold in all either side up", 6, "'gold' may not be dropped either side up: no "
     "piece is lettered +G"),
])
def test_flip_errors_name_the_place(tmp_path, line, column, words):
    message = definition_error(tmp_path, "flipper", FLIP_BASE + line + "\n")
    assert f"flipper.variant:9:{column}" in message
    assert words in message


def test_flip_and_promote_conflict(tmp_path):
    message = definition_error(tmp_path, "flipper",
                               FLIP_BASE + "promote pawn to gold in all\nflip pawn\n")
    assert "'pawn' has a promote statement already" in message
