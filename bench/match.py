"""Strength matches: two UCI engines play paired openings, pyffish keeps the score.

    python bench/match.py --variant chess --games 50 --movetime 100 \\
        --opponent /usr/games/fairy-stockfish --opponent-option UCI_LimitStrength=true \\
        --opponent-option UCI_Elo=2000

    # A/B between two builds of our own engine (two source trees, say):
    python bench/match.py --variant chess --games 100 --nodes 20000 \\
        --engine "env PYTHONPATH=/tmp/new fairyforge uci" \\
        --opponent "env PYTHONPATH=/tmp/old fairyforge uci"

The first engine (`--engine`, by default `fairyforge uci`) is the one measured: the
wins, draws, losses and Elo are its own.  Each random opening (`--opening-plies`
random legal moves) is played twice, once with each colour, so that an opening's bias
cancels.  pyffish (Fairy-Stockfish's rules as a library) is the arbiter: it gives the
legal moves, ends games (mate, stalemate, repetition, the move rules, insufficient
material) and scores them; an engine that answers an illegal move, or nothing, loses
that game.  Games run in parallel (`--concurrency`, by default every core), each
worker with its own pair of engine processes.  The Elo estimate's 95% interval comes
from the Wilson interval on the points (runtime/playtest/stats.py); it counts a draw
as half a win, so it errs on the wide side.
"""

import argparse
import json
import os
import queue
import random
import shlex
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field

from fairyforge.playtest.stats import edge_elo

FSF_BINARY = "/usr/games/fairy-stockfish"
# How long an engine may take beyond its limit before it forfeits (a build on a cold
# cache happens at `isready`, which gets its own, longer, allowance).
MOVE_GRACE_SECONDS = 30.0
READY_SECONDS = 900.0
# A mate in n is recorded as this many centipawns less n (PGN: "#n" in [%eval]).
MATE_CP = 100_000


class EngineFailure(Exception):
    """An engine died, answered nothing in time, or answered nonsense."""


