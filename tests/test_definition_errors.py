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


# -- semantic errors, each at its line and column --------------------------------------------

def append_line(text):
    return GOOD + text + "\n"


@pytest.mark.parametrize("text,line,column,message", [
    (replace_line(5, "piece king R R"), 5, 7, "piece 'king' is already defined on line 4"),
    (replace_line(7, "promote pawn to rook in rank 1"), 7, 9,
     "promotion of 'pawn' can never happen: no move of a pawn ends in its zone"),
    (replace_line(7, "promote pawn to pawn in last"), 7, 17, "'pawn' cannot promote to itself"),
    (replace_line(7, "promote pawn to rook, rook in last"), 7, 23, "'rook' is listed twice"),
    (replace_line(7, "promote pawn to king in last"), 7, 17,
     "'pawn' may not promote to the royal 'king'"),
    (replace_line(7, "promote pawn to rook in a1 except a1"), 7, 9,
     "promotion of 'pawn' can never happen: its zone has no squares"),
    (replace_line(6, "piece pawn P fmWfcFR200"), 6, 21, "a Betza range must be between 1 and 99"),
    (replace_line(8, 'setup "k3/p3/3P/R2R w - - 0 1"'), 8, 7,
     "white must have one king (on the board or in hand), the position gives it 0"),
    (replace_line(8, 'setup "k3/p3/3P/R2K[K] w - - 0 1"'), 8, 7,
     "the white king in hand could never be dropped"),
    (replace_line(8, 'setup "k3/p3/3P/R2K w KQ - 0 1"'), 8, 7,
     "'K' is not a castling right of this game (rights: none)"),
    (replace_line(8, 'setup "k3/p3/3P/R2K w - c3 0 1"'), 8, 7,
     "Mini has no en passant, but the en passant field is 'c3'"),
    (replace_line(8, 'setup "k3/p3/3P/R2K w - - 0 1 w"'), 8, 7, "unexpected extra field 'w'"),
    (replace_line(8, 'setup "k3/p3/3P/R2K[' + "R" * 70 + '] w - - 0 1"'), 8, 7,
     "70 white rooks in hand, at most 63 are supported"),
    (append_line("repetition 1 draw"), 9, 12, "repetition 1: the count of occurrences"),
    (append_line("move rule 0"), 9, 11, "move rule 0: the number of moves must be between"),
    (append_line("value rook 5000"), 9, 12, "value 5000 is out of range"),
    (append_line("en passant rook"), 9, 12,
     "en passant rook: a rook has no multi-step move to be captured in passing"),
    (append_line("castling king d1 to b1, rook d1 to c1"), 9, 30,
     "castling: the king and the rook must start and end on different squares"),
    (append_line("castling king c1 to a1, rook d1 to b1"), 9, 15,
     "castling can never happen: the setup has no white king on c1"),
    (append_line("castling king d1 to b1, rook b1 to c1"), 9, 30,
     "castling can never happen: the setup has no white piece on b1 to castle with"),
    (append_line("castling king d1 to b1, rook a1 to c1\ncastling king d1 to a1, rook b1 to c1"),
     10, 30, "white already castles with a rook on that side of the king (line 9)"),
    (replace_line(3, "region last = " + "(" * 2000 + "rank 4" + ")" * 2000), 3, 15,
     "the line nests parentheses too deeply"),
    (GOOD.replace("piece king K K royal", "piece king K K"), 1, 9,
     "no royal piece: mark the piece whose capture ends the game"),
    (GOOD.replace("\n", "\r\n").replace("piece rook R R", "piece rook R Rq"), 5, 15,
     "unknown Betza modifier 'q'"),             # CRLF files are numbered as editors do
    (GOOD.replace("board 4x4", "board 4x4\vpiece x X W"), 2, 10,
     "unexpected '\v'"),                        # a vertical tab does not start a new line
])
def test_semantic_error_location_and_message(tmp_path, capsys, text, line, column, message):
    status, err, path = check(tmp_path, capsys, text)
    assert status == 2, err
    assert f"{path}:{line}:{column}: error: " in err, err
    assert message in err
    assert "Traceback" not in err


