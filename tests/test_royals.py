"""Several royal pieces, extinction games, castling by a king that is not royal, and
dobutsu's safe arrival: the statements `pseudo royal` (compiler/rules/pseudo_royal.py),
`promotion to … only while fewer than` (promotion_limit.py), `win by extinction of …
below N` and `… of all pieces` (extinction.py), `win by … reaching …, if safe`
(flag.py), `en passant … in REGION`, `stuck pieces allowed` (dobutsu) and castling with the
setup's piece on the king's square (resolve.py).

Position tests from each rule's wording, each position also compared with
Fairy-Stockfish (pyffish's built-in games of the same names: legal moves, check, FEN,
game end), and clear errors for misuse.  The bundled games' playouts and perft rows
are in tests/test_fsf_catalog.py.
"""

import pytest

import fairyforge as ff
from conftest import definition_error
from fairyforge.errors import IllegalMoveError
from fsf_playouts import compare_position

sf = pytest.importorskip("pyffish")


def same_as_fsf(game, variant, fen, moves=()):
    """Our position after `moves` agrees with pyffish's; returns it."""
    pos = game.position(fen)
    for done, move in enumerate(moves):
        compare_position(sf, variant, fen, list(moves[:done]), pos)
        pos.push_uci(move)
    compare_position(sf, variant, fen, list(moves), pos)
    return pos


def legal(pos):
    return {str(m) for m in pos.legal_moves()}



# -- castling by the setup's piece (giveaway) -------------------------------------------

def test_a_king_that_is_not_royal_castles_through_an_attack(games):
    # Black's rook attacks f1, which White's king passes: legal for an ordinary king.
    fen = "5r2/8/8/8/8/8/8/R3K2R w KQ - 0 1"
    pos = same_as_fsf(games["giveaway"], "giveaway", fen)
    assert {"e1g1", "e1c1"} <= legal(pos)
    pos.push_uci("e1g1")
    assert pos.fen().startswith("5r2/8/8/8/8/8/8/R4RK1 b")
    assert not pos.is_check()


