"""`fairyforge playtest`: self-play on all cores, and a report for the game's designer.

Each game starts with a few random moves (so games differ), then the engine plays both
sides at a fixed depth or time per move.  The report gives wins, draws and losses with
95% intervals, the first player's advantage, the draw rate, game lengths, how games
ended and the branching factor by phase, as Markdown and JSON, with plots when
matplotlib is installed.  `--against` plays a second rule set the same way and puts
the two side by side.
"""

import json
import math
import multiprocessing
import os
import random
import statistics
import time

from .search import think

PHASES = (("opening", 0, 20), ("middlegame", 20, 60), ("endgame", 60, 10 ** 9))


def wilson(successes, n, z=1.96):
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


_GAMES = {}


def _game(name):
    from . import load
    if name not in _GAMES:
        _GAMES[name] = load(name)
    return _GAMES[name]


def play_one(task):
    """Play one self-play game; returns a plain dict (it crosses process boundaries)."""
    name, seed, depth, movetime, max_plies = task
    game = _game(name)
    rng = random.Random(seed)
    position = game.start()
    position.engine.set_hash_size(4)
    random_plies = rng.randint(2, 4)
    branching, nodes, seconds = [], 0, 0.0
    outcome = None
    for ply in range(max_plies):
        outcome = position.outcome()
        if outcome is not None:
            break
        legal = position.legal_moves()
        branching.append(len(legal))
        if ply < random_plies:
            move = rng.choice(legal)
        else:
            started = time.monotonic()
            result = think(position, depth=depth, movetime=movetime)
            seconds += time.monotonic() - started
            nodes += result.info.nodes if result.info else 0
            move = result.best_move
        position.push(move)
    else:
        outcome = None
    plies = len(branching)
    if outcome is None:
        winner, reason = None, "move limit"
    else:
        winner, reason = outcome.winner, outcome.reason
    return {"game": name, "seed": seed, "winner": winner, "reason": reason, "plies": plies,
            "branching": branching, "nodes": nodes, "search_seconds": seconds}


def summarize(name, records):
    n = len(records)
    white = sum(r["winner"] == "white" for r in records)
    black = sum(r["winner"] == "black" for r in records)
    draws = n - white - black
    lengths = [r["plies"] for r in records]
    reasons = {}
    for r in records:
        key = f"{r['winner'] or 'draw'} by {r['reason']}"
        reasons[key] = reasons.get(key, 0) + 1
    score = (white + draws / 2) / n if n else 0.0
    # The first player's score, with an interval from the decisive games' proportion.
    decisive = white + black
    phases = {}
    for label, lo, hi in PHASES:
        values = [b for r in records for i, b in enumerate(r["branching"]) if lo <= i < hi]
        phases[label] = round(statistics.mean(values), 1) if values else None
    nodes = sum(r["nodes"] for r in records)
    seconds = sum(r["search_seconds"] for r in records)
    return {
        "game": name, "games": n,
        "white_wins": white, "black_wins": black, "draws": draws,
        "white_win_rate": _rate(white, n), "black_win_rate": _rate(black, n),
        "draw_rate": _rate(draws, n),
        "first_player_score": round(score, 3),
        "first_player_advantage": round(score - 0.5, 3),
        "first_player_decisive_share": _rate(white, decisive),
        "length": {"mean": round(statistics.mean(lengths), 1) if lengths else 0,
                   "median": statistics.median(lengths) if lengths else 0,
                   "min": min(lengths, default=0), "max": max(lengths, default=0)},
        "endings": dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
        "branching_by_phase": phases,
        "search_nodes_per_second": int(nodes / seconds) if seconds else 0,
        "lengths": lengths,
    }


def _rate(k, n):
    lo, hi = wilson(k, n)
    return {"value": round(k / n, 3) if n else 0.0, "ci95": [round(lo, 3), round(hi, 3)]}


