"""XBoard/WinBoard (CECP, protocol version 2), as Fairy-Stockfish speaks it.

The engine keeps the game: `new`, `variant NAME` (`normal` is chess), `setboard FEN`,
`usermove M` (or a bare move), `undo`, `remove`; it moves when it is on move
(`go`, `playother`, `force` to stop playing), answers `move M` and claims the result
when the game ends.  Time: `level MPS BASE INC`, `st SECONDS`, `sd DEPTH`, `time` and
`otim` (centiseconds).  Also `analyze`/`exit`, `?` (move now), `ping N`, `memory MB`,
`option NAME=VALUE`, `post`/`nopost`.  Diagnostics are `#` comment lines; an illegal
move is answered `Illegal move (reason): M`.  Ranks are numbered from 0 on ten-rank
boards, as XBoard writes xiangqi.  Not sent: XBoard's `setup` and `piece` commands,
so a GUI shows only the variants it knows itself (normal, crazyhouse, shogi, xiangqi).
"""

from .limits import DEFAULT_DEPTH, Go
from .notation import ZeroRanks
from .options import DEFAULT_HASH_MB
from .streams import clip

XBOARD_MATE = 100000           # a mate in N moves is scored 100000 + N
QUIET = {"xboard", "accepted", "rejected", "random", "computer", "name", "rating", "ics",
         "draw", "hint", "bk", "hard", "easy", ".", "otherboard", "pause", "resume"}
# Set by `variant`, `memory` and `cores` instead, or UCI-only (pondering is the GUI's
# `hard`/`easy`; XBoard shows one line per depth).
OUTSIDE_OPTIONS = {"uci_variant", "hash", "threads", "ponder", "multipv"}


