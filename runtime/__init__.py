"""Fairyforge: chess variants as short rule files, compiled into fast engines.

    import fairyforge as ff
    game = ff.load("shogi")          # a bundled name or a path to a definition file
    pos = game.start()
    pos.push_uci("c3c4"); pos.perft(3); pos.outcome()
"""

from .errors import (ArgumentError, BuildError, ConcurrentUseError, DefinitionError,
                     EmptyHistoryError, FairyforgeError, FenError, IllegalMoveError,
                     InvalidMoveError, MoveError, UnknownGameError)
from .game import Game
from .move import Move
from .position import Outcome, Position

__version__ = "0.2.0"
__all__ = ["load", "Game", "Position", "Move", "Outcome", "FairyforgeError",
           "DefinitionError", "FenError", "MoveError", "InvalidMoveError",
           "IllegalMoveError", "EmptyHistoryError", "BuildError", "UnknownGameError",
           "ArgumentError", "ConcurrentUseError",
           "bundled_games"]

_loaded = {}


def load(name_or_path, progress=None, chess960=False, quick=False):
    """Compile (or fetch from the cache) a game: a bundled name or a definition file path.

    `progress`, if given, is called with short messages while a build runs.
    `chess960=True` gives the game's Chess960 twin (Fairy-Stockfish's UCI_Chess960: the
    definition with `chess960 castling` added, its own engine), for a game with castling.
    `quick=True` gives the unoptimized build (compiled in a fraction of the time, a few
    times slower to search): what `fairyforge uci` plays with while the engine builds.
    """
    from .compiler import build, loader
    variant = (loader.load_chess960_twin(name_or_path) if chess960
               else loader.load_variant(name_or_path))
    path, module = build.load_module(variant, progress=progress, quick=quick)
    if path not in _loaded:
        _loaded[path] = Game(variant, module, path)
    return _loaded[path]


def bundled_games():
    """Names of the games that ship with Fairyforge."""
    from .compiler import loader
    return loader.bundled_names()
