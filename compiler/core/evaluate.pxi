# Static evaluation: the same for every game (hand-written, included by every generated
# engine before search.pxi).  The numbers come from the generated tables: VALUE, PST and
# HAND_VALUE (derived from the rules or learned by `fairyforge tune`), the KS_* king-safety
# (KS_ATTACKERS: by the count of attackers and of types in hand, HAS_KING_ATTACKERS),
# MOBILITY (MOBILITY_BY_COUNT: by a piece's count of moves; MOBILITY_SAFE: moves to
# squares no enemy pawn attacks), BOARD_CHECK, DROP_CHECK,
# THREAT, ST_* (structure) and PASSED bonuses (learned only: HAS_KING_SAFETY,
# HAS_KING_ATTACKS, HAS_MOBILITY, HAS_MOBILITY_BY_COUNT, HAS_SAFE_MOBILITY, HAS_BOARD_CHECKS,
# HAS_DROP_CHECKS, HAS_THREATS, HAS_STRUCTURE, HAS_PASSED), and the rules' own terms
# (rules_evaluate).
# runtime/tune/features.py computes the same sums in Python, as features to fit: the two
# must change together.

# What each piece code on each square adds to the evaluation's material and square
# sums: White's pieces count up, Black's down (VALUE + PST, and VALUE_EG + PST_EG and
# PHASE_WEIGHT where HAS_ENDGAME), so that evaluate's scan adds one entry a piece.
# Filled once at import.  (Keeping these sums up in make and unmake instead saved
# the search under 2% and cost perft up to 12%: docs/engine.md.)
cdef int MATERIAL[NCODES * NSQ]
cdef int MATERIAL_EG[NCODES * NSQ]
cdef int PHASE_OF[NCODES]


cdef void fill_material() noexcept:
    cdef int code, sq, t, sign
    memset(MATERIAL, 0, sizeof(MATERIAL))
    memset(MATERIAL_EG, 0, sizeof(MATERIAL_EG))
    memset(PHASE_OF, 0, sizeof(PHASE_OF))
    for code in range(OFF + 1, NCODES):
        t = code_type(code)
        sign = 1 if code_colour(code) == 0 else -1
        for sq in range(NSQ):
            MATERIAL[code * NSQ + sq] = sign * (VALUE[t] + PST[code * NSQ + sq])
            if HAS_ENDGAME:
                MATERIAL_EG[code * NSQ + sq] = sign * (VALUE_EG[t] + PST_EG[code * NSQ + sq])
        if HAS_ENDGAME:
            PHASE_OF[code] = PHASE_WEIGHT[t]


fill_material()


cdef enum:
    KING_ZONE_MAX = 24          # squares within two files and ranks of a square, itself not


# The squares within two files and ranks of each square (a 5x5 block cut by the board's
# edges), those next to it first: KING_ZONE_NEAR[sq] of them.  Filled once at import.
cdef short KING_ZONE[NSQ * KING_ZONE_MAX]
cdef unsigned char KING_ZONE_SIZE[NSQ]
cdef unsigned char KING_ZONE_NEAR[NSQ]


cdef void fill_king_zones() noexcept:
    cdef int sq, pad = FIRST_SQ % STRIDE, f, r, dx, dy, ring, n
    for sq in range(NSQ):
        KING_ZONE_SIZE[sq] = KING_ZONE_NEAR[sq] = 0
        f, r = sq % STRIDE - pad, sq // STRIDE - pad
        if not (0 <= f < FILES and 0 <= r < RANKS):
            continue
        n = 0
        for ring in range(1, 3):
            for dy in range(-ring, ring + 1):
                for dx in range(-ring, ring + 1):
                    if max(abs(dx), abs(dy)) == ring and 0 <= f + dx < FILES \
                            and 0 <= r + dy < RANKS:
                        KING_ZONE[sq * KING_ZONE_MAX + n] = sq + dy * STRIDE + dx
                        n += 1
            if ring == 1:
                KING_ZONE_NEAR[sq] = n
        KING_ZONE_SIZE[sq] = n


if HAS_KING_SAFETY:
    fill_king_zones()


