"""Games that end in unusual ways, position by position, each checked against
Fairy-Stockfish (pyffish):

* atomic: a capture whose blast takes the enemy king leaves a position whose side to
  move has no king.  It is a legal FEN (FSF writes and reads it), the game is over,
  and it reads back here (compiler/positions.py), while a position whose side that
  just moved has no king is still refused.
* misere (`checkmate win`): the search scores a checkmate as a win for the mated side,
  so the engine plays into a selfmate, and avoids giving mate.
* compulsory captures: quiescence may not stand pat where the side to move must
  capture (the `must_capture` hook).
"""

import pytest

from fairyforge.errors import FenError
from fairyforge.search import think

sf = pytest.importorskip("pyffish")

# White's knight on f7 takes the queen on d8; the blast takes the king on e8 with it.
BEFORE_BLAST = "rnbqkbnr/pppppNpp/8/5p2/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1"


@pytest.mark.parametrize("variant, reason", [("atomic", "explosion"),
                                             ("nocheckatomic", "extinction")])
def test_a_position_after_the_king_exploded_reads_back(games, variant, reason):
    pos = games[variant].position(BEFORE_BLAST)
    pos.push_uci("f7d8")
    fen = pos.fen()
    assert fen == sf.get_fen(variant, BEFORE_BLAST, ["f7d8"])
    again = games[variant].position(fen)
    assert again.fen() == fen and again.key() == pos.key()
    assert again.legal_moves() == [] == sf.legal_moves(variant, fen, [])
    assert sf.game_result(variant, fen, []) < 0          # the side to move has lost
    assert again.outcome().winner == "white" and again.outcome().reason == reason
    assert not again.is_check() and again.perft(2) == 0


def test_the_side_that_just_moved_still_needs_its_king(games):
    # White to move and Black without a king: no move of Black's blows up its own.
    with pytest.raises(FenError, match="black must have one king"):
        games["atomic"].position("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1")


def test_after_the_blast_the_winner_may_be_left_attacked(games):
    """Blowing up the enemy king wins even if one's own king is left attacked (here by
    the b4 bishop, which checks it): that position is a legal FEN too."""
    before = "r3k3/3q4/8/8/1b6/8/8/3QK3 w - - 0 1"
    pos = games["atomic"].position(before)
    pos.push_uci("d1d7")                       # takes the queen, the blast takes e8
    fen = pos.fen()
    assert fen == sf.get_fen("atomic", before, ["d1d7"])
    assert games["atomic"].position(fen).outcome().winner == "white"


# White's rook takes a1 with check; Black's only reply, Qxa1, mates White: in misere
# the mated side wins.
SELFMATE_IN_ONE = "kr6/1p6/8/3pq3/8/8/6PP/3R3K w - - 0 1"


def test_misere_engine_plays_into_a_selfmate(games):
    assert sf.legal_moves("misere", SELFMATE_IN_ONE, ["d1a1"]) == ["e5a1"]
    assert sf.game_result("misere", SELFMATE_IN_ONE, ["d1a1", "e5a1"]) > 0  # White wins
    pos = games["misere"].position(SELFMATE_IN_ONE)
    for depth in (1, 2, 4):
        result = think(pos, depth=depth)
        assert str(result.best_move) == "d1a1" and result.info.mate == 1
    pos.push_uci("d1a1")
    pos.push_uci("e5a1")
    assert pos.outcome().winner == "white" and pos.outcome().reason == "checkmate"


def test_misere_engine_does_not_give_mate(games):
    """After 1.Ra1+, Black has one move, the mate that wins for White: the engine sees
    the loss (a mate score against it) rather than a win."""
    pos = games["misere"].position(SELFMATE_IN_ONE)
    pos.push_uci("d1a1")
    assert think(pos, depth=2).info.mate == -1
