"""`counting makruk|asean with PAWN, ROOK, KHON, KNIGHT` (compiler/rules/counting.py):
makruk's and ASEAN chess's counting rules.

Position tests from Fairy-Stockfish's rule (the pieces' honour by what the strong side
has, the board's honour, the draw past the limit, checkmate first), the FEN fields in
Fairy-Stockfish's form and their errors, and Fairy-Stockfish as the oracle: the perft
rows of its own suite (shared/perft/fsf_suite.tsv, copied here) and random playouts
against pyffish's built-in makruk and asean that compare every legal move list, FEN
and optional game end (counting, repetition and move rule draws).
"""

import pytest

import fairyforge as ff
from conftest import definition_error
from fairyforge.errors import FenError
from fsf_playouts import compare_playouts

# Rows of Fairy-Stockfish's perft suite: (variant, FEN, depth, nodes).
FSF_SUITE = [("makruk", "startpos", 4, 273026), ("asean", "startpos", 4, 273026)]

# Playout starts: the start positions, and endings that count at once.
# (variant, FEN or None for the start, positions, counting draws reached at least)
PLAYOUTS = [
    ("makruk", None, 300, 5),
    ("makruk", "8/8/2k5/8/8/2N5/4R3/4K3 w - - 0 1", 300, 100),      # pieces' honour
    ("makruk", "4k3/3s4/8/1p6/8/2S5/3R4/4K3 w - - 0 1", 300, 50),    # the last pawn goes
    ("makruk", "4k3/2r5/8/8/8/8/3R4/3MK3 w - - 0 1", 300, 50),       # board's honour
    ("asean", None, 300, 0),
    ("asean", "8/8/2k5/8/8/2B5/4R3/4K3 w - - 0 1", 300, 50),
]


@pytest.fixture(scope="module")
def makruk():
    return ff.load("makruk")


@pytest.mark.parametrize("variant, fen, depth, nodes", FSF_SUITE)
def test_fsf_perft_suite(variant, fen, depth, nodes):
    game = ff.load(variant)
    pos = game.start() if fen == "startpos" else game.position(fen)
    assert pos.perft(depth) == nodes


def _fields(pos):
    """The counting limit and plies counted (FEN fields 4 and 5)."""
    fields = pos.fen().split()
    return fields[3], fields[4]


def test_no_count_while_pawns_are_left(makruk):
    pos = makruk.position("4k3/8/8/1p6/8/8/3R4/4K3 w - - 0 1")
    pos.push_uci("d2d3")
    assert _fields(pos) == ("-", "1")


@pytest.mark.parametrize("fen, move, limit", [
    ("4k3/8/8/8/8/8/3R4/R3K3 w - - 0 1", "e1f1", "16"),       # two rooks: 8 moves
    ("4k3/8/8/8/8/8/3R4/4K3 w - - 0 1", "e1f1", "32"),        # a rook: 16
    ("4k3/8/8/8/8/8/3S4/S3K3 w - - 0 1", "e1f1", "44"),       # two khons: 22
    ("4k3/8/8/8/8/8/3N4/N3K3 w - - 0 1", "e1f1", "64"),       # two knights: 32
    ("4k3/8/8/8/8/8/3S4/4K3 w - - 0 1", "e1f1", "88"),        # a khon: 44
    ("4k3/8/8/8/8/8/3M4/4K3 w - - 0 1", "e1f1", "128"),       # else: 64
])
def test_the_pieces_honour_depends_on_the_strong_side(makruk, fen, move, limit):
    pos = makruk.position(fen)
    pos.push_uci(move)
    pieces = sum(c.isalpha() for c in fen.split()[0])
    assert _fields(pos) == (limit, str(2 * pieces))


def test_the_board_honour(makruk):
    pos = makruk.position("4k3/2r5/8/8/8/8/3R4/3MK3 w - - 0 1")
    pos.push_uci("e1f1")
    assert _fields(pos) == ("128", "0")       # Black, behind, counts 64 moves from 0


