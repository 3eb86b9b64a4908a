"""`fairyforge import` (variants.ini sections into definitions) and `fairyforge export`
(a game into a variants.ini section): runtime/interop/.

Small ini examples of the tests' own: the reader, the mapping of each supported option
to its statement, the refusals (section, option, line and reason), parent chains, and
pyffish as the oracle: imported games against pyffish loading the same ini, and
exported classics loaded back into pyffish (`load_variant_config`), compared on random
playouts (every legal move list, and every game end of a goal rule).
"""

import random

import pytest

import fairyforge as ff
from fairyforge import interop
from fairyforge.cli import main
from fairyforge.compiler import loader, parse, resolve
from fairyforge.interop.export import ExportRefusal, export_variant
from fsf_playouts import compare_playouts

sf = pytest.importorskip("pyffish")


def imported(ini, section, tmp_path=None):
    """The definition text of one section, which must also pass `fairyforge check`."""
    path = str(tmp_path / f"{section}.variant") if tmp_path else f"{section}.variant"
    text = interop.translate(interop.read_ini(ini), section, "test.ini", path).text
    resolve.resolve(parse.parse_text(text, path))          # raises DefinitionError
    return text


def statements(text):
    """The definition's statements without comments, one per line."""
    return [line.split("  #")[0].strip() for line in text.splitlines()
            if line.strip() and not line.startswith("#")]


# --- the reader -------------------------------------------------------------------

def test_the_reader_keeps_sections_parents_lines_and_the_last_repeated_key():
    sections = interop.read_ini("# a comment\n[a]\nmaxRank = 6\n; another\n"
                                "[b:a]\nmaxFile = 5\nmaxFile = 7\n")
    assert list(sections) == ["a", "b"]
    assert sections["b"].parent == "a" and sections["b"].line == 5
    assert sections["b"].options["maxFile"].value == "7"
    assert sections["b"].options["maxFile"].line == 7
    assert sections["b"].repeated == [("maxFile", 6)]


@pytest.mark.parametrize("text, message", [
    ("maxRank = 6\n", "test.ini:1: option outside a section"),
    ("[a]\nnonsense\n", "test.ini:2: expected 'key = value'"),
    ("[a]\n[a]\n", "test.ini:2: section [a] is already defined on line 1"),
])
def test_the_reader_names_the_line_of_a_bad_ini(text, message):
    with pytest.raises(interop.IniError, match=message.replace("[", r"\[")):
        interop.read_ini(text, "test.ini")


# --- options mapped to statements ---------------------------------------------------

BASE = """[mini]
king = k
rook = r
pawn = p
maxRank = 6
maxFile = 6
startFen = r1k3/pppppp/6/6/PPPPPP/R1K3 w - - 0 1
castling = false
"""


PIECE_PROMOTION = ("customPiece1 = a:W\npromotedPieceType = r:a\npromotionRegionWhite = *6\n"
                   "promotionRegionBlack = *1")


