"""FEN in and out, and bad positions and moves: each refused with an error that names
the field or the move, leaving the position untouched."""

import re

import pytest

import fairyforge as ff

ROUND_TRIP = [
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("chess", "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("shogi", "lnsgkg1nl/1r5s1/pppppp1pp/6p2/4B4/2P6/PP1PPPPPP/7R1/LNSGKGSNL[Bb] b - - 0 3"),
    ("shogi", "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[B] b - - 0 2"),
    ("crazyhouse", "rnbqkbQ~1/pppp1p1p/4p3/8/8/8/PPPPPPP1/RNBQKBNR[RN] b KQq - 0 2"),
    ("xiangqi", "rnbakabCr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 1"),
]


@pytest.mark.parametrize("variant,fen", ROUND_TRIP)
def test_fen_round_trips(games, variant, fen):
    pos = games[variant].position(fen)
    assert pos.fen() == fen
    assert games[variant].position(pos.fen()).key() == pos.key()


def test_shogi_style_fen_without_castling_fields(games):
    pos = games["shogi"].position("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1")
    assert pos.perft(2) == 900
    assert pos.fen() == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"


@pytest.mark.parametrize("variant,fen,field", [
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "board"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "board"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "board"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKXNR w KQkq - 0 1", "board"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1", "castling"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove number"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q] w KQkq - 0 1", "holdings"),
    ("chess", "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "board"),         # side not to move in check
    ("chess", "4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "board"),          # pawn that can never move
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Qx] w - - 0 1", "holdings"),
    ("shogi", "4k4/9/9/9/9/9/9/9/4K4[+P] w - - 0 1", "holdings"),
    ("shogi", "", "board"),
])
def test_bad_fen_names_the_field(games, variant, fen, field):
    with pytest.raises(ff.FenError) as info:
        games[variant].position(fen)
    assert info.value.field == field
    assert field in str(info.value)


def test_push_uci_and_pop(games):
    pos = games["chess"].start()
    move = pos.push_uci("e2e4")
    assert str(move) == "e2e4"
    assert pos.turn == "black"
    pos.push_uci("e7e5")
    assert [str(m) for m in pos.move_stack] == ["e2e4", "e7e5"]
    assert str(pos.pop()) == "e7e5"
    assert str(pos.pop()) == "e2e4"
    assert pos.move_stack == []
    assert pos.fen() == games["chess"].start_fen


@pytest.mark.parametrize("text,error,words", [
    ("e2e5", ff.IllegalMoveError, "illegal move e2e5"),
    ("e3e4", ff.IllegalMoveError, "no piece on e3"),
    ("e7e5", ff.IllegalMoveError, "Black's and it is White's turn"),
    ("e2", ff.InvalidMoveError, "is not a move"),
    ("hello", ff.InvalidMoveError, "is not a move"),
    ("e2e9", ff.InvalidMoveError, "e9 is not on the board"),
    ("Q@e4", ff.IllegalMoveError, "illegal move Q@e4"),
    ("", ff.InvalidMoveError, "is not a move"),
])
def test_bad_moves_are_refused_and_change_nothing(games, text, error, words):
    pos = games["chess"].start()
    before = (pos.fen(), pos.key())
    with pytest.raises(error, match=words) as info:
        pos.push_uci(text)
    assert info.value.move == text
    assert isinstance(info.value, ff.FairyforgeError)
    assert (pos.fen(), pos.key()) == before


def test_pop_on_empty_history(games):
    pos = games["chess"].start()
    with pytest.raises(ff.EmptyHistoryError):
        pos.pop()


def test_push_move_object_from_another_position(games):
    pos = games["chess"].start()
    move = pos.legal_moves()[0]
    pos.push(move)
    with pytest.raises(ff.IllegalMoveError):
        pos.push(move)


# -- positions no game can reach, and fields that contradict the board ----------------------

@pytest.mark.parametrize("variant,fen,field,words", [
    ("chess", "4k3/8/8/8/8/8/8/8 w - - 0 1", "board", "white must have one king (on the board or in hand), the position gives it 0"),
    ("chess", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "board", "white must have one king (on the board or in hand), the position gives it 2"),
    ("chess", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "board", "a white pawn can never stand on a1"),
    ("xiangqi", "4k4/9/9/9/9/9/3P5/9/9/4K4 w - - 0 1", "board", "a white soldier can never stand on d4"),
    ("xiangqi", "4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1", "board",
     "a white general on a1 is outside the area it is confined to"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling", "'K': no white piece to castle with on h1"),
    ("chess", "4k3/8/8/8/8/8/8/R2K3R w Q - 0 1", "castling", "'Q': the white king is not on e1"),
    ("chess", "4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", "castling", "'K' is given twice"),
    ("chess", "4k3/8/8/4n3/8/8/8/4K3 w - e6 0 1", "en passant", "no black piece has just passed e6"),
    ("chess", "4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1", "en passant", "no black piece has just passed e6"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 5 1", "halfmove clock",
     "5 plies since the last capture or pawn move, but only 0 have been played"),
    ("chess", "4k3/8/8/8/8/8/\u00b2/4K3 w - - 0 1", "board", "unexpected '\u00b2' in rank 2"),
    ("crazyhouse", "4k3/pppppppp/pppppppp/pppppppp/8/8/8/4K3[" + "P" * 40 + "] w - - 0 1", "board",
     "64 pieces in play (40 in hand and 24 on the board besides the royal ones): with "
     "captures going to hand, at most 63"),
    ("chess", None, "fen", "a FEN must be a string"),
])
def test_unreachable_position_is_refused(games, variant, fen, field, words):
    with pytest.raises(ff.FenError) as info:
        games[variant].position(fen)
    assert info.value.field == field
    assert words in str(info.value)


def test_en_passant_field_that_fits_is_kept(games):
    fen = "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2"
    pos = games["chess"].position(fen)
    assert pos.fen() == fen and "d5e6" in [m.uci for m in pos.legal_moves()]


@pytest.mark.parametrize("fen,text,words", [
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8", "the piece must promote on b8: write b7b8q (choices: q, r, b, n)"),
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8x", "'x' is not a promotion choice of this move (choices: q, r, b, n)"),
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "e1e2q", "this move does not promote: write e1e2 without 'q'"),
])
def test_promotion_suffix_errors(games, fen, text, words):
    pos = games["chess"].position(fen)
    with pytest.raises(ff.IllegalMoveError, match=re.escape(words)):
        pos.push_uci(text)
    assert pos.fen() == fen


@pytest.mark.parametrize("thing", [None, 12, b"e2e4", ["e2e4"]])
def test_push_of_something_that_is_not_a_move(games, thing):
    pos = games["chess"].start()
    with pytest.raises(ff.InvalidMoveError, match="a move must be a Move"):
        pos.push(thing)
    assert pos.fen() == games["chess"].start_fen


def test_square_with_a_leading_zero_is_not_on_the_board(games):
    pos = games["chess"].start()
    with pytest.raises(ff.InvalidMoveError, match="a02 is not on the board"):
        pos.push_uci("a02a4")


# -- FEN in the forms other tools write, counters at their limits ---------------------

@pytest.mark.parametrize("fen, written", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"),
    ("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/QPn b KQkq - 4 3",
     "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QPn] b KQkq - 4 3"),
])
def test_crazyhouse_holdings_after_a_slash(games, fen, written):
    # The lichess / Fairy-Stockfish form: the hands as one more rank after a slash.
    assert games["crazyhouse"].position(fen).fen() == written


