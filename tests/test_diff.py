"""`fairyforge diff`: rule comparison (every report group), move phrases, formats, exit
statuses, and the behavioural comparison (--play)."""

import argparse
import dataclasses
import json
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

import fairyforge
from fairyforge import diff_command
from fairyforge.compiler import diff
from fairyforge.compiler.betza import parse_betza
from fairyforge.compiler.diff import (Board, describe_moves, diff_files, diff_variants,
                                      play_diff, render, squares_text)
from fairyforge.compiler.model import Deployment, Variant
from fairyforge.compiler.rules.restrictions import Restriction
from fairyforge.compiler.resolve import bundled_path, load_variant


# -- helpers ---------------------------------------------------------------------------------

def definition_text(name):
    return Path(bundled_path(name)).read_text()


def write_variant(folder, filename, text):
    path = Path(folder) / filename
    path.write_text(text)
    return str(path)


def edited(name, old, new, count=1):
    """A bundled definition's text with one line edited (and checked to be edited)."""
    text = definition_text(name)
    assert old in text, old
    return text.replace(old, new, count)


def run_diff(argv):
    """Parse `diff ARGV` with the subcommand's parser and run it; returns the status."""
    parser = argparse.ArgumentParser(prog="fairyforge")
    sub = parser.add_subparsers(dest="command")
    diff_command.add_parser(sub)
    args = parser.parse_args(["diff"] + list(argv))
    return diff_command.run(args)


def texts(group):
    return [e.text for e in group]


def all_text(group):
    return "\n".join(e.text + "\n" + "\n".join(e.details) for e in group)


@pytest.fixture(scope="session")
def variants():
    return {name: load_variant(name) for name in ("chess", "crazyhouse", "shogi", "xiangqi")}


@pytest.fixture(scope="session")
def shogi_back_path(tmp_path_factory):
    """Shogi whose silver also steps straight back (FfW -> FvW)."""
    folder = tmp_path_factory.mktemp("shogi_back")
    return write_variant(folder, "shogi_back.variant",
                         edited("shogi", "piece silver   S   FfW", "piece silver   S   FvW"))


@pytest.fixture(scope="session")
def shogi_games(shogi_back_path):
    """The compiled shogi and shogi_back engines (each built once per session)."""
    return fairyforge.load("shogi"), fairyforge.load(shogi_back_path)


# -- the acceptance cases --------------------------------------------------------------------

def test_chess_vs_crazyhouse_reports_drops_and_captures_to_hand(capsys):
    assert run_diff(["chess", "crazyhouse"]) == 1
    out = capsys.readouterr().out
    assert "captor's hand" in out
    assert "Drops" in out and "pawn may be dropped on ranks 2-7" in out
    result = diff_files("chess", "crazyhouse")
    captures = result.group("captures")
    assert [e.kind for e in captures] == ["added"]
    assert "are removed from play -> go to the captor's hand" in captures.entries[0].text
    drops = result.group("drops")
    assert {e.subject for e in drops if e.kind == "added"} == {
        "drops", "queen", "rook", "bishop", "knight", "pawn"}
    # the king is never dropped
    assert not drops.find("king")


def test_same_game_reports_nothing(capsys):
    assert run_diff(["chess", "chess"]) == 0
    assert capsys.readouterr().out == ""
    result = diff_files("chess", "chess")
    assert not result and result.count == 0 and result.groups == []


def test_reordered_copy_with_renamed_regions_reports_nothing(tmp_path, capsys):
    lines = [line.split("#")[0].rstrip() for line in definition_text("chess").splitlines()]
    lines = [re.sub(r"\blast_rank\b", "far_end", line) for line in lines if line.strip()]
    lines.reverse()
    text = "# chess, every statement in reverse order\n\n" + "\n\n".join(
        "  " + re.sub(r"\s+", "   ", line) for line in lines) + "\n"
    assert "far_end" in text and "last_rank" not in text
    path = write_variant(tmp_path, "chess_reordered.variant", text)
    assert run_diff(["chess", path]) == 0
    assert capsys.readouterr().out == ""


