"""PGN: export then import gives the same game, in every bundled game; the reader
skips what PGN allows around moves and names the game and ply of a bad move."""

import random

import pytest

import fairyforge as ff
from fairyforge import pgn


def random_game(game, seed, plies=80):
    rng = random.Random(seed)
    pos = game.start()
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
    return pos


@pytest.mark.parametrize("name", ff.bundled_games())
def test_export_import_round_trip(games, name):
    pos = random_game(games[name], f"pgn-{name}")
    text = pgn.export(pos, {"White": 'Ann "the hand" Lee', "Event": "test"})
    assert f'[Variant "{name}"]' in text and "[FEN" not in text
    back = pgn.read_game(text)
    assert back.position.move_stack == pos.move_stack
    assert back.position.fen() == pos.fen()
    assert back.headers["White"] == 'Ann "the hand" Lee'
    assert back.result == pgn.result_of(pos)


def test_fen_tag_and_black_to_move_first(games):
    game = games["chess"]
    pos = game.position("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7")
    for text in ["Kd7", "e4", "Kc6"]:
        pos.push_san(text)
    text = pgn.export(pos)
    assert '[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7"]' in text and '[SetUp "1"]' in text
    assert "7... Kd7 8. e4 Kc6 *" in text
    back = pgn.read_game(text)
    assert back.position.fen() == pos.fen()


def test_result_of_a_finished_game(games):
    pos = games["chess"].start()
    for text in ["f3", "e5", "g4", "Qh4#"]:
        pos.push_san(text)
    text = pgn.export(pos)
    assert text.rstrip().endswith("2. g4 Qh4# 0-1") and '[Result "0-1"]' in text


def test_reader_skips_comments_variations_nags_and_reads_several_games(games):
    text = """[Variant "shogi"]
[Result "*"]

1. Pc4 {a comment} Pg6 ; to the end of the line
2. Bxh8+ (2. Pc5 Pg5 (2... Pa6)) $1 Sxh8!? *

[Variant "xiangqi"]

1. Che3 Ng8 1-0
"""
    first, second = list(pgn.read_games(text))
    assert [m.uci for m in first.position.move_stack] == ["c3c4", "g7g6", "b2h8+", "g9h8"]
    assert first.position.game.name == "shogi"
    assert [m.uci for m in second.position.move_stack] == ["h3e3", "h10g8"]
    assert second.result == "1-0"
    assert first.comments == ["a comment", "to the end of the line", None, None]
    assert second.comments == [None, None] and second.line == 7


def test_comments_are_written_after_their_moves_and_read_back(games):
    pos = ff.load("chess").start()
    for text in ("e4", "e5", "Nf3"):
        pos.push_san(text)
    text = pgn.export(pos, comments=["[%eval 0.30]", None, "[%eval #-2]"])
    assert "1. e4 {[%eval 0.30]} 1... e5 2. Nf3 {[%eval #-2]} *" in text
    assert pgn.read_game(text).comments == ["[%eval 0.30]", None, "[%eval #-2]"]


def test_bad_pgn_gives_clear_errors(games, tmp_path):
    with pytest.raises(pgn.PgnError, match="ply 2"):
        pgn.read_game("[Variant \"chess\"]\n\n1. e4 Ke2 *\n")
    with pytest.raises(pgn.PgnError, match="unknown Variant"):
        pgn.read_game(f"[Variant \"{tmp_path}/x.variant\"]\n\n1. e4 *\n")
    with pytest.raises(pgn.PgnError, match="tag"):
        pgn.read_game("[Variant chess]\n\n1. e4 *\n")
    with pytest.raises(pgn.PgnError, match="no game"):
        pgn.read_game("")
    game = games["kjartansson"]
    pos = random_game(game, "given", plies=20)
    assert pgn.read_game(pgn.export(pos), game=game).position.fen() == pos.fen()
