"""UCCI, the protocol of xiangqi programs, as Fairy-Stockfish speaks it.

It is UCI with xiangqi's conventions: `ucci`/`ucciok`, options listed as `option NAME
type ...` and set as `setoption NAME VALUE`, ranks numbered from 0 on ten-rank boards
(`h2e2`), `go time T increment I` in seconds, scores without `cp`, `banmoves` (moves the
next search may not play), `nobestmove` when there is no legal move, and `bye` on
`quit`.  The default variant is xiangqi.
"""

from .notation import ZeroRanks
from .uci import Uci


class Ucci(Uci):
    handshake = "ucci"
    default_variant = "xiangqi"

    def __init__(self, session):
        super().__init__(session)
        self.banned = []

    def dialect(self, game, chess960):
        return ZeroRanks(game)

    def score(self, info):
        mate = info.mate
        return f"mate {mate}" if mate is not None else str(info.score)

    def score_text(self, value):
        return super().score_text(value).replace("cp ", "")

    def best_move(self, result, position, dialect):
        if result is None or result.best_move is None:
            if result is not None:
                self.send(f"info depth 0 score {self._final_score(position)}")
            self.send("nobestmove")
            return
        super().best_move(result, position, dialect)

    def option_line(self, option):
        line = super().option_line(option)
        return line.replace(f"option name {option.name} ",
                            f"option {option.name.replace(' ', '_')} ", 1)

    def cmd_ucci(self, args, line):
        self.cmd_uci(args, line)

    def cmd_setoption(self, args, line):
        if args and args[0] == "name":
            super().cmd_setoption(args, line)
        elif args:
            name = args[0]          # spaces in names are written as underscores
            if name.lower() not in self.session.options:
                name = name.replace("_", " ")
            self.session.set_option(name, " ".join(args[1:]))
        else:
            self.note("error: setoption needs NAME VALUE")

    def cmd_uccinewgame(self, args, line):
        self.session.new_game()

    def cmd_banmoves(self, args, line):
        self.banned = list(args)

    def cmd_position(self, args, line):
        self.banned = []
        super().cmd_position(args, line)

    def cmd_go(self, args, line):
        from .limits import parse_go
        go = parse_go(args, self.session.note)
        if self.banned and not go.searchmoves:
            go.searchmoves = self._allowed_moves()
        self.session.go(go)

    def _allowed_moves(self):
        """The legal moves but the banned ones, as `searchmoves` words."""
        session = self.session
        if session.game is None:
            return []
        position = session.position_for_search()
        if position is None:
            return []
        dialect = session.dialect()
        return [text for text in (dialect.move(m) for m in position.legal_moves())
                if text not in self.banned] or ["none"]

    def cmd_quit(self, args, line):
        self.send("bye")
        return False