def test_reordered_shogi_with_renamed_regions_and_reformatted_betza(tmp_path):
    text = definition_text("shogi")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    pieces = [line for line in lines if line.startswith("piece ")]
    rest = [line for line in lines if not line.startswith("piece ")]
    # pieces declared in another order, a gold written fFW instead of WfF, the zone renamed
    pieces = [line.replace("WfF", "fFW") for line in reversed(pieces)]
    new = "\n".join(rest[:1] + pieces + rest[1:])
    new = re.sub(r"\bzone\b", "camp", new)
    path = write_variant(tmp_path, "shogi_shuffled.variant", new)
    assert not diff_files("shogi", path)


def test_child_definition_copy_reports_nothing(tmp_path):
    # `extends chess` resolves the parent as a bundled name from a file elsewhere
    text = edited("crazyhouse", "drop all in all", "drop all in all  # everywhere")
    path = write_variant(tmp_path, "my_crazyhouse.variant", text)
    assert not diff_files("crazyhouse", path)


def test_shogi_silver_stepping_back(shogi_back_path):
    result = diff_files("shogi", shogi_back_path)
    assert result.count == 1
    entry, = result.group("pieces")
    assert entry.kind == "changed" and entry.subject == "silver"
    assert "FfW -> FvW" in entry.text
    assert entry.details == ["gains: backward orthogonal step (bW)"]


# -- each group of the report ----------------------------------------------------------------

def test_board_group(variants):
    result = diff_variants(variants["shogi"], variants["xiangqi"])
    board = result.group("board")
    entry, = board.find("board")
    assert "9x9 -> 9x10" in entry.text
    assert entry.details == ["squares added: rank 10"]
    result = diff_variants(variants["chess"], variants["shogi"])
    symmetry, = result.group("board").find("symmetry")
    assert "mirror" in symmetry.text and "rotate" in symmetry.text
    back = diff_variants(variants["shogi"], variants["chess"])
    entry, = back.group("board").find("board")
    assert entry.details == ["squares removed: i1-i8, rank 9"]


def test_pieces_added_removed_and_moves(variants):
    result = diff_variants(variants["chess"], variants["shogi"])
    pieces = result.group("pieces")
    queen, = pieces.find("queen")
    assert queen.kind == "removed"
    assert "moves: slide in any direction (Q)" in queen.details
    gold, = pieces.find("gold")
    assert gold.kind == "added"
    assert "moves: orthogonal step (W); forward diagonal step (fF)" in gold.details
    lance, = pieces.find("lance")
    assert "moves: forward orthogonal slide (fR)" in lance.details
    knight, = pieces.find("knight")
    assert knight.kind == "changed"
    assert "loses: backward and wide forward knight leap (bhNfsN)" in knight.details
    pawn, = pieces.find("pawn")
    assert "gains: forward orthogonal step (fW)" in pawn.details
    assert ("loses: non-capturing forward orthogonal step (fmW); "
            "capture-only forward diagonal step (fcF)") in pawn.details


def test_pieces_promotion_changes(variants):
    result = diff_variants(variants["chess"], variants["crazyhouse"])
    pawn, = result.group("pieces").find("pawn")
    assert "promotion" in pawn.text
    assert pawn.details == ["promotion choices: queen, rook, bishop, knight -> queen_from_pawn, "
                            "rook_from_pawn, bishop_from_pawn, knight_from_pawn"]
    twin, = result.group("pieces").find("queen_from_pawn")
    assert twin.kind == "added" and "demotes to pawn when captured" in twin.details

    result = diff_variants(variants["chess"], variants["shogi"])
    rook, = result.group("pieces").find("rook")
    assert rook.details == ["gains a promotion: promotes to dragon on ranks 7-9 for White, "
                            "ranks 1-3 for Black on entering or leaving"]
    pawn, = result.group("pieces").find("pawn")
    assert any(d.startswith("promotion zone: rank 8 for White, rank 1 for Black -> ranks 7-9 "
                            "for White, ranks 1-3 for Black") for d in pawn.details)
    assert "promotion: on entering the zone -> on entering or leaving it" in pawn.details


