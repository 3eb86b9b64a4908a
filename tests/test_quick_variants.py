"""The rules added for the Fairy-Stockfish variants that needed little that was new
(docs/fsf-variants.md): `in check, … may only capture the checker` (makpong,
compiler/rules/check_escape.py), `win by … reaching …, after a reply` (jeson mor,
compiler/rules/flag.py) and `move rule N, restarted by captures only` (breakthrough,
compiler/rules/move_rule.py), with position tests from the rules' wording and pyffish
as the oracle.  The bundled games themselves (checkshogi, misere, ai-wok, makpong,
breakthrough, jesonmor) are also compared with pyffish by tests/test_fsf_catalog.py.
"""

import pytest

import fairyforge as ff
from conftest import definition_error
from fairyforge.errors import IllegalMoveError
from fsf_playouts import compare_playouts

sf = pytest.importorskip("pyffish")

REACHED = "goal reached"


def _moves(pos):
    return sorted(str(m) for m in pos.legal_moves())


def _fsf_moves(variant, fen, moves=()):
    return sorted(sf.legal_moves(variant, fen, list(moves)))



# -- in check, king may only capture the checker (makpong) ------------------------------

@pytest.mark.parametrize("fen, expected", [
    # a rook next to the king: the king may take it, but not step aside
    ("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", ["e1e2"]),
    # a rook further up the file, and no piece can block: mated, though the king
    # could step aside
    ("4k3/4r3/8/8/8/8/8/R3K3 w - - 0 1", []),
    # a double check (rook and knight): the king may not even take the rook
    ("4k3/8/8/8/8/3n4/4r3/4K3 w - - 0 1", []),
])
def test_a_king_in_check_may_only_take_a_lone_checker(games, fen, expected):
    pos = games["makpong"].position(fen)
    assert pos.is_check()
    assert _moves(pos) == expected == _fsf_moves("makpong", fen)


def test_a_check_may_be_blocked_by_another_piece(games):
    fen = "4k3/4r3/8/8/8/8/3R4/4K3 w - - 0 1"     # the rook on d2 can block on e2
    pos = games["makpong"].position(fen)
    assert _moves(pos) == ["d2e2"] == _fsf_moves("makpong", fen)


def test_the_refusal_names_the_rule(games):
    pos = games["makpong"].position("4k3/4r3/8/8/8/8/3R4/4K3 w - - 0 1")
    with pytest.raises(IllegalMoveError) as err:
        pos.push_uci("e1f1")
    assert "White's king is in check and may only capture the piece that gives it" in str(err.value)


def test_a_king_not_in_check_moves_freely(games):
    fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    pos = games["makpong"].position(fen)
    assert len(_moves(pos)) == 5 and _moves(pos) == _fsf_moves("makpong", fen)
    assert games["makruk"].variant.royal_stays_in_check is False
    assert games["makpong"].variant.royal_stays_in_check is True


def test_makpong_playouts_through_checks_match_pyffish(games):
    fen = "3mk3/r3s1R1/1psppnp1/p1pn4/1P2NP2/P1PPP1P1/4NS2/R1SKM3 w - - 0 1"
    game = games["makpong"]

    def checks_first(pos, moves):
        return [m for m in moves if _gives_check(pos, m)]
    compare_playouts(sf, game, "makpong", fen, 200, 3, "checkmate", prefer=checks_first)


def _gives_check(pos, move):
    pos.push_uci(move)
    check = pos.is_check()
    pos.pop()
    return check


def test_the_piece_must_be_royal(tmp_path):
    message = definition_error(tmp_path, "variant bad extends makruk\n"
                                   "in check, rook may only capture the checker\n")
    assert "bad.variant:2:11: error: 'rook' is not royal" in message


def test_a_misspelt_statement_is_a_syntax_error(tmp_path):
    message = definition_error(tmp_path, "variant bad extends makruk\n"
                                   "in check, king may only take the checker\n")
    assert "bad.variant:2:" in message


# -- win by knight reaching centre, after a reply (jeson mor) ---------------------------

JESONMOR = "nnnnnnnnn/9/9/9/9/9/9/9/NNNNNNNNN w - - 0 1"


def test_an_arrival_does_not_end_the_game_at_once(games):
    fen = "n8/9/9/9/9/9/5N3/9/8N w - - 0 1"
    pos = games["jesonmor"].position(fen)
    pos.push_uci("f3e5")
    assert pos.outcome() is None and _moves(pos)          # Black still replies
    assert not sf.is_immediate_game_end("jesonmor", fen, ["f3e5"])[0]


def test_the_knight_that_survives_the_reply_wins(games):
    fen = "n8/9/9/9/9/9/5N3/9/8N w - - 0 1"
    pos = games["jesonmor"].position(fen)
    pos.push_uci("f3e5")
    pos.push_uci("a9b7")                   # a reply that does not take it
    assert pos.outcome() == ff.Outcome("white", REACHED)
    assert _moves(pos) == []
    assert sf.is_immediate_game_end("jesonmor", fen, ["f3e5", "a9b7"])[0]


