"""`win by extinction of PIECES` (compiler/rules/extinction.py).

Position tests from the rule's wording, and Fairy-Stockfish as the oracle: pyffish
loads the same rule (extinctionValue = loss, extinctionPieceTypes) and must agree on
every legal move list and every game end along random playouts that capture often.
"""

import random

import pytest

import fairyforge as ff
from conftest import definition_error

DEFINITION = """variant knightless "Knightless chess" extends chess
win by extinction of knight       # a side that has lost both knights has lost
"""
FSF_CONFIG = """[knightless:chess]
extinctionValue = loss
extinctionPieceTypes = n
"""
# One knight each, so that playouts reach extinctions.
ONE_KNIGHT_EACH = "r1bqkb1r/pppppnpp/8/8/8/8/PPPPPNPP/R1BQKB1R w KQkq - 0 1"


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("extinction") / "knightless.variant"
    path.write_text(DEFINITION)
    return ff.load(str(path))


def test_a_side_without_its_knights_has_lost(game):
    pos = game.position("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1")
    assert pos.outcome() == ff.Outcome("black", "extinction")
    assert pos.legal_moves() == []
    assert pos.perft(1) == 0 and pos.perft(3) == 0


def test_capturing_the_last_knight_wins(game):
    pos = game.position("4k3/8/8/8/8/5n2/8/4K1N1 w - - 0 1")
    assert pos.outcome() is None
    pos.push_uci("g1f3")
    assert pos.outcome() == ff.Outcome("white", "extinction")
    assert pos.legal_moves() == []


def test_the_engine_takes_the_last_knight(game):
    from fairyforge.search import think
    pos = game.position("4k3/8/8/8/8/5n2/8/4K1N1 w - - 0 1")
    assert str(think(pos, depth=3).best_move) == "g1f3"


def test_the_rule_reaches_the_generated_engine(game):
    with open(game.source_path) as handle:
        source = handle.read()
    assert "cdef bint extinct(" in source and "reason[0] = EXTINCTION" in source


def test_royal_pieces_cannot_go_extinct(tmp_path):
    message = definition_error(tmp_path, 'variant bad extends chess\nwin by extinction of king, knigt\n')
    text = message
    assert "bad.variant:2:" in text
    assert "'king' is royal" in text
    assert "unknown piece 'knigt' (did you mean 'knight'?)" in text


def test_random_playouts_match_pyffish(game):
    sf = pytest.importorskip("pyffish")
    sf.load_variant_config(FSF_CONFIG)
    rng = random.Random("extinction")
    positions = endings = 0
    while positions < 300:
        pos, moves = game.position(ONE_KNIGHT_EACH), []
        for _ in range(120):
            ours = sorted(str(m) for m in pos.legal_moves())
            assert ours == sorted(sf.legal_moves("knightless", ONE_KNIGHT_EACH, moves)), moves
            ended, value = sf.is_immediate_game_end("knightless", ONE_KNIGHT_EACH, moves)
            outcome = pos.outcome()
            positions += 1
            if ended:
                endings += 1
                winner = pos.turn if value > 0 else ("black" if pos.turn == "white" else "white")
                assert outcome == ff.Outcome(winner, "extinction"), moves
            if not ours:
                break
            captures = [m for m in ours if sf.is_capture("knightless", ONE_KNIGHT_EACH, moves, m)]
            move = rng.choice(captures if captures and rng.random() < 0.7 else ours)
            moves.append(move)
            pos.push_uci(move)
    assert endings >= 5                  # the playouts did reach the rule


def test_perft_matches_pyffish(game):
    sf = pytest.importorskip("pyffish")
    sf.load_variant_config(FSF_CONFIG)
    fen = "4k3/8/8/3p4/4N3/8/8/4K3 b - - 0 1"  # capturing the only knight ends the game

    def count(moves, depth):
        legal = sf.legal_moves("knightless", fen, moves)
        if depth == 1:
            return len(legal)
        return sum(count(moves + [m], depth - 1) for m in legal)

    pos = game.position(fen)
    assert [pos.perft(d) for d in (1, 2, 3)] == [count([], d) for d in (1, 2, 3)]
