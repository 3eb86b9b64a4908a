"""`fairyforge uci` driven as a GUI drives it: a raw session over pipes, every line of
output checked.

Each test runs the real command in a child process (`python -m fairyforge.cli uci`)
with the test session's engine cache, so builds are warm except where a test gives it
a cold cache on purpose.  `Engine` (used by the other protocol tests too) sends lines,
reads the answers with a time limit, and at the end checks that the process quit
cleanly: exit status 0, nothing on stderr (no traceback).
"""

import os
import queue
import re
import subprocess
import sys
import threading
import time

import pytest

import fairyforge as ff

SEARCH_INFO = (r"info depth \d+ score (cp -?\d+|mate -?\d+) nodes \d+ nps \d+ time \d+"
               r"( pv( \S+)+)?")
OPTIONS = [r"option name Hash type spin default 16 min 1 max 4096",
           r"option name Threads type spin default 1 min 1 max 64",
           r"option name MultiPV type spin default 1 min 1 max 256",
           r"option name Ponder type check default false",
           r"option name Move Overhead type spin default 100 min 0 max 5000",
           r"option name UCI_LimitStrength type check default false",
           r"option name UCI_Elo type spin default 1350 min 500 max 2850",
           r"option name UCI_Chess960 type check default false",
           r"option name UCI_Variant type combo default chess( var \S+)+",
           r"option name VariantPath type string default <empty>"]
