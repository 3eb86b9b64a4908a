"""Running a playtest: plan the games, deal them to a backend, store each result.

The coordinator (this module, in the user's process) resolves and builds the rule
sets, deals the openings, and is the only writer of the database: each game is
committed the moment its result comes back.  Ctrl-C stops the run between two
commits (a result being written is finished first), stops the workers and marks the
run interrupted; `--resume` then plays exactly the games still missing.
"""

import json
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Optional

from . import report as report_phase
from . import stats
from .backend import open_backend
from .ruleset import PlaytestError, RuleSet, game_for
from .selfplay import GameJob, deal_opening, pair_seed, play_game
from .store import RunSettings, Store


@dataclass
class Plan:
    """A playtest as the user asked for it."""

    sources: list                    # one or two bundled names or definition paths
    settings: RunSettings
    db_path: str
    resume: bool = False
    processes: Optional[int] = None
    cluster: Optional[str] = None
    sprt: Optional[stats.Sprt] = None    # None: play every game
    progress: Optional[bool] = None      # None: a bar only on a terminal
    log: object = None                   # log(message) for build messages


@dataclass
class Outcome:
    run_id: int
    db_path: str
    played: int                      # games stored by this session
    stored: int                      # games of the run in the database
    end: str                         # complete, stopped: ..., interrupted
    backend: str = ""
    report: dict = field(default_factory=dict)


def load_rulesets(sources, log=None):
    """Resolve and build the rule sets (errors here come before any game is dealt)."""
    rulesets = []
    for slot, source in enumerate(sources):
        ruleset = RuleSet.load(source)
        if any(r.label == ruleset.label for r in rulesets):
            ruleset = replace(ruleset, label=f"{ruleset.label}#{slot + 1}")
        rulesets.append(ruleset)
    rulesets = _same_kind_of_evaluation(rulesets, log)
    for ruleset in rulesets:
        game_for(ruleset, progress=log)
    return rulesets


def _same_kind_of_evaluation(rulesets, log):
    """A comparison measures rules, not evaluations: where only some of the rule sets
    have learned parameters (chess ships some; a variant extending it has none), every
    rule set plays with the evaluation derived from its rules."""
    from ..compiler import evalparams
    quiet = lambda message: None          # noqa: E731  (the build warns of a stale file)
    learned = [evalparams.for_build(r.variant, progress=quiet) is not None for r in rulesets]
    if all(learned) or not any(learned):
        return rulesets
    if log:
        names = ", ".join(r.label for r, has in zip(rulesets, learned) if has)
        log(f"evaluation: derived from the rules for every rule set (only {names} has "
            "learned parameters, which would weigh in the comparison)")
    return [replace(r, evaluation="derived") for r in rulesets]


# The settings a resume must repeat, with the options that set them.
RESUMED_OPTIONS = (("games", "--games"), ("seed", "--seed"), ("depth", "--depth"),
                   ("movetime", "--movetime"), ("max_plies", "--max-plies"),
                   ("hash_mb", "the hash size"), ("sprt", "the stop rule (--sprt-*, --no-sprt)"))


def open_run(store, plan, rulesets):
    """The run to play: a new one, or for --resume the latest, checked against the plan."""
    if not plan.resume:
        return store.new_run(plan.settings, rulesets)
    run_id = store.latest_run()
    if run_id is None:
        raise PlaytestError(f"--resume: {plan.db_path} holds no playtest to resume")
    stored = store.settings(run_id)
    for name, option in RESUMED_OPTIONS:
        if getattr(stored, name) != getattr(plan.settings, name):
            raise PlaytestError(
                f"--resume: run {run_id} in {plan.db_path} was started with {option} "
                f"{_shown(getattr(stored, name))}, not {_shown(getattr(plan.settings, name))}: "
                "give the options it was started with")
    stored_sets = store.rulesets(run_id)
    if [r["model_hash"] for r in stored_sets] != [r.model_hash for r in rulesets]:
        was = " vs ".join(f"{r['label']} ({r['source']})" for r in stored_sets)
        raise PlaytestError(f"--resume: run {run_id} in {plan.db_path} played {was}, and "
                            "these rules are not the same (a changed definition?)")
    return run_id


def _shown(value):
    return "none" if value is None else value


def plan_jobs(plan, rulesets, done):
    """The games still missing, pair by pair, with their shared openings."""
    games = [game_for(r) for r in rulesets]
    s = plan.settings
    lo, hi = (int(x) for x in s.opening_plies.split("-"))
    jobs = []
    for pair in range(s.games):
        missing = [slot for slot in range(len(rulesets)) if (slot, pair) not in done]
        if not missing:
            continue
        opening = deal_opening(games, pair_seed(s.seed, pair), (lo, hi))
        jobs += [GameJob(rulesets[slot], slot, pair, opening, s.depth, s.movetime,
                         s.max_plies, s.hash_mb) for slot in missing]
    return jobs


