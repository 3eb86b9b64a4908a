"""Janggi's rules (definitions/janggi*.variant): `move … along` (the palace diagonals),
`no hop over` (the cannon's screens), `passing allowed`, `facing kings end the game`
(bikjang) and `points` (janggi's material counting).

Position tests from the rules' wording, and pyffish as the oracle: legal move lists in
chosen positions, and random playouts that prefer passes and facing kings, so that the
double-pass and bikjang ends are met and compared (winner and all).  The catalog test
(tests/test_fsf_catalog.py) adds the plain playouts and FSF's three janggi perft rows.
"""

import random

import pytest

import fairyforge as ff
from fairyforge.errors import DefinitionError, IllegalMoveError
from fsf_playouts import compare_position

sf = pytest.importorskip("pyffish")

EMPTY_PALACES = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"


def _moves(pos):
    return sorted(str(m) for m in pos.legal_moves())


def _refused(tmp_path, name, text, pattern):
    """Loading the definition `text` fails with an error matching `pattern`."""
    path = tmp_path / f"{name}.variant"
    path.write_text(text)
    with pytest.raises(DefinitionError, match=pattern):
        ff.load(str(path))


def _same_as_fsf(games, variant, fen, moves=()):
    pos = games[variant].position(fen)
    for move in moves:
        pos.push_uci(move)
    compare_position(sf, variant, fen, list(moves), pos)
    return pos


# -- move … along: the palace diagonals --------------------------------------------------

def test_chariot_rides_the_diagonal_line_and_stops_at_the_palace(games):
    pos = _same_as_fsf(games, "janggi", "4k4/9/9/9/9/9/9/9/4K4/3R5 w - - 0 1")
    moves = _moves(pos)
    assert "d1e2" not in moves                  # the king stands there
    pos = _same_as_fsf(games, "janggi", "9/4k4/9/9/9/9/9/9/9/3R1K3 w - - 0 1")
    assert {"d1e2", "d1f3"} <= set(_moves(pos))
    assert "d1g4" not in _moves(pos)            # the line ends with the palace


def test_no_diagonal_from_a_square_off_the_lines(games):
    pos = _same_as_fsf(games, "janggi", "9/4k4/9/9/9/9/9/9/3R5/5K3 w - - 0 1")
    assert all(m[2] == "d" or m[3:] == "2" for m in _moves(pos) if m.startswith("d2"))


def test_soldier_steps_forward_along_the_enemy_palace_line(games):
    pos = _same_as_fsf(games, "janggi", "5k3/9/3P5/9/9/9/9/9/9/4K4 w - - 0 1")
    assert "d8e9" in _moves(pos)
    pos = _same_as_fsf(games, "janggi", "9/4P4/5k3/9/9/9/9/9/9/4K4 w - - 0 1")
    assert {"e9d10", "e9f10"} <= set(_moves(pos))


# -- no hop over: the cannon's screens --------------------------------------------------

def test_cannon_never_jumps_a_cannon(games):
    pos = _same_as_fsf(games, "janggi", "4k4/9/9/9/9/9/9/4C4/9/4CK3 w - - 0 1")
    assert not any(m.startswith("e1e") for m in _moves(pos))
    pos = _same_as_fsf(games, "janggi", "5k3/9/9/9/9/9/4P4/9/9/3KC4 w - - 0 1")
    assert "e1e10" in _moves(pos)               # a soldier is a screen


def test_cannon_screened_by_a_cannon_gives_no_check(games):
    pos = _same_as_fsf(games, "janggi", "3k5/9/4c4/9/9/9/4C4/9/9/4K4 w - - 0 1")
    assert not pos.is_check()
    pos = _same_as_fsf(games, "janggi", "3k5/9/4c4/9/9/9/4P4/9/9/4K4 w - - 0 1")
    assert pos.is_check()


def test_cannon_may_not_take_a_cannon(games):
    pos = _same_as_fsf(games, "janggi", "4k4/9/4c4/9/9/4P4/9/9/4C4/3K5 w - - 0 1")
    assert "e2e8" not in _moves(pos)


def test_no_hop_over_names_hoppers_only(tmp_path):
    _refused(tmp_path, "bad", "variant bad extends janggicasual\nno hop over cannon by chariot\n",
             r"bad.variant:2:\d+:.*'chariot' never hops")


# -- passing ---------------------------------------------------------------------------

def test_the_pass_is_the_kings_null_move(games):
    pos = games["janggi"].start()
    passes = [m for m in pos.legal_moves() if m.is_pass]
    assert [str(m) for m in passes] == ["e2e2"]
    assert pos.san("e2e2") == sf.get_san("janggi", pos.fen(), "e2e2") == "Ke2"
    pos.push_uci("e2e2")
    assert pos.fen() == sf.get_fen("janggi", sf.start_fen("janggi"), ["e2e2"])
    assert pos.outcome() is None
    pos.pop()
    assert pos.fen() == sf.start_fen("janggi")


def test_no_pass_in_check(games):
    fen = "4k4/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1"
    pos = _same_as_fsf(games, "janggicasual", fen)
    assert pos.is_check() and "d1d1" not in _moves(pos)
    with pytest.raises(IllegalMoveError, match="attacked"):
        pos.push_uci("d1d1")