def test_pieces_promotion_zone_forced_and_trigger(tmp_path):
    text = edited("shogi", "promote pawn   to tokin   in zone on entering or leaving",
                  "promote pawn   to tokin   in ranks 8-9 forced in rank 9")
    path = write_variant(tmp_path, "shogi_pawn.variant", text)
    pawn, = diff_files("shogi", path).group("pieces").find("pawn")
    assert pawn.kind == "changed"
    assert "promotion zone: ranks 7-9 for White, ranks 1-3 for Black -> ranks 8-9 for White, " \
           "ranks 1-2 for Black (for White: removes rank 7; for Black: removes rank 3)" \
           in pawn.details
    assert "promotion: on entering or leaving the zone -> on entering it" in pawn.details
    assert any(d.startswith("promotion forced on: no squares -> rank 9 for White, rank 1 "
                            "for Black") for d in pawn.details)


def test_pieces_demotion_and_capture_disposition(tmp_path):
    text = edited("shogi", "captures go to hand",
                  "captures go to hand\ndemote dragon to bishop\ncaptured pawn is removed\n"
                  "captured lance becomes pawn")
    path = write_variant(tmp_path, "shogi_disposal.variant", text)
    pieces = diff_files("shogi", path).group("pieces")
    dragon, = pieces.find("dragon")
    assert dragon.details == ["demotion when captured: returns to hand as a rook -> returns "
                              "to hand as a bishop"]
    pawn, = pieces.find("pawn")
    assert "capture disposition" in pawn.text
    assert pawn.details == ["when captured: follows the capture rule -> is removed from play"]
    lance, = pieces.find("lance")
    assert lance.details == ["when captured: follows the capture rule -> goes to hand as a pawn"]


def test_pieces_letter_royal_and_value(tmp_path):
    text = edited("chess", "piece knight N  N", "piece knight S  N")
    text = text.replace("RNBQKBNR", "RSBQKBSR").replace("rnbqkbnr", "rsbqkbsr")
    text += "value knight 3.25\n"
    path = write_variant(tmp_path, "chess_s.variant", text)
    knight, = diff_files("chess", path).group("pieces").find("knight")
    assert "letter: N -> S" in knight.details
    assert "value: none -> 3.25" in knight.details


def test_renamed_piece_is_matched_by_letter(tmp_path):
    text = definition_text("chess").replace("knight", "horse")
    path = write_variant(tmp_path, "chess_horse.variant", text)
    result = diff_files("chess", path)
    entry, = result.entries()
    assert entry.kind == "changed" and entry.subject == "knight"
    assert entry.details == ["renamed: knight -> horse"]


def test_captures_group_per_side(variants):
    chess = variants["chess"]
    one_sided = dataclasses.replace(chess, captures=dataclasses.replace(
        chess.captures, to_hand_black=True))
    entry, = diff_variants(chess, one_sided).group("captures")
    assert entry.kind == "added"
    assert entry.text == ("captured pieces: captured by Black: are removed from play -> go to "
                          "the captor's hand")
    entry, = diff_variants(variants["shogi"], variants["xiangqi"]).group("captures")
    assert entry.kind == "removed"


def test_drops_group_zones_and_restrictions(tmp_path, variants):
    text = edited("crazyhouse", "drop pawn in ranks 2-7", "drop pawn in ranks 2-6 not doubled")
    path = write_variant(tmp_path, "crazyhouse_drops.variant", text)
    pawn, = diff_files("crazyhouse", path).group("drops")
    assert pawn.kind == "changed" and pawn.subject == "pawn"
    assert ("drop zone: ranks 2-7 -> ranks 2-6 for White, ranks 3-7 for Black "
            "(for White: removes rank 7; for Black: removes rank 2)") in pawn.details
    assert ("no doubled drops (not on a file with an own unpromoted one): added"
            in pawn.details)
    drops = diff_variants(variants["shogi"], variants["xiangqi"]).group("drops")
    assert "drops: there are no drops any more" in texts(drops)
    pawn, = drops.find("pawn")
    assert pawn.kind == "removed" and "not to give checkmate" in pawn.text


