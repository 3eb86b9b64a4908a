"""Compulsory captures and the losing games (compiler/rules/compulsory_captures.py,
extinction.py's `win by losing all pieces`, no_move.py's `checkmate win` and
`stalemate win for fewer pieces`).

Position tests from the rules' wording; Fairy-Stockfish as the oracle: the bundled
antichess, suicide and losers against pyffish's built-in games (perft rows of FSF's
own suite, and random playouts comparing every legal move list, FEN and result), and
crazyhouse with compulsory captures against the same rule in variants.ini form (drops
are non-captures too).
"""

import collections
import random

import pytest

import fairyforge as ff
from conftest import definition_error
from fairyforge.errors import DefinitionError, IllegalMoveError
from fsf_playouts import load_text

# Rows of Fairy-Stockfish's perft suite (shared/perft/fsf_suite.tsv) for these games.
FSF_SUITE = [("antichess", "startpos", 4, 153299), ("losers", "startpos", 4, 152955)]

CAPTUREHOUSE = """variant capturehouse extends crazyhouse
captures are compulsory
"""
CAPTUREHOUSE_FSF = """[capturehouse:crazyhouse]
mustCapture = true
"""
KAMIKAZE = """variant kamikaze extends chess
win by losing all of rook
"""
KAMIKAZE_FSF = """[kamikaze:chess]
extinctionValue = win
extinctionPieceTypes = r
"""


@pytest.fixture(scope="module")
def antichess():
    return ff.load("antichess")


@pytest.fixture(scope="module")
def suicide():
    return ff.load("suicide")


@pytest.fixture(scope="module")
def losers():
    return ff.load("losers")


@pytest.fixture(scope="module")
def sf():
    return pytest.importorskip("pyffish")


def _winner(turn, value):
    if value == 0:
        return None
    return turn if value > 0 else ("black" if turn == "white" else "white")


def playouts_match(sf, game, variant, fen, count, seed, plies=200):
    """Random games from `fen` until `count` positions are compared with pyffish:
    the legal moves, the FEN and, where the game ends, the winner.  Returns a Counter
    of the Outcome reasons met."""
    rng = random.Random(seed)
    positions, reasons = 0, collections.Counter()
    while positions < count:
        pos, moves = game.position(fen), []
        for _ in range(plies):
            ours = sorted(str(m) for m in pos.legal_moves())
            assert ours == sorted(sf.legal_moves(variant, fen, moves)), (fen, moves)
            assert pos.fen() == sf.get_fen(variant, fen, moves), (fen, moves)
            positions += 1
            ended, value = sf.is_immediate_game_end(variant, fen, moves)
            if not ended and not ours:
                ended, value = True, sf.game_result(variant, fen, moves)
            if ended:
                outcome = pos.outcome()
                assert outcome is not None and outcome.winner == _winner(pos.turn, value), \
                    (fen, moves, outcome, value)
                reasons[outcome.reason] += 1
                break
            move = rng.choice(ours)
            moves.append(move)
            pos.push_uci(move)
    return reasons


# -- compulsory captures ----------------------------------------------------------------

def test_a_quiet_move_is_refused_while_a_capture_exists(antichess):
    pos = antichess.position("8/8/8/8/8/3p4/4P3/8 w - - 0 1")
    assert [str(m) for m in pos.legal_moves()] == ["e2d3"]
    with pytest.raises(IllegalMoveError) as err:
        pos.push_uci("e2e4")
    assert "illegal move e2e4: White can capture, and captures are compulsory" in str(err.value)
    pos.push_uci("e2d3")                # the capture itself is allowed


def test_any_capture_will_do(antichess):
    pos = antichess.position("8/8/8/8/2n1p3/3P4/8/R6r w - - 0 1")
    assert sorted(str(m) for m in pos.legal_moves()) == ["a1h1", "d3c4", "d3e4"]


def test_en_passant_is_a_capture(antichess):
    pos = antichess.position("8/8/8/3Pp3/8/8/8/7K w - e6 0 1")
    assert [str(m) for m in pos.legal_moves()] == ["d5e6"]


def test_castling_and_drops_are_not_captures(tmp_path_factory, sf):
    sf.load_variant_config(CAPTUREHOUSE_FSF)
    house = load_text(tmp_path_factory, "capturehouse", CAPTUREHOUSE)
    fen = "r3k3/8/8/8/8/8/1p6/R3K2R[N] w KQq - 0 1"
    pos = house.position(fen)
    assert [str(m) for m in pos.legal_moves()] == ["a1a8"]
    assert sf.legal_moves("capturehouse", fen, []) == ["a1a8"]
    for text in ("e1g1", "N@e4"):
        with pytest.raises(IllegalMoveError, match="captures are compulsory"):
            pos.push_uci(text)


