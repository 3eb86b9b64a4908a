# The position and its incremental updates: the same for every game.
#
# Hand-written; included by every generated engine after its constants (FILES, NSQ,
# NTYPES, NCODES, MAX_HAND, NCASTLE ...) and the encoding's declarations.  The generated
# part defines the rule tables this file reads (see docs/architecture.md).

cdef struct Undo:
    move_t move
    unsigned char moved        # code of the moving piece before the move
    unsigned char captured     # code of the captured piece, 0 if none
    signed char hand_type      # type the capture added to the mover's hand, -1 if none
    int ep
    int ep_victim
    int castling
    int halfmove
    int lifted
    counters_t counters        # Pos.counter before the move, 16 bits each, the first
                               # lowest (HAS_COUNTERS only; an int, which keeps Undo at
                               # 40 bytes, unless the game keeps two pairs: NCOUNTERS)
    uint64_t key


cdef enum:
    # The two counters a rule kind may keep in Pos.counter run from 0 to MAX_COUNTER
    # when they are part of the Zobrist key (HASH_COUNTERS: n-check's checks each side
    # has still to give), else to MAX_PLAIN_COUNTER (a counting rule's limit and plies,
    # which Fairy-Stockfish leaves out of the key, so that repetitions still count).
    MAX_COUNTER = 99
    MAX_PLAIN_COUNTER = 30000


cdef struct Pos:
    unsigned char b[NSQ]
    int hand[2 * NTYPES]
    int side
    int ep                     # en passant target square, 0 if none
    int ep_victim              # square of the piece an en passant capture removes
    int castling               # bit i: castling option i is still allowed
    int lifted                 # bit c: colour c has done what lifts its opponent's restriction
    int halfmove
    int fullmove
    int royal[2]               # square of each side's royal piece, -1 if none on board
    int counter[NCOUNTERS]     # the rule kinds' counters, a pair per kind (HAS_COUNTERS),
                               # else 0; the hashed pair, if any, first
    int castle_king[2]         # CHESS960: each side's castling king square (0: none), and
    int castle_rook[NCASTLE]   # each castling option's rook square, both from the FEN
    uint64_t key
    int ply
    Undo* hist
    int hist_cap
    int interrupted            # a signal (Ctrl-C) arrived during a long C loop
    unsigned int polls         # counts the long loops' steps between signal checks
    unsigned char* rule_hist   # RULE_BYTES per ply that a rule kind keeps for unmake
                               # (explosions: what a blast removed); NULL in other games


# Zobrist keys: one per (piece code, square), (colour, type, count in hand), castling
# right, en passant square, side to move, lifted restriction and (colour, counter value).
cdef uint64_t Z_PIECE[NCODES * NSQ]
cdef uint64_t Z_HAND[2 * NTYPES * (MAX_HAND + 1)]
cdef uint64_t Z_CASTLE[NCASTLE]
cdef uint64_t Z_EP[NSQ]
cdef uint64_t Z_SIDE
cdef uint64_t Z_LIFTED[2]
cdef uint64_t Z_COUNTER[2 * (MAX_COUNTER + 1)]


cdef inline uint64_t _splitmix(uint64_t* state) noexcept nogil:
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef void init_zobrist():
    """Keys from a fixed-seed splitmix64 stream: the same on every run."""
    global Z_SIDE
    cdef uint64_t s = 0x5EEDF00D
    cdef int i
    for i in range(NCODES * NSQ):
        s = _splitmix(&s)
        Z_PIECE[i] = s
    for i in range(2 * NTYPES * (MAX_HAND + 1)):
        Z_HAND[i] = _splitmix(&s)
    for i in range(NCASTLE):
        Z_CASTLE[i] = _splitmix(&s)
    for i in range(NSQ):
        Z_EP[i] = _splitmix(&s)
    Z_SIDE = _splitmix(&s)
    Z_LIFTED[0] = _splitmix(&s)
    Z_LIFTED[1] = _splitmix(&s)
    for i in range(2 * (MAX_COUNTER + 1)):         # (last: the other keys stay as they were)
        Z_COUNTER[i] = _splitmix(&s)


cdef inline int hand_index(int colour, int typ) noexcept nogil:
    return colour * NTYPES + typ


cdef inline uint64_t hand_key(int colour, int typ, int count) noexcept nogil:
    return Z_HAND[(colour * NTYPES + typ) * (MAX_HAND + 1) + count]


cdef inline void hand_add(Pos* p, int colour, int typ, int delta) noexcept nogil:
    cdef int i = hand_index(colour, typ)
    p.key ^= hand_key(colour, typ, p.hand[i])
    p.hand[i] += delta
    p.key ^= hand_key(colour, typ, p.hand[i])


cdef inline void counter_add(Pos* p, int colour, int delta) noexcept nogil:
    """Change a rule counter (the caller keeps it within its limit), and the key
    with it in a game with HASH_COUNTERS."""
    if HASH_COUNTERS:
        p.key ^= Z_COUNTER[colour * (MAX_COUNTER + 1) + p.counter[colour]]
    p.counter[colour] += delta
    if HASH_COUNTERS:
        p.key ^= Z_COUNTER[colour * (MAX_COUNTER + 1) + p.counter[colour]]


cdef inline void put(Pos* p, int sq, int code) noexcept nogil:
    p.b[sq] = code
    p.key ^= Z_PIECE[code * NSQ + sq]


cdef inline void remove(Pos* p, int sq) noexcept nogil:
    p.key ^= Z_PIECE[p.b[sq] * NSQ + sq]
    p.b[sq] = EMPTY


cdef inline bint royal_in_check(Pos* p, int colour) noexcept nogil:
    """Is `colour`'s royal piece on the board and attacked?  (In a game with
    HAS_CHECK_RULE, a rule kind decides what an attack on it is: explosions.)"""
    if HAS_CHECK_RULE:
        return p.royal[colour] >= 0 and rules_royal_attacked(p, p.royal[colour], colour)
    return p.royal[colour] >= 0 and attacked(p.b, p.royal[colour], colour ^ 1)


cdef inline bint in_check(Pos* p, int colour) noexcept nogil:
    """Is `colour` in check: its royal piece attacked, or in a game with pseudo-royal
    pieces (HAS_PSEUDO_ROYALS, compiler/rules/pseudo_royal.py) one of those?"""
    if HAS_PSEUDO_ROYALS:
        return royal_in_check(p, colour) or pseudo_royal_attacked(p, colour)
    return royal_in_check(p, colour)


cdef inline int gen_pseudo(Pos* p, move_t* mv) noexcept nogil:
    """The side to move's pseudo-legal moves (gen_moves_*)."""
    if p.side == 0:
        return gen_moves_0(p, mv, GEN_ALL)
    return gen_moves_1(p, mv, GEN_ALL)


cdef inline int gen_captures(Pos* p, move_t* mv) noexcept nogil:
    """A list that holds every pseudo-legal capture of the side to move, and few other
    moves (the promotions forced where a piece arrives; the rules' extra moves may add
    some): quiescence keeps the captures of it (search.pxi quiescence_moves)."""
    if p.side == 0:
        return gen_moves_0(p, mv, GEN_CAPTURES)
    return gen_moves_1(p, mv, GEN_CAPTURES)