def run(names, games, depth=None, movetime=None, max_plies=300, processes=None,
        progress=None, seed=1):
    """Play `games` games of each rule set in `names`; returns {name: summary}."""
    tasks = [(name, seed * 100003 + i, depth, movetime, max_plies)
             for name in names for i in range(games)]
    for name in names:          # build once, before the workers start
        _game(name)
    records = {name: [] for name in names}
    with multiprocessing.Pool(processes or os.cpu_count()) as pool:
        for done, record in enumerate(pool.imap_unordered(play_one, tasks), start=1):
            records[record["game"]].append(record)
            if progress:
                progress(f"{done}/{len(tasks)} games ({record['game']}: "
                         f"{record['winner'] or 'draw'} by {record['reason']}, {record['plies']} plies)")
    return {name: summarize(name, records[name]) for name in names}


def _pct(rate):
    lo, hi = rate["ci95"]
    return f"{100 * rate['value']:.0f}% ({100 * lo:.0f}-{100 * hi:.0f}%)"


def markdown(summaries, settings):
    names = list(summaries)
    rows = [("games", lambda s: str(s["games"])),
            ("first player (White) wins", lambda s: _pct(s["white_win_rate"])),
            ("second player (Black) wins", lambda s: _pct(s["black_win_rate"])),
            ("draws", lambda s: _pct(s["draw_rate"])),
            ("first player's score", lambda s: f"{s['first_player_score']:.3f} "
                                               f"({s['first_player_advantage']:+.3f})"),
            ("game length, plies (mean / median / min-max)",
             lambda s: f"{s['length']['mean']} / {s['length']['median']} / "
                       f"{s['length']['min']}-{s['length']['max']}")]
    for label, _, _ in PHASES:
        rows.append((f"branching factor, {label}",
                     lambda s, label=label: str(s["branching_by_phase"][label] or "-")))
    rows.append(("engine speed in search, nodes/s",
                 lambda s: f"{s['search_nodes_per_second']:,}"))
    lines = [f"# Playtest: {' vs '.join(names)}", "",
             f"{settings}. Intervals are 95% Wilson score intervals.", "",
             "| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for label, cell in rows:
        lines.append(f"| {label} | " + " | ".join(cell(summaries[n]) for n in names) + " |")
    for name in names:
        lines += ["", f"## How {name} games ended", ""]
        for reason, count in summaries[name]["endings"].items():
            lines.append(f"- {reason}: {count}")
    return "\n".join(lines) + "\n"


def plots(summaries, out_dir):
    """Game lengths and results as PNG files; returns their paths ([] without matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    paths = []
    fig, ax = plt.subplots(figsize=(7, 4))
    for name, s in summaries.items():
        ax.hist(s["lengths"], bins=20, alpha=0.6, label=name)
    ax.set_xlabel("game length (plies)")
    ax.set_ylabel("games")
    paths.append(_save(plt, fig, ax, "Game lengths", os.path.join(out_dir, "lengths.png")))
    fig, ax = plt.subplots(figsize=(7, 4))
    names = list(summaries)
    bottoms = [0] * len(names)
    for key, colour in (("white_wins", "#e8e8e8"), ("draws", "#9e9e9e"), ("black_wins", "#303030")):
        values = [summaries[n][key] for n in names]
        ax.bar(names, values, bottom=bottoms, color=colour, edgecolor="black",
               label=key.replace("_", " "))
        bottoms = [b + v for b, v in zip(bottoms, values)]
    ax.set_ylabel("games")
    paths.append(_save(plt, fig, ax, "Results", os.path.join(out_dir, "results.png")))
    return paths


def _save(plt, fig, ax, title, path):
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def write_report(summaries, out_dir, settings):
    os.makedirs(out_dir, exist_ok=True)
    md_path = os.path.join(out_dir, "report.md")
    json_path = os.path.join(out_dir, "report.json")
    images = plots(summaries, out_dir)
    text = markdown(summaries, settings)
    if images:
        text += "\n" + "\n".join(f"![{os.path.basename(p)}]({os.path.basename(p)})" for p in images) + "\n"
    else:
        text += "\n(Plots need matplotlib: pip install matplotlib.)\n"
    with open(md_path, "w") as handle:
        handle.write(text)
    with open(json_path, "w") as handle:
        json.dump({"settings": settings, "results": summaries}, handle, indent=2)
    return md_path, json_path, images
