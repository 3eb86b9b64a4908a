"""Learned evaluation parameters: the data file `fairyforge tune` writes and builds read.

A parameter set replaces the evaluation the compiler derives from the rules (piece
values, values in hand, square bonuses) with values fitted to game results.  It is a
JSON file named `GAME.eval.json` in the tuned-parameters directory:
`$FAIRYFORGE_TUNED` if set, else `$XDG_DATA_HOME/fairyforge/tuned` (by default
`~/.local/share/fairyforge/tuned`).  The file carries the SHA-256 of the rule model's
canonical YAML (`model.dump_yaml`): a build uses it only while the rules it was fitted
to are the rules being built, and ignores a stale one with a warning naming the file.

    {"format": 1, "game": "ichess", "model_hash": "<sha256>", "symmetry": "mirror",
     "values": {"queen": 912, ...},          # centipawns on the board
     "hand_values": {"pawn": 131, ...},      # centipawns in hand (drop games)
     "pst": {"pawn": [[...rank 1, files a..], [...rank 2...], ...], ...},
     "king_safety": {"shelter": {"pawn": 12, ...},   # optional: see KING_SAFETY
                     "near": {"queen": -40, ...}, "attacks": {"queen": -12, ...},
                     "holes": {"knight": -9, ...}},
     "king_attackers": [0, 0, -8, -30, ...], # optional: see KING_ATTACKERS below
     "mobility": {"bishop": 4, ...},         # optional: centipawns per board move
     "mobility_by_count": {"queen": [-60, -35, ...], ...},  # optional: see MOBILITY_COUNTS
     "mobility_safe": {"knight": 3, ...},    # optional: see MOBILITY_SAFE below
     "drop_checks": {"safe": {"knight": 30, ...},   # optional: see DROP_CHECKS below
                     "defended": {"knight": 8, ...}},
     "board_checks": {"safe": {"queen": 20, ...},  # optional: see BOARD_CHECKS below
                      "defended": {"queen": 3, ...}},
     "passed": {"pawn": [0, 5, 8, 15, 30, 60, 110, 0]},   # optional: see PASSED below
     "passed_king": {"own": {"pawn": [0, 0, 0, -5, -10, ...]},   # optional: see
                     "enemy": {"pawn": [0, 0, 0, 10, 20, ...]}},  # PASSED_KING below
     "structure": {"doubled": {"pawn": -12}, "isolated": {"pawn": -10},
                   "pair": {"bishop": 35}},   # optional: see STRUCTURE below
     "threats": {"to_move": {"queen": 20, ...},   # optional: see THREATS below
                 "waiting": {"queen": 90, ...}},
     "threats_by_taker": {"to_move": {"pawn": {"knight": 60, ...}, ...},   # optional:
                          "waiting": {...}},                      # see THREATS below
     "endgame": {"values": {...}, "pst": {...}},   # optional: see ENDGAME below
     "search_settings": {"null_move": 1},   # optional: see SEARCH_SETTINGS below
     "fit": {...}}                           # how it was fitted (informational)

A bundled game may ship a parameter file of its own, fitted by us
(`definitions/tuned/GAME.eval.json`, see bundled_path): a build uses it when the user's
directory has none for the game, under the same rule (the same model hash, else a
warning and the derived evaluation).

Square tables are written from White's side, rank 1 first; Black's are the same table
under the game's symmetry (`mirror`: ranks flipped, as chess; `rotate`: the board
turned half round, as shogi).
"""

import hashlib
import json
import math
import os
import warnings

from fairyforge.errors import FairyforgeError

