# Legal moves and perft: the same for every game.
#
# A move is generated pseudo-legally, made, and then judged by why_illegal: first the
# royal piece's safety, then rules_why_illegal, the generated chain of the game's
# other rules.  Their answers are the Refusal numbers of fairyforge.compiler.rules.

cdef bint has_legal_move(Pos* p, int nested) noexcept nogil:
    """Does the side to move have a legal move?  (Stops at the first one found.)"""
    cdef move_t* mv = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
    cdef int n, i
    cdef bint found = False
    if mv == NULL:
        return True
    n = gen_pseudo(p, mv)
    for i in range(n):
        if legal(p, mv[i], nested):
            found = True
            break
    free(mv)
    return found


cdef int why_illegal(Pos* p, move_t m, int nested) noexcept nogil:
    """Called right after make(p, m): LEGAL, or the Refusal of the rule `m` breaks.

    `nested` is 0 for the moves of the position itself and 1 inside the look-ahead that
    some rules need (drop mate, stalemating moves); at that depth those rules are not
    applied again, so the look-ahead stays one ply deep.
    """
    cdef int us = p.side ^ 1, them = p.side
    if royal_in_check(p, us) and not rules_check_excused(p, m, us):
        return ROYAL_ATTACKED
    return rules_why_illegal(p, m, &p.hist[p.ply - 1], us, them, nested)


cdef inline bint legal_after_make(Pos* p, move_t m, int nested) noexcept nogil:
    return why_illegal(p, m, nested) == LEGAL


cdef bint legal(Pos* p, move_t m, int nested) noexcept nogil:
    """Is the pseudo-legal move `m` legal?  (Makes it, tests, takes it back.)"""
    cdef bint ok
    make(p, m)
    ok = legal_after_make(p, m, nested)
    unmake(p)
    return ok


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
    if game_ended(p):
        return 0
    mv = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
    if mv == NULL:
        return 0
    n = gen_pseudo(p, mv)
    for i in range(n):
        if legal(p, mv[i], 0):
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
    cdef uint64_t nodes = 0
    if depth >= 2 and interrupted(p):
        return 0
    if game_ended(p):
        return 0
    n = gen_pseudo(p, buf)
    if depth == 1:
        for i in range(n):
            if legal(p, buf[i], 0):
                nodes += 1
        return nodes
    for i in range(n):
        make(p, buf[i])
        if legal_after_make(p, buf[i], 0):
            nodes += perft(p, depth - 1, buf + n)
        unmake(p)
        if p.interrupted:
            break
    return nodes