cdef int king_safety(Pos* p, int colour) noexcept nogil:
    """The king-safety bonuses of `colour`'s royal piece (compiler/evalparams.py
    KING_SAFETY): its own pieces next to it (shelter), enemy pieces within two squares
    (near) and, in a drop game, the empty squares next to it per type the enemy holds
    in hand (holes)."""
    cdef int king = p.royal[colour], score = 0, holes = 0, i, sq, pc, t
    cdef short* zone
    if king < 0:
        return 0
    zone = &KING_ZONE[king * KING_ZONE_MAX]
    for i in range(KING_ZONE_SIZE[king]):
        sq = zone[i]
        pc = p.b[sq]
        if pc > OFF:
            if code_colour(pc) != colour:
                score += KS_NEAR[code_type(pc)]
            elif i < KING_ZONE_NEAR[king]:
                score += KS_SHELTER[code_type(pc)]
        elif pc == EMPTY and i < KING_ZONE_NEAR[king]:
            holes += 1
    if HAS_DROPS and holes:
        for t in range(NTYPES):
            if p.hand[(colour ^ 1) * NTYPES + t]:
                score += holes * KS_HOLES[t]
    return score


cdef inline int board_moves(Pos* p, int colour, move_t* mv) noexcept nogil:
    """`colour`'s pseudo-legal moves of pieces on the board (GEN_BOARD), whoever is to
    move: what its mobility counts."""
    return gen_moves_0(p, mv, GEN_BOARD) if colour == 0 else gen_moves_1(p, mv, GEN_BOARD)


# The squares next to a square, or the square itself, as differences of square numbers
# (biased by STRIDE + 1 so that none is negative): bit d of NEXT_TO_MASK for each.  A
# padded row is wider than the board (STRIDE > FILES), so no difference of two board
# squares that lie further apart can take one of these values.
cdef uint64_t NEXT_TO_MASK = 0
if 2 * STRIDE + 2 < 64:
    NEXT_TO_MASK = (<uint64_t> 7) | (<uint64_t> 7) << STRIDE | (<uint64_t> 7) << (2 * STRIDE)


