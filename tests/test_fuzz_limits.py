"""Fuzzing the language's limits and the engine's long work (hypothesis; part of the
fuzz suite of tests/test_fuzz.py, whose table these classes join):

* limit definitions: generated definitions near every encoding limit: up to ~170 piece
  types (one-sided pieces, `+X` letters, promotions to many choices and the twins of
  `captured promoted pieces revert`), boards up to 17x17 with the longest leapers
  riding, hands of 55 to 70 pieces with captures going to hand.  The test computes
  what the definition asks (types, board, pieces in play) by itself, and the compiler
  must accept it exactly when that is within the limits (encoding.MAX_TYPES, MAX_FILES,
  MAX_HAND), and otherwise name the limit; a definition within them may still be
  refused for its move-list bound past encoding.MAX_MOVES, and only for that;
* long tokens: Betza strings, piece names, comments, titles and region expressions of
  thousands of characters, setups with huge digit runs;
* extends chains: chains of hundreds of parents (thousands in the long campaign), with
  a cycle, a missing parent or a broken file at a random depth;
* signals: SIGINT during perft or divide in a subprocess: KeyboardInterrupt within
  about a second, and the position as it was.

Every case runs under a time limit (CASE_LIMIT, a SIGALRM timer): a case that passes it
is a hang.  Anything other than the FairyforgeError the class allows is an escape.
Both fail the test and are counted in the table (`hangs`, `escapes`), as is the slowest
case.  FAIRYFORGE_FUZZ=long runs the campaign.
"""

import contextlib
import os
import re
import signal
import string
import subprocess
import sys
import tempfile
import time

from hypothesis import given, strategies as st

from fairyforge import encoding
from fairyforge.compiler import codegen, loader, lower, parse, resolve
from fairyforge.compiler.diagnostics import DiagnosticBag
from fairyforge.errors import DefinitionError, FairyforgeError, FenError

from test_fuzz import FUZZ_STATS, LONG, _check_diagnostics, budget, record

CASE_LIMIT = 120.0 if LONG else 60.0        # seconds per case (a loaded CI machine)


class Hang(Exception):
    """A case ran past CASE_LIMIT."""


