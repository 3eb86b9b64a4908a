"""fairyforge.svg.board: the picture is valid XML and shows exactly the position.

Each test reads the drawn squares, pieces and hands back out of the SVG (by the data-
attributes every element carries) and compares them with the position's FEN, so a
piece drawn on the wrong square, a missing hand or a wrong count fails.
"""

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from fairyforge import svg
from fairyforge.fen import parse_board, parse_holdings

NS = "{http://www.w3.org/2000/svg}"


def parse(text):
    return ET.fromstring(text)


def elements(root, cls):
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def board_from_svg(root):
    return {e.get("data-square"): e.get("data-piece") for e in elements(root, "piece")}


def board_from_fen(fen, files, ranks):
    """{square name: token} of a FEN's board field."""
    tokens = _Tokens()
    placed = parse_board(fen.split()[0].split("[")[0], files, ranks, tokens)
    return {f"{chr(97 + f)}{r + 1}": token for (f, r), token in placed.items()}


def hands_from_fen(fen):
    field = re.search(r"\[([^\]]*)\]", fen)
    counts = {}
    for token in parse_holdings(field.group(1) if field else "", _Tokens()):
        side = "white" if token.lstrip("+")[0].isupper() else "black"
        counts[(side, token)] = counts.get((side, token), 0) + 1
    return counts


class _Tokens(dict):
    """A token table that maps every token to itself (for reading FENs back)."""

    def __contains__(self, key):
        return True

    def __getitem__(self, key):
        return key


def hands_from_svg(root):
    return {(e.get("data-side"), e.get("data-piece")): int(e.get("data-count"))
            for e in elements(root, "hand-piece")}


def check_picture(pos):
    meta = pos.game.meta
    files, ranks = meta["files"], meta["ranks"]
    root = parse(svg.board(pos))
    assert root.tag == NS + "svg"
    squares = {e.get("data-square") for e in elements(root, "square")}
    assert len(elements(root, "square")) == files * ranks
    assert squares == {f"{chr(97 + f)}{r + 1}" for f in range(files) for r in range(ranks)}
    assert board_from_svg(root) == board_from_fen(pos.fen(), files, ranks)
    assert hands_from_svg(root) == hands_from_fen(pos.fen())
    sides = {e.get("data-side") for e in elements(root, "piece")}
    assert sides <= {"white", "black"}
    return root


def play(pos, ucis):
    for text in ucis:
        pos.push_uci(text)
    return pos


@pytest.mark.parametrize("name", ["chess", "shogi", "xiangqi", "kjartansson"])
def test_start_positions_drawn_exactly(games, name):
    root = check_picture(games[name].start())
    layout = (games[name].meta["files"], games[name].meta["ranks"])
    assert (root.get("data-files"), root.get("data-ranks")) == tuple(map(str, layout))


def test_kjartansson_9x14_after_captures_shows_hands(games):
    pos = games["kjartansson"].position(
        "lrba1abr1/ce1g1cme1/3ks1g2/3hn1C1l/3p3qp/p1p1ppp2/3p1P3/q6PP/2PP4L/"
        "PM1+p1PP2/1Q3H3/1C1KS2N1/+pEG3GE1/LRBAQABR1[PPSg] w - - 5 31")
    root = check_picture(pos)
    assert hands_from_svg(root) == {("white", "P"): 2, ("white", "S"): 1, ("black", "g"): 1}
    assert len(elements(root, "square")) == 9 * 14


def test_shogi_hands_and_pieces_after_a_capture(games):
    pos = play(games["shogi"].start(), ["c3c4", "g7g6", "b2h8+", "g9h8"])
    root = check_picture(pos)
    assert hands_from_svg(root) == {("white", "B"): 1, ("black", "b"): 1}
    drop = next(e for e in elements(root, "hand-piece") if e.get("data-side") == "black")
    assert drop.get("data-drop") == "B"
    # Shogi pieces are pentagons; the second player's are turned to face the first.
    black_piece = next(e for e in elements(root, "piece") if e.get("data-side") == "black")
    assert black_piece.find(f"{NS}g").get("transform") == "rotate(180)"
    assert black_piece.find(f".//{NS}path") is not None


