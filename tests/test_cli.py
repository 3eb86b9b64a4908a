"""The command line without surprises (issue 16, "The CLI has surprises"; issue 17 item 4
for perft's arguments): each point tested through cli.main or a real subprocess."""

import fcntl
import io
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import textwrap
import time

import pytest

import fairyforge as ff
from fairyforge import cli, play
from fairyforge.compiler import resolve

FF = [sys.executable, "-m", "fairyforge.cli"]


def run(*args, input=None, timeout=120):
    return subprocess.run([*FF, *args], input=input, capture_output=True, text=True,
                          timeout=timeout)


# -- fairyforge --version, check, games -------------------------------------------------

def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"fairyforge {ff.__version__}"


def test_check_takes_bundled_names_like_every_other_command(capsys):
    assert cli.main(["check", "chess", "kjartansson"]) == 0
    assert capsys.readouterr().out.splitlines() == ["chess: ok", "kjartansson: ok"]


def test_check_of_an_unknown_name_suggests_a_bundled_one(capsys):
    assert cli.main(["check", "shgi"]) == 2
    err = capsys.readouterr().err
    assert "shgi: error: cannot read" in err and "did you mean 'shogi'?" in err


def test_games_lists_names_titles_and_the_definition_to_copy(capsys):
    assert cli.main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ff.bundled_games()
    for line, name in zip(lines, ff.bundled_games()):
        path = line.split()[-1]
        assert os.path.isfile(path) and os.path.basename(path) == f"{name}.variant"
        title = resolve.load_variant(path).title
        assert line[len(name):-len(path)].strip() == title
    assert any("Shogi of Chesstonia" in line for line in lines)


def test_a_misspelt_statement_keyword_gets_a_suggestion(tmp_path, capsys):
    path = tmp_path / "typo.variant"
    path.write_text('variant typo "Typo"\nboard 4x4\npice king K K royal\nsetup "k3/4/4/3K w - - 0 1"\n')
    assert cli.main(["check", str(path)]) == 2
    assert f"{path}:3:1: error: unknown statement 'pice' (did you mean 'piece'?)" in \
        capsys.readouterr().err


@pytest.mark.parametrize("betza,column", [("afW", 14), ("WyF", 15)])
def test_multi_leg_betza_is_named_as_not_supported_yet(tmp_path, capsys, betza, column):
    path = tmp_path / "legs.variant"
    path.write_text(textwrap.dedent(f"""\
        variant legs "Legs"
        board 4x4
        piece king K K royal
        piece leg  L {betza}
        setup "k3/4/4/L2K w - - 0 1"
        """))
    assert cli.main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:4:{column}: error: multi-leg moves ('a', 'y') are not supported yet" in err


def test_an_inherited_rule_that_fails_is_reported_in_the_child(tmp_path, capsys):
    """Issue 16: a child of chess on a smaller board failed with errors located in the
    installed chess.variant; the user can only act on the child file."""
    path = tmp_path / "small.variant"
    path.write_text('variant small "Small" extends chess\nboard 6x6\n'
                    'setup "rnbqkb/pppppp/6/6/PPPPPP/RNBQKB w - - 0 1"\n')
    assert cli.main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    locations = re.findall(r"^(\S+?):\d+:\d+: error", err, re.M)
    assert locations and set(locations) == {str(path)}


# -- perft ------------------------------------------------------------------------------