def test_the_royal_king_of_chess_still_may_not_castle_through_an_attack(games):
    pos = games["chess"].position("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert "e1g1" not in legal(pos) and "e1c1" in legal(pos)


def test_castling_needs_a_piece_of_the_side_on_the_kings_square(tmp_path):
    message = definition_error(tmp_path, 'variant bad extends giveaway\n'
                             'setup "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1"\n')
    assert "castling can never happen: the setup has no white piece on e1" in message
    assert "bad.variant:1:" in message and "chess, line 18" in message


# -- win by extinction of … below N (threekings) ------------------------------------------

def test_losing_the_first_of_three_kings_loses(games):
    fen = "kk5k/8/8/8/8/8/8/KKK4R w - - 0 1"
    pos = same_as_fsf(games["threekings"], "threekings", fen, ["h1h8"])
    assert pos.outcome() == ff.Outcome("white", "extinction")


# -- win by extinction of all pieces, en passant in a region (horde) ----------------------

def test_white_loses_with_its_last_piece(games):
    pos = same_as_fsf(games["horde"], "horde", "4k3/8/8/8/8/8/3p4/4P3 b - - 0 1", ["d2e1q"])
    assert pos.outcome() == ff.Outcome("black", "extinction")


def test_a_double_step_from_the_first_rank_cannot_be_taken_in_passing(games):
    fen = "4k3/8/8/8/8/1p6/8/P7 w - - 0 1"
    pos = same_as_fsf(games["horde"], "horde", fen, ["a1a3"])
    assert pos.fen().split()[3] == "-" and "b3a2" not in legal(pos)


def test_a_double_step_over_the_third_rank_can(games):
    pos = same_as_fsf(games["horde"], "horde", "4k3/8/8/8/1p6/8/P7/8 w - - 0 1", ["a2a4"])
    assert "b4a3" in legal(pos)


# -- pseudo royal (coregal, shoshogi, spartan) --------------------------------------------

def test_a_queen_may_not_be_left_attacked(games):
    pos = same_as_fsf(games["coregal"], "coregal", "4k3/8/8/8/8/8/r7/3QK3 w - - 0 1")
    assert "d1d2" not in legal(pos) and "d1d3" in legal(pos)
    with pytest.raises(IllegalMoveError, match="pseudo royal"):
        pos.push_uci("d1d2")                          # onto the rook's rank


def test_capturing_a_pseudo_royal_piece_is_judged_like_any_move(games):
    # Qxa4 takes Black's queen, but the rook on h4 would attack White's queen there.
    pos = same_as_fsf(games["coregal"], "coregal", "4k3/8/8/8/q6r/8/8/Q3K3 w - - 0 1")
    assert "a1a4" not in legal(pos)
    pos = same_as_fsf(games["coregal"], "coregal", "4k3/8/8/8/q7/8/8/Q3K3 w - - 0 1")
    assert "a1a4" in legal(pos)


def test_an_attacked_queen_is_check(games):
    pos = same_as_fsf(games["coregal"], "coregal", "4k3/8/8/8/8/8/1b6/Q3K3 w - - 0 1")
    assert pos.is_check()               # the bishop attacks the queen, not the king


def test_a_crown_prince_makes_the_king_expendable(games):
    # With a crown prince beside it, the king may be left attacked; alone, it may not.
    game = games["shoshogi"]
    both = same_as_fsf(game, "shoshogi", "4k4/9/9/9/9/9/4r4/9/3K4+E w - - 0 1")
    alone = same_as_fsf(game, "shoshogi", "4k4/9/9/9/9/9/4r4/9/3K5 w - - 0 1")
    assert "d1e1" in legal(both) and "d1e1" not in legal(alone)


def test_duple_check_both_kings_attacked(games):
    # One of Black's two kings attacked is no check; both attacked is.
    one = same_as_fsf(games["spartan"], "spartan", "k6k/8/8/8/8/8/8/R3K3 b - - 0 1")
    both = same_as_fsf(games["spartan"], "spartan", "k6k/8/8/8/8/8/8/R3K2R b - - 0 1")
    assert not one.is_check() and both.is_check()
    assert "a8a7" not in legal(both)   # both kings would stay attacked
    assert "a8b8" in legal(both)       # the king on b8 is not attacked


# -- promotion to … only while fewer than N (spartan) ------------------------------------

def test_a_second_king_by_promotion_but_not_a_third(games):
    fen = "8/8/8/8/6Q1/8/2h3h1/4K1k1 b - - 0 1"
    game = games["spartan"]
    pos = same_as_fsf(game, "spartan", fen)
    assert "c2b1k" in legal(pos)
    pos = same_as_fsf(game, "spartan", fen, ["g2h1k", "g4g5"])
    assert not any(m.endswith("k") for m in legal(pos))
    with pytest.raises(IllegalMoveError, match="promotion limit"):
        pos.push_uci("c2b1k")


# -- win by … reaching …, if safe; stuck drops (dobutsu) -----------------------

def test_a_lion_arriving_attacked_does_not_win_at_once(games):
    # The giraffe on a4 attacks b4.
    pos = same_as_fsf(games["dobutsu"], "dobutsu", "g1e/L2/1l1/E1G[] w - - 0 1", ["a3b4"])
    assert pos.outcome() is None and legal(pos)


def test_a_lion_arriving_safely_wins(games):
    pos = same_as_fsf(games["dobutsu"], "dobutsu", "2e/L2/2l/E1G[] w - - 0 1", ["a3b4"])
    assert pos.outcome() == ff.Outcome("white", "goal reached")


def test_a_chick_may_be_dropped_where_it_is_stuck(games):
    pos = same_as_fsf(games["dobutsu"], "dobutsu", "1le/3/1C1/ELG[C] w - - 0 1")
    assert "C@a4" in legal(pos)
    pos.push_uci("C@a4")
    assert games["dobutsu"].position(pos.fen()).fen() == pos.fen()


def test_without_the_option_a_stuck_piece_is_refused_in_a_fen(games):
    with pytest.raises(ff.FenError, match="could never move again"):
        games["minishogi"].position("rbsgP/4p/5/5/KGSBR[-] w 0 1")


def test_if_safe_and_may_reply_are_worded_in_syntax_errors(tmp_path):
    message = definition_error(tmp_path, "variant bad extends dobutsu\n"
                             "win by lion reaching zone, if\n")
    assert "bad.variant:2:" in message


# -- misuse -----------------------------------------------------------------------------

@pytest.mark.parametrize("parent, line, message", [
    ("threekings", "win by extinction of queen below 0", "'below' needs a count of at least 1"),
    ("chess", "pseudo royal king", "'king' is royal already"),
    ("spartan", "pseudo royal king when at most 0", "'when at most' needs a count"),
    ("spartan", "promotion to general only while fewer than 0",
     "a promotion limit needs a count"),
])
def test_misuse_is_an_error_at_its_line(tmp_path, parent, line, message):
    text = definition_error(tmp_path, f"variant bad extends {parent}\n{line}\n")
    assert "bad.variant:2:" in text and message in text


# -- extinction chess (bundled; its FSF suite row is a Chess960 one) -----------------------

def test_extinction_chess_losing_the_last_queen_loses(games):
    """1.e4 d5 2.exd5 Qxd5 3.Qf3 Qxf3: White has no queen left, Black has won."""
    pos = same_as_fsf(games["extinction"], "extinction", games["extinction"].start().fen(),
                      ["e2e4", "d7d5", "e4d5", "d8d5", "d1f3", "d5f3"])
    assert pos.outcome() == ff.Outcome("black", "extinction")
    assert games["extinction"].start().perft(3) == 8902
