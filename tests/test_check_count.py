"""`win by N checks` (compiler/rules/check_count.py): three-check and five-check.

Position tests from the rule's wording (the N-th check wins, a discovered check and a
castling check count, the counters come back on pop and are part of the position's
key), the FEN field in both of Fairy-Stockfish's forms and its errors, and
Fairy-Stockfish as the oracle: the perft rows of its own suite
(shared/perft/fsf_suite.tsv, copied here) and random playouts against pyffish's
built-in 3check and 5check, and against variants.ini's 3check-crazyhouse, comparing
every legal move list, game end and FEN.
"""

import pytest

import fairyforge as ff
from conftest import definition_error
from fairyforge.errors import FenError
from fsf_playouts import compare_playouts

CHECKS = "checks"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"

# Rows of Fairy-Stockfish's perft suite for 3check: (FEN, depth, nodes).
FSF_SUITE = [
    ("7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1+3 1 39", 3, 12407),
    ("7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1 39 +2+0", 3, 12407),
]

THREE_CHECK_HOUSE_FSF = """[3check-crazyhouse:crazyhouse]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 3+3 0 1
checkCounting = true
"""


@pytest.fixture(scope="module")
def three():
    return ff.load("3check")


@pytest.fixture(scope="module")
def five():
    return ff.load("5check")


@pytest.mark.parametrize("fen, depth, nodes", FSF_SUITE)
def test_fsf_perft_suite(three, fen, depth, nodes):
    assert three.position(fen).perft(depth) == nodes


def test_the_third_check_wins(three):
    pos = three.position("4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1")
    pos.push_uci("a1a8")
    assert pos.outcome() == ff.Outcome("white", CHECKS)
    assert pos.legal_moves() == [] and pos.perft(2) == 0
    assert pos.fen() == "R3k3/8/8/8/8/8/8/4K3 b - - 0+3 1 1"


def test_a_check_before_the_last_does_not_end_the_game(three):
    pos = three.position("4k3/8/8/8/8/8/8/R3K3 w - - 2+3 0 1")
    pos.push_uci("a1a8")
    assert pos.outcome() is None and pos.fen().split()[4] == "1+3"


def test_a_quiet_move_costs_no_check(three):
    pos = three.position(START)
    pos.push_uci("e2e4")
    assert pos.fen().split()[4] == "3+3"


def test_a_discovered_check_counts(three):
    # The knight leaves the e-file and uncovers the rook's check.
    pos = three.position("4k3/8/8/8/4N3/8/8/4RK2 w - - 3+3 0 1")
    pos.push_uci("e4c5")
    assert pos.is_check() and pos.fen().split()[4] == "2+3"


def test_a_castling_check_counts(three):
    pos = three.position("5k2/8/8/8/8/8/8/4K2R w K - 3+3 0 1")
    pos.push_uci("e1g1")
    assert pos.is_check() and pos.fen().split()[4] == "2+3"


def test_black_checks_are_counted_for_black(five):
    pos = five.position("4k3/r7/8/8/8/8/8/4K3 b - - 5+5 0 1")
    pos.push_uci("a7a1")
    pos.push_uci("e1e2")
    pos.push_uci("a1a2")
    assert pos.fen().split()[4] == "5+3"


def test_counters_come_back_on_pop(three):
    pos = three.position("4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1")
    before, key = pos.fen(), pos.engine.key()
    pos.push_uci("a1a8")
    pos.pop()
    assert pos.fen() == before and pos.engine.key() == key
    assert pos.outcome() is None and len(pos.legal_moves()) > 0


def test_the_counters_are_part_of_the_key(three):
    """Equal boards with different counts are different positions for repetition and
    the transposition table."""
    board = "4k3/8/8/8/8/8/8/R3K3 w - - {} 0 1"
    keys = {three.position(board.format(c)).engine.key() for c in ("3+3", "2+3", "3+2")}
    assert len(keys) == 3
    pos = three.position(board.format("3+3"))
    for move in ("a1a8", "e8e7", "a8a1", "e7e8"):        # back to the board, one check less
        pos.push_uci(move)
    assert pos.engine.key() == three.position(board.format("2+3")).engine.key()