FORMAT = 1
SYMMETRIES = ("mirror", "rotate")
# The king-safety terms, each a bonus (centipawns) per piece type, counted for the side
# whose royal piece it is (compiler/core/evaluate.pxi `king_safety`):
#   shelter  for each of its own pieces next to its royal piece;
#   near     for each enemy piece within two squares of it (a file or rank of two);
#   attacks  for each board move an enemy piece has to a square next to it or onto it
#            (its mobility moves that reach the king's neighbourhood; a file written
#            before this term has none, which is 0);
#   holes    in a drop game, for each empty square next to it, per type the enemy holds
#            in hand (a square a dropped piece can attack the royal piece from).
# A file without them (or a derived evaluation) has none: the engine skips the term.
# (The order is that of the tuner's parameter blocks: holes, absent without drops, last.)
KING_SAFETY = ("shelter", "near", "attacks", "holes")
# King attackers (evaluate.pxi `activity`): a bonus (centipawns) for the side whose
# royal piece it is, by how many enemy pieces have a board move next to it or onto it,
# one number for each count from 0 to KING_ATTACKERS - 1, the last for that many or
# more.  The per-type terms above add up each attack alone; this one learns what they
# cannot, that attackers together are worth more than apart (one piece near a king is
# seldom a threat, four usually are).  In a drop game it is a table: a row of those
# numbers for each count of types the enemy holds in hand (each can be dropped next to
# the royal piece), 0 to HAND_ATTACKERS - 1, the last for that many or more, so that a
# fit can learn how pieces in hand and on the board add to each other.  A file without
# it has none.  (Files written before 2026-11-30 gave a drop game one row, by board
# attackers and hand types counted together: still read so, as attackers_table says.)
KING_ATTACKERS = 8
HAND_ATTACKERS = 8
# Mobility (compiler/core/evaluate.pxi `activity`): a bonus per piece type, in
# centipawns, for each pseudo-legal move a piece of that type has on the board (drops,
# castling and passes not counted), counted for both sides whoever is to move.  A file
# without it has none: the engine skips the term (it costs a move generation a side).
# Mobility by count (evaluate.pxi `piece_activity`): a bonus per piece, by its type and
# how many such moves it has, 0 to MOBILITY_COUNTS - 1 (the last for that many or more),
# added to the straight line above: what a line cannot say, that a piece's first moves
# matter more than its twentieth (a trapped piece is worth much less; a queen with
# twenty moves hardly more than with twelve).  Absent or all 0: no such term.
MOBILITY_COUNTS = 32
# Safe mobility (MOBILITY_SAFE, evaluate.pxi `piece_activity`): a bonus per type, in
# centipawns, added for each of those board moves that goes to a square no enemy piece
# of the game's cheapest type attacks (Stockfish's mobility area leaves out the squares
# enemy pawns attack: a knight that can only go where a pawn takes it is not free).
# The cheapest type is the one of the least positive value, not royal, that the search
# calls the pawn (lower.py `cheapest_types`).  A file without it has none.
# Drop checks (evaluate.pxi `drop_checks`), in a drop game with a royal piece: a bonus
# per type, in centipawns, for each empty square from which a piece of that type, held
# in the side's hand and droppable there (the rules' drop squares; a file limit such
# as shogi's pawns is not consulted), would attack the enemy royal piece, counted for
# both sides whoever is to move.  Four tables:
#   safe      no enemy piece attacks the square (the enemy's royal piece included);
#   defended  one does;
#   safe_to_move, defended_to_move   added to the two above for the squares of the
#             side to move, which may drop the check now (the other side's squares
#             are a threat to parry; a move decides which of the two a square is).
# What the king-safety terms cannot see: a knight in hand that can check from three
# squares nobody guards is a threat, one whose check squares are all covered is not.
# A file without them has none.
CHECK_KINDS = ("safe", "defended")     # what Engine.drop_checks / board_checks count a side
DROP_CHECKS = CHECK_KINDS + tuple(f"{kind}_to_move" for kind in CHECK_KINDS)
# Board checks (evaluate.pxi `board_check`, counted in `activity`'s walk), in a game
# with a royal piece: a bonus per type, in centipawns, for each board move (a mobility
# move) of a piece of that type to a square from which, standing there, it would attack
# the enemy royal piece (a direct check; the square it leaves still blocks, and a
# promotion counts once per choice, as the piece that moves), counted for both sides
# whoever is to move, `safe` and `defended` as for drop checks, and `safe_to_move`,
# `defended_to_move` added to them for the side to move's moves (it may check now).
# Never for a royal piece.  A file without them has none.
BOARD_CHECKS = DROP_CHECKS


