"""The seed games against an independent oracle: tests/oracle/interpreter.py.

No outside engine knows iChess, WWII Chess, Frontofhouse, Kjartansson 9x14 or Shogi of
Chesstonia, so each compiled engine is compared with a plain, slow Python interpreter
of the same rule model (the `Variant` the compiler resolves from the definition).  The
interpreter shares nothing with the compiler's lowering or templates; where the two
disagree, the games' rules pages (docs/rules/) decide which is wrong.

1. The oracle itself is first checked where an outside reference exists: random
   playouts of the classics against pyffish (Fairy-Stockfish), the public perft counts,
   and its two attack tests against each other.
2. Then every seed game: random playouts comparing, at every ply, the legal moves,
   check, outcome and FEN of engine and oracle; perft from the start; forced
   perpetual-check cycles (the history-dependent rules); hand-made positions for
   rules random games seldom reach; iChess's sample game (docs/rules/ichess.md §9).

Known disagreements are strict xfails, each naming the engine's bug: they fail
loudly once the engine is fixed, so that the marker is removed.

A game whose definitions/<name>.variant does not exist yet is skipped.
"""

import os
import random
import re
from collections import Counter
from functools import lru_cache

import pytest

from fairyforge.compiler.resolve import load_variant
from oracle import Interpreter

HERE = os.path.dirname(__file__)
DEFINITIONS = os.path.join(os.path.dirname(HERE), "definitions")
DATA = os.path.join(HERE, "data")

SEED_GAMES = ["ichess", "wwii", "frontofhouse", "kjartansson", "chesstonia"]
CLASSICS = ["chess", "shogi", "xiangqi", "crazyhouse"]

POSITIONS_PER_SEED_GAME = 200
POSITIONS_PER_CLASSIC = 60
MAX_PLIES = 120


def require_definition(name):
    if not os.path.exists(os.path.join(DEFINITIONS, f"{name}.variant")):
        pytest.skip(f"definitions/{name}.variant is not written yet")


@lru_cache(maxsize=None)
def oracle(name):
    return Interpreter(load_variant(name))


def pick(rng, pos):
    """A random move, half of the time among the sharp ones (captures, promotions,
    castling, en passant) so that hands fill, drops start and restrictions lift.
    Texts that name two different moves are never picked (test_ambiguous_move_text)."""
    table = pos.legal_move_table()
    texts = sorted(t for t, moves in table.items() if len(set(moves)) == 1)
    if not texts:
        return None
    if rng.random() < 0.5:
        board = pos.state.board
        sharp = [t for t in texts for m in table[t][:1]
                 if m.promotion or m.en_passant or m.castling or m.to in board]
        if sharp:
            return rng.choice(sharp)
    return rng.choice(texts)


def without_clock(fen):
    """A FEN without its halfmove clock (compared by test_drops_restart_the_clock), and
    with each hand in one order (the oracle writes hands in declaration order, the
    engine in Fairy-Stockfish's: runtime/fen_out.py)."""
    fields = fen.split()
    fields[0] = re.sub(r"\[(.*)\]", lambda m: "[%s]" % "".join(
        sorted(re.findall(r"\+?[A-Za-z]~?", m.group(1)))), fields[0])
    return " ".join(fields[:4] + fields[5:])


def move_texts(engine_pos, legal=None):
    return Counter(str(m) for m in (engine_pos.legal_moves() if legal is None else legal))


def oracle_texts(pos):
    return Counter({t: len(set(ms)) for t, ms in pos.legal_move_table().items()})


