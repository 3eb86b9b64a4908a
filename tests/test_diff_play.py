"""The play diff names moves as the Position API does (fairyforge diff --play)."""

from fairyforge.compiler.diff.play import _Walker

# WWII chess: Black's pawn on h3 promotes on h2.  Black's rook and bishop have other FEN
# letters than White's (C/r, I/b), so the promotion suffix depends on the side moving.
BLACK_PROMOTES = ("5q3/n1bp5/b5p1p/3rrpk2/1pG2p3/PP1n3G1/L1PRP1PpL/1BS2S3/1N2K2N1[] "
                  "b - - 1 40 w")


def test_play_diff_move_texts_follow_the_side_to_move(games):
    position = games["wwii"].position(BLACK_PROMOTES)
    texts = set(_Walker(position).moves())
    assert texts == {str(m) for m in position.legal_moves()}
    assert {"h3h2r", "h3h2b"} <= texts and not {"h3h2c", "h3h2i"} & texts