def check_term(term):
    """(the index in CHECK_KINDS of the squares a drop- or board-check `term` counts,
    whether it counts them for the side to move only)."""
    kind = term.removesuffix("_to_move")
    return CHECK_KINDS.index(kind), kind != term
# Passed pieces (evaluate.pxi `is_passed`): for a type that promotes, a bonus by rank
# (counted from its owner's side, rank 1 first) for each piece of it that no enemy piece
# of its type stands ahead of, on its file or the files beside it (a passed pawn).
# Passed pieces and the royal pieces (evaluate.pxi `passer_kings`), in a game with a
# royal piece: for each passed piece, by its type and rank as above, a bonus per square
# of distance (a king's moves, at most PASSED_KING_DISTANCE) from a royal piece to the
# square ahead of it (the square it would move to; its own on the last rank).  Two
# tables, each counted for the passed piece's side:
#   own    its own royal piece's distance (Stockfish's: a king that escorts its pawn);
#   enemy  the enemy's royal piece's distance (one too far away cannot catch it).
# The bonus counts in the endgame where the evaluation blends endgame tables in
# (ENDGAME below: it is an ending's term), wholly where it has none.
PASSED_KING = ("own", "enemy")
PASSED_KING_DISTANCE = 5
# Threats (evaluate.pxi `activity`): a bonus per piece type, in centipawns, for each
# board move (a mobility move) that captures an enemy piece of that type, not royal,
# with a piece worth less than it (a threat the exchange cannot answer).  Two tables:
#   to_move  the threat's side is to move (it may take: quiescence sees that too);
#   waiting  the other side is to move (it must save the piece: two such threats, a
#            fork, usually win one, and a static score at quiescence's stand pat
#            sees them only here).
# Threats by taker: the same two tables with a row per taking type, added to the
# victim's bonus above (a pawn that attacks a knight is another threat than a bishop
# that attacks a rook: Fairy-Stockfish weighs them apart).  Each row is a table by
# victim.  A file without them has none.
THREATS = ("to_move", "waiting")
# Structure (evaluate.pxi `structure`): bonuses by piece type, in centipawns, for a
# side's own pieces on the board:
#   doubled   for each piece of a type that promotes with another of its type on its
#             file (a file with n of them counts n - 1: chess's doubled pawns);
#   isolated  for each piece of a type that promotes with none of its type on the
#             files beside it (chess's isolated pawns);
#   pair      for two or more pieces of a type, not royal (chess's bishop pair).
# A file without them has none.
STRUCTURE = ("doubled", "isolated", "pair")
# Endgame (evaluate.pxi `blend`): board values and square tables, as "values" and "pst",
# for a game's end; the engine blends them with the others by phase (compiler/lower.py
# `phase`: the value of the pieces in play, but the cheapest type's, against the
# setup's), so that a king may shelter in the middlegame and walk to the centre in the
# ending.  A piece or table it leaves out keeps the middlegame's number; a file without
# the section has no blend.


class ParameterFileError(FairyforgeError):
    """A parameter file cannot be read or does not describe this game's pieces."""


class StaleParametersWarning(UserWarning):
    """A parameter file was fitted to other rules than the ones being built."""


def model_hash(variant):
    """SHA-256 (hex) of the rule model's canonical YAML: what a parameter file is keyed on."""
    from . import model
    return hashlib.sha256(model.dump_yaml(variant).encode()).hexdigest()


