"""`chess960 castling` (compiler/rules/chess960.py) and Shredder/X-FEN castling fields.

Castling is written as the king taking its own rook (`e1h1`) and the rights by the
rooks' files (`HAha`); a FEN may give them either way in every game.  A Chess960
setup is a definition whose `castling` statements start from its king's and rooks'
files (the king may end on a rook's square).  Oracle: pyffish's fischerandom and
caparandom, whose rules are Chess960's.
"""

import pytest

import fairyforge as ff
from conftest import definition_error
from fairyforge.errors import FenError

sf = pytest.importorskip("pyffish")

OPEN = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"

# Chess960 start position 1 of the FSF suite (queen, bishops, rook d, knight, king f,
# rook g, knight): the kingside castling swaps the king and the rook, the queenside
# one leaves the rook on d1.
SHUFFLED = '''variant shuffled "A Chess960 setup" extends chess
no castling
castling king f1 to g1, rook g1 to f1
castling king f1 to c1, rook d1 to d1
chess960 castling
setup "qbbrnkrn/pppppppp/8/8/8/8/PPPPPPPP/QBBRNKRN w KQkq - 0 1"
'''


def _legal(pos):
    return sorted(m.uci for m in pos.legal_moves())


@pytest.mark.parametrize("variant,rights", [("fischerandom", "HAha"), ("caparandom", "JAja")])
def test_the_start_position_names_the_rights_by_file(games, variant, rights):
    fen = games[variant].start().fen()
    assert fen == sf.get_fen(variant, sf.start_fen(variant), [])
    assert fen.split()[2] == rights


def test_castling_is_the_king_taking_its_rook(games):
    pos = games["fischerandom"].position(OPEN)
    assert _legal(pos) == sorted(sf.legal_moves("fischerandom", OPEN, []))
    assert {"e1h1", "e1a1"} <= set(_legal(pos)) and "e1g1" not in _legal(pos)
    pos.push_uci("e1h1")
    assert pos.fen() == sf.get_fen("fischerandom", OPEN, ["e1h1"])
    assert pos.fen().split()[0].endswith("R4RK1")
    assert pos.pop().uci == "e1h1" and pos.fen() == sf.get_fen("fischerandom", OPEN, [])


def test_chess_still_castles_by_the_kings_move(games):
    pos = games["chess"].position(OPEN)
    assert "e1g1" in _legal(pos) and "e1h1" not in _legal(pos)
    assert pos.fen().split()[2] == "KQkq"


@pytest.mark.parametrize("field", ["KQkq", "HAha", "HQka", "AhKq"])
def test_x_fen_and_shredder_letters_are_read(games, field):
    fen = OPEN.replace("KQkq", field)
    for variant, written in (("fischerandom", "HAha"), ("chess", "KQkq")):
        pos = games[variant].position(fen)
        assert pos.fen().split()[2] == written
        assert pos.fen() == sf.get_fen(variant, fen, [])


@pytest.mark.parametrize("field,message", [
    ("HK", "'K' is given twice"),
    ("B", "'B': no white piece to castle with on b1"),      # (a file letter: its rook)
    ("N", "'N' is not a castling right of this game (rights: K, Q or a rook's file A-H "
          "for White; k, q or a-h for Black)"),
])
def test_a_bad_castling_field_is_a_fen_error(games, field, message):
    with pytest.raises(FenError) as err:
        games["fischerandom"].position(OPEN.replace("KQkq", field))
    assert err.value.field == "castling"
    assert message in str(err.value)


@pytest.mark.parametrize("fen", [
    "qbbrnkrn/pppppppp/8/8/8/8/PPPPPPPP/QBBRNKRN w KQkq - 0 1",
    "qbbr1kr1/pppppppp/8/8/8/8/PPPPPPPP/Q2R1KR1 w GDgd - 0 1",
    "3r1kr1/8/8/8/8/8/8/3R1KR1 w GDgd - 0 1",
    "3r1kr1/8/8/8/8/8/5r2/3R1KR1 w GDgd - 0 1",
])
def test_a_chess960_setup_castles_as_fairy_stockfish(tmp_path, fen):
    path = tmp_path / "shuffled.variant"
    path.write_text(SHUFFLED)
    pos = ff.load(str(path)).position(fen)
    assert _legal(pos) == sorted(sf.legal_moves("fischerandom", fen, []))
    assert pos.fen() == sf.get_fen("fischerandom", fen, [])
    for move in _legal(pos):
        pos.push_uci(move)
        assert pos.fen() == sf.get_fen("fischerandom", fen, [move]), move
        assert _legal(pos) == sorted(sf.legal_moves("fischerandom", fen, [move])), move
        pos.pop()


def test_chess960_castling_needs_castling(tmp_path):
    message = definition_error(tmp_path, 'variant bad extends chess\nno castling\nchess960 castling\n'
                    'setup "4k3/8/8/8/8/8/8/4K3 w - - 0 1"\n')
    assert "bad.variant:3:1: error: chess960 castling: the game has no castling" \
        in message
