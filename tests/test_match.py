"""bench/match.py: two very short fairyforge-vs-fairyforge games, the report's shape,
and the pyffish arbiter's verdicts on positions whose result is known."""

import importlib.util
import json
import os
import shlex
import subprocess
import sys

import pytest

sf = pytest.importorskip("pyffish")

MATCH = os.path.join(os.path.dirname(os.path.dirname(__file__)), "bench", "match.py")


def load_match():
    spec = importlib.util.spec_from_file_location("bench_match", MATCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_arbiter_scores_mate_and_repetition():
    match = load_match()
    fools_mate = ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert match.arbiter_verdict(sf, "chess", fools_mate) == ("0-1", "no legal move")
    assert match.arbiter_verdict(sf, "chess", fools_mate[:3]) is None
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
    assert match.arbiter_verdict(sf, "chess", shuffle)[0] == "1/2-1/2"


def test_random_openings_are_paired_and_legal():
    match = load_match()
    import random
    opening = match.random_opening(sf, "chess", 4, random.Random(3))
    assert len(opening) == 4
    assert match.random_opening(sf, "chess", 4, random.Random(3)) == opening


def test_two_short_games_report(tmp_path):
    out = tmp_path / "match.json"
    ours = f"{shlex.quote(sys.executable)} -m fairyforge.cli uci"
    run = subprocess.run(
        [sys.executable, MATCH, "--engine", ours, "--opponent", ours, "--depth", "1",
         "--games", "1", "--max-plies", "16", "--concurrency", "2", "--json", str(out)],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "games 2: +" in run.stdout and "Elo " in run.stdout and "95% interval" in run.stdout
    report = json.loads(out.read_text())
    summary = report["summary"]
    assert summary["games"] == 2
    assert summary["wins"] + summary["draws"] + summary["losses"] == 2
    assert set(summary["elo"]) == {"value", "ci95"}
    games = report["games"]
    assert sorted(g["engine_white"] for g in games) == [False, True]
    assert games[0]["opening"] == games[1]["opening"]            # one opening, both colours
    for game in games:
        assert not game["reason"].startswith("forfeit"), game["reason"]
        moves = game["moves"]
        for i, move in enumerate(moves):                         # every move was legal
            assert move in sf.legal_moves("chess", sf.start_fen("chess"), moves[:i])


def test_scores_are_read_from_info_lines_and_written_as_eval_comments():
    match = load_match()
    words = "info depth 9 score cp -35 upperbound nodes 5000 pv e2e4".split()
    assert match._score_of(words, None) == -35
    assert match._score_of("info depth 9 score mate 3 pv".split(), 0) == match.MATE_CP - 3
    assert match._score_of("info depth 9 score mate -2".split(), 0) == -(match.MATE_CP - 2)
    assert match._score_of("info depth 9 score".split(), 17) == 17
    assert match.eval_comment(-35) == "[%eval -0.35]"
    assert match.eval_comment(match.MATE_CP - 3) == "[%eval #3]"
    assert match.eval_comment(-(match.MATE_CP - 2)) == "[%eval #-2]"
    assert match.eval_comment(None) is None


def test_games_written_as_pgn_are_what_tune_reads(tmp_path):
    match = load_match()
    import fairyforge as ff
    from fairyforge.tune.samples import pgn_games
    settings = match.Settings("chess", "ours", "theirs", [], [], "nodes 10", 60.0, 400)
    records = [match.GameRecord(["f2f3", "e7e5"], True, "0-1", "no legal move",
                                ["f2f3", "e7e5", "g2g4", "d8h4"], [-250, -(match.MATE_CP - 1)]),
               match.GameRecord(["d2d4", "d7d5"], False, "1/2-1/2", "move limit",
                                ["d2d4", "d7d5", "g1f3"])]
    path = tmp_path / "games.pgn"
    match.write_pgn(str(path), settings, records)
    text = path.read_text()
    assert '[White "ours"]' in text and '[Black "ours"]' in text
    assert '[Termination "move limit"]' in text
    assert "2. g4 {[%eval -2.50]} 2... Qh4# {[%eval #-1]} 0-1" in text
    games = pgn_games(str(path), ff.load("chess"))
    assert [(g.moves, g.result, g.opening_plies) for g in games] == [
        (tuple(records[0].moves), "0-1", 2), (tuple(records[1].moves), "1/2-1/2", 2)]
    # the movers' scores, White's view, come back as pawns on their plies
    assert games[0].evals == (None, None, -2.5, -100.0) and games[1].evals is None


def test_teacher_pgn_gives_each_of_our_moves_the_opponents_score_one_ply_earlier(tmp_path):
    """bench/teacher_pgn.py: the opponent's moves keep their scores, ours take the
    opponent's previous one (none for our first), and tune reads them back so."""
    spec = importlib.util.spec_from_file_location(
        "bench_teacher_pgn", os.path.join(os.path.dirname(MATCH), "teacher_pgn.py"))
    teacher = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(teacher)
    match = teacher.match
    white = match.GameRecord(["e2e4", "e7e5"], True, "1-0", "no legal move",
                             ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "d7d6"],
                             [30, 45, 20, 60])
    black = match.GameRecord(["e2e4", "e7e5"], False, "0-1", "no legal move",
                             ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "d7d6"],
                             [30, 45, 20, 60])
    assert teacher.opponent_scores(white) == [None, 45, 45, 60]     # ours: plies 0 and 2
    assert teacher.opponent_scores(black) == [30, 30, 20, 20]       # ours: plies 1 and 3
    settings = {"variant": "chess", "engine": "ours", "opponent": "fsf",
                "engine_options": [], "opponent_options": [], "go": "nodes 10",
                "move_seconds": 60.0, "max_plies": 400}
    source = tmp_path / "match.json"
    source.write_text(json.dumps({"settings": settings, "games": [vars(white)]}))
    out = tmp_path / "teacher.pgn"
    assert teacher.main([str(source), str(out)]) == 0
    import fairyforge as ff
    from fairyforge.tune.samples import pgn_games
    games = pgn_games(str(out), ff.load("chess"))
    assert games[0].evals == (None, None, None, 0.45, 0.45, 0.6)