def test_without_a_capture_every_move_stays_legal(antichess):
    pos = antichess.start()
    assert len(pos.legal_moves()) == 20


def test_the_rule_costs_nothing_where_it_is_not_declared(antichess):
    with open(antichess.source_path) as handle:
        assert "CAPTURE_REQUIRED" in handle.read()
    with open(ff.load("chess").source_path) as handle:
        source = handle.read()
    assert "could_have_captured" not in source and "return CAPTURE_REQUIRED" not in source


def test_drops_and_captures_match_pyffish(tmp_path_factory, sf):
    sf.load_variant_config(CAPTUREHOUSE_FSF)
    house = load_text(tmp_path_factory, "capturehouse", CAPTUREHOUSE)
    fen = "r1b1k2r/ppp2ppp/2n5/3q4/3P4/2N5/PPP2PPP/R1BQK2R[Pn] w KQkq - 0 1"
    playouts_match(sf, house, "capturehouse", fen, 300, "capturehouse", plies=60)


# -- winning by losing everything ---------------------------------------------------------

def test_a_side_with_no_piece_left_wins(antichess):
    pos = antichess.position("8/8/8/8/8/8/1p6/8 w - - 0 1")
    assert pos.outcome() == ff.Outcome("white", "extinction")
    assert pos.legal_moves() == [] and pos.perft(2) == 0


def test_giving_away_the_last_piece_wins(antichess):
    pos = antichess.position("8/8/8/8/8/8/1p6/2B5 w - - 0 1")
    pos.push_uci("c1b2")                # forced: the bishop must take Black's last piece
    assert pos.outcome() == ff.Outcome("black", "extinction")
    pos = antichess.position("8/1p6/8/8/8/8/8/R7 w - - 0 1")
    pos.push_uci("a1a6")
    pos.push_uci("b7a6")                # forced
    assert pos.outcome() == ff.Outcome("white", "extinction")


def test_losers_king_alone_wins(losers):
    pos = losers.position("k7/8/1K6/8/8/8/8/R7 b - - 0 1")
    assert pos.outcome() == ff.Outcome("black", "extinction")


def test_losing_all_rooks_wins(tmp_path_factory, sf):
    game = load_text(tmp_path_factory, "kamikaze", KAMIKAZE)
    pos = game.position("3rk3/8/8/8/8/8/8/3RK3 w - - 0 1")
    pos.push_uci("d1d8")                # White's last rook takes Black's: Black has none
    assert pos.outcome() == ff.Outcome("black", "extinction")
    sf.load_variant_config(KAMIKAZE_FSF)
    fen = "r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w KQkq - 0 1"
    reasons = playouts_match(sf, game, "kamikaze", fen, 300, "kamikaze", plies=80)
    assert sum(reasons.values()) >= 1


def test_a_royal_piece_cannot_be_given_away(tmp_path):
    message = definition_error(tmp_path, "variant bad extends chess\nwin by losing all of king, quen\n")
    text = message
    assert "bad.variant:2:" in text and "'king' is royal" in text
    assert "unknown piece 'quen' (did you mean 'queen'?)" in text


# -- results without a legal move ---------------------------------------------------------

def test_antichess_stalemate_wins(antichess, sf):
    fen = "8/8/8/8/8/p7/P7/8 w - - 0 1"
    assert antichess.position(fen).outcome() == ff.Outcome("white", "stalemate")
    assert sf.game_result("antichess", fen, []) > 0


@pytest.mark.parametrize("fen, winner", [
    ("8/8/8/8/8/p7/P7/8 w - - 0 1", None),                 # as many pieces: a draw
    ("8/8/8/8/8/p7/P7/7b w - - 0 1", "white"),             # White has fewer: it wins
    ("8/8/8/8/8/p7/P7/7B b - - 0 1", "black"),             # Black has fewer
    ("8/8/8/8/8/p7/P7/8 b - - 0 1", None),
])
def test_suicide_stalemate_goes_to_fewer_pieces(suicide, fen, winner, sf):
    pos = suicide.position(fen)
    assert pos.legal_moves() == []
    assert pos.outcome() == ff.Outcome(winner, "stalemate")
    assert _winner(pos.turn, sf.game_result("suicide", fen, [])) == winner


def test_losers_checkmate_wins_for_the_mated_side(losers, sf):
    fen = "k7/1Q6/2K5/8/8/8/7p/8 b - - 0 1"
    pos = losers.position(fen)
    assert pos.is_check() and pos.legal_moves() == []
    assert pos.outcome() == ff.Outcome("black", "checkmate")
    assert sf.game_result("losers", fen, []) > 0