def tuned_dir():
    """Where parameter files are looked for and written by default."""
    folder = os.environ.get("FAIRYFORGE_TUNED")
    if folder:
        return folder
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"),
                                                          ".local", "share")
    return os.path.join(base, "fairyforge", "tuned")


def default_path(name):
    return os.path.join(tuned_dir(), f"{name}.eval.json")


def bundled_path(name):
    """Where the package keeps the parameter file fitted for a bundled game."""
    from fairyforge import definitions
    return os.path.join(os.path.dirname(definitions.__file__), "tuned", f"{name}.eval.json")


def lookup_path(name):
    """The parameter file a build of `name` reads: the user's, else the bundled one
    (None if neither exists)."""
    for path in (default_path(name), bundled_path(name)):
        if os.path.exists(path):
            return path
    return None


def symmetry_of(variant):
    """How Black's squares map onto White's: `mirror` (ranks flipped) when the setup
    allows it, else `rotate` (both flipped) when that fits, else `mirror`."""
    from .positions import parse_fen
    from .lower import Lowerer
    setup = parse_fen(variant.setup, variant.files, variant.ranks, Lowerer(variant).token_table())
    board = setup.board
    for name in SYMMETRIES:
        if all(board.get(black_square(name, (f, r), variant.files, variant.ranks))
               == (t, 1 - colour) for (f, r), (t, colour) in board.items()):
            return name
    return "mirror"


def black_square(symmetry, square, files, ranks):
    """The square (file, rank) seen from the other side under `symmetry`."""
    f, r = square
    return (f if symmetry == "mirror" else files - 1 - f, ranks - 1 - r)


# The search's settings (compiler/core/search.pxi `Settings`, Engine.search_settings;
# bench/README.md lists what each does), of which a parameter file may set some for
# its game: those a match of this game measured a gain for (bench/search_ab.py), over
# the defaults every game has (search.pxi `default_settings`).  Each a whole number
# from 0 to 1000, as Engine.configure_search takes them.
SEARCH_SETTINGS = ("null_move", "null_base", "null_depth_div", "null_margin", "lmr_divisor",
                   "lmp_depth", "futility_depth", "rfp_depth", "rfp_margin", "razor_depth",
                   "iir_depth", "history_malus", "see_depth", "qs_tt", "qs_evasions",
                   "qs_checks", "aspiration", "cont_history", "tempo", "improving",
                   "singular_depth", "singular_margin", "qs_delta",
                   "capture_history", "tt_static", "cut_reduction", "check_see",
                   "probcut", "lmr_first", "history_prune", "lmr_history",
                   "tt_capture_reduction", "lmr_futility", "lmr_captures", "qs_promotions")
AT_LEAST_ONE = ("null_depth_div", "lmr_divisor")    # (divisors)


