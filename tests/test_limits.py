"""Regression tests for the reliability issue's items fixed with the architecture
rebuild: encoding limits, setups that `check` and the runtime judge alike, long
inheritance chains and Betza strings, perft arguments, Ctrl-C during perft, threads,
and en passant after a diagonal double step."""

import os
import signal
import subprocess
import sys
import textwrap
import threading

import pytest

import fairyforge as ff
from fairyforge import encoding
from fairyforge.compiler import atoms, loader
from fairyforge.errors import ArgumentError, ConcurrentUseError, DefinitionError, FenError


def write(tmp_path, text, name="game.variant"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


# -- encoding limits (item 1) --------------------------------------------------------------
def test_the_encoding_limits_are_named():
    assert encoding.MAX_TYPES == 126
    assert encoding.limit_problems(126, 512, 128) == []
    problems = encoding.limit_problems(151, 513, 129)
    assert "151 piece types" in problems[0] and "at most 126" in problems[0]
    assert "513 cells" in problems[1] and "at most 512" in problems[1]
    assert "129 castling moves" in problems[2]


def test_too_many_piece_types_is_a_definition_error(tmp_path, monkeypatch):
    # Building 127 distinct types needs a contrived file; the resolver's check is the
    # same for any limit, so it is exercised with a small one.
    monkeypatch.setattr(encoding, "MAX_TYPES", 5)
    path = write(tmp_path, """\
        variant many extends chess
        piece amazon A QN
        setup "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        """)
    with pytest.raises(DefinitionError) as err:
        loader.load_variant(path)
    assert "game.variant:1:9: error: the game has 7 piece types" in str(err.value)
    assert "at most 5" in str(err.value)


def crowded_game(tmp_path, choices):
    """A 16x16 game whose pawn moves like a queen and promotes to `choices` queens."""
    names = [f"queen_{letter}" for letter in "abcdefgh"[:choices]]
    lines = ["variant crowded", "board 16x16", "region last = rank 16",
             "piece king K K royal", "piece pawn P Q"]
    lines += [f"piece {name} {name[-1].upper()} Q" for name in names]
    lines += [f"promote pawn to {', '.join(names)} in last",
              'setup "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w - - 0 1"']
    return write(tmp_path, "\n".join(lines) + "\n", f"crowded{choices}.variant")


def test_a_game_whose_moves_could_overflow_the_move_lists_is_refused(tmp_path):
    """The engine's move lists are sized by the game's bound on moves in one position;
    a bound past encoding.MAX_MOVES was capped silently, so a crowded position could
    write past the list.  Now it is refused: 256 squares x 128 steps x (8 choices +
    the pawn itself) + 16 = 294,928."""
    with pytest.raises(DefinitionError) as err:
        loader.load_variant(crowded_game(tmp_path, 8))
    message = str(err.value)
    assert "crowded8.variant:1:9: error: a position of this game could have up to 294928 " \
        "moves" in message
    assert f"holds at most {encoding.MAX_MOVES}" in message
    # 256 x 128 x 7 + 16 = 229,392 fits.
    assert loader.load_variant(crowded_game(tmp_path, 6)).name == "crowded"


# -- one validation for check and the runtime (item 2) -----------------------------------
@pytest.mark.parametrize("setup, message", [
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/3K5/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1",
     "a white general on d5 is outside the area it is confined to"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/4C4/P1P1P1P1P/1C7/9/RNBAKABNR w - - 0 1",
     "black is in check but it is white's turn"),
])
def test_check_refuses_what_the_runtime_refuses(tmp_path, setup, message):
    path = write(tmp_path, f'variant bad extends xiangqi\nsetup "{setup}"\n')
    with pytest.raises(DefinitionError) as err:
        loader.load_variant(path)
    assert message in str(err.value)
    with pytest.raises(FenError) as fen_err:
        ff.load("xiangqi").position(setup)
    assert message in str(fen_err.value)


