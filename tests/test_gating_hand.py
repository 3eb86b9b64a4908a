"""Gating from the hand: `gating [PIECES] from hand` (compiler/rules/gating.py), as in
S-chess (seirawan) and S-house (shouse).  Position tests from the rule's wording, each
compared with pyffish in the same position (legal moves, check, FEN and game end:
fsf_playouts.play_and_compare); the bundled games' playouts and Fairy-Stockfish's
perft rows are in tests/test_fsf_catalog.py."""

import pytest

from fairyforge.errors import FenError, IllegalMoveError
from fsf_playouts import definition_error, play_and_compare

sf = pytest.importorskip("pyffish")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1"
CASTLES = "r3k2r/8/8/8/8/8/8/R3K2R[HEhe] w KQkq - 0 1"


def legal(pos):
    return sorted(str(m) for m in pos.legal_moves())


def test_a_first_move_from_the_back_rank_may_gate_each_piece_in_hand(games):
    pos = play_and_compare(sf, games["seirawan"], "seirawan", START)
    moves = legal(pos)
    assert {"b1c3", "b1c3h", "b1c3e", "g1f3h", "g1f3e"} <= set(moves)
    assert not [m for m in moves if m.startswith(("a2", "e2")) and m[-1] in "he"]
    assert len(moves) == 28                        # 20 chess moves, 4 knight moves x 2 gates


def test_the_gated_piece_stands_where_the_mover_left(games):
    pos = play_and_compare(sf, games["seirawan"], "seirawan", START, ["b1c3h"])
    assert pos.fen() == ("rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/RHBQKBNR[Eeh] b "
                         "KQCDFGkqbcdfg - 1 1")
    move = pos.move_stack[0]
    assert (move.gate, move.gate_square, move.piece) == ("hawk", "b1", "knight")
    assert pos.san(pos.parse_san("Nf6")) == "Nf6"


def test_a_gate_does_not_restart_the_halfmove_clock(games):
    fen = START.replace("0 1", "5 10")
    pos = play_and_compare(sf, games["seirawan"], "seirawan", fen, ["g1f3h"])
    assert pos.fen().split()[-2:] == ["6", "10"]


def test_no_gate_once_the_square_has_lost_its_right(games):
    pos = play_and_compare(sf, games["seirawan"], "seirawan", START,
                           ["g1f3", "g8f6", "f3g1", "f6g8"])
    assert "g1f3" in legal(pos) and "g1f3h" not in legal(pos)
    assert pos.fen().split()[2] == "KQBCDFkqbcdf"
    with pytest.raises(IllegalMoveError, match="g1 has no gating right left"):
        pos.push_uci("g1f3h")


def test_a_capture_on_a_gate_square_takes_its_right(games):
    pos = play_and_compare(sf, games["seirawan"], "seirawan", CASTLES, ["a1a8h"])
    assert pos.fen().split()[2] == "Kk"            # a8's gate and Black's long castling


def test_a_side_without_pieces_in_hand_has_no_gates_to_write(games):
    # S-chess: an empty hand never fills again; S-house: it may, so the rights stay.
    fen = "r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1"
    play_and_compare(sf, games["seirawan"], "seirawan", fen, ["a1a8"])
    pos = play_and_compare(sf, games["shouse"], "shouse", fen, ["a1a8", "e8d7"])
    assert pos.fen().split()[2] == "Kh"


@pytest.mark.parametrize("move, board", [
    ("e1g1h", "R3HRK1"),                           # on the king's square
    ("h1e1h", "R4RKH"),                            # on the rook's square
    ("e1c1e", "2KRE2R"),
    ("a1e1e", "E1KR3R"),
])
def test_castling_gates_on_the_kings_or_the_rooks_square(games, move, board):
    pos = play_and_compare(sf, games["seirawan"], "seirawan", CASTLES, [move])
    assert pos.fen().split()[0].split("/")[-1].split("[")[0] == board
    before = games["seirawan"].position(CASTLES)
    assert before.san(move) == sf.get_san("seirawan", CASTLES, move)     # O-O/He1, O-O/Hh1
    assert before.parse_san(before.san(move)).uci == move


