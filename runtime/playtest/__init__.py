"""`fairyforge playtest`: self-play at scale, every game kept, and a report a designer
can trust.

    from fairyforge import playtest
    outcome = playtest.run(["chess"], games=100, depth=2, db="pt/games.sqlite")
    playtest.write_report("pt/games.sqlite", "pt")       # report.md, report.json, plots
    playtest.export_pgn("pt/games.sqlite", "pt/games.pgn")

The modules, one concern each: `ruleset` (the rule model shipped to workers),
`selfplay` (one game, the openings), `store` (SQLite), `backend` (local processes or
Dask), `stats` (intervals, Elo, SPRT), `report` and `plots` (from the database),
`progress` (tqdm), `runner` (the coordinator), `command` (the CLI), `pgn`.
docs/playtest.md is the user's guide.
"""

import importlib
import json
import os

# The public names, each imported from its module on first use, so that the CLI's
# start (which imports `playtest.command` for its parser) does not pay for them.
_EXPORTS = {"open_backend": "backend", "export_pgn": "pgn", "PlaytestError": "ruleset",
            "RuleSet": "ruleset", "Outcome": "runner", "Plan": "runner",
            "GameJob": "selfplay", "play_game": "selfplay", "Sprt": "stats",
            "wilson": "stats", "RunSettings": "store", "Store": "store"}

__all__ = ["run", "write_report", *_EXPORTS]


def __getattr__(name):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def run(sources, games=20, depth=None, movetime=None, max_plies=300, seed=1, db=None,
        resume=False, processes=None, cluster=None, sprt=None, progress=False, log=None):
    """Play `games` games of each rule set in `sources` (one or two); returns an Outcome.

    depth (plies) or movetime (seconds per move) limits the search (default depth 3);
    db is the SQLite file (default playtest.sqlite); sprt, a Sprt, stops a two-rule-set
    run when its answer is clear.
    """
    from . import runner
    from .store import RunSettings
    if depth is None and movetime is None:
        depth = 3
    settings = RunSettings(games=games, seed=seed, depth=depth, movetime=movetime,
                           max_plies=max_plies, sprt=runner.settings_json(sprt))
    plan = runner.Plan(list(sources), settings, db or "playtest.sqlite", resume=resume,
                       processes=processes, cluster=cluster, sprt=sprt, progress=progress,
                       log=log)
    return runner.run(plan)


def write_report(db, out_dir, run_id=None):
    """report.md, report.json and the plots of a run (default: the latest) into
    out_dir; returns (markdown path, json path, [plot paths])."""
    from . import plots
    from . import report as report_phase
    from .ruleset import PlaytestError
    from .store import Store
    os.makedirs(out_dir, exist_ok=True)
    with Store(db) if isinstance(db, (str, os.PathLike)) else _borrowed(db) as store:
        run_id = run_id or store.latest_run()
        if run_id is None:
            raise PlaytestError(f"{store.path} holds no playtest")
        report = report_phase.build(store, run_id)
        games = store.games(run_id)
    by_label = {r["label"]: [g for g in games if g["slot"] == r["slot"]]
                for r in report["rulesets"]}
    images = plots.draw(report, by_label, out_dir)
    text = report_phase.markdown(report)
    if images:
        text += "\n" + "\n".join(f"![{os.path.basename(p)}]({os.path.basename(p)})"
                                 for p in images) + "\n"
    else:
        text += "\n(Plots need matplotlib: pip install 'fairyforge[playtest]'.)\n"
    md_path = os.path.join(out_dir, "report.md")
    json_path = os.path.join(out_dir, "report.json")
    with open(md_path, "w") as handle:
        handle.write(text)
    with open(json_path, "w") as handle:
        json.dump(report, handle, indent=2)
    return md_path, json_path, images


class _borrowed:
    """An open Store used in a `with` without closing it."""

    def __init__(self, store):
        self.store = store

    def __enter__(self):
        return self.store

    def __exit__(self, *exc):
        return False