def test_special_rules_castling_en_passant_double_steps(variants):
    special = diff_variants(variants["chess"], variants["shogi"]).group("special")
    castling = special.find("castling")
    assert [e.kind for e in castling] == ["removed"] * 4
    assert "White castling: king e1 to g1, rook h1 to f1" in texts(castling)
    assert "Black castling: king e8 to c8, rook a8 to d8" in texts(castling)
    ep, = special.find("en passant")
    assert ep.kind == "removed" and "pawn" in ep.text
    steps, = special.find("double steps of pawn")
    assert steps.kind == "removed"
    assert steps.details == ["loses: first-move non-capturing blockable forward two-square "
                             "orthogonal leap (ifmnD)"]


def test_special_rules_double_step_squares(tmp_path):
    text = definition_text("chess") + "initial pawn in ranks 2-3\n"
    path = write_variant(tmp_path, "chess_initial.variant", text)
    steps, = diff_files("chess", path).group("special")
    assert steps.kind == "changed" and steps.subject == "double steps of pawn"
    assert steps.details == ["first moves allowed from: rank 2 for White, rank 7 for Black -> "
                             "ranks 2-3 for White, ranks 6-7 for Black (for White: adds rank 3; "
                             "for Black: adds rank 6)"]


def test_special_rules_confinement_and_flying_kings(tmp_path, variants):
    text = edited("xiangqi", "confine general, advisor to palace", "confine general to palace")
    text = text.replace("no facing kings", "")
    path = write_variant(tmp_path, "xiangqi_free.variant", text)
    special = diff_files("xiangqi", path).group("special")
    advisor, = special.find("confinement of advisor")
    assert advisor.kind == "removed"
    assert advisor.text == ("advisor is no longer confined (was d1-f3 for White, "
                            "d8-f10 for Black)")
    flying, = special.find("flying kings")
    assert flying.kind == "removed"
    special = diff_variants(variants["shogi"], variants["xiangqi"]).group("special")
    elephant, = special.find("confinement of bishop")        # bishop is renamed elephant
    assert elephant.text == ("bishop (elephant in xiangqi) is confined to ranks 1-5 for White, "
                             "ranks 6-10 for Black")


def test_special_rules_deployment_and_restrictions(variants):
    chess = variants["chess"]
    other = dataclasses.replace(
        chess, deployment=Deployment(last="king"),
        restrictions=(Restriction("white", ("capture", "check"), "black", ("promote",)),))
    special = diff_variants(chess, other).group("special")
    deployment, = special.find("deployment")
    assert deployment.kind == "added" and "the king last" in deployment.text
    restriction, = special.find("restriction")
    assert restriction.kind == "added"
    assert restriction.text == ("restriction: until white does one of (capture, check), black "
                                "may not (promote)")
    changed = diff_variants(other, dataclasses.replace(other, deployment=Deployment(last=None)))
    entry, = changed.group("special")
    assert entry.kind == "changed"
    assert "field deployment.last changed from king to none" in entry.details


def test_game_end_group(tmp_path, variants):
    text = (definition_text("chess").replace("stalemate draw", "stalemate loss")
            .replace("repetition 3 draw", "repetition 4 loss")
            .replace("move rule 50", "move rule 75")) + "perpetual check loses\n"
    path = write_variant(tmp_path, "chess_end.variant", text)
    # (`stalemate loss, stalemating illegal` is set on the model directly: the parser
    # does not keep that flag yet)
    other = dataclasses.replace(load_variant(path), stalemating_illegal=True)
    end = diff_variants(variants["chess"], other).group("game_end")
    assert [(e.kind, e.text) for e in end] == [
        ("changed", "stalemate: being stalemated is a draw -> a loss"),
        ("added", "stalemating the opponent is illegal"),
        ("changed", "3-fold repetition is a draw -> 4-fold repetition is a loss"),
        ("added", "no perpetual check rule -> perpetual check loses"),
        ("changed", "50-move rule -> 75-move rule"),
    ]
    end = diff_variants(variants["chess"], variants["shogi"]).group("game_end")
    move_rule, = end.find("move rule")
    assert move_rule.kind == "removed"


