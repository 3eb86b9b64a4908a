"""The search's run-time settings (search.pxi, Settings; Engine.configure_search): each
reaches the compiled search, bad ones are refused without changing anything, helpers
inherit them, mates are still found with every pruning on, and the A/B match
(runtime/tune/match.py, bench/search_ab.py) plays one build against itself with two
settings."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fairyforge.compiler import loader
from fairyforge.search import think
from fairyforge.tune import match

ROOT = Path(__file__).resolve().parent.parent
MIDDLEGAME = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
QUIET = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8"
DEFAULTS = {"null_move": 0, "null_base": 3, "null_depth_div": 4, "null_margin": 0,
            "lmr_divisor": 225, "lmp_depth": 3, "futility_depth": 3, "rfp_depth": 3,
            "razor_depth": 2, "iir_depth": 0, "history_malus": 0, "see_depth": 0,
            "qs_tt": 0, "qs_evasions": 0, "qs_checks": 0, "aspiration": 0, "cont_history": 0,
            "tempo": 0, "rfp_margin": 200, "improving": 0, "singular_depth": 0,
            "singular_margin": 2, "qs_delta": 0, "capture_history": 0, "tt_static": 0,
            "cut_reduction": 0, "check_see": 0, "probcut": 0, "lmr_first": 4,
            "history_prune": 0, "lmr_history": 0, "tt_capture_reduction": 0,
            "lmr_futility": 0, "lmr_captures": 0, "qs_promotions": 0}


def _position(game, fen, **settings):
    """A position of `game` whose engine searches with every game's defaults (not the
    ones its parameter file may set) and `settings` over them."""
    pos = game.position(fen)
    pos.engine.configure_search(**{**DEFAULTS, **settings})
    return pos


def _nodes(game, depth=7, fen=MIDDLEGAME, **settings):
    """Nodes of a fixed-depth search of `fen`, from an empty table."""
    return think(_position(game, fen, **settings), depth=depth).info.nodes


def test_defaults_are_the_measured_ones(games):
    """(xiangqi's parameter file sets none of its own)"""
    assert games["xiangqi"].start().engine.search_settings() == DEFAULTS


@pytest.mark.parametrize("settings", [
    {"null_move": 1}, {"null_move": 1, "null_margin": 100}, {"lmr_divisor": 150},
    {"lmp_depth": 0}, {"futility_depth": 0}, {"rfp_depth": 0}, {"razor_depth": 0},
    {"iir_depth": 4}, {"history_malus": 1}, {"see_depth": 3}, {"qs_tt": 1},
    {"qs_evasions": 2}, {"qs_checks": 1}, {"aspiration": 40}, {"rfp_margin": 80}, {"improving": 1},
    {"singular_depth": 4}, {"qs_delta": 200}, {"capture_history": 1}, {"tt_static": 1},
    {"cut_reduction": 2}, {"check_see": 1}, {"probcut": 200},
    {"lmr_first": 2}, {"tt_capture_reduction": 1}, {"lmr_futility": 6},
    {"lmr_captures": 1}])
def test_each_setting_reaches_the_search(games, settings):
    """A setting that changed nothing in the compiled search would leave the tree as
    it is."""
    assert _nodes(games["chess"], **settings) != _nodes(games["chess"])


def test_history_pruning_reaches_the_search(games):
    """Histories fall below zero only with the malus (chess's file sets it), so history
    pruning is measured beside it."""
    chess = games["chess"]
    assert _nodes(chess, history_malus=1, history_prune=4) != _nodes(chess, history_malus=1)


def test_the_continuous_history_reduction_reaches_the_search(games):
    """lmr_history reduces by history and continuation history together, so it is
    measured with both kept (and the malus, which makes records fall below zero), in a
    quiet position deep enough for records to build up."""
    chess = games["chess"]
    kept = {"history_malus": 1, "cont_history": 1}
    assert _nodes(chess, depth=9, fen=QUIET, lmr_history=100, **kept) \
        != _nodes(chess, depth=9, fen=QUIET, **kept)


def test_the_singular_margin_reaches_the_search(games):
    """With singular extensions on, a wider margin extends fewer moves."""
    chess = games["chess"]
    assert _nodes(chess, singular_depth=4, singular_margin=50) \
        != _nodes(chess, singular_depth=4)


def test_the_tempo_is_the_side_to_moves_in_every_static_evaluation(games):
    """After any first move of chess nothing can be captured: every line of a depth-1
    search ends in the evaluation of the opponent's position, which the tempo raises
    for the opponent."""
    def score(**settings):
        return think(_position(games["chess"], games["chess"].start_fen, **settings),
                     depth=1).info.score
    assert score(tempo=30) == score() - 30


def test_pruning_less_searches_more(games):
    chess = games["chess"]
    assert _nodes(chess, lmp_depth=0, futility_depth=0, rfp_depth=0, razor_depth=0) \
        > _nodes(chess)


@pytest.mark.parametrize("settings, message", [
    ({"nul_move": 1}, "unknown search setting 'nul_move'"),
    ({"null_move": -1}, "null_move must be a whole number from 0 to 1000"),
    ({"lmr_divisor": 2.5}, "lmr_divisor must be a whole number"),
    ({"lmr_divisor": 0}, "lmr_divisor must be at least 1"),
    ({"null_move": 1, "null_depth_div": 0}, "null_depth_div"),
])
def test_bad_settings_are_refused_and_change_nothing(games, settings, message):
    engine = games["chess"].start().engine
    before = engine.search_settings()
    with pytest.raises(ValueError, match=message):
        engine.configure_search(**settings)
    assert engine.search_settings() == before


def test_helper_threads_search_with_the_same_settings(games):
    engine = games["chess"].start().engine
    before = engine.search_settings()
    engine.configure_search(null_move=1, lmr_divisor=180)
    assert engine.clone().search_settings() == {**before, "null_move": 1,
                                                "lmr_divisor": 180}


@pytest.mark.parametrize("game, fen, mate", [
    ("chess", "6k1/8/5K2/3R4/8/8/8/8 w - - 0 1", 2),
    ("shogi", "8k/9/8P/9/9/9/9/9/K8[G] w - - 0 1", 1),
])
def test_mates_are_found_with_every_pruning_on(games, game, fen, mate):
    pos = games[game].position(fen)
    pos.engine.configure_search(null_move=1, null_margin=50, lmr_divisor=150, lmp_depth=5,
                                futility_depth=6, rfp_depth=6, iir_depth=3, history_malus=1,
                                see_depth=4, qs_tt=1, qs_evasions=4, qs_checks=2,
                                cont_history=1, capture_history=1,
                                rfp_margin=50, improving=1, singular_depth=3, qs_delta=1)
    assert think(pos, depth=6).info.mate == mate


ITALIAN = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


@pytest.mark.parametrize("fen", [ITALIAN, MIDDLEGAME])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_delta_pruning_keeps_the_captures_that_matter(games, fen, depth):
    """With the smallest margin, quiescence still searches every capture that could
    lift the score to alpha: in chess the pruned search finds the move and nearly the
    score of the full one, while it searches fewer nodes.  (Were the victim's value
    left out, 4.Nxe5 would look good at depth 1, the knight's loss to Nxe5 pruned.)"""
    plain = think(_position(games["chess"], fen), depth=depth).info
    pruned = think(_position(games["chess"], fen, qs_delta=1), depth=depth).info
    assert str(pruned.pv[0]) == str(plain.pv[0])
    assert abs(pruned.score - plain.score) <= 20
    assert pruned.nodes <= plain.nodes


# Black's pawn queens next move, whatever White plays: only a quiescence that searches
# promotions sees it from a one-ply search.
PAWN_RACE = "k7/8/8/8/8/8/1p6/7K w - - 0 1"


def test_quiescence_sees_a_queening_past_the_horizon_with_qs_promotions(games):
    """With qs_promotions, a one-ply search counts Black's b1=Q, a move that takes
    nothing, in the quiescence after each king move: White is a queen down, not a
    pawn down as the static score at the horizon says."""
    chess = games["chess"]
    plain = think(_position(chess, PAWN_RACE), depth=1).info.score
    seen = think(_position(chess, PAWN_RACE, qs_promotions=800), depth=1).info.score
    assert plain > -400 and seen < plain - 500


def test_qs_promotions_leaves_out_the_promotions_that_gain_too_little(games):
    """The threshold is in hundredths of the cheapest piece: at 800 only b1=Q (about 13
    pawns) is searched, at 100 the under-promotions too (a knight gains about 3.5),
    so the trees differ."""
    chess = games["chess"]
    queen_only = _nodes(chess, depth=4, fen=PAWN_RACE, qs_promotions=800)
    assert queen_only != _nodes(chess, depth=4, fen=PAWN_RACE)
    assert queen_only != _nodes(chess, depth=4, fen=PAWN_RACE, qs_promotions=100)


def test_continuation_history_reaches_the_search_and_new_game_forgets_it(games):
    """cont_history changes the tree of a quiet position (in MIDDLEGAME, a tactical
    one, quiet cut-offs are too few to reorder anything by depth 7); what it learnt
    orders the next search until new_game, after which a search is a fresh engine's."""
    chess = games["chess"]
    fresh = _nodes(chess, 8, QUIET, cont_history=1)
    assert fresh != _nodes(chess, 8, QUIET)
    pos = _position(chess, QUIET, cont_history=1)
    think(pos, depth=8)
    assert think(pos, depth=8).info.nodes != fresh        # (the table and history help)
    pos.engine.new_game()
    assert think(pos, depth=8).info.nodes == fresh


def test_capture_history_reaches_the_search_and_new_game_forgets_it(games):
    """capture_history reorders the captures of a tactical position (MIDDLEGAME); what
    it learnt orders the next search until new_game."""
    chess = games["chess"]
    fresh = _nodes(chess, 8, MIDDLEGAME, capture_history=1)
    assert fresh != _nodes(chess, 8, MIDDLEGAME)
    pos = _position(chess, MIDDLEGAME, capture_history=1)
    think(pos, depth=8)
    assert think(pos, depth=8).info.nodes != fresh
    pos.engine.new_game()
    assert think(pos, depth=8).info.nodes == fresh


def test_a_match_between_two_settings_plays_both(games):
    variant = loader.load_variant("chess")
    result = match.run(variant, None, None, games=2, nodes=300, max_plies=20, processes=1,
                       new_search={"null_move": 1}, old_search={"lmp_depth": 0})
    assert result["games"] == 2 and 0 <= result["score"] <= 1


def test_a_match_stops_when_its_caller_has_seen_enough(games):
    variant = loader.load_variant("chess")
    seen = []
    result = match.run(variant, None, None, games=8, nodes=200, max_plies=12, processes=1,
                       on_game=lambda r: seen.append(r) or len(seen) == 3)
    assert result["games"] == len(seen) == 3


def test_search_ab_refuses_an_unknown_setting_in_one_line():
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "search_ab.py"), "chess",
                          "--a", "nul_move=1", "--games", "2"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode != 0
    assert "search_ab.py: unknown search setting 'nul_move'" in run.stderr
    assert "Traceback" not in run.stderr


def test_search_ab_plays_and_writes_its_summary(tmp_path):
    out = tmp_path / "ab.json"
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "search_ab.py"), "chess",
                          "--a", "null_move=1", "--games", "2", "--nodes", "200",
                          "--max-plies", "16", "--processes", "1", "--json", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "chess: A null_move=1 vs B (defaults), 200 nodes a move: 2 games" in run.stdout
    summary = json.loads(out.read_text())
    assert summary["a"] == {"null_move": 1} and summary["summary"]["games"] == 2
    assert summary["sprt"] is None


def test_search_ab_with_sprt_says_its_verdict(tmp_path):
    out = tmp_path / "ab.json"
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "search_ab.py"), "chess",
                          "--a", "null_move=1", "--games", "2", "--nodes", "200",
                          "--max-plies", "16", "--processes", "1", "--sprt", "20",
                          "--json", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "SPRT (A +20 Elo against +0): undecided when the games ran out, LLR " in run.stdout
    sprt = json.loads(out.read_text())["sprt"]
    assert sprt["elo1"] == 20 and sprt["verdict"] is None