def test_losers_check_comes_before_captures(losers, sf):
    # In check with a capture elsewhere: only the moves out of check are legal.
    fen = "4k3/8/8/8/8/8/3p4/R3K2r w - - 0 1"
    pos = losers.position(fen)
    assert sorted(str(m) for m in pos.legal_moves()) == sorted(sf.legal_moves("losers", fen, []))


# -- Fairy-Stockfish's games -----------------------------------------------------------

@pytest.mark.parametrize("variant, fen, depth, nodes", FSF_SUITE)
def test_fsf_suite_rows(variant, fen, depth, nodes):
    game = ff.load(variant)
    pos = game.start() if fen == "startpos" else game.position(fen)
    assert pos.perft(depth) == nodes


@pytest.mark.parametrize("variant", ["antichess", "suicide", "losers"])
def test_random_playouts_match_pyffish(variant, sf):
    game = ff.load(variant)
    reasons = playouts_match(sf, game, variant, sf.start_fen(variant), 400, variant)
    assert sum(reasons.values()) >= 1, reasons     # the playouts did end games


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["antichess", "suicide", "losers"])
def test_long_random_playouts_match_pyffish(variant, sf):
    game = ff.load(variant)
    reasons = playouts_match(sf, game, variant, sf.start_fen(variant), 5000, variant + " long")
    assert sum(reasons.values()) >= 20, reasons


def test_suicide_endgames_match_pyffish(suicide, sf):
    fen = "8/2p1p3/1p6/8/8/5P2/P5P1/8 w - - 0 1"
    reasons = playouts_match(sf, suicide, "suicide", fen, 300, "suicide endgames")
    assert reasons["stalemate"] + reasons["extinction"] >= 5, reasons


def test_losers_endgames_match_pyffish(losers, sf):
    fen = "4k3/2p1p3/1p6/8/8/5P2/P3K1P1/8 w - - 0 1"
    reasons = playouts_match(sf, losers, "losers", fen, 300, "losers endgames")
    assert sum(reasons.values()) >= 5, reasons


# -- the search ----------------------------------------------------------------------------

def test_the_search_gives_away_its_last_piece(antichess):
    from fairyforge.search import think
    pos = antichess.position("8/1p6/8/8/8/8/8/R7 w - - 0 1")
    result = think(pos, depth=4)
    assert str(result.best_move) == "a1a6"          # b7xa6 is forced, and White has nothing
    assert result.info.score > 20000


@pytest.mark.parametrize("fen", ["8/8/8/8/8/8/3p4/Q7 w - - 0 1",      # Qc1 or Qe1: dxc1
                                 "8/8/8/8/8/2p5/8/1B6 b - - 0 1"])    # c2, then Bxc2
def test_the_search_plays_into_a_forced_giveaway(antichess, fen):
    from fairyforge.search import think
    pos = antichess.position(fen)
    side = pos.turn
    result = think(pos, depth=5)
    assert result.info.score > 20000
    for move in result.info.pv:
        pos.push(move)
    assert pos.outcome() == ff.Outcome(side, "extinction")



# -- captures banned by the victim's type (janggi's cannons) -------------------------------

CANNONS = """variant cannons "Cannons"
board 9x10
symmetry mirror
piece king   K K     royal
piece pawn   P fsW
piece rook   R R
piece cannon C pR                      # janggi's cannon hops to move and to capture
no capture of cannon by cannon
setup "r3k4/9/9/9/4c4/9/4P4/9/4C4/3K3R1 w - - 0 1"
"""


@pytest.mark.parametrize("fen", [
    "4k4/9/9/9/4c4/9/4P4/9/4C4/3K5 w - - 0 1",      # over a pawn onto a cannon: banned
    "4k4/9/9/9/4c4/9/4r4/9/4C4/3K5 w - - 0 1",      # over an enemy rook: banned too
    "4k4/9/9/9/4r4/9/4P4/9/4C4/3K5 w - - 0 1",      # onto a rook: allowed
])
def test_a_cannon_may_not_capture_a_cannon(tmp_path_factory, sf, fen):
    game = load_text(tmp_path_factory, "cannons", CANNONS)
    pos = game.position(fen)
    ours = sorted(str(m) for m in pos.legal_moves() if str(m).startswith("e2"))
    # pyffish's janggi cannon has the same ban (and its other moves differ: compare
    # the cannon's moves only).
    assert ours == sorted(m for m in sf.legal_moves("janggi", fen, []) if m.startswith("e2"))
    if "e2e6" not in ours:
        with pytest.raises(IllegalMoveError, match="forbids this piece to take that one"):
            pos.push_uci("e2e6")


def test_a_royal_capture_cannot_be_banned(tmp_path):
    path = tmp_path / "bad.variant"
    path.write_text("variant bad extends chess\nno capture of king by queen\n")
    with pytest.raises(DefinitionError, match=r"bad.variant:2:.*'king' is royal"):
        ff.load(str(path))
