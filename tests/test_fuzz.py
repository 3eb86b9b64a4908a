"""Fuzzing every entry point users reach with hand-written input (hypothesis).

* definition texts: mutations of the bundled definitions and random texts, through
  parse and resolve (and, when they resolve, lower and codegen): only DefinitionError,
  and every diagnostic points inside the file;
* FEN strings: mutated valid FENs, random piece placements and random text: a position
  that works round-trips, or FenError naming a field;
* move strings against positions from random games: InvalidMoveError or
  IllegalMoveError, and a refused move changes nothing;
* random playouts in every bundled game: push/pop round trips (FEN and Zobrist key
  identical after popping back) and keys identical to a fresh parse of the FEN;
* tests/test_fuzz_limits.py adds definitions near every encoding limit, very long
  tokens, deep `extends` chains and SIGINT during long work, each case timed
  (hangs and escapes are counted); tests/test_uci_fuzz.py fuzzes the protocols.

The CI budget is small and deterministic (`derandomize`).  FAIRYFORGE_FUZZ=long runs
the campaign (many more cases, random seeds, playouts of thousands of plies):

    FAIRYFORGE_FUZZ=long python -m pytest tests/test_fuzz.py

FAIRYFORGE_FUZZ_SCALE (a fraction, 1 by default) scales the long campaign's case
counts, for a campaign that must fit in a given time (0.05: about a twentieth).

Either way the terminal summary has a table of how many cases ran per input class,
how many were accepted or refused, and how many distinct messages were seen
(FAIRYFORGE_FUZZ_REPORT=path.json also writes it as JSON).  A crash is any other
exception, and fails the test.
"""

import collections
import glob
import json
import os
import random
import re
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import fairyforge as ff
from fairyforge import cycles
from fairyforge.compiler import codegen, lower, parse, resolve
from fairyforge.compiler.diagnostics import DiagnosticBag
from fairyforge.errors import (DefinitionError, EmptyHistoryError, FenError,
                               IllegalMoveError, InvalidMoveError)

from conftest import DEFINITIONS

LONG = os.environ.get("FAIRYFORGE_FUZZ", "").lower() == "long"
SCALE = float(os.environ.get("FAIRYFORGE_FUZZ_SCALE", "1")) if LONG else 1.0
GAMES = ff.bundled_games()
FEN_FIELDS = {"fen", "board", "holdings", "side", "castling", "en passant",
              "halfmove clock", "fullmove number", "restrictions", "check counters",
              "counting"}


def budget(ci, long):
    """hypothesis settings: `ci` examples (deterministic) or `long` ones (random)."""
    long = max(ci, int(long * SCALE))
    return settings(max_examples=long if LONG else ci, deadline=None, derandomize=not LONG,
                    database=None, suppress_health_check=list(HealthCheck))


# -- what ran: reported by conftest's terminal summary -----------------------------------

class Stats:
    def __init__(self):
        self.cases = 0
        self.accepted = 0
        self.refused = 0
        self.messages = set()
        self.templates = set()
        # Counted by the classes that time their cases (tests/test_fuzz_limits.py):
        self.hangs = 0          # cases past the per-case time limit
        self.escapes = 0        # exceptions outside what the class allows
        self.slowest = None     # seconds, the slowest case

    def counts(self):
        """What a pytest-xdist worker hands the controller (conftest.py)."""
        return {**vars(self), "messages": sorted(self.messages),
                "templates": sorted(self.templates)}

    def add_counts(self, counts):
        """Add another worker's counts to these."""
        for name in ("cases", "accepted", "refused", "hangs", "escapes"):
            setattr(self, name, getattr(self, name) + counts[name])
        self.messages.update(counts["messages"])
        self.templates.update(counts["templates"])
        if counts["slowest"] is not None:
            self.slowest = max(self.slowest or 0.0, counts["slowest"])


FUZZ_STATS = collections.OrderedDict(
    (name, Stats()) for name in ("definition texts", "definition bytes", "FEN strings",
                                 "move strings", "push(non-move)", "playout plies",
                                 "limit definitions", "hand FENs", "long tokens",
                                 "extends chains",
                                 "signals"))


