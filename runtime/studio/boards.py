"""Games being played in the studio: one Board per open board, and what the page
needs to draw one (the SVG from fairyforge.svg, the legal moves, the SAN move list).

The Board keeps the whole game as a Position (its move_stack is the move list); the
page may look at any earlier ply, which is replayed on a fresh Position.  The engine
thinks on such a replayed copy, so that the game's history (repetitions, perpetual
rules) counts and the played game is never touched by a search.
"""

import itertools
import re
import threading

from .. import pgn, svg
from ..san import SanTable
from ..errors import MoveError
from ..search import think

UCI = re.compile(r"[a-p][0-9]{1,2}[a-p][0-9]{1,2}[a-z+]?|\+?[A-Z]@[a-p][0-9]{1,2}")

_ids = itertools.count(1)


class Board:
    def __init__(self, game, fen=None):
        self.id = str(next(_ids))
        self.game = game
        self.position = game.position(fen) if fen else game.start()
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def replay(self, ply=None):
        """A fresh Position after the first `ply` moves (all of them by default)."""
        moves = self.position.move_stack
        ply = len(moves) if ply is None else max(0, min(ply, len(moves)))
        pos = self.game.position(self.position.setup_fen)
        for move in moves[:ply]:
            pos.push(move)
        return pos

    def sans(self):
        """The SAN of each move played."""
        pos = self.game.position(self.position.setup_fen)
        out = []
        for move in self.position.move_stack:
            out.append(pos.san(move))
            pos.push(move)
        return out

    def push(self, text):
        """Play a move (UCI or SAN); MoveError with the rule's reason if refused."""
        with self.lock:
            if UCI.fullmatch(text):
                return self.position.push_uci(text)
            return self.position.push_san(text)

    def state(self, ply=None, flipped=False, arrows=()):
        length = len(self.position.move_stack)
        ply = length if ply is None else max(0, min(int(ply), length))
        pos = self.position if ply == length else self.replay(ply)
        last = pos.move_stack[-1] if pos.move_stack else None
        meta = self.game.meta
        table = SanTable(pos) if ply == length else None
        outcome = pos.outcome() if ply == length else None
        return {
            "id": self.id, "game": self.game.name, "title": self.game.title,
            "files": meta["files"], "ranks": meta["ranks"],
            "fen": pos.fen(), "turn": pos.turn, "mover": meta["side_names"][
                pos.engine.state()[0]], "ply": ply, "length": length, "sans": self.sans(),
            "svg": svg.board(pos, flipped=flipped, lastmove=last, check=True, arrows=arrows),
            "legal": [_move_dict(m, table.san(m)) for m in table.legal] if table else [],
            "outcome": None if outcome is None else {"winner": outcome.winner,
                                                     "reason": outcome.reason},
            "check": pos.is_check(), "flipped": flipped,
        }

    def pgn(self):
        return pgn.export(self.position, {"Event": "Fairyforge studio"})

    def think(self, depth=None, movetime=None, on_info=None):
        """The engine's search on a replayed copy: (best Move or None, last Info)."""
        self.stop.clear()
        copy = self.replay()
        result = think(copy, depth=depth, movetime=movetime, on_info=on_info,
                       stop_flag=self.stop.is_set)
        return result.best_move, result.info


def _move_dict(move, san):
    return {"uci": move.uci, "san": san, "from": move.from_square, "to": move.to_square,
            "drop": move.uci.split("@")[0] if move.is_drop else None,
            "promotion": move.promotion, "piece": move.piece}


def info_dict(info, pos):
    """A search Info for the page: score, depth, nodes and the PV in SAN."""
    line, replay = [], pos
    try:
        for move in info.pv:
            line.append(replay.san(move))
            replay.push(move)
    except MoveError:
        pass                # a PV move a history rule forbids: the line stops there
    return {"depth": info.depth, "score": info.score, "mate": info.mate,
            "nodes": info.nodes, "nps": info.nps, "pv": line,
            "pv_uci": [m.uci for m in info.pv]}