class XBoard:
    handshake = "xboard"
    default_variant = "chess"

    def __init__(self, session):
        self.session = session
        self.out = session.out
        self.engine_side = None        # the side the engine plays; None in force mode
        self.post = False
        self.analyzing = False
        self.expect_move = False       # the running search's result is to be played
        self.depth = None
        self.seconds_per_move = None
        self.level = None              # (moves per session, base ms, increment ms)
        self.clock_ms = None           # the engine's clock, from `time`
        self.setup = None              # the words of the last setboard; None: the start
        self.moves = []                # the moves since, as written in the protocol

    # -- output --------------------------------------------------------------------------
    def send(self, line):
        self.out.send(line)

    def note(self, text):
        self.send(f"# {text}")

    def dialect(self, game, chess960):
        return ZeroRanks(game)

    def variant_selected(self, name, model):
        self.note(f"variant {name} files {model.files} ranks {model.ranks}")

    def info(self, info, dialect):
        if not self.post:
            return
        mate = info.mate
        score = info.score if mate is None else (XBOARD_MATE + abs(mate)) * (1 if mate > 0 else -1)
        pv = " ".join(dialect.move(m) for m in info.pv)
        self.send(f"{info.depth} {score} {int(info.seconds * 100)} {info.nodes}\t{pv}")

    def best_move(self, result, position, dialect):
        """A finished search: played (`move M`) only if it was searching for a move."""
        if not self.expect_move:
            return
        self.expect_move = False
        if result is None:
            self.note("no move: there is no position to play in")
        elif result.best_move is None:
            self._claim(position)
        else:
            text = dialect.move(result.best_move)
            self.send(f"move {text}")
            self.session.record_move(position, result.best_move)
            self.moves.append(text)
            self._claim(position)

    def _claim(self, position):
        outcome = position.outcome()
        if outcome is None:
            return
        names = self.session.game.variant.side_names
        if outcome.winner is None:
            self.send(f"1/2-1/2 {{Draw by {outcome.reason}}}")
        else:
            white = outcome.winner == "white"
            name = names[0 if white else 1]
            self.send(f"{'1-0' if white else '0-1'} {{{name} wins by {outcome.reason}}}")

    # -- commands ------------------------------------------------------------------------
    def handle(self, line, words):
        command, args = words[0], words[1:]
        if command in QUIET:
            return True
        if command == "?":
            command = "move_now"
        handler = getattr(self, "cmd_" + command, None) if command.isidentifier() else None
        if handler is not None:
            return handler(args, line) is not False
        if command == "usermove" and args:
            self.user_move(args[0])
        elif _looks_like_move(command):
            self.user_move(command)
        else:
            self.send(f"Error (unknown command): {clip(command)}")
        return True

    def cmd_protover(self, args, line):
        session = self.session
        # XBoard calls chess `normal`; a bundled `normal` (FSF's alias of chess) is the
        # same game, so the name is listed once.
        names = {"normal" if n == "chess" else n for n in session.options["uci_variant"].choices}
        self.send('feature setboard=1 usermove=1 time=1 memory=1 smp=1 colors=0 draw=0 '
                  'sigint=0 sigterm=0 ping=1 analyze=1 reuse=1 myname="Fairyforge" '
                  f'variants="{",".join(sorted(names))}"')
        for option in session.options.values():
            if option.name.lower() not in OUTSIDE_OPTIONS:
                self.send(f'feature option="{option.name} -{option.kind} '
                          f'{_feature_default(option)}"')
        self.send("feature done=1")

    def cmd_new(self, args, line):
        self._halt()
        if self.session.variant != "chess":
            self.session.select_variant("chess")
        self.session.new_game()
        self.session.ensure_build()
        self.engine_side, self.depth, self.analyzing = "black", None, False
        self.setup, self.moves = None, []

    def cmd_variant(self, args, line):
        self._halt()
        name = "chess" if args and args[0] == "normal" else (args[0] if args else "")
        if name not in self.session.sources:
            self.send(f"Error (unsupported variant): {clip(name)}")
            return
        self.session.select_variant(name)
        self.setup, self.moves = None, []

    def cmd_force(self, args, line):
        self._halt()
        self.engine_side = None

    cmd_result = cmd_force

    def cmd_go(self, args, line):
        self._halt()
        self.engine_side = self._turn()
        self._search_move()

    def cmd_playother(self, args, line):
        self._halt()
        turn = self._turn()
        self.engine_side = None if turn is None else ("black" if turn == "white" else "white")

    def cmd_move_now(self, args, line):
        self.session.stop_search()

    def cmd_setboard(self, args, line):
        self._halt()
        self.setup, self.moves = list(args), []
        self.session.set_position("fen", args, [])
        current = self.session.current
        if current is not None and current.position is None:
            self.send("tellusererror Illegal position")
        self._after_change()

    def cmd_undo(self, args, line):
        self._take_back(1)
        self._after_change()

    def cmd_remove(self, args, line):
        self._take_back(2)

    def _take_back(self, count):
        self._halt()
        count = min(count, len(self.moves))
        del self.moves[len(self.moves) - count:]
        self.session.take_back(count)

    def cmd_analyze(self, args, line):
        self._halt()
        self.analyzing = True
        self.session.go(Go(infinite=True))

    def cmd_exit(self, args, line):
        self._halt()
        self.analyzing = False

    def cmd_ping(self, args, line):
        if not self.session.searching:
            self.session.wait_for_build()
        self.send(f"pong {args[0] if args else ''}".rstrip())

    def cmd_post(self, args, line):
        self.post = True

    def cmd_nopost(self, args, line):
        self.post = False

    def cmd_level(self, args, line):
        try:
            moves, base, increment = int(args[0]), args[1], float(args[2])
            minutes, _, seconds = base.partition(":")
            base_ms = (int(minutes) * 60 + int(seconds or 0)) * 1000
        except (IndexError, ValueError):
            self.send(f"Error (bad level): {clip(line)}")
            return
        self.level, self.seconds_per_move = (moves, base_ms, int(increment * 1000)), None

    def cmd_st(self, args, line):
        value = _whole(args)
        if value is None:
            self.send(f"Error (bad st): {clip(line)}")
        else:
            self.seconds_per_move = max(value, 1)

    def cmd_sd(self, args, line):
        value = _whole(args)
        if value is None:
            self.send(f"Error (bad sd): {clip(line)}")
        else:
            self.depth = min(max(value, 1), 64)

    def cmd_time(self, args, line):
        value = _whole(args)
        if value is not None:
            self.clock_ms = max(value, 0) * 10

    def cmd_otim(self, args, line):
        pass                            # the opponent's clock does not change our budget

    def cmd_memory(self, args, line):
        self.session.set_option("Hash", args[0] if args else str(DEFAULT_HASH_MB))

    def cmd_cores(self, args, line):
        self.session.set_option("Threads", args[0] if args else "")

    def cmd_option(self, args, line):
        name, _, value = line.partition(" ")[2].partition("=")
        option = self.session.options.get(name.strip().lower())
        if option is not None and option.kind == "check":
            value = "true" if value.strip() == "1" else "false"
        self.session.set_option(name, value)

    def cmd_quit(self, args, line):
        return False

    def cmd_d(self, args, line):
        current = self.session.current
        if self.session.game is None:
            self.note(f"the {self.session.variant} engine is not ready yet")
        elif current is None or current.position is not None:
            self.note(f"fen {current.fen if current else self.session.game.start_fen}")
        else:
            self.note(f"no position: {clip(current.error, 200)}")

    # -- the game ------------------------------------------------------------------------
    def user_move(self, text):
        self._halt()
        session = self.session
        if session.game is not None and session.pending_position is None:
            error = session.push_move(text)
            if error is not None:
                self.send(f"Illegal move ({clip(error, 120)}): {clip(text)}")
                return
        else:       # kept with the game until the engine is built (checked then)
            kind = "startpos" if self.setup is None else "fen"
            session.set_position(kind, self.setup or [], self.moves + [text])
        self.moves.append(text)
        self._after_change()

    def _after_change(self):
        if self.analyzing:
            self.session.go(Go(infinite=True))
        elif self.engine_side is not None and self._turn() == self.engine_side:
            self._search_move()

    def _turn(self):
        session = self.session
        if session.game is None or session.pending_position is not None:
            first = self.setup[1] if self.setup and len(self.setup) > 1 else "w"
            sides = ("white", "black") if first == "w" else ("black", "white")
            return sides[len(self.moves) % 2]
        position = session.position_for_search()
        return None if position is None else position.turn

    def _search_move(self):
        self.expect_move = True
        self.session.go(self._limits())

    def _limits(self):
        go = Go(depth=self.depth)
        if self.seconds_per_move is not None:
            go.movetime = self.seconds_per_move * 1000
        elif self.level is not None:
            moves, base_ms, increment_ms = self.level
            us = (self._turn() or "white")[0]
            go.clock[us + "time"] = self.clock_ms if self.clock_ms is not None else base_ms
            go.clock[us + "inc"] = increment_ms
            if moves > 0:
                go.movestogo = moves - (self._fullmove() - 1) % moves
        elif self.depth is None:
            go.depth = DEFAULT_DEPTH
        return go

    def _fullmove(self):
        current = self.session.current
        words = current.fen.split() if current and current.fen else []
        return int(words[5]) if len(words) > 5 and words[5].isdigit() else 1

    def _halt(self):
        """Stop a running search without playing its move."""
        self.expect_move = False
        self.session.stop_search()


def _whole(args):
    text = args[0] if args else ""
    digits = text.lstrip("+-")
    return int(text) if digits.isdigit() and digits.isascii() and len(digits) < 12 else None


def _looks_like_move(word):
    return any(ch.isdigit() for ch in word) and len(word) <= 12 and word.isascii()


def _feature_default(option):
    if option.kind == "spin":
        return f"{option.default} {option.low} {option.high}"
    if option.kind == "check":
        return "1" if option.default else "0"
    return option.default_text()