def test_a_rank_too_many_is_not_taken_for_holdings(games):
    with pytest.raises(ff.FenError, match="9 ranks given"):
        games["crazyhouse"].position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1")


@pytest.mark.parametrize("setup_fullmove", [999999, 12345678])
def test_counters_past_six_digits_read_back(games, setup_fullmove):
    # After move 999999 the FEN says 1000000: position() and copy() must read it.
    pos = games["chess"].position(f"4k3/8/8/8/8/8/8/R3K3 b - - 99 {setup_fullmove}")
    pos.push_uci("e8d7")
    assert pos.fen() == f"8/3k4/8/8/8/8/8/R3K3 w - - 100 {setup_fullmove + 1}"
    assert games["chess"].position(pos.fen()).fen() == pos.fen()
    assert pos.copy().fen() == pos.fen()


def test_copy_reads_counters_past_the_input_limit(games):
    from fairyforge.fen import COUNTER_LIMIT
    pos = games["chess"].position(f"4k3/8/8/8/8/8/8/R3K3 b - - 0 {COUNTER_LIMIT}")
    pos.push_uci("e8d7")
    assert pos.fen().endswith(f" 1 {COUNTER_LIMIT + 1}")
    assert pos.copy().fen() == pos.fen()
    with pytest.raises(ff.FenError, match=f"fullmove number: must be at most {COUNTER_LIMIT}"):
        games["chess"].position(pos.fen())


