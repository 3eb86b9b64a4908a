"""The engine's bit layouts: how a move and a piece are packed into integers.

This module is the one place that knows them.  The runtime decodes moves with the
functions below, and the code generator writes the same layout into every engine as
Cython constants and inline functions (`cython_source`), so the two can never drift.

Move (32 bits)::

    bits  0-8   from square (a board-array index); for a drop, 0, or the hand's type + 1
                when the piece is dropped turned over (`either side up`: the selector
                holds the type placed on the board)
    bits  9-17  to square
    bits 18-24  "selector": the promotion or dropped type + 1, or the castling index;
                0 for a plain move
    bits 25-28  flags: drop, castling, en passant capture, double step
    bits 29-31  gate: in a game with gating (compiler/rules/gating.py), 0 or the slot
                (1-7) of the piece type put from the hand on the square the move leaves;
                a castling that gates on its rook's square rather than the king's
                carries F_GATE_ON_ROOK (the double step's bit: a castling never has it)

In a game with wall placements (`after each move place a duck`, compiler/rules/walling.py)
moves are 64 bits wide, and bits 32-40 hold the square the mover puts the wall (the
duck) on (0: none); every other game keeps 32-bit moves (`move_t` in the engine).

A pass (`passing allowed`) is the royal piece's null move: a board move (no flag, no
selector) whose from and to squares are the same, as Fairy-Stockfish writes it (e2e2).

Piece code (one byte on the board): 0 empty, 1 off the board, else 2 + 2 * type + colour
(colour 0 White, 1 Black), so `code & 1` is the colour and `(code >> 1) - 1` the type.

The widths are the language's limits (`check_limits` names them in errors): at most
`MAX_TYPES` piece types, board arrays of at most `MAX_ARRAY_SQUARES` cells.
"""

SQUARE_BITS = 9
SELECTOR_BITS = 7
TO_SHIFT = SQUARE_BITS
SELECTOR_SHIFT = 2 * SQUARE_BITS
FLAG_SHIFT = SELECTOR_SHIFT + SELECTOR_BITS

SQUARE_MASK = (1 << SQUARE_BITS) - 1
SELECTOR_MASK = (1 << SELECTOR_BITS) - 1

WALL_SHIFT = 32                  # wide moves only: the wall square

F_DROP = 1 << FLAG_SHIFT
F_CASTLE = 1 << (FLAG_SHIFT + 1)
F_EP = 1 << (FLAG_SHIFT + 2)
F_DOUBLE = 1 << (FLAG_SHIFT + 3)
F_GATE_ON_ROOK = F_DOUBLE        # only ever together with F_CASTLE
FLAGS = {"F_DROP": F_DROP, "F_CASTLE": F_CASTLE, "F_EP": F_EP, "F_DOUBLE": F_DOUBLE,
         "F_GATE_ON_ROOK": F_GATE_ON_ROOK}
GATE_SHIFT = FLAG_SHIFT + 4
GATE_BITS = 3
MAX_GATE_TYPES = (1 << GATE_BITS) - 1

EMPTY, OFF = 0, 1
FIRST_PIECE_CODE = 2

