"""The playtest report, computed from the database alone.

`build(store, run_id)` reads a run's games and returns the report as plain data (the
JSON file); `markdown(report)` renders it for people.  Nothing here plays a game, so a
report can be rebuilt at any time, also while a run is going on.
"""

import statistics

import yaml

from . import stats

PHASES = (("opening", 0, 20), ("middlegame", 20, 60), ("endgame", 60, 10 ** 9))


def build(store, run_id, sprt=None):
    """The report of one run: settings, sessions, one summary per rule set and, for two
    rule sets, their comparison.  `sprt` (a stats.Sprt) overrides the stored stop rule."""
    info = store.run_info(run_id)
    rulesets = store.rulesets(run_id)
    games = store.games(run_id)
    by_slot = {r["slot"]: [g for g in games if g["slot"] == r["slot"]] for r in rulesets}
    for r in rulesets:
        r["sides"] = _side_names(store.model_yaml(run_id, r["slot"]))
    report = {"run": info, "sessions": store.sessions(run_id), "rulesets": rulesets,
              "results": {r["label"]: summarize(by_slot[r["slot"]]) for r in rulesets},
              "comparison": None}
    if len(rulesets) == 2:
        test = sprt or _stored_sprt(info)
        report["comparison"] = compare(by_slot[0], by_slot[1], test,
                                       same_model=rulesets[0]["model_hash"] == rulesets[1]["model_hash"])
    return report


def _side_names(model_yaml):
    names = yaml.safe_load(model_yaml).get("side_names") or ("White", "Black")
    return list(names)


def _stored_sprt(info):
    import json
    if not info.get("sprt"):
        return stats.Sprt()          # reported for information even when not used to stop
    return stats.Sprt(**json.loads(info["sprt"]))


def first_player_points(game):
    return {"white": 1.0, "black": 0.0}.get(game["winner"], 0.5)


def summarize(games):
    n = len(games)
    white = sum(g["winner"] == "white" for g in games)
    black = sum(g["winner"] == "black" for g in games)
    draws = n - white - black
    lengths = [g["plies"] for g in games]
    points = white + draws / 2
    seconds = sum(g["search_seconds"] for g in games)
    return {
        "games": n, "white_wins": white, "black_wins": black, "draws": draws,
        "white_win_rate": stats.rate(white, n), "black_win_rate": stats.rate(black, n),
        "draw_rate": stats.rate(draws, n),
        "first_player_decisive_share": stats.rate(white, white + black),
        "first_player_score": stats.score_interval(points, n),
        "first_player_edge_elo": stats.edge_elo(points, n),
        "length": {**stats.mean_interval(lengths),
                   "median": statistics.median(lengths) if lengths else None,
                   "min": min(lengths, default=None), "max": max(lengths, default=None)},
        "endings": _endings(games),
        "branching_by_phase": _branching(games),
        "search_nodes_per_second": int(sum(g["nodes"] for g in games) / seconds) if seconds else 0,
        "lengths": lengths,
    }


def _endings(games):
    counts = {}
    for g in games:
        key = f"{g['winner'] or 'draw'} by {g['reason']}"
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _branching(games):
    phases = {}
    for label, lo, hi in PHASES:
        values = [b for g in games for b in g["branching"][lo:hi]]
        phases[label] = round(statistics.mean(values), 1) if values else None
    return phases


def paired_games(first, second):
    """[(game under the first rule set, game under the second)] for every pair both
    finished, in the order the pairs were completed."""
    mine = {g["pair"]: g for g in first}
    pairs = [(mine[g["pair"]], g) for g in second if g["pair"] in mine]
    return sorted(pairs, key=lambda ab: max(ab[0]["id"], ab[1]["id"]))


def compare(first, second, sprt, same_model=False):
    """The paired comparison of two rule sets' games (second minus first)."""
    pairs = paired_games(first, second)
    diff = stats.PairedDifference()
    test = stats.SprtRun(sprt)
    for a, b in pairs:
        diff.add(first_player_points(a), first_player_points(b))
        test.update(diff)
    identical = sum(a["moves"] == b["moves"] for a, b in pairs)
    draws = stats.PairedDifference()
    for a, b in pairs:
        draws.add(float(a["winner"] is None), float(b["winner"] is None))
    return {
        "pairs": len(pairs), "identical_pairs": stats.rate(identical, len(pairs)),
        "all_identical": bool(pairs) and identical == len(pairs), "same_model": same_model,
        "score_difference": diff.interval(), "elo_difference": diff.elo_interval(),
        "draw_rate_difference": draws.interval(),
        "sprt": test.as_dict(),
    }


# -- Markdown ---------------------------------------------------------------------------

def _pct(rate):
    if rate["value"] is None:
        return "-"
    lo, hi = rate["ci95"]
    return f"{100 * rate['value']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"


def _elo(value):
    if value is None:
        return "-"
    return "0" if round(value) == 0 else f"{round(value):+d}"