def test_perpetual_rules_in_the_game_end_group(variants):
    kjartansson = load_variant("kjartansson")
    plain = dataclasses.replace(kjartansson, perpetual_check_one_piece=False,
                                perpetual_chase="loses")
    end = diff_variants(kjartansson, plain).group("game_end")
    assert [(e.kind, e.text) for e in end] == [
        ("changed", "perpetual check by one piece is illegal -> perpetual check is illegal"),
        ("changed", "perpetual chase is illegal -> perpetual chase loses"),
    ]


def test_setup_group_square_by_square_and_hands(tmp_path):
    text = edited("chess", 'setup "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"',
                  'setup "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RBNQKBNR b Kkq - 0 1"')
    path = write_variant(tmp_path, "chess_setup.variant", text)
    setup = diff_files("chess", path).group("setup")
    board, = setup.find("board")
    assert board.text == "start position: 2 squares differ"
    assert board.details == ["b1: white knight -> white bishop", "c1: white bishop -> white knight"]
    side, = setup.find("side to move")
    assert side.text == "side to move first: white -> black"
    rights, = setup.find("castling rights")
    assert rights.text == "castling rights at the start: KQkq -> Kkq"

    text = edited("crazyhouse", "RNBQKBNR[]", "RNBQKBNR[PPn]")
    path = write_variant(tmp_path, "crazyhouse_hands.variant", text)
    hands, = diff_files("crazyhouse", path).group("setup")
    assert hands.subject == "hands"
    assert hands.details == ["black knight: 0 -> 1 in hand", "white pawn: 0 -> 2 in hand"]


def test_setup_holdings_brackets_alone_are_no_difference(variants):
    # crazyhouse writes `[]` after the board; an empty hand is no difference
    assert not diff_variants(variants["chess"], variants["crazyhouse"]).group("setup")


# -- the comparison is generic over the model's fields ----------------------------------------

def test_new_variant_field_is_diffed_generically(variants):
    @dataclasses.dataclass(frozen=True)
    class Extended(Variant):
        gating: bool = False

    chess = variants["chess"]
    fields = {f.name: getattr(chess, f.name) for f in dataclasses.fields(Variant)}
    a, b = Extended(**fields), Extended(**fields, gating=True)
    entry, = diff_variants(a, b).group("other")
    assert entry.subject == "gating"
    assert entry.text == "field gating changed from no to yes"
    assert not diff_variants(a, Extended(**fields))


def test_new_piece_and_atom_fields_are_diffed_generically(variants):
    from fairyforge.compiler.model import MoveAtom, PieceType

    @dataclasses.dataclass(frozen=True)
    class Piece2(PieceType):
        hand_limit: int = 0

    @dataclasses.dataclass(frozen=True)
    class Atom2(MoveAtom):
        rifle: bool = False

    chess = variants["chess"]

    def convert(piece, **changes):
        data = {f.name: getattr(piece, f.name) for f in dataclasses.fields(PieceType)}
        data.update(changes)
        return Piece2(**data)

    def rifled(atom, forward):
        data = {f.name: getattr(atom, f.name) for f in dataclasses.fields(MoveAtom)}
        return Atom2(**data, rifle=forward and atom.dy > 0)

    rook_moves = chess.piece("rook").moves
    changes = {"queen": {"hand_limit": 2},
               "rook": {"moves": tuple(rifled(m, True) for m in rook_moves)}}
    a = dataclasses.replace(chess, pieces=tuple(
        convert(p, moves=tuple(rifled(m, False) for m in p.moves)) if p.name == "rook"
        else convert(p) for p in chess.pieces))
    b = dataclasses.replace(chess, pieces=tuple(convert(p, **changes.get(p.name, {}))
                                                for p in chess.pieces))
    pieces = diff_variants(a, b).group("pieces")
    queen, = pieces.find("queen")
    assert queen.details == ["field hand_limit changed from 0 to 2"]
    rook_entry, = pieces.find("rook")
    assert rook_entry.details == ["gains: forward orthogonal slide [rifle yes] (fR)",
                                  "loses: forward orthogonal slide [rifle no] (fR)"]


