"""Position tests: one or more per rule of the four classics, each through the public API."""

import pytest


def legal(pos):
    return {str(m) for m in pos.legal_moves()}


def from_square(pos, square):
    return {m for m in legal(pos) if m.startswith(square)}


# --- chess -------------------------------------------------------------------------

def test_pawn_double_step_only_from_the_start_rank(games):
    pos = games["chess"].position("4k3/8/8/8/8/4P3/3P4/4K3 w - - 0 1")
    assert from_square(pos, "d2") == {"d2d3", "d2d4"}
    assert from_square(pos, "e3") == {"e3e4"}


def test_en_passant(games):
    pos = games["chess"].position("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    pos.push_uci("d7d5")
    assert pos.fen().split()[3] == "d6"
    assert "e5d6" in legal(pos)
    pos.push_uci("e5d6")
    assert pos.fen().split()[0] == "4k3/8/3P4/8/8/8/8/4K3"   # the d5 pawn is gone


def test_en_passant_only_right_after_the_double_step(games):
    pos = games["chess"].position("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    for move in ("d7d5", "e1e2", "e8e7"):
        pos.push_uci(move)
    assert "e5d6" not in legal(pos)


def test_promotion_offers_each_choice_and_no_plain_move(games):
    pos = games["chess"].position("8/P7/8/8/8/8/8/k6K w - - 0 1")
    assert from_square(pos, "a7") == {"a7a8q", "a7a8r", "a7a8b", "a7a8n"}
    pos.push_uci("a7a8n")
    assert pos.fen().startswith("N7/")


def test_castling_both_sides_and_rook_moves_along(games):
    pos = games["chess"].position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert {"e1g1", "e1c1"} <= legal(pos)
    pos.push_uci("e1g1")
    assert pos.fen().startswith("r3k2r/8/8/8/8/8/8/R4RK1 b kq ")


@pytest.mark.parametrize("fen,move", [
    ("r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1", "e1g1"),                             # f1 attacked
    ("r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1", "e1g1"),                            # g1 attacked
    ("4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1", "e1g1"),                                 # g1 occupied
    ("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "e1g1"),                                   # right lost
    ("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1"),                                # in check
])
def test_castling_refused(games, fen, move):
    assert move not in legal(games["chess"].position(fen))


def test_castling_right_lost_when_rook_moves(games):
    pos = games["chess"].position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    pos.push_uci("h1h2")
    assert pos.fen().split()[2] == "Qkq"


def test_chess_checkmate_and_stalemate(games):
    pos = games["chess"].start()
    for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
        pos.push_uci(move)
    assert pos.is_check()
    outcome = pos.outcome()
    assert (outcome.winner, outcome.reason) == ("black", "checkmate")
    stalemate = games["chess"].position("k7/8/1Q6/8/8/8/8/7K b - - 0 1").outcome()
    assert (stalemate.winner, stalemate.reason) == (None, "stalemate")


def test_chess_threefold_repetition_and_move_rule(games):
    pos = games["chess"].start()
    assert pos.outcome() is None
    for _ in range(2):
        for move in ("g1f3", "g8f6", "f3g1", "f6g8"):
            pos.push_uci(move)
    assert pos.outcome().reason == "repetition" and pos.outcome().winner is None
    tired = games["chess"].position("4k3/8/8/8/8/8/8/4K2R w - - 100 80")
    assert tired.outcome().reason == "move rule"


# --- shogi -------------------------------------------------------------------------

def test_shogi_no_doubled_pawn_drop(games):
    pos = games["shogi"].position("4k4/9/9/9/9/9/4P4/9/4K4[P] w - - 0 1")
    assert "P@e5" not in legal(pos)
    assert "P@d5" in legal(pos)


def test_shogi_promoted_pawn_does_not_count_as_doubled(games):
    pos = games["shogi"].position("4k4/9/9/9/9/9/4+P4/9/4K4[P] w - - 0 1")
    assert "P@e5" in legal(pos)


def test_shogi_no_drop_where_the_piece_could_never_move(games):
    pos = games["shogi"].position("4k4/9/9/9/9/9/9/9/4K4[PLN] w - - 0 1")
    moves = legal(pos)
    assert not {"P@d9", "L@d9", "N@d9", "N@d8"} & moves
    assert {"P@d8", "L@d8", "N@d7"} <= moves


def test_shogi_pawn_drop_mate_is_illegal(games):
    mate = games["shogi"].position("3nkn3/9/4G4/9/9/9/9/9/4K4[P] w - - 0 1")
    assert "P@e8" not in legal(mate)
    check_only = games["shogi"].position("3nkn3/9/9/9/9/9/9/9/4K4[P] w - - 0 1")
    assert "P@e8" in legal(check_only)        # the king can take it: a check, not a mate


def test_shogi_forced_promotion_where_no_further_move(games):
    pawn = games["shogi"].position("k8/4P4/9/9/9/9/9/9/4K4 w - - 0 1")
    assert from_square(pawn, "e8") == {"e8e9+"}
    knight = games["shogi"].position("k8/9/2N6/9/9/9/9/9/4K4 w - - 0 1")
    assert from_square(knight, "c7") == {"c7b9+", "c7d9+"}


def test_shogi_optional_promotion_entering_and_leaving_the_zone(games):
    entering = games["shogi"].position("4k4/9/9/4P4/9/9/9/9/4K4 w - - 0 1")
    assert from_square(entering, "e6") == {"e6e7", "e6e7+"}
    leaving = games["shogi"].position("k8/9/4S4/9/9/9/9/9/4K4 w - - 0 1")
    assert {"e7d6", "e7d6+", "e7f6", "e7f6+"} <= from_square(leaving, "e7")


def test_shogi_captured_promoted_piece_returns_unpromoted(games):
    pos = games["shogi"].position("4k4/4r4/9/9/4+P4/9/9/9/K8 b - - 0 1")
    pos.push_uci("e8e5")
    assert "[p]" in pos.fen()


def test_shogi_no_legal_move_loses(games):
    pos = games["shogi"].position("k8/2G6/1G7/9/9/9/9/9/8K b - - 0 1")
    assert not pos.is_check()
    outcome = pos.outcome()
    assert (outcome.winner, outcome.reason) == ("white", "stalemate")


# --- crazyhouse ----------------------------------------------------------------------

def test_crazyhouse_promoted_pawn_returns_as_pawn(games):
    pos = games["crazyhouse"].position("1r2k3/P7/8/8/8/8/8/4K3[] w - - 0 1")
    pos.push_uci("a7a8q")
    assert pos.fen().startswith("Q~r2k3/")
    pos.push_uci("b8a8")
    assert pos.fen().startswith("r3k3/8/8/8/8/8/8/4K3[p] w")


def test_crazyhouse_captures_go_to_hand_and_are_dropped(games):
    pos = games["crazyhouse"].position("4k3/8/8/3n4/8/4N3/8/4K3[] w - - 0 1")
    pos.push_uci("e3d5")
    assert "[N]" in pos.fen()
    pos.push_uci("e8f8")
    assert "N@a1" in legal(pos)


def test_crazyhouse_pawns_never_dropped_on_first_or_last_rank(games):
    pos = games["crazyhouse"].position("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")
    moves = legal(pos)
    assert "P@a1" not in moves and "P@a8" not in moves
    assert "P@a2" in moves and "P@a7" in moves


# --- xiangqi -----------------------------------------------------------------------

def test_xiangqi_general_confined_to_palace(games):
    pos = games["xiangqi"].position("5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    assert from_square(pos, "d1") == {"d1d2", "d1e1"}


def test_xiangqi_advisor_confined_to_palace(games):
    pos = games["xiangqi"].position("5k3/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1")
    assert from_square(pos, "e2") == {"e2d3", "e2f3", "e2f1"}


def test_xiangqi_elephant_never_crosses_the_river(games):
    pos = games["xiangqi"].position("3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1")
    assert from_square(pos, "c5") == {"c5a3", "c5e3"}


def test_xiangqi_elephant_blocked_by_its_eye(games):
    # (the eye is blocked by a horse: a soldier could never stand on d4)
    pos = games["xiangqi"].position("3k5/9/9/9/9/2B6/3N5/9/9/4K4 w - - 0 1")
    assert from_square(pos, "c5") == {"c5a3"}


def test_xiangqi_horse_is_lame(games):
    # (the leg is blocked by a chariot: a soldier could never stand on b2)
    pos = games["xiangqi"].position("3k5/9/9/9/9/9/9/9/1R7/1N2K4 w - - 0 1")
    assert from_square(pos, "b1") == {"b1d2"}


def test_xiangqi_cannon_captures_only_over_a_screen(games):
    no_screen = games["xiangqi"].position("3k5/9/1r7/9/9/9/9/9/9/1C2K4 w - - 0 1")
    assert "b1b8" not in legal(no_screen) and "b1b7" in legal(no_screen)
    screen = games["xiangqi"].position("3k5/9/1r7/9/9/1p7/9/9/9/1C2K4 w - - 0 1")
    assert "b1b8" in legal(screen)             # over the b5 soldier, of either colour
    assert "b1b5" not in legal(screen) and "b1b7" not in legal(screen)


def test_xiangqi_soldier_steps_sideways_only_across_the_river(games):
    home = games["xiangqi"].position("3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1")
    assert from_square(home, "e4") == {"e4e5"}
    across = games["xiangqi"].position("3k5/9/9/4P4/9/9/9/9/9/4K4 w - - 0 1")
    assert from_square(across, "e7") == {"e7e8", "e7d7", "e7f7"}


def test_xiangqi_generals_may_not_face_each_other(games):
    # The horse on e5 is all that stands between the generals: it may not move away.
    pos = games["xiangqi"].position("4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1")
    assert from_square(pos, "e5") == set()
    pos2 = games["xiangqi"].position("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    assert "e1d1" not in legal(pos2) and "e1f1" in legal(pos2)


def test_xiangqi_no_legal_move_loses(games):
    # The black general on d10 may go to e10 (covered by the e2 chariot) or d9 (covered
    # by the a9 chariot); it is not in check.
    pos = games["xiangqi"].position("3k5/R8/9/9/9/9/9/9/4R4/4K4 b - - 0 1")
    assert not pos.is_check() and legal(pos) == set()
    outcome = pos.outcome()
    assert (outcome.winner, outcome.reason) == ("white", "stalemate")
