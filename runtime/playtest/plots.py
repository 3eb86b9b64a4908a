"""The report's plots (matplotlib, the `playtest` extra): game lengths, results, and
the estimates over the course of the run, so that convergence is visible."""

import os

from . import report as report_phase
from . import stats


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def draw(report, games_by_label, out_dir):
    """Write the PNG files; returns their paths ([] without matplotlib)."""
    plt = _pyplot()
    if plt is None:
        return []
    paths = [lengths(plt, report, out_dir), results(plt, report, out_dir),
             convergence(plt, report, games_by_label, out_dir)]
    return [p for p in paths if p]


def _save(plt, fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def lengths(plt, report, out_dir):
    fig, ax = plt.subplots(figsize=(7, 4))
    every = [n for s in report["results"].values() for n in s["lengths"]]
    if every:                     # the same bins for every rule set, so bars compare
        step = max(1, -(-(max(every) - min(every) + 1) // 25))
        bins = list(range(min(every), max(every) + step + 1, step))
        for name, summary in report["results"].items():
            ax.hist(summary["lengths"], bins=bins, alpha=0.55, label=name)
    ax.set(title="Game lengths", xlabel="game length (plies)", ylabel="games")
    ax.legend()
    return _save(plt, fig, os.path.join(out_dir, "lengths.png"))


def results(plt, report, out_dir):
    fig, ax = plt.subplots(figsize=(7, 4))
    names = list(report["results"])
    bottoms = [0] * len(names)
    sides = report["rulesets"][0]["sides"]
    for key, colour, label in (("white_wins", "#e8e8e8", f"{sides[0]} wins"),
                               ("draws", "#9e9e9e", "draws"),
                               ("black_wins", "#303030", f"{sides[1]} wins")):
        values = [report["results"][n][key] for n in names]
        ax.bar(names, values, bottom=bottoms, color=colour, edgecolor="black", label=label)
        bottoms = [b + v for b, v in zip(bottoms, values)]
    ax.set(title="Results", ylabel="games")
    ax.legend()
    return _save(plt, fig, os.path.join(out_dir, "results.png"))


def running_score(games):
    """(games so far, first player's score, interval low, high) after each game."""
    rows, points = [], 0.0
    for n, game in enumerate(games, start=1):
        points += report_phase.first_player_points(game)
        lo, hi = stats.wilson(points, n)
        rows.append((n, points / n, lo, hi))
    return rows


def running_difference(first, second, sprt):
    """(pairs so far, Elo difference, low, high, LLR up, LLR down) after each pair."""
    diff, test, rows = stats.PairedDifference(), stats.SprtRun(sprt), []
    for a, b in report_phase.paired_games(first, second):
        diff.add(report_phase.first_player_points(a), report_phase.first_player_points(b))
        test.update(diff)
        e = diff.elo_interval()
        rows.append((diff.n, e["value"], *e["ci95"], test.llr["up"], test.llr["down"]))
    return rows


def convergence(plt, report, games_by_label, out_dir):
    """The first player's score as games came in, and for two rule sets the Elo-like
    difference and the SPRT's log-likelihood ratios as pairs came in."""
    two = report["comparison"] is not None
    fig, axes = plt.subplots(3 if two else 1, 1, figsize=(8, 9 if two else 4), squeeze=False)
    ax = axes[0][0]
    for name, games in games_by_label.items():
        rows = running_score(games)
        if rows:
            n, score, lo, hi = zip(*rows)
            ax.plot(n, score, label=name)
            ax.fill_between(n, lo, hi, alpha=0.2)
    ax.axhline(0.5, color="grey", linewidth=0.8)
    ax.set(title="First player's score as games finish (95% interval)",
           xlabel="games", ylabel="score")
    ax.legend()
    if two:
        _difference_panels(axes[1][0], axes[2][0], report, games_by_label)
    return _save(plt, fig, os.path.join(out_dir, "convergence.png"))


def _difference_panels(ax_elo, ax_llr, report, games_by_label):
    first, second = list(games_by_label)
    s = report["comparison"]["sprt"]
    test = stats.Sprt(elo1=s["elo1"], alpha=s["alpha"], beta=s["beta"], elo0=s["elo0"])
    rows = running_difference(games_by_label[first], games_by_label[second], test)
    if not rows:
        return
    n, value, lo, hi, up, down = zip(*rows)
    ax_elo.plot(n, value, color="C2")
    ax_elo.fill_between(n, lo, hi, color="C2", alpha=0.2)
    ax_elo.axhline(0, color="grey", linewidth=0.8)
    ax_elo.set(title=f"First player's edge, {second} minus {first} (Elo-like, 95% interval)",
               xlabel="pairs", ylabel="Elo")
    ax_llr.plot(n, up, label=f"H1: +{test.elo1:g} Elo")
    ax_llr.plot(n, down, label=f"H1: -{test.elo1:g} Elo")
    for bound in test.bounds:
        ax_llr.axhline(bound, color="red", linestyle="--", linewidth=0.8)
    for side, colour in (("up", "C0"), ("down", "C1")):      # where each side's verdict fell
        if s["sides_decided_after_pairs"][side]:
            ax_llr.axvline(s["sides_decided_after_pairs"][side], color=colour, linestyle=":",
                           label=f"{side}: {s['sides'][side]} accepted")
    ax_llr.set(title="SPRT log-likelihood ratios and their bounds", xlabel="pairs", ylabel="LLR")
    ax_llr.legend()
