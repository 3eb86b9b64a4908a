"""Chess960 castling from the FEN (`chess960 castling`, compiler/rules/chess960.py) and
Fairy-Stockfish's UCI_Chess960 switch (`ff.load(name, chess960=True)`).

The king castles from wherever the FEN puts it on its first rank, `K`/`Q` name the
outermost rook on that side, a file letter the rook on that file; the king ends on the
definition's castling square (g1, c1) and the rook beside it.  Oracle: pyffish with
is960=True (fischerandom is Chess960 by itself).
"""

import random

import pytest

import fairyforge as ff
from fairyforge.errors import FenError, UnknownGameError
from fsf_playouts import compare_position

sf = pytest.importorskip("pyffish")


class Chess960Oracle:
    """pyffish with UCI_Chess960 on: every position query is asked with is960=True."""

    QUERIES = {"legal_moves", "gives_check", "get_fen", "is_immediate_game_end",
               "game_result", "is_optional_game_end"}

    def __getattr__(self, name):
        query = getattr(sf, name)
        return (lambda *args: query(*args, True)) if name in self.QUERIES else query


SF960 = Chess960Oracle()


def _legal(pos):
    return sorted(str(m) for m in pos.legal_moves())


def _compare(game, variant, fen, moves=()):
    """The position after `moves`, compared with pyffish (moves, check, FEN, end)."""
    pos = game.position(fen)
    for move in moves:
        pos.push_uci(move)
    compare_position(SF960, variant, fen, list(moves), pos)
    return pos


def test_a_king_on_its_destination_castles_without_moving(games):
    fen = "4k3/8/8/8/8/8/8/1R4KR w KQ - 0 1"
    pos = _compare(games["fischerandom"], "fischerandom", fen)
    assert {"g1h1", "g1b1"} <= set(_legal(pos))
    pos = _compare(games["fischerandom"], "fischerandom", fen, ["g1h1"])
    assert pos.fen().startswith("4k3/8/8/8/8/8/8/1R3RK1 b - -")       # only the rook moved


def test_castling_san_goes_by_the_wing_not_the_kings_step(games):
    from fairyforge.san import parse_san, san
    pos = games["fischerandom"].position("4k3/8/8/8/8/8/8/1R4KR w KQ - 0 1")
    castlings = {m.uci: san(pos, m) for m in pos.legal_moves() if m.is_castling}
    assert castlings == {"g1h1": "O-O", "g1b1": "O-O-O"}
    assert str(parse_san(pos, "O-O")) == "g1h1"


@pytest.mark.parametrize("field,written,castles", [
    ("Q", "A", None),                # Q: the outermost rook, a1 (blocked by the c1 rook)
    ("A", "A", None),
    ("C", "C", "e1c1"),              # a file letter: the rook on that file
])
def test_k_and_q_mean_the_outermost_rook_and_letters_a_file(games, field, written, castles):
    fen = f"4k3/8/8/8/8/8/8/R1R1K3 w {field} - 0 1"
    pos = _compare(games["fischerandom"], "fischerandom", fen)
    assert pos.fen().split()[2] == written
    assert {m for m in _legal(pos) if m in ("e1a1", "e1c1")} == ({castles} - {None})


@pytest.mark.parametrize("moves,rights", [
    (["h1h2"], "Ba"),                # the rook leaves h1: its right goes
    (["g1g2"], "a"),                 # the king moves: both of White's go
])
def test_rights_are_lost_with_their_king_or_rook(games, moves, rights):
    fen = "r3k3/8/8/8/8/8/8/1R4KR w KQq - 0 1"
    pos = _compare(games["fischerandom"], "fischerandom", fen, moves)
    assert pos.fen().split()[2] == rights


def test_a_captured_rook_takes_its_right_along(games):
    fen = "r3k3/8/8/8/8/8/8/1R4KR b KQq - 0 1"
    pos = _compare(games["fischerandom"], "fischerandom", fen, ["a8a1"])
    pos = _compare(games["fischerandom"], "fischerandom", fen, ["a8a1", "b1a1"])
    assert pos.fen().split()[2] == "H"