def test_several_errors_are_all_reported_as_json(tmp_path, capsys):
    import json
    text = (replace_line(5, "piece rook R Rq").replace("rank 4", "rank 9")
            .replace('setup "k3/p3/3P/R2K w - - 0 1"', 'setup "k3/p3/3P/R2R w - - 0 1"'))
    path = tmp_path / "bad.variant"
    path.write_text(text)
    status = cli.main(["check", "--format", "json", str(path)])
    diagnostics = json.loads(capsys.readouterr().out)["diagnostics"]
    assert status == 2
    assert [(d["line"], d["column"]) for d in diagnostics] == [(3, 20), (5, 15), (7, 9), (8, 7)]
    assert all(d["severity"] == "error" and d["file"] == str(path) for d in diagnostics)


def test_check_json_without_errors(tmp_path, capsys):
    import json
    path = tmp_path / "good.variant"
    path.write_text(GOOD)
    assert cli.main(["check", "--format", "json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {"diagnostics": []}


def test_file_that_is_not_utf8(tmp_path, capsys):
    path = tmp_path / "latin1.variant"
    path.write_bytes(GOOD.replace('"Mini"', '"Mini \xe9checs"').encode("latin-1"))
    assert cli.main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:1:20: error: the file is not UTF-8 text: byte 0xe9" in err
    with pytest.raises(ff.DefinitionError):
        resolve.load_variant(str(path))


def test_byte_order_mark_is_ignored(tmp_path, capsys):
    status, err, _ = check(tmp_path, capsys, "\ufeff" + GOOD)
    assert status == 0, err


def test_quoted_parent_without_title(tmp_path):
    (tmp_path / "mini.variant").write_text(GOOD)
    child = tmp_path / "child.variant"
    child.write_text('variant child extends "mini.variant"\nstalemate loss\n')
    variant = resolve.load_variant(str(child))
    assert variant.parent == "mini.variant" and variant.title == "child"
    assert variant.stalemate == "loss" and variant.files == 4


def test_overlapping_betza_moves_are_generated_once(tmp_path):
    """`KW` names the wazir steps twice; `mRW` the quiet wazir steps: each move once."""
    path = tmp_path / "overlap.variant"
    path.write_text(replace_line(5, "piece rook R mRKW"))
    rook = resolve.load_variant(str(path)).piece("rook")
    vectors = [(a.dx, a.dy, a.kind) for a in rook.moves]
    assert len(vectors) == len(set(vectors))
    steps = {(a.dx, a.dy): (a.moves, a.captures) for a in rook.moves if a.kind == "leap"}
    assert steps[(1, 0)] == (False, True)          # its quiet move is the rider's first step
    assert steps[(1, 1)] == (True, True)


@pytest.mark.parametrize("thing", [None, 12, b"chess"])
def test_load_of_something_that_is_not_a_name(thing):
    with pytest.raises(ff.UnknownGameError, match="bundled name or a definition file"):
        ff.load(thing)


def test_inheritance_cycle_location(tmp_path, capsys):
    (tmp_path / "a.variant").write_text('variant a "A" extends "b.variant"\n')
    (tmp_path / "b.variant").write_text('variant b "B" extends "a.variant"\n' + GOOD.split("\n", 1)[1])
    assert cli.main(["check", str(tmp_path / "a.variant")]) == 2
    err = capsys.readouterr().err
    assert (f"{tmp_path / 'b.variant'}:1:23: error: inheritance cycle: 'a.variant' extends "
            "this variant again") in err


# --- consistency rules found while writing the language reference ---------------------

def _text(*lines):
    return "\n".join(lines) + "\n"


MINI_HEAD = ('variant mini "Mini"', "board 4x4", "piece king K K royal")


@pytest.mark.parametrize("lines,message", [
    (("piece pawn P fW", "piece tokin +P WfF", "piece gold +G WfF",
      "promote pawn to tokin, gold in rank 4", 'setup "k3/4/P3/3K w - - 0 1"'),
     "would both be written '+' in moves"),
    (("perpetual check illegal", 'setup "k3/4/4/3K w - - 0 1"'),
     "a perpetual check rule needs a repetition rule"),
    (("perpetual chase loses", 'setup "k3/4/4/3K w - - 0 1"'),
     "a perpetual chase rule needs a repetition rule"),
    (("repetition 3 draw", "perpetual chase by one piece illegal",
      'setup "k3/4/4/3K w - - 0 1"'),
     "`by one piece` qualifies perpetual check only"),
    (("piece man M pR4", 'setup "k3/4/4/3K w - - 0 1"'),
     "a range on a hopping move"),
    (("piece b2 B W", 'setup "k3/4/4/3K w - - 0 1"'), "piece name 'b2' looks like a square"),
    (("piece man M fm", 'setup "k3/4/4/3K w - - 0 1"'), "ends with modifiers but no atom"),
    (("piece gold G/- WfF", "captures go to hand", 'setup "k3/4/G3/3K w - - 0 1"'),
     "Black has no letter for a gold"),
])
def test_inconsistent_rules_are_errors(tmp_path, capsys, lines, message):
    status, err, _ = check(tmp_path, capsys, _text(*MINI_HEAD, *lines))
    assert status == 2 and message in err


@pytest.mark.parametrize("lines,check,chase,one_piece", [
    (("perpetual check loses",), "loses", None, False),
    (("perpetual check by  one piece illegal",), "illegal", None, True),
    (("perpetual chase illegal", "perpetual check by one piece loses"), "loses", "illegal",
     True),
    # The last statement of a kind wins, its qualifier included.
    (("perpetual check by one piece illegal", "perpetual check illegal"), "illegal", None,
     False),
])
def test_perpetual_rules_reach_the_model(tmp_path, lines, check, chase, one_piece):
    path = tmp_path / "perpetual.variant"
    path.write_text(_text(*MINI_HEAD, "repetition 3 draw", *lines,
                          'setup "k3/4/4/3K w - - 0 1"'))
    variant = resolve.load_variant(str(path))
    assert (variant.perpetual_check, variant.perpetual_chase,
            variant.perpetual_check_one_piece) == (check, chase, one_piece)


def test_explicit_demote_settles_several_sources(tmp_path, capsys):
    status, err, _ = check(tmp_path, capsys, _text(
        *MINI_HEAD, "piece pawn P fW", "piece lance L fR", "piece gold +P WfF",
        "promote pawn to gold in rank 4", "promote lance to gold in rank 4",
        "demote gold to pawn", 'setup "k3/4/P3/3K w - - 0 1"'))
    assert status == 0, err


def test_for_black_names_the_boards_own_squares(tmp_path):
    path = tmp_path / "sides.variant"
    path.write_text(_text(*MINI_HEAD, "region top for black = rank 4", "region top for white = rank 4",
                          "piece pawn P fW", "promote pawn to rook in top",
                          "piece rook R R", 'setup "k3/4/P3/3K w - - 0 1"'))
    variant = resolve.load_variant(str(path))
    zone = variant.piece("pawn").promotion.zone
    assert zone.white == zone.black == ("a4", "b4", "c4", "d4")


def test_regions_follow_a_board_declared_after_them(tmp_path):
    path = tmp_path / "late.variant"
    path.write_text(_text('variant late "Late"', "region last = rank 5", "board 5x5",
                          "piece king K K royal", "piece pawn P fW", "piece rook R R",
                          "promote pawn to rook in last", 'setup "k4/5/P4/5/4K w - - 0 1"'))
    zone = resolve.load_variant(str(path)).piece("pawn").promotion.zone
    assert zone.white == ("a5", "b5", "c5", "d5", "e5") and zone.black[0] == "a1"


def test_drop_all_flags_apply_to_every_piece(tmp_path):
    path = tmp_path / "flags.variant"
    path.write_text('variant flags "Flags" extends crazyhouse\ndrop all in all not mating\n')
    variant = resolve.load_variant(str(path))
    assert all(d.not_mating for d in variant.drops)