def test_a_gated_piece_never_shields_its_king(games):
    # The knight on d1 is pinned by the rook on a1: a hawk left on d1 would block the
    # line again, but the move must be legal without it (as in Fairy-Stockfish).
    pinned = "4k3/8/8/8/8/8/8/r2NK3[H] w D - 0 1"
    pos = play_and_compare(sf, games["seirawan"], "seirawan", pinned)
    assert not [m for m in legal(pos) if m.startswith("d1")]
    with pytest.raises(IllegalMoveError, match="attacked but for the gated piece"):
        pos.push_uci("d1c3h")
    # The king may not step along the rook's line, even with a hawk left behind it.
    king = "4k3/8/8/8/8/8/8/r3K3[H] w E - 0 1"
    pos = play_and_compare(sf, games["seirawan"], "seirawan", king)
    assert "e1f1h" not in legal(pos) and "e1e2h" in legal(pos)


@pytest.mark.parametrize("variant, fen", [
    ("seirawan", START),
    ("seirawan", "reb1k2r/ppppqppp/2nb1n2/4p3/4P3/N1P2N2/PB1PQPPP/RE2KBHR[h] b KQkqc - 3 7"),
    ("seirawan", "r3k2r/8/8/8/8/8/8/R3K2R[HEhe] w AEHaeh - 0 1"),   # 960 style: KQkq
    ("seirawan", "r3k2r/8/8/8/8/8/8/R3K2R[] w AHah - 0 1"),         # Shredder castling
    ("seirawan", "r3k2r/8/8/8/8/8/8/R3HRK1[Eeh] b Akq - 1 1"),
    ("shouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[PHEhe] w KQBCDFGkqbcdfg - 0 1"),
    ("shouse", "R6r/3k4/8/8/8/8/8/4K2R[R] w Kh - 1 2"),
])
def test_fen_round_trip(games, variant, fen):
    pos = play_and_compare(sf, games[variant], variant, fen)
    assert games[variant].position(pos.fen()).fen() == pos.fen()


def test_a_gate_letter_needs_a_piece_of_its_side_there(games):
    with pytest.raises(FenError, match="castling: 'C': no white piece on c1 to gate from"):
        games["seirawan"].position("4k3/8/8/8/8/8/8/4K3[H] w C - 0 1")


def test_shouse_gates_a_captured_piece_but_never_a_pawn_on_the_first_rank(games):
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[PRhe] w KQBCDFGkqbcdfg - 0 1"
    moves = legal(play_and_compare(sf, games["shouse"], "shouse", fen))
    assert "b1c3r" in moves and "b1c3p" not in moves and "P@e4" in moves


def test_gating_rights_are_not_part_of_the_repetition(games):
    # As in Fairy-Stockfish: the knights' tour back loses the g-file gates, and the
    # position still repeats the start.
    cycle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    pos = play_and_compare(sf, games["seirawan"], "seirawan", START, cycle * 2)
    assert pos.outcome() is not None and pos.outcome().reason == "repetition"
    assert sf.is_optional_game_end("seirawan", START, cycle * 2)[0]


@pytest.mark.parametrize("text, message", [
    ("b1a3q", "White has no queen in hand to gate"),
    ("e2e4h", "e2 is not on White's back rank"),
    ("b1a3x", "'x' names no piece that may be gated"),
])
def test_notation_errors_say_why(games, text, message):
    with pytest.raises(IllegalMoveError, match=message):
        games["seirawan"].start().push_uci(text)
    assert text not in sf.legal_moves("seirawan", START, [])


def test_only_the_named_pieces_are_gated(tmp_path):
    text = ("variant hawkgate extends chess\npiece hawk H BN\npiece elephant E RN\n"
            "gating hawk from hand\n"
            'setup "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HHhh] w KQBCDFGkqbcdfg - 0 1"\n')
    path = tmp_path / "hawkgate.variant"
    path.write_text(text)
    import fairyforge as ff
    game = ff.load(str(path))
    moves = legal(game.start())
    assert "b1c3h" in moves and "b1c3e" not in moves
    assert not [m for m in moves if "@" in m]      # the setup's hand makes no drops
    with pytest.raises(FenError, match="the white elephant in hand could never be dropped "
                                       "or gated"):
        game.position("4k3/8/8/8/8/8/8/4K3[E] w - - 0 1")


@pytest.mark.parametrize("line, message", [
    ("gating king from hand", "gating: 'king' is royal and is never in hand"),
    ("gating wizard from hand", "unknown piece 'wizard'"),
    ("gating from", "gating"),
])
def test_definition_errors(tmp_path, line, message):
    text = (f"variant bad extends chess\npiece hawk H BN\n{line}\n"
            'setup "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1"\n')
    error = definition_error(tmp_path, "bad", text)
    assert message in error and "bad.variant:3:" in error
