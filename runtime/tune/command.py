"""The `fairyforge tune` command line."""

import argparse
import os
import sys

from ..playtest.command import _checked, _count
from ..playtest.progress import Progress

_depth = _checked(int, "a whole number", lambda v: 1 <= v <= 64, "between 1 and 64")


def _ridge(text):
    parts = text.split(",")
    try:
        weights = tuple(float(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not two numbers like 2,200") from None
    if len(weights) != 2 or not all(0 <= w < float("inf") for w in weights):
        raise argparse.ArgumentTypeError(f"must be two numbers, 0 or more, like 2,200, "
                                         f"not {text}")
    return weights


def _weight(text):
    try:
        weight = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not 0 <= weight <= 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, not {text}")
    return weight


def _terms(text):
    from .tuning import OPTIONAL_TERMS
    terms = tuple(term.strip() for term in text.split(","))
    for term in terms:
        if term not in OPTIONAL_TERMS:
            raise argparse.ArgumentTypeError(f"'{term}' is not one of "
                                             f"{', '.join(OPTIONAL_TERMS)}")
    return terms


def add_parser(sub):
    tp = sub.add_parser(
        "tune", help="learn the game's evaluation from self-play (Texel's method)",
        description="Play self-play games (or read a playtest database), sample quiet "
                    "positions and fit piece values, values in hand and square bonuses "
                    "to the results; the parameter file is used by the game's next "
                    "build. See docs/engine.md.")
    tp.add_argument("game", metavar="GAME", help="a bundled game or a definition file")
    tp.add_argument("--games", type=_count, default=200, metavar="N",
                    help="self-play games to learn from (default 200)")
    limit = tp.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=_depth, metavar="D",
                       help="search depth per move in self-play (default 2)")
    limit.add_argument("--nodes", type=_count, metavar="N", help="node budget per move instead")
    tp.add_argument("--max-plies", type=_count, default=300, metavar="N",
                    help="adjudicate a self-play game a draw after N plies (default 300)")
    source = tp.add_mutually_exclusive_group()
    source.add_argument("--from-db", metavar="FILE",
                        help="learn from the games of a playtest database instead of playing")
    source.add_argument("--from-pgn", metavar="FILE",
                        help="learn from the games of a PGN file instead of playing (say a "
                             "strong engine's: bench/match.py --pgn)")
    tp.add_argument("-o", "--output", metavar="FILE",
                    help="where to write the parameters (default: the tuned-parameters "
                         "directory, where builds look for them)")
    tp.add_argument("--processes", type=_count, metavar="N",
                    help="self-play worker processes (default: all cores)")
    tp.add_argument("--seed", type=int, default=1, help="seed of the random openings")
    tp.add_argument("--ridge", type=_ridge, default=None, metavar="VALUES,SQUARES",
                    help="how strongly values and square bonuses are held to their "
                         "current numbers, in positions of evidence (default: of 0.5,5 2,20 2,200 "
                         "20,2000 200,20000 2000,200000 the one that predicts the "
                         "held-out games best)")
    tp.add_argument("--without", type=_terms, default=(), metavar="TERM[,TERM]",
                    help="leave these terms of the evaluation as they are: king-safety, "
                         "king-attackers, mobility, mobility-by-count, drop-checks, board-checks, "
                         "threats, threats-by-taker, "
                         "structure, passed, endgame, safe-mobility, passed-king "
                         "(king-attackers: bonuses by how many enemy pieces attack next to "
                         "the king; mobility-by-count: a bonus by each piece's count of "
                         "moves, on top of mobility's centipawns a move; drop-checks: the "
                         "squares a piece in hand could check the enemy king from, safe or "
                         "defended, in a drop game; board-checks: the moves that would give "
                         "check, safe or defended; mobility and "
                         "threats cost a move generation a side per evaluation; threats: "
                         "pieces a cheaper enemy piece attacks (by-taker: by the pair of "
                         "types as well as by the type attacked); structure: doubled and "
                         "isolated pawns, pairs; endgame: values and square tables for the "
                         "game's end, blended in by phase; safe-mobility: more for each "
                         "move to a square no enemy pawn attacks; passed-king: each king's "
                         "distance to the square ahead of a passed pawn, in the ending; "
                         "see docs/engine.md)")
    tp.add_argument("--eval-weight", type=_weight, default=0.0, metavar="W",
                    help="with --from-pgn: learn from the games' [%%eval] comments too, "
                         "each position's target being (1 - W) x its result + W x what "
                         "its [%%eval] predicts (default 0: results only)")
    tp.add_argument("--verify", type=_count, metavar="N",
                    help="then play N games, the new evaluation against the one it "
                         "replaces, and print its Elo")
    tp.add_argument("--verify-nodes", type=_count, default=2000, metavar="N",
                    help="node budget per move of the --verify games (default 2000)")
    tp.set_defaults(func=cmd_tune)
    return tp


def _say(message):
    print(f"tune: {message}", file=sys.stderr, flush=True)


def cmd_tune(args):
    try:
        from .tuning import tune
    except ImportError as err:              # numpy or scipy missing
        _say(f"error: {err.name} is needed: pip install \"fairyforge[tune]\"")
        return 2
    for option, path in (("--from-db", args.from_db), ("--from-pgn", args.from_pgn)):
        if path is not None and not os.path.isfile(path):
            _say(f"error: {option} {path}: no such file")
            return 2
    reading = args.from_db or args.from_pgn
    progress = None if reading else Progress(args.games)
    on_game = (lambda record: progress.update()) if progress else None
    try:
        report = tune(args.game, games=args.games, depth=args.depth, nodes=args.nodes,
                      from_db=args.from_db, output=args.output, processes=args.processes,
                      seed=args.seed, max_plies=args.max_plies, on_game=on_game,
                      ridge=args.ridge, from_pgn=args.from_pgn, without=args.without,
                      eval_weight=args.eval_weight)
    finally:
        if progress:
            progress.close()
    print(format_report(report))
    _say(f"parameters written to {report.path}; " + _who_uses(report))
    if args.verify:
        _verify(report, args)
    return 0


def _verify(report, args):
    from . import match
    _say(f"verifying: {args.verify} games, new against "
         f"{'earlier learned' if report.previous else 'derived'} values, "
         f"{args.verify_nodes} nodes a move")
    progress = Progress(args.verify)
    try:
        result = match.run(report.variant, report.data, report.previous, games=args.verify,
                           nodes=args.verify_nodes, processes=args.processes,
                           on_game=lambda _: progress.update())
    finally:
        progress.close()
    print("new evaluation against the old: " + match.summary_text(result))


def format_report(report):
    errors = report.errors
    ridge = ",".join(f"{weight:g}" for weight in report.data["fit"]["ridge"])
    lines = [f"{report.games} games, {report.positions} quiet positions, K = {report.k:.3f}, "
             f"ridge {ridge}, White's edge {report.errors['white_edge']} cp"]
    fit = report.data["fit"]
    if fit.get("eval_weight"):
        lines.append(f"targets: {1 - fit['eval_weight']:g} x result + {fit['eval_weight']:g}"
                     f" x [%eval] ({fit['scored_positions']} positions scored, teacher's "
                     f"K = {fit['k_teacher']:.3f})")
    lines.append(f"mean squared error: {errors['train'][0]:.5f} -> {errors['train'][1]:.5f} "
                 "(fitted games)")
    if "holdout" in errors:
        lines.append(f"                    {errors['holdout'][0]:.5f} -> "
                     f"{errors['holdout'][1]:.5f} (held-out games)")
    hands = any(row[3] is not None for row in report.values)
    header = f"{'piece':<12}{'value now':>10}{'learned':>9}"
    lines.append(header + (f"{'in hand now':>13}{'learned':>9}" if hands else ""))
    for name, now, learned, hand_now, hand in report.values:
        line = f"{name:<12}{now:>10}{learned:>9}"
        if hands:
            line += f"{hand_now:>13}{hand:>9}"
        lines.append(line)
    lines += _king_safety_lines(report.data.get("king_safety"))
    lines += _attackers_lines(report.data.get("king_attackers"))
    lines += _mobility_lines(report.data.get("mobility"))
    lines += _by_count_lines(report.data.get("mobility_by_count"))
    lines += _term_lines("mobility, {} (centipawns more a move to a square no enemy pawn "
                         "attacks)", {"safe": report.data.get("mobility_safe", {})})
    lines += _drop_check_lines(report.data.get("drop_checks"))
    lines += _board_check_lines(report.data.get("board_checks"))
    lines += _threat_lines(report.data.get("threats"))
    lines += _taker_threat_lines(report.data.get("threats_by_taker"))
    lines += _structure_lines(report.data.get("structure"))
    lines += _passed_lines(report.data.get("passed"))
    lines += _passed_king_lines(report.data.get("passed_king"))
    return "\n".join(lines)


def _who_uses(report):
    """Whether builds will read the file just written: only the tuned-parameters
    directory's is looked for (an -o elsewhere is not)."""
    from ..compiler import evalparams
    game = report.data["game"]
    if os.path.abspath(report.path) == os.path.abspath(evalparams.default_path(game)):
        return f"the next build of {game} uses them"
    return (f"builds of {game} read {evalparams.default_path(game)}: copy the file there "
            "to use it")


def _passed_lines(passed):
    """The learned passed-piece bonuses, a line per type with any (rank 1 first)."""
    return [f"passed {name} (centipawns by rank): " + " ".join(f"{b:+d}" for b in row)
            for name, row in (passed or {}).items() if any(row)]


def _threat_lines(threats):
    """The learned threat bonuses, a line per term with any."""
    return _term_lines("threats, {} (centipawns a threat, by the piece threatened)", threats)


def _taker_threat_lines(by_taker):
    """The learned threat bonuses by the pair, a line per term and taking piece."""
    return [f"threats, {term.replace('_', ' ')}, by {taker} (centipawns added, by the piece "
            "threatened): "
            + ", ".join(f"{victim} {bonus:+d}" for victim, bonus in row.items())
            for term, rows in (by_taker or {}).items() for taker, row in rows.items() if row]


def _drop_check_lines(drop_checks):
    """The learned drop-check bonuses, a line per term with any."""
    return _term_lines("drop checks, {} (centipawns a square a piece in hand could check "
                       "from)", drop_checks)


def _board_check_lines(board_checks):
    """The learned board-check bonuses, a line per term with any."""
    return _term_lines("board checks, {} (centipawns a move that would give check)",
                       board_checks)


def _structure_lines(structure):
    """The learned structure bonuses, a line per term with any."""
    return _term_lines("structure, {} (centipawns)", structure)


def _passed_king_lines(passed_king):
    """The learned passed-king bonuses, a line per term and type with any (rank 1
    first)."""
    return [f"passed {name}, {term} royal piece's distance (centipawns a square, by "
            "rank): " + " ".join(f"{b:+d}" for b in row)
            for term, rows in (passed_king or {}).items()
            for name, row in rows.items() if any(row)]


def _term_lines(title, tables):
    """A line per term of `tables` ({term: {piece: centipawns}}) with a non-zero
    number: `title` (the term in its braces), then those numbers."""
    return [title.format(term.replace("_", " ")) + ": " + ", ".join(
                f"{name} {bonus:+d}" for name, bonus in table.items() if bonus)
            for term, table in (tables or {}).items() if any(table.values())]


def _attackers_lines(table):
    """The learned king-attackers bonuses (centipawns for the royal piece's side, by
    the count of attackers; in a drop game a line for each count of types in hand),
    if any is not 0."""
    rows = table if table and isinstance(table[0], list) else [table or []]
    if not any(any(row) for row in rows):
        return []
    lines = []
    for held, row in enumerate(rows):
        cells = [f"{count}{'+' if count == len(row) - 1 else ''}: {bonus:+d}"
                 for count, bonus in enumerate(row)]
        types = f"{held}{' or more' if held == len(rows) - 1 else ''} " \
            f"type{'' if held == 1 else 's'}"
        where = "" if len(rows) == 1 else f"; the enemy holding {types} in hand"
        lines.append(f"king attackers (centipawns for the royal piece's side, by their "
                     f"count{where}): " + ", ".join(cells))
    return lines


def _by_count_lines(by_count):
    """The learned mobility-by-count bonuses, a line for each type that has any: the
    counts 0 to 8, 12, 16, 24 and the last (the rest lie between)."""
    shown = [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24]
    lines = []
    for name, row in (by_count or {}).items():
        cells = [f"{count}: {row[count]:+d}" for count in shown if count < len(row) - 1]
        cells.append(f"{len(row) - 1}+: {row[-1]:+d}")
        lines.append(f"mobility by count, {name} (centipawns a piece with so many moves): "
                     + ", ".join(cells))
    return lines


def _mobility_lines(mobility):
    """The learned mobility bonuses (centipawns a board move), the non-zero ones."""
    cells = [f"{name} {bonus:+d}" for name, bonus in (mobility or {}).items() if bonus]
    return ["mobility (centipawns a move): " + ", ".join(cells)] if cells else []


def _king_safety_lines(safety):
    """The learned king-safety bonuses (centipawns), a row per piece that has one
    (nothing where none has: a game without a royal piece, or `--without king-safety`)."""
    if not any(bonus for table in (safety or {}).values() for bonus in table.values()):
        return []
    terms = list(safety)
    names = list(dict.fromkeys(name for term in terms for name in safety[term]))
    width = max(len(name) for name in names) + 2
    lines = [f"{'king safety':<{width}}" + "".join(f"{term:>9}" for term in terms)
             + "   (centipawns for the royal piece's side)"]
    for name in names:
        cells = [safety[term].get(name) for term in terms]
        if any(cells):
            lines.append(f"  {name:<{width - 2}}" + "".join(f"{'-' if c is None else c:>9}"
                                                           for c in cells))
    return lines
