"""The perpetual rules declared `loses` (docs/language.md, section 3.21), on a small
variant of their own: the seed games only declare them `illegal` (Kjartansson, WWII;
tests/test_seed_rules.py) or `perpetual check loses` without `by one piece` (iChess,
Shogi of Chesstonia).  Every ply is compared with the oracle interpreter too."""

import pytest

import fairyforge as ff
from fairyforge.compiler.resolve import load_variant
from oracle import Interpreter

DEFINITION = """\
variant perpetual_test "Perpetual rules test"
board 6x6
symmetry mirror
piece king   K K royal
piece rook   R R
piece knight N N
piece cannon C mRcpR
repetition 3 draw
perpetual check by one piece loses
perpetual chase loses
setup "2c2k/6/6/6/6/RNK3 w - - 0 1"   # every piece the cases use
"""

CASES = [
    # A rook checks a king that steps back and forth: the checking side loses.
    ("5k/6/6/6/6/R1K3 w - - 0 1", "a1a6 f6f5 a6a5 f5f6 a5a6 f6f5 a6a5 f5f6 a5a6",
     ("black", "perpetual check")),
    # A knight and a rook check in turn: not by one piece, a plain repetition.
    ("5k/R2N2/6/6/6/2K3 b - - 0 1", "f6f5 d5b4 f5f6 b4d5 f6f5 d5b4 f5f6 b4d5",
     (None, "repetition")),
    # A rook chases a cannon that shuttles: the chasing side loses.
    ("5k/6/2c3/6/R5/2K3 w - - 0 1", "a2a4 c4c3 a4a3 c3c4 a3a4 c4c3 a4a3 c3c4 a3a4",
     ("black", "perpetual chase")),
    # The same, entered so that the chased cannon completes the repetition: the
    # chaser still loses.
    ("5k/6/2c3/R5/6/2K3 w - - 0 1", "a3a4 c4c3 a4a3 c3c4 a3a4 c4c3 a4a3 c3c4",
     ("black", "perpetual chase")),
]


@pytest.fixture(scope="module")
def variant_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("perpetual") / "perpetual_test.variant"
    path.write_text(DEFINITION)
    return str(path)


@pytest.mark.parametrize("fen,line,result", CASES)
def test_perpetual_rules_that_lose(variant_path, fen, line, result):
    game = ff.load(variant_path)
    oracle = Interpreter(load_variant(variant_path)).position(fen)
    pos = game.position(fen)
    for move in line.split():
        assert pos.outcome() is None and oracle.outcome() is None, move
        assert {str(m) for m in pos.legal_moves()} == oracle.legal_moves(), move
        pos.push_uci(move)
        oracle.push(move)
    outcome = pos.outcome()
    assert (outcome.winner, outcome.reason) == result
    assert oracle.outcome() == result


def test_identities_follow_castling_en_passant_and_promotion(games):
    """The piece identities behind `by one piece` and chases (runtime/cycles.py)."""
    from fairyforge import cycles
    game = games["chess"]
    pos = game.position("r3k3/1P6/8/8/3p4/8/4P3/R3K2R w KQq - 0 1")
    engine = pos.engine
    tracker = cycles.PieceTracker(engine, game.meta)

    def ident(square):
        return tracker.ids[-1].get(game.notation.index_of_square[square])

    def play(uci):
        move = next(m for m in pos.legal_moves() if m.uci == uci)
        before, mover = tracker.board(), engine.state()[0]
        pos.push(move)
        ids, record = tracker.after(move.code, before, mover)
        tracker.push(ids)
        return record

    king, rook, pawn, black_pawn, promoting = (ident(s) for s in ("e1", "h1", "e2", "d4", "b7"))
    play("e1g1")
    assert (ident("g1"), ident("f1"), ident("e1"), ident("h1")) == (king, rook, None, None)
    play("e8d8")
    play("e2e4")
    record = play("d4e3")                                   # en passant
    assert (ident("e3"), ident("e4"), record.moved) == (black_pawn, None, black_pawn)
    record = play("b7a8q")                                  # promotion with capture
    assert ident("a8") == promoting and record.moved == promoting
    assert record.gave_check and record.checkers == {promoting}
    assert len(set(tracker.ids[-1].values())) == len(tracker.ids[-1]) == 6
    tracker.pop()
    pos.pop()
    assert ident("b7") == promoting