def test_the_engine_gives_the_winning_check(three):
    from fairyforge.search import think
    pos = three.position("r3k3/8/8/8/8/8/8/4K2R w - - 1+1 0 1")
    assert str(think(pos, depth=2).best_move) in {"h1h8", "h1e1"}


def test_the_engine_stops_the_losing_check(three):
    """Black threatens its last check, Ra1; White must block the a-file or the first
    rank, or lose at once."""
    from fairyforge.search import think
    pos = three.position("r5k1/8/8/8/3R4/8/5PPP/6K1 w - - 3+1 0 1")
    best = str(think(pos, depth=3).best_move)
    pos.push_uci(best)
    assert not any(_gives_check(pos, str(m)) for m in pos.legal_moves()), best


def _gives_check(pos, move):
    pos.push_uci(move)
    try:
        return pos.is_check()
    finally:
        pos.pop()


@pytest.mark.parametrize("fen, written", [
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +2+0", "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1"),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +0+1", "4k3/8/8/8/8/8/8/R3K3 w - - 3+2 0 1"),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1"),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 2+1", "4k3/8/8/8/8/8/8/R3K3 w - - 2+1 0 1"),
])
def test_both_fen_forms_are_read(three, fen, written):
    pos = three.position(fen)
    assert pos.fen() == written
    assert three.position(pos.fen()).fen() == written


@pytest.mark.parametrize("game, fen, message", [
    ("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1", "Chess does not count checks"),
    ("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +1+0", "Chess does not count checks"),
    ("3check", "4k3/8/8/8/8/8/8/R3K3 w - - 4+3 0 1", "white has 4 checks still to give"),
    ("3check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +0+5", "black has 5 checks given"),
    ("3check", "4k3/8/8/8/8/8/8/R3K3 w - - 0+3 0 1", "white has given all 3 checks"),
    ("3check", "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1 +0+0", "given twice"),
    ("3check", "4k3/8/8/8/8/8/8/R3K3 w - - 3+x 0 1", "'3+x' must be the checks"),
    ("3check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +2", "'+2' must be the checks"),
])
def test_bad_counters_are_named(game, fen, message):
    with pytest.raises(FenError) as err:
        ff.load(game).position(fen)
    assert err.value.field == "check counters" and message in str(err.value)


@pytest.mark.parametrize("text, message", [
    ("win by 0 checks", "2:8: error: win by 0 checks: the number of checks must be "
                        "between 1 and 99"),
    ("win by 100 checks", "2:8: error: win by 100 checks"),
    ("win by three checks", "bad.variant:2:"),
])
def test_bad_counts_are_named(tmp_path, text, message):
    message = definition_error(tmp_path, f"variant bad extends chess\n{text}\n")
    assert message in message


def test_one_check_is_written_in_the_singular(tmp_path):
    path = tmp_path / "onecheck.variant"
    path.write_text("variant onecheck extends chess\nwin by 1 check\n")
    pos = ff.load(str(path)).start()
    assert pos.fen().split()[4] == "1+1"


def checks_first(pos, moves):
    """A preference for moves that give check, so that playouts reach the N-th."""
    return [m for m in moves if _gives_check(pos, m)]


@pytest.mark.parametrize("name, endings", [("3check", 10), ("5check", 5)])
def test_built_in_games_match_pyffish(name, endings):
    sf = pytest.importorskip("pyffish")
    game = ff.load(name)
    assert game.start().fen() == sf.start_fen(name)
    assert compare_playouts(sf, game, name, sf.start_fen(name), 300, name, CHECKS,
                            checks_first, fen_too=True) >= endings


def test_three_check_crazyhouse_matches_pyffish():
    sf = pytest.importorskip("pyffish")
    sf.load_variant_config(THREE_CHECK_HOUSE_FSF)
    game = ff.load("3check-crazyhouse")
    fen = sf.start_fen("3check-crazyhouse")
    assert game.start().fen() == fen
    assert compare_playouts(sf, game, "3check-crazyhouse", fen, 300, "house", CHECKS,
                            checks_first, fen_too=True) >= 10