def _names():
    names = set()
    for game in GAMES:
        variant = resolve.load_variant(game)
        names |= {p.name for p in variant.pieces}
        names |= set(variant.side_names) | {variant.title}
    return sorted(names, key=len, reverse=True)


_NAMES_RE = None


def template(message):
    """A message with its particulars (names, squares, numbers, quoted text) replaced,
    so that messages differing only in those count as one."""
    global _NAMES_RE
    if _NAMES_RE is None:
        _NAMES_RE = re.compile(r"\b(" + "|".join(map(re.escape, _names())) + r")\b")
    m = message.split("\n")[0]
    m = re.sub(r"^(illegal move|move) [^:]+:", r"\1 MOVE:", m)
    m = re.sub(r"0x[0-9a-f]+", "0xNN", m)
    # quoted input, which may hold quotes itself (but not the ' of "White's")
    m = re.sub(r"(?<![A-Za-z])'.*?'(?=[\s:,)?]|$)", "'…'", m)
    m = re.sub(r'"[^"]*"', '"…"', m)
    m = re.sub(r" in \S+/\S+( \S+)*$", " in FEN", m)
    m = _NAMES_RE.sub("NAME", m)
    m = re.sub(r"\b[A-Z]\b", "L", m)
    m = re.sub(r"\b(white|black)\b", "SIDE", m)
    m = re.sub(r"\b[0-9]+x[0-9]+\S*", "NxN", m)
    m = re.sub(r"\b[a-z][0-9]+(?=\b|[a-z+])", "SQ", m)
    m = re.sub(r"[0-9]+", "N", m)
    m = re.sub(r"\b(rights|choices|atoms|modifiers): [^)]*", r"\1: …", m)
    m = re.sub(r"(en passant field is|unknown statement) \S.*?(?=:|$)", r"\1 …", m)
    return m


def record(kind, accepted, messages=()):
    """One case of an input class, and the messages it was refused with."""
    stats = FUZZ_STATS[kind]
    stats.cases += 1
    if accepted:
        stats.accepted += 1
    else:
        stats.refused += 1
    for message in [messages] if isinstance(messages, str) else messages:
        stats.messages.add(message)
        stats.templates.add(template(message))


def fuzz_report():
    """Lines of the summary table (and the JSON file if FAIRYFORGE_FUZZ_REPORT is set)."""
    rows = [(k, s) for k, s in FUZZ_STATS.items() if s.cases]
    if not rows:
        return []
    lines = [f"campaign: {'long' if LONG else 'ci'}"
             + (f" (scale {SCALE})" if SCALE != 1 else ""),
             f"{'input class':<18} {'cases':>7} {'accepted':>9} {'refused':>8} {'crashes':>8} "
             f"{'hangs':>6} {'escapes':>8} {'slowest':>8} {'messages':>9} {'templates':>10}"]
    for kind, s in rows:
        slowest = "-" if s.slowest is None else f"{s.slowest:.1f}s"
        lines.append(f"{kind:<18} {s.cases:>7} {s.accepted:>9} {s.refused:>8} {0:>8} "
                     f"{s.hangs:>6} {s.escapes:>8} {slowest:>8} "
                     f"{len(s.messages):>9} {len(s.templates):>10}")
    target = os.environ.get("FAIRYFORGE_FUZZ_REPORT")
    if target:
        with open(target, "w") as handle:
            json.dump({"campaign": "long" if LONG else "ci",
                       "classes": {k: {"cases": s.cases, "accepted": s.accepted,
                                       "refused": s.refused, "crashes": 0,
                                       "hangs": s.hangs, "escapes": s.escapes,
                                       "slowest_s": s.slowest,
                                       "messages": len(s.messages),
                                       "templates": sorted(s.templates)}
                                   for k, s in rows}}, handle, indent=1)
    return lines


# -- definition texts -------------------------------------------------------------------

BUNDLED = {os.path.basename(p): open(p, encoding="utf-8").read()
           for p in sorted(glob.glob(os.path.join(DEFINITIONS, "*.variant")))}
