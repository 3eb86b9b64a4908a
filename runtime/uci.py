"""`fairyforge uci`: the Universal Chess Interface, as Fairy-Stockfish speaks it.

Supported: uci, isready, ucinewgame, setoption (UCI_Variant, VariantPath, Hash),
position startpos|fen ... [moves ...], go (depth, nodes, movetime, wtime/btime/winc/
binc/movestogo, infinite), stop, quit, and `d` (print the position, for people).
`setoption name UCI_Variant value shogi` selects a bundled game; `setoption name
VariantPath value FILE` makes the games defined in FILE (a definition file, or a
directory of them) selectable too, as with Fairy-Stockfish's variants.ini.
"""

import os
import sys
import threading

from .errors import FairyforgeError
from .search import think

DEFAULT_HASH_MB = 16


class UciEngine:
    def __init__(self, out=sys.stdout):
        from . import bundled_games
        self.out = out
        self.variants = {name: name for name in bundled_games()}
        self.variant = "chess"
        self.game = None
        self.position = None
        self.hash_mb = DEFAULT_HASH_MB
        self.thread = None
        self.stop_requested = False

    # -- output ----------------------------------------------------------------------
    def send(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    # -- commands ------------------------------------------------------------------------
    def handle(self, line):
        """Handle one input line; returns False on quit."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        handler = getattr(self, f"cmd_{command}", None)
        if handler is None:
            self.send(f"info string unknown command: {command}")
            return True
        try:
            return handler(args) is not False
        except FairyforgeError as err:
            self.send(f"info string error: {err}")
            return True

    def cmd_uci(self, args):
        self.send("id name Fairyforge")
        self.send("id author the Fairyforge developers")
        names = " ".join(f"var {name}" for name in sorted(self.variants))
        self.send(f"option name UCI_Variant type combo default {self.variant} {names}")
        self.send("option name VariantPath type string default <empty>")
        self.send(f"option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 4096")
        self.send("uciok")

    def cmd_isready(self, args):
        self._game()                 # build the engine now, not during the first `go`
        self.send("readyok")

    def cmd_ucinewgame(self, args):
        self._wait()
        self.position = None

    def cmd_setoption(self, args):
        text = " ".join(args)
        if not text.startswith("name "):
            return
        name, _, value = text[5:].partition(" value ")
        name = name.strip().lower()
        value = value.strip()
        if name == "uci_variant":
            if value not in self.variants:
                self.send(f"info string unknown variant {value}")
                return
            self.variant, self.game, self.position = value, None, None
        elif name == "variantpath":
            self._add_variants(value)
        elif name == "hash":
            self.hash_mb = max(1, int(value)) if value.isdigit() else DEFAULT_HASH_MB

    def _add_variants(self, path):
        from .compiler import resolve
        paths = ([os.path.join(path, f) for f in sorted(os.listdir(path)) if f.endswith(".variant")]
                 if os.path.isdir(path) else [path])
        for file in paths:
            variant = resolve.load_variant(file)
            self.variants[variant.name] = file
            self.send(f"info string loaded variant {variant.name} from {file}")

    def _game(self):
        from . import load
        if self.game is None:
            self.game = load(self.variants[self.variant])
        return self.game

    def cmd_position(self, args):
        self._wait()
        game = self._game()
        if "moves" in args:
            i = args.index("moves")
            head, moves = args[:i], args[i + 1:]
        else:
            head, moves = args, []
        if head and head[0] == "startpos":
            position = game.start()
        elif head and head[0] == "fen":
            position = game.position(" ".join(head[1:]))
        else:
            self.send("info string position needs startpos or fen")
            return
        for move in moves:
            position.push_uci(move)
        self.position = position

    def cmd_go(self, args):
        self._wait()
        if self.position is None:
            self.position = self._game().start()
        limits = self._limits(args)
        self.stop_requested = False
        self.thread = threading.Thread(target=self._search, args=(self.position, limits),
                                       daemon=True)
        self.thread.start()

    def _limits(self, args):
        values = {}
        i = 0
        while i < len(args):
            key = args[i]
            if key == "infinite":
                values[key] = True
                i += 1
                continue
            if i + 1 < len(args) and args[i + 1].lstrip("-").isdigit():
                values[key] = int(args[i + 1])
                i += 2
            else:
                i += 1
        limits = {}
        if "depth" in values:
            limits["depth"] = max(1, values["depth"])
        if "nodes" in values:
            limits["nodes"] = max(1, values["nodes"])
        if "movetime" in values:
            limits["movetime"] = max(values["movetime"], 1) / 1000
        side = self.position.turn
        clock = values.get("wtime" if side == "white" else "btime")
        if clock is not None and "movetime" not in limits:
            increment = values.get("winc" if side == "white" else "binc", 0)
            moves_to_go = values.get("movestogo", 30)
            budget = clock / max(moves_to_go, 1) + increment * 0.8
            limits["movetime"] = max(min(budget, clock * 0.5), 10) / 1000
        if "infinite" in values:
            limits.setdefault("depth", 64)
        if not limits:
            limits["depth"] = 6
        return limits

    def _search(self, position, limits):
        if getattr(position, "_hash_mb", None) != self.hash_mb:
            position.engine.set_hash_size(self.hash_mb)
            position._hash_mb = self.hash_mb
        result = think(position, on_info=lambda info: self.send(info.uci()),
                       stop_flag=lambda: self.stop_requested, **limits)
        if result.best_move is None:
            self.send("bestmove (none)")
        else:
            ponder = f" ponder {result.info.pv[1]}" if result.info and len(result.info.pv) > 1 else ""
            self.send(f"bestmove {result.best_move}{ponder}")

    def cmd_stop(self, args):
        self.stop_requested = True
        if self.position is not None:
            self.position.engine.stop()
        self._wait()

    def _wait(self):
        if self.thread is not None:
            self.thread.join()
            self.thread = None

    def cmd_quit(self, args):
        self.cmd_stop(args)
        return False

    def cmd_d(self, args):
        if self.position is None:
            self.position = self._game().start()
        self.send(f"info string {self.position.fen()}")


def main(stdin=sys.stdin, stdout=sys.stdout):
    engine = UciEngine(stdout)
    for line in stdin:
        if not engine.handle(line.strip()):
            break
    engine._wait()
    return 0
