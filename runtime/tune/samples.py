"""Games to learn from, and the quiet positions sampled from them.

Games come from self-play (the playtest's workers and `selfplay.play_game`, each game
from its own random opening so that games differ), from a playtest database
(`--from-db`, only the games played under exactly these rules: same model hash), or
from a PGN file (`--from-pgn`: games of this variant, say a strong engine's, as
bench/match.py writes them with `--pgn`).

A position is kept when it is quiet: past the random opening, the side to move is not
in check, and the move played from it is neither a capture nor a promotion.  Static
evaluation is only a fair guess of such a position (Texel's method needs that: a
position in the middle of an exchange says nothing about piece values).
"""

import re
import sqlite3
from dataclasses import dataclass

from ..errors import ArgumentError, FairyforgeError
from ..pgn import PgnError, read_games
from ..playtest.backend import open_backend
from ..playtest.ruleset import PlaytestError
from ..playtest.selfplay import GameJob, deal_opening, pair_seed, play_game
from .features import features

SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
OPENING_PLIES = (4, 8)          # more varied than a playtest's: we want many positions
SKIP_AFTER_OPENING = 2
# `{[%eval 0.35]}` after a move: the mover's score of the position it moved from,
# White's view, in pawns; `#3` / `#-3` a mate for White / Black (lichess's convention).
EVAL_COMMENT = re.compile(r"\[%eval\s+([^\]\s,]*)[^\]]*\]")
EVAL_NUMBER = re.compile(r"(#)?([+-]?)([0-9]+(?:\.[0-9]*)?)")
MATE_PAWNS = 100.0              # a mate's score, in pawns (far past any sigmoid's bend)


@dataclass(frozen=True)
class GameRecord:
    moves: tuple                # UCI texts, the opening included
    result: str                 # "1-0", "0-1", "1/2-1/2"
    opening_plies: int
    fen: str = None             # where the game started (None: the game's setup)
    evals: tuple = None         # per ply, [%eval] in pawns (White's view) or None


def self_play(ruleset, game, count, depth=None, nodes=None, seed=1, processes=None,
              max_plies=300, on_game=None):
    """`count` self-play games of a RuleSet (its compiled `game` deals the openings)."""
    jobs = [GameJob(ruleset, 0, pair, deal_opening([game], pair_seed(seed, pair), OPENING_PLIES),
                    depth=depth, nodes=nodes, max_plies=max_plies) for pair in range(count)]
    records = []
    with open_backend(processes=processes) as pool:
        for job, result in pool.imap_unordered(play_game, jobs):
            records.append(GameRecord(tuple(result["moves"]), result["result"], len(job.opening)))
            if on_game:
                on_game(records[-1])
    return records


def from_database(path, model_hash):
    """The games in a playtest database played under the rules with `model_hash`."""
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        with connection:
            rows = connection.execute(
                "SELECT moves, result, opening FROM games WHERE model_hash = ? ORDER BY id",
                (model_hash,)).fetchall()
            total = connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        connection.close()
    except sqlite3.Error as err:
        raise PlaytestError(f"--from-db {path}: not a playtest database ({err})") from None
    if not rows:
        raise PlaytestError(f"--from-db {path}: none of its {total} games was played under "
                            "these rules (the rule model's hash differs)")
    return [GameRecord(tuple(moves.split()), result, len(opening.split()))
            for moves, result, opening in rows]


def pgn_games(path, game):
    """The finished games of a PGN file, read as `game` (ArgumentError naming the file
    and the game's line when one cannot be read or is of another variant).  A game's
    `OpeningPlies` tag (bench/match.py writes it) marks its first moves as an opening
    to skip; a game without a result ("*") says nothing and is left out."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as err:
        raise ArgumentError(f"--from-pgn {path}: cannot read it ({err})") from None
    records = []
    try:
        for found in read_games(text, game, same_variant=True):
            if found.result not in SCORES:
                continue
            position = found.position
            opening = found.headers.get("OpeningPlies", "0")
            evals = tuple(_eval_of(comment, found, ply)
                          for ply, comment in enumerate(found.comments, 1))
            records.append(GameRecord(
                tuple(move.uci for move in position.move_stack), found.result,
                int(opening) if opening.isdigit() else 0,
                None if position.setup_fen == game.start_fen else position.setup_fen,
                evals if any(e is not None for e in evals) else None))
    except FairyforgeError as err:          # PgnError, and FenError from a FEN tag
        raise ArgumentError(f"--from-pgn {path}: {err}") from None
    if not records:
        raise ArgumentError(f"--from-pgn {path}: no finished game of {game.name} in it")
    return records


def _eval_of(comment, found, ply):
    """The [%eval] of a move's comment in pawns, White's view (None: it has none)."""
    match = EVAL_COMMENT.search(comment or "")
    if match is None:
        return None
    number = EVAL_NUMBER.fullmatch(match.group(1))
    if number is None:
        raise PgnError(f"game from line {found.line}, ply {ply}: '{match.group()}' is not "
                       "an evaluation like [%eval 0.35] or [%eval #-3]")
    mate, sign, size = number.groups()
    pawns = MATE_PAWNS if mate else float(size)
    return -pawns if sign == "-" else pawns


def positions(game, space, record):
    """(slots, counts, c, y, teacher) for each quiet position of one game; c and the
    scores in pawns, y the game's result from White's view, teacher the position's
    [%eval] in pawns, White's view (None without one)."""
    y = SCORES[record.result]
    squares = game.meta["squares"]
    position = game.position(record.fen) if record.fen else game.start()
    engine = position.engine
    rows = []
    for ply, text in enumerate(record.moves):
        candidate = None
        if ply >= record.opening_plies + SKIP_AFTER_OPENING and not position.is_check():
            board, hands = engine.board(), engine.hands()
            royals = (engine.royal_square(0), engine.royal_square(1))
            slots, counts, pieces = features(space, board, hands, squares, royals,
                                             engine.mobility_counts(),
                                             engine.king_attack_counts(),
                                             engine.threat_pairs(), engine.state()[0],
                                             engine.king_attackers(),
                                             engine.mobility_by_piece(),
                                             engine.drop_checks()
                                             if space.drop_check_types else None,
                                             engine.board_checks()
                                             if space.check_types else None,
                                             engine.safe_mobility_counts())
            white_view = engine.evaluate() * (1 if engine.state()[0] == 0 else -1)
            teacher = record.evals[ply] if record.evals and ply < len(record.evals) else None
            candidate = (slots, counts, (white_view - pieces) / 100, y, teacher)
        move = position.push_uci(text)
        if candidate is not None and move.capture is None and move.promotion is None:
            rows.append(candidate)
    return rows
