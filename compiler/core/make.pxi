# Making and taking back moves: the same for every game.
#
# What differs between games arrives through tables (CAPTURE_TO_HAND, RESETS_CLOCK,
# CASTLE_CLEAR, CASTLE_ROOK_FROM/TO, EP_ALWAYS_MARKED) and two functions of the generated part:
# ep_capturable (may the opponent take a double step in passing?) and
# rules_after_make (what the game's rules record after a move, such as lifted
# restrictions or a rule's two counters; make saves and unmake restores those
# counters only in games with HAS_COUNTERS), and rules_unmake (in games with
# HAS_UNMAKE_HOOK: what a rule put back before the move is taken back, such as the
# pieces an explosion removed).

cdef void make(Pos* p, move_t m) noexcept nogil:
    cdef Undo* u = &p.hist[p.ply]
    cdef int us = p.side, them = p.side ^ 1
    cdef int frm = move_from(m), to = move_to(m), sel = move_selector(m)
    u.move = m
    u.ep = p.ep
    u.ep_victim = p.ep_victim
    u.castling = p.castling
    u.halfmove = p.halfmove
    u.lifted = p.lifted
    if HAS_COUNTERS:
        u.counters = p.counter[0] | (p.counter[1] << 16)
        if NCOUNTERS > 2:           # a second rule's pair (counters_t is 64 bits then)
            u.counters |= (<uint64_t>p.counter[2] << 32) | (<uint64_t>p.counter[3] << 48)
    u.key = p.key
    u.captured = 0
    u.hand_type = -1
    u.moved = 0
    if p.ep:
        p.key ^= Z_EP[p.ep]
        p.ep = 0
    p.halfmove += 1
    if m & F_DROP:
        _make_drop(p, to, sel - 1, drop_hand_type(m), us)
    elif m & F_CASTLE:
        _make_castling(p, u, frm, to, sel, us)
    elif HAS_PASS and frm == to and not (PROMOTES_IN_PLACE and sel):
        pass                      # a pass (`passing allowed`): only the turn changes
    else:
        _make_board_move(p, u, m, frm, to, sel, us, them)
    rules_after_make(p, m, u, us, them)
    p.side = them
    p.key ^= Z_SIDE
    if us == 1:
        p.fullmove += 1
    p.ply += 1


cdef inline int drop_hand_type(move_t m) noexcept nogil:
    """The hand type a drop takes: its own type, or for a drop turned over (PROMOTED_DROPS
    games only) the type in the from field."""
    if PROMOTED_DROPS and move_from(m):
        return move_from(m) - 1
    return move_selector(m) - 1


cdef inline void _make_drop(Pos* p, int to, int typ, int hand_typ, int us) noexcept nogil:
    p.halfmove = 0                # a drop cannot be undone (as in Fairy-Stockfish)
    put(p, to, piece_code(typ, us))
    hand_add(p, us, hand_typ, -1)
    if typ == ROYAL_TYPE:
        p.royal[us] = to


cdef inline void _make_castling(Pos* p, Undo* u, int frm, int to, int index,
                                int us) noexcept nogil:
    cdef int rf = castle_rook_from(p, index), rt = CASTLE_ROOK_TO[index]
    cdef int king = p.b[frm], rook = p.b[rf]
    u.moved = king
    remove(p, frm)
    remove(p, rf)
    put(p, to, king)
    put(p, rt, rook)
    if not ORDINARY_CASTLING or code_type(king) == ROYAL_TYPE:    # (nocheckatomic's
        p.royal[us] = to                                          # king is ordinary)
    _clear_castling(p, p.castling & castling_lost(p, frm, rf))