def read(path):
    """The parameter set in `path` (a dict), checked for shape; ParameterFileError."""
    try:
        with open(path) as handle:
            data = json.load(handle)
    except OSError as err:
        raise ParameterFileError(f"cannot read the parameter file {path}: "
                                 f"{err.strerror or err}") from None
    except ValueError as err:
        raise ParameterFileError(f"the parameter file {path} is not JSON: {err}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ParameterFileError(f"{path}: not a Fairyforge parameter file "
                                 f"(expected \"format\": {FORMAT})")
    for key in ("model_hash", "values", "hand_values", "pst", "symmetry"):
        if key not in data:
            raise ParameterFileError(f"{path}: the field '{key}' is missing")
    if data["symmetry"] not in SYMMETRIES:
        raise ParameterFileError(f"{path}: symmetry must be one of {', '.join(SYMMETRIES)}")
    safety = data.get("king_safety", {})
    if not isinstance(safety, dict) or set(safety) - set(KING_SAFETY):
        raise ParameterFileError(f"{path}: king_safety holds only "
                                 f"{', '.join(KING_SAFETY)}, each a table by piece")
    for term, table in safety.items():
        if not _number_table(table):
            raise ParameterFileError(f"{path}: king_safety {term}: expected numbers by piece")
    for section, terms in (("threats", THREATS), ("structure", STRUCTURE),
                           ("drop_checks", DROP_CHECKS), ("board_checks", BOARD_CHECKS)):
        tables = data.get(section, {})
        if not isinstance(tables, dict) or set(tables) - set(terms) \
                or not all(_number_table(table) for table in tables.values()):
            raise ParameterFileError(f"{path}: {section} holds only {', '.join(terms)}, "
                                     "each a table of numbers by piece")
    by_taker = data.get("threats_by_taker", {})
    if not isinstance(by_taker, dict) or set(by_taker) - set(THREATS) or not all(
            isinstance(rows, dict) and all(_number_table(row) for row in rows.values())
            for rows in by_taker.values()):
        raise ParameterFileError(f"{path}: threats_by_taker holds only {', '.join(THREATS)}, "
                                 "each a table by taking piece of numbers by piece taken")
    if not _attackers_shape(data.get("king_attackers", [])):
        raise ParameterFileError(f"{path}: king_attackers: expected a list of "
                                 f"{KING_ATTACKERS} numbers, by the count of attackers (in "
                                 f"a drop game, {HAND_ATTACKERS} such lists, by the count "
                                 "of types the enemy holds in hand)")
    for section in ("mobility", "mobility_safe"):
        if not _number_table(data.get(section, {})):
            raise ParameterFileError(f"{path}: {section}: expected numbers by piece")
    by_count = data.get("mobility_by_count", {})
    if not isinstance(by_count, dict) or not all(
            isinstance(row, list) and len(row) == MOBILITY_COUNTS and _numbers(row)
            for row in by_count.values()):
        raise ParameterFileError(f"{path}: mobility_by_count: expected a list of "
                                 f"{MOBILITY_COUNTS} numbers for each piece, by its count "
                                 "of moves")
    passed = data.get("passed", {})
    if not isinstance(passed, dict) or not all(
            isinstance(row, list) and _numbers(row) for row in passed.values()):
        raise ParameterFileError(f"{path}: passed: expected a list of numbers by rank "
                                 "for each piece")
    passed_king = data.get("passed_king", {})
    if not isinstance(passed_king, dict) or set(passed_king) - set(PASSED_KING) or not all(
            isinstance(rows, dict) and all(isinstance(row, list) and _numbers(row)
                                           for row in rows.values())
            for rows in passed_king.values()):
        raise ParameterFileError(f"{path}: passed_king: expected \"own\" and \"enemy\", "
                                 "each a list of numbers by rank for each piece")
    _check_search_settings(data.get("search_settings", {}), path)
    endgame = data.get("endgame", {})
    if not isinstance(endgame, dict) or set(endgame) - {"values", "pst"} \
            or not _number_table(endgame.get("values", {})) \
            or not _square_tables(endgame.get("pst", {})):
        raise ParameterFileError(f"{path}: endgame holds \"values\" (numbers by piece) "
                                 "and \"pst\" (rows of numbers by piece), nothing else")
    return data


def _check_search_settings(settings, path):
    """`search_settings` must name known settings, each a whole number in range."""
    if not isinstance(settings, dict):
        raise ParameterFileError(f"{path}: search_settings: expected numbers by setting name")
    for name, value in settings.items():
        if name not in SEARCH_SETTINGS:
            raise ParameterFileError(f"{path}: search_settings: no search setting named "
                                     f"{name!r} (known: {', '.join(SEARCH_SETTINGS)})")
        low = 1 if name in AT_LEAST_ONE else 0
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 1000:
            raise ParameterFileError(f"{path}: search_settings: {name} must be a whole "
                                     f"number from {low} to 1000, not {value!r}")


