"""The engine behind every protocol: variants, options, builds, the position, the search.

A Session knows nothing of any protocol's syntax.  The protocol object (uci.py, usi.py,
ucci.py, xboard.py) parses commands into calls on it and renders what it reports.

Threads: the command loop calls the session; a build's thread reports when a variant's
engine is ready; a search's thread reports its progress and its result.  `lock` guards
the session's state, and is never held while waiting for a search or a build, so none
of them can block another.  A command that needs an engine still being built is kept
(the last `position`, a `go`) and carried out when the build ends; nothing waits for it.
"""

import os
import threading
from dataclasses import dataclass
from typing import Optional

from ..errors import DefinitionError, FairyforgeError
from .builds import Build
from .limits import think_limits
from .notation import sfen_to_fen
from ..strength import FULL_STRENGTH_ELO, Strength
from .options import ALIASES, DEFAULT_HASH_MB, OptionError, refusal, standard_options
from .streams import NOTE_LIMIT, PATH_LIMIT, clip
from .worker import SearchJob

MAX_DIAGNOSTICS = 20         # per definition file, in a VariantPath report
MAX_BUILD_WAIT = 5.0         # the longest `isready` waits for a build (s)


@dataclass
class Current:
    """The position the client last set, as it was set (`d` shows this, never the
    engine's state in the middle of a search)."""

    position: Optional[object]     # a Position; None if the client's position was refused
    fen: str = ""
    error: str = ""
    # How `position` set it: (kind, words, moves played), so that the next `position`
    # command that repeats it with more moves plays only those (a GUI sends the whole
    # game before every move, and replaying it costs a move's share of a short clock).
    # None where the position was changed otherwise (XBoard's moves and undo).
    setup: Optional[tuple] = None