def _interval(entry, fmt):
    if entry["value"] is None:
        return "-"
    lo, hi = entry["ci95"]
    return f"{fmt(entry['value'])} ({fmt(lo)} to {fmt(hi)})"


def _rows(first_side, second_side):
    return [
        ("games", lambda s: str(s["games"])),
        (f"first player ({first_side}) wins", lambda s: _pct(s["white_win_rate"])),
        (f"second player ({second_side}) wins", lambda s: _pct(s["black_win_rate"])),
        ("draws", lambda s: _pct(s["draw_rate"])),
        ("first player's share of decisive games", lambda s: _pct(s["first_player_decisive_share"])),
        ("first player's score", lambda s: _interval(s["first_player_score"], lambda v: f"{v:.3f}")),
        ("first player's edge, Elo", lambda s: _interval(s["first_player_edge_elo"], _elo)),
        ("game length, plies: mean (interval) / median / min-max",
         lambda s: "-" if not s["games"] else
         f"{_interval(s['length'], lambda v: f'{v:.1f}')} / {s['length']['median']} / "
         f"{s['length']['min']}-{s['length']['max']}"),
    ] + [(f"branching factor, {label}",
          lambda s, label=label: str(s["branching_by_phase"][label] or "-"))
         for label, _, _ in PHASES] + [
        ("engine speed in search, nodes/s", lambda s: f"{s['search_nodes_per_second']:,}"),
    ]


def settings_text(run):
    limit = (f"depth {run['depth']}" if run["depth"] else f"{run['movetime']:g} s per move")
    return (f"{run['games']} self-play games per rule set, {limit}, {run['max_plies']} plies "
            f"at most, the first {run['opening_plies']} plies random, seed {run['seed']}")


def markdown(report):
    labels = [r["label"] for r in report["rulesets"]]
    sides = report["rulesets"][0]["sides"]
    run = report["run"]
    lines = [f"# Playtest: {' vs '.join(labels)}", "",
             f"{settings_text(run)}. Run {run['id']}: {run['status']}. "
             "Intervals are 95% (Wilson score intervals for rates).", "",
             "| | " + " | ".join(labels) + " |", "|---|" + "---|" * len(labels)]
    for label, cell in _rows(*sides[:2]):
        lines.append(f"| {label} | " + " | ".join(cell(report["results"][n]) for n in labels) + " |")
    if report["comparison"]:
        lines += comparison_markdown(report["comparison"], labels)
    for name in labels:
        lines += ["", f"## How {name} games ended", ""]
        lines += [f"- {reason}: {count}" for reason, count in report["results"][name]["endings"].items()]
    lines += ["", "## Rule sets", ""]
    lines += [f"- {r['label']}: {r['source']}, rule model {r['model_hash'][:16]}"
              for r in report["rulesets"]]
    return "\n".join(lines) + "\n"


def comparison_markdown(c, labels):
    first, second = labels
    lines = ["", f"## {second} against {first}", "",
             f"Game i of both rule sets starts from the same random opening. {c['pairs']} "
             f"pairs finished; differences are {second} minus {first}, from the pairs.", ""]
    if c["same_model"]:
        lines += ["**The two rule sets have the same rule model**: they are one game.", ""]
    if c["all_identical"]:
        lines += [f"**Warning: all {c['pairs']} paired games were move-for-move identical.** "
                  "The changed rule never came into play, so these games say nothing about it; "
                  "try more games, a deeper search or positions where the rule matters.", ""]
    identical = c["identical_pairs"]
    sprt = c["sprt"]
    if sprt["decision"]:
        verdict = f"{sprt['decision']} (decided after {sprt['decided_after_pairs']} pairs)"
    else:
        verdict = "no decision yet"
    lo, hi = sprt["bounds"]
    sides = "; ".join(_side(sprt, side, sign) for side, sign in (("up", "+"), ("down", "-")))
    lines += [
        f"- identical pairs (the rule did not come into play): {_pct(identical)}",
        f"- first player's score: {_interval(c['score_difference'], lambda v: f'{v:+.3f}')}",
        f"- first player's edge, Elo-like: {_interval(c['elo_difference'], _elo)}",
        f"- draw rate: {_interval(c['draw_rate_difference'], lambda v: f'{100 * v:+.1f}%')}",
        f"- SPRT (H0: the edge moved by {sprt['elo0']:g} Elo, H1: by ±{sprt['elo1']:g}; "
        f"alpha {sprt['alpha']:g}, beta {sprt['beta']:g}): {verdict}; {sides}; "
        f"bounds {lo:.2f} and {hi:.2f}",
    ]
    return lines


def _side(sprt, side, sign):
    """One one-sided test's state, e.g. "+20 Elo: H0 accepted after 812 pairs"."""
    name = f"{sign}{sprt['elo1']:g} Elo: LLR {sprt['llr'][side]:+.2f}"
    verdict = sprt["sides"][side]
    if verdict is None:
        return f"{name}, open"
    return f"{name}, {verdict} accepted after {sprt['sides_decided_after_pairs'][side]} pairs"