def _attackers_shape(table):
    """Is `table` empty, KING_ATTACKERS numbers, or HAND_ATTACKERS rows of them?"""
    if not isinstance(table, list) or not table:
        return table == []
    if all(isinstance(row, list) for row in table):
        return len(table) == HAND_ATTACKERS and all(
            len(row) == KING_ATTACKERS and _numbers(row) for row in table)
    return len(table) == KING_ATTACKERS and _numbers(table)


def attackers_index(board, hand, drops):
    """The place in a king-attackers table as attackers_table flattens it (and
    evaluate.pxi attacker_count indexes KS_ATTACKERS) of a royal piece with `board`
    enemy pieces bearing next to it and, in a game with `drops`, `hand` types the enemy
    holds in hand."""
    column = min(board, KING_ATTACKERS - 1)
    return column + KING_ATTACKERS * min(hand, HAND_ATTACKERS - 1) if drops else column


def attackers_table(data, drops):
    """The king-attackers bonuses of the parameter set `data` as one flat list,
    attackers_index's order (KING_ATTACKERS numbers, or HAND_ATTACKERS times as many in
    a game with `drops`); all 0 where `data` has none.  A single row in a drop game
    counts board attackers and hand types together, as files written before 2026-11-30
    did: each cell takes the number of that sum (capped as the row is, so exactly)."""
    table = (data or {}).get("king_attackers") or [0] * KING_ATTACKERS
    if not drops:
        return list(table)
    if isinstance(table[0], list):
        return [value for row in table for value in row]
    return [table[min(board + hand, KING_ATTACKERS - 1)]
            for hand in range(HAND_ATTACKERS) for board in range(KING_ATTACKERS)]


def _square_tables(tables):
    """Is `tables` a dict of square tables, each a list of rows of finite numbers?"""
    return isinstance(tables, dict) and all(
        isinstance(rows, list) and all(isinstance(row, list) and _numbers(row) for row in rows)
        for rows in tables.values())


def _number_table(table):
    """Is `table` a dict of finite numbers (what each per-piece table holds)?"""
    return isinstance(table, dict) and _numbers(table.values())


def _numbers(values):
    """Are all of `values` finite numbers (not booleans)?"""
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
               for v in values)


