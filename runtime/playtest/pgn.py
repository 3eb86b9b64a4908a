"""PGN export of stored playtest games.

A minimal writer, kept behind the one function `export_pgn(db, path)` so that it can
later hand over to a full PGN module.  The move text is the engine's UCI-style moves
(`e2e4`, `P@e5`, `b2h8+`), not SAN: it is exact for every variant and readable by
tools that accept UCI moves in PGN (python-chess does for chess).  Each game carries
the tags Event, Site, Date, Round (run.pair), White, Black, Result, Variant, FEN and
SetUp (the rule set's start), Termination (the reason it ended) and PlyCount, and the
Fairyforge-specific FFRuleSet and FFModelHash.
"""

import os
import time

import yaml

from ..pgn import quote, wrap
from .store import Store


def export_pgn(db, path, run_id=None):
    """Write the games of a run (default: the latest) of database `db` (a path or an
    open Store) to the PGN file `path`; returns the number of games written."""
    store = Store(db) if isinstance(db, (str, os.PathLike)) else db
    try:
        run_id = run_id or store.latest_run()
        games = store.games(run_id) if run_id else []
        rulesets = {r["slot"]: r for r in store.rulesets(run_id)} if run_id else {}
        starts = {slot: yaml.safe_load(store.model_yaml(run_id, slot))["setup"]
                  for slot in rulesets}
        info = store.run_info(run_id) if run_id else None
        with open(path, "w") as handle:
            for game in games:
                handle.write(_game_text(game, rulesets[game["slot"]], info,
                                        starts[game["slot"]]))
    finally:
        if store is not db:
            store.close()
    return len(games)


def _tag(name, value):
    return f'[{name} "{quote(str(value))}"]\n'


def _game_text(game, ruleset, info, start_fen):
    limit = f"depth {info['depth']}" if info["depth"] else f"{info['movetime']:g} s/move"
    player = f"Fairyforge {limit}"
    tags = [("Event", f"Fairyforge playtest {info['id']}"), ("Site", game["worker"]),
            ("Date", time.strftime("%Y.%m.%d", time.localtime(game["finished_at"]))),
            ("Round", f"{info['id']}.{game['pair'] + 1}"), ("White", player),
            ("Black", player), ("Result", game["result"]), ("Variant", ruleset["label"]),
            ("FEN", start_fen), ("SetUp", "1"), ("Termination", game["reason"]),
            ("PlyCount", game["plies"]), ("FFRuleSet", ruleset["source"]),
            ("FFModelHash", game["model_hash"])]
    words = []
    for ply, move in enumerate(game["moves"]):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(move)
    words.append(game["result"])
    return "".join(_tag(k, v) for k, v in tags) + "\n" + wrap(words) + "\n\n"