WORDS = ("pawn king rook queen all rank ranks file files 0 1 2 8 9 16 17 99 100 -1 "
         "99999999999999999999 8x8 0x0 1x1 16x16 17x17 9x14 fW mRcpR nN ifmnD iR pR gQ "
         "R0 R99 W100 hW fh KW WW NN a1 a0 a01 z9 p99 e4-a1 in to for white black on "
         "entering leaving or forced +P P -/p P/- C/r K/- ~ \" \"x\" extends chess shogi "
         "xiangqi crazyhouse royal # & except ( ) , : = @ é \t zone last_rank palace "
         "promote piece drop setup repetition move rule until captures checks may not "
         "mirror rotate value 3.5 1000000 sides deploy before moving last castling en "
         "passant no facing kings stalemate loss draw win stalemating illegal perpetual "
         "check chase loses region confine initial demote captured becomes is removed "
         "revert promoted pieces go hand are doubled mating anywhere").split(" ") + [
    '"8/8/8/8/8/8/8/K6k w - - 0 1"', '"k7/8/8/8/8/8/8/7K[PPp] b - - 0 1"', '""', '"rnbqkbnr"',
    "(((((all)))))", "(" * 400 + "all" + ")" * 400, "W" * 200, "9" * 5000]
JUNK = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6)


@st.composite
def mutated_definition(draw):
    """A bundled definition with a few lines deleted, duplicated, swapped, cut short,
    or with words, characters or numbers replaced."""
    name = draw(st.sampled_from(sorted(BUNDLED)))
    lines = BUNDLED[name].split("\n")
    for _ in range(draw(st.integers(1, 5))):
        if not lines:
            lines = [""]
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(("delete", "duplicate", "swap", "word", "insert word",
                                   "truncate", "characters", "number")))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(draw(st.integers(0, len(lines))), lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op in ("word", "insert word"):
            words = lines[i].split(" ")
            k = draw(st.integers(0, len(words) - (1 if op == "word" else 0)))
            new = draw(st.one_of(st.sampled_from(WORDS), JUNK))
            if op == "word":
                words[k] = new
            else:
                words.insert(k, new)
            lines[i] = " ".join(words)
        elif op == "truncate":
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
        elif op == "characters":
            k = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:k] + draw(JUNK) + lines[i][k + 1:]
        else:
            lines[i] = re.sub(r"[0-9]+", lambda m: str(draw(st.integers(-5, 10 ** 6))),
                              lines[i], count=1)
    ending = draw(st.sampled_from(("\n", "", "\r\n")))
    return name, ending.join(lines) if ending == "\r\n" else "\n".join(lines) + ending


@st.composite
def random_definition(draw):
    """Statement soup: lines of random words, with or without a variant header."""
    lines = draw(st.lists(st.lists(st.one_of(st.sampled_from(WORDS), JUNK), max_size=8)
                          .map(" ".join), max_size=12))
    if draw(st.booleans()):
        lines.insert(0, "variant fuzz")
    return "fuzz.variant", "\n".join(lines)


def _check_diagnostics(err, path, text):
    """Every diagnostic points at a real line and column of the file it names."""
    assert err.diagnostics
    sources = {path: text}
    for d in err.diagnostics:
        loc = d.location
        if loc.file not in sources:
            with open(loc.file, encoding="utf-8", errors="replace") as handle:
                sources[loc.file] = handle.read()
        lines = parse.source_lines(sources[loc.file].lstrip("\ufeff"))
        assert 1 <= loc.line <= max(len(lines), 1), (d.render(), len(lines))
        line = lines[loc.line - 1] if lines else ""
        assert 1 <= loc.column <= len(line) + 1, (d.render(), line)
        assert d.message and "Traceback" not in d.message
        # lark's own words never reach the user (outside what the user wrote, quoted)
        assert not re.search(r"\$END|__ANON|Token\(|Tree\(|\b(LPAR|RPAR|BETZA|BOARD_SIZE|"
                             r"FILE_LETTER|SQUARE|STRING|INT|NUMBER|LETTER)\b",
                             re.sub(r"'[^']*'", "", d.message)), d.message
        d.render()
        d.as_dict()


