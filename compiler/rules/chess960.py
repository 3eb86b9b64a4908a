"""`chess960 castling`: castling as Chess960 plays and writes it (Fairy-Stockfish's
chess960 = true, or its UCI_Chess960 switch).  The castling king and rooks stand
where the position's FEN puts them: the king anywhere on its first rank, `K`/`Q` the
outermost rook on that side, a file letter (Shredder-FEN: `HAha`) the rook on that
file.  Each `castling` statement of the game gives one side's option on one wing and
its destinations (the king to g1 or c1, the rook beside it); a king already on its
destination castles without moving.  Every square between the king, the rook and
their destinations must be empty but for the two, and no square of the king's path
attacked.  A castling move is written as the king taking its own rook (`e1h1`,
`g1h1`), and the FEN names each right by its rook's file (`HAha`, `GDgd`).

Engine: CHESS960 (templates/engine.pyx.j2, gen_castling_960) keeps the king's and
rooks' squares in Pos.castle_king/castle_rook (Engine.set_castling_squares, set with
the FEN), and make's castling_lost clears a right whose king or rook leaves or is
taken.  `read_rights` reads the FEN field; runtime/move.py writes the castling move
and runtime/fen_out.py the rights.  Oracle: pyffish with is960=True (fischerandom,
caparandom, and FSF's perft rows of atomic, extinction and seirawan under
UCI_Chess960: tests/test_fsf_catalog.py, tests/test_chess960_fen.py).
"""

from dataclasses import dataclass

from fairyforge.fen import square_name

from ..nodes import Node
from . import gating

ORDER = 13

GRAMMAR = '''
// chess960 castling: castling written as the king taking its rook (e1h1), rights by file (HAha)
chess960_decl: "chess960" "castling"
'''
KEYWORDS = ("chess960",)


@dataclass
class Chess960Castling(Node):
    pass


STATEMENTS = {"chess960_decl": Chess960Castling}
FIELDS = [("chess960_castling", bool, False)]


def resolve(nodes, context):
    if nodes and not context.lists["castling"]:
        context.error(nodes[-1], None, "chess960 castling: the game has no castling "
                      "(write a `castling` statement first)")
    return {"chess960_castling": bool(nodes)}


SIDES = ("white", "black")


def options(rules):
    """(colour, "K" or "Q") -> (castling bit, rook (type, colour), king (type, colour)):
    each `castling` statement as an option on one wing.  `rules` is the PositionRules."""
    out = {}
    for letter, (colour, _, _, rook_piece, king_piece) in rules.castling.items():
        out[(colour, letter.upper())] = (rules.castling_bits[letter], rook_piece, king_piece)
    return out


def _outermost_rook(board, rook_piece, files, rank, wing):
    """The square of the outermost `rook_piece` on `rank` scanning from the wing's
    corner (Fairy-Stockfish's K and Q), or None."""
    order = range(files - 1, -1, -1) if wing == "K" else range(files)
    return next(((f, rank) for f in order if board.get((f, rank)) == rook_piece), None)


def _castling_king(board, king_piece, rank, rook_square):
    """The castling king's square: a king on the letter's own file (Fairy-Stockfish's
    disambiguation, `EAH`), else the first on its rank; None if there is none."""
    if board.get(rook_square) == king_piece:
        return rook_square
    kings = sorted(sq for sq, piece in board.items() if piece == king_piece and sq[1] == rank)
    return kings[0] if kings else None


