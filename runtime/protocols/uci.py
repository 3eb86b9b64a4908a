"""UCI, as Fairy-Stockfish speaks it (and the base of its USI and UCCI dialects).

    uci                          -> id name, id author, the options, uciok
    setoption name N [value V]   UCI_Variant, VariantPath, Hash, Threads, MultiPV, Ponder,
                                 Move Overhead, UCI_LimitStrength, UCI_Elo, UCI_Chess960
    isready                      -> readyok (after a build under way, 5 s at most)
    ucinewgame
    position startpos|fen FEN|sfen SFEN [moves M...]
    go [depth D] [nodes N] [movetime MS] [wtime btime winc binc movestogo] [mate N]
       [infinite] [ponder] [searchmoves M...]
    stop | ponderhit | quit | d

Every diagnostic is an `info string` line; nothing else leaves the engine.
"""

import re

from ..search import MATE, MATE_BOUND
from .limits import parse_go
from .notation import Dialect
from .streams import clip


class Uci:
    handshake = "uci"
    default_variant = "chess"
    no_move = "(none)"
    first_player_is = "w"          # which of wtime/btime is the first player's clock

    def __init__(self, session):
        self.session = session
        self.out = session.out

    # -- output --------------------------------------------------------------------------
    def send(self, line):
        self.out.send(line)

    def note(self, text):
        self.send(f"info string {text}")

    def dialect(self, game, chess960):
        return Dialect(game, chess960)

    def score(self, info):
        mate = info.mate
        return f"mate {mate}" if mate is not None else f"cp {info.score}"

    def info(self, info, dialect):
        pv = " ".join(dialect.move(m) for m in info.pv)
        rank = f" multipv {info.multipv}" if info.multipv else ""
        self.send(f"info depth {info.depth}{rank} score {self.score(info)} nodes {info.nodes} "
                  f"nps {info.nps} time {int(info.seconds * 1000)} pv {pv}".rstrip())

    def best_move(self, result, position, dialect):
        """The answer to a `go`: result None when there was nothing to search."""
        if result is None:
            self.send(f"bestmove {self.no_move}")
        elif result.best_move is None:       # no legal move: say how the game stands
            self.send(f"info depth 0 score {self._final_score(position)}")
            self.send(f"bestmove {self.no_move}")
        else:
            pv = result.info.pv if result.info else []
            ponder = f" ponder {dialect.move(pv[1])}" if len(pv) > 1 else ""
            self.send(f"bestmove {dialect.move(result.best_move)}{ponder}")

    def _final_score(self, position):
        """A lost or won game is `mate 0`, a drawn one `cp 0` (as Fairy-Stockfish)."""
        outcome = position.outcome()
        if outcome is None or outcome.winner is None:
            return self.score_text(0)
        return self.score_text(MATE if outcome.winner == position.turn else -MATE)

    def score_text(self, value):
        if abs(value) > MATE_BOUND:
            return "mate 0"
        return f"cp {value}"

    def variant_selected(self, name, model):
        """The line variant GUIs read to set up their board (Fairy-Stockfish's format)."""
        self.note(f"variant {name} files {model.files} ranks {model.ranks} pocket "
                  f"{pocket_size(model)} template {template(model)} startpos {model.setup}")

    # -- commands ------------------------------------------------------------------------
    def handle(self, line, words):
        """Carry out one command line; False ends the session."""
        handler = getattr(self, "cmd_" + words[0], None)
        if handler is None or not words[0].isidentifier():
            self.unknown(line)
            return True
        return handler(words[1:], line) is not False

    def unknown(self, line):
        self.note(f"error: unknown command '{clip(line)}'")

    def cmd_uci(self, args, line):
        session = self.session
        session.default_variant(self.default_variant)
        self.send("id name Fairyforge")
        self.send("id author the Fairyforge developers")
        for option in session.options.values():
            self.send(self.option_line(option))
        self.send(f"{self.handshake}ok")

    def option_line(self, option):
        if option.kind == "spin":
            detail = f" default {option.default} min {option.low} max {option.high}"
        elif option.kind == "button":
            detail = ""
        else:
            detail = f" default {self._default(option)}"
        if option.kind == "combo":
            detail += "".join(f" var {choice}" for choice in option.choices)
        return f"option name {option.name} type {option.kind}{detail}"

    def _default(self, option):
        if option.name == "UCI_Variant":
            return self.session.variant
        return option.default_text()

    def cmd_debug(self, args, line):
        pass

    def cmd_register(self, args, line):
        pass

    def cmd_isready(self, args, line):
        if not self.session.searching:
            self.session.wait_for_build()
        self.send("readyok")

    def cmd_setoption(self, args, line):
        if not args or args[0] != "name" or len(args) < 2:
            self.note(f"error: setoption needs 'name NAME [value VALUE]', got '{clip(line)}'")
            return
        words = args[1:]
        cut = words.index("value") if "value" in words else len(words)
        name, value = " ".join(words[:cut]), " ".join(words[cut + 1:])
        self.session.set_option(name, value)

    def cmd_ucinewgame(self, args, line):
        self.session.new_game()

    def cmd_position(self, args, line):
        cut = args.index("moves") if "moves" in args else len(args)
        head, moves = args[:cut], args[cut + 1:]
        if not head or head[0] not in ("startpos", "fen", "sfen"):
            self.note(f"error: position needs startpos, fen FEN or sfen SFEN, got '{clip(line)}'")
            return
        self.session.set_position(head[0], head[1:], moves)

    def cmd_go(self, args, line):
        go = parse_go(args, self.session.note, self.first_player_is)
        self.session.go(go)

    def cmd_stop(self, args, line):
        self.session.stop_search(command=True)

    def cmd_ponderhit(self, args, line):
        self.session.release()

    def cmd_quit(self, args, line):
        return False

    def cmd_d(self, args, line):
        """The position the client set, for people (as `info string` lines)."""
        session = self.session
        if session.game is None:
            self.note(f"the {session.variant} engine is not ready yet")
            return
        current = session.current
        if current is None:
            fen = session.game.start_fen
        elif current.position is None:
            self.note(f"no position: {clip(current.error, 200)}")
            return
        else:
            fen = current.fen
        for text in self.describe(fen):
            self.note(text)

    def describe(self, fen):
        return [f"fen {fen}"] + board_rows(fen)


def board_rows(fen):
    """The board of a FEN drawn in rows, the last rank first."""
    rows = []
    ranks = fen.split()[0].split("[")[0].split("/")
    for number, rank in zip(range(len(ranks), 0, -1), ranks):
        cells = []
        for token in re.findall(r"[0-9]+|\+?[A-Za-z]~?|.", rank):
            if token.isdigit():
                cells += ["."] * int(token)
            else:
                cells.append(token)
        rows.append(f"{number:>2} " + " ".join(f"{c:>2}" for c in cells))
    return rows


def pocket_size(model):
    """How many kinds of piece a hand can hold (0 without drops)."""
    return len({rule.piece for rule in model.drops})


def template(model):
    """The family a variant GUI should draw the game like, from its rules."""
    to_hand = model.captures.to_hand_white or model.captures.to_hand_black
    if model.no_facing_kings:
        return "xiangqi"
    if to_hand:
        return "shogi" if model.symmetry == "rotate" else "crazyhouse"
    return "fairy"