def check_pieces(data, variant, path):
    """Every name and table size in `data` must fit the variant (ParameterFileError)."""
    names = {p.name for p in variant.pieces}
    tables = [(field, data[field]) for field in ("values", "hand_values", "pst")]
    tables += [(f"king_safety {term}", table)
               for term, table in data.get("king_safety", {}).items()]
    tables.append(("mobility", data.get("mobility", {})))
    tables.append(("mobility_by_count", data.get("mobility_by_count", {})))
    tables.append(("mobility_safe", data.get("mobility_safe", {})))
    tables += [(f"{section} {term}", table) for section in ("drop_checks", "board_checks")
               for term, table in data.get(section, {}).items()]
    tables += [(f"threats {term}", table) for term, table in data.get("threats", {}).items()]
    for term, rows in data.get("threats_by_taker", {}).items():
        tables.append((f"threats_by_taker {term}", rows))
        tables += [(f"threats_by_taker {term} {taker}", row) for taker, row in rows.items()]
    tables += [(f"structure {term}", table)
               for term, table in data.get("structure", {}).items()]
    tables.append(("passed", data.get("passed", {})))
    tables += [(f"passed_king {term}", rows)
               for term, rows in data.get("passed_king", {}).items()]
    endgame = data.get("endgame", {})
    tables += [(f"endgame {field}", endgame.get(field, {})) for field in ("values", "pst")]
    for field, table in tables:
        unknown = sorted(set(table) - names)
        if unknown:
            raise ParameterFileError(f"{path}: {field}: no piece named {unknown[0]} in "
                                     f"{variant.name}")
    for field, pst in (("pst", data["pst"]), ("endgame pst", endgame.get("pst", {}))):
        for name, rows in pst.items():
            if len(rows) != variant.ranks or any(len(row) != variant.files for row in rows):
                raise ParameterFileError(f"{path}: {field} {name}: expected {variant.ranks} "
                                         f"rows of {variant.files} values")
    attackers = data.get("king_attackers", [])
    if attackers and isinstance(attackers[0], list) and not variant.drops:
        raise ParameterFileError(f"{path}: king_attackers: {variant.name} has no drops, so "
                                 f"no rows by pieces in hand: expected a list of "
                                 f"{KING_ATTACKERS} numbers, by the count of attackers")
    if any(data.get("drop_checks", {}).values()) and not variant.drops:
        raise ParameterFileError(f"{path}: drop_checks: {variant.name} has no drops, so no "
                                 "piece can check by a drop")
    promoting = {p.name for p in variant.pieces if p.promotion is not None}
    for term in ("doubled", "isolated"):
        for name in data.get("structure", {}).get(term, {}):
            if name not in promoting:
                raise ParameterFileError(f"{path}: structure {term} {name}: only a piece "
                                         "that promotes has this bonus")
    passed = [("passed", data.get("passed", {}))]
    passed += [(f"passed_king {term}", rows)
               for term, rows in data.get("passed_king", {}).items()]
    for section, rows in passed:
        for name, row in rows.items():
            if name not in promoting:
                raise ParameterFileError(f"{path}: {section} {name}: only a piece that "
                                         "promotes has passed-piece bonuses")
            if len(row) != variant.ranks:
                raise ParameterFileError(f"{path}: {section} {name}: expected "
                                         f"{variant.ranks} values, one a rank")
    # Every game has a royal type, but in some (giveaway) neither side owns it.
    if data.get("passed_king") and not any(p.royal and any(p.tokens) for p in variant.pieces):
        raise ParameterFileError(f"{path}: passed_king: {variant.name} has no royal piece "
                                 "that a side owns, to measure a distance from")


def write(path, data):
    """Write a parameter set (atomically: a reader never sees half a file)."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    temporary = path + ".part"
    with open(temporary, "w") as handle:
        json.dump(data, handle, indent=1)
        handle.write("\n")
    os.replace(temporary, path)


def for_build(variant, path=None, progress=None):
    """The parameter set a build of `variant` uses, or None.

    `path` defaults to the game's file in tuned_dir(), else the one bundled with the
    game (lookup_path).  A file fitted to other rules is
    ignored with a warning naming it (a StaleParametersWarning, or a `warning:` message
    to `progress` where the caller reports through one, as the UCI builder does); a
    damaged one raises ParameterFileError (a build never guesses).
    """
    path = path or lookup_path(variant.name)
    if path is None or not os.path.exists(path):
        return None
    data = read(path)
    if data["model_hash"] != model_hash(variant):
        message = (f"ignoring the evaluation parameters in {path}: they were fitted to "
                   f"other rules of {variant.name} (the definition changed since); run "
                   f"`fairyforge tune {variant.name}` again")
        if progress:
            progress("warning: " + message)
        else:
            warnings.warn(message, StaleParametersWarning, stacklevel=3)
        return None
    check_pieces(data, variant, path)
    return data


def canonical(data):
    """The text of a parameter set that enters the build's cache key."""
    if data is None:
        return "derived"
    used = {k: data[k] for k in ("values", "hand_values", "pst", "symmetry")}
    if data.get("king_safety"):
        used["king_safety"] = data["king_safety"]
    # (every table the engine reads: one left out here would let a build with other
    # numbers reuse a cached module)
    for term in ("king_attackers", "mobility", "mobility_by_count", "mobility_safe", "drop_checks", "board_checks", "passed", "passed_king",
                 "threats", "threats_by_taker",
                 "structure", "endgame",
                 "search_settings"):
        if data.get(term):
            used[term] = data[term]
    return json.dumps(used, sort_keys=True)
