"""A side not in check skips the attack test for a move that changes no square on a
line to its royal piece (legality.pxi cannot_expose, engine.pyx.j2 ON_LINE), and the
search tells most moves that give no check, or a check, without it (gives_check,
CHECKS_FROM).

The legal move list (gen_legal), perft and the search take the first short cut; a
move's refusal (Engine.refusal, why_illegal) never does, and is the reference here:
along random games, the legal moves are exactly the pseudo-legal moves it does not
refuse.  gives_check is compared with the attack test (Engine.royal_attacked) after
every legal move.
The games cover every kind of line ON_LINE marks: riders (chess, and shogi's lance,
whose lines run one way), hoppers (xiangqi's and janggi's cannons, the grasshopper),
lame leaps (the xiangqi and janggi horse, whose leg a move may leave), a royal piece
that moves as a knight (knightmate), drops that may block or land on a line (shogi,
crazyhouse), and en passant and castling, which are always tested."""

import random

import pytest

import fairyforge as ff
from fairyforge.compiler import build
from fairyforge.compiler.resolve import load_variant
from fairyforge.game import Game

GAMES = ["chess", "shogi", "xiangqi", "crazyhouse", "janggi", "grasshopper",
         "knightmate", "berolina"]

# Cannons with no rider beside them: only their hops make the lines (in xiangqi and
# janggi the chariots' lines are the same ones).
CANNONS = """\
variant cannons "Cannons and men"
board 6x6
symmetry mirror
piece king K K royal
piece cannon C mRcpR
piece man M K
setup "c1kmmc/2m3/6/6/2M3/C1KMMC w - - 0 1"
"""

# Rules that change the board after a move (explosions, walls, gating) or decide what
# check is: there every move is tested in full.
FULL_TEST = ["atomic", "duck", "seirawan"]


def assert_short_cuts_agree(game, games=3, plies=120, seed=11):
    """Along random games: the legal moves are the unrefused ones, and each legal
    move's gives_check agrees with the attack test.  Returns how many moves each
    short cut decided (a short cut that never decides would pass untested)."""
    rng = random.Random(seed)
    decided = {"safe": 0, "check": 0, "no check": 0}
    for _ in range(games):
        position = game.start()
        for _ in range(plies):
            engine = position.engine
            unrefused = {m for m in engine.pseudo_moves() if engine.refusal(m) == 0}
            assert set(engine.legal_moves()) == unrefused, position.fen()
            in_check = engine.is_check()
            for move in engine.legal_moves():
                safe, check = engine.check_shortcuts(move)
                decided["safe"] += safe and not in_check
                engine.push(move)
                attacked = engine.is_check()
                engine.pop()
                if check >= 0:
                    assert check == attacked, (position.fen(), move)
                    decided["check" if check else "no check"] += 1
            moves = position.legal_moves()
            if not moves or position.outcome() is not None:
                break
            position.push(rng.choice(moves))
    return decided


@pytest.mark.parametrize("name", GAMES)
def test_legal_moves_skip_only_attack_tests_that_cannot_fail(name):
    game = ff.load(name)
    source = open(game.source_path).read()
    assert "SAFETY_BY_LINES = 1" in source
    # Janggi's bikjang may excuse a check (facing_end): no gives_check there.
    assert ("CHECK_BY_LINES = 1" in source) == (name != "janggi")
    decided = assert_short_cuts_agree(game)
    assert decided["safe"], decided
    if name != "janggi":
        assert decided["no check"], decided


def test_cannon_lines_without_riders(tmp_path):
    path = tmp_path / "cannons.variant"
    path.write_text(CANNONS)
    variant = load_variant(str(path))
    module_path, module = build.load_module(variant, evaluation=None, quick=True)
    decided = assert_short_cuts_agree(Game(variant, module, module_path), games=4)
    assert decided["safe"] and decided["no check"], decided


def legal(game, fen):
    return sorted(m.uci for m in ff.load(game).position(fen).legal_moves())


def test_pins_screens_and_legs():
    """A pinned rook may only move along its line; a chariot may not become the
    screen of a cannon aimed at its king; a chariot that blocks a horse's leg may
    only take the horse."""
    assert legal("chess", "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1") == [
        "e1d1", "e1d2", "e1f1", "e1f2", "e2e3", "e2e4", "e2e5", "e2e6", "e2e7"]
    moves = legal("xiangqi", "5k3/9/9/9/9/4c4/9/R8/9/4K4 w - - 0 1")
    assert "a3e3" not in moves and "a3d3" in moves and "a3f3" in moves
    assert legal("xiangqi", "5k3/9/9/9/9/9/9/3n5/3R5/4K4 w - - 0 1") == [
        "d2d3", "e1d1", "e1e2"]         # (e1f1 would face the other king)


@pytest.mark.parametrize("name", FULL_TEST)
def test_rules_that_change_the_board_keep_the_full_test(name):
    game = ff.load(name)
    assert "SAFETY_BY_LINES = 0" in open(game.source_path).read()
    engine = game.start().engine
    assert all(engine.check_shortcuts(m) == (False, -1) for m in engine.legal_moves())


def test_a_knight_check_is_known_without_the_attack_test():
    """An unconditional leap onto a square that attacks the king is a check
    (CHECKS_ALWAYS); a rook move off the king's lines is none."""
    position = ff.load("chess").position("4k3/8/8/3N4/8/R7/8/4K3 w - - 0 1")
    shortcuts = {m.uci: position.engine.check_shortcuts(m.code)
                 for m in position.legal_moves()}
    assert shortcuts["d5c7"] == (True, 1) and shortcuts["d5f6"] == (True, 1)
    assert shortcuts["a3a2"] == (True, 0)
    assert shortcuts["a3a8"][1] == -1            # a rook onto the king's rank
    assert shortcuts["e1e2"][0] is False         # the king itself: always tested