def test_the_limit_passed_is_a_draw(makruk):
    pos = makruk.position("8/8/8/3k4/8/8/8/R2K4 b - 32 32 40")
    assert pos.outcome() is None and pos.legal_moves()
    pos.push_uci("d5c5")
    assert pos.outcome() == ff.Outcome(None, "counting")
    assert pos.legal_moves()                  # a draw that takes no move away
    pos.pop()
    assert pos.outcome() is None and _fields(pos) == ("32", "32")


def test_checkmate_comes_before_the_count(makruk):
    pos = makruk.position("3k4/8/3K4/8/8/8/8/R7 w - 32 32 40")
    pos.push_uci("a1a8")
    assert pos.outcome() == ff.Outcome("white", "checkmate")


def test_the_search_sees_the_draw(makruk):
    from fairyforge.search import think
    drawn = makruk.position("8/8/8/3k4/8/8/8/R2K4 b - 32 32 40")
    counting = makruk.position("8/8/8/3k4/8/8/8/R2K4 b - 32 8 40")
    assert abs(think(drawn, depth=2).info.score) < 100      # the rook's worth is gone
    assert think(counting, depth=2).info.score < -300


@pytest.mark.parametrize("game, fen, message", [
    ("chess", "4k3/8/8/8/8/8/8/R3K3 w - 32 3 40", "Chess has no counting rule"),
    ("makruk", "4k3/8/8/8/8/8/8/R3K3 w - 30 3 40", "30 is not a limit of makruk counting"),
    ("asean", "4k3/8/8/8/8/8/8/R3K3 w - 16 3 40", "16 is not a limit of asean counting"),
    ("makruk", "4k3/8/8/8/8/8/8/R3K3 w - 32 30001 40", "at most 30000"),
])
def test_bad_counting_fields_are_named(game, fen, message):
    with pytest.raises(FenError) as err:
        ff.load(game).position(fen)
    assert err.value.field == "counting" and message in str(err.value)


@pytest.mark.parametrize("text, message", [
    ("counting makruk with pawn, rook", "counting names 4 pieces"),
    ("counting makruk with pawn, rook, bishop, kinght", "unknown piece 'kinght'"),
    ("counting thai with pawn, rook, bishop, knight", "bad.variant:2:"),
])
def test_bad_counting_statements_are_named(tmp_path, text, message):
    assert message in definition_error(tmp_path, f"variant bad extends chess\n{text}\n")


def optional_end_matches(sf, variant, fen, seen):
    """Our draws by counting, repetition and the move rule against pyffish's optional
    game end; `seen` counts our outcomes by reason."""
    def check(pos, moves):
        ended, value = sf.is_optional_game_end(variant, fen, moves)
        outcome = pos.outcome()
        reason = outcome.reason if outcome is not None else None
        seen[reason] = seen.get(reason, 0) + 1
        if reason in ("checkmate", "stalemate"):
            return
        ours = reason in ("counting", "repetition", "move rule")
        assert ours == ended and (not ended or value == 0), (moves, outcome)
    return check


def captures_first(pos, moves):
    """A preference for captures, so that pawns go and counting starts."""
    return [str(m) for m in pos.legal_moves() if m.capture is not None]


@pytest.mark.parametrize("variant, fen, count, draws", PLAYOUTS)
def test_playouts_match_pyffish(variant, fen, count, draws):
    sf = pytest.importorskip("pyffish")
    game = ff.load(variant)
    if fen is None:
        assert game.start().fen() == sf.start_fen(variant)
        fen = sf.start_fen(variant)
    seen = {}
    compare_playouts(sf, game, variant, fen, count, f"{variant} {fen}", "(none)",
                     captures_first, plies=300, fen_too=True,
                     also=optional_end_matches(sf, variant, fen, seen))
    assert seen.get("counting", 0) >= draws, seen