# -- moves in plain words, with Betza ----------------------------------------------------------

@pytest.mark.parametrize("betza,expected", [
    ("W", [("orthogonal step", "W")]),
    ("F", [("diagonal step", "F")]),
    ("D", [("two-square orthogonal leap", "D")]),
    ("N", [("knight leap", "N")]),
    ("A", [("two-square diagonal leap", "A")]),
    ("R", [("orthogonal slide", "R")]),
    ("B", [("diagonal slide", "B")]),
    ("K", [("step in any direction", "K")]),
    ("Q", [("slide in any direction", "Q")]),
    ("bF", [("backward diagonal step", "bF")]),
    ("fF", [("forward diagonal step", "fF")]),
    ("lF", [("left diagonal step", "lF")]),
    ("brF", [("back-right diagonal step", "brF")]),
    ("fR", [("forward orthogonal slide", "fR")]),
    ("bW", [("backward orthogonal step", "bW")]),
    ("lW", [("left orthogonal step", "lW")]),
    ("rW", [("right orthogonal step", "rW")]),
    ("vW", [("forward and backward orthogonal step", "vW")]),
    ("sR", [("sideways orthogonal slide", "sR")]),
    ("fsW", [("forward and sideways orthogonal step", "fsW")]),
    ("fD", [("forward two-square orthogonal leap", "fD")]),
    ("bA", [("backward two-square diagonal leap", "bA")]),
    ("ffN", [("narrow forward knight leap", "fN")]),
    ("fsN", [("wide forward knight leap", "fsN")]),
    ("blN", [("wide back-left knight leap", "blN")]),
    ("lbN", [("narrow back-left knight leap", "lbN")]),
    ("fhN", [("forward knight leap", "fhN")]),
    ("mfW", [("non-capturing forward orthogonal step", "fmW")]),
    ("cfF", [("capture-only forward diagonal step", "fcF")]),
    ("ifmnD", [("first-move non-capturing blockable forward two-square orthogonal leap",
                "ifmnD")]),
    ("nN", [("blockable knight leap", "nN")]),
    ("mRcpR", [("non-capturing orthogonal slide", "mR"),
               ("capture-only orthogonal slide hopping over exactly one piece", "cpR")]),
    ("R4", [("orthogonal slide of up to 4 squares", "R4")]),
    ("NN", [("knight ride", "NN")]),
    ("WfF", [("orthogonal step", "W"), ("forward diagonal step", "fF")]),
])
def test_move_phrases(betza, expected):
    assert describe_moves(parse_betza(betza)) == expected


@pytest.mark.parametrize("betza", [
    "W", "F", "D", "N", "A", "H", "C", "Z", "G", "K", "R", "B", "Q",
    "fW", "bW", "lW", "rW", "vW", "sW", "fsW", "bsW", "flW", "fF", "bF", "lF", "rF", "flF",
    "frF", "blF", "brF", "fFblF", "fN", "bN", "lN", "rN", "fsN", "bsN", "lvN", "rvN", "fhN",
    "bhN", "lhN", "rhN", "vN", "sN", "lfN", "flN", "rbN", "fR", "bR", "vR", "sR", "fB", "bB",
    "flB", "mW", "cF", "mfW", "cfF", "ifmnD", "nN", "nA", "mRcpR", "gR", "pB", "R4", "B3",
    "fmWfcFifmnD", "WfF", "FfW", "FvW", "ffN", "RF", "BW", "NN", "fNN", "mK", "cQ", "iK",
    "fC", "lZ", "bG", "sH", "fmQ",
])
def test_move_fragments_are_correct_betza(betza):
    """Every phrase's Betza fragment parses back to exactly the atoms it describes."""
    atoms = parse_betza(betza)
    rebuilt = Counter()
    for _, fragment in describe_moves(atoms):
        rebuilt.update(diff.canon(a) for a in parse_betza(fragment))
    assert rebuilt == Counter(diff.canon(a) for a in atoms)