HANDSHAKE = ["id name Fairyforge", "id author the Fairyforge developers", *OPTIONS, "uciok"]
CHESS_LINE = ("info string variant chess files 8 ranks 8 pocket 0 template fairy startpos "
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")


class Engine:
    """A `fairyforge` engine process driven line by line."""

    def __init__(self, command=("uci",), cache=None, program=None):
        env = dict(os.environ)
        if cache is not None:
            env["FAIRYFORGE_CACHE"] = str(cache)
        argv = program or [sys.executable, "-m", "fairyforge.cli", *command]
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env=env)
        self.lines = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._pump, args=(self.process.stdout, self.lines.put),
                         daemon=True).start()
        threading.Thread(target=self._pump, args=(self.process.stderr, self.stderr.append),
                         daemon=True).start()

    @staticmethod
    def _pump(stream, put):
        for raw in stream:
            put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        put(None)

    def send(self, *lines):
        for line in lines:
            data = line if isinstance(line, bytes) else line.encode()
            self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def until(self, pattern, timeout=60):
        """The lines up to and including the first that matches `pattern` in full."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                raise AssertionError(f"no line matching {pattern!r} in {timeout} s; got {seen}")
            if line is None:
                raise AssertionError(f"the engine ended before {pattern!r}; got {seen}, "
                                     f"stderr {self.stderr}")
            seen.append(line)
            if re.fullmatch(pattern, line):
                return seen

    def quiet(self, seconds):
        """The lines that arrive within `seconds`."""
        seen, deadline = [], time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                break
            if line is not None:
                seen.append(line)
        return seen

    def ask(self, *lines, until="readyok", timeout=60):
        """Send lines then `isready`: the answers before readyok."""
        self.send(*lines, "isready")
        return self.until(until, timeout)[:-1]

    def search(self, *lines, timeout=60):
        """Send lines ending in a `go`: the answers up to its best move."""
        self.send(*lines)
        return self.until(r"bestmove.*", timeout)

    def quit(self, timeout=15):
        """`quit`, and the lines still to come; the process must end cleanly."""
        self.send("quit")
        return self.finish(timeout)

    def finish(self, timeout=15):
        try:
            self.process.stdin.close()
        except OSError:
            pass
        self.process.wait(timeout)
        rest = []
        while True:
            line = self.lines.get(timeout=5)
            if line is None:
                break
            rest.append(line)
        time.sleep(0.05)
        assert self.process.returncode == 0, (self.process.returncode, self.stderr)
        assert not [line for line in self.stderr if line is not None], self.stderr
        return rest

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


def check_lines(lines, patterns):
    """Every line matches its pattern in full; a ("pattern", "+") item matches one or
    more lines, ("pattern", "*") any number."""
    i = 0
    for item in patterns:
        pattern, repeat = item if isinstance(item, tuple) else (item, "")
        if repeat != "*":
            assert i < len(lines) and re.fullmatch(pattern, lines[i]), \
                f"line {i}: expected {pattern!r}, got {lines[i:i + 3]} (all: {lines})"
            i += 1
        while repeat and i < len(lines) and re.fullmatch(pattern, lines[i]):
            i += 1
    assert i == len(lines), f"unexpected lines: {lines[i:]}"


@pytest.fixture
def engine(games):
    games["chess"]                 # the test cache holds the engine before the session starts
    process = Engine()
    yield process
    process.kill()


def started(engine, *setup):
    """The handshake, checked, then the start position (`isready` waits for the engine
    it needs) and `setup`, answered by nothing but `readyok`."""
    engine.send("uci")
    check_lines(engine.until("uciok"), HANDSHAKE)
    assert engine.ask("position startpos", *setup) == []


# -- the handshake and the options -------------------------------------------------------

def test_handshake_lists_the_honoured_options_and_every_bundled_game(engine):
    engine.send("uci")
    lines = engine.until("uciok")
    check_lines(lines, HANDSHAKE)
    variants = re.findall(r" var (\S+)", next(l for l in lines if "UCI_Variant" in l))
    assert variants == sorted(ff.bundled_games())
    assert engine.quit() == []


def test_refused_options_and_bad_values_are_answered(engine):
    started(engine)
    lines = engine.ask(
        "setoption name Threads value 65", "setoption name Threads value 1",
        "setoption name Skill Level value 3", "setoption name UCI_AnalyseMode value true",
        "setoption name Hash value abc", "setoption name Hash value 4097",
        "setoption name Hash value " + "9" * 100, "setoption name Hash value 0",
        "setoption name NoSuch value 3", "setoption name UCI_Variant value nosuch",
        "setoption name UCI_Chess960 value maybe", "setoption Hash 3",
        "setoption name hash value 32")
    check_lines(lines, [
        "info string error: Threads 65 is out of range: from 1 to 64",
        "info string error: option Skill Level is not supported: use UCI_LimitStrength "
        "and UCI_Elo",
        "info string error: Hash must be a whole number from 1 to 4096, not 'abc'",
        "info string error: Hash 4097 is out of range: from 1 to 4096",
        "info string error: Hash a 100-digit number is out of range: from 1 to 4096",
        "info string error: Hash 0 is out of range: from 1 to 4096",
        r"info string error: no option named 'NoSuch' \(options: Hash, Threads, MultiPV, "
        r"Ponder, Move Overhead, UCI_LimitStrength, UCI_Elo, UCI_Chess960, UCI_Variant, "
        r"VariantPath\)",
        r"info string error: UCI_Variant has no value 'nosuch' \(values: (.*, )?chess, .*\)",
        "info string error: UCI_Chess960 is true or false, not 'maybe'",
        "info string error: setoption needs 'name NAME \\[value VALUE\\]', got "
        "'setoption Hash 3'"])
    lines = engine.search("position startpos", "go depth 2")
    check_lines(lines, [(SEARCH_INFO, "+"), r"bestmove \S+ ponder \S+"])
    assert engine.quit() == []


def test_variant_change_prints_the_line_variant_guis_read(engine, games):
    for name in ("shogi", "xiangqi", "crazyhouse"):
        games[name]                                      # built: no build lines below
    started(engine)
    check_lines(engine.ask("setoption name UCI_Variant value chess"), [CHESS_LINE])
    check_lines(engine.ask("setoption name UCI_Variant value shogi"), [
        "info string variant shogi files 9 ranks 9 pocket 7 template shogi startpos "
        r"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL\[-\] w - - 0 1"])
    check_lines(engine.ask("setoption name UCI_Variant value xiangqi"), [
        "info string variant xiangqi files 9 ranks 10 pocket 0 template xiangqi startpos "
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"])
    check_lines(engine.ask("setoption name UCI_Variant value CrazyHouse"), [
        "info string variant crazyhouse files 8 ranks 8 pocket 5 template crazyhouse "
        r"startpos rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\[\] w KQkq - 0 1"])
    check_lines(engine.search("position startpos moves e2e4 d7d5 e4d5 d8d5", "go depth 2"),
                [(SEARCH_INFO, "+"), r"bestmove \S+ ponder \S+"])
    lines = engine.ask("position fen rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq "
                       "- 0 3 moves P@e4", "d")
    assert lines[0] == ("info string fen rnb1kbnr/ppp1pppp/8/3q4/4P3/8/PPPP1PPP/RNBQKBNR[p] "
                        "b KQkq - 0 3"), lines
    assert engine.quit() == []


# -- positions ---------------------------------------------------------------------------

def test_an_illegal_move_keeps_the_legal_prefix(engine):
    started(engine)
    lines = engine.ask("position startpos moves e2e4 e2e5 e7e5", "d")
    check_lines(lines, [
        "info string error: e2e5: illegal move e2e5: no piece on e2",
        "info string the position is set after the first 1 of 3 moves",
        "info string fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        (r"info string +\d+( +[.A-Za-z])+", "+")])
    lines = engine.search("go depth 1")
    check_lines(lines, [SEARCH_INFO, r"bestmove [a-h][78][a-h][56] ponder \S+"])   # Black's move
    assert engine.quit() == []


def test_a_growing_game_is_continued_and_any_other_position_set_afresh(engine):
    """A GUI sends the whole game before every move; the session plays only the moves
    it has not played yet (Current.setup) and sets up afresh when the start or an
    earlier move differs, when moves were taken back, or after an illegal move."""
    import chess
    started(engine)

    def fen_after(*words):
        lines = engine.ask("position " + " ".join(words), "d")
        return next(line for line in lines if line.startswith("info string fen ")
                    )[len("info string fen "):]

    game = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 f7f6".split()
    board = chess.Board()
    for n, move in enumerate(game, 1):
        board.push_uci(move)
        assert fen_after("startpos moves", *game[:n]) == board.fen()
    assert fen_after("startpos moves", *game[:4]) == _board(game[:4]).fen()   # taken back
    assert fen_after("startpos moves d2d4") == _board(["d2d4"]).fen()          # another game
    start = _board(game[:2]).fen()
    assert fen_after("fen", start, "moves g1f3") == _board(game[:3]).fen()       # another start
    assert fen_after("fen", start, "moves g1f3 b8c6") == _board(game[:4]).fen()
    assert fen_after("startpos moves e2e4 e2e5") == _board(game[:1]).fen()       # illegal
    assert fen_after("startpos moves e2e4 e7e5") == _board(game[:2]).fen()
    # The knights' dance, one move a command, back to the start position twice; a
    # search from the continued position answers.
    dance = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split()
    for n in range(1, len(dance) + 1):
        assert fen_after("startpos moves", *dance[:n]) == _board(dance[:n]).fen()
    check_lines(engine.search("go depth 2"), [(SEARCH_INFO, "+"), r"bestmove \S+( ponder \S+)?"])
    assert engine.quit() == []


def _board(moves):
    import chess
    board = chess.Board()
    for move in moves:
        board.push_uci(move)
    return board


def test_bad_positions_are_refused_and_go_answers_none(engine):
    started(engine)
    huge = "position fen 8/8/8/8/8/8/8/" + "9" * 5000 + " w - - 0 1"
    lines = engine.search(huge, "d", "go depth 1")
    assert all(len(line) < 520 for line in lines), lines
    check_lines(lines, [r"info string error: position refused: .{10,450}",
                        r"info string no position: position refused: .*",
                        r"info string error: no position to search \(position refused: .*\)",
                        "bestmove \\(none\\)"])
    check_lines(engine.ask("position", "position nonsense"), [
        "info string error: position needs startpos, fen FEN or sfen SFEN, got 'position'",
        "info string error: position needs startpos, fen FEN or sfen SFEN, got "
        "'position nonsense'"])
    assert engine.quit() == []


def test_mate_and_stalemate_end_with_depth_0_then_bestmove_none(engine):
    started(engine)
    check_lines(engine.search("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "go depth 3"),
                ["info depth 0 score mate 0", "bestmove \\(none\\)"])
    check_lines(engine.search("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "go depth 3"),
                ["info depth 0 score cp 0", "bestmove \\(none\\)"])
    assert engine.quit() == []


def test_chess960_castling_is_king_takes_rook(engine):
    started(engine, "setoption name UCI_Chess960 value true")
    lines = engine.search("position fen r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
                          "go depth 2 searchmoves e1h1")
    check_lines(lines, [(SEARCH_INFO, "+"), r"bestmove e1h1( ponder \S+)?"])
    lines = engine.ask("position fen r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1 moves e1a1", "d")
    assert lines[0] == "info string fen r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1", lines
    assert engine.quit() == []


# -- go ------------------------------------------------------------------------------------

def test_go_limits_beyond_the_engines_are_reported_and_still_answered(engine):
    started(engine, "position startpos")
    lines = engine.search("go nodes 18446744073709551616 depth 2")
    check_lines(lines, [
        r"info string go: nodes 18446744073709551616 is beyond the largest node limit "
        r"\(2\^64-1\): searching without a node limit", (SEARCH_INFO, "+"),
        r"bestmove \S+ ponder \S+"])
    lines = engine.search("go nodes 18446744073709551615 depth 1")
    check_lines(lines, [SEARCH_INFO, r"bestmove \S+( ponder \S+)?"])
    lines = engine.search("go depth 100000 movetime 200")
    check_lines(lines, [r"info string go: depth 100000 is beyond the deepest search \(64\): "
                        "searching to depth 64", (SEARCH_INFO, "+"), r"bestmove \S+.*"])
    lines = engine.search("go depth x nodes") + engine.search("go wobble depth 1")
    check_lines(lines, ["info string go: depth needs a whole number, not 'x'",
                        "info string go: nodes needs a whole number",
                        (SEARCH_INFO, "+"), r"bestmove \S+.*",
                        "info string go: unknown word 'wobble' ignored",
                        SEARCH_INFO, r"bestmove \S+.*"])
    assert engine.quit() == []


def test_go_infinite_holds_its_move_until_stop(engine):
    # Mate in one: the search ends at once, but the move waits for `stop`.
    started(engine, "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    engine.send("go infinite")
    lines = engine.quiet(1.5)
    check_lines(lines, [(SEARCH_INFO, "+")])
    assert "score mate 1" in lines[-1]
    engine.send("stop")
    check_lines(engine.until("bestmove.*", 10), ["bestmove a1a8"])
    assert engine.quit() == []


def test_commands_during_an_infinite_search_neither_deadlock_nor_mix(engine):
    started(engine, "position startpos moves e2e4")
    engine.send("go infinite")
    time.sleep(0.3)
    lines = engine.ask("d")          # the position as set, not the search's inner state
    check_lines(lines, [(SEARCH_INFO + "|info string .*", "+")])
    fen_lines = [line for line in lines if line.startswith("info string fen")]
    assert fen_lines == ["info string fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR "
                         "b KQkq - 0 1"]
    # `position` stops the search (its move comes first), then is carried out.
    engine.send("position startpos moves d2d4", "d")
    lines = engine.until(r"info string fen .*", 10)
    check_lines(lines, [(SEARCH_INFO, "*"), r"bestmove [a-h][78][a-h][5-8].*",
                        "info string fen rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR "
                        "b KQkq - 0 1"])
    engine.until(r"info string  1 .*", 5)
    engine.send("go infinite")
    time.sleep(0.3)
    engine.send("ucinewgame")
    lines = engine.until(r"bestmove.*", 10)
    check_lines(lines, [(SEARCH_INFO, "+"), r"bestmove \S+.*"])
    engine.send("go infinite")
    time.sleep(0.2)
    engine.send("go depth 1")        # a second go stops the first, both are answered
    lines = engine.until("bestmove.*", 10) + engine.until("bestmove.*", 10)
    assert sum(line.startswith("bestmove") for line in lines) == 2
    assert engine.quit() == []


def test_closing_stdin_during_an_infinite_search_ends_the_process(engine):
    started(engine, "position startpos")
    engine.send("go infinite")
    time.sleep(0.5)
    started_at = time.monotonic()
    rest = engine.finish(timeout=5)
    assert time.monotonic() - started_at < 3
    check_lines(rest, [(SEARCH_INFO, "+"), r"bestmove \S+.*"])


def test_quit_during_an_infinite_search(engine):
    started(engine, "position startpos")
    engine.send("go infinite")
    time.sleep(0.3)
    started_at = time.monotonic()
    engine.quit(timeout=5)
    assert time.monotonic() - started_at < 3


# -- input that is not a command -------------------------------------------------------------

def test_huge_and_binary_lines_get_one_short_answer(engine):
    started(engine)
    engine.send(b"x" * (3 << 20), b"\xff\xfe\x00garbage", "foo " + "y" * 100000,
                b"position fen \xff", "   ", "")
    lines = engine.ask()
    assert all(len(line) < 300 for line in lines), [len(line) for line in lines]
    check_lines(lines, [
        r"info string error: a line of 3145729 bytes was ignored \(the limit is 1048576\): "
        r"'x{80}\.\.\.'",
        r"info string error: unknown command '.*garbage'",
        r"info string error: unknown command 'foo y{76}\.\.\. \(99924 more characters\)'",
        r"info string error: position refused: .*"])
    assert engine.quit() == []


# -- VariantPath ---------------------------------------------------------------------------

MINI = ('variant minitest "Mini"\nboard 4x4\npiece king K K royal\npiece rook R R\n'
        'setup "1k2/4/4/R2K w - - 0 1"\n')


def test_variant_path_reports_each_bad_file_and_keeps_the_good_ones(engine, tmp_path):
    (tmp_path / "a_good.variant").write_text(MINI)
    (tmp_path / "b_bad.variant").write_text(MINI.replace("minitest", "broken")
                                            + "pice knight N N\n")
    (tmp_path / "c_dir.variant").mkdir()
    (tmp_path / "notes.txt").write_text("not a definition")
    started(engine)
    lines = engine.ask(f"setoption name VariantPath value {tmp_path}")
    assert all(line.startswith("info string ") for line in lines), lines
    check_lines(lines, [
        f"info string loaded variant minitest from {tmp_path}/a_good.variant",
        f"info string error: {tmp_path}/b_bad.variant:6:1: error: unknown statement 'pice'.*",
        r"info string     pice knight N N", r"info string     \^",
        f"info string error: {tmp_path}/c_dir.variant: UnknownGameError: .*"])
    lines = engine.ask("setoption name UCI_Variant value minitest", timeout=120)
    assert lines[0] == ("info string variant minitest files 4 ranks 4 pocket 0 template "
                        "fairy startpos 1k2/4/4/R2K w - - 0 1"), lines
    engine.send("position startpos", "go depth 3")
    lines = engine.until("bestmove.*", 120)
    assert re.fullmatch(r"bestmove [a-d][1-4][a-d][1-4]( ponder \S+)?", lines[-1]), lines
    assert all(line.startswith(("info string", "info depth")) for line in lines[:-1]), lines
    assert engine.quit() == []


def test_variant_path_that_cannot_be_read(engine, tmp_path):
    chain = tmp_path / "chain"
    (chain / "deep").mkdir(parents=True)
    for i in range(1000):        # an `extends` chain 1000 files deep
        parent = "chess" if i == 0 else f'"v{i - 1}.variant"'
        (chain / "deep" / f"v{i}.variant").write_text(f'variant v{i} "V{i}" extends {parent}\n')
    (chain / "top.variant").write_text('variant top "Top" extends "deep/v999.variant"\n')
    empty = tmp_path / "empty"
    empty.mkdir()
    started(engine)
    lines = engine.ask(f"setoption name VariantPath value {tmp_path / 'nowhere'}",
                       f"setoption name VariantPath value {empty}",
                       f"setoption name VariantPath value {chain}",
                       f"setoption name VariantPath value {'/x' * 3000}")
    check_lines(lines, [
        f"info string error: VariantPath: no file or directory {tmp_path}/nowhere",
        f"info string error: VariantPath: no .variant files in {empty}",
        f"info string loaded variant top from {chain}/top.variant",   # any chain length
        r"info string error: VariantPath: no file or directory /x/x.*more characters\)"])
    check_lines(engine.search("go depth 1"), [SEARCH_INFO, r"bestmove \S+( ponder \S+)?"])
    assert engine.quit() == []


def test_an_unreadable_variant_path_directory_is_reported(tmp_path, monkeypatch):
    """(In-process: as root a directory's permissions do not keep it from being read.)"""
    import io
    from fairyforge.protocols.session import Session
    from fairyforge.protocols.streams import Output
    from fairyforge.protocols.uci import Uci

    def refuse(path):
        raise PermissionError(13, "Permission denied", path)

    out = io.StringIO()
    session = Session(Output(out))
    session.protocol = Uci(session)
    monkeypatch.setattr(os, "listdir", refuse)
    session.set_option("VariantPath", str(tmp_path))
    assert out.getvalue() == (f"info string error: VariantPath: cannot read {tmp_path}: "
                              "Permission denied\n")


def test_a_build_that_fails_is_reported_and_go_answers_none(tmp_path):
    blocked = tmp_path / "a_file"
    blocked.write_text("not a directory")
    engine = Engine(cache=blocked)
    try:
        engine.send("uci")
        engine.until("uciok")
        lines = engine.search("position startpos", "go depth 1")
        check_lines(lines, ["info string waiting for the chess engine to be built",
                            "info string error: the chess engine could not be built:",
                            f"info string cannot use the engine cache directory {blocked} .*",
                            r"bestmove \(none\)"])
        assert engine.quit() == []
    finally:
        engine.kill()
