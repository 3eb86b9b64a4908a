# Legal moves and perft: the same for every game.
#
# A move is generated pseudo-legally, made, and then judged by why_illegal: first the
# royal piece's safety, then rules_why_illegal, the generated chain of the game's
# other rules.  Their answers are the Refusal numbers of fairyforge.compiler.rules.

cdef bint has_legal_move(Pos* p, int nested) noexcept nogil:
    """Does the side to move have a legal move?  (Stops at the first one found.)"""
    cdef move_t* mv = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
    cdef int n, i
    cdef bint found = False, checked
    if mv == NULL:
        return True
    n = gen_pseudo(p, mv)
    checked = checked_if_needed(p)
    for i in range(n):
        if legal_from(p, mv[i], nested, checked):
            found = True
            break
    free(mv)
    return found


cdef int why_illegal_from(Pos* p, move_t m, int nested, bint was_checked) noexcept nogil:
    """Called right after make(p, m): LEGAL, or the Refusal of the rule `m` breaks.

    `nested` is 0 for the moves of the position itself and 1 inside the look-ahead that
    some rules need (drop mate, stalemating moves); at that depth those rules are not
    applied again, so the look-ahead stays one ply deep.  `was_checked`: was the mover
    in check before `m` (True where the caller does not know)?  A mover that was not
    skips the royal piece's attack test where cannot_expose shows it unneeded.
    """
    cdef int us = p.side ^ 1, them = p.side
    if (was_checked or not cannot_expose(p, m)) and royal_in_check(p, us) \
            and not rules_check_excused(p, m, us):
        return ROYAL_ATTACKED
    return rules_why_illegal(p, m, &p.hist[p.ply - 1], us, them, nested)


cdef int why_illegal(Pos* p, move_t m, int nested) noexcept nogil:
    """why_illegal_from for a caller that does not know whether the mover was in check."""
    return why_illegal_from(p, m, nested, True)


cdef inline bint legal_after_make(Pos* p, move_t m, int nested, bint was_checked) noexcept nogil:
    return why_illegal_from(p, m, nested, was_checked) == LEGAL


cdef bint legal_from(Pos* p, move_t m, int nested, bint was_checked) noexcept nogil:
    """Is the pseudo-legal move `m` legal?  (Makes it, tests, takes it back;
    `was_checked` as for why_illegal_from.)"""
    cdef bint ok
    make(p, m)
    ok = legal_after_make(p, m, nested, was_checked)
    unmake(p)
    return ok


cdef inline bint legal(Pos* p, move_t m, int nested) noexcept nogil:
    return legal_from(p, m, nested, True)


cdef inline bint cannot_expose(Pos* p, move_t m) noexcept nogil:
    """Called right after make(p, m) in a SAFETY_BY_LINES game, for a mover that was not
    in check before it: true where the move cannot have left the mover's royal piece
    attacked, because it neither moved that piece nor changed a square on a line to it
    (ON_LINE; castling and en passant, which change more squares, are always tested).
    Also true where there is no royal piece (nothing to attack)."""
    cdef int king = p.royal[p.side ^ 1], to = move_to(m)
    if not SAFETY_BY_LINES or king < 0:
        return king < 0
    if (m & (F_CASTLE | F_EP)) or king == to or ON_LINE[king * NSQ + to]:
        return False
    return (m & F_DROP) != 0 or not ON_LINE[king * NSQ + move_from(m)]


cdef inline int gives_check(Pos* p, move_t m) noexcept nogil:
    """Called right after make(p, m) in a CHECK_BY_LINES game, where the side now to
    move was not in check before `m`: 1 if it is in check now, 0 if not, -1 where only
    the attack test can tell.  Only the piece `m` put on its square can attack the
    royal piece directly (CHECKS_FROM), and only a square `m` left on a line to it can
    let another piece's attack through (ON_LINE); on a hopper's line, a piece `m` put
    there may be a screen.  Castling and en passant change more squares: -1."""
    cdef int king = p.royal[p.side], to = move_to(m), how
    if not CHECK_BY_LINES or king < 0:
        return 0 if king < 0 else -1
    if m & (F_CASTLE | F_EP):
        return -1
    if not (m & F_DROP) and ON_LINE[king * NSQ + move_from(m)]:
        return -1
    if HOP_LINES and ON_LINE[king * NSQ + to]:
        return -1
    how = CHECKS_FROM[p.b[to] * 2 * NSQ + NSQ + king - to]
    return 1 if how == CHECKS_ALWAYS else (-1 if how else 0)


cdef inline bint checked_if_needed(Pos* p) noexcept nogil:
    """in_check for the side to move where why_illegal_from can use it (SAFETY_BY_LINES),
    else True (every move then gets the full test)."""
    return in_check(p, p.side) if SAFETY_BY_LINES else True


cdef enum:
    # The result of a game ended by a rule, for the side to move (rules_game_end).
    RESULT_LOSS = 1
    RESULT_WIN = 2
    RESULT_DRAW = 3


cdef inline bint game_ended(Pos* p) noexcept nogil:
    """Has a rule (extinction, ...) ended the game?  Then no move is legal."""
    cdef int reason
    return HAS_GAME_END and rules_game_end(p, &reason) != 0


cdef int gen_legal(Pos* p, move_t* out) noexcept nogil:
    cdef move_t* mv
    cdef int n, i, k = 0
    cdef bint checked
    if game_ended(p):
        return 0
    mv = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
    if mv == NULL:
        return 0
    n = gen_pseudo(p, mv)
    checked = checked_if_needed(p)
    for i in range(n):
        if legal_from(p, mv[i], 0, checked):
            out[k] = mv[i]
            k += 1
    free(mv)
    return k


cdef extern from "Python.h":
    # Declared here without Cython's exception check: the caller looks at the result.
    int check_signals "PyErr_CheckSignals" ()


cdef int signal_arrived() noexcept with gil:
    """Run Python's signal handlers; true when one raised (KeyboardInterrupt), whose
    exception then stays set until raise_pending_signal() raises it."""
    return check_signals() != 0


cdef int raise_pending_signal() except -1:
    return -1


cdef inline bint interrupted(Pos* p) noexcept nogil:
    """Poll for signals every 1024 calls: often enough to answer Ctrl-C at once, rarely
    enough that taking the GIL costs nothing measurable."""
    p.polls += 1
    if (p.polls & 1023) == 0 and not p.interrupted:
        p.interrupted = signal_arrived()
    return p.interrupted


cdef uint64_t perft(Pos* p, int depth, move_t* buf) noexcept nogil:
    """Leaf nodes at `depth` plies; the last ply is bulk-counted (moves counted, not made).
    Returns early, with the position restored, once interrupted(p)."""
    cdef int n, i
    cdef bint checked
    cdef uint64_t nodes = 0
    if depth >= 2 and interrupted(p):
        return 0
    if game_ended(p):
        return 0
    n = gen_pseudo(p, buf)
    checked = checked_if_needed(p)
    if depth == 1:
        for i in range(n):
            if legal_from(p, buf[i], 0, checked):
                nodes += 1
        return nodes
    for i in range(n):
        make(p, buf[i])
        if legal_after_make(p, buf[i], 0, checked):
            nodes += perft(p, depth - 1, buf + n)
        unmake(p)
        if p.interrupted:
            break
    return nodes