def test_a_pawn_that_could_never_move_again_is_refused_by_check(tmp_path):
    setup = "rnbqkbPr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1"
    path = write(tmp_path, f'variant bad extends chess\nsetup "{setup}"\n')
    with pytest.raises(DefinitionError) as err:
        loader.load_variant(path)
    assert "a white pawn on g8 could never move again" in str(err.value)


# -- escapes (item 4) ----------------------------------------------------------------------
def test_a_chain_of_a_thousand_parents_is_no_recursion_error(tmp_path):
    (tmp_path / "v0.variant").write_text('variant v0 extends chess\n')
    for i in range(1, 1000):
        (tmp_path / f"v{i}.variant").write_text(f'variant v{i} extends "v{i - 1}.variant"\n')
    variant = loader.load_variant(str(tmp_path / "v999.variant"))
    assert variant.name == "v999" and len(variant.pieces) == 6


@pytest.mark.parametrize("depth", [-1, "3", 2.5, 10 ** 9, 2 ** 31, True, None])
def test_bad_perft_depths_are_argument_errors(games, depth):
    pos = games["chess"].start()
    with pytest.raises(ArgumentError):
        pos.perft(depth)
    with pytest.raises(ArgumentError):
        pos.divide(depth)


def test_divide_needs_a_depth_of_one_or_more(games):
    with pytest.raises(ArgumentError, match="between 1 and 64"):
        games["chess"].start().divide(0)


# -- quadratic Betza merging (item 6) --------------------------------------------------------
def test_merging_a_long_betza_string_is_linear(monkeypatch):
    from fairyforge.compiler.betza import parse_betza
    calls = []
    real = atoms._covers
    monkeypatch.setattr(atoms, "_covers", lambda b, a: calls.append(1) or real(b, a))
    for letters in (200, 400):
        calls.clear()
        merged = atoms.merge_atoms(parse_betza("WFNDA" * (letters // 5)))
        assert len(merged) == 4 + 4 + 8 + 4 + 4
        per_letter = len(calls) / letters
    assert per_letter < 5            # quadratic merging made ~len(atoms) calls per atom


# -- interrupts and threads (items 8 and 9) ---------------------------------------------------
def test_ctrl_c_stops_perft(tmp_path):
    code = ("import fairyforge as ff, sys\n"
            "pos = ff.load('chess').start()\n"
            "print('ready', flush=True)\n"
            "try:\n"
            "    pos.perft(9)\n"
            "except KeyboardInterrupt:\n"
            "    print(pos.fen(), flush=True)\n"
            "    sys.exit(3)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ))
    assert proc.stdout.readline().strip() == "ready"
    threading.Event().wait(1.0)
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=30)     # a guard against a hang, not a timing
    finally:
        proc.kill()
    assert proc.returncode == 3
    assert out.strip() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_one_position_in_two_threads_raises_instead_of_crashing(games):
    pos = games["chess"].start()
    errors, results = [], []

    def count():
        try:
            results.append(pos.perft(5))
        except ConcurrentUseError as err:
            errors.append(err)

    threads = [threading.Thread(target=count) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) + len(errors) == 2 and results
    assert all(r == 4865609 for r in results)


# -- en passant after any double step (item 12) -----------------------------------------------
def test_en_passant_after_a_diagonal_double_step_reads_back(tmp_path):
    path = write(tmp_path, """\
        variant berolina "Berolina chess" extends chess
        piece pawn P mfFcfWifmnA      # moves diagonally, captures straight ahead
        en passant pawn
        setup "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        """)
    game = ff.load(path)
    black_pawns_ready = "rnbqkbnr/pp1p1ppp/8/8/2p1p3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    for double_step, passed in (("d2b4", "c3"), ("d2f4", "e3")):
        pos = game.position(black_pawns_ready)
        pos.push_uci(double_step)
        assert pos.fen().split()[3] == passed
        again = game.position(pos.fen())
        assert again.fen() == pos.fen()
        assert sorted(map(str, again.legal_moves())) == sorted(map(str, pos.legal_moves()))
