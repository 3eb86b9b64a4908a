"""Sittuyin (definitions/sittuyin.variant) and its rules, with pyffish's built-in sittuyin
as the oracle:

* `promote PIECE to CHOICE standing on ZONE` (compiler/rules/standing_promotion.py,
  Fairy-Stockfish's sittuyinPromotion): a pawn on the promotion diagonals, or the
  side's last pawn anywhere, becomes a met in place (`g7g7f`) or by a met's step
  (`g7f8f`); never where the met would attack an enemy piece, never giving check (a
  discovered check either), and with `promotion to met only while fewer than 1`
  only while the side has no met;
* `draw when a lone PIECE can only promote` (FSF's sittuyin stalemate, an optional
  game end: Position.outcome and is_optional_game_end);
* the placement phase (`drops are compulsory`, drops on ranks 1-3 and rooks on the
  first), which tests/test_placement.py covers as a rule; here as sittuyin plays it.

Every position compares complete legal move lists, check, FEN and game end
(fsf_playouts.compare_position); the errors name the file, line and column.
"""

import random

import pytest

import fairyforge as ff
from conftest import definition_error
from fsf_playouts import compare_position, play_and_compare

sf = pytest.importorskip("pyffish")

VARIANT = "sittuyin"
START = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1"

# Fairy-Stockfish's perft suite rows for sittuyin (its tests/perft.sh).
FSF_SUITE = [
    ("startpos", 3, 580096),
    ("8/8/6R1/s3r3/P5R1/1KP3p1/1F2kr2/8[] b - - 0 72", 4, 652686),
    ("2r5/6k1/6p1/3s2P1/3npR2/8/p2N2F1/3K4[] w - - 1 50", 4, 373984),
    ("8/6s1/5P2/3n4/pR2K2S/1P6/1k4p1/8[] w - - 1 50", 4, 268869),
    ("1k5K/3r2P1/8/8/8/8/8/8[] w - - 0 1", 5, 68662),
]


@pytest.fixture(scope="module")
def game():
    return ff.load(VARIANT)


def legal(game, fen, moves=()):
    pos = game.position(fen)
    for move in moves:
        pos.push_uci(move)
    return {str(m) for m in pos.legal_moves()}


def test_start_position_is_fsf(game):
    assert sf.start_fen(VARIANT) == START
    play_and_compare(sf, game, VARIANT, START)


@pytest.mark.parametrize("fen, depth, nodes", FSF_SUITE)
def test_fsf_perft_suite(game, fen, depth, nodes):
    pos = game.start() if fen == "startpos" else game.position(fen)
    assert pos.perft(depth) == nodes


# -- the placement phase -----------------------------------------------------------------

def test_rooks_drop_on_the_first_rank_only(game):
    moves = legal(game, START)
    assert "R@a1" in moves and "R@a2" not in moves and "N@a2" in moves
    assert "K@e3" in moves and "K@e4" not in moves       # ranks 1-3, e4 is taken
    assert not any("@" not in m for m in moves)          # drops are compulsory


def test_black_drops_on_its_ranks(game):
    pos = play_and_compare(sf, game, VARIANT, START, ["K@e2"])
    moves = {str(m) for m in pos.legal_moves()}
    assert "R@h8" in moves and "R@h7" not in moves and "N@h7" in moves   # (FSF's letters)


# -- standing promotion --------------------------------------------------------------------

PROMOTIONS = [
    # the last pawn: in place, or a met's step to an empty square (h8 holds its king)
    ("1k5K/3r2P1/8/8/8/8/8/8[] w - - 0 1",
     {"g7g7f", "g7f6f", "g7h6f", "g7f8f"}, {"g7h8f"}),
    # two pawns: only f6 (on the diagonal) promotes; a met on f6 would attack g7's khon
    ("8/6s1/5P2/3n4/pR2K2S/1P6/1k4p1/8[] w - - 1 50",
     {"f6e5f", "f6g5f", "f6e7f"}, {"f6f6f", "b3b3f", "b3a4f", "b3c4f"}),
    # moving off the rook's line would give a discovered check: only in place
    ("8/8/8/R2P3k/8/8/8/K7[] w - - 0 60", {"d5d5f"}, {"d5c6f", "d5e6f", "d5c4f", "d5e4f"}),
    # a side with a met may not promote (promotion to met only while fewer than 1)
    ("1k6/6P1/8/8/8/8/8/K1F5[] w - - 0 1", set(), {"g7g7f", "g7f6f", "g7h6f"}),
    # Black's diagonals, seen from its side: b2 is on one, a3 is not
    ("7k/8/8/8/8/p7/1p6/7K[] b - - 0 1", {"b2b2f", "b2a1f", "b2c1f", "b2c3f"}, {"a3a3f"}),
    # ... and a met on c3 would attack White's rook on d4
    ("7k/8/8/8/3R4/p7/1p6/7K[] b - - 0 1", {"b2b2f", "b2a1f"}, {"b2c3f", "a3a3f"}),
    # a pawn off the diagonals promotes only as its side's last
    ("7k/8/8/8/3P4/8/8/K7[] w - - 0 1", {"d4d4f", "d4c5f", "d4e5f"}, set()),
    ("7k/8/8/8/3P4/8/P7/K7[] w - - 0 1", set(), {"d4d4f", "a2a2f"}),
]


