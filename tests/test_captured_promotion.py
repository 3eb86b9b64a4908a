"""`promote … only to captured pieces` (grand, opulent): a promotion is offered to a
piece only while the side has fewer of it on the board than in the setup.  pyffish
(Fairy-Stockfish's promotionLimit) is the oracle for the same positions; the bundled
games' playouts and perft rows are in tests/test_fsf_catalog.py."""

import pytest

sf = pytest.importorskip("pyffish")

FULL_ARMY = "4k5/P9/10/10/10/10/10/10/10/RNBQKCABNR w - - 0 1"      # nothing captured
NO_BISHOPS = "4k5/10/P9/10/10/10/10/10/10/RN1QKCA1NR w - - 0 1"    # both bishops captured
ONE_BISHOP = "4k5/10/P9/10/10/10/10/10/10/RN1QKCABNR w - - 0 1"


def pawn_moves(pos, origin):
    return sorted(str(m) for m in pos.legal_moves() if str(m).startswith(origin))


def test_no_captured_piece_no_promotion_and_no_last_rank(games):
    pos = games["grand"].position(FULL_ARMY)
    assert pawn_moves(pos, "a9") == []          # a10 forces a promotion, and none is left


def test_promotion_to_the_captured_pieces_only(games):
    pos = games["grand"].position(NO_BISHOPS)
    assert pawn_moves(pos, "a8") == ["a8a9", "a8a9b"]
    pos = games["grand"].position(ONE_BISHOP)
    assert pawn_moves(pos, "a8") == ["a8a9", "a8a9b"]


def test_everything_captured_offers_every_choice(games):
    pos = games["grand"].position("4k5/P9/10/10/10/10/10/10/10/4K5 w - - 0 1")
    assert pawn_moves(pos, "a9") == sorted(f"a9a10{c}" for c in "acqrbn")


def test_a_promotion_uses_the_place_up(games):
    pos = games["grand"].position("4k5/10/P9/P9/10/10/10/10/10/RN1QKCABNR w - - 0 1")
    pos.push_uci("a8a9b")
    pos.push(pos.legal_moves()[0])            # Black's king steps aside
    assert pawn_moves(pos, "a7") == ["a7a8"]    # the bishop is back: no second one


@pytest.mark.parametrize("variant,fen", [
    ("grand", FULL_ARMY), ("grand", NO_BISHOPS), ("grand", ONE_BISHOP),
    ("grand", "rnbqkcabnr/10/10/10/10/10/10/p9/10/4K5 b - - 0 1"),
    ("grand", "1nbqkcabn1/10/10/10/10/10/10/p9/10/4K5 b - - 0 1"),
    ("opulent", "4k5/10/P9/10/10/10/10/10/10/RW1QK1NBLA w - - 0 1"),
    ("opulent", "4k5/P9/10/10/10/10/10/10/10/R3K4R w - - 0 1"),
])
def test_positions_match_fairy_stockfish(games, variant, fen):
    ours = sorted(str(m) for m in games[variant].position(fen).legal_moves())
    assert ours == sorted(sf.legal_moves(variant, fen, []))


def test_the_option_reads_in_the_model(games):
    pawn = next(p for p in games["grand"].variant.pieces if p.name == "pawn")
    assert pawn.promotion.captured_only
    queen = next(p for p in games["chess"].variant.pieces if p.name == "pawn")
    assert not queen.promotion.captured_only