class Tally:
    """Running estimates for the progress bar and the stop rule."""

    def __init__(self, slots, sprt):
        self.points = [0.0] * slots
        self.counts = [0] * slots
        self.waiting = {}                 # pair -> {slot: first-player points}
        self.pairs = stats.PairedDifference()
        self.test = stats.SprtRun(sprt) if sprt else None

    def add(self, slot, pair, winner):
        points = report_phase.first_player_points({"winner": winner})
        self.points[slot] += points
        self.counts[slot] += 1
        if len(self.points) < 2:
            return None
        half = self.waiting.setdefault(pair, {})
        half[slot] = points
        if len(half) < 2:
            return None
        del self.waiting[pair]
        self.pairs.add(half[0], half[1])
        return self.test.update(self.pairs) if self.test else None

    def status(self):
        if len(self.points) == 2 and self.pairs.n:
            e = self.pairs.elo_interval()
            return f"Δ edge {e['value']:+.0f} Elo ({e['ci95'][0]:+.0f} to {e['ci95'][1]:+.0f})"
        if self.counts[0]:
            s = stats.score_interval(self.points[0], self.counts[0])
            return f"first player {s['value']:.3f} ({s['ci95'][0]:.3f}-{s['ci95'][1]:.3f})"
        return ""


def replay_tally(store, run_id, slots, sprt):
    """The tally of the games already stored (for a resumed run)."""
    tally = Tally(slots, sprt)
    for game in store.games(run_id):
        tally.add(game["slot"], game["pair"], game["winner"])
    return tally


class InterruptGuard:
    """Ctrl-C raises KeyboardInterrupt, except inside `shield()`, where it waits until
    the shielded work (storing a game) is done."""

    def __init__(self):
        self.shielded = self.pending = False
        self.previous = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)

    def _handler(self, signum, frame):
        if self.shielded:
            self.pending = True
        else:
            raise KeyboardInterrupt

    @contextmanager
    def shield(self):
        self.shielded = True
        try:
            yield
        finally:
            self.shielded = False
        if self.pending:
            raise KeyboardInterrupt


def run(plan, announce=None):
    """Play the plan's missing games into its database; returns an Outcome.

    announce(message), if given, is called once the rule sets are built and the run is
    open, before the first game is dealt."""
    rulesets = load_rulesets(plan.sources, plan.log)
    with Store(plan.db_path) as store:
        run_id = open_run(store, plan, rulesets)
        done = store.done(run_id)
        status = store.run_info(run_id)["status"]
        jobs = [] if status.startswith("stopped") else plan_jobs(plan, rulesets, done)
        test = plan.sprt if len(rulesets) == 2 else None
        tally = replay_tally(store, run_id, len(rulesets), test)
        if tally.test and tally.test.decision:      # decided by the games already stored
            jobs, status = [], f"stopped: {tally.test.decision}"
        if not jobs:
            end = status if status.startswith("stopped") else "complete"
            store.set_status(run_id, end)
            return Outcome(run_id, plan.db_path, 0, len(done), end)
        with open_backend(plan.cluster, plan.processes) as backend:
            where = backend.description
            session = store.begin_session(run_id, where)
            if announce:
                announce(f"run {run_id} in {plan.db_path}, session {session}: "
                         f"{len(jobs)} games to play on {where}")
            played, end = _play(store, run_id, session, backend, jobs, tally, plan,
                                total=len(rulesets) * plan.settings.games, done=len(done))
            store.end_session(run_id, session, end)
            store.set_status(run_id, end)
        return Outcome(run_id, plan.db_path, played, len(store.done(run_id)), end, where)


def _play(store, run_id, session, backend, jobs, tally, plan, total, done):
    from .progress import Progress
    bar = Progress(total, done, plan.progress)
    played, end = 0, "complete"
    stream = backend.imap_unordered(play_game, jobs)
    try:
        with InterruptGuard() as guard:
            for job, record in stream:
                with guard.shield():
                    played += store.add_game(run_id, session, record)
                    decision = tally.add(job.slot, job.pair, record["winner"])
                bar.update(tally.status())
                if decision:
                    end = f"stopped: {decision}"
                    break
    except KeyboardInterrupt:
        end = "interrupted"
    except PlaytestError as err:          # the backend failed: keep what was stored
        store.end_session(run_id, session, f"failed: {err}")
        store.set_status(run_id, "interrupted")
        raise
    finally:
        stream.close()
        bar.close()
    return played, end


def settings_json(sprt):
    return json.dumps(sprt.as_dict(), sort_keys=True) if sprt else None