class UciEngine:
    """One UCI engine process, spoken to line by line (a reader thread never blocks us)."""

    def __init__(self, command, options, name):
        self.name = name
        self.process = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.declared = []                       # its `id` and `option` lines
        self.wait_for("uciok", 60, self.declared)
        for option, value in options:
            self.send(f"setoption name {option} value {value}")

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)                     # end of output: the process is gone

    def send(self, line):
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise EngineFailure(f"{self.name} is gone ({error})") from None

    def wait_for(self, first_word, seconds, passed=None):
        """The first line starting with `first_word` within `seconds` (the lines before
        it are appended to the list `passed` if one is given)."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.001))
            except queue.Empty:
                raise EngineFailure(f"{self.name} sent no '{first_word}' in {seconds:.0f}s") \
                    from None
            if line is None:
                raise EngineFailure(f"{self.name} exited")
            if line.split(" ", 1)[0] == first_word:
                return line
            if passed is not None:
                passed.append(line)

    def ready(self):
        self.send("isready")
        self.wait_for("readyok", READY_SECONDS)

    def best_move(self, moves, go, seconds):
        """The engine's move after `moves` from the start position, and the score of
        its last `info ... score` line (centipawns for the side to move; a mate in n
        as MATE_CP - n, mated in n as -(MATE_CP - n); None when it sent none)."""
        score = None

        def keep_score(words):
            nonlocal score
            if "score" in words:
                score = _score_of(words, score)

        move = self._search("startpos" + (" moves " + " ".join(moves) if moves else ""),
                            go, seconds, keep_score)
        return move, score

    def analyse(self, position, go, seconds):
        """Search `position` (a UCI position command's arguments) with `go`: the words
        of the last `info` line that reported nodes, as a dict of numbers (depth, nodes,
        nps, time, ...), and the best move."""
        last = {}

        def keep_numbers(words):
            nonlocal last
            if "nodes" in words:
                last = _numbers_of(words)

        move = self._search(position, go, seconds, keep_numbers)
        return last, move

    def _search(self, position, go, seconds, on_info):
        """Send the position and `go`; each `info` line's words go to `on_info`; the
        best move (or "(none)")."""
        self.send("position " + position)
        self.send("go " + go)
        deadline = time.monotonic() + seconds + MOVE_GRACE_SECONDS
        while True:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.001))
            except queue.Empty:
                raise EngineFailure(f"{self.name} sent no 'bestmove' in time") from None
            if line is None:
                raise EngineFailure(f"{self.name} exited")
            words = line.split()
            if words[:1] == ["bestmove"]:
                return words[1] if len(words) > 1 else "(none)"
            if words[:1] == ["info"]:
                on_info(words)

    def close(self):
        try:
            self.send("quit")
            self.process.wait(5)
        except (EngineFailure, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


def _score_of(words, previous):
    """The score of an `info` line in centipawns for the side to move (a bound counts
    as its value; a mate as MATE_CP less its distance); `previous` if it has none."""
    at = words.index("score")
    kind, value = (words[at + 1:at + 3] + ["", ""])[:2]
    try:
        number = int(value)
    except ValueError:
        return previous
    if kind == "cp":
        return number
    if kind == "mate":
        return MATE_CP - abs(number) if number > 0 else -(MATE_CP - abs(number))
    return previous


def _numbers_of(words):
    """The numeric fields of an `info` line: {"depth": 12, "nodes": 123456, ...}."""
    numbers = {}
    for key, value in zip(words, words[1:]):
        if key in ("depth", "seldepth", "nodes", "nps", "time") and value.isdigit():
            numbers[key] = int(value)
    return numbers


@dataclass
class Settings:
    variant: str
    engine: str
    opponent: str
    engine_options: list
    opponent_options: list
    go: str                      # what follows `go`: "movetime 100", "depth 4", ...
    move_seconds: float          # the limit in seconds, for the forfeit timer
    max_plies: int


@dataclass
class GameRecord:
    opening: list
    engine_white: bool
    result: str                  # "1-0", "0-1", "1/2-1/2"
    reason: str
    moves: list = field(default_factory=list)
    # Per ply after the opening: the mover's reported score, White's view, centipawns
    # (None where it reported none); the opening's plies have no entry.
    scores: list = field(default_factory=list)

    @property
    def engine_points(self):
        white = {"1-0": 1.0, "0-1": 0.0}.get(self.result, 0.5)
        return white if self.engine_white else 1.0 - white


def arbiter_verdict(sf, variant, moves):
    """(result, reason) if the game is over after `moves`, else None (pyffish decides)."""
    start = sf.start_fen(variant)
    white_to_move = len(moves) % 2 == 0
    legal = sf.legal_moves(variant, start, moves)
    if not legal:
        return _side_to_move_result(sf.game_result(variant, start, moves), white_to_move,
                                    "no legal move")
    ended, value = sf.is_optional_game_end(variant, start, moves)
    if ended:
        return _side_to_move_result(value, white_to_move, "repetition or move rule")
    white_short, black_short = sf.has_insufficient_material(variant, start, moves)
    if white_short and black_short:
        return "1/2-1/2", "insufficient material"
    return None


def _side_to_move_result(value, white_to_move, reason):
    if value == 0:
        return "1/2-1/2", reason
    mover_wins = value > 0
    return ("1-0" if mover_wins == white_to_move else "0-1"), reason


def random_opening(sf, variant, plies, rng):
    """`plies` random legal moves that do not end the game."""
    for _ in range(100):
        moves = []
        for _ in range(plies):
            legal = sf.legal_moves(variant, sf.start_fen(variant), moves)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        if len(moves) == plies and arbiter_verdict(sf, variant, moves) is None:
            return moves
    raise SystemExit(f"no {plies}-ply opening in {variant} leaves a game to play")


def play_game(sf, settings, engines, opening, engine_white):
    """One game from `opening`; engines = (ours, theirs).  A GameRecord."""
    white, black = engines if engine_white else engines[::-1]
    for engine in engines:
        engine.send("ucinewgame")
        engine.ready()
    moves, scores = list(opening), []
    while True:
        verdict = arbiter_verdict(sf, settings.variant, moves)
        if verdict is not None:
            return GameRecord(opening, engine_white, *verdict, moves, scores)
        if len(moves) >= settings.max_plies:
            return GameRecord(opening, engine_white, "1/2-1/2", "move limit", moves, scores)
        mover = white if len(moves) % 2 == 0 else black
        loss = "0-1" if mover is white else "1-0"
        try:
            move, score = mover.best_move(moves, settings.go, settings.move_seconds)
        except EngineFailure as failure:
            return GameRecord(opening, engine_white, loss, f"forfeit: {failure}", moves,
                              scores)
        legal = sf.legal_moves(settings.variant, sf.start_fen(settings.variant), moves)
        if move not in legal:
            return GameRecord(opening, engine_white, loss,
                              f"forfeit: {mover.name} played illegal {move}", moves, scores)
        moves.append(move)
        scores.append(None if score is None else score if mover is white else -score)


class Worker:
    """A pair of engine processes kept for every game one thread plays."""

    def __init__(self, settings):
        self.settings = settings
        self.engines = None

    def play(self, sf, opening, engine_white):
        if self.engines is None:
            self.engines = (UciEngine(self.settings.engine, self._options(True), "engine"),
                            UciEngine(self.settings.opponent, self._options(False),
                                      "opponent"))
        try:
            return play_game(sf, self.settings, self.engines, opening, engine_white)
        except EngineFailure:
            self.close()                          # a dead engine is restarted next game
            raise

    def _options(self, ours):
        options = self.settings.engine_options if ours else self.settings.opponent_options
        if self.settings.variant != "chess":
            options = [("UCI_Variant", self.settings.variant)] + list(options)
        return options

    def close(self):
        for engine in self.engines or ():
            engine.close()
        self.engines = None


def run_match(settings, pairs, opening_plies, concurrency, seed, progress=None):
    """Play `pairs` openings with both colours; the GameRecords in the order played."""
    import pyffish as sf
    rng = random.Random(seed)
    openings = [random_opening(sf, settings.variant, opening_plies, rng) for _ in range(pairs)]
    jobs = [(opening, white) for opening in openings for white in (True, False)]
    local = threading.local()
    workers = []
    lock = threading.Lock()

    def play(job):
        if not hasattr(local, "worker"):
            local.worker = Worker(settings)
            with lock:
                workers.append(local.worker)
        return local.worker.play(sf, *job)

    records = []
    try:
        with ThreadPoolExecutor(max_workers=max(concurrency, 1)) as pool:
            for future in as_completed([pool.submit(play, job) for job in jobs]):
                records.append(future.result())
                if progress:
                    progress(records[-1], len(records), len(jobs))
    finally:
        for worker in workers:
            worker.close()
    return records


def summary(records):
    """Wins, draws, losses, score and Elo (95% interval) of the first engine."""
    wins = sum(r.engine_points == 1.0 for r in records)
    losses = sum(r.engine_points == 0.0 for r in records)
    draws = len(records) - wins - losses
    points = wins + draws / 2
    n = len(records)
    reasons = {}
    for record in records:
        key = record.reason.split(":")[0]
        reasons[key] = reasons.get(key, 0) + 1
    return {"games": n, "wins": wins, "draws": draws, "losses": losses,
            "score": points / n if n else None, "elo": edge_elo(points, n),
            "plies": sum(len(r.moves) for r in records) / n if n else None,
            "endings": reasons}


def format_summary(settings, report):
    elo = report["elo"]
    lo, hi = elo["ci95"]
    shown = lambda v: "inf" if v is None else f"{round(v):+d}"     # noqa: E731
    return "\n".join([
        f"variant {settings.variant}, go {settings.go}",
        f"  engine:   {settings.engine} {_option_text(settings.engine_options)}",
        f"  opponent: {settings.opponent} {_option_text(settings.opponent_options)}",
        f"games {report['games']}: +{report['wins']} ={report['draws']} -{report['losses']}"
        f"  score {report['score']:.3f}" if report["games"] else "no games",
        f"Elo {shown(elo['value'])}  (95% interval {shown(lo)} .. {shown(hi)})",
        f"mean length {report['plies']:.0f} plies; endings {report['endings']}"
        if report["games"] else ""])


def _option_text(options):
    return " ".join(f"{name}={value}" for name, value in options)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="chess", help="a variant both engines know")
    parser.add_argument("--engine", default="fairyforge uci",
                        help="the measured engine's command (default: fairyforge uci)")
    parser.add_argument("--opponent", default=FSF_BINARY,
                        help=f"the opponent's command (default: {FSF_BINARY})")
    parser.add_argument("--engine-option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--opponent-option", action="append", default=[],
                        metavar="NAME=VALUE", help="e.g. UCI_LimitStrength=true UCI_Elo=2000")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--movetime", type=int, help="milliseconds a move (default 100)")
    limit.add_argument("--depth", type=int, help="a fixed depth a move")
    limit.add_argument("--nodes", type=int, help="a fixed node budget a move")
    parser.add_argument("--games", type=int, default=20,
                        help="openings; each is played twice, once with each colour")
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument("--max-plies", type=int, default=400,
                        help="a game still running after this many plies is a draw")
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1,
                        help="games played at once (default: every core)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the summary and every game here")
    parser.add_argument("--pgn", help="also write every game here as PGN (for `fairyforge "
                                      "tune GAME --from-pgn`)")
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    return parser.parse_args(argv)


def settings_from(args):
    def options(pairs):
        parsed = []
        for text in pairs:
            name, sep, value = text.partition("=")
            if not sep or not name.strip():
                raise SystemExit(f"match.py: option '{text}' is not NAME=VALUE")
            parsed.append((name.strip(), value.strip()))
        return parsed

    if args.depth:
        go, seconds = f"depth {args.depth}", 60.0
    elif args.nodes:
        go, seconds = f"nodes {args.nodes}", 60.0
    else:
        movetime = args.movetime or 100
        go, seconds = f"movetime {movetime}", movetime / 1000
    return Settings(args.variant, args.engine, args.opponent, options(args.engine_option),
                    options(args.opponent_option), go, seconds, args.max_plies)


def main(argv=None):
    args = parse_args(argv)
    settings = settings_from(args)
    if args.games < 1:
        raise SystemExit("match.py: --games must be at least 1")

    def progress(record, done, total):
        if not args.quiet:
            side = "white" if record.engine_white else "black"
            print(f"[{done}/{total}] engine {side}: {record.result} ({record.reason}, "
                  f"{len(record.moves)} plies)", file=sys.stderr, flush=True)

    records = run_match(settings, args.games, args.opening_plies, args.concurrency,
                        args.seed, progress)
    report = summary(records)
    print(format_summary(settings, report))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"settings": vars(settings), "summary": report,
                       "games": [vars(r) for r in records]}, out, indent=1)
    if args.pgn:
        write_pgn(args.pgn, settings, records)
    return 0


def write_pgn(path, settings, records):
    """Every game as PGN, its moves in SAN as fairyforge writes them; the tag
    OpeningPlies says how many of them were the random opening, and each engine move
    carries the mover's score as a `{[%eval 0.35]}` comment (White's view, pawns; `#3`
    a mate in three for White, `#-3` for Black), the convention of lichess's exports,
    which `fairyforge tune --eval-weight` learns from."""
    import fairyforge
    from fairyforge.pgn import export
    game = fairyforge.load(settings.variant)
    with open(path, "w") as out:
        for number, record in enumerate(records, 1):
            position = game.start()
            for move in record.moves:
                position.push_uci(move)
            names = ("engine", "opponent") if record.engine_white else ("opponent", "engine")
            comments = [None] * len(record.opening) + [eval_comment(s) for s in record.scores]
            out.write(export(position, {
                "Event": f"match.py {settings.go}", "Round": number,
                "White": getattr(settings, names[0]), "Black": getattr(settings, names[1]),
                "Result": record.result, "Termination": record.reason,
                "OpeningPlies": len(record.opening)}, comments) + "\n")


def eval_comment(score):
    """A PGN comment for a score in centipawns, White's view (None: no comment)."""
    if score is None:
        return None
    if abs(score) > MATE_CP // 2:
        distance = MATE_CP - abs(score)
        return f"[%eval #{distance if score > 0 else -distance}]"
    return f"[%eval {score / 100:.2f}]"


if __name__ == "__main__":
    sys.exit(main())