@budget(ci=160, long=20000)
@given(case=st.one_of(mutated_definition(), mutated_definition(), random_definition()))
def test_definition_texts_raise_only_definition_errors(case):
    name, text = case
    path = os.path.join("/nonexistent-fuzz-dir", name)     # parents: the bundled games
    bag = DiagnosticBag()
    try:
        definition = parse.parse_text(text, path, bag)
        variant = resolve.resolve(definition, bag)
        bag.raise_if_any()
    except DefinitionError as err:
        _check_diagnostics(err, path, text)
        record("definition texts", False, [d.message for d in err.diagnostics])
        return
    record("definition texts", True)
    # What resolves must lower and generate (the C compiler is not run here).
    lowerer = lower.Lowerer(variant)
    tables = lowerer.lower()
    assert codegen.generate(tables, lowerer.max_moves())


@budget(ci=60, long=3000)
@given(data=st.one_of(st.binary(max_size=300),
                      mutated_definition().map(lambda c: c[1].encode("utf-8")),
                      st.sampled_from(sorted(BUNDLED)).map(
                          lambda n: b"\xef\xbb\xbf" + BUNDLED[n].encode("utf-8"))),
       cut=st.integers(0, 4000), junk=st.binary(max_size=3))
def test_definition_bytes_raise_only_definition_errors(data, cut, junk):
    """Files as bytes: a byte-order mark, invalid UTF-8, a file cut off mid-character."""
    data = data[:cut] + junk + data[cut:] if cut < len(data) else data
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "fuzz.variant")
        with open(path, "wb") as handle:
            handle.write(data)
        try:
            resolve.load_variant(path)
        except DefinitionError as err:
            _check_diagnostics(err, path, data.decode("utf-8", errors="replace"))
            record("definition bytes", False, [d.message for d in err.diagnostics])
            return
    record("definition bytes", True)


# -- FEN strings --------------------------------------------------------------------------

_POOLS = {}


def fen_pool(game):
    """Valid FENs of a game: the start and positions of a few seeded random games."""
    if game.name not in _POOLS:
        rng = random.Random(game.name)
        fens = [game.start_fen]
        for _ in range(4):
            pos = game.start()
            for _ in range(60):
                moves = pos.legal_moves()
                if not moves:
                    break
                pos.push(rng.choice(moves))
                fens.append(pos.fen())
        _POOLS[game.name] = fens
    return _POOLS[game.name]


FEN_CHARS = "0123456789/[]~+- wbKQRBNPkqrbnpGSLXxyz@#\t"


def mutated_fen(data, game):
    text = list(data.draw(st.sampled_from(fen_pool(game))))
    tokens = sorted(game.token_table)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(("delete", "insert", "token", "field", "swap")))
        if op == "delete" and text:
            del text[min(i, len(text) - 1)]
        elif op == "insert":
            text.insert(i, data.draw(st.one_of(st.sampled_from(FEN_CHARS), JUNK)))
        elif op == "token":
            text.insert(i, data.draw(st.sampled_from(tokens)))
        elif op == "field":
            fields = "".join(text).split(" ")
            k = data.draw(st.integers(0, len(fields) - 1))
            fields[k] = data.draw(st.sampled_from(
                ("w", "b", "-", "KQkq", "Kk", "k", "q", "e3", "e6", "d6", "a1", "e03", "0", "1",
                 "7", "100", "999999", "9999999", "-1", "wb", "x", "²", "[]", "[P]")))
            text = list(" ".join(fields))
        elif op == "swap" and len(text) > 1:
            j = data.draw(st.integers(0, len(text) - 1))
            i = min(i, len(text) - 1)
            text[i], text[j] = text[j], text[i]
    return "".join(text)


