"""A depth cut short by the time limit (runtime/search.py `_deepen`, search.pxi's
search_root): its move is kept where it beat the last completed depth's choice, which
is searched first, and a fixed move time is spent whole (runtime/timing.py)."""

import fairyforge.search as search
from fairyforge.timing import Budget


def test_the_move_given_first_is_searched_first_and_kept_when_stopped(games):
    chess = games["chess"]
    pos = chess.start()
    # At depth 1 each root move costs one quiescence node at the start (no captures):
    # with two nodes, the first move is searched to the end and the second is stopped.
    for uci in ("a2a3", "g1f3", "h2h4"):
        code = next(m.code for m in pos.legal_moves() if str(m) == uci)
        pos.engine.new_game()
        score, move, nodes, stopped = pos.engine.search_depth(1, node_limit=2, first=code)
        assert stopped and move == code
    pos.engine.new_game()
    score, move, nodes, stopped = pos.engine.search_depth(1, node_limit=1)
    assert stopped and move == 0              # stopped before any move was searched


class _ScriptedRun:
    """A _Run whose depths return scripted lines: {depth: ([(score, move)], stopped)}."""

    def __init__(self, script):
        self.script = script
        self.stopped = False
        self.nodes = 0
        self.budget = Budget()
        self.engine = self.position = None
        self.first_asked = {}

    def iteration(self, depth, lines_wanted, guess=None, first=None):
        found, self.stopped = self.script[depth]
        self.first_asked[depth] = first
        return found


class _Move:
    def __init__(self, name):
        self.code = name

    def __repr__(self):
        return self.code


def _deepen(monkeypatch, script):
    monkeypatch.setattr(search, "_pv", lambda position, move: [move])
    run = _ScriptedRun(script)
    return search._deepen(run, len(script), 1, None, None), run


def test_a_stopped_depth_whose_move_beat_the_last_choice_is_kept(monkeypatch):
    a, b = _Move("a"), _Move("b")
    lines, run = _deepen(monkeypatch, {1: ([(10, a)], False), 2: ([(50, b)], True)})
    assert [(i.depth, i.score, i.pv[0]) for i in lines] == [(2, 50, b)]
    assert run.first_asked == {1: None, 2: "a"}      # the last choice is searched first


def test_a_stopped_depth_that_found_nothing_better_is_discarded(monkeypatch):
    a = _Move("a")
    lines, run = _deepen(monkeypatch, {1: ([(10, a)], False), 2: ([(-30, a)], True)})
    assert [(i.depth, i.score, i.pv[0]) for i in lines] == [(1, 10, a)]
    lines, run = _deepen(monkeypatch, {1: ([(10, a)], False), 2: ([], True)})
    assert [(i.depth, i.score) for i in lines] == [(1, 10)]


def _spent(budget, seconds):
    """`budget` as if its search had started `seconds` ago."""
    budget.started -= seconds
    return budget


def test_a_fixed_move_time_starts_new_depths_until_it_is_spent():
    assert _spent(Budget.fixed(10), 9).may_deepen()
    assert not _spent(Budget.fixed(10), 10.5).may_deepen()
    clock = Budget(soft=10, hard=20)           # a clock's budget: 55% of the soft limit
    assert _spent(clock, 5).may_deepen()
    assert not _spent(Budget(soft=10, hard=20), 6).may_deepen()
