"""The playtest database: every finished game, in SQLite, written as it completes.

One file holds any number of runs.  A run is one playtest command: its settings, its
one or two rule sets (with their rule models' canonical YAML and hash) and its games.
Each invocation that plays games for a run (the first, and every `--resume`) is a
*session*.  A game is identified by (run, slot, pair): the UNIQUE constraint on it
makes a game stored twice impossible, whatever a worker or a resume does.

The schema's version is SQLite's `user_version`; docs/playtest.md describes the
tables.  The file is opened in WAL mode, so a report (or a test) can read it while a
playtest writes, and each game is committed on its own: a crash or Ctrl-C loses at
most the games still being played.
"""

import json
import os
import sqlite3
import time
from dataclasses import asdict, dataclass
from typing import Optional

from .ruleset import PlaytestError

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE runs (
    id               INTEGER PRIMARY KEY,
    started_at       REAL    NOT NULL,              -- Unix time
    games            INTEGER NOT NULL,              -- games asked for, per rule set
    seed             INTEGER NOT NULL,              -- seed of the random openings
    depth            INTEGER,                       -- search depth per move, or NULL
    movetime         REAL,                          -- seconds per move, or NULL
    max_plies        INTEGER NOT NULL,              -- adjudicated a draw after this
    hash_mb          INTEGER NOT NULL,              -- transposition table per game
    opening_plies    TEXT    NOT NULL,              -- random opening plies, "2-4"
    sprt             TEXT,                          -- the stop rule's settings (JSON)
    status           TEXT    NOT NULL,              -- running, complete, stopped, interrupted
    fairyforge       TEXT    NOT NULL               -- the version that started it
);
CREATE TABLE rulesets (
    run_id           INTEGER NOT NULL REFERENCES runs(id),
    slot             INTEGER NOT NULL,              -- 0 = GAME, 1 = --against
    label            TEXT    NOT NULL,
    source           TEXT    NOT NULL,              -- the name or path the user gave
    model_hash       TEXT    NOT NULL,              -- SHA-256 of model_yaml
    model_yaml       TEXT    NOT NULL,              -- the rule model, canonical YAML
    PRIMARY KEY (run_id, slot)
);
CREATE TABLE sessions (
    run_id           INTEGER NOT NULL REFERENCES runs(id),
    session          INTEGER NOT NULL,              -- 1 for the first, then each resume
    started_at       REAL    NOT NULL,
    ended_at         REAL,
    backend          TEXT    NOT NULL,              -- "local, 2 processes", "dask tcp://..."
    end_reason       TEXT,
    PRIMARY KEY (run_id, session)
);
CREATE TABLE games (
    id               INTEGER PRIMARY KEY,           -- the order games finished in
    run_id           INTEGER NOT NULL REFERENCES runs(id),
    slot             INTEGER NOT NULL,
    pair             INTEGER NOT NULL,              -- same opening in every slot
    opening          TEXT    NOT NULL,              -- its random plies (UCI, spaces)
    moves            TEXT    NOT NULL,              -- every move, opening included (UCI)
    plies            INTEGER NOT NULL,
    result           TEXT    NOT NULL CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    winner           TEXT    CHECK (winner IN ('white', 'black')),
    reason           TEXT    NOT NULL,              -- checkmate, repetition, move limit ...
    model_hash       TEXT    NOT NULL,              -- the rule model the worker played
    nodes            INTEGER NOT NULL,              -- searched in the whole game
    search_seconds   REAL    NOT NULL,
    branching        TEXT    NOT NULL,              -- legal moves at each ply (JSON list)
    worker           TEXT    NOT NULL,              -- host:pid
    session          INTEGER NOT NULL,
    finished_at      REAL    NOT NULL,
    UNIQUE (run_id, slot, pair)
);
"""


@dataclass(frozen=True)
class RunSettings:
    """What a run was asked to do; a resume must ask for the same."""

    games: int
    seed: int
    depth: Optional[int]
    movetime: Optional[float]
    max_plies: int
    hash_mb: int = 4
    opening_plies: str = "2-4"
    sprt: Optional[str] = None          # JSON of the stop rule, None without one


class Store:
    """An open playtest database (a context manager)."""

    def __init__(self, path):
        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        try:
            os.makedirs(folder, exist_ok=True)
            self.db = sqlite3.connect(path, timeout=30)
            self.db.row_factory = sqlite3.Row
            self._prepare()
        except sqlite3.DatabaseError as err:
            raise PlaytestError(f"{path} is not a usable playtest database: {err}") from err
        except OSError as err:
            raise PlaytestError(f"cannot open the database {path}: {err.strerror}") from err

    def _prepare(self):
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version == 0 and not tables:
            with self.db:
                self.db.executescript(SCHEMA)
                self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        elif version != SCHEMA_VERSION or "games" not in tables:
            raise PlaytestError(
                f"{self.path} is not a playtest database of schema version {SCHEMA_VERSION} "
                f"(it has version {version}): use another --db")
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")    # durable across a process crash
        self.db.execute("PRAGMA foreign_keys = ON")

    def close(self):
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- runs -------------------------------------------------------------------------

    def new_run(self, settings, rulesets):
        from .. import __version__
        with self.db:
            cursor = self.db.execute(
                "INSERT INTO runs (started_at, games, seed, depth, movetime, max_plies, "
                "hash_mb, opening_plies, sprt, status, fairyforge) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?)",
                (time.time(), settings.games, settings.seed, settings.depth,
                 settings.movetime, settings.max_plies, settings.hash_mb,
                 settings.opening_plies, settings.sprt, __version__))
            run_id = cursor.lastrowid
            for slot, ruleset in enumerate(rulesets):
                self.db.execute("INSERT INTO rulesets VALUES (?, ?, ?, ?, ?, ?)",
                                (run_id, slot, ruleset.label, ruleset.source,
                                 ruleset.model_hash, ruleset.model_yaml()))
        return run_id

    def latest_run(self):
        row = self.db.execute("SELECT id FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def settings(self, run_id):
        row = self.db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise PlaytestError(f"{self.path} has no run {run_id}")
        return RunSettings(**{name: row[name] for name in asdict(_BLANK)})

    def run_info(self, run_id):
        return dict(self.db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone())

    def rulesets(self, run_id):
        """[{slot, label, source, model_hash}] of a run, by slot."""
        return [dict(row) for row in self.db.execute(
            "SELECT slot, label, source, model_hash FROM rulesets WHERE run_id = ? "
            "ORDER BY slot", (run_id,))]

    def model_yaml(self, run_id, slot):
        return self.db.execute("SELECT model_yaml FROM rulesets WHERE run_id = ? AND slot = ?",
                               (run_id, slot)).fetchone()[0]

    def set_status(self, run_id, status):
        with self.db:
            self.db.execute("UPDATE runs SET status = ? WHERE id = ?", (status, run_id))

    # -- sessions ---------------------------------------------------------------------

    def begin_session(self, run_id, backend):
        with self.db:
            row = self.db.execute("SELECT COALESCE(MAX(session), 0) + 1 FROM sessions "
                                  "WHERE run_id = ?", (run_id,)).fetchone()
            self.db.execute("INSERT INTO sessions (run_id, session, started_at, backend) "
                            "VALUES (?, ?, ?, ?)", (run_id, row[0], time.time(), backend))
        return row[0]

    def end_session(self, run_id, session, reason):
        with self.db:
            self.db.execute("UPDATE sessions SET ended_at = ?, end_reason = ? "
                            "WHERE run_id = ? AND session = ?",
                            (time.time(), reason, run_id, session))

    def sessions(self, run_id):
        return [dict(row) for row in self.db.execute(
            "SELECT * FROM sessions WHERE run_id = ? ORDER BY session", (run_id,))]

    # -- games ------------------------------------------------------------------------

    def add_game(self, run_id, session, record):
        """Store a finished game (a play_game record); False if it was already there."""
        with self.db:
            cursor = self.db.execute(
                "INSERT INTO games (run_id, slot, pair, opening, moves, plies, result, winner, "
                "reason, model_hash, nodes, search_seconds, branching, worker, session, "
                "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (run_id, slot, pair) DO NOTHING",
                (run_id, record["slot"], record["pair"], " ".join(record["opening"]),
                 " ".join(record["moves"]), record["plies"], record["result"],
                 record["winner"], record["reason"], record["model_hash"], record["nodes"],
                 record["search_seconds"], json.dumps(record["branching"]),
                 record["worker"], session, time.time()))
        return cursor.rowcount == 1

    def done(self, run_id):
        """The (slot, pair) of every stored game of a run."""
        return {(row[0], row[1]) for row in self.db.execute(
            "SELECT slot, pair FROM games WHERE run_id = ?", (run_id,))}

    def games(self, run_id):
        """Every stored game of a run as a dict, in the order they finished."""
        rows = self.db.execute("SELECT * FROM games WHERE run_id = ? ORDER BY id", (run_id,))
        return [_game_dict(row) for row in rows]


_BLANK = RunSettings(games=0, seed=0, depth=None, movetime=None, max_plies=0)


def _game_dict(row):
    game = dict(row)
    game["opening"] = game["opening"].split()
    game["moves"] = game["moves"].split()
    game["branching"] = json.loads(game["branching"])
    return game