def test_a_reply_that_takes_the_knight_goes_on(games):
    pos = games["jesonmor"].position("9/9/9/9/9/2n6/5N3/9/8N w - - 0 1")
    pos.push_uci("f3e5")
    pos.push_uci("c4e5")                   # the black knight takes it, and stands there
    assert pos.outcome() is None and _moves(pos)
    pos.push_uci("i1h3")                   # White cannot take it back
    assert pos.outcome() == ff.Outcome("black", REACHED)


def test_a_fen_with_the_mover_on_the_centre_is_won(games):
    fen = "n8/9/9/9/4N4/9/9/9/8N w - - 0 1"
    pos = games["jesonmor"].position(fen)
    assert pos.outcome() == ff.Outcome("white", REACHED)
    assert sf.is_immediate_game_end("jesonmor", fen, [])[0]


def test_jesonmor_playouts_to_the_centre_match_pyffish(games):
    def to_centre(pos, moves):
        return [m for m in moves if m.endswith("e5")]
    ends = compare_playouts(sf, games["jesonmor"], "jesonmor", JESONMOR, 300, 4, REACHED,
                            prefer=to_centre, fen_too=True)
    assert ends > 0


def test_the_reply_words_are_checked(tmp_path):
    message = definition_error(tmp_path, "variant bad extends chess\n"
                                   "win by king reaching rank 8, after one reply\n")
    assert "bad.variant:2:" in message


# -- move rule N, restarted by captures only (breakthrough) ------------------------------

def test_pawn_moves_do_not_restart_the_count(games):
    pos = games["breakthrough"].start()
    for move in ("a2a3", "a7a6", "b2b3"):
        pos.push_uci(move)
    assert pos.fen().split()[-2] == "3"
    assert games["breakthrough"].variant.move_rule_pieces == ()


def test_a_capture_restarts_it(games):
    fen = "8/8/8/8/3p4/4P3/8/8 w - - 7 20"
    pos = games["breakthrough"].position(fen)
    pos.push_uci("e3d4")
    assert pos.fen().split()[-2] == "0" == sf.get_fen("breakthrough", fen, ["e3d4"]).split()[-2]


@pytest.mark.parametrize("clock", [98, 99, 100])
def test_the_draw_comes_at_the_same_ply_as_pyffish(games, clock):
    fen = f"p7/8/8/8/8/8/8/7P w - - {clock} 80"
    ours = getattr(games["breakthrough"].position(fen).outcome(), "reason", None) == "move rule"
    assert ours == sf.is_optional_game_end("breakthrough", fen, [])[0]


def test_captures_only_is_not_a_piece_name(tmp_path):
    message = definition_error(tmp_path, "variant bad extends chess\n"
                                   "move rule 50, restarted by captures\n")
    assert "unknown piece 'captures'" in message


# -- the games that needed no new statement ---------------------------------------------

def test_checkshogi_ends_at_the_first_check(games):
    pos = games["checkshogi"].position("4k4/9/9/9/9/9/9/9/4K4[R] w - - 1+1 0 1")
    pos.push_uci("R@e5")
    assert pos.outcome() == ff.Outcome("white", "checks")
    assert _moves(pos) == []


def test_misere_the_mated_side_wins(games):
    fen = "7k/8/8/8/8/8/5PPP/r5K1 w - - 0 1"      # back-rank mate: White is mated
    pos = games["misere"].position(fen)
    assert _moves(pos) == [] == _fsf_moves("misere", fen)
    assert pos.outcome().winner == "white"
    assert sf.game_result("misere", fen, []) > 0


# -- draws count as wins for black (armageddon) ------------------------------------------

@pytest.mark.parametrize("fen", [
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",            # Black stalemated
    "k7/8/1QK5/8/8/8/8/8 b - - 0 1",             # (so is this one)
])
def test_a_stalemate_is_blacks_win(games, fen):
    pos = games["armageddon"].position(fen)
    assert _moves(pos) == [] == _fsf_moves("armageddon", fen)
    assert pos.outcome() == ff.Outcome("black", "stalemate")
    assert sf.game_result("armageddon", fen, []) > 0        # for Black, to move


def test_the_move_rule_and_repetition_are_blacks_wins(games):
    fen = "4k3/8/8/8/8/8/8/4K3 w - - 100 80"
    assert games["armageddon"].position(fen).outcome() == ff.Outcome("black", "move rule")
    assert sf.is_optional_game_end("armageddon", fen, []) == (True, -sf_mate())
    moves = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
    pos = games["armageddon"].start()
    for move in moves:
        pos.push_uci(move)
    assert pos.outcome() == ff.Outcome("black", "repetition")
    assert sf.is_optional_game_end("armageddon", sf.start_fen("armageddon"), moves)[1] < 0


def test_a_checkmate_is_still_a_checkmate(games):
    fen = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"
    assert games["armageddon"].position(fen).outcome() == ff.Outcome("white", "checkmate")
    assert games["chess"].variant.draw_odds == ""


def test_the_side_must_be_white_or_black(tmp_path):
    message = definition_error(tmp_path, "variant bad extends chess\ndraws count as wins for red\n")
    assert "bad.variant:2:" in message


def sf_mate():
    return 32000
