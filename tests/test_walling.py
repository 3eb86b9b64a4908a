"""Walls made by the rules: `petrify PIECES after capturing` (petrified) and
`a duck is placed after every move` (duck chess).  Each position is compared with
pyffish (legal moves, check, FEN, game end: fsf_playouts.play_and_compare);
tests/test_fsf_catalog.py adds the playout differential and FSF's perft rows.
"""

import pytest

import fairyforge as ff
from fsf_playouts import definition_error, play_and_compare
from fairyforge.errors import IllegalMoveError

sf = pytest.importorskip("pyffish")


@pytest.fixture(scope="module")
def petrified():
    return ff.load("petrified")


def agree(game, variant, fen, moves=()):
    return play_and_compare(sf, game, variant, fen, moves)


def moves_from(pos, square):
    return sorted(str(m) for m in pos.legal_moves() if str(m).startswith(square))


# -- petrify ... after capturing --------------------------------------------------------

def test_a_capturing_queen_turns_into_a_wall(petrified):
    pos = agree(petrified, "petrified", "k7/8/8/3p4/4Q3/8/8/4K3 w - - 0 1", ["e4d5"])
    assert pos.fen() == "k7/8/8/3*4/8/8/8/4K3 b - - 0 1"
    assert not pos.is_check()                # a wall gives no check


def test_a_wall_blocks_lines_and_cannot_be_taken(petrified):
    fen = "k7/8/8/3p4/4Q3/8/8/3RK3 w - - 0 1"
    pos = agree(petrified, "petrified", fen, ["e4d5", "a8b8"])
    assert moves_from(pos, "d1") == ["d1a1", "d1b1", "d1c1", "d1d2", "d1d3", "d1d4"]


def test_take_back_restores_the_capturer_and_its_victim(petrified):
    fen = "k7/8/8/3p4/4Q3/8/8/4K3 w - - 0 1"
    pos = petrified.position(fen)
    pos.push_uci("e4d5")
    pos.pop()
    assert pos.fen() == fen
    assert pos.perft(3) == petrified.position(fen).perft(3)