def test_region_dependent_move_phrase(variants):
    soldier = variants["xiangqi"].piece("soldier")
    phrases = describe_moves(soldier.moves, Board(9, 10))
    assert phrases == [("forward orthogonal step", "fW"),
                       ("sideways orthogonal step while standing on ranks 6-10 for White, "
                        "ranks 1-5 for Black", "sW")]


def test_squares_text():
    board = Board(9, 10)
    assert squares_text([], board) == "no squares"
    assert squares_text(["a1", "b1", "c1"], board) == "a1-c1"
    assert squares_text(["d1", "e1", "f1", "d2", "e2", "f2", "d3", "e3", "f3"], board) == "d1-f3"
    assert squares_text([f"{f}{r}" for f in "abcdefghi" for r in (6, 7, 8, 9, 10)],
                        board) == "ranks 6-10"
    assert squares_text([f"a{r}" for r in range(1, 11)], board) == "file a"
    assert squares_text([f"{f}{r}" for f in "abcdefghi" for r in range(1, 11)],
                        board) == "all squares"
    assert squares_text(["e4", "a10"], board) == "e4, a10"


# -- formats ---------------------------------------------------------------------------------

def test_text_format_layout():
    out = render(diff_files("chess", "crazyhouse"), "text")
    lines = out.splitlines()
    assert lines[0] == "--- chess (Chess)"
    assert lines[1] == "+++ crazyhouse (Crazyhouse, extends chess)"
    for title in ("Pieces", "Captures", "Drops"):
        assert title in lines
    assert "  + captured pieces: are removed from play -> go to the captor's hand" in lines
    assert "      promotion choices: queen, rook, bishop, knight -> queen_from_pawn, " \
           "rook_from_pawn, bishop_from_pawn, knight_from_pawn" in lines
    assert lines[-1].startswith("12 differences (+ only in crazyhouse, - only in chess")


@pytest.mark.parametrize("fmt,load", [("json", json.loads), ("yaml", yaml.safe_load)])
def test_structured_formats(fmt, load, capsys):
    assert run_diff(["chess", "crazyhouse", "--format", fmt]) == 1
    data = load(capsys.readouterr().out)
    assert data["a"]["name"] == "chess" and data["b"]["name"] == "crazyhouse"
    assert data["b"]["parent"] == "chess"
    groups = {g["name"]: g for g in data["groups"]}
    assert set(groups) == {"pieces", "captures", "drops"}
    assert data["differences"] == sum(len(g["entries"]) for g in data["groups"])
    entry = groups["captures"]["entries"][0]
    assert set(entry) == {"kind", "subject", "text", "details"}
    assert entry["kind"] == "added" and "captor's hand" in entry["text"]


@pytest.mark.parametrize("fmt,load", [("json", json.loads), ("yaml", yaml.safe_load)])
def test_structured_formats_when_equal(fmt, load, capsys):
    assert run_diff(["shogi", "shogi", "--format", fmt]) == 0
    data = load(capsys.readouterr().out)
    assert data["differences"] == 0 and data["groups"] == []


def test_render_rejects_unknown_format():
    with pytest.raises(ValueError, match="unknown format"):
        render(diff_files("chess", "chess"), "xml")


# -- exit statuses and errors -----------------------------------------------------------------