def compare(engine_pos, pos, moves):
    """Assert that engine and oracle agree; returns the engine's legal Moves."""
    where = f"at {engine_pos.fen()} after {' '.join(moves) or 'no moves'}"
    legal = engine_pos.legal_moves()
    ours, theirs = move_texts(engine_pos, legal), oracle_texts(pos)
    assert ours == theirs, (f"legal moves differ {where}: only the engine "
                            f"{sorted((ours - theirs).elements())}, only the oracle "
                            f"{sorted((theirs - ours).elements())}")
    assert engine_pos.is_check() == pos.is_check(), f"check status differs {where}"
    outcome = engine_pos.outcome()
    assert (outcome and (outcome.winner, outcome.reason)) == pos.outcome(), (
        f"outcome differs {where}: engine {outcome}, oracle {pos.outcome()}")
    assert without_clock(engine_pos.fen()) == without_clock(pos.fen()), (
        f"positions differ after {' '.join(moves)}: engine {engine_pos.fen()}, "
        f"oracle {pos.fen()}")
    return legal


def random_playouts(game, name, positions, seed):
    """Compare engine and oracle at every ply of random games; returns the count."""
    rng = random.Random(f"seed-oracle-{name}-{seed}")
    checked = 0
    while checked < positions:
        engine_pos, pos, moves = game.start(), oracle(name).position(game.start_fen), []
        for _ in range(MAX_PLIES):
            legal = compare(engine_pos, pos, moves)
            checked += 1
            if pos.outcome() is not None:
                break
            move = pick(rng, pos)
            if move is None:
                break
            moves.append(move)
            engine_pos.push(next(m for m in legal if str(m) == move))
            pos.push(move)
    return checked


# ---------------------------------------------------------------------------------------
# 1. The oracle against outside references
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", CLASSICS)
def test_oracle_matches_pyffish_in_the_classics(variant):
    """Legal moves and check against Fairy-Stockfish.  One known difference is verified
    rather than ignored: Fairy-Stockfish generates a shogi pawn drop that mates (and
    scores it as lost for the dropper) where the rule model forbids the drop."""
    sf = pytest.importorskip("pyffish")
    rng = random.Random(f"oracle-{variant}")
    start = sf.start_fen(variant)
    checked = 0
    while checked < POSITIONS_PER_CLASSIC:
        pos, moves = oracle(variant).position(start), []
        for _ in range(MAX_PLIES):
            ours = pos.legal_moves()
            theirs = set(sf.legal_moves(variant, start, moves))
            for move in theirs - ours:
                assert ("@" in move and sf.gives_check(variant, start, moves + [move])
                        and not sf.legal_moves(variant, start, moves + [move])
                        and sf.game_result(variant, start, moves + [move]) > 0), (
                    f"only Fairy-Stockfish has {move} after {moves}")
            assert ours <= theirs, f"only the oracle has {ours - theirs} after {moves}"
            assert pos.is_check() == sf.gives_check(variant, start, moves), moves
            checked += 1
            if not ours:
                break
            move = pick(rng, pos)
            moves.append(move)
            pos.push(move)