MAX_FILES = MAX_RANKS = 16       # the language's largest board
MAX_HAND = 64                    # hand counts stay below this (Zobrist keys per count)
MAX_ARRAY_SQUARES = 1 << SQUARE_BITS
# A selector holds type + 1 and a piece code must fit in an unsigned char:
# 2 + 2 * type + 1 <= 255 and type + 1 <= 127 both give 126 types (0..125).
MAX_TYPES = min(SELECTOR_MASK - 1, (255 - 1 - FIRST_PIECE_CODE) // 2 + 1)
MAX_CASTLINGS = SELECTOR_MASK + 1
# Move lists: every list (one per search ply) holds the game's bound on pseudo-legal
# moves in one position; past 2^18 (1 MB a list, 64 MB for a search's lists) a game is
# refused rather than given lists a crowded position could overflow.
MAX_MOVES = 1 << 18


# -- moves -------------------------------------------------------------------------------
def move_from(move):
    return move & SQUARE_MASK


def move_to(move):
    return (move >> TO_SHIFT) & SQUARE_MASK


def move_selector(move):
    return (move >> SELECTOR_SHIFT) & SELECTOR_MASK


def selected_type(move):
    """The promotion or dropped type of a move, or None (castling uses the selector
    for its index, not a type)."""
    selector = move_selector(move)
    if not selector or move & F_CASTLE:
        return None
    return selector - 1


def move_wall(move):
    """The square a wide move puts a wall on (0: none)."""
    return (move >> WALL_SHIFT) & SQUARE_MASK


def with_wall(move, square):
    return move | (square << WALL_SHIFT)


def is_pass(move):
    """A pass: a plain move from a square to itself (no drop, castling or promotion)."""
    return move_from(move) == move_to(move) and not move >> SELECTOR_SHIFT


def move_gate(move):
    """The gate slot of a move (1-7, an index into the game's gated types + 1), 0 if
    it gates nothing."""
    return (move >> GATE_SHIFT) & MAX_GATE_TYPES


def encode_move(frm, to, selector=0, flags=0):
    return frm | (to << TO_SHIFT) | (selector << SELECTOR_SHIFT) | flags


# -- pieces ------------------------------------------------------------------------------
def piece_code(type_index, colour):
    return FIRST_PIECE_CODE + 2 * type_index + colour


def code_type(code):
    return (code >> 1) - 1


def code_colour(code):
    return code & 1


# -- the board array -----------------------------------------------------------------------
def board_cells(files, ranks, pad):
    """Cells of the padded mailbox a board is stored in: `pad` sentinel rows above and
    below, `pad` sentinel columns between rows, so that no leap of at most `pad`
    squares leaves the array (compiler/lower.py lays it out)."""
    return (ranks + 2 * pad) * (files + pad) + 2 * pad


# -- limits ------------------------------------------------------------------------------
def limit_problems(ntypes, array_squares, ncastlings, nmoves=0):
    """What a game asks beyond the encoding's room, as sentences (empty when it fits).
    `nmoves` is the game's bound on moves in one position (geometry.move_list_bound)."""
    problems = []
    if ntypes > MAX_TYPES:
        problems.append(f"the game has {ntypes} piece types (promoted twins included), but "
                        f"an engine holds at most {MAX_TYPES}")
    if array_squares > MAX_ARRAY_SQUARES:
        problems.append(f"the board with its margin for the longest leap needs "
                        f"{array_squares} cells, but an engine addresses at most "
                        f"{MAX_ARRAY_SQUARES}: shorten the longest leap or the board")
    if ncastlings > MAX_CASTLINGS:
        problems.append(f"the game has {ncastlings} castling moves, at most {MAX_CASTLINGS} "
                        "are supported")
    if nmoves > MAX_MOVES:
        problems.append(f"a position of this game could have up to {nmoves} moves (every "
                        "square holding the most mobile piece, promotion choices and drops "
                        f"included), but an engine's move list holds at most {MAX_MOVES}: "
                        "use fewer promotion choices, shorter riders or a smaller board")
    return problems


# -- the same layout, for the generated engine -------------------------------------------
def cython_source(wide=False):
    """Cython declarations of this layout, written into every generated engine; `wide`
    gives 64-bit moves, with a wall square (move_wall, in that game's engine only)."""
    flags = "\n".join(f"    {name} = {value}" for name, value in FLAGS.items())
    width = "uint64_t" if wide else "uint32_t"
    wall = (f"""


cdef inline int move_wall(move_t m) noexcept nogil:
    return (m >> {WALL_SHIFT}) & SQUARE_MASK


cdef inline move_t with_wall(move_t m, int square) noexcept nogil:
    return m | (<move_t> square << {WALL_SHIFT})""" if wide else "")
    return f'''ctypedef {width} move_t           # a move: 32 bits, or 64 with a wall square


cdef enum:
    EMPTY = {EMPTY}
    OFF = {OFF}
    SQUARE_MASK = {SQUARE_MASK}
    SELECTOR_MASK = {SELECTOR_MASK}
    TO_SHIFT = {TO_SHIFT}
    SELECTOR_SHIFT = {SELECTOR_SHIFT}
    GATE_SHIFT = {GATE_SHIFT}
    MAX_GATE_TYPES = {MAX_GATE_TYPES}
    WIDE_MOVES = {1 if wide else 0}      # moves carry a wall square above bit 32
{flags}


cdef inline int move_from(move_t m) noexcept nogil:
    return m & SQUARE_MASK


cdef inline int move_to(move_t m) noexcept nogil:
    return (m >> TO_SHIFT) & SQUARE_MASK


cdef inline int move_selector(move_t m) noexcept nogil:
    return (m >> SELECTOR_SHIFT) & SELECTOR_MASK


cdef inline int move_gate(move_t m) noexcept nogil:
    return (m >> GATE_SHIFT) & MAX_GATE_TYPES      # (a wide move's wall square is above)


cdef inline bint is_pass(move_t m) noexcept nogil:
    return (m & SQUARE_MASK) == ((m >> TO_SHIFT) & SQUARE_MASK) and (m >> SELECTOR_SHIFT) == 0


cdef inline move_t encode_move(int frm, int to, int selector, move_t flags) noexcept nogil:
    return frm | (to << TO_SHIFT) | (selector << SELECTOR_SHIFT) | flags


cdef inline int piece_code(int typ, int colour) noexcept nogil:
    return {FIRST_PIECE_CODE} + 2 * typ + colour


cdef inline int code_type(int code) noexcept nogil:
    return (code >> 1) - 1


cdef inline int code_colour(int code) noexcept nogil:
    return code & 1{wall}
'''