@pytest.mark.parametrize("options, expected", [
    ("", "board 6x6"),
    ("", "piece king K K royal"),
    ("", "piece pawn P fmWfcFifmnD"),
    ("", "initial pawn in double_step"),
    # Fairy-Stockfish's default regions are ranks of an 8-rank board: on 6 ranks Black's
    # double-step rank (7) is off the board, so Black's pawns never step twice.
    ("", "region double_step for white = rank 2"),
    ("", "region double_step for black = all except all"),
    ("doubleStep = false", "piece pawn P fmWfcF"),
    ("customPiece1 = a:NN", "piece custom1 A NN"),
    ("promotionPieceTypes = r\npromotionRegionWhite = *6\npromotionRegionBlack = *1",
     "promote pawn to rook in promotion_zone forced in promotion_zone"),
    ("promotionRegionWhite = *5 *6\npromotionRegionBlack = *1 *2",
     "region promotion_zone = ranks 5-6"),
    ("stalemateValue = loss", "stalemate loss"),
    ("nFoldRule = 4\nnFoldValue = loss", "repetition 4 loss"),
    ("perpetualCheckIllegal = true", "perpetual check loses"),
    ("nMoveRule = 20", "move rule 20"),
    ("checking = false", "no checks"),
    ("flyingGeneral = true", "no facing kings"),
    ("flagPiece = k\nflagRegionWhite = *6\nflagRegionBlack = *1",
     "win by king reaching goal"),
    ("flagPiece = k\nflagRegionWhite = *6\nflagRegionBlack = *6\nflagMove = true",
     "win by king reaching goal, black may reply"),
    ("extinctionValue = loss\nextinctionPieceTypes = r", "win by extinction of rook"),
    ("extinctionValue = loss\nextinctionPieceTypes = *\nextinctionPieceCount = 1\n"
     "extinctionOpponentPieceCount = 2\nextinctionClaim = true",
     "bare king loses, unless bared back"),
    ("pieceDrops = true\ncapturesToHand = true", "captures go to hand"),
    ("pieceDrops = true\ncapturesToHand = true", "drop pawn in (drop_zone except "
                                                 "promotion_zone except rank 1)"),
    ("pieceDrops = true\ncapturesToHand = true\ndropNoDoubled = r",
     "drop rook in drop_zone not doubled"),
    ("pieceDrops = true\ndropRegionWhite = *1 *2\ndropRegionBlack = *5 *6",
     "region drop_zone = ranks 1-2"),
    ("mobilityRegionWhiteRook = *1 *2\nmobilityRegionBlackRook = *5 *6",
     "confine rook to rook_region"),
    ("pieceToCharTable = PR..K", "stalemate draw"),          # GUI only: left as a comment
    ("soldier = s\nsoldierPromotionRank = 4", "move soldier sW in across"),
    # Fairy-Stockfish reads `b - 0 1` as castling -, en passant 0 (none), halfmove 1
    ("startFen = r1k3/pppppp/6/6/PPPPPP/R1K3 b - 0 1",
     'setup "r1k3/pppppp/6/6/PPPPPP/R1K3 b - - 1 1"'),
    (PIECE_PROMOTION, "piece promoted_rook +R W"),
    (PIECE_PROMOTION, "promote rook to promoted_rook in promotion_zone on entering or leaving"),
    (PIECE_PROMOTION + "\nmandatoryPiecePromotion = true",
     "promote rook to promoted_rook in promotion_zone on entering or leaving forced in all"),
    ("soldier = s\nsoldierPromotionRank = 4", "region across = ranks 4-6"),
    ("mustCapture = true", "captures are compulsory"),
    ("checkmateValue = win", "checkmate win"),
    ("stalemateValue = win\nstalematePieceCount = true", "stalemate win for fewer pieces"),
    ("nFoldValue = loss\nnFoldValueAbsolute = true", "repetition 3 loss for white"),
    ("extinctionValue = win\nextinctionPieceTypes = *\nextinctionPieceCount = 1",
     "win by losing all pieces"),
    ("extinctionValue = win\nextinctionPieceTypes = r", "win by losing all of rook"),
    ("checkCounting = true\nstartFen = r1k3/pppppp/6/6/PPPPPP/R1K3 w - - 5+5 0 1",
     "win by 5 checks"),
    ("checkCounting = true", "win by 1 check"),       # no counter in the FEN: 1 each
    ("king = -\ncommoner = k", "piece unowned -/- K royal"),
    ("king = -\ncommoner = k", "piece commoner K K"),
    ("silver = s\nknight = n\ncountingRule = makruk",
     "counting makruk with pawn, rook, silver, knight"),
])
def test_each_supported_option_becomes_its_statement(options, expected):
    assert expected in statements(imported(BASE + options + "\n", "mini"))


def test_per_side_regions_that_are_not_mirror_images_are_written_for_each_side():
    text = imported(BASE + "flagPiece = k\nflagRegionWhite = a6\nflagRegionBlack = f1\n",
                    "mini")
    assert {"region goal for white = a6", "region goal for black = f1"} <= set(statements(text))
    text = imported(BASE + "flagPiece = k\nflagRegionWhite = a6\nflagRegionBlack = a1\n",
                    "mini")
    assert "region goal = a6" in statements(text)                # a mirror image: one line


def test_each_statement_says_which_option_it_came_from():
    text = imported(BASE + "stalemateValue = loss\n", "mini")
    assert "stalemate loss" in text
    line = next(line for line in text.splitlines() if line.startswith("stalemate"))
    assert line.endswith("# stalemateValue = loss (line 9)")


def test_castling_follows_the_start_position_and_its_rights():
    ini = ("[cast]\nking = k\nrook = r\nmaxFile = 6\nmaxRank = 6\ncastlingKingsideFile = f\n"
           "castlingQueensideFile = b\nstartFen = r2k1r/6/6/6/6/R2K1R w Kq - 0 1\n")
    found = [line for line in statements(imported(ini, "cast")) if line.startswith("castling")]
    assert found == ["castling for white king d1 to f1, rook f1 to e1",     # K
                     "castling for black king d6 to b6, rook a6 to c6"]     # q
    with pytest.raises(interop.ImportRefusal, match="cast: castlingKingsideFile = e "
                                                    r"\(line 6\): a castling in which the "
                                                    "king moves one square"):
        imported(ini.replace("castlingKingsideFile = f", "castlingKingsideFile = e"), "cast")


# --- refusals -----------------------------------------------------------------------