def test_two_passes_end_the_game(games):
    start = sf.start_fen("janggicasual")
    pos = _same_as_fsf(games, "janggicasual", start, ["e2e2", "e9e9"])
    assert pos.outcome() == ff.Outcome(None, "double pass")
    assert not pos.legal_moves()
    # On points: 72 each, and Black's 1.5 wins.
    pos = _same_as_fsf(games, "janggi", start, ["e2e2", "e9e9"])
    assert pos.outcome() == ff.Outcome("black", "double pass")


def test_the_search_never_answers_with_an_illegal_pass(games):
    pos = games["janggicasual"].position("4k4/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1")
    for depth in (1, 2, 3):
        best = pos.engine.search_depth(depth)[1]
        assert best in {m.code for m in pos.legal_moves()}


def test_passing_needs_a_royal_piece(tmp_path):
    _refused(tmp_path, "noking", 'variant noking\nboard 3x3\npiece rook R R\npassing allowed\n'
             'setup "r2/3/2R w - - 0 1"\n', r"noking.variant:4:.*needs a royal piece")


# -- facing kings (bikjang) and points -----------------------------------------------------

BIKJANG = "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1"      # the advisor parts the kings


def test_moving_out_of_the_kings_file_is_refused_when_it_lets_them_face(games):
    pos = games["janggi"].position(BIKJANG)
    pos.push_uci("e2d2")                    # the advisor steps aside: bikjang
    assert _moves(pos) == ["e10d10", "e10e10", "e10f10"]      # part them, or pass
    with pytest.raises(IllegalMoveError, match="face each other"):
        pos.push_uci("e10e9")               # the king stays on the file
    _same_as_fsf(games, "janggi", BIKJANG, ["e2d2"])


def test_a_pass_accepts_facing_kings_and_ends_the_game(games):
    pos = _same_as_fsf(games, "janggi", BIKJANG, ["e2d2", "e10e10"])
    # Points: White's advisor (3) against Black's 1.5: White wins.
    assert pos.outcome() == ff.Outcome("white", "facing kings")
    pos = _same_as_fsf(games, "janggitraditional", BIKJANG, ["e2d2", "e10e10"])
    assert pos.outcome() == ff.Outcome(None, "facing kings")
    pos = _same_as_fsf(games, "janggicasual", BIKJANG, ["e2d2", "e10e10"])
    assert pos.outcome() is None            # facing kings mean nothing here


def test_the_accepting_pass_is_allowed_in_check(games):
    fen = "4k4/9/9/9/9/9/9/5n3/9/4K4 w - - 0 1"   # the horse on f3 checks e1; kings face
    pos = _same_as_fsf(games, "janggi", fen)
    assert pos.is_check() and "e1e1" in _moves(pos)
    pos = _same_as_fsf(games, "janggi", fen, ["e1e1"])
    assert pos.outcome().reason == "facing kings"
    assert "e1e1" not in _moves(games["janggimodern"].position(fen))


def test_points_statement_errors(tmp_path):
    _refused(tmp_path, "badpoints", "variant badpoints extends janggicasual\npoints chariot 1.25\n",
             r"badpoints.variant:2:.*whole or half")


def test_facing_kings_rules_contradict(tmp_path):
    _refused(tmp_path, "both", "variant both extends janggicasual\nno facing kings\n"
             "facing kings end the game\n", r"both.variant:3:.*contradicts")


# -- the ends against pyffish, along playouts that seek them -------------------------------

def _seek_ends(pos, moves):
    """Passes and moves that let the kings face, tried first."""
    return [m for m in moves if m[:len(m) // 2] == m[len(m) // 2:]]


@pytest.mark.parametrize("variant", ["janggi", "janggitraditional", "janggimodern",
                                     "janggicasual"])
def test_playouts_seeking_passes_match_pyffish(games, variant):
    fen = sf.start_fen(variant)
    rng = random.Random(variant)
    game, ends, positions = games[variant], set(), 0
    while positions < 150:
        pos, moves = game.position(fen), []
        for _ in range(80):
            ours = compare_position(sf, variant, fen, moves, pos)
            positions += 1
            if not ours:
                ends.add(pos.outcome().reason)
                break
            preferred = _seek_ends(pos, ours)
            move = rng.choice(preferred if preferred and rng.random() < 0.3 else ours)
            moves.append(move)
            pos.push_uci(move)
    assert "double pass" in ends


def test_uci_reads_and_answers_passes():
    from test_uci_session import Engine
    engine = Engine()
    try:
        engine.send("uci")
        engine.until("uciok")
        engine.ask("setoption name UCI_Variant value janggicasual")
        start = sf.start_fen("janggicasual")
        best = engine.search("position startpos moves e2e2", "go depth 2")[-1].split()[1]
        assert best in sf.legal_moves("janggicasual", start, ["e2e2"])
        check = "4k4/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1"
        best = engine.search(f"position fen {check}", "go depth 3")[-1].split()[1]
        assert best in sf.legal_moves("janggicasual", check, []) and best != "d1d1"
    finally:
        engine.quit()