cdef inline bint next_to(int sq, int king) noexcept nogil:
    """Is `sq` the square `king` or one next to it?  (One test of a bit on boards up to
    30 squares wide; else `% STRIDE` is a square's column on the padded board, `//
    STRIDE` its row.)"""
    cdef unsigned int d = <unsigned int> (sq - king + STRIDE + 1)
    if 2 * STRIDE + 2 < 64:
        return d <= 2 * STRIDE + 2 and (NEXT_TO_MASK >> d) & 1
    return abs(sq % STRIDE - king % STRIDE) <= 1 and abs(sq // STRIDE - king // STRIDE) <= 1


cdef inline int threat_victim(int victim, int t, int colour) noexcept nogil:
    """The type of `victim` (a target square's code) if a move of `colour`'s piece of
    type `t` onto it threatens it: an enemy piece worth more than the taker (royal
    ones too, though THREAT is 0 there), else -1."""
    if victim <= OFF or code_colour(victim) == colour or VALUE[code_type(victim)] <= VALUE[t]:
        return -1
    return code_type(victim)


cdef inline int threatened(Pos* p, move_t m, int t) noexcept nogil:
    """threat_victim of the board move `m` of a piece of type `t` (Engine.threat_counts,
    from the move list)."""
    return threat_victim(p.b[move_to(m)], t, code_colour(p.b[move_from(m)]))


cdef inline int threat_worth(int victim, int t, int colour, const int* threat) noexcept nogil:
    """THREAT's half `threat` (whether `colour` is to move) for a capture of `colour`'s
    piece of type `t` onto `victim`: its entry for the taker and the victim's type, or
    0 where it is no threat."""
    cdef int victim_type = threat_victim(victim, t, colour)
    return threat[t * NTYPES + victim_type] if victim_type >= 0 else 0


cdef inline int piece_activity(int t, int moves, int near, int safe) noexcept nogil:
    """The mobility and king-attack terms of a piece of type `t` with `moves` board
    moves (a straight line, and a bonus by the count), `near` of them next to the enemy
    royal piece or onto it, `safe` of them to a square no enemy piece of the cheapest
    type attacks."""
    cdef int score = 0
    if HAS_MOBILITY:
        score += MOBILITY[t] * moves
    if HAS_SAFE_MOBILITY:
        score += MOBILITY_SAFE[t] * safe
    if HAS_MOBILITY_BY_COUNT:
        score += MOBILITY_BY_COUNT[t * MOBILITY_COUNTS
                                   + (moves if moves < MOBILITY_COUNTS else MOBILITY_COUNTS - 1)]
    if HAS_KING_ATTACKS:
        score -= KS_ATTACKS[t] * near
    return score


cdef inline int attacker_count(Pos* p, int attackers, int colour) noexcept nogil:
    """KS_ATTACKERS's index for the enemy royal piece of `colour`: its `attackers` (pieces
    with a board move next to that piece or onto it, at most ATTACKER_COUNTS - 1) and,
    in a drop game, its row: how many types `colour` holds in hand (each a piece that
    can be dropped beside it), at most ATTACKER_ROWS - 1.  evalparams.attackers_index
    says the same; Engine.king_attackers counts both from the move list."""
    cdef int t, held = 0
    if attackers >= ATTACKER_COUNTS:
        attackers = ATTACKER_COUNTS - 1
    if HAS_DROPS:
        for t in range(NTYPES):
            if p.hand[colour * NTYPES + t]:
                held += 1
        if held >= ATTACKER_ROWS:
            held = ATTACKER_ROWS - 1
    return attackers + ATTACKER_COUNTS * held


cdef inline void mark_near_king(unsigned char* near_king, int king) noexcept nogil:
    """Mark (1) in near_king[NSQ] the squares next_to `king` (it and those next to it;
    a padded board's edge squares have neighbours in the padding, so none falls
    outside), 0 elsewhere: all 0 without a royal piece (king < 0)."""
    cdef int dx, dy
    memset(near_king, 0, NSQ)
    if king >= 0:
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                near_king[king + dy * STRIDE + dx] = 1


cdef inline int check_bonus(const int* table, const unsigned char* b, int s, int t,
                            int colour) noexcept nogil:
    """A check table's (BOARD_CHECK, DROP_CHECK) bonus for `colour`'s piece of type `t`
    checking from `s`: the safe one (table[t]) or, where an enemy piece attacks `s`, the
    defended one (table[NTYPES + t])."""
    return table[NTYPES + t] if attacked(b, s, colour ^ 1) else table[t]


cdef inline int board_check(const int* checks, const unsigned char* b, int to, int t,
                            int colour) noexcept nogil:
    """BOARD_CHECK's bonus for a board move of `colour`'s piece of type `t` to `to`, a
    square it would check from (the activity walk looks that up in check_from):
    `checks` is BOARD_CHECK, or its second half (to_move terms added) where `colour`
    is to move."""
    return check_bonus(checks, b, to, t, colour)


cdef int listed_activity(const unsigned char* b, const move_t* mv, int n, int t, int colour,
                         const unsigned char* near_king, const int* threat,
                         const unsigned char* check_from, const int* checks,
                         int* attackers) noexcept nogil:
    """The activity of one piece of type `t` whose board moves are listed in mv[:n]
    (a piece whose moves can repeat: the walk lists them to drop the repeats), counted
    as moves.j2 tally counts a move; *attackers counts the piece if one of them is
    next to the enemy royal piece."""
    cdef int i, to, near = 0, safe = 0, score = 0
    for i in range(n):
        to = move_to(mv[i])
        if HAS_SAFE_MOBILITY and not guarded(b, to, colour ^ 1):
            safe += 1
        if HAS_KING_ATTACKS:
            near += near_king[to]
        if HAS_THREATS:
            score += threat_worth(b[to], t, colour, threat)
        if HAS_BOARD_CHECKS and check_from[t * NSQ + to]:
            score += board_check(checks, b, to, t, colour)
    if HAS_KING_ATTACKERS and near:
        attackers[0] += 1
    return score + piece_activity(t, n, near, safe)


cdef int activity(Pos* p, int colour) noexcept nogil:
    """What `colour`'s board moves (board_moves) are worth: mobility, king attacks and
    threats, dynamic terms, where the square tables know where a piece stands and these how
    free it is there (a bishop behind its own pawns has few moves), how much of it
    bears on the enemy king and what it attacks.  The generated activity_0/activity_1
    walk the moves as the generator does without listing them (listing them and
    reading them back cost about a tenth of a chess search); evaluate calls them with
    the squares its own scan found, sparing two more scans of the board."""
    cdef short squares[NSQ]
    cdef int sq, pc, n = 0
    for sq in range(FIRST_SQ, LAST_SQ + 1):
        pc = p.b[sq]
        if pc > OFF and code_colour(pc) == colour:
            squares[n] = sq
            n += 1
    return activity_0(p, squares, n) if colour == 0 else activity_1(p, squares, n)


cdef inline int drop_check(Pos* p, const int* checks, int s, int t, int colour,
                           unsigned char* counted) noexcept nogil:
    """DROP_CHECK's bonus for `colour`'s piece of type `t` dropped on the empty square
    `s`, from which it would attack the enemy royal piece (the generated drop_checks_0/1
    walk finds such squares): 0 where `colour` holds none in hand or may not drop one
    there, else check_bonus.
    `checks` is DROP_CHECK, or its second half (to_move terms added) where `colour` is
    to move and may drop the check now: the walk picks it once (tested here, p.side
    would be read again at every square: the writes to `counted` may alias it).
    `counted` (DROP_CHECK_REPEATS: where two ways may reach one square) marks the
    squares counted for each type, so that each counts once."""
    if not p.hand[colour * NTYPES + t] or not DROP_OK[(colour * NTYPES + t) * NSQ + s]:
        return 0
    if DROP_CHECK_REPEATS:
        if counted[t * NSQ + s]:
            return 0
        counted[t * NSQ + s] = 1
    return check_bonus(checks, p.b, s, t, colour)


cdef struct Passers:
    # The PASSER pieces evaluate's scan found, and, per type and file, the rank of
    # White's lowest and Black's highest (the ones that could stop an enemy's: a
    # piece is passed when none of the enemy's of its type stands further up its
    # way on its file or one beside it).  Files are offset by one: the files beside
    # the edge files are padding, which never holds a piece.
    short squares[NSQ]
    int n
    signed char white_lowest[NTYPES * (FILES + 2)]   # RANKS: none on that file
    signed char black_highest[NTYPES * (FILES + 2)]  # -1: none


cdef inline void passers_clear(Passers* ps) noexcept nogil:
    ps.n = 0
    memset(ps.white_lowest, RANKS, sizeof(ps.white_lowest))
    memset(ps.black_highest, 0xff, sizeof(ps.black_highest))     # (-1)


cdef inline int passer_slot(int sq, int pc) noexcept nogil:
    """The entry of Passers' rank tables for `pc`'s type and the file of `sq`."""
    return code_type(pc) * (FILES + 2) + sq % STRIDE - FIRST_SQ % STRIDE + 1


cdef inline void passers_add(Passers* ps, int sq, int pc) noexcept nogil:
    """Note `pc` on `sq` (evaluate's scan, a PASSER type)."""
    cdef int rank = sq // STRIDE - FIRST_SQ // STRIDE, k = passer_slot(sq, pc)
    ps.squares[ps.n] = sq
    ps.n += 1
    if code_colour(pc) == 0:
        if rank < ps.white_lowest[k]:
            ps.white_lowest[k] = rank
    elif rank > ps.black_highest[k]:
        ps.black_highest[k] = rank


cdef bint is_passed(Pos* p, Passers* ps, int sq) noexcept nogil:
    """Does no enemy piece of the type of the piece on `sq` stand ahead of it (White's
    ahead is up the board) on its file or a file beside it?  Read from the ranks
    evaluate's scan noted (`ps`), where the ranks ahead are counted, so a board's
    holes end nothing early."""
    cdef int pc = p.b[sq], rank = sq // STRIDE - FIRST_SQ // STRIDE
    cdef int k = passer_slot(sq, pc)
    if code_colour(pc) == 0:
        return not (ps.black_highest[k - 1] > rank or ps.black_highest[k] > rank
                    or ps.black_highest[k + 1] > rank)
    return not (ps.white_lowest[k - 1] < rank or ps.white_lowest[k] < rank
                or ps.white_lowest[k + 1] < rank)


cdef inline int owner_rank(int sq, int colour) noexcept nogil:
    """The rank of `sq` counted from `colour`'s side, its first rank 0."""
    cdef int rank = sq // STRIDE - FIRST_SQ // STRIDE
    return rank if colour == 0 else RANKS - 1 - rank


cdef inline int king_distance(int king, int file, int rank) noexcept nogil:
    """A king's moves from the square `king` to (file, rank), at most
    PASSED_KING_DISTANCE."""
    cdef int df = king % STRIDE - FIRST_SQ % STRIDE - file
    cdef int dr = king // STRIDE - FIRST_SQ // STRIDE - rank
    if df < 0:
        df = -df
    if dr < 0:
        dr = -dr
    if dr > df:
        df = dr
    return df if df < PASSED_KING_DISTANCE else PASSED_KING_DISTANCE


cdef int passer_kings(Pos* p, int sq, int colour, int rank) noexcept nogil:
    """PASSED_KING's bonus for `colour`'s passed piece on `sq` (on its owner's `rank`):
    each royal piece's distance to the square ahead of it (its own on the last rank)
    times the entry for its type and rank; 0 for a side without a royal piece on the
    board.  An escort close by and a catcher far away are what win an ending."""
    cdef int t = code_type(p.b[sq]), score = 0
    cdef int file = sq % STRIDE - FIRST_SQ % STRIDE, ahead = sq // STRIDE - FIRST_SQ // STRIDE
    if rank < RANKS - 1:
        ahead += 1 if colour == 0 else -1
    if p.royal[colour] >= 0:
        score += PASSED_KING[t * RANKS + rank] * king_distance(p.royal[colour], file, ahead)
    if p.royal[colour ^ 1] >= 0:
        score += PASSED_KING[(NTYPES + t) * RANKS + rank] \
            * king_distance(p.royal[colour ^ 1], file, ahead)
    return score


cdef int structure_pairs(unsigned char* count, int colour) noexcept nogil:
    """ST_PAIR's bonuses for `colour`: `count` holds each side's pieces by type
    (evaluate's scan)."""
    cdef int t, score = 0
    for t in range(NTYPES):
        if count[colour * NTYPES + t] >= 2:
            score += ST_PAIR[t]
    return score


cdef int structure_files(unsigned char* by_file, int colour) noexcept nogil:
    """The doubled and isolated bonuses (ST_DOUBLED, ST_ISOLATED) of `colour`'s pieces
    of the ST_FILED types: `by_file` holds each side's by type and file."""
    cdef int t, f, n, score = 0
    cdef unsigned char* files
    for t in range(NTYPES):
        if not ST_FILED[t]:
            continue
        files = by_file + (colour * NTYPES + t) * FILES
        for f in range(FILES):
            n = files[f]
            if n == 0:
                continue
            score += (n - 1) * ST_DOUBLED[t]
            if (f == 0 or files[f - 1] == 0) and (f == FILES - 1 or files[f + 1] == 0):
                score += n * ST_ISOLATED[t]
    return score


cdef inline void count_by_file(unsigned char* by_file, int sq, int pc) noexcept nogil:
    """Count `pc` on `sq` (an ST_FILED type) in by_file, by side, type and file."""
    by_file[(code_colour(pc) * NTYPES + code_type(pc)) * FILES
            + sq % STRIDE - FIRST_SQ % STRIDE] += 1


cdef void passed_terms(Pos* p, Passers* ps, int* passed, int* end) noexcept nogil:
    """Add the passed pieces' bonuses (PASSED, and PASSED_KING's, into *end where the
    endgame tables blend them) of the PASSER pieces the scan noted in `ps`, White's
    less Black's."""
    cdef int i, sq, colour, rank, v
    for i in range(ps.n):
        sq = ps.squares[i]
        if not is_passed(p, ps, sq):
            continue
        colour = code_colour(p.b[sq])
        rank = owner_rank(sq, colour)
        v = PASSED[code_type(p.b[sq]) * RANKS + rank]
        passed[0] += v if colour == 0 else -v
        if HAS_PASSED_KING:
            v = passer_kings(p, sq, colour, rank)
            if HAS_ENDGAME:       # an ending's term: blended in with the endgame tables
                end[0] += v if colour == 0 else -v
            else:
                passed[0] += v if colour == 0 else -v


# The doubled and isolated bonuses and the passed pieces' (without PASSED_KING, which
# reads the royal pieces too) depend on the pieces of the types they count alone
# (FILE_BOUND: ST_FILED or PASSER, a game's pawns), which most moves leave where they
# are; evaluate keeps their sum by those pieces' own Zobrist key (chess engines' pawn
# hash), in a table shared by every engine of the module and their threads: an entry
# holds its key xor its data, so that a reader of an entry another thread was writing
# sees a miss (as the transposition table does).  PAWN_CACHED: the game has such terms.
cdef enum:
    PAWN_CACHED = (HAS_STRUCTURE | HAS_PASSED) & (1 - HAS_PASSED_KING)
    PAWN_CACHE_SIZE = 1 << 14   # entries (a power of two): 256 KB


cdef struct PawnEntry:
    uint64_t check              # key ^ data
    uint64_t data               # the file bonuses (low 32 bits) and the passed ones


cdef PawnEntry PAWN_TABLE[PAWN_CACHE_SIZE]
cdef unsigned char FILE_BOUND[NTYPES]


cdef void fill_file_bound() noexcept:
    cdef int t
    for t in range(NTYPES):
        FILE_BOUND[t] = (HAS_STRUCTURE and ST_FILED[t]) or (HAS_PASSED and PASSER[t])


fill_file_bound()


cdef (int, int) file_bound_terms(Pos* p, const short* squares, int n, uint64_t key,
                                 bint fresh) noexcept nogil:
    """(doubled and isolated bonuses, passed bonuses), White's less Black's, of the
    FILE_BOUND pieces on squares[:n], whose Zobrist key is `key`: from PAWN_TABLE, or
    counted and kept there (`fresh`: counted whatever the table holds, and not kept:
    Engine.evaluate's check)."""
    cdef PawnEntry* e = &PAWN_TABLE[key & (PAWN_CACHE_SIZE - 1)]
    cdef uint64_t data = e.data
    cdef unsigned char by_file[2 * NTYPES * FILES]
    cdef Passers passers
    cdef int i, sq, pc, files = 0, passed = 0, end = 0
    if not fresh and e.check ^ data == key:
        return <int> <uint32_t> data, <int> <uint32_t> (data >> 32)
    memset(by_file, 0, sizeof(by_file))
    passers_clear(&passers)
    for i in range(n):
        sq = squares[i]
        pc = p.b[sq]
        if HAS_STRUCTURE and ST_FILED[code_type(pc)]:
            count_by_file(by_file, sq, pc)
        if HAS_PASSED and PASSER[code_type(pc)]:
            passers_add(&passers, sq, pc)
    if HAS_STRUCTURE:
        files = structure_files(by_file, 0) - structure_files(by_file, 1)
    if HAS_PASSED:
        passed_terms(p, &passers, &passed, &end)
    if not fresh:
        data = <uint64_t> <uint32_t> files | (<uint64_t> <uint32_t> passed) << 32
        e.data = data
        e.check = key ^ data
    return files, passed


cdef inline int blend(int middle, int end, int phase) noexcept nogil:
    """`middle` at the setup's phase (PHASE_MAX) or above, `end` at 0, in proportion
    between (C's division, towards zero: runtime/tune/features.py does the same)."""
    if phase > PHASE_MAX:
        phase = PHASE_MAX
    return (middle * phase + end * (PHASE_MAX - phase)) // PHASE_MAX


cdef int evaluate(Pos* p) noexcept nogil:
    return evaluate_with(p, False)


cdef int evaluate_with(Pos* p, bint fresh) noexcept nogil:
    """Material, square bonuses (blended with the endgame's by phase where they are
    learned: HAS_ENDGAME), passed pieces, pieces in hand, king safety, structure,
    mobility, king attacks and attackers, threats, drop checks, and the rules' own terms
    (rules_evaluate), from the side to move's view.  `fresh`: the file-bound terms
    counted, not read from PAWN_TABLE (Engine.evaluate's check of that table)."""
    cdef int score = 0, passed = 0, end = 0, phase = 0, sq, pc, t
    cdef int files = 0
    cdef unsigned char count[2 * NTYPES]              # (HAS_STRUCTURE: by side and type,
    cdef unsigned char by_file[2 * NTYPES * FILES]    # and by file for ST_FILED types)
    cdef short placed[2 * NSQ]                        # (activity: each side's squares,
    cdef int placed_n[2]                              # White's from 0, Black's from NSQ)
    cdef Passers passers                              # (HAS_PASSED, not PAWN_CACHED)
    cdef short bound[NSQ]                             # (PAWN_CACHED: the FILE_BOUND
    cdef int nbound = 0                               # pieces' squares, and their key)
    cdef uint64_t pawn_key = 0
    cdef bint active = HAS_MOBILITY or HAS_SAFE_MOBILITY or HAS_KING_ATTACKS or HAS_THREATS \
        or HAS_BOARD_CHECKS
    placed_n[0] = placed_n[1] = 0
    if HAS_PASSED and not PAWN_CACHED:
        passers_clear(&passers)
    if HAS_STRUCTURE:
        memset(count, 0, sizeof(count))
        if not PAWN_CACHED:
            memset(by_file, 0, sizeof(by_file))
    for sq in range(FIRST_SQ, LAST_SQ + 1):
        pc = p.b[sq]
        if pc > OFF:
            t = code_type(pc)
            score += MATERIAL[pc * NSQ + sq]
            if HAS_ENDGAME:
                end += MATERIAL_EG[pc * NSQ + sq]
                phase += PHASE_OF[pc]
            if active:
                placed[code_colour(pc) * NSQ + placed_n[code_colour(pc)]] = sq
                placed_n[code_colour(pc)] += 1
            if HAS_STRUCTURE:
                count[code_colour(pc) * NTYPES + t] += 1
            if PAWN_CACHED:
                if FILE_BOUND[t]:
                    bound[nbound] = sq
                    nbound += 1
                    pawn_key ^= Z_PIECE[pc * NSQ + sq]
            else:
                if HAS_STRUCTURE and ST_FILED[t]:
                    count_by_file(by_file, sq, pc)
                if HAS_PASSED and PASSER[t]:
                    passers_add(&passers, sq, pc)
    if PAWN_CACHED:
        files, passed = file_bound_terms(p, bound, nbound, pawn_key, fresh)
    else:
        if HAS_PASSED:
            passed_terms(p, &passers, &passed, &end)
        if HAS_STRUCTURE:
            files = structure_files(by_file, 0) - structure_files(by_file, 1)
    if HAS_ENDGAME:
        if HAS_DROPS:
            for t in range(NTYPES):
                phase += PHASE_WEIGHT[t] * (p.hand[t] + p.hand[NTYPES + t])
        score = blend(score, end, phase)
    score += passed
    if HAS_DROPS:
        for t in range(NTYPES):
            score += HAND_VALUE[t] * (p.hand[t] - p.hand[NTYPES + t])
    if HAS_KING_SAFETY:
        score += king_safety(p, 0) - king_safety(p, 1)
    if HAS_STRUCTURE:
        score += structure_pairs(count, 0) - structure_pairs(count, 1) + files
    if active:
        score += activity_0(p, placed, placed_n[0]) - activity_1(p, placed + NSQ, placed_n[1])
    if HAS_DROP_CHECKS:
        score += drop_checks_0(p) - drop_checks_1(p)
    score += rules_evaluate(p)
    return score if p.side == 0 else -score