@pytest.mark.parametrize("fen, present, absent", PROMOTIONS)
def test_standing_promotions(game, fen, present, absent):
    pos = play_and_compare(sf, game, VARIANT, fen)
    moves = {str(m) for m in pos.legal_moves()}
    assert present <= moves and not absent & moves


@pytest.mark.parametrize("move", ["g7g7f", "g7f6f", "g7f8f"])
def test_after_a_promotion(game, move):
    """The FEN, the check and the moves after a promotion are FSF's (the met stands
    where the move put it, the pawn is gone)."""
    pos = play_and_compare(sf, game, VARIANT, "1k5K/3r2P1/8/8/8/8/8/8[] w - - 0 1", [move])
    assert pos.fen().split()[0].count("F") == 1 and "P" not in pos.fen().split()[0]
    pos.pop()
    assert pos.fen() == "1k5K/3r2P1/8/8/8/8/8/8[] w - - 0 1"


def test_a_checking_promotion_is_refused_in_words(game):
    pos = game.position("8/8/8/R2P3k/8/8/8/K7[] w - - 0 60")
    with pytest.raises(ff.IllegalMoveError, match="may not give check"):
        pos.push_uci("d5c6f")


def _promotion_playouts(game, fen, count, seed):
    """Random games from `fen`, promoting whenever it can (one time in two), compared
    with pyffish at every position; returns how many promotions were played."""
    rng, promoted, positions = random.Random(seed), 0, 0
    while positions < count:
        pos, moves = game.position(fen), []
        for _ in range(60):
            ours = compare_position(sf, VARIANT, fen, moves, pos)
            positions += 1
            if not ours or pos.outcome() is not None:
                break
            promotions = [m for m in ours if m.endswith("f") and "@" not in m]
            move = rng.choice(promotions if promotions and rng.random() < 0.5 else ours)
            promoted += move in promotions
            moves.append(move)
            pos.push_uci(move)
    return promoted


@pytest.mark.parametrize("fen", [
    "4k3/8/2s5/1P1P4/4P3/8/5p2/r3K3[] w - - 0 40",
    "r3k3/4p3/1p6/3p4/8/2n5/P1P2P2/4K2R[] b - - 0 40",
])
def test_promotion_playouts_match_fsf(game, fen):
    assert _promotion_playouts(game, fen, 150, seed=7) >= 5


# -- the lone pawn's draw --------------------------------------------------------------------

@pytest.mark.parametrize("fen, drawn", [
    ("8/1f6/8/3r4/K7/P1k5/8/8[] w - - 0 60", True),      # the king cannot move: a3a3f only
    ("4r1pK/6P1/5k2/8/8/8/8/8[] w - - 0 60", True),      # g7h6f, g7f8f only
    ("8/1f6/8/3r4/K7/P7/8/2k5[] w - - 0 60", False),     # the king may move
    ("8/1f6/8/3r4/K7/PP1k4/8/8[] w - - 0 60", False),    # more than one pawn
])
def test_lone_pawn_that_can_only_promote_draws(game, fen, drawn):
    pos = play_and_compare(sf, game, VARIANT, fen)
    assert sf.is_optional_game_end(VARIANT, fen, [])[0] == drawn
    assert (pos.outcome() == ff.Outcome(None, "only promotions")) == drawn
    assert pos.legal_moves()            # an optional end: the moves stay


def test_search_scores_the_lone_pawns_draw(game):
    """Below the root the engine's draw hook scores the position as a draw: after
    Black's rook move the white pawn can only promote."""
    pos = game.position("3r4/1f6/8/8/K7/P1k5/8/8[] b - - 0 60")
    pos.push_uci("d8d5")
    assert pos.outcome() == ff.Outcome(None, "only promotions")
    pos.pop()
    assert pos.engine.search_depth(1, moves=[m.code for m in pos.legal_moves()
                                             if str(m) == "d8d5"])[0] == 0
    assert pos.engine.search_depth(1, moves=[m.code for m in pos.legal_moves()
                                             if str(m) == "d8d6"])[0] > 200


# -- errors ---------------------------------------------------------------------------------

BASE = """variant bad
board 8x8
region zone = a8, b7
piece king K K royal
piece met F F
piece rook R R
piece pawn P fmWfcF
stuck pieces allowed
setup "4k3/8/8/8/8/8/P7/4K3 w - - 0 1"
"""


@pytest.mark.parametrize("line, place, message", [
    ("promote pawn to rook standing on zone", "10:17", "must capture by plain leaps only"),
    ("promote king to met standing on zone", "10:9", "'king' is royal and cannot promote"),
    ("promote pawn to pawn standing on zone", "10:17", "'pawn' cannot promote to itself"),
    ("promote pawn to mett standing on zone", "10:17", "unknown piece 'mett'"),
    ("draw when a lone pawn can only promote", "10:18", "'pawn' has no `promote pawn to"),
    ("promote pawn to met in zone\npromote pawn to met standing on zone", "11:9",
     "already has a `promote` statement"),
])
def test_misuse_is_an_error_with_its_place(tmp_path, line, place, message):
    text = definition_error(tmp_path, BASE + line + "\n")
    assert message in text and f"bad.variant:{place}:" in text, text