@pytest.mark.parametrize("fen, field, words", [
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 2000000001", "fullmove number", "at most 2000000000"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 " + "9" * 5000, "fullmove number", "(5000 characters)"),
    ("4k3/8/8/8/8/8/8/4K3 w - - " + "1" * 5000 + " 1", "halfmove clock", "at most"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 000000000000000000000000000007", "board", None),
    ("4k3/8/8/8/8/8/8/" + "9" * 4500 + " w - - 0 1", "board", "more than 8 files"),
    ("4k3/8/8/8/8/8/8/4K" + "0" * 5000 + "3 w - - 0 1", "board", "more than 8 files"),
])
def test_huge_numbers_are_fen_errors(games, fen, field, words):
    if field == "board" and words is None:
        # Leading zeros are only digits: 30 of them still read as 7 (the king pair is
        # then simply fine), and nothing raises anything but FenError.
        assert games["chess"].position(fen).fen().endswith(" 0 7")
        return
    with pytest.raises(ff.FenError) as info:
        games["chess"].position(fen)
    assert info.value.field == field
    assert words in str(info.value)
    assert len(str(info.value)) < 400 + len(fen)


def test_fairy_stockfish_start_fens_are_read(games):
    # Shogi's start FEN in Fairy-Stockfish's variants.ini: `[-]`, and no castling or en
    # passant fields; written back as get_fen writes it.
    pos = games["shogi"].position("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] b 0 1")
    assert pos.fen() == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] b - - 0 1"


def test_shogi_clock_counts_on_over_pawn_moves(games):
    # Shogi has no move rule: as in Fairy-Stockfish, its clock restarts only on a
    # capture, a drop or a promotion, not on a pawn, lance or knight move.
    pos = games["shogi"].start()
    for move in ("c3c4", "g7g6", "i3i4", "a7a6"):
        pos.push_uci(move)
    assert pos.fen().split()[-2:] == ["4", "3"]
    pos.push_uci("b2h8+")                   # the bishop takes and promotes
    assert pos.fen().split()[-2] == "0"


def test_chess_clock_restarts_on_pawn_moves(games):
    pos = games["chess"].start()
    for move, clock in (("g1f3", "1"), ("g8f6", "2"), ("e2e4", "0")):
        pos.push_uci(move)
        assert pos.fen().split()[-2] == clock


def test_round_trip_along_random_games(games):
    import random
    rnd = random.Random(11)
    for name in ("chess", "crazyhouse", "shogi", "xiangqi", "wwii", "frontofhouse"):
        pos = games[name].start()
        for _ in range(60):
            fen = pos.fen()
            again = games[name].position(fen)
            assert again.fen() == fen and again.key() == pos.key()
            legal = pos.legal_moves()
            if not legal or pos.outcome() is not None:
                break
            pos.push(rnd.choice(legal))