def _public_perft_rows(limit):
    with open(os.path.join(DATA, "perft_public.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    return sorted({(v, fen, int(d), int(n)) for v, fen, d, n in rows if int(n) <= limit})


@pytest.mark.parametrize("variant,fen,depth,nodes", _public_perft_rows(3000))
def test_oracle_perft_matches_fairy_stockfish(variant, fen, depth, nodes):
    assert oracle(variant).position(fen).perft(depth) == nodes


@pytest.mark.parametrize("name", CLASSICS + SEED_GAMES)
def test_oracle_attack_tests_agree(name):
    """attacked() (asked backwards, from the target) against attacked_by_generation()
    (every capture generated), on every square of positions from random games."""
    if name in SEED_GAMES:
        require_definition(name)
    rules = oracle(name)
    rng = random.Random(f"attacks-{name}")
    pos = rules.position()
    squares = sorted(rules.on_board)
    for _ in range(40):
        for square in rng.sample(squares, 12):
            for by in ("white", "black"):
                board = pos.state.board
                assert rules.attacked(board, square, by) == \
                    rules.attacked_by_generation(board, square, by), (pos.fen(), square, by)
        move = pick(rng, pos)
        if move is None:
            break
        pos.push(move)


# ---------------------------------------------------------------------------------------
# 2. The seed games: engine against oracle
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SEED_GAMES)
def test_random_playouts_match_the_oracle(games, name):
    """At every ply of random games (iChess's start with its 16-ply deployment): the
    same legal moves, check, outcome and position."""
    require_definition(name)
    checked = random_playouts(games[name], name, POSITIONS_PER_SEED_GAME, seed=1)
    assert checked >= POSITIONS_PER_SEED_GAME


@pytest.mark.slow
@pytest.mark.parametrize("name", SEED_GAMES)
def test_long_random_playouts_match_the_oracle(games, name):
    require_definition(name)
    for seed in range(2, 12):
        random_playouts(games[name], name, POSITIONS_PER_SEED_GAME, seed=seed)


@pytest.mark.parametrize("name", SEED_GAMES)
def test_perft_2_from_the_start(games, name):
    require_definition(name)
    game = games[name]
    assert game.start().perft(2) == oracle(name).position(game.start_fen).perft(2)


@pytest.mark.slow
@pytest.mark.parametrize("name", SEED_GAMES)
def test_perft_3_from_the_start(games, name):
    require_definition(name)
    game = games[name]
    assert game.start().perft(3) == oracle(name).position(game.start_fen).perft(3)


# A rook (or Chesstonia's Dragon King) checks a king that steps back and forth, until
# the repetition rules end the game or refuse the checking move.
PERPETUAL_CHECKS = {
    "ichess": ("4k3/8/8/8/8/8/8/R3K3[] w - - 0 1", "a1a8", ["e8e7", "a8a7", "e7e8", "a7a8"]),
    "wwii": ("4k4/9/9/9/9/9/9/9/R3K4[] w - - 0 1 w", "a1a9", ["e9e8", "a9a8", "e8e9", "a8a9"]),
    "frontofhouse": ("4k3/8/8/8/8/8/8/R3K3[] w - - 0 1", "a1a8",
                     ["e8e7", "a8a7", "e7e8", "a7a8"]),
    "kjartansson": ("4k4/9/9/9/9/9/9/9/9/9/9/9/9/R2K5[] w - - 0 1", "a1a14",
                    ["e14e13", "a14a13", "e13e14", "a13a14"]),
    "chesstonia": ("4k4/9/9/9/9/9/9/9/9/9/9/D3K4[] w - - 0 1", "a1a12",
                   ["e12e11", "a12a11", "e11e12", "a11a12"]),
}


@pytest.mark.parametrize("name", SEED_GAMES)
def test_perpetual_check_cycles(games, name):
    """Repetition, perpetual check (loses / illegal) and their outcome, move by move."""
    require_definition(name)
    fen, first, cycle = PERPETUAL_CHECKS[name]
    engine_pos, pos, moves = games[name].position(fen), oracle(name).position(fen), []
    for move in [first] + cycle * 4:
        compare(engine_pos, pos, moves)
        if pos.outcome() is not None or move not in pos.legal_moves():
            break
        moves.append(move)
        engine_pos.push_uci(move)
        pos.push(move)
    else:
        pytest.fail(f"{name}: four cycles of checks and nothing ended or refused them")


# Kjartansson's perpetual chase (docs/rules/kjartansson.md, ambiguity 15) and checks by
# one piece (ambiguity 14): a rook chasing a cannon, entered at either phase of the cycle, and
# a knight and a rook checking in turn.
KJARTANSSON_CYCLES = [
    ("5k3/9/9/9/2c6/9/9/9/9/9/9/9/R8/3K5[] w - - 0 1",
     "a2a10 c10c9 a10a9 c9c10 a9a10 c10c9 a10a9 c9c10 a9a10"),
    ("5k3/9/9/9/2c6/R8/9/9/9/9/9/9/9/3K5[] w - - 0 1",
     "a9a10 c10c9 a10a9 c9c10 a9a10 c10c9 a10a9"),
    ("5k3/R2N5/9/9/9/9/9/9/9/9/9/9/9/3K5[] b - - 0 1",
     "f14f13 d13b12 f13f14 b12d13 f14f13 d13b12 f13f14 b12d13"),
]


@pytest.mark.parametrize("fen,line", KJARTANSSON_CYCLES)
def test_kjartansson_chase_and_check_cycles(games, fen, line):
    """Every ply of the cycles, refused moves included, as the oracle plays them."""
    require_definition("kjartansson")
    engine_pos, pos, moves = games["kjartansson"].position(fen), oracle("kjartansson").position(fen), []
    for move in line.split():
        compare(engine_pos, pos, moves)
        if move not in pos.legal_moves():
            break
        moves.append(move)
        engine_pos.push_uci(move)
        pos.push(move)
    compare(engine_pos, pos, moves)


# Sparse positions where pieces can shuttle: the history rules get exercised.
SHUTTLE_POSITIONS = {
    "ichess": "4k3/2n5/8/1r6/8/5B2/8/R3K3[] w - - 0 1",
    "wwii": "4k4/9/2r6/9/9/5S3/9/9/R3K4[] w - - 0 1 w",
    "frontofhouse": "4k3/2n5/8/1r6/8/5B2/8/R3K3[] w - - 0 1",
    "kjartansson": "5k3/9/9/1n7/2c6/9/9/7r1/9/9/2C6/9/R8/3K5[] w - - 0 1",
    "chesstonia": "4k4/9/2n6/9/9/9/9/9/9/5N3/9/D3K4[] w - - 0 1",
}


def shuttle(rng, pos, moves):
    """Often the reverse of the mover's last move (so that positions repeat), often a
    move that checks or attacks an enemy piece (so that checks and chases go on),
    else a random move."""
    table = pos.legal_move_table()
    legal = sorted(t for t, ms in table.items() if len(set(ms)) == 1)
    if not legal:
        return None
    roll = rng.random()
    if len(moves) >= 2 and roll < 0.6:
        squares = re.fullmatch(r"([a-z][0-9]+)([a-z][0-9]+)", moves[-2])
        back = squares and squares[2] + squares[1]
        if back in legal:
            return back
    if roll < 0.85:
        rules, state = pos.rules, pos.state
        sharp = [t for t in legal if rules.attacks_of(rules.play(state, table[t][0]),
                                                     state.side)]
        if sharp:
            return rng.choice(sharp)
    return rng.choice(legal)


@pytest.mark.parametrize("name", SEED_GAMES)
def test_shuttling_playouts_match_the_oracle(games, name):
    """Random games that keep undoing their moves (repetitions, perpetual checks and
    chases), compared with the oracle at every ply, outcome included."""
    require_definition(name)
    rng = random.Random(f"shuttle-{name}")
    fen, checked = SHUTTLE_POSITIONS[name], 0
    while checked < 150:
        engine_pos, pos, moves = games[name].position(fen), oracle(name).position(fen), []
        for _ in range(60):
            compare(engine_pos, pos, moves)
            checked += 1
            move = pos.outcome() is None and shuttle(rng, pos, moves)
            if not move:
                break
            moves.append(move)
            engine_pos.push_uci(move)
            pos.push(move)


@pytest.mark.parametrize("name", SEED_GAMES)
def test_fen_round_trip_along_a_game(games, name):
    """Engine positions set up from the oracle's FEN agree with it too (hands, lifted
    restrictions, en passant and castling fields included)."""
    require_definition(name)
    rng = random.Random(f"fen-{name}")
    pos = oracle(name).position(games[name].start_fen)
    for _ in range(60):
        engine_pos = games[name].position(pos.fen())
        assert move_texts(engine_pos) == oracle_texts(pos), pos.fen()
        assert engine_pos.is_check() == pos.is_check(), pos.fen()
        move = pick(rng, pos)
        if move is None or pos.outcome() is not None:
            break
        pos.push(move)


# Positions for rules random games seldom reach; each is compared with everything
# within `depth` plies of it.
SPECIAL_POSITIONS = [
    # Kjartansson: a river pawn's sideways step is also an en passant capture (amb. 6)
    ("kjartansson", "4k4/9/9/9/9/9/9/9/4p4/5P3/9/9/9/3K5[] w - - 0 1", 2),
    # Kjartansson: P@e13 would mate (refused); the Gold may not unblock the Kings
    ("kjartansson", "3rkr3/9/4G4/9/9/9/9/9/9/9/9/9/9/4K4[P] w - - 0 1", 1),
    # Frontofhouse: en passant; castling both ways for both sides
    ("frontofhouse", "4k3/8/8/8/3p4/8/4P3/4K3[] w - - 0 1", 2),
    ("frontofhouse", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[] w KQkq - 0 1", 2),
    # WWII: USA castling that would give check, before and after rule 8 is lifted
    ("wwii", "5k2r/9/9/9/9/9/9/9/6K2[] b k - 0 1 -", 2),
    ("wwii", "5k2r/9/9/9/9/9/9/9/6K2[] b k - 0 1 w", 2),
    # Chesstonia: P@a11 would mate (refused)
    ("chesstonia", "kn7/2W6/1F7/9/9/9/9/9/9/9/9/4K4[P] w - - 0 1", 2),
    # Frontofhouse: a pawn double-steps from rank 1 (a1-a3, amb. 6); the en passant
    # capture b3xa2 ends on Black's enemy pawn rank, so it may promote to a Steward
    # (docs/rules/frontofhouse.md §4.3): both b3a2 and b3a2s.
    ("frontofhouse", "4k3/8/8/8/8/1p6/8/P3K3[] w - - 0 1", 2),
]


@pytest.mark.parametrize("name,fen,depth", SPECIAL_POSITIONS)
def test_special_positions(games, name, fen, depth):
    require_definition(name)
    engine_pos, pos = games[name].position(fen), oracle(name).position(fen)

    def visit(moves, depth):
        compare(engine_pos, pos, moves)
        if depth == 0:
            return
        for move in sorted(pos.legal_moves()):
            if len(set(pos.legal_move_table()[move])) > 1:
                continue            # two moves, one text: see test_ambiguous_move_text
            engine_pos.push_uci(move)
            pos.push(move)
            visit(moves + [move], depth - 1)
            engine_pos.pop()
            pos.pop()

    visit([], depth)


def test_en_passant_square_step_is_the_capture(games):
    """Kjartansson (docs/rules/kjartansson.md, ambiguity 6): after f5-f7 a Black river pawn on
    e6 steps sideways onto the passed square f6.  En passant takes "as if the pawn had
    moved one square", so that step is the en passant capture, and e6f6 names one move
    (it removes the f7 pawn) for engine and oracle alike."""
    require_definition("kjartansson")
    fen = "4k4/9/9/9/9/9/9/9/4p4/5P3/9/9/9/3K5[] w - - 0 1"
    engine_pos, pos = games["kjartansson"].position(fen), oracle("kjartansson").position(fen)
    engine_pos.push_uci("f5f7")
    pos.push("f5f7")
    assert move_texts(engine_pos)["e6f6"] == oracle_texts(pos)["e6f6"] == 1
    engine_pos.push_uci("e6f6")
    pos.push("e6f6")
    assert engine_pos.fen().split()[0] == "4k4/9/9/9/9/9/9/9/5p3/9/9/9/9/3K5[p]"
    assert pos.fen().split()[0] == engine_pos.fen().split()[0]


# docs/rules/ichess.md §9, the sample game, in UCI.
ICHESS_SAMPLE_GAME = """
    R@a1 R@h8  B@f4 R@f8  R@g1 Q@a8  Q@f2 B@d5  B@e4 N@g8  N@g4 N@g5  N@c4 B@c5  K@h1 K@a7
    f4g5 g6g5  e4d5 d6d5  g4h2 g8e7  N@e4 h8g8  B@f4 d5d4  d3d4 c5d4  P@d3 c6c5  d3d4 c5c4
    c3c4 e7f5  c4c5f N@h7 c5b6 a7b6  a1d1 f8d8  f2c2 d8c8  c2d3 B@e7  d1a1 a8b7  e4f6 f5g3
    g1g3 e7f6  B@e4 b7d7  e4h7 d7d4  d3d4 f6d4  Q@b4 N@b5  h7g8 c8g8  N@a4 b6a7  b4b5 d4a1
    b5b6 a7a8  b6a6 R@a7  a4b6""".split()
ICHESS_SAMPLE_CHECKS = {"19w", "24b", "28w", "29w", "31w", "33w", "34w", "35w"}
ICHESS_SAMPLE_FINAL = "k5r1/r7/QN2p2p/6p1/5B2/PP2PPRP/7N/b6K[PPPPRNNppppqbb] b"
OTHER_ROOK = {"h8g8": "f8g8", "a1d1": "g1d1"}     # why 12...Rhg8 and 20.Rad1 say which


def test_ichess_sample_game(games):
    """The seed's own game: every move legal for both, every `+` (and only those) a
    check, the two disambiguations (12...Rhg8, 20.Rad1) needed, 35.Nb6 mate."""
    require_definition("ichess")
    engine_pos, pos = games["ichess"].start(), oracle("ichess").position()
    checks = set()
    for ply, move in enumerate(ICHESS_SAMPLE_GAME):
        compare(engine_pos, pos, ICHESS_SAMPLE_GAME[:ply])
        assert move in pos.legal_moves(), f"{move} (ply {ply + 1}) illegal in {pos.fen()}"
        engine_pos.push_uci(move)
        pos.push(move)
        if pos.is_check():
            checks.add(f"{ply // 2 + 1}{'wb'[ply % 2]}")
        if move in OTHER_ROOK:                  # the other rook could go there too
            pos.pop()
            assert OTHER_ROOK[move] in pos.legal_moves()
            pos.push(move)
    compare(engine_pos, pos, ICHESS_SAMPLE_GAME)
    assert checks == ICHESS_SAMPLE_CHECKS
    assert engine_pos.fen().startswith(ICHESS_SAMPLE_FINAL + " ")
    assert pos.outcome() == ("white", "checkmate")


def test_fairy_stockfish_restarts_the_clock_on_drops():
    """The reference for the oracle's choice below (the rule model does not say)."""
    sf = pytest.importorskip("pyffish")
    fen = "rnbqkbnr/pppp1ppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Qp] w KQkq - 7 5"
    assert sf.get_fen("crazyhouse", fen, ["Q@e4"]).split()[4] == "0"
    assert oracle("crazyhouse").position(fen).perft(1) == len(sf.legal_moves("crazyhouse", fen, []))


@pytest.mark.parametrize("name,fen,drop", [
    ("frontofhouse", "rnbqkbnr/pppp1ppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 7 5", "P@e4"),
    ("crazyhouse", "rnbqkbnr/pppp1ppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Qp] w KQkq - 7 5", "Q@e4"),
])
def test_drops_restart_the_clock(games, name, fen, drop):
    """The move rule (50 moves) counts from the last irreversible move."""
    require_definition(name)
    engine_pos, pos = games[name].position(fen), oracle(name).position(fen)
    engine_pos.push_uci(drop)
    pos.push(drop)
    assert pos.fen().split()[4] == "0"
    assert engine_pos.fen().split()[4] == "0"
