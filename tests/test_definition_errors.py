"""Bad definitions: every error names file:line:col, shows the line with a caret, and
`fairyforge check` exits 2 without a traceback."""

import textwrap

import pytest

import fairyforge as ff
from fairyforge import cli
from fairyforge.compiler import resolve

GOOD = textwrap.dedent("""\
    variant mini "Mini"
    board 4x4
    region last = rank 4
    piece king K K royal
    piece rook R R
    piece pawn P fmWfcF
    promote pawn to rook in last
    setup "k3/p3/3P/R2K w - - 0 1"
    """)


def check(tmp_path, capsys, text, name="bad.variant"):
    path = tmp_path / name
    path.write_text(text)
    status = cli.main(["check", str(path)])
    err = capsys.readouterr().err
    return status, err, str(path)


def replace_line(number, new):
    lines = GOOD.splitlines()
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


def test_good_definition_passes(tmp_path, capsys):
    status, err, _ = check(tmp_path, capsys, GOOD)
    assert status == 0 and err == ""


@pytest.mark.parametrize("line,text,column,message", [
    (5, "piece rook R", 13, "expected a Betza move such as fW or mRcpR after the piece letter"),
    (5, "piece rook R Rq", 15, "unknown Betza modifier 'q'"),
    (5, "piece rook R X", 14, "unknown Betza atom 'X'"),
    (5, "piece rook K R", 12, "letter K is already used by piece 'king' (line 4)"),
    (7, "promote pawn to rok in last", 17, "unknown piece 'rok' (did you mean 'rook'?)"),
    (7, "promote pawn to rook in lasst", 25, "unknown region 'lasst' (did you mean 'last'?)"),
    (3, "region last = rank 5", 20, "rank 5 is off the board (ranks 1-4)"),
    (3, "region last = a1-e4", 18, "square e4 is off the 4x4 board"),
    (8, 'setup "k3/p3/3P w - - 0 1"', 7, "setup does not fit the game: bad FEN board: 3 ranks given, the board has 4"),
    (8, 'setup "k3/p3/3P/R2X w - - 0 1"', 7, "unknown piece 'X'"),
    (2, "board 4by4", 7, "expected a board size such as 8x8"),
    (6, "pice pawn P fW", 1, "unknown statement 'pice'"),
])
def test_error_location_and_message(tmp_path, capsys, line, text, column, message):
    status, err, path = check(tmp_path, capsys, replace_line(line, text))
    assert status == 2
    assert f"{path}:{line}:{column}: error: " in err
    assert message in err
    assert text in err                              # the offending line is shown ...
    caret_line = err.splitlines()[err.splitlines().index("    " + text) + 1]
    assert caret_line == " " * (4 + column - 1) + "^"   # ... with a caret under the column
    assert "Traceback" not in err


def test_all_errors_reported_not_just_the_first(tmp_path, capsys):
    text = replace_line(5, "piece rook R Rq").replace("rank 4", "rank 9")
    status, err, path = check(tmp_path, capsys, text)
    assert status == 2
    assert f"{path}:3:" in err and f"{path}:5:" in err


def test_no_royal_piece(tmp_path, capsys):
    text = GOOD.replace("piece king K K royal", "piece king K K")
    status, err, path = check(tmp_path, capsys, text)
    assert status == 2 and "no royal piece" in err


def test_inheritance_cycle(tmp_path, capsys):
    (tmp_path / "a.variant").write_text('variant a "A" extends "b.variant"\n')
    (tmp_path / "b.variant").write_text('variant b "B" extends "a.variant"\n' + GOOD.split("\n", 1)[1])
    status = cli.main(["check", str(tmp_path / "a.variant")])
    assert status == 2 and "inheritance cycle" in capsys.readouterr().err


def test_unknown_parent(tmp_path, capsys):
    status, err, path = check(tmp_path, capsys, 'variant x "X" extends chesss\n')
    assert status == 2 and f"{path}:1:" in err and "did you mean 'chess'" in err


def test_json_diagnostics(tmp_path, capsys):
    import json
    path = tmp_path / "bad.variant"
    path.write_text(replace_line(5, "piece rook R X"))
    status = cli.main(["check", "--format", "json", str(path)])
    out = json.loads(capsys.readouterr().out)
    assert status == 2
    assert out["diagnostics"][0]["line"] == 5 and out["diagnostics"][0]["column"] == 14


def test_load_raises_definition_error(tmp_path):
    path = tmp_path / "bad.variant"
    path.write_text(replace_line(5, "piece rook R X"))
    with pytest.raises(ff.DefinitionError) as info:
        ff.load(str(path))
    assert info.value.diagnostics[0].location.line == 5


def test_unknown_game():
    with pytest.raises(ff.UnknownGameError, match="did you mean 'shogi'"):
        resolve.load_variant("shgi")


def test_every_bundled_definition_checks_clean(capsys):
    from conftest import DEFINITIONS
    import glob
    files = sorted(glob.glob(f"{DEFINITIONS}/*.variant"))
    assert len(files) >= 4
    assert cli.main(["check", *files]) == 0