def placed_fen(data, game):
    """A random placement of the game's pieces: mostly on squares where they can stand
    (so that many positions are accepted and played), sometimes anywhere; kings most of
    the time; random holdings and state fields."""
    meta = game.meta
    files, ranks = meta["files"], meta["ranks"]
    reachable = game.position_rules.reachable
    royal = meta["royal_type"]
    tokens = sorted(t for t, (typ, _) in game.token_table.items() if typ != royal)
    board = {}

    def place(token):
        typ, colour = game.token_table[token]
        good = sorted(f + r * files for f, r in reachable[typ][colour]
                      if meta["squares"][r * files + f] not in meta["dead"][typ][colour])
        if good and data.draw(st.integers(0, 4)):
            board[data.draw(st.sampled_from(good))] = token
        else:
            board[data.draw(st.integers(0, files * ranks - 1))] = token

    for _ in range(data.draw(st.integers(0, 2 * files))):
        place(data.draw(st.sampled_from(tokens)))
    for token in meta["pieces"][royal]["tokens"]:
        if token and data.draw(st.integers(0, 9)):
            place(token)
    rows = []
    for r in range(ranks - 1, -1, -1):
        row, empty = "", 0
        for f in range(files):
            token = board.get(r * files + f)
            if token is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + token
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    text = "/".join(rows)
    held = sorted(t for t, (typ, _) in game.token_table.items() if typ in game.droppable)
    if meta["has_drops"] or data.draw(st.integers(0, 9)) == 0:
        hand = st.sampled_from(held if held and data.draw(st.integers(0, 4)) else tokens)
        text += "[" + "".join(data.draw(st.lists(hand, max_size=6))) + "]"
    castling = "-"
    if data.draw(st.integers(0, 2)) == 0:
        castling = "".join(c["fen"] for c in meta["castling"] if data.draw(st.booleans())) or "-"
    halfmove = data.draw(st.integers(0, 3))
    return f"{text} {data.draw(st.sampled_from('wb'))} {castling} - {halfmove} " \
           f"{data.draw(st.integers(1, 40))}" + (" -" if meta["restrictions"] else "")


def check_position(pos, game, rng):
    """An accepted position behaves: FEN round trip, same key, moves push and pop back."""
    fen = pos.fen()
    again = game.position(fen)
    assert again.fen() == fen
    assert again.key() == pos.key()
    moves = pos.legal_moves()
    if not cycles.refuses_moves(game.meta):
        assert pos.perft(1) == len(moves)
    pos.outcome()
    pos.is_check()
    for move in rng.sample(moves, min(len(moves), 4)):
        pos.push(move)
        pos.fen()
        pos.legal_moves()
        pos.pop()
        assert (pos.fen(), pos.key()) == (fen, again.key())


@budget(ci=400, long=30000)
@given(data=st.data())
def test_fen_strings_never_crash(games, data):
    game = games[data.draw(st.sampled_from(GAMES), label="game")]
    kind = data.draw(st.sampled_from(("mutated", "mutated", "placed", "placed", "placed",
                                      "text", "junk", "object")), label="kind")
    if kind == "mutated":
        fen = mutated_fen(data, game)
    elif kind == "placed":
        fen = placed_fen(data, game)
    elif kind == "text":
        fen = data.draw(st.text(alphabet=FEN_CHARS, max_size=120))
    elif kind == "junk":
        fen = data.draw(st.text(max_size=60))
    else:
        fen = data.draw(st.sampled_from((None, 42, b"8/8 w", ["8/8"], 3.5)))
    try:
        pos = game.position(fen)
    except FenError as err:
        assert err.field in FEN_FIELDS, err.field
        assert err.field in str(err)
        record("FEN strings", False, str(err))
        return
    record("FEN strings", True)
    check_position(pos, game, random.Random(data.draw(st.integers(0, 2 ** 32))))


# -- move strings -------------------------------------------------------------------------

def played_position(game, choices):
    """The position after playing moves picked by `choices` from the start."""
    pos = game.start()
    for c in choices:
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(moves[c % len(moves)])
    return pos