@contextlib.contextmanager
def case(kind):
    """One case of a class: timed, limited to CASE_LIMIT, hangs and escapes counted."""
    stats = FUZZ_STATS[kind]

    def expire(signum, frame):
        raise Hang(f"a {kind} case ran past {CASE_LIMIT} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, CASE_LIMIT)
    started = time.monotonic()
    try:
        yield
    except Hang:
        stats.hangs += 1
        raise
    except (AssertionError, FairyforgeError):
        raise
    except Exception:
        stats.escapes += 1
        raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        stats.slowest = max(stats.slowest or 0.0, time.monotonic() - started)


def resolved(text, path):
    """(Variant or None, DefinitionError or None) of a definition text."""
    bag = DiagnosticBag()
    try:
        variant = resolve.resolve(parse.parse_text(text, path, bag), bag)
        bag.raise_if_any()
    except DefinitionError as err:
        _check_diagnostics(err, path, text)
        return None, err
    return variant, None


def generates(variant):
    """What resolves must lower and generate (the C compiler is not run here)."""
    lowerer = lower.Lowerer(variant)
    assert codegen.generate(lowerer.lower(), lowerer.max_moves())


# -- definitions near every limit -----------------------------------------------------------

LETTERS = [c for c in string.ascii_uppercase if c not in "KP"]      # K, P: king, pawn
TOKENS = LETTERS + ["+" + c for c in LETTERS]                         # 48 per side
BETZAS = ("W", "F", "N", "K", "WW", "R", "B", "Q", "H", "C", "Z", "G", "GG", "HH", "CC",
          "ZZ", "NN", "mRcpR", "fmWfcF", "pR", "gQ", "fbNsW", "vRsW")


@st.composite
def limit_definition(draw):
    """(text, what it asks): a definition that is valid but for its limits."""
    files = draw(st.sampled_from([8, 12, 15, 16, 16, 16, 17]))
    ranks = draw(st.sampled_from([8, 10, 16, 16, 16, 17]))
    hand_mode = draw(st.integers(0, 3)) == 0
    # `near`: about MAX_TYPES types (one-sided pieces use a letter once per side, and
    # promotions add twins); else any count.
    near = not hand_mode and draw(st.integers(0, 2)) > 0
    few = st.integers(0, 4)
    tokens = list(draw(st.permutations(TOKENS)))
    n_two = draw(st.integers(0, 16) if near else st.integers(0, 48 if not hand_mode else 20))
    two, rest = tokens[:n_two], tokens[n_two:]
    one_sided = st.integers(max(len(rest) - 4, 0), len(rest)) if near else \
        st.integers(0, len(rest))
    white_only = [] if hand_mode else rest[:draw(one_sided)]
    black_only = [] if hand_mode else rest[:draw(one_sided)]
    betza = st.sampled_from(BETZAS)
    lines = ['variant limits "Limits"', f"board {files}x{ranks}",
             f"region last_rank = rank {ranks}",
             "piece king K K royal", "piece pawn P fmWfcF"]
    lines += [f"piece two{i} {t} {draw(betza)}" for i, t in enumerate(two)]
    lines += [f"piece white{i} {t}/- {draw(betza)}" for i, t in enumerate(white_only)]
    lines += [f"piece black{i} -/{t.lower()} {draw(betza)}" for i, t in enumerate(black_only)]
    # Promotions to distinct choices; with `revert` each choice without + gets a twin.
    plain = lambda names: [n for n, t in names if not t.startswith("+")]   # noqa: E731
    sources = [("pawn", plain(zip([f"two{i}" for i in range(n_two)], two)))]
    if len(white_only) > 1:
        sources.append(("white0", plain(zip([f"white{i}" for i in range(len(white_only))],
                                        white_only))[1:]))
    if len(black_only) > 1:
        sources.append(("black0", plain(zip([f"black{i}" for i in range(len(black_only))],
                                        black_only))[1:]))
    sources = [(src, [c for c in choices if c != src]) for src, choices in sources]
    twins = 0
    revert = near or draw(st.booleans())
    for src, choices in sources:
        chosen = choices[:max(len(choices) - draw(few), 0) if near
                         else draw(st.integers(0, len(choices)))]
        if chosen:
            lines.append(f"promote {src} to {', '.join(chosen)} in last_rank")
            twins += len(chosen)
    if revert:
        lines.append("captured promoted pieces revert")
    else:
        twins = 0
    held = 0
    board = f"K{files - 1}" if files > 1 else "K"
    rows = [f"{files - 1}k" if files > 1 else "k"] + [str(files)] * (ranks - 2) + [board]
    setup = "/".join(rows)
    if hand_mode:
        lines += ["captures go to hand", "drop all in all"]
        plain_two = [t for t in two if not t.startswith("+")] or ["P"]
        held = draw(st.integers(55, 70))
        holdings = "".join(draw(st.sampled_from(plain_two)) for _ in range(held))
        setup += f"[{holdings}]"
    lines.append(f'setup "{setup} w - - 0 1"')
    asks = {"types": 2 + n_two + len(white_only) + len(black_only) + twins,
            "files": files, "ranks": ranks, "in play": held}
    return "\n".join(lines) + "\n", asks


def within_limits(asks):
    return (asks["types"] <= encoding.MAX_TYPES
            and asks["files"] <= encoding.MAX_FILES and asks["ranks"] <= encoding.MAX_RANKS
            and asks["in play"] <= encoding.MAX_HAND - 1)


@budget(ci=30, long=600)
@given(generated=limit_definition())
def test_definitions_near_the_limits_are_refused_exactly_beyond_them(generated):
    text, asks = generated
    with case("limit definitions"):
        variant, err = resolved(text, "/nonexistent-fuzz-dir/limits.variant")
        if variant is not None:
            record("limit definitions", True)
            assert within_limits(asks), asks
            assert len(variant.pieces) == asks["types"]
            assert lower.Lowerer(variant).max_moves() <= encoding.MAX_MOVES
            generates(variant)
            return
        record("limit definitions", False, [d.message for d in err.diagnostics])
        message = str(err)
        if within_limits(asks):
            # The one limit the generator does not count itself: the move-list bound
            # (its formula is checked by hand in test_limits.py); refused only past it.
            bound = re.search(r"could have up to (\d+) moves", message)
            assert bound and int(bound.group(1)) > encoding.MAX_MOVES, message
            assert len(err.diagnostics) == 1, message
            return
        if asks["types"] > encoding.MAX_TYPES and asks["files"] <= encoding.MAX_FILES \
                and asks["ranks"] <= encoding.MAX_RANKS:
            assert f"the game has {asks['types']} piece types" in message, message
        if asks["files"] > encoding.MAX_FILES or asks["ranks"] > encoding.MAX_RANKS:
            assert f"board {asks['files']}x{asks['ranks']} is not supported" in message
        elif asks["in play"] > encoding.MAX_HAND - 1 and asks["types"] <= encoding.MAX_TYPES:
            assert f"{asks['in play']} pieces in play" in message, message


@budget(ci=20, long=1500)
@given(game=st.sampled_from(("crazyhouse", "ichess", "shogi")), data=st.data())
def test_hands_near_the_limit_are_fen_errors_or_fit(games, game, data):
    """A start position with pieces added to the hands until 58-68 are in play: accepted
    exactly while they fit the hands' counts (63), else a FenError (the engine refused
    iChess's with kings in hand with a bare ValueError)."""
    game = games[game]
    start = game.start_fen.split(" ")
    board, _, hand = start[0].rstrip("]").partition("[")
    hand = hand.strip("-")                            # `[-]`: empty hands
    royal = game.meta["royal_type"]
    tokens = sorted(t for t, (typ, _) in game.token_table.items()
                    if typ in game.droppable and typ != royal and not t.startswith("+"))
    on_board = sum(1 for code in game.start().engine.board() if code and code >= 2
                   and (code >> 1) - 1 != royal)
    in_play = data.draw(st.integers(58, 68))          # MAX_HAND - 1 is 63
    extra = data.draw(st.lists(st.sampled_from(tokens), min_size=in_play - on_board - len(hand),
                               max_size=in_play - on_board - len(hand)))
    fen = " ".join([f"{board}[{hand}{''.join(extra)}]"] + start[1:])
    with case("hand FENs"):
        try:
            pos = game.position(fen)
        except FenError as err:
            record("hand FENs", False, str(err))
            assert in_play > encoding.MAX_HAND - 1, err
            return
        record("hand FENs", True)
        assert in_play <= encoding.MAX_HAND - 1
        assert game.position(pos.fen()).fen() == pos.fen()


# -- very long tokens and strings -----------------------------------------------------------

LONGEST = 20000 if LONG else 3000
BETZA_CHARS = "WFDNAHCZGKRBQfblrvshmcnpgi0123456789"


@st.composite
def long_token(draw):
    """(a definition with one very long part, a FEN or None)."""
    size = draw(st.integers(LONGEST // 4, LONGEST))
    kind = draw(st.sampled_from(("betza", "atoms", "name", "comment", "title", "region",
                                 "fen")))
    rng_text = draw(st.randoms(use_true_random=False))
    body = ['variant long "Long" extends chess']
    fen = None
    if kind == "betza":           # anything made of Betza's letters: mostly errors
        body.append("piece z Z " + "".join(rng_text.choice(BETZA_CHARS) for _ in range(size)))
    elif kind == "atoms":         # a valid Betza string of thousands of atoms
        body.append("piece z Z " + "".join(rng_text.choice("WFDNAHCZGKRBQ")
                                            for _ in range(size)))
    elif kind == "name":
        name = "".join(rng_text.choice(string.ascii_lowercase + "_") for _ in range(size))
        body += [f"piece p{name} Z W", f"value p{name} 3"]
    elif kind == "comment":
        body.append("# " + "".join(rng_text.choice(string.printable[:94]) for _ in range(size)))
    elif kind == "title":
        body[0] = f'variant long "{"x" * size}" extends chess'
    elif kind == "region":
        body.append("region big = " + ", ".join(rng_text.choice(("rank 1", "file a", "e4",
                                                                 "a1-c3", "all"))
                                                for _ in range(size // 6)))
    else:
        run = "9" * size
        fen = draw(st.sampled_from((f"{run}/8/8/8/8/8/8/8 w - - 0 1",
                                    f"4k3/8/8/8/8/8/8/4K3 w - - 0 {run}",
                                    f"4k3/8/8/8/8/8/8/4K3[{'P' * size}] w - - 0 1")))
    return "\n".join(body) + "\n", kind, fen


@budget(ci=15, long=300)
@given(generated=long_token())
def test_very_long_tokens_are_handled_in_time(games, generated):
    text, kind, fen = generated
    with case("long tokens"):
        if fen is not None:
            try:
                games["crazyhouse" if "[" in fen else "chess"].position(fen)
            except FenError as err:
                record("long tokens", False, str(err)[:200])
                assert len(str(err)) < 2000       # the message does not echo it all
                return
            record("long tokens", True)
            return
        variant, err = resolved(text, os.path.join("/nonexistent-fuzz-dir", "long.variant"))
        record("long tokens", variant is not None,
               [d.message[:200] for d in err.diagnostics] if err else ())
        if kind in ("atoms", "comment", "title", "name", "region"):
            assert variant is not None, f"{kind}: {str(err)[:500]}"
            generates(variant)


# -- deep extends chains -------------------------------------------------------------------

@budget(ci=6, long=100)
@given(depth=st.integers(2, 1500 if LONG else 300),
       defect=st.sampled_from(("none", "none", "cycle", "missing", "broken")),
       where=st.floats(0, 1))
def test_deep_extends_chains(depth, defect, where):
    at = int(where * (depth - 1))
    with case("extends chains"), tempfile.TemporaryDirectory() as folder:
        for i in range(depth):
            parent = "chess" if i == 0 else f'"v{i - 1}.variant"'
            if i == at and defect == "cycle":
                parent = f'"v{depth - 1}.variant"'
            elif i == at and defect == "missing":
                parent = '"nowhere.variant"'
            line = f"variant v{i} extends {parent}\n"
            if i == at and defect == "broken":
                line += "piece broken\n"
            with open(os.path.join(folder, f"v{i}.variant"), "w") as handle:
                handle.write(line)
        try:
            variant = loader.load_variant(os.path.join(folder, f"v{depth - 1}.variant"))
        except DefinitionError as err:
            record("extends chains", False, [d.message for d in err.diagnostics])
            assert defect != "none", str(err)[:500]
            expected = {"cycle": "inheritance cycle", "missing": "cannot find the parent",
                        "broken": "piece"}[defect]
            assert expected in str(err), str(err)[:500]
            return
        record("extends chains", True)
        assert defect == "none" and len(variant.pieces) == 6


# -- signals during long work -----------------------------------------------------------------

# (conftest.py's pytest_configure makes sure the child starts with Ctrl-C enabled.)
INTERRUPTED = """\
import sys, time, fairyforge as ff
pos = ff.load(sys.argv[1]).start()
before = pos.fen()
print("ready", flush=True)
try:
    pos.{call}(40 if "{call}" == "perft" else 12)
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
    sys.exit(3 if pos.fen() == before else 4)
"""


@budget(ci=1, long=24)
@given(game=st.sampled_from(("chess", "crazyhouse", "shogi", "xiangqi")),
       call=st.sampled_from(("perft", "divide")), delay=st.floats(0.05, 2.0))
def test_sigint_during_long_work(games, game, call, delay):
    games[game]                               # built in the session's cache
    with case("signals"):
        proc = subprocess.Popen([sys.executable, "-c", INTERRUPTED.format(call=call), game],
                                stdout=subprocess.PIPE, text=True, env=dict(os.environ))
        try:
            assert proc.stdout.readline().strip() == "ready"
            time.sleep(delay)
            sent = time.monotonic()
            proc.send_signal(signal.SIGINT)
            out, _ = proc.communicate(timeout=30)
        finally:
            proc.kill()
            proc.wait()
        record("signals", proc.returncode == 3, () if proc.returncode == 3 else out)
        assert proc.returncode == 3, (proc.returncode, out)
        answered = float(re.search(r"interrupted (\S+)", out).group(1))
        assert answered - sent < 3.0            # about a second, on a loaded machine