def test_xiangqi_pieces_are_discs_with_characters(games):
    root = check_picture(games["xiangqi"].start())
    general = next(e for e in elements(root, "piece") if e.get("data-square") == "e1")
    assert general.find(f"{NS}circle") is not None
    assert general.find(f"{NS}text").text == "\u5e25"


def test_chess_pieces_are_chess_symbols(games):
    root = check_picture(games["chess"].start())
    king = next(e for e in elements(root, "piece") if e.get("data-square") == "e8")
    assert king.find(f"{NS}text").text.startswith("\u265a")


def test_crazyhouse_hand_counts(games):
    pos = play(games["crazyhouse"].start(), ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a2",
                                             "a1a2"])
    root = check_picture(pos)
    assert hands_from_svg(root) == {("white", "P"): 1, ("white", "Q"): 1, ("black", "p"): 2}


def test_flipped_puts_the_last_rank_at_the_bottom(games):
    pos = games["chess"].start()

    def y_of(text, square):
        rect = next(e for e in elements(parse(text), "square") if e.get("data-square") == square)
        return float(rect.get("y"))
    plain, flipped = svg.board(pos), svg.board(pos, flipped=True)
    assert y_of(plain, "a1") > y_of(plain, "a8")
    assert y_of(flipped, "a1") < y_of(flipped, "a8")


def test_lastmove_check_and_arrows(games):
    pos = play(games["chess"].start(), ["f2f3", "e7e5", "g2g4", "d8h4"])
    root = parse(svg.board(pos, lastmove=pos.move_stack[-1], check=True,
                           arrows=[("e1", "f2"), "h4e1"]))
    tinted = {e.get("data-square") for e in elements(root, "lastmove")}
    assert tinted == {"d8", "h4"}
    assert [e.get("data-square") for e in elements(root, "check")] == ["e1"]
    assert [(e.get("data-from"), e.get("data-to")) for e in elements(root, "arrow")] == \
        [("e1", "f2"), ("h4", "e1")]
    with pytest.raises(ValueError):
        svg.board(pos, arrows=[("e1", "z9")])


def test_regions_from_the_rule_model(games):
    xiangqi = parse(svg.board(games["xiangqi"].start(), regions=("palace", "river")))
    palace = next(e for e in elements(xiangqi, "region") if "palace" in e.get("class"))
    assert len(palace) == 18                       # two palaces of 3x3 points
    river = next(e for e in elements(xiangqi, "region") if "river" in e.get("class"))
    assert len(river) == 1                         # between ranks 5 and 6
    shogi = parse(svg.board(games["shogi"].start(), regions=("promotion", "drop",
                                                             ["e5", "e6"])))
    zones = [e for e in elements(shogi, "region") if "promotion" in e.get("class")]
    assert [len(z) for z in zones] == [27, 27]
    marked = next(e for e in elements(shogi, "region") if "marked" in e.get("class"))
    assert {r.get("data-square") for r in marked} == {"e5", "e6"}
    with pytest.raises(ValueError):
        svg.board(games["shogi"].start(), regions=("moat",))


def test_a_16x16_board(tmp_path):
    import fairyforge as ff
    path = tmp_path / "big.variant"
    path.write_text('variant big "Big"\nboard 16x16\nsymmetry mirror\n'
                    "piece king K K royal\npiece rook R R\n"
                    'setup "r14k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K13R1 w - - 0 1"\n')
    pos = ff.load(str(path)).start()
    root = check_picture(pos)
    labels = [e.text for e in root.iter(NS + "text") if (e.text or "").isdigit()]
    assert "16" in labels and "p" in [e.text for e in root.iter(NS + "text")]


def test_repr_svg_and_cli(games, tmp_path):
    pos = play(games["shogi"].start(), ["c3c4"])
    root = parse(pos._repr_svg_())
    assert {e.get("data-square") for e in elements(root, "lastmove")} == {"c3", "c4"}
    out = tmp_path / "xiangqi.svg"
    done = subprocess.run([sys.executable, "-m", "fairyforge.cli", "show", "xiangqi",
                           "--svg", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert board_from_svg(parse(out.read_text())) == board_from_fen(
        games["xiangqi"].start_fen, 9, 10)
    bad = subprocess.run([sys.executable, "-m", "fairyforge.cli", "show", "xiangqi",
                          "--svg", str(tmp_path / "no" / "such" / "dir.svg")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "cannot write" in bad.stderr