def move_text(data, game, legal):
    meta = game.meta
    files, ranks = meta["files"], meta["ranks"]
    letters = "abcdefghijklmnopq"[:files + 2]
    square = st.builds(lambda f, r: f + r, st.sampled_from(letters),
                       st.sampled_from([str(r) for r in range(0, ranks + 3)] + ["01", "100"]))
    suffix = st.sampled_from(("", "", "q", "r", "n", "+", "x", "Q", "=", "++", " ", "\n"))
    drop_letter = st.sampled_from(sorted({t.lstrip("+").rstrip("~").upper()
                                          for t in game.token_table} | {"X", "+"}))
    kind = data.draw(st.sampled_from(("legal", "mutated", "squares", "drop", "text")))
    if kind == "legal" and legal:
        return data.draw(st.sampled_from(legal))
    if kind == "mutated" and legal:
        text = list(data.draw(st.sampled_from(legal)))
        i = data.draw(st.integers(0, len(text) - 1))
        text[i] = data.draw(st.sampled_from("abcdefghijz0123456789+@PQKNqx "))
        return "".join(text)
    if kind == "drop":
        return data.draw(drop_letter) + "@" + data.draw(square)
    if kind == "squares":
        return data.draw(square) + data.draw(square) + data.draw(suffix)
    return data.draw(st.text(alphabet="abcdefghij0123456789@+-PQxX \t蛇٣²", max_size=10))


@budget(ci=300, long=30000)
@given(data=st.data())
def test_move_strings_never_crash_or_change_the_position(games, data):
    game = games[data.draw(st.sampled_from(GAMES), label="game")]
    pos = played_position(game, data.draw(st.lists(st.integers(0, 10 ** 6), max_size=40),
                                          label="moves"))
    legal = [m.uci for m in pos.legal_moves()]
    text = move_text(data, game, legal)
    before = (pos.fen(), pos.key(), pos.move_stack)
    try:
        move = pos.push_uci(text)
    except (InvalidMoveError, IllegalMoveError) as err:
        assert err.move in (text, text.strip())
        assert (pos.fen(), pos.key(), pos.move_stack) == before
        record("move strings", False, str(err))
        return
    record("move strings", True)
    assert move.uci == text.strip() and move.uci in legal
    assert str(pos.pop()) == move.uci
    assert (pos.fen(), pos.key(), pos.move_stack) == before


@budget(ci=30, long=2000)
@given(data=st.data())
def test_push_of_a_non_move_and_pop_of_nothing(games, data):
    game = games[data.draw(st.sampled_from(GAMES), label="game")]
    pos = game.start()
    before = (pos.fen(), pos.key())
    thing = data.draw(st.one_of(st.none(), st.integers(), st.binary(max_size=6),
                                st.floats(), st.lists(st.integers(), max_size=2)))
    with pytest.raises((InvalidMoveError, IllegalMoveError)) as info:
        pos.push(thing)
    with pytest.raises(EmptyHistoryError) as empty:
        pos.pop()
    record("push(non-move)", False, [str(info.value), str(empty.value)])
    assert (pos.fen(), pos.key()) == before


# -- random playouts ------------------------------------------------------------------------

PLIES = 3000 if LONG else 250


@pytest.mark.parametrize("name", GAMES)
@budget(ci=1, long=10)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_random_playouts_push_pop_round_trip(games, name, seed):
    """Random games of PLIES plies: after every push the key equals a fresh parse's; at
    random moments and at the end, popping back restores FEN and key exactly."""
    game = games[name]
    rng = random.Random(seed)
    pos = game.start()
    states = [(pos.fen(), pos.key())]
    perpetual = cycles.refuses_moves(game.meta)
    for ply in range(PLIES):
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None or len(states) > 400:
            # Game over (or a long history): take everything back, checking each step.
            while len(states) > 1:
                pos.pop()
                states.pop()
                assert (pos.fen(), pos.key()) == states[-1]
            with pytest.raises(EmptyHistoryError):
                pos.pop()
            continue
        move = rng.choice(moves)
        pos.push(move)
        record("playout plies", True)
        fen, key = pos.fen(), pos.key()
        fresh = game.position(fen)
        assert fresh.fen() == fen
        assert fresh.key() == key, f"key of {fen} differs from a fresh parse's"
        if rng.random() < 0.1:
            assert str(pos.pop()) == move.uci
            assert (pos.fen(), pos.key()) == states[-1]
            pos.push(move)
            assert (pos.fen(), pos.key()) == (fen, key)
        if rng.random() < 0.02 and not perpetual:
            assert pos.perft(2) == sum(n for _, n in pos.divide(2))
        states.append((fen, key))
    while len(states) > 1:
        pos.pop()
        states.pop()
        assert (pos.fen(), pos.key()) == states[-1]
