"""Shatar's ends (compiler/rules/mate_givers.py, `bare king draws`) and karouk's two
pairs of counters, position by position against pyffish: each position's expected
result is stated from the rule's wording, and pyffish must agree."""

import pytest

import fairyforge as ff
from fsf_playouts import play_and_compare, definition_error

sf = pytest.importorskip("pyffish")


@pytest.fixture(scope="module")
def shatar():
    return ff.load("shatar")


@pytest.fixture(scope="module")
def karouk():
    return ff.load("karouk")


def _fsf_winner(fen, moves, turn):
    value = sf.game_result("shatar", fen, moves)
    return None if value == 0 else turn if value > 0 else ("white" if turn == "black" else "black")


# (FEN, the rule's verdict for the side to move's opponent's mate: the winner, reason)
MATES = [
    # a smothered mate by a knight alone: the mated side wins
    ("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", "black", "checkmate by lone pieces"),
    # a bishop's mate with no check before it (the FEN's history is empty): a draw
    ("6bk/7p/8/8/3B4/8/8/7K b - - 0 1", None, "checkmate without a decisive check"),
    # a rook's mate is its own shak: an ordinary checkmate
    ("R6k/6pp/8/8/8/8/8/7K b - - 0 1", "white", "checkmate"),
]


@pytest.mark.parametrize("fen,winner,reason", MATES)
def test_who_gave_the_mate(shatar, fen, winner, reason):
    pos = play_and_compare(sf, shatar, "shatar", fen)
    assert not pos.legal_moves() and pos.is_check()
    assert pos.outcome() == ff.Outcome(winner, reason)
    assert _fsf_winner(fen, [], pos.turn) == winner


def test_mate_after_a_move_from_the_fen(shatar):
    """The mating move itself is the series' only check: the rook's mate still wins."""
    fen = "7k/6pp/8/8/8/8/8/R6K w - - 0 1"
    pos = play_and_compare(sf, shatar, "shatar", fen, ["a1a8"])
    assert pos.outcome() == ff.Outcome("white", "checkmate")


def test_a_shak_earlier_in_the_series_makes_the_bishops_mate_count(shatar):
    """1. Ra2+ (a shak) Kh1 2. Bf3#: the mate is the bishop's, but the series of checks
    that led to it began with a rook's, so White wins; the same final position with no
    history (its FEN alone) is a draw.  (Found by a search over pyffish's results.)"""
    fen = "8/1p3p2/8/R7/3p2B1/8/7k/5K2 w - - 0 1"
    pos = play_and_compare(sf, shatar, "shatar", fen, ["a5a2", "h2h1", "g4f3"])
    assert not pos.legal_moves() and pos.is_check()
    assert pos.outcome() == ff.Outcome("white", "checkmate")
    assert _fsf_winner(fen, ["a5a2", "h2h1", "g4f3"], pos.turn) == "white"
    alone = pos.fen()
    assert shatar.position(alone).outcome() == ff.Outcome(
        None, "checkmate without a decisive check")
    assert _fsf_winner(alone, [], pos.turn) is None


@pytest.mark.parametrize("fen", ["8/8/8/3J4/8/8/8/k6K w - - 0 1",     # Black bare
                                 "8/8/8/8/8/8/p7/k6K w - - 0 1"])     # White bare
def test_bare_king_draws(shatar, fen):
    pos = play_and_compare(sf, shatar, "shatar", fen)
    assert pos.outcome() == ff.Outcome(None, "bare king")
    assert not pos.legal_moves()


def test_capture_that_bares_a_king_draws(shatar):
    fen = "8/8/8/3J4/8/8/3p4/k6K w - - 0 1"
    pos = play_and_compare(sf, shatar, "shatar", fen, ["d5d2"])
    assert pos.outcome() == ff.Outcome(None, "bare king")


def test_start_perft(shatar):
    assert shatar.start().perft(3) == 8426


def test_unknown_piece_is_named(tmp_path):
    text = ('variant t "T" extends shatar\ncheckmate by camel alone loses\n'
            'setup "rnbjkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBJKBNR w - - 0 1"\n')
    message = definition_error(tmp_path, "t", text)
    assert "t.variant:2:14: error: unknown piece 'camel'" in message


# karouk: the check count and the counting rule, each with its own counters

def test_karouk_fen_keeps_both_counters(karouk):
    fen = "8/8/8/3k4/8/8/8/R2K4 w - - 0 40"
    pos = play_and_compare(sf, karouk, "karouk", fen, ["a1a2", "d5e5"])
    assert pos.fen() == "8/8/8/4k3/8/8/R7/3K4 w - 30 1+1 7 41"
    again = karouk.position(pos.fen())
    assert again.fen() == pos.fen()
    assert again.engine.counters() == (1, 1, 30, 7)


def test_karouk_first_check_wins(karouk):
    fen = "3k4/8/8/8/7p/8/8/R2K4 w - - 1+1 0 10"
    moves = ["a1a8"]
    pos = play_and_compare(sf, karouk, "karouk", fen, moves)
    assert pos.outcome() == ff.Outcome("white", "checks")


def test_karouk_perft_matches_fsf(karouk):
    fen = "rn1mksnr/3s4/pppppppp/8/4N3/PPPPPPPP/8/R1SKMSNR b DEde - 3 2"
    expected = sum(len(sf.legal_moves("karouk", fen, [m])) for m in sf.legal_moves("karouk", fen, []))
    assert karouk.position(fen).perft(2) == expected