class Session:
    def __init__(self, out, variants=None):
        from .. import bundled_games
        self.out = out
        self.lock = threading.RLock()
        self.protocol = None
        self.sources = {name: name for name in (variants or bundled_games())}
        self.models = {}                # name -> resolved rule model (Variant)
        self.options = {o.name.lower(): o for o in standard_options(sorted(self.sources))}
        self.values = {key: option.default for key, option in self.options.items()}
        self.games = {}                 # name -> Game, once built and loaded
        self.failures = {}              # name -> why its engine could not be built
        self.builds = {}                # name -> the Build under way
        self.current = None             # Current, or None for the start position
        self.pending_position = None    # (fen words or None, moves) awaiting the build
        self.pending_go = None          # a Go awaiting the build
        self.job = None                 # the SearchJob of the last `go`
        self.table = (None, None, None)   # (game, Hash MB, HashTable) the searches share
        self.variant_chosen = False     # UCI_Variant set by the client (not a default)
        self.closed = False

    # -- reporting -----------------------------------------------------------------------
    def note(self, text):
        """A diagnostic line (several lines: one note each) for the client."""
        for line in str(text).split("\n"):
            if line.strip():
                self.protocol.note(clip(line, NOTE_LIMIT))

    @property
    def variant(self):
        return self.values["uci_variant"]

    @property
    def game(self):
        return self.games.get(self.variant)

    def default_variant(self, name):
        """The protocol's own default (chess, shogi for USI, xiangqi for UCCI), unless the
        client chose one already."""
        if not self.variant_chosen and name in self.sources:
            self.values["uci_variant"] = name
            self.current = None

    # -- options -------------------------------------------------------------------------
    def set_option(self, name, value):
        key = ALIASES.get(name.strip().lower(), name.strip().lower())
        option = self.options.get(key)
        if option is None:
            self._refused_option(name, value)
            return
        try:
            parsed = option.parse(value)
        except OptionError as err:
            self.note(f"error: {err}")
            return
        if key == "uci_variant":
            self.select_variant(parsed)
        elif key == "variantpath":
            self.add_variant_path(parsed)
        else:
            self.values[key] = parsed
            if key == "uci_elo" and parsed > FULL_STRENGTH_ELO:
                self.note(f"UCI_Elo {parsed} is above the engine's full strength (about "
                          f"{FULL_STRENGTH_ELO}): with UCI_LimitStrength it plays at full "
                          "strength")

    def _refused_option(self, name, value):
        try:
            message = refusal(name.strip(), value)
        except KeyError:
            names = ", ".join(o.name for o in self.options.values())
            self.note(f"error: no option named '{clip(name.strip())}' (options: {names})")
            return
        if message:
            self.note(f"error: {message}")

    # -- variants ------------------------------------------------------------------------
    def model(self, name):
        """The rule model of a selectable variant (resolved once)."""
        if name not in self.models:
            from ..compiler import loader
            self.models[name] = loader.load_variant(self.sources[name])
        return self.models[name]

    def select_variant(self, name):
        self.stop_search()
        with self.lock:
            self.pending_position = None
            old = self.variant
            self.values["uci_variant"] = name
            self.variant_chosen = True
            self.current = None
            self.failures.pop(name, None)          # chosen again: a failed build is retried
            if old != name and old in self.builds:
                build = self.builds.pop(old)
                build.cancel()
                if build.quick_game is not None and self.games.get(old) is build.quick_game:
                    del self.games[old]        # chosen again, it is built (or found) anew
        try:
            model = self.model(name)
        except Exception as err:     # a definition that cannot be read any more
            self.failures[name] = str(err)
            self.note(f"error: variant {name}: {err}")
            return
        self.protocol.variant_selected(name, model)
        self.ensure_build()

    def add_variant_path(self, path):
        if not path:
            return
        files = self._definition_files(path)
        for file in files:
            self._load_definition(file)
        self.options["uci_variant"].choices = sorted(self.sources)

    def _definition_files(self, path):
        try:
            if os.path.isdir(path):
                names = sorted(n for n in os.listdir(path) if n.endswith(".variant"))
                if not names:
                    self.note(f"error: VariantPath: no .variant files in {clip(path, PATH_LIMIT)}")
                return [os.path.join(path, n) for n in names]
            if os.path.isfile(path):
                return [path]
            self.note(f"error: VariantPath: no file or directory {clip(path, PATH_LIMIT)}")
        except OSError as err:
            self.note(f"error: VariantPath: cannot read {clip(path, PATH_LIMIT)}: "
                      f"{err.strerror or err}")
        return []

    def _load_definition(self, file):
        from ..compiler import loader
        try:
            model = loader.load_variant(file)
        except DefinitionError as err:
            shown = err.diagnostics[:MAX_DIAGNOSTICS]
            for diagnostic in shown:
                self.note("error: " + diagnostic.render())
            if len(err.diagnostics) > len(shown):
                self.note(f"error: {file}: {len(err.diagnostics) - len(shown)} more errors")
            return
        except Exception as err:     # FairyforgeError, RecursionError, OSError ...
            self.note(f"error: {clip(file, PATH_LIMIT)}: {type(err).__name__}: {err}")
            return
        with self.lock:
            if self.sources.get(model.name) != file:
                self.games.pop(model.name, None)       # a new source for the name
                self.failures.pop(model.name, None)
            self.sources[model.name] = file
            self.models[model.name] = model
        self.note(f"loaded variant {model.name} from {clip(file, PATH_LIMIT)}")

    # -- building ------------------------------------------------------------------------
    def ensure_build(self):
        """Start building the current variant's engine unless it is there or under way."""
        name = self.variant
        with self.lock:
            if name in self.games or name in self.builds or name in self.failures:
                return
            self.builds[name] = Build(name, self.sources[name], self._build_progress,
                                      self._build_done, self._quick_ready).start()

    def wait_for_build(self, limit=MAX_BUILD_WAIT):
        """Wait (at most `limit` seconds) for the current variant's build, if any, to
        give an engine to play with (the quick one will do)."""
        build = self.builds.get(self.variant)
        if build is not None:
            build.wait_playable(limit)

    def _build_progress(self, build, message):
        self.note(f"building {build.name}: {message}")

    def _quick_ready(self, build):
        """The unoptimized engine is loaded: play with it until the optimized one is."""
        with self.lock:
            if self.builds.get(build.name) is not build or self.closed:
                return
            self.games[build.name] = build.quick_game
            self.note(f"{build.name}: a quickly compiled engine plays (slower) until the "
                      "optimized one is built")
            if build.name == self.variant:
                self._resume()

    def _build_done(self, build):
        with self.lock:
            if self.builds.get(build.name) is build:
                del self.builds[build.name]
            if build.error is not None:
                self.failures[build.name] = build.error
                self.note(f"error: the {build.name} engine could not be built:")
                self.note(build.error)
            else:
                self.games[build.name] = build.game
                if build.compiled:
                    self.note(f"{build.name} engine ready ({build.seconds:.1f} s; the next "
                              "sessions find it in the cache)")
            if build.name == self.variant and not self.closed:
                self._resume()

    def _resume(self):
        """Carry out what waited for the engine: the last position, then the go."""
        if self.game is None:            # the build failed, and said why: no move to give
            self.pending_position = None
            if self.pending_go is not None:
                self.pending_go = None
                self.protocol.best_move(None, None, None)
            return
        if self.pending_position is not None:
            spec, self.pending_position = self.pending_position, None
            self._apply_position(*spec)
        if self.pending_go is not None:
            go, self.pending_go = self.pending_go, None
            self._start(go)

    def _answer_pending_go(self, reason):
        """A `go` still waiting for its engine is answered (with no move), never dropped."""
        if self.pending_go is not None:
            self.pending_go = None
            self.note(f"error: {reason}")
            self.protocol.best_move(None, None, None)

    # -- positions -----------------------------------------------------------------------
    def set_position(self, kind, words, moves):
        """`position`: kind is startpos, fen or sfen (with its words).  Moves after an
        illegal one are not played: the legal prefix is kept, as Fairy-Stockfish does."""
        self.stop_search()
        with self.lock:
            if self.game is not None:
                self._apply_position(kind, words, moves)
                return
            self.pending_position = (kind, words, moves)
        self.ensure_build()

    def _apply_position(self, kind, words, moves):
        game = self.game
        if game is None:
            self.current = Current(None, error=self._no_engine())
            self.note(f"error: {self.current.error}")
            return
        dialect = self.dialect()
        position, done = self._continued(kind, words, moves)
        if position is None:
            try:
                if kind == "startpos":
                    position = game.start()
                elif kind == "sfen":
                    position = game.position(sfen_to_fen(words, game))
                else:
                    position = game.position(dialect.fen(words))
            except Exception as err:     # FenError, and whatever else a wild FEN provokes
                self.current = Current(None, error=f"position refused: {err}")
                self.note(f"error: position refused: {err}")
                return
        played = done + self._play(position, moves[done:], dialect)
        if played < len(moves):
            self.note(f"the position is set after the first {played} of {len(moves)} moves")
        self.current = Current(position, position.fen(),
                               setup=(kind, tuple(words), tuple(moves[:played])))

    def _continued(self, kind, words, moves):
        """(the current position, moves of `moves` already played on it) when the
        current position was set by the same start and a prefix of `moves`, else
        (None, 0)."""
        current = self.current
        if current is None or current.setup is None or current.position is None \
                or current.position.game is not self.game:
            return None, 0
        was_kind, was_words, was_moves = current.setup
        if (was_kind, was_words) != (kind, tuple(words)) \
                or tuple(moves[:len(was_moves)]) != was_moves:
            return None, 0
        return current.position, len(was_moves)

    def _play(self, position, moves, dialect):
        """Play the moves up to the first illegal one; returns how many were played."""
        for played, text in enumerate(moves):
            error = self._push_text(position, text, dialect)
            if error is not None:
                self.note(f"error: {clip(text)}: {error}")
                return played
        return len(moves)

    @staticmethod
    def _push_text(position, text, dialect):
        """Play a move written in the dialect; None, or why it cannot be played."""
        move = dialect.find(text, position.legal_moves())
        try:
            if move is not None:
                position.push(move)
            else:                     # Fairyforge's own notation, or the reason it is not
                position.push_uci(dialect.ours(text))
        except FairyforgeError as err:
            return str(err)
        return None

    def push_move(self, text):
        """Play one more move on the current position (XBoard's way of keeping the game);
        None, or why it cannot be played (then nothing changes)."""
        self.stop_search()
        with self.lock:
            position = self.position_for_search()
            if position is None:
                return self.current.error
            error = self._push_text(position, text, self.dialect())
            self.current = Current(position, position.fen())
            return error

    def record_move(self, position, move):
        """The engine's own move, played on the position it was found in (XBoard)."""
        with self.lock:
            position.push(move)
            if self.current is not None and self.current.position is position:
                self.current = Current(position, position.fen())

    def take_back(self, count):
        """Take back up to `count` moves of the current position (XBoard's undo)."""
        self.stop_search()
        with self.lock:
            position = self.position_for_search() if self.game is not None else None
            if position is None:
                return
            for _ in range(min(count, len(position.move_stack))):
                position.pop()
            self.current = Current(position, position.fen())

    def dialect(self):
        return self.protocol.dialect(self.game, self.values["uci_chess960"])

    def _no_engine(self):
        reason = self.failures.get(self.variant, "it is not built")
        return f"no {self.variant} engine: {clip(reason.splitlines()[0] if reason else '')}"

    def position_for_search(self):
        """The position a search starts from (None if the client's was refused)."""
        if self.current is None:
            self.current = Current(self.game.start(), self.game.start_fen)
        position = self.current.position
        if position is not None and position.game is not self.game:
            # Set with the quick engine, which the optimized one has replaced since.
            position = self.game.position(position.setup_fen)
            for move in self.current.position.move_stack:
                position.push_uci(move.uci)
            self.current = Current(position, self.current.fen)
        return self.current.position

    # -- searching -----------------------------------------------------------------------
    def go(self, go):
        self.stop_search()
        with self.lock:
            if self.game is not None:
                self._start(go)
                return
            if self.variant in self.failures:
                self.note(f"error: {self._no_engine()}")
                self.protocol.best_move(None, None, None)
                return
            self.pending_go = go
            self.note(f"waiting for the {self.variant} engine to be built")
        self.ensure_build()

    def _start(self, go):
        position = self.position_for_search() if self.game is not None else None
        if position is None:
            reason = self.current.error if self.current else self._no_engine()
            self.note(f"error: no position to search ({clip(reason)})")
            self.protocol.best_move(None, None, None)
            return
        dialect = self.dialect()
        moves = self._search_moves(go, position, dialect)
        position.engine.use_table(self._hash_table())
        protocol = self.protocol
        self.job = SearchJob(
            position, self._limits(go, position), go.held,
            on_info=lambda info: protocol.info(info, dialect),
            on_done=lambda result: protocol.best_move(result, position, dialect),
            on_note=self.note, moves=moves).start()

    def _limits(self, go, position):
        """think()'s arguments: the `go` limits and the options that shape a search."""
        values = self.values
        limits = think_limits(go, position.turn, values["move overhead"])
        limits.update(multipv=values["multipv"], threads=values["threads"])
        if values["uci_limitstrength"]:
            limits["strength"] = Strength(values["uci_elo"])
        return limits

    def _hash_table(self):
        """The transposition table of the current game, of `Hash` MB: one for every
        search of the session (so a game's moves profit from the earlier searches)."""
        game, megabytes, table = self.table
        wanted = self.values["hash"]
        if game is self.game and megabytes == wanted:
            return table
        self.table = (None, None, None)            # the old one is freed first
        try:
            table = self.game.module.HashTable(wanted)
        except MemoryError:
            self.note(f"error: no memory for a {wanted} MB hash table: using "
                      f"{DEFAULT_HASH_MB} MB")
            table = self.game.module.HashTable(DEFAULT_HASH_MB)
        if table.megabytes != wanted:
            self.note(f"Hash {wanted} MB: the table has {table.megabytes} MB (a power "
                      "of two)")
        self.table = (self.game, wanted, table)
        return table

    def _search_moves(self, go, position, dialect):
        if not go.searchmoves:
            return None
        legal = position.legal_moves()
        moves = [dialect.find(text, legal) for text in go.searchmoves]
        for text, move in zip(go.searchmoves, moves):
            if move is None:
                self.note(f"error: searchmoves: {clip(text)} is not a legal move")
        return [m for m in moves if m is not None]

    def stop_search(self, command=False):
        """Stop a running search (its best move is reported before this returns).  The
        `stop` command (`command`) also makes a `go` still waiting for its engine search
        only one depth once the engine is there."""
        with self.lock:
            job, self.job = self.job, None
            if command and self.pending_go is not None:
                self.pending_go.stop_early = True
            else:
                self._answer_pending_go("a new command came before the engine was built: "
                                        "the search was not started")
        if job is not None and job.running:
            job.stop()
            if job.running:       # past the grace: never continue its position
                with self.lock:
                    if self.current is not None and self.current.position is job.position:
                        self.current.setup = None

    def release(self):
        """`ponderhit`: a held search may report its move, and a pondering one now
        runs on its clock."""
        with self.lock:
            job = self.job
            if self.pending_go is not None:       # still waiting for its engine
                self.pending_go.ponder = False
        if job is not None:
            job.ponderhit()

    @property
    def searching(self):
        job = self.job
        return job is not None and job.running

    def new_game(self):
        """`ucinewgame`: what earlier searches learnt is forgotten; the position stays
        (as in Fairy-Stockfish), and the next `position` sets a new one anyway."""
        self.stop_search()
        with self.lock:
            table = self.table[2]
            if table is not None:
                table.clear()
            if self.current is not None and self.current.position is not None:
                self.current.position.engine.new_game()

    def close(self):
        """End of the session: stop the search and cancel the builds."""
        with self.lock:
            self.closed = True
            builds = list(self.builds.values())
            self.builds.clear()
            self.pending_go = None
        self.stop_search()
        for build in builds:
            build.cancel(wait=True)
