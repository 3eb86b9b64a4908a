"""Betza strings whose parts partly overlap: every move is generated once.

resolve.merge_atoms removes the overlaps where one part covers another (`KW`); the
partial ones (a leap on a rider's line, riders of different ranges under different
conditions, a hopper landing where a leap does) are dropped by the generator for the
pieces lower.may_repeat_moves flags.  The oracle interpreter, which collects each
piece's targets in a set, is the reference."""

import pytest

import fairyforge as ff
from fairyforge.compiler.lower import may_repeat_moves
from fairyforge.compiler.resolve import load_variant
from oracle import Interpreter

DEFINITION = """\
variant overlaps "Partly overlapping Betza"
board 6x6
symmetry mirror
piece king K K royal
piece a A fRD          # the D leap is the rook's 2nd step when the square between is empty
piece b B fmWifmR2     # the first step twice on the initial squares
piece c C R2iR3        # steps 1-2 twice on the initial squares
piece d D DpR          # the cannon's landing square 2 beyond a screen next to it
piece e E RnD          # the lame D is exactly the rook's 2nd step
setup "5k/6/6/2e3/ABCD2/5K w - - 0 1"
"""


@pytest.fixture(scope="module")
def overlaps(tmp_path_factory):
    path = tmp_path_factory.mktemp("overlaps") / "overlaps.variant"
    path.write_text(DEFINITION)
    return str(path)


def test_partly_overlapping_pieces_are_flagged(overlaps):
    variant = load_variant(overlaps)
    flagged = {p.name for p in variant.pieces if may_repeat_moves(p.moves)}
    assert flagged == {"a", "b", "c", "d", "e"}
    chess = load_variant("chess")
    assert not any(may_repeat_moves(p.moves) for p in chess.pieces)


def test_each_move_is_generated_once(overlaps):
    game = ff.load(overlaps)
    oracle = Interpreter(load_variant(overlaps))
    pos = game.start()
    moves = [str(m) for m in pos.legal_moves()]
    assert len(moves) == len(set(moves))
    assert set(moves) == oracle.start().legal_moves()
    for depth in (1, 2, 3):
        assert pos.perft(depth) == oracle.start().perft(depth), depth