@pytest.mark.parametrize("options, option, reason", [
    ("gating = true", "gating = true", "without seirawanGating or cambodianMoves"),
    ("mustDropType = p", "mustDropType = p", "compulsory drops of one type only"),
    ("dropChecks = false", "dropChecks = false", "forbidding checks by drops"),
    ("extinctionPieceTypes = rp\nextinctionValue = win", "extinctionPieceTypes = rp",
     "for one non-royal type"),
    ("startFen = r1k3/pppppp/6/6/PPPPPP/R1K3 w - - 3+2 0 1\ncheckCounting = true",
     "startFen = r1k3/pppppp/6/6/PPPPPP/R1K3 w - - 3+2 0 1", "checks to give that differ"),
    ("cambodianMoves = true", "cambodianMoves = true", "needs gating = true"),
    ("countingRule = cambodian", "countingRule = cambodian", "the game has no silver"),
    ("passOnStalemate = true", "passOnStalemate = true", "passing on stalemate"),
    ("countingRule = makruk", "countingRule = makruk", "the game has no silver"),
    ("flagPieceCount = 2", "flagPieceCount = 2", "flagPieceCount"),
    ("colourless = 3", "colourless = 3", "unknown option"),
    ("customPiece1 = a:mafsW", "customPiece1 = a:mafsW", "cannot express it yet"),
    ("startFen = r1k3/pppppp/6/6/PPPPPP/R1K3 w - 0 1",
     "startFen = r1k3/pppppp/6/6/PPPPPP/R1K3 w - 0 1", "a halfmove clock of 1 before any"),
])
def test_an_option_that_cannot_be_expressed_is_refused_with_section_option_and_line(
        options, option, reason):
    with pytest.raises(interop.ImportRefusal) as refusal:
        imported(BASE + options + "\n", "mini")
    message = str(refusal.value)
    assert message.startswith(f"mini: {option} (line 9): ")
    assert reason in message
    assert refusal.value.line == 9 and refusal.value.section == "mini"


def test_a_default_value_of_an_unsupported_option_is_no_problem():
    assert "board 6x6" in statements(imported(BASE + "gating = false\nmustDrop = false\n",
                                              "mini"))


def test_an_unknown_built_in_parent_is_refused_naming_it():
    with pytest.raises(interop.ImportRefusal, match="the parent 'bughouse' is a "
                                                    "Fairy-Stockfish built-in variant"):
        imported("[x:bughouse]\nmaxRank = 8\n", "x")


def test_an_inheritance_cycle_is_refused():
    with pytest.raises(interop.ImportRefusal, match="cycle"):
        imported("[a:b]\nmaxRank = 6\n[b:a]\nmaxRank = 7\n", "a")


# --- parents ------------------------------------------------------------------------

CHAIN = """[hill:kingofthehill]
startFen = 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1
[hill2:hill]
king = k:KN
[nopawns:chess]
pawn = -
startFen = rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq - 0 1
"""


def test_a_bundled_parent_is_extended_and_only_the_changes_written():
    text = imported(CHAIN, "hill2")
    found = statements(text)
    assert found[0] == 'variant hill2 "hill2" extends kingofthehill'
    assert "piece king K KN royal" in found
    assert 'setup "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"' in found
    assert "Its ini ancestors: hill <- hill2" in text
    assert not any(line.startswith("board") for line in found)


def test_a_child_of_xiangqi_changes_only_what_it_says():
    found = statements(imported("[xqh:xiangqi]\nnMoveRule = 60\n"
                                "startFen = rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/"
                                "RNBAK1BNR w - - 0 1\n", "xqh"))
    assert found[0] == 'variant xqh "xqh" extends xiangqi'
    assert {"move rule 60, restarted by captures only",
            'setup "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAK1BNR w - - 0 1"'} \
        <= set(found)
    assert not any(line.startswith("piece") for line in found)


def test_drops_of_confined_pieces_are_judged_inside_their_region():
    # xiangqi's elephants never leave their half, so they are never dropped where they
    # could not move: no `stuck pieces allowed`
    found = statements(imported("[xqh:xiangqi]\npieceDrops = true\ncapturesToHand = true\n"
                                "startFen = rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/"
                                "RNBAKABNR[] w - - 0 1\n", "xqh"))
    assert "drop all in drop_zone" in found and "stuck pieces allowed" not in found


def test_a_parent_piece_taken_out_writes_the_whole_game():
    found = statements(imported(CHAIN, "nopawns"))
    assert found[0] == 'variant nopawns "nopawns"'
    assert not any(line.startswith("piece pawn") for line in found)
    assert "castling for white king e1 to g1, rook h1 to f1" in found


# --- the command --------------------------------------------------------------------

