"""bench/move_loss.py --match: which positions of a match's games it judges, who
played each move there, and how many pieces stand on the board (the judge itself is
Fairy-Stockfish, which these tests do not need)."""

import importlib.util
import json
import os
import random
import subprocess
import sys

import pyffish

BENCH = os.path.join(os.path.dirname(os.path.dirname(__file__)), "bench")


def _move_loss():
    sys.path.insert(0, BENCH)              # (move_loss imports its neighbour match.py)
    try:
        spec = importlib.util.spec_from_file_location("move_loss",
                                                      os.path.join(BENCH, "move_loss.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(BENCH)


def _match_file(tmp_path, variant="chess"):
    games = [  # ours White in the first game, Black in the second; two-ply openings
        {"opening": ["e2e4", "e7e5"], "engine_white": True, "result": "1-0",
         "moves": ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]},
        {"opening": ["d2d4", "d7d5"], "engine_white": False, "result": "0-1",
         "moves": ["d2d4", "d7d5", "c2c4", "d5c4"]},
    ]
    path = tmp_path / "match.json"
    path.write_text(json.dumps({"settings": {"variant": variant}, "games": games}))
    return str(path)


def test_every_ply_after_the_opening_is_drawn_with_its_mover(tmp_path):
    drawn = _move_loss().match_positions(_match_file(tmp_path), 100, random.Random(1))
    assert sorted((tuple(before), move, mover) for before, move, mover in drawn) == sorted([
        (("e2e4", "e7e5"), "g1f3", "ours"),
        (("e2e4", "e7e5", "g1f3"), "b8c6", "opponent"),
        (("e2e4", "e7e5", "g1f3", "b8c6"), "f1b5", "ours"),
        (("d2d4", "d7d5"), "c2c4", "opponent"),
        (("d2d4", "d7d5", "c2c4"), "d5c4", "ours"),
    ])


def test_pieces_are_counted_on_the_board_not_in_hand():
    move_loss = _move_loss()
    assert move_loss.board_pieces(pyffish, "chess", []) == 32
    assert move_loss.board_pieces(pyffish, "chess", ["e2e4", "d7d5", "e4d5"]) == 31
    # A crazyhouse capture puts the piece in hand ([p] after the board), not on it.
    assert move_loss.board_pieces(pyffish, "crazyhouse", ["e2e4", "d7d5", "e4d5"]) == 31


def test_a_match_of_another_variant_is_refused_clearly(tmp_path):
    run = subprocess.run([sys.executable, os.path.join(BENCH, "move_loss.py"), "shogi",
                          "--match", _match_file(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "is a match of chess, not shogi" in run.stderr
    assert "Traceback" not in run.stderr
