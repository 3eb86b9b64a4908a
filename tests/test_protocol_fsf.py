"""The same scripts against `fairyforge uci` and Fairy-Stockfish (Debian's
`fairy-stockfish` package; skipped where it is not installed), comparing the shape of
the answers: the options listed, the variant line, what an illegal move in `position`
leaves, and how a game with no legal move is answered.

Fairy-Stockfish lists many options Fairyforge does not have; the check is that every
option Fairyforge lists exists there with the same type, so a GUI configured for one
engine can configure the other.
"""

import os
import re
import shutil

import pytest

from test_uci_session import CHESS_LINE, Engine

FSF = shutil.which("fairy-stockfish") or next(
    (p for p in ("/usr/games/fairy-stockfish",) if os.access(p, os.X_OK)), None)
pytestmark = pytest.mark.skipif(FSF is None, reason="fairy-stockfish is not installed "
                                "(apt-get install fairy-stockfish)")

UCI_SCRIPT = [
    ("uci", "uciok"),
    ("setoption name UCI_Variant value chess\nisready", "readyok"),
    ("position startpos moves e2e4 e2e5 e7e5\ngo depth 1", "bestmove.*"),
    ("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo depth 1", "bestmove.*"),
    ("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 1", "bestmove.*"),
]
USI_SCRIPT = [
    ("usi", "usiok"),
    ("position sfen 8k/8G/8P/9/9/9/9/9/K8 w - 2\ngo depth 1", "bestmove.*"),
]


def transcript(program, script, games):
    """The answers to each step of a script, as lists of lines."""
    games["chess"], games["shogi"]               # our engines: built before timing starts
    engine = Engine(program=program)
    try:
        answers = []
        for lines, until in script:
            engine.send(*lines.split("\n"))
            answers.append(engine.until(until, 60))
        engine.send("quit")
        engine.process.wait(15)
        return answers
    finally:
        engine.kill()


@pytest.fixture(scope="module")
def uci_answers(games):
    ours = transcript(None, UCI_SCRIPT, games)
    theirs = transcript([FSF], UCI_SCRIPT, games)
    return ours, theirs


def options(lines):
    found = {}
    for line in lines:
        m = re.fullmatch(r"option name (.+?) type (\w+)(.*)", line)
        if m:
            found[m[1]] = (m[2], re.findall(r" var (\S+)", m[3]))
    return found


def test_every_option_we_list_is_one_of_theirs_with_the_same_type(uci_answers):
    ours, theirs = (options(answers[0]) for answers in uci_answers)
    assert ours and all(name in theirs and theirs[name][0] == kind
                        for name, (kind, _) in ours.items()), (ours, theirs)
    common = set(ours["UCI_Variant"][1]) & set(theirs["UCI_Variant"][1])
    assert {"chess", "crazyhouse", "shogi", "xiangqi"} <= common


def test_the_variant_line_is_the_same(uci_answers):
    for answers in uci_answers:
        assert [line for line in answers[1] if line.startswith("info string variant")] == \
            [CHESS_LINE]


def test_an_illegal_move_in_position_leaves_the_legal_prefix_in_both(uci_answers):
    chess = pytest.importorskip("chess")
    board = chess.Board()
    board.push_uci("e2e4")
    for answers in uci_answers:
        best = answers[2][-1].split()[1]
        assert chess.Move.from_uci(best) in board.legal_moves, answers[2]


def test_no_legal_move_is_answered_alike(uci_answers):
    for answers in uci_answers:
        assert answers[3][-2:] == ["info depth 0 score mate 0", "bestmove (none)"]
        assert answers[4][-2:] == ["info depth 0 score cp 0", "bestmove (none)"]


def test_usi_mate_is_answered_alike(games):
    for program in (None, [FSF]):
        answers = transcript(program, USI_SCRIPT, games)
        assert answers[1][-2:] == ["info depth 0 score mate 0", "bestmove resign"]
