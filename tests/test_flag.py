"""`win by PIECES reaching REGION [, black may reply]` (compiler/rules/flag.py) and
`no checks` (compiler/rules/checks.py).

Position tests from the rules' wording, and Fairy-Stockfish as the oracle: the bundled
kingofthehill and racingkings against pyffish's built-in games of the same names, and
a variants.ini configuration for a goal reached by a queen (flagPiece = q), on random
playouts that compare every legal move list and every game end.  The perft rows are
Fairy-Stockfish's own suite (shared/perft/fsf_suite.tsv, copied here).
"""

import pytest

import fairyforge as ff
from conftest import definition_error
from fairyforge.errors import IllegalMoveError
from fsf_playouts import compare_playouts, load_text

REACHED = "goal reached"

# Rows of Fairy-Stockfish's perft suite: (variant, FEN, depth, nodes).
FSF_SUITE = [
    ("kingofthehill", "rnb2b1r/ppp2ppp/3k4/8/1PKp1pn1/3Pq3/PBP1P2P/RN1Q1B1R w - - 4 12",
     3, 19003),
    ("racingkings", "startpos", 4, 296242),
    ("racingkings", "6r1/2K5/5k2/8/3R4/8/8/8 w - - 0 1", 4, 86041),
    ("racingkings", "6R1/2k5/5K2/8/3r4/8/8/8 b - - 0 1", 4, 86009),
    ("racingkings", "4brn1/2K2k2/8/8/8/8/8/8 w - - 0 1", 6, 265932),
]
CI_NODES = 100_000      # rows up to this many nodes run in CI, the others with --runslow

# A goal for a queen, relative to each side (White's rank 8, Black's rank 1).
QUEEN_RACE = """variant queenrace extends chess
win by queen reaching last_rank
"""
QUEEN_RACE_FSF = """[queenrace:chess]
flagPiece = q
flagRegionWhite = *8
flagRegionBlack = *1
"""
# Pawns far advanced, so that playouts promote and reach the goal often.
QUEEN_RACE_FEN = "r6k/1P6/8/3Q4/8/3q4/6p1/K5R1 w - - 0 1"


def _row_params():
    return [_row_param(*row) for row in FSF_SUITE]


def _row_param(variant, fen, depth, nodes):
    marks = [pytest.mark.slow] if nodes > CI_NODES else []
    return pytest.param(variant, fen, depth, nodes, marks=marks, id=f"{variant}-{depth}-{nodes}")


@pytest.mark.parametrize("variant, fen, depth, nodes", _row_params())
def test_fsf_perft_suite(variant, fen, depth, nodes):
    game = ff.load(variant)
    pos = game.start() if fen == "startpos" else game.position(fen)
    assert pos.perft(depth) == nodes


@pytest.fixture(scope="module")
def hill():
    return ff.load("kingofthehill")


@pytest.fixture(scope="module")
def racing():
    return ff.load("racingkings")


@pytest.fixture(scope="module")
def queen_race(tmp_path_factory):
    return load_text(tmp_path_factory, "queenrace", QUEEN_RACE)


def test_a_king_on_the_hill_has_won(hill):
    pos = hill.position("4k3/8/8/8/4K3/8/8/8 b - - 0 1")
    assert pos.outcome() == ff.Outcome("white", "goal reached")
    assert pos.legal_moves() == [] and pos.perft(2) == 0


def test_stepping_onto_the_hill_wins(hill):
    pos = hill.position("4k3/8/8/8/8/4K3/8/8 w - - 0 1")
    assert pos.outcome() is None
    pos.push_uci("e3d4")
    assert pos.outcome() == ff.Outcome("white", "goal reached")


def test_the_engine_climbs_the_hill(hill):
    from fairyforge.search import think
    pos = hill.position("r3k3/8/8/8/8/4K3/8/8 w - - 0 1")
    assert str(think(pos, depth=2).best_move) in {"e3d4", "e3e4"}


def test_a_move_that_gives_check_is_refused(racing):
    pos = racing.position("8/8/8/8/8/1k6/8/K5R1 w - - 0 1")
    with pytest.raises(IllegalMoveError, match="checks are not allowed"):
        pos.push_uci("g1g3")
    assert "g1b1" not in {str(m) for m in pos.legal_moves()}


