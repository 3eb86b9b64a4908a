"""Why a duck move's text matches no legal move (`place a duck after every move`,
compiler/rules/walling.py): a move is written `e2e4,e4d5`, the move, a comma, its
destination again and the square the duck goes to, as Fairy-Stockfish writes it."""

import re

from .encoding import OFF
from .errors import IllegalMoveError, InvalidMoveError

SQUARE = re.compile(r"[a-z][0-9]{1,2}")


def why_not(position, text, explain_move):
    """The error for `text` in a game with a duck, or for a comma in one without;
    `explain_move(position, text)` explains a move text without the duck's part."""
    if position.game.variant.walling is None:
        return InvalidMoveError(text, f"'{text}' is not a move: a comma adds the duck's "
                                "square, and this game has no duck")
    base, comma, rest = text.partition(",")
    moves = [m for m in position.legal_moves() if m.uci.startswith(base + ",")]
    if not moves:                                    # the move itself is illegal
        error = explain_move(position, base)
        return type(error)(text, str(error).replace(base, text, 1))
    example = moves[0].uci
    if not comma:
        return IllegalMoveError(text, f"illegal move {text}: the duck must be placed "
                                f"after the move, as in {example}")
    dest = example.split(",")[1][:-len(moves[0].wall_square)]
    duck = rest[len(dest):]
    if not rest.startswith(dest) or not SQUARE.fullmatch(duck):
        return InvalidMoveError(text, f"'{text}' is not a move: after the comma come the "
                                f"move's destination {dest} and the duck's square, as in "
                                f"{example}")
    if duck not in position.game.notation.index_of_square:
        return InvalidMoveError(text, f"move {text}: {duck} is not on the board")
    return IllegalMoveError(text, f"illegal move {text}: the duck cannot go to {duck}: "
                            f"{_why_not_there(position, duck)}")


def _why_not_there(position, square):
    code = position.engine.board()[position.game.notation.compact_of_square[square]]
    if code == OFF:
        return "it stands there, and must move"
    return "the square is not empty after the move"
