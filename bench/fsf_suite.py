"""Fairy-Stockfish's perft suite against the bundled games: which rows Fairyforge
counts exactly, which it counts wrong, and which belong to games it cannot express yet.

Usage:
    python bench/fsf_suite.py                    # every row up to 50 million nodes
    python bench/fsf_suite.py --max-nodes 0      # every row, however deep
    python bench/fsf_suite.py --variants shako,chess
    python bench/fsf_suite.py --markdown         # the table as Markdown, for a note

The rows are tests/data/perft_fsf_suite.tsv (a copy of Fairy-Stockfish's
tests/perft.sh).  A row whose game is not bundled is reported as not covered, with
the reason docs/fsf-variants.md gives for that game; a row whose FEN the game refuses
is reported as refused, with the reason.  The rows Fairy-Stockfish runs with
UCI_Chess960 = true (tests/data/perft_fsf_chess960.tsv) run on the game's Chess960
twin (`ff.load(name, chess960=True)`).  Engines come from your
FAIRYFORGE_CACHE (built when missing).  Progress goes to stderr; the exit status is 1
if any row is counted wrong.  tests/test_fsf_catalog.py asserts the same rows.
"""

import argparse
import csv
import os
import re
import sys
import time
from collections import defaultdict

import fairyforge as ff
from fairyforge.errors import FenError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.path.join(ROOT, "tests", "data", "perft_fsf_suite.tsv")
CHESS960 = os.path.join(ROOT, "tests", "data", "perft_fsf_chess960.tsv")
CATALOG = os.path.join(ROOT, "docs", "fsf-variants.md")


def read_rows(only):
    with open(SUITE) as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    with open(CHESS960) as handle:
        chess960 = {(r["variant"], r["fen"]) for r in csv.DictReader(handle, delimiter="\t")}
    for row in rows:
        row["chess960"] = (row["variant"], row["fen"]) in chess960
    return [r for r in rows if not only or r["variant"] in only]


def reasons():
    """Each game's entry in docs/fsf-variants.md: `| name | status | what is missing |`."""
    found = {}
    with open(CATALOG) as handle:
        for line in handle:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 3 and re.fullmatch(r"`[^`]+`", cells[0]):
                found[cells[0].strip("`")] = cells[2] or cells[1]
    return found


def count(games, row):
    key = (row["variant"], row["chess960"])
    if key not in games:
        games[key] = ff.load(row["variant"], chess960=row["chess960"])
    game = games[key]
    pos = game.start() if row["fen"] == "startpos" else game.position(row["fen"])
    return pos.perft(int(row["depth"]))


def run(rows, max_nodes):
    """One result per row: (row, verdict, detail)."""
    bundled, why, games, results = set(ff.bundled_games()), reasons(), {}, []
    for row in rows:
        nodes = int(row["nodes"])
        if row["variant"] not in bundled:
            results.append((row, "not covered", why.get(row["variant"], "not bundled")))
        elif max_nodes and nodes > max_nodes:
            results.append((row, "skipped", f"deeper than {max_nodes} nodes"))
        else:
            start = time.perf_counter()
            try:
                got = count(games, row)
            except FenError as err:      # a position the game cannot hold
                results.append((row, "refused", str(err)))
                print(f"{row['variant']} depth {row['depth']}: refused", file=sys.stderr)
                continue
            verdict = "exact" if got == nodes else "wrong"
            results.append((row, verdict, f"{got} in {time.perf_counter() - start:.2f} s"))
            print(f"{row['variant']} depth {row['depth']}: {verdict}", file=sys.stderr)
    return results


def table(results, markdown):
    per_variant = defaultdict(lambda: defaultdict(int))
    detail = {}
    for row, verdict, text in results:
        per_variant[row["variant"]][verdict] += 1
        if verdict in ("not covered", "wrong", "refused"):
            detail[row["variant"]] = text
    cols = ("exact", "wrong", "refused", "skipped", "not covered")
    lines = ["| variant | rows | " + " | ".join(cols) + " | why not covered |",
             "|---|---|" + "---|" * len(cols) + "---|"] if markdown else \
        [f"{'variant':16} {'rows':>4} " + " ".join(f"{c:>11}" for c in cols)]
    for variant in sorted(per_variant):
        counts = per_variant[variant]
        cells = [str(counts[c]) for c in cols]
        total = str(sum(counts.values()))
        if markdown:
            lines.append(f"| {variant} | {total} | " + " | ".join(cells)
                         + f" | {detail.get(variant, '')} |")
        else:
            lines.append(f"{variant:16} {total:>4} " + " ".join(f"{c:>11}" for c in cells)
                         + (f"  {detail[variant]}" if variant in detail else ""))
    totals = {c: sum(v[c] for v in per_variant.values()) for c in cols}
    lines.append("total: " + ", ".join(f"{totals[c]} {c}" for c in cols)
                 + f" of {len(results)} rows over {len(per_variant)} variants")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", help="comma-separated variant names (default: all)")
    parser.add_argument("--max-nodes", type=int, default=50_000_000,
                        help="skip rows with more nodes (0: run every row)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    only = set(args.variants.split(",")) if args.variants else set()
    results = run(read_rows(only), args.max_nodes)
    print(table(results, args.markdown))
    return 1 if any(verdict == "wrong" for _, verdict, _ in results) else 0


if __name__ == "__main__":
    sys.exit(main())