@pytest.mark.parametrize("fen", [
    "1r2k3/8/8/8/8/8/8/1R4KR w HBb - 0 1",
    "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1",
    "qbbrnkrn/pppppppp/8/8/8/8/PPPPPPPP/QBBRNKRN b GDgd - 0 1",
])
def test_the_fen_round_trips(games, fen):
    pos = games["fischerandom"].position(fen)
    assert pos.fen() == fen == SF960.get_fen("fischerandom", fen, [])
    assert pos.copy().fen() == fen and _legal(pos.copy()) == _legal(pos)


@pytest.mark.parametrize("field,message", [
    ("K", "'K': no white rook on its first rank to castle with"),
    ("Bk", "'B': no white piece to castle with on b1"),
    ("Z", "'Z' is not a castling right of this game"),
])
def test_a_bad_castling_field_names_the_field(games, field, message):
    with pytest.raises(FenError) as err:
        games["fischerandom"].position(f"4k2r/8/8/8/8/8/8/4K3 w {field} - 0 1")
    assert err.value.field == "castling" and message in str(err.value)


def test_a_king_off_its_first_rank_cannot_castle(games):
    with pytest.raises(FenError) as err:
        games["fischerandom"].position("4k3/8/8/8/8/8/4K3/7R w H - 0 1")
    assert err.value.field == "castling"
    assert "'H': no white king on its first rank to castle" in str(err.value)


def test_shuffled_start_positions_play_as_fairy_stockfish(games):
    """A few Chess960 start positions, random playouts against pyffish."""
    rng, game = random.Random(960), games["fischerandom"]
    for fen in ("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
                "nrkbbrqn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBRQN w FBfb - 0 1",
                "rbknqrbn/pppppppp/8/8/8/8/PPPPPPPP/RBKNQRBN w FAfa - 0 1"):
        pos, moves = game.position(fen), []
        for _ in range(40):
            ours = compare_position(SF960, "fischerandom", fen, moves, pos)
            if not ours:
                break
            moves.append(rng.choice(ours))
            pos.push_uci(moves[-1])


def test_the_chess960_twin_castles_from_the_fen():
    """UCI_Chess960 for a game that is not Chess960 by itself: its twin."""
    fen = "8/8/8/8/8/8/2k5/rR4KR w KQ - 0 1"
    with pytest.raises(FenError):
        ff.load("atomic").position(fen)             # the king is not on e1
    twin = ff.load("atomic", chess960=True)
    assert twin.variant.chess960_castling and twin.variant.name == "atomic"
    pos = _compare(twin, "atomic", fen)
    assert pos.fen().split()[2] == "HB" and {"g1h1", "g1b1"} <= set(_legal(pos))
    _compare(twin, "atomic", fen, ["g1b1"])
    assert twin.position(fen).perft(3) == sum(
        1 for m in sf.legal_moves("atomic", fen, [], True)
        for n in sf.legal_moves("atomic", fen, [m], True)
        for _ in sf.legal_moves("atomic", fen, [m, n], True))


def test_the_twin_gates_on_the_fens_king_and_rooks():
    """Seirawan's twin: the gated king and rooks castle (FSF's `BFH`, the same as `KQ`),
    and a castling may gate on the king's square or the rook's."""
    fen = "4k3/8/8/8/8/8/8/1R3K1R[HEhe] w BFH - 0 1"
    twin = ff.load("seirawan", chess960=True)
    pos = _compare(twin, "seirawan", fen)
    assert twin.position(fen.replace("BFH", "KQ")).fen() == pos.fen()
    assert {"f1b1", "f1h1", "f1b1e", "b1f1h"} <= set(_legal(pos))
    _compare(twin, "seirawan", fen, ["b1f1h"])
    _compare(twin, "seirawan", fen, ["f1b1e", "e8e7", "c1b1"])


def test_a_game_without_castling_has_no_twin():
    with pytest.raises(UnknownGameError, match="'xiangqi' has no castling, so it has no "
                                              "Chess960 twin"):
        ff.load("xiangqi", chess960=True)


def test_a_path_the_language_cannot_quote_has_no_twin(tmp_path):
    """The twin extends the file by its quoted path: a path with a double quote is
    refused with a clear error, never misread."""
    folder = tmp_path / 'my "games"'
    folder.mkdir()
    path = folder / "mine.variant"
    path.write_text('variant mine extends chess\n')
    assert ff.load(str(path)).variant.name == "mine"
    with pytest.raises(UnknownGameError, match="holds a double quote"):
        ff.load(str(path), chess960=True)