def test_black_may_reply_to_draw(racing):
    pos = racing.position("8/2K3k1/8/8/8/8/8/8 w - - 0 1")
    pos.push_uci("c7c8")
    assert pos.outcome() is None          # Black can still reach the eighth rank
    assert len(pos.legal_moves()) > 1     # and may play any move
    pos.push_uci("g7g8")
    assert pos.outcome() == ff.Outcome(None, "goal reached")


def test_black_missing_the_reply_loses(racing):
    pos = racing.position("8/2K3k1/8/8/8/8/8/8 w - - 0 1")
    pos.push_uci("c7c8")
    pos.push_uci("g7g6")
    assert pos.outcome() == ff.Outcome("white", "goal reached")


def test_no_reply_when_black_cannot_arrive(racing):
    pos = racing.position("8/2K5/8/6k1/8/8/8/8 w - - 0 1")
    pos.push_uci("c7c8")
    assert pos.outcome() == ff.Outcome("white", "goal reached")


def test_black_arriving_first_wins_at_once(racing):
    pos = racing.position("8/2k3K1/8/8/8/8/8/8 b - - 0 1")
    pos.push_uci("c7c8")
    assert pos.outcome() == ff.Outcome("black", "goal reached")


def test_the_rules_reach_the_generated_engine(racing):
    with open(racing.source_path) as handle:
        source = handle.read()
    assert "cdef bint flag_reply_possible(" in source and "return GIVES_CHECK" in source


@pytest.mark.parametrize("text, message", [
    ("win by kng reaching last_rank", "2:8: error: unknown piece 'kng' (did you mean 'king'?)"),
    ("win by king reaching lst_rank", "2:22: error: unknown region 'lst_rank'"),
    ("win by king reaching rank 9", "2:27: error: rank 9 is off the board"),
    ("win by king reaching e4 except e4", "2:8: error: the goal region has no square for white"),
])
def test_bad_goals_are_named(tmp_path, text, message):
    message = definition_error(tmp_path, f"variant bad extends chess\n{text}\n")
    assert message in message
    assert message.count("error:") == 1


def test_a_misspelt_reply_is_a_syntax_error(tmp_path):
    message = definition_error(tmp_path, "variant bad extends chess\nwin by king reaching rank 8, blak may reply\n")
    assert "bad.variant:2:" in message


def _king_square(fen, turn):
    """(file, rank) of the side to move's king in a FEN."""
    letter = "K" if turn == "white" else "k"
    for rank, row in enumerate(reversed(fen.split()[0].split("/"))):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
                continue
            if char == letter:
                return file, rank
            file += 1
    return None


def toward(goal):
    """A move chooser's preference: king moves that come nearer to the goal squares."""
    def distance(square):
        return min(max(abs(square[0] - f), abs(square[1] - r)) for f, r in goal)

    def preferred(pos, moves):
        king = _king_square(pos.fen(), pos.turn)
        if king is None:
            return []
        name = "abcdefgh"[king[0]] + str(king[1] + 1)
        return [m for m in moves if m.startswith(name) and
                distance(("abcdefgh".index(m[2]), int(m[3]) - 1)) < distance(king)]
    return preferred


HILL = [(3, 3), (3, 4), (4, 3), (4, 4)]
EIGHTH_RANK = [(f, 7) for f in range(8)]


# (bundled game, start FEN or None for its own start, goal, endings at least)
BUILT_INS = [
    ("kingofthehill", None, HILL, 3),
    ("racingkings", None, EIGHTH_RANK, 3),
    ("racingkings", "8/8/2K2k2/8/8/8/3r4/2R5 w - - 0 1", EIGHTH_RANK, 5),
]


@pytest.mark.parametrize("name, fen, goal, endings", BUILT_INS)
def test_built_in_games_match_pyffish(name, fen, goal, endings):
    """The bundled game against pyffish's built-in game of the same name."""
    sf = pytest.importorskip("pyffish")
    game = ff.load(name)
    assert game.start().fen() == sf.start_fen(name)
    fen = fen or sf.start_fen(name)
    assert compare_playouts(sf, game, name, fen, 300, f"{name} {fen}", REACHED,
                            toward(goal)) >= endings


def test_a_queen_goal_matches_pyffish(queen_race):
    sf = pytest.importorskip("pyffish")
    sf.load_variant_config(QUEEN_RACE_FSF)
    assert compare_playouts(sf, queen_race, "queenrace", QUEEN_RACE_FEN, 300, "queen",
                            REACHED) >= 5