@pytest.mark.parametrize("game,depth,fen", [
    ("chess", 3, None),
    ("shogi", 2, None),
    ("kjartansson", 2, None),
    ("ichess", 3, None),
    ("crazyhouse", 3, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[] w KQkq - 2 3"),
])
def test_perft_prints_the_same_total_as_the_engine(games, capsys, game, depth, fen):
    position = games[game].position(fen) if fen else games[game].start()
    expected = position.perft(depth)
    args = ["perft", game, str(depth)] + (["--fen", fen] if fen else [])
    assert cli.main(args + ["-q"]) == 0
    assert capsys.readouterr().out == f"{expected}\n"
    assert cli.main(args + ["--divide"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == str(expected) and out[-2] == ""
    divide = dict(line.split(": ") for line in out[:-2])
    assert {move: int(n) for move, n in divide.items()} == \
        {str(move): n for move, n in position.divide(depth)}


@pytest.mark.parametrize("depth,message", [
    ("-1", "must be from 0 to 64 (got -1)"),
    ("2.5", "must be a whole number, not '2.5'"),
    ("3x", "must be a whole number, not '3x'"),
    (str(10 ** 9), "must be from 0 to 64 (got 1000000000)"),
    (str(2 ** 31), "must be from 0 to 64 (got 2147483648)"),
    ("9" * 5000, "must be a whole number, not '99999999999999999999...'"),
])
def test_perft_refuses_a_bad_depth_with_a_clear_message(capsys, depth, message):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["perft", "chess", depth])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument DEPTH: {message}" in err and "Traceback" not in err


def test_perft_divide_at_depth_zero_is_refused(capsys):
    assert cli.main(["perft", "chess", "0", "--divide"]) == 2
    assert "--divide needs DEPTH 1 or more" in capsys.readouterr().err


def test_perft_depth_zero_counts_the_position(games, capsys):
    assert cli.main(["perft", "chess", "0", "-q"]) == 0
    assert capsys.readouterr().out == "1\n"


def test_perft_piped_prints_nothing_but_the_count_and_timing(games):
    games["chess"]                      # built already: no build progress in the output
    proc = run("perft", "chess", "3")
    assert proc.returncode == 0
    assert proc.stdout == "8902\n"
    assert re.fullmatch(r"perft 3: [\d.]+ s, [\d.]+ M nodes/s\n", proc.stderr)


def read_until_exit(master, proc, timeout):
    chunks, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                data = os.read(master, 4096)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    return b"".join(chunks).decode(errors="replace")


def test_perft_shows_progress_per_first_move_on_a_terminal(games):
    games["chess"]
    master, slave = pty.openpty()
    # A terminal 80 columns wide (a fresh pty is 0 wide, and tqdm draws nothing in 0).
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen([*FF, "perft", "chess", "4"], stdout=subprocess.PIPE,
                            stderr=slave, text=True)
    os.close(slave)
    progress = read_until_exit(master, proc, 120)
    out = proc.communicate(timeout=60)[0]
    os.close(master)
    assert proc.returncode == 0 and out == "197281\n"
    assert "perft 4" in progress and "/20" in progress and "move" in progress
    assert progress.rstrip().splitlines()[-1].startswith("perft 4: ")


def test_ctrl_c_stops_perft_with_interrupted_and_status_130(games):
    """Issue 16: SIGINT during perft ran on to the end.  Between two first moves at the
    latest, it now stops: "interrupted", exit status 130, no count, no traceback."""
    games["chess"]
    proc = subprocess.Popen([*FF, "perft", "chess", "6", "--divide"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()          # counting has begun (20 subtrees of ~6M)
    assert re.fullmatch(r"[a-h][1-8][a-h][1-8]: \d+\n", first)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - started < 10
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == "fairyforge: interrupted"
    assert "Traceback" not in err
    assert all(re.fullmatch(r"[a-h][1-8][a-h][1-8]: \d+", line) for line in out.splitlines())


# -- play -------------------------------------------------------------------------------

KINGS_AND_PAWN = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"


def test_play_from_a_fen_with_the_board_turned_for_black(games):
    out = io.StringIO()
    play.play(games["chess"], human="black", depth=1, stdin=io.StringIO("quit\n"), out=out,
              fen=KINGS_AND_PAWN)
    board = out.getvalue().splitlines()[2:12]
    assert board[0].split() == ["1", "|", ".", ".", ".", "K", ".", ".", ".", "."]
    assert board[1].split() == ["2", "|", ".", ".", ".", "P", ".", ".", ".", "."]
    assert board[7].split() == ["8", "|", ".", ".", ".", "k", ".", ".", ".", "."]
    assert board[8].split() == list("hgfedcba")
    assert board[9].strip() == "Black to move"


def test_play_as_white_keeps_white_at_the_bottom(games):
    out = io.StringIO()
    play.play(games["chess"], human="white", depth=1, stdin=io.StringIO("quit\n"), out=out,
              fen=KINGS_AND_PAWN.replace(" b ", " w "))
    board = out.getvalue().splitlines()[2:11]
    assert board[0].split()[0] == "8" and board[7].split()[0] == "1"
    assert board[8].split() == list("abcdefgh")


def test_help_in_play_lists_the_commands(games):
    out = io.StringIO()
    play.play(games["chess"], human="black", depth=1, stdin=io.StringIO("help\nquit\n"),
              out=out, fen=KINGS_AND_PAWN)
    text = out.getvalue()
    assert "not a move" not in text
    commands = text.split("Commands:")[1]
    for word in ("moves", "undo", "hint", "help", "quit"):
        assert re.search(rf"^\s+{word}\s", commands, re.M), word


def test_play_command_takes_fen_and_side(games):
    games["chess"]
    proc = run("play", "chess", "--side", "black", "--depth", "1", "--fen", KINGS_AND_PAWN,
               input="help\nquit\n")
    assert proc.returncode == 0, proc.stderr
    assert "Commands:" in proc.stdout and "h g f e d c b a" in proc.stdout


def test_play_with_a_bad_fen_is_a_clear_error(games, capsys):
    games["chess"]
    assert cli.main(["play", "chess", "--fen", "8/8/8 w - - 0 1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fairyforge: error: bad FEN") and "Traceback" not in err


def test_the_command_line_works_without_the_optional_extras():
    """`pip install .` installs no numpy or scipy (only the `tune` and `test` extras
    do): every command but `tune` must run without them, and `tune` must say what to
    install.  (The CLI once imported the tuner, and with it numpy, for every command.)"""
    code = textwrap.dedent("""\
        import sys
        sys.modules["numpy"] = sys.modules["scipy"] = None     # as if not installed
        from fairyforge import cli
        cli.main(["games"])
        sys.exit(cli.main(["tune", "chess", "--games", "2"]))
        """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert "chess" in run.stdout, run.stderr
    assert run.returncode == 2, run.stderr
    assert 'numpy is needed: pip install "fairyforge[tune]"' in run.stderr


def test_every_package_of_the_tree_is_installed():
    """pyproject.toml lists the packages by hand: a new one left out is missing from a
    non-editable install (fairyforge.interop once was)."""
    import tomllib
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        listed = set(tomllib.load(f)["tool"]["setuptools"]["packages"])
    found = set()
    for top, package in (("runtime", "fairyforge"), ("compiler", "fairyforge.compiler")):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            if "__init__.py" in files:
                rel = os.path.relpath(folder, os.path.join(root, top))
                found.add(package if rel == "." else package + "." + rel.replace(os.sep, "."))
    assert found <= listed, found - listed