def read_rights(rules, parsed):
    """({castling bit: (king square, rook square)}, gated squares, problems) of a FEN's
    castling field under `chess960 castling`, read as Fairy-Stockfish reads it in
    Chess960 mode: `K`/`Q` the outermost rook on that side of the board, a file letter
    the rook on that file, the king wherever it stands on its first rank.  In a game
    with gating (compiler/rules/gating.py) a file letter of a side that holds pieces
    gates that square, and `K`/`Q` gate the king's and the rook's squares too; a side
    whose king's square is gated but that was given no castling right castles with
    every gated rook.  Squares are (file, rank) pairs."""
    v, board = rules.v, parsed.board
    by_wing, rights, kings, gates, problems = options(rules), {}, {}, set(), []
    text = "" if parsed.castling == "-" else parsed.castling
    for token in text:
        colour, up = (0 if token.isupper() else 1), token.upper()
        rank = 0 if colour == 0 else v.ranks - 1
        option = by_wing.get((colour, "K")) or by_wing.get((colour, "Q"))
        if option is None or not (up in "KQ" or 0 <= ord(up) - ord("A") < v.files):
            last = chr(ord("a") + v.files - 1)
            problems.append(("castling", f"'{token}' is not a castling right of this game "
                             f"(rights: K, Q or a rook's file A-{last.upper()} for White; "
                             f"k, q or a-{last} for Black)"))
            continue
        rook_piece, king_piece = option[1], option[2]
        square = (_outermost_rook(board, rook_piece, v.files, rank, up) if up in "KQ"
                  else (ord(up) - ord("A"), rank))
        if square is None:
            problems.append(("castling", f"'{token}': no {SIDES[colour]} rook on its first "
                             "rank to castle with"))
            continue
        if colour not in kings:
            kings[colour] = _castling_king(board, king_piece, rank, square)
        king = kings[colour]
        if v.gate_pieces and _gates(rules, parsed, token, square, king, gates, problems):
            continue
        problem = _right(by_wing, rights, token, colour, king, square, board, rook_piece)
        if problem:
            problems.append(("castling", problem))
    if v.gate_pieces:
        _gated_castling(rules, parsed, by_wing, rights, kings, gates)
    return rights, gates, problems


def _right(by_wing, rights, token, colour, king, square, board, rook_piece):
    """Record the castling right a letter gives (None), or say why it gives none."""
    side = SIDES[colour]
    if king is None:
        return f"'{token}': no {side} king on its first rank to castle"
    if square == king:
        return None                 # the king's own file: it names the king (`EAH`)
    if board.get(square) != rook_piece:
        return f"'{token}': no {side} piece to castle with on {square_name(*square)}"
    wing = "K" if square[0] > king[0] else "Q"
    option = by_wing.get((colour, wing))
    if option is None:
        return f"'{token}': {side} has no castling on that side of its king"
    if rights.get(option[0]) == (king, square):
        return f"'{token}' is given twice (the {side} rook on {square_name(*square)})"
    if option[0] in rights:
        return f"'{token}': {side} is given two castling rights on one side of its king"
    rights[option[0]] = (king, square)
    return None


def _gates(rules, parsed, token, square, king, gates, problems):
    """Gating (Fairy-Stockfish's seirawan gating): the squares a letter gates; True if
    the letter is only a gate (a file letter of a side that holds pieces)."""
    colour = 0 if token.isupper() else 1
    if parsed.board.get(square, (None, None))[1] == colour:
        gates.add(square)
    if token.upper() in "KQ" and king is not None:
        gates.add(king)
        return False
    if not gating.may_hold(rules.v, parsed, colour):
        return False
    if parsed.board.get(square, (None, None))[1] != colour:
        problems.append(("castling", f"'{token}': no {SIDES[colour]} piece on "
                         f"{square_name(*square)} to gate from"))
    return True


def _gated_castling(rules, parsed, by_wing, rights, kings, gates):
    """A side that holds pieces, whose king's square is gated and that was given no
    castling right, castles with every gated rook (Fairy-Stockfish's `ABCDEFGH`)."""
    for colour in (0, 1):
        option = by_wing.get((colour, "K")) or by_wing.get((colour, "Q"))
        if option is None or any(by_wing.get((colour, w), (None,))[0] in rights for w in "KQ"):
            continue
        rank = 0 if colour == 0 else rules.v.ranks - 1
        king = kings.get(colour) or _castling_king(parsed.board, option[2], rank, None)
        if king is None or king not in gates or not gating.may_hold(rules.v, parsed, colour):
            continue
        for square in sorted(gates):         # (a later rook on one wing replaces, as in FSF)
            wing = by_wing.get((colour, "K" if square[0] > king[0] else "Q"))
            if square[1] == rank and square != king and wing is not None \
                    and parsed.board.get(square) == option[1]:
                rights[wing[0]] = (king, square)


def lower(variant, lowerer):
    return {"on": variant.chess960_castling}


def active(tables):
    return False                    # no partial: the engine's moves are the same


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    words.flag_wording("chess960_castling", "special", "castling notation",
                       "castling written as the king taking its rook (e1h1), rights by file (HAha)",
                       "castling written as the king's move (e1g1), rights as KQkq")