@pytest.mark.skipif(not os.access("/usr/games/fairy-stockfish", os.X_OK),
                    reason="needs Debian's fairy-stockfish")
def test_static_teacher_labels_each_move_with_the_static_evaluation(tmp_path):
    """bench/static_teacher.py: each move's [%eval] becomes Fairy-Stockfish's static
    evaluation of the position it was played from (none in check), tune reads them."""
    spec = importlib.util.spec_from_file_location(
        "bench_static_teacher", os.path.join(os.path.dirname(MATCH), "static_teacher.py"))
    teacher = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(teacher)
    source = tmp_path / "games.pgn"
    source.write_text('[Event "?"]\n[Result "0-1"]\n[OpeningPlies "0"]\n\n'
                      '1. e4 {[%eval 9.99]} e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 0-1\n')
    out = tmp_path / "static.pgn"
    assert teacher.main([str(source), str(out), "--games", "1"]) == 0
    import fairyforge as ff
    from fairyforge.tune.samples import pgn_games
    evals = pgn_games(str(out), ff.load("chess"))[0].evals
    # Kxf7 was played in check: no label; every other move has one, the old one gone
    assert len(evals) == 6 and evals[5] is None and None not in evals[:5]
    assert 9.99 not in evals
    evaluate = teacher.StaticEval(teacher.ENGINE)
    try:   # the start position's static score, White's view: White's tempo, a little up
        assert evals[0] == round(evaluate("chess", ff.load("chess").start().fen()), 2)
        assert 0 < evals[0] < 0.5
        with pytest.raises(ValueError, match="does not know the variant nosuchgame"):
            evaluate("nosuchgame", ff.load("chess").start().fen())   # (not chess's score)
    finally:
        evaluate.close()
