"""SAN: Fairy-Stockfish (pyffish) as the oracle for what is written, and a round trip
(write, then read) for every legal move along random playouts in every bundled game.

Fairy-Stockfish names a few pieces by letters of its own: the xiangqi horse and
elephant are H and E (ours: N and B, their FEN letters), a promoted shogi bishop,
rook and the gold-movers are H, D and G (ours: +B, +R, +P...), and it writes a shogi
promotion =H where we write the shogi-style +.  Its SAN also has no mark for a
declined shogi promotion, which we write = so that + never has to be guessed between
promotion and check.  FSF_LETTERS maps our SAN onto its spelling; everything else
(disambiguation, captures, destinations, chess promotions, drops, castling, check and
mate marks) must be identical.
"""

import random
import re
import pytest

import fairyforge as ff
from fairyforge import san as sanmod
from fairyforge.errors import IllegalMoveError, InvalidMoveError, MoveError

sf = pytest.importorskip("pyffish")

FSF_LETTERS = {
    "chess": {}, "crazyhouse": {},
    "xiangqi": {"N": "H", "B": "E"},
    "shogi": {"+B": "H", "+R": "D", "+P": "G", "+S": "G", "+N": "G", "+L": "G"},
}


def as_fairy_stockfish(variant, table, move):
    """Our SAN of a move spelt with Fairy-Stockfish's letters (see the docstring)."""
    letters = FSF_LETTERS[variant]
    text, parts = table.san(move), table.parts[move]
    if parts.drop or parts.castle:
        return text
    check = text[len(table.bare(move)):]
    body = table.bare(move)[len(parts.letter):]
    if parts.promotion == "=":
        body = body[:-1]                        # a declined promotion
    elif parts.promotion == "+":
        body = body[:-1] + "=" + letters["+" + (parts.letter or "P")]
    return letters.get(parts.letter, parts.letter) + body + check


def playout_positions(game, rng, plies, games_count):
    """Positions along random playouts (the same Position, moved on)."""
    for _ in range(games_count):
        pos = game.start()
        for _ in range(plies):
            yield pos
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))


def _sample(table, rng, plain=4):
    """The moves whose SAN has more than a letter and a square (disambiguation,
    capture, promotion, drop, castling, check) and a few plain ones: pyffish takes
    2 ms a call, too slow to ask it about every move."""
    marked = [m for m in table.legal if re.search(r"[a-p0-9].*[a-p][0-9]|[x=@+#O]",
                                                  table.san(m))]
    rest = [m for m in table.legal if m not in set(marked)]
    return marked + rng.sample(rest, min(plain, len(rest)))


@pytest.mark.parametrize("variant", ["chess", "shogi", "xiangqi", "crazyhouse"])
def test_san_matches_fairy_stockfish(games, variant):
    game = games[variant]
    rng = random.Random(f"san-{variant}")
    compared = 0
    for pos in playout_positions(game, rng, plies=80, games_count=2):
        fen = sf.get_fen(variant, game.start_fen, [m.uci for m in pos.move_stack])
        table = sanmod.SanTable(pos)
        for move in _sample(table, rng):
            theirs = sf.get_san(variant, fen, move.uci, False, sf.NOTATION_SAN)
            ours = as_fairy_stockfish(variant, table, move)
            assert ours == theirs, (fen, move.uci, table.san(move))
            compared += 1
    assert compared > 1000


def test_check_mate_disambiguation_and_promotion_marks(games):
    chess = games["chess"]
    assert chess.position("7k/8/8/8/8/8/R7/R3K3 w - - 0 1").san("a2a8") == "Ra8+"
    pos = chess.position("k7/8/8/8/N1N5/8/N1N5/4K3 w - - 0 1")
    assert pos.san("a2b4") == "Nab4"
    assert pos.san("c4b6") == "Ncb6+"
    assert chess.position("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").san("b7b8q") == "b8=Q+"
    fools = chess.start()
    for text in ["f3", "e5", "g4"]:
        fools.push_san(text)
    assert fools.san("d8h4") == "Qh4#"
    shogi = games["shogi"].start()
    for text in ["Pc4", "Pg6"]:
        shogi.push_san(text)
    assert shogi.san("b2h8+") == "Bxh8+" and shogi.san("b2h8") == "Bxh8="


