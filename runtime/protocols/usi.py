"""USI, the protocol of shogi GUIs, as Fairy-Stockfish speaks it.

It is UCI with shogi's conventions: `usi`/`usiok`, `usinewgame`, positions as SFEN
(`position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`),
squares numbered from the right and lettered from the top (`7g7f`, drops `P*5e`),
`btime` for the first player (sente, Fairyforge's White), `byoyomi`, mate distances in
plies, and `bestmove resign` when there is no legal move.  The default variant is shogi.
"""

from ..search import MATE
from .notation import Usi as UsiDialect, fen_to_sfen
from .uci import Uci


class Usi(Uci):
    handshake = "usi"
    default_variant = "shogi"
    no_move = "resign"
    first_player_is = "b"

    def dialect(self, game, chess960):
        return UsiDialect(game)

    def score(self, info):
        if info.mate is None:
            return f"cp {info.score}"
        plies = MATE - info.score if info.score > 0 else -(MATE + info.score)
        return f"mate {plies}"

    def cmd_usi(self, args, line):
        self.cmd_uci(args, line)

    def cmd_usinewgame(self, args, line):
        self.session.new_game()

    def cmd_gameover(self, args, line):
        self.session.stop_search()

    def describe(self, fen):
        return [f"sfen {fen_to_sfen(fen)}"] + super().describe(fen)