def test_a_pawn_does_not_petrify_even_when_it_promotes(petrified):
    pos = agree(petrified, "petrified", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", ["a7b8q"])
    assert pos.fen().startswith("1Q2k3/")


def test_the_king_may_not_capture(petrified):
    fen = "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1"
    pos = agree(petrified, "petrified", fen)
    assert "e1d2" not in moves_from(pos, "e1")
    with pytest.raises(IllegalMoveError, match="turn into a wall"):
        pos.push_uci("e1d2")


def test_kings_may_stand_side_by_side_and_that_counts_as_check(petrified):
    pos = agree(petrified, "petrified", "8/8/8/4k3/8/3K4/8/8 w - - 0 1")
    assert "d3d4" in moves_from(pos, "d3") and "d3e4" in moves_from(pos, "d3")
    pos = agree(petrified, "petrified", "8/8/8/4k3/8/3K4/8/8 w - - 0 1", ["d3d4"])
    assert pos.is_check()                    # as Fairy-Stockfish reports it
    assert petrified.position(pos.fen()).fen() == pos.fen()    # a legal FEN (white "in check")


def test_a_king_may_not_castle_past_the_enemy_king(petrified):
    agree(petrified, "petrified", "8/8/8/8/8/8/5k2/R3K2R w KQ - 0 1")


def test_a_capture_that_petrifies_may_uncover_its_own_king(petrified):
    # The knight takes on d5 and becomes a wall there; the pin on the king is shut.
    agree(petrified, "petrified", "4k3/4r3/8/3p4/8/4N3/8/4K3 w - - 0 1")
    agree(petrified, "petrified", "4k3/8/8/3p4/8/2N5/8/r3K3 w - - 0 1")


def test_perft_matches_fairy_stockfish(petrified):
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert petrified.position(fen).perft(2) == _fsf_perft("petrified", fen, 2)


def _fsf_perft(variant, fen, depth, moves=()):
    legal = sf.legal_moves(variant, fen, list(moves))
    if depth == 1:
        return len(legal)
    return sum(_fsf_perft(variant, fen, depth - 1, [*moves, m]) for m in legal)


def test_petrify_names_known_pieces(tmp_path):
    text = ('variant bad "Bad" extends chess\n'
            'petrify queen, dragon after capturing\n')
    message = definition_error(tmp_path, "bad", text)
    assert "bad.variant:2:16" in message and "unknown piece 'dragon'" in message


# -- place a duck after every move ------------------------------------------------------

@pytest.fixture(scope="module")
def duck():
    return ff.load("duck")


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_every_move_places_the_duck_on_an_empty_square(duck):
    pos = agree(duck, "duck", START)
    moves = [str(m) for m in pos.legal_moves()]
    assert len(moves) == 640                  # 20 moves x 32 empty squares
    assert "e2e4,e4e2" in moves and "g1f3,f3g1" in moves      # the square just left
    assert "e2e4,e4e4" not in moves and "e2e4,e4e7" not in moves
    assert {m.wall_square for m in pos.legal_moves() if str(m).startswith("e2e4,")} == \
        ({f"{f}{r}" for f in "abcdefgh" for r in "3456"} - {"e4"}) | {"e2"}


def test_the_duck_must_move_and_blocks_lines(duck):
    pos = agree(duck, "duck", START, ["e2e4,e4e6", "d7d5,d5d6"])
    assert pos.fen() == "rnbqkbnr/ppp1pppp/3*4/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    moves = [str(m) for m in pos.legal_moves()]
    assert not any(m.endswith("d6") for m in moves)        # it stands there: it moves
    pos = agree(duck, "duck", "4k3/8/8/8/8/8/8/R2*K3 w - - 0 1")
    assert {str(m)[:4] for m in pos.legal_moves() if str(m).startswith("a1")} == \
        {"a1b1", "a1c1"} | {f"a1a{r}" for r in range(2, 9)}


def test_a_knight_jumps_the_duck(duck):
    agree(duck, "duck", "4k3/8/8/8/8/3*4/3*4/3NK3 w - - 0 1")


def test_castling_with_the_duck(duck):
    pos = agree(duck, "duck", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
                ["e1g1,g1e1"])
    assert pos.fen() == "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3*RK1 b kq - 1 1"
    # the duck between king and rook forbids castling on that side
    pos = agree(duck, "duck", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R2*K2R w KQkq - 0 1")
    assert not any(str(m).startswith("e1c1") for m in pos.legal_moves())


def test_a_duck_on_the_passed_square_marks_no_en_passant(duck):
    fen = "4k3/8/8/8/2p5/8/1P6/4K3 w - - 0 1"
    assert agree(duck, "duck", fen, ["b2b4,b4b3"]).fen() == "4k3/8/8/8/1Pp5/1*6/8/4K3 b - - 0 1"
    pos = agree(duck, "duck", fen, ["b2b4,b4a1"])
    assert pos.fen() == "4k3/8/8/8/1Pp5/8/8/*3K3 b - b3 0 1"
    assert any(str(m).startswith("c4b3,") for m in pos.legal_moves())


def test_promotion_is_written_before_the_duck(duck):
    pos = agree(duck, "duck", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert "b7b8q,b8a1" in [str(m) for m in pos.legal_moves()]


def test_the_walls_of_a_fen_are_all_lifted_by_the_first_move(duck):
    pos = agree(duck, "duck", "4k3/8/8/2*5/8/3*4/8/4K3 w - - 0 1", ["e1e2,e2h5"])
    assert pos.fen() == "4k3/8/8/7*/8/8/4K3/8 b - - 1 1"


def test_take_back_puts_the_duck_back(duck):
    fen = "r3k2r/pppppppp/8/8/8/3*4/PPPPPPPP/R3K2R w KQkq - 0 1"
    pos = duck.position(fen)
    for move in ("e1g1,g1e4", "d7d5,d5d3", "c2c4,c4c3", "d5c4,c4h3"):
        pos.push_uci(move)
    for _ in range(4):
        pos.pop()
    assert pos.fen() == fen
    assert pos.perft(2) == duck.position(fen).perft(2)


def test_capturing_the_king_wins_and_nothing_is_check(duck):
    fen = "4k3/8/8/8/8/8/8/4RK2 w - - 0 1"
    pos = agree(duck, "duck", fen)
    assert not pos.is_check()
    pos = agree(duck, "duck", fen, ["f1f2,f2a1", "e8d8,d8a8"])
    pos = agree(duck, "duck", "3k4/8/8/8/8/8/8/*3RK2 b - - 0 1", ["d8e8,e8a8"])
    assert [str(m) for m in pos.legal_moves() if str(m).startswith("e1e8,")]
    pos.push_uci("e1e8,e8a1")
    assert pos.outcome() == ff.Outcome("white", "extinction")


def test_perft_two_plies_matches_fairy_stockfish(duck):
    fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"
    assert duck.position(fen).perft(2) == _fsf_perft("duck", fen, 2)


@pytest.mark.parametrize("text,error,words", [
    ("e2e4", IllegalMoveError, "the duck must be placed after the move, as in e2e4,e4"),
    ("e2e4,e4e4", IllegalMoveError, "the duck cannot go to e4: the square is not empty"),
    ("e2e4,d4d5", ff.InvalidMoveError, "after the comma come the move's destination e4"),
    ("e2e4,e4z9", ff.InvalidMoveError, "z9 is not on the board"),
    ("e2e5,e5d4", IllegalMoveError, "illegal move e2e5,e5d4: the pawn on e2 cannot go"),
])
def test_a_wrong_duck_move_is_named(duck, text, error, words):
    with pytest.raises(error, match=words) as caught:
        duck.start().push_uci(text)
    assert caught.value.move == text


def test_the_duck_must_move_error(duck):
    pos = duck.position("4k3/8/8/8/8/3*4/8/4K3 w - - 0 1")
    with pytest.raises(IllegalMoveError, match="it stands there, and must move"):
        pos.push_uci("e1e2,e2d3")


def test_a_game_without_a_duck_refuses_a_comma():
    with pytest.raises(ff.InvalidMoveError, match="this game has no duck"):
        ff.load("chess").start().push_uci("e2e4,e4d5")


def test_the_duck_statement_is_checked(tmp_path):
    text = ('variant bad "Bad" extends chess\n'
            'place a goose after every move\n')
    message = definition_error(tmp_path, "bad", text)
    assert "bad.variant:2:9" in message and "expected duck" in message


def test_san_writes_and_reads_the_duck_as_fairy_stockfish(duck):
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
    pos = duck.position(fen)
    for uci in ("e1g1,g1e1", "a2a4,a4a2", "h1f1,f1h1"):
        move = next(m for m in pos.legal_moves() if str(m) == uci)
        assert pos.san(move) == sf.get_san("duck", fen, uci)
        assert pos.parse_san(pos.san(move)) == move
    assert pos.san(next(m for m in pos.legal_moves() if str(m) == "e1g1,g1e1")) == "O-O,e1"