cdef inline void _make_board_move(Pos* p, Undo* u, move_t m, int frm, int to, int sel,
                                  int us, int them) noexcept nogil:
    cdef int code = p.b[frm], victim = u.ep_victim if (m & F_EP) else to
    cdef int cap = EMPTY if (PROMOTES_IN_PLACE and frm == to) else p.b[victim], typ, mid
    u.moved = code
    if cap != EMPTY:
        u.captured = cap
        remove(p, victim)
        typ = CAPTURE_TO_HAND[us * NTYPES + code_type(cap)]
        if typ >= 0:
            u.hand_type = typ
            hand_add(p, us, typ, 1)
        if code_type(cap) == ROYAL_TYPE:
            p.royal[them] = -1
        p.halfmove = 0
    remove(p, frm)
    put(p, to, piece_code(sel - 1, us) if sel else code)
    if sel and PROMOTION_RESETS_CLOCK:
        p.halfmove = 0            # a promotion cannot be undone (as in Fairy-Stockfish)
    typ = code_type(code)
    if typ == ROYAL_TYPE:
        p.royal[us] = to
    if RESETS_CLOCK[typ]:
        p.halfmove = 0
    if CASTLE_CLEAR[frm] | CASTLE_CLEAR[to] or CHESS960:
        _clear_castling(p, p.castling & castling_lost(p, frm, to))
    if m & F_DOUBLE:
        # The square passed over becomes an en passant target only when an enemy
        # piece could take there, so that equal positions get equal keys (unless
        # the game follows Fairy-Stockfish's convention for custom en passant
        # pieces, which marks it always: lower.ep_always_marked, or for some types only:
        # ep_marks_always).
        mid = (frm + to) >> 1
        if (EP_ALWAYS_MARKED or (EP_MARKED_TYPES and ep_marks_always(typ))
                or ep_capturable(p.b, mid, them)):
            p.ep = mid
            p.ep_victim = to
            p.key ^= Z_EP[mid]


cdef inline int castle_rook_from(Pos* p, int index) noexcept nogil:
    """The rook square of castling option `index`: the game's, or in a CHESS960 game
    the position's (set from its FEN, Engine.set_castling_squares)."""
    if CHESS960:
        return p.castle_rook[index]
    return CASTLE_ROOK_FROM[index]


cdef inline int castling_lost(Pos* p, int a, int b) noexcept nogil:
    """The rights lost when a piece leaves or is taken on square a or b: the table's,
    and in a CHESS960 game each option whose king or rook stands there."""
    cdef int bits = CASTLE_CLEAR[a] | CASTLE_CLEAR[b], i, k
    if CHESS960:
        for i in range(NCASTLING):
            k = p.castle_king[CASTLE_COLOUR[i]]
            if k == a or k == b or p.castle_rook[i] == a or p.castle_rook[i] == b:
                bits |= 1 << i
    return bits


cdef inline void _clear_castling(Pos* p, int bits) noexcept nogil:
    cdef int i
    for i in range(NCASTLE):
        if bits & (1 << i):
            p.key ^= Z_CASTLE[i]
    p.castling &= ~bits


cdef void unmake(Pos* p) noexcept nogil:
    p.ply -= 1
    cdef Undo* u = &p.hist[p.ply]
    cdef move_t m = u.move
    cdef int frm = move_from(m), to = move_to(m), sel = move_selector(m)
    cdef int us = p.side ^ 1, them = p.side, rook
    p.side = us
    if us == 1:
        p.fullmove -= 1
    if HAS_UNMAKE_HOOK:
        rules_unmake(p, u)
    if m & F_DROP:
        p.b[to] = EMPTY
        p.hand[hand_index(us, drop_hand_type(m))] += 1
        if sel - 1 == ROYAL_TYPE:
            p.royal[us] = -1
    elif m & F_CASTLE:
        rook = p.b[CASTLE_ROOK_TO[sel]]
        p.b[to] = EMPTY
        p.b[CASTLE_ROOK_TO[sel]] = EMPTY
        p.b[castle_rook_from(p, sel)] = rook
        p.b[frm] = u.moved
        if not ORDINARY_CASTLING or code_type(u.moved) == ROYAL_TYPE:
            p.royal[us] = frm
    elif HAS_PASS and frm == to and not (PROMOTES_IN_PLACE and sel):
        pass
    else:
        p.b[to] = EMPTY
        p.b[frm] = u.moved
        if u.captured:
            p.b[u.ep_victim if (m & F_EP) else to] = u.captured
            if code_type(u.captured) == ROYAL_TYPE:
                p.royal[them] = to
            if u.hand_type >= 0:
                p.hand[hand_index(us, u.hand_type)] -= 1
        if code_type(u.moved) == ROYAL_TYPE:
            p.royal[us] = frm
    p.ep = u.ep
    p.ep_victim = u.ep_victim
    p.castling = u.castling
    p.halfmove = u.halfmove
    p.lifted = u.lifted
    if HAS_COUNTERS:
        p.counter[0] = u.counters & 0xFFFF
        p.counter[1] = (u.counters >> 16) & 0xFFFF
        if NCOUNTERS > 2:
            p.counter[2] = (<uint64_t>u.counters >> 32) & 0xFFFF
            p.counter[3] = <uint64_t>u.counters >> 48
    p.key = u.key
