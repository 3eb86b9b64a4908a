"""`bare king loses [, unless bared back]` (compiler/rules/bare_king.py).

Position tests from the rule's wording, and Fairy-Stockfish as the oracle: the bundled
shatranj against pyffish's built-in shatranj (`unless bared back`: FSF's
extinctionClaim), and chess with a bare-king rule against the same rule in variants.ini
form, on random playouts that capture often.
"""

import pytest

import fairyforge as ff
from conftest import definition_error
from fsf_playouts import captures_first, compare_playouts, load_text

BARE = "bare king"

BARE_CHESS = """variant barechess extends chess
bare king loses
"""
BARE_CHESS_FSF = """[barechess:chess]
extinctionValue = loss
extinctionPieceTypes = *
extinctionPieceCount = 1
extinctionOpponentPieceCount = 2
"""
# Few pieces, so that playouts bare a king often.
BARE_CHESS_FEN = "4k3/3p4/2n5/8/8/5N2/3P4/4K3 w - - 0 1"
SHATRANJ_FEN = "3k4/3p4/2n1r3/8/8/4Q3/3P1R2/4K3 w - - 0 1"

# Fairy-Stockfish's perft suite (shared/perft/fsf_suite.tsv).
SHATRANJ_PERFT = ("startpos", 4, 68122)


@pytest.fixture(scope="module")
def shatranj():
    return ff.load("shatranj")


@pytest.fixture(scope="module")
def bare_chess(tmp_path_factory):
    return load_text(tmp_path_factory, "barechess", BARE_CHESS)


def test_shatranj_perft_matches_fsf_suite(shatranj):
    _, depth, nodes = SHATRANJ_PERFT
    assert shatranj.start().perft(depth) == nodes


def test_a_bare_king_loses(bare_chess):
    pos = bare_chess.position("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")
    assert pos.outcome() == ff.Outcome("white", "bare king")
    assert pos.legal_moves() == [] and pos.perft(2) == 0


def test_baring_the_other_king_wins(bare_chess):
    pos = bare_chess.position("4k3/8/8/8/8/3n4/8/3QK3 w - - 0 1")
    pos.push_uci("d1d3")
    assert pos.outcome() == ff.Outcome("white", "bare king")


def test_two_bare_kings_play_on(bare_chess):
    assert bare_chess.position("4k3/8/8/8/8/8/8/4K3 w - - 0 1").outcome() is None


def test_bared_back_gives_one_reply(shatranj):
    pos = shatranj.position("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")
    assert pos.outcome() is None                  # Black may take the ferz back ...
    pos = shatranj.position("4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1")
    pos.push_uci("e8e7")                          # ... but if it does not, it loses
    assert pos.outcome() == ff.Outcome("white", "bare king")
    pos = shatranj.position("4k3/8/8/8/8/8/8/2RQK3 b - - 0 1")
    assert pos.outcome() == ff.Outcome("white", "bare king")   # no reply can save it


def test_the_rule_needs_a_king(tmp_path):
    message = definition_error(tmp_path, 'variant bad\nboard 4x4\npiece rook R R\nbare king loses\n'
                    'setup "r3/4/4/R3 w - - 0 1"\n')
    assert "bad.variant:4:1: error: `bare king loses` needs a royal piece" in message


def test_a_misspelt_option_is_a_syntax_error(tmp_path):
    message = definition_error(tmp_path, "variant bad extends chess\nbare king loses, unless bared bak\n")
    assert "bad.variant:2:" in message


def test_shatranj_matches_pyffish(shatranj):
    sf = pytest.importorskip("pyffish")
    assert shatranj.start().fen() == sf.start_fen("shatranj")
    assert compare_playouts(sf, shatranj, "shatranj", SHATRANJ_FEN, 300, "shatranj",
                            BARE, captures_first(sf, "shatranj", SHATRANJ_FEN)) >= 3
    start = sf.start_fen("shatranj")
    compare_playouts(sf, shatranj, "shatranj", start, 200, "shatranj start", BARE)


def test_bare_king_matches_pyffish(bare_chess):
    sf = pytest.importorskip("pyffish")
    sf.load_variant_config(BARE_CHESS_FSF)
    assert compare_playouts(sf, bare_chess, "barechess", BARE_CHESS_FEN, 300, "bare",
                            BARE, captures_first(sf, "barechess", BARE_CHESS_FEN)) >= 5


def test_no_bare_king_takes_the_rule_back():
    chaturanga = ff.load("chaturanga")
    assert chaturanga.variant.bare_king == "" and ff.load("shatranj").variant.bare_king
    assert chaturanga.position("4k3/8/8/8/8/8/8/2RQK3 w - - 0 1").outcome() is None


def test_chaturanga_matches_pyffish():
    sf = pytest.importorskip("pyffish")
    chaturanga = ff.load("chaturanga")
    fen = sf.start_fen("chaturanga")
    assert chaturanga.start().fen() == fen

    def count(moves, depth):
        legal = sf.legal_moves("chaturanga", fen, moves)
        return len(legal) if depth == 1 else sum(count(moves + [m], depth - 1) for m in legal)

    assert chaturanga.start().perft(3) == count([], 3)
    # No bare-king endings: pyffish ends none of these games early, and neither do we.
    assert compare_playouts(sf, chaturanga, "chaturanga", SHATRANJ_FEN, 200, "chaturanga",
                            BARE, captures_first(sf, "chaturanga", SHATRANJ_FEN)) == 0