def test_import_writes_files_refuses_to_overwrite_and_summarises(tmp_path, capsys):
    ini = tmp_path / "mine.ini"
    ini.write_text(BASE + "[seirawan:chess]\ngating = true\n")
    out = tmp_path / "out"
    assert main(["import", str(ini), "-o", str(out)]) == 2
    captured = capsys.readouterr()
    assert (out / "mini.variant").exists() and not (out / "seirawan.variant").exists()
    assert "seirawan: gating = true (line 10): gating rights without seirawanGating" \
        in captured.err
    assert "imported 1, refused 1" in captured.err
    assert main(["check", str(out / "mini.variant")]) == 0
    assert main(["import", str(ini), "mini", "-o", str(out)]) == 2
    assert "exists (use --force" in capsys.readouterr().err
    assert main(["import", str(ini), "mini", "-o", str(out), "--force"]) == 0
    assert main(["import", str(ini), "nothere", "-o", str(out)]) == 2
    assert "has no section nothere" in capsys.readouterr().err


def test_export_writes_a_section_or_refuses_with_the_reason(tmp_path, capsys):
    target = tmp_path / "chess.ini"
    assert main(["export", "chess", "-o", str(target)]) == 0
    assert target.read_text().splitlines()[1] == "[chess]"
    assert main(["export", "wwii"]) == 2
    assert "per-side capture dispositions" in capsys.readouterr().err


@pytest.mark.parametrize("game, reason", [
    ("wwii", "per-side capture dispositions"),
    ("ichess", "deployment phase"),
    ("frontofhouse", "captured pieces that change type"),
    ("kjartansson", "captured pieces that change type"),
])
def test_export_refuses_what_fairy_stockfish_cannot_express(game, reason):
    with pytest.raises(ExportRefusal, match=reason):
        export_variant(loader.load_variant(game))


# --- pyffish as the oracle -----------------------------------------------------------

# Two small imports of the tests' own: a 6x6 game with a custom piece, drops and a goal,
# and a child of chess with a centaur king; pyffish loads the same text.
ORACLE_INI = """[interop-six]
king = k
rook = r
pawn = p
customPiece1 = a:NN
maxRank = 6
maxFile = 6
startFen = ra1k2/pppppp/6/6/PPPPPP/RA1K2[] w - - 0 1
castling = false
promotionPieceTypes = ra
promotionRegionWhite = *6
promotionRegionBlack = *1
pieceDrops = true
capturesToHand = true
stalemateValue = loss
flagPiece = k
flagRegionWhite = *6
flagRegionBlack = *1
[interop-centaur:chess]
king = k:KN
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
"""


def build_imports(ini, names, folder):
    """{section: built game} of sections of `ini` imported into `folder`, after pyffish
    has loaded the same ini."""
    sf.load_variant_config(ini)
    sections = interop.read_ini(ini)
    games = {}
    for name in names or sections:
        path = folder / f"{name}.variant"
        path.write_text(interop.translate(sections, name, "test.ini", str(path)).text)
        games[name] = ff.load(str(path))
    return games


@pytest.fixture(scope="module")
def oracle_games(tmp_path_factory):
    return build_imports(ORACLE_INI, None, tmp_path_factory.mktemp("imported"))


@pytest.mark.parametrize("name", ["interop-six", "interop-centaur"])
def test_an_imported_game_plays_as_pyffish_plays_the_ini(oracle_games, name):
    game = oracle_games[name]
    fen = sf.get_fen(name, sf.start_fen(name), [])
    assert game.start().fen() == fen
    compare_playouts(sf, game, name, fen, count=150, seed=5, reason="goal reached")


CLASSICS = ["chess", "shogi", "xiangqi", "crazyhouse", "shatranj", "chaturanga",
            "kingofthehill", "racingkings"]


@pytest.mark.parametrize("name", CLASSICS)
def test_an_exported_classic_round_trips_through_pyffish(games, name):
    game = games[name]
    section = f"interop-rt-{name}"
    sf.load_variant_config(export_variant(game.variant, name=section))
    fen = game.start().fen()
    assert sf.get_fen(section, sf.start_fen(section), []) == fen
    _same_moves(game, section, fen, positions=120, seed=3)


def _same_moves(game, section, fen, positions, seed):
    rng, seen = random.Random(seed), 0
    while seen < positions:
        pos, moves = game.start(), []
        for _ in range(80):
            ours = sorted(str(m) for m in pos.legal_moves())
            assert ours == sorted(sf.legal_moves(section, fen, moves)), moves
            seen += 1
            if not ours:
                break
            move = rng.choice(ours)
            moves.append(move)
            pos.push_uci(move)


def test_every_option_has_an_entry_and_a_row_in_coming_from_fairy_stockfish():
    import os
    from fairyforge.interop import fsf, options
    assert set(fsf.DEFAULTS) <= set(options.OPTIONS)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(here, "docs", "language.md"), encoding="utf-8") as handle:
        page = handle.read().split("## 7. Coming from Fairy-Stockfish")[1]
    for option in [*options.OPTIONS, *fsf.BOTH_SIDES]:
        assert f"| `{option}` |" in page, option