# Each text is looked up among all the position's moves, so checking every one of a
# duck position's thousands of moves takes minutes: beyond this, a sample.
MOVES_PER_POSITION = 300


@pytest.mark.parametrize("name", ff.bundled_games())
def test_round_trip_of_legal_moves(games, name):
    game = games[name]
    rng = random.Random(f"round-trip-{name}")
    for pos in playout_positions(game, rng, plies=60, games_count=2):
        table = sanmod.SanTable(pos)
        moves = table.legal
        if len(moves) > MOVES_PER_POSITION:     # the duck: every move times every square
            moves = rng.sample(moves, MOVES_PER_POSITION)
        for move in moves:
            text = table.san(move)
            assert table.parse(text) == move, (pos.fen(), move.uci, text)


def test_reading_is_lenient_without_guessing(games):
    pos = games["chess"].start()
    for text in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]:
        pos.push_san(text)
    assert pos.parse_san("Bxc6").uci == "b5c6"
    assert pos.parse_san("Bc6").uci == "b5c6"           # the x may be left out
    assert pos.parse_san("0-0").uci == "e1g1"
    assert pos.parse_san("O-O!?").uci == "e1g1"
    assert pos.parse_san("Pd4").uci == "d2d4"           # a pawn may have its letter
    shogi = games["shogi"].start()
    for text in ["Pc4", "Pg6"]:
        shogi.push_san(text)
    assert shogi.parse_san("Bxh8").uci == "b2h8"        # the declined = may be left out
    assert shogi.parse_san("Bxh8+").uci == "b2h8+"


def test_bad_and_ambiguous_san(games):
    pos = games["chess"].position("k7/8/8/8/N1N5/8/N1N5/4K3 w - - 0 1")
    with pytest.raises(sanmod.AmbiguousMoveError) as err:
        pos.parse_san("Nb4")
    assert err.value.candidates == ["Nab4", "Ncb4"] and "ambiguous" in str(err.value)
    with pytest.raises(InvalidMoveError, match="not SAN"):
        pos.parse_san("hello")
    with pytest.raises(IllegalMoveError, match="no Q"):
        pos.parse_san("Qd4")
    start = games["chess"].start()
    with pytest.raises(IllegalMoveError, match="e1e2"):
        start.parse_san("Ke2")
    with pytest.raises(IllegalMoveError):
        start.san("e2e5")
    ichess = games["ichess"].start()
    with pytest.raises(IllegalMoveError, match="deployment"):
        ichess.parse_san("Pe4")
    before = ichess.fen()
    with pytest.raises(MoveError):
        ichess.push_san("Ke9")
    assert ichess.fen() == before


def test_move_attributes(games):
    pos = games["crazyhouse"].start()
    for text in ["e4", "d5", "exd5"]:
        pos.push_san(text)
    move = pos.move_stack[-1]
    assert (move.from_square, move.to_square, move.piece, move.capture) == ("e4", "d5",
                                                                             "pawn", "pawn")
    assert move.promotion is None and move.drop is None
    drop = pos.parse_san("Qxd5")
    pos.push(drop)
    pos.push_san("P@e6")
    move = pos.move_stack[-1]
    assert (move.drop, move.piece, move.from_square, move.to_square) == ("pawn", "pawn",
                                                                         None, "e6")
    promote = games["chess"].position("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").parse_san("b8=N")
    assert promote.promotion == "knight" and promote.piece == "pawn"
    ep = games["chess"].position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").parse_san("exd6")
    assert ep.is_en_passant and ep.capture == "pawn" and ep.to_square == "d6"
    castle = games["chess"].position("4k3/8/8/8/8/8/8/4K2R w K - 0 1").parse_san("O-O")
    assert castle.is_castling and castle.piece == "king" and castle.capture is None


def test_text_board(games):
    pos = games["crazyhouse"].start()
    for text in ["e4", "d5", "exd5", "Qxd5"]:
        pos.push_san(text)
    lines = str(pos).splitlines()
    assert lines[0].split("|")[1].split() == list("rnb.kbnr")
    assert lines[8].split() == list("abcdefgh")
    assert "White's hand: P" in lines and "Black's hand: p" in lines
    assert lines[-1] == "White to move"
    assert pos.fen() in repr(pos)