def test_exit_status_2_for_a_file_that_does_not_parse(tmp_path, capsys):
    path = write_variant(tmp_path, "broken.variant",
                         'variant broken\nboard 8x8\npiece king K Kq royal\n'
                         'setup "4k3/8/8/8/8/8/8/4K3 w - - 0 1"\n')
    assert run_diff(["chess", path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{path}:3:" in captured.err and "unknown Betza modifier 'q'" in captured.err


def test_exit_status_2_for_an_unknown_game(capsys):
    assert run_diff(["chess", "chesss"]) == 2
    err = capsys.readouterr().err
    assert "no bundled game or definition file named 'chesss'" in err
    assert "did you mean 'chess'" in err


def test_exit_status_2_for_play_options_without_play(capsys):
    assert run_diff(["chess", "chess", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]) == 2
    assert "--fen only applies with --play" in capsys.readouterr().err
    assert run_diff(["chess", "chess", "--depth", "2"]) == 2


def test_exit_status_2_when_boards_differ_for_play(capsys):
    assert run_diff(["chess", "shogi", "--play"]) == 2
    assert "cannot compare by play: chess is played on 8x8 and shogi on 9x9" \
        in capsys.readouterr().err


def test_bad_format_and_negative_depth_are_usage_errors():
    with pytest.raises(SystemExit) as err:
        run_diff(["chess", "chess", "--format", "xml"])
    assert err.value.code == 2
    with pytest.raises(SystemExit) as err:
        run_diff(["chess", "chess", "--play", "--depth", "-1"])
    assert err.value.code == 2


# -- behaviour: --play ------------------------------------------------------------------------

def test_play_finds_shortest_witness(shogi_games):
    shogi, back = shogi_games
    result = play_diff(shogi, back, depth=3)
    assert result.found and result.complete
    assert len(result.sequence) == 2           # White moves a silver up, Black replies
    first = result.sequence[0]
    assert result.only_a == []
    assert result.only_b == [first[2:4] + first[0:2]]      # ... and it may step back
    assert result.fen_a == result.fen_b
    # the witness replays in both games and the extra move is legal only in B
    pos_a, pos_b = shogi.start(), back.start()
    for move in result.sequence:
        pos_a.push_uci(move)
        pos_b.push_uci(move)
    only_b = {str(m) for m in pos_b.legal_moves()} - {str(m) for m in pos_a.legal_moves()}
    assert only_b == set(result.only_b)


def test_play_command_output(shogi_back_path, shogi_games, capsys):
    assert run_diff(["shogi", shogi_back_path, "--play", "--depth", "2"]) == 1
    out = capsys.readouterr().out
    assert "the legal moves differ after 2 moves:" in out
    assert f"only B ({shogi_back_path}) allows: " in out
    assert "only A (shogi) allows: (nothing more)" in out


def test_play_from_fen(shogi_back_path, shogi_games, capsys):
    fen = "4k4/9/9/9/4S4/9/9/9/4K4[] w - - 0 1"
    result = play_diff(*shogi_games, depth=2, fen=fen)
    assert result.found and result.sequence == [] and result.only_b == ["e5e4"]
    assert run_diff(["shogi", shogi_back_path, "--play", "--fen", fen,
                     "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)["play"]
    assert data["found"] and data["sequence"] == [] and data["only_b"] == ["e5e4"]


def test_play_no_difference(shogi_games, capsys):
    shogi = shogi_games[0]
    result = play_diff(shogi, shogi, depth=2)
    assert not result.found and result.complete and result.positions > 30
    assert "no difference up to depth 2" in render(result)
    assert run_diff(["shogi", "shogi", "--play", "--depth", "1"]) == 0
    assert "no difference up to depth 1" in capsys.readouterr().out


def test_play_position_limit_and_progress(shogi_games, monkeypatch):
    monkeypatch.setattr(diff.play, "PROGRESS_SECONDS", 0.0)     # the play diff's module
    messages = []
    shogi = shogi_games[0]
    result = play_diff(shogi, shogi, depth=3, max_positions=50, progress=messages.append)
    assert not result.found and not result.complete
    assert result.positions <= 50
    assert messages and "compared in all" in messages[0]
    assert "stopped at the position limit" in render(result)


def test_play_bad_fen_is_exit_2(shogi_games, capsys):
    assert run_diff(["shogi", "shogi", "--play", "--fen", "not a fen"]) == 2
    assert "bad FEN" in capsys.readouterr().err
