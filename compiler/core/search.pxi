# Search: the same for every game (hand-written, included by every generated engine).
#
# Alpha-beta with iterative deepening (driven from Python, one call per depth),
# quiescence on captures, a transposition table on the Zobrist key, and move ordering
# by transposition-table move, captures (most valuable victim first), killers and
# history.  Scores are centipawns from the side to move's view; mates are MATE - ply.

cdef enum:
    MATE = 30000
    MATE_BOUND = 29000
    INF = 32000
    MAX_PLY = 96
    TT_EXACT = 1
    TT_LOWER = 2
    TT_UPPER = 3
    TT_WAYS = 1                 # entries in one transposition-table bucket
    USE_SEE = 1                 # losing captures last, and not in quiescence
    SEE_LEVELS = 12             # recaptures an exchange evaluation follows at most
    FORCED_QPLIES = 4           # quiescence plies where a side obliged to capture may not stand pat
    HISTORY_MAX = 16384         # history scores stay within +-HISTORY_MAX (below the killers)
    LMR_SIZE = 64               # depths and move numbers the reduction table covers
    MAX_QUIETS = 64             # quiet moves a node remembers for the history malus
    EVAL_CACHE_SIZE = 1 << 18   # entries of each search's evaluation cache (a power of two)
    SEE_CACHE_SIZE = 1 << 16    # entries of its cache of losing_capture's answers (the same)
    EVAL_CACHE = HAS_MOBILITY | HAS_KING_ATTACKS | HAS_THREATS   # cache evaluations where they cost move generations
    CONT_ENTRIES = 1 << 21      # continuation-history scores at most (about 4 MB of shorts)
    MAX_CAPTURES = 32           # captures a node remembers for the capture-history malus
    CAPTURE_ENTRIES = NCODES * NSQ * NTYPES     # capture-history scores (taker, square, victim)
    CAPTURE_BASE = 1 << 12      # lifts the captures' ordering scores above 1 << 24 whatever
                                # their capture history (at most HISTORY_MAX / 8 below)
    QUIET_PICKS = 3             # moves pick_move brings one at a time past the captures ...
    SORT_RUN = 16               # ... before it sorts the rest (sort_rest: insertion runs, merges)
    HIGH_SCORE = 1 << 23        # ordering scores of the moves picked first (start_picking):
                                # promotions' and up (captures, the table's move)


cdef struct TTEntry:
    # Lock-free for Lazy SMP (several threads share one table): `data` packs the move,
    # score, depth, bound (2 bits) and generation (6 bits), and `check` is key ^ data, so an entry that another thread
    # was writing while this one read it fails the key test instead of being trusted.
    uint64_t check
    uint64_t data


cdef struct Settings:
    # The search's pruning parameters, which an experiment may change at run time
    # (Engine.configure_search) so that two of them can play each other in one build;
    # the defaults (default_settings) are the measured ones (docs/engine.md, "Search
    # measurements").
    int null_move               # null-move pruning: 1 on, 0 off
    int null_base               # its reduction: null_base + depth / null_depth_div plies,
    int null_depth_div          # plus a ply per null_margin centipawns of static score
    int null_margin             # above beta (0: none), at most 3 more
    int lmr_divisor             # late-move reduction 0.75 + ln(depth) ln(move) / (lmr_divisor / 100)
    int lmr_first               # the first move (in the node's order) late-move reduction
                                # may reduce: 4 leaves the first three at full depth
    int history_prune           # quiet late moves whose reduced depth is below this, with a
                                # bad history (and continuation history), are skipped (0: off)
    int lmp_depth               # late-move pruning within this many plies of the horizon (0: off)
    int futility_depth          # futility pruning (quiet moves skipped) within this many plies
    int rfp_depth               # reverse futility (static score above beta) within this many
    int rfp_margin              # ... plies, the score this far above beta: hundredths of the
                                # cheapest piece a ply of depth
    int razor_depth             # razoring (static score far below alpha) within this many
    int iir_depth               # internal iterative reduction: a node this deep or deeper
                                # that the table knows no move for is searched a ply shallower (0: off)
    int history_malus           # 1: a cut-off lowers the history of the quiet moves tried before
                                # it, and late moves with a bad history are reduced a ply more
    int see_depth               # exchange pruning within this many plies of the horizon (0: off):
                                # quiet moves that hang more than a pawn a ply, captures that lose
                                # more than two
    int qs_tt                   # 1: quiescence takes the table's bounds and tries its move first
    int qs_evasions             # quiescence plies (from its first) where a side in check
                                # may not stand pat but tries every move (0: none)
    int qs_checks               # quiescence plies (from its first) that also try the quiet
                                # moves that give check, the side in check answering with
                                # every move at the ply after (0: none; CHECK_BY_LINES games)
    int aspiration              # the root's aspiration window in centipawns (0: off); read
                                # by iterative deepening (runtime/search.py), not here
    int cont_history            # 1: quiet moves are also ordered by how they fared after
                                # the move that led to the node (continuation history)
    int tempo                   # centipawns the side to move is given in the search's
                                # static evaluations (the move it has in hand; 0: none)
    int improving               # 1: a node whose static score is no better than two plies
                                # before (the same side's) prunes more: half the late moves
                                # searched, a ply more of reduction; an improving one has
                                # its reverse-futility margin a ply smaller
    int singular_depth          # singular extension from this depth (0: off): the table's
                                # move is searched a ply deeper when every other move falls
                                # short of its score by singular_margin hundredths of the
                                # cheapest piece a ply of depth
    int singular_margin
    int qs_delta                # delta pruning in quiescence (0: off): a capture whose victim
                                # (with its value in the taker's hand, drop games) cannot lift
                                # the stand-pat score to alpha with this many hundredths of the
                                # cheapest piece to spare is not searched
    int capture_history         # 1: captures that win by exchange are also ordered by how
                                # they fared before (taker, square, victim's type), not by
                                # victim and taker alone
    int cut_reduction           # plies more of late-move reduction at an expected cut node
                                # (a null-window node its parent expects to fail high: the
                                # reduced search of a late move, and every other ply below it)
    int tt_static               # 1: a node's static score, where pruning reads it, is moved
                                # to the table's score where that bound says it lies beyond
    int check_see               # 1: a check is extended only where it does not lose its
                                # piece by exchange (a possible discovered check always is)
    int probcut                 # ProbCut (0: off): at a null-window node 5 plies or more from
                                # the horizon, a capture that wins by exchange enough to clear
                                # beta by this many hundredths of the cheapest piece, and holds
                                # that bound in a search 4 plies shallower, fails the node high
    int lmr_history             # late-move reduction by a quiet move's record (0: off): its
                                # history plus continuation history, a ply less (more) for
                                # each 100 / lmr_history quarters of HISTORY_MAX above (below)
                                # zero, in place of the killer-like ply for a good history
                                # and history_malus's ply for a bad one
    int tt_capture_reduction    # plies more of late-move reduction for quiet moves at a node
                                # whose table move is a capture
    int lmr_futility            # parent-node futility (0: off): a quiet late move whose reduced
                                # depth would be fewer plies than this, not a killer nor with
                                # a good record, is pruned where the static score and a
                                # futility margin for that reduced depth stay below alpha
    int lmr_captures            # 1: captures the ordering found losing are reduced as late
                                # quiet moves are (a ply less at a principal-variation node)
    int qs_promotions           # quiescence also searches the moves that promote without
                                # capturing (0: off), where the promotion gains at least this
                                # many hundredths of the cheapest piece (800: a queen's in chess)


cdef struct EvalEntry:
    uint64_t key
    int score


cdef struct Search:
    TTEntry* tt
    uint64_t tt_mask
    int generation              # the table's search counter (ages its entries)
    uint64_t nodes
    uint64_t node_limit
    double deadline             # seconds on the monotonic clock; 0 = none
    int stopped
    int stop_request
    int root_ply
    int least_value             # the cheapest non-royal type's value (the "pawn")
    int lines_trusted           # the root's waiting side is not in check (side_in_check)
    move_t killers[MAX_PLY][2]
    int history[NCODES * NSQ]
    move_t* movebuf             # MAX_PLY + SEE_LEVELS + 1 lists of MAX_MOVES moves (heap):
                                # one per ply, one per exchange-evaluation level, and
                                # sort_rest's scratch
    int* scores                 # move-ordering scores: MAX_PLY + 1 lists of MAX_MOVES
                                # (heap): one per ply, and sort_rest's scratch
    EvalEntry* evals            # EVAL_CACHE_SIZE evaluations by key (heap; EVAL_CACHE)
    uint64_t* sees              # SEE_CACHE_SIZE answers of losing_capture (heap): the
                                # position's key and move hashed, the answer in bit 0
    short* cont                 # continuation history (heap): 2^cont_bits rows, one per
    int cont_bits               # previous move (hashed), of NCODES * NSQ scores each
    short* captures             # capture history (heap; capture_history): a score for each
                                # taking piece's code, destination and victim's type
    Settings set
    int root_depth              # the depth of the iteration in progress (search_root)
    move_t excluded[MAX_PLY]    # the move a singular-extension test leaves out at each
                                # ply (0: none; the test's own search at that ply)
    int static_at[MAX_PLY]      # each ply's static score on the current line (-INF: in
                                # check, or not evaluated), for `improving`
    unsigned char lmr[LMR_SIZE][LMR_SIZE]   # reductions by depth and move number (set_reductions)


cdef struct TTHit:
    move_t move
    int score
    int depth
    int flag                    # 0: no entry for this key


cdef Settings default_settings() noexcept:
    cdef Settings d
    d.null_move = 0             # even in self-play in chess and shogi again and again
                                # (docs/engine.md); crazyhouse's file sets it (+19 over
                                # 1200 games), and chess's with qs_promotions and
                                # aspiration (+0.060 a game against Fairy-Stockfish)
    d.null_base = 3
    d.null_depth_div = 4
    d.null_margin = 0
    d.lmr_divisor = 225
    d.lmr_first = 4
    d.history_prune = 0
    d.lmp_depth = 3
    d.futility_depth = 3
    d.rfp_depth = 3
    d.rfp_margin = 200
    d.razor_depth = 2
    d.iir_depth = 0
    d.history_malus = 0         # chess +49, crazyhouse +46, shogi +63 over 400 games each
                                # at 60 ms: their files set it (docs/engine.md)
    d.see_depth = 0
    d.qs_tt = 0
    d.qs_evasions = 0
    d.qs_checks = 0
    d.aspiration = 0            # chess +28 over 300 games at 100 ms, +3 over 300 at 40 ms
                                # (chess's file sets 40: see null_move)
    d.cont_history = 0          # chess about +19 over 600 games at 40 ms, shogi -6 over 300
    d.tempo = 0                 # chess about +15 over 667 games at 40 ms: not shown
                                # (chess's file sets these two and qs_delta: +20 together
                                # over 800 games at 60 ms)
    d.improving = 0
    d.singular_depth = 0
    d.singular_margin = 2
    d.qs_delta = 0
    d.capture_history = 0
    d.tt_static = 0
    d.cut_reduction = 0
    d.check_see = 0
    d.probcut = 0
    d.lmr_history = 0
    d.tt_capture_reduction = 0
    d.lmr_futility = 0
    d.lmr_captures = 0
    d.qs_promotions = 0
    game_search_settings(&d)    # (generated: what a match measured for this game)
    return d


cdef void set_reductions(Search* s) noexcept:
    """Fill s.lmr from the settings: the late-move reduction of the n-th move at depth
    d is log(d) * log(n) / (lmr_divisor / 100), rounded from 0.75 up (as most
    alpha-beta engines do it since Stockfish's); with the default 2.25, one ply for
    the 4th move at depth 3, three for the 20th at depth 10."""
    cdef int d, n
    for d in range(LMR_SIZE):
        for n in range(LMR_SIZE):
            s.lmr[d][n] = <int> (0.75 + log(d) * log(n) * 100.0 / s.set.lmr_divisor) \
                if d and n else 0


cdef inline TTEntry* tt_bucket(Search* s, uint64_t key) noexcept nogil:
    """The first of the TT_WAYS entries where `key` may be stored."""
    return &s.tt[key & s.tt_mask & ~(<uint64_t> (TT_WAYS - 1))]


cdef extern from *:
    # gcc's and clang's hint that a cache line will be read soon (no fault, no result)
    void prefetch "__builtin_prefetch" (const void* address) noexcept nogil


cdef inline void prefetch_node(Search* s, uint64_t key, bint table) noexcept nogil:
    """Start loading the entries a node just made will read first: its table entry
    (`table`: the node reads the table) and its evaluation cache's.  Both tables are
    megabytes, so each read misses the processor's caches; asked for here, the loads
    run while the move's legality and the node's first tests are worked out (the
    table's read was about a tenth of a chess search's time)."""
    if table:
        prefetch(tt_bucket(s, key))
    if EVAL_CACHE:
        prefetch(&s.evals[key & (EVAL_CACHE_SIZE - 1)])


cdef inline TTHit tt_read(Search* s, uint64_t key) noexcept nogil:
    """The table's entry for `key` (flag 0 when it holds none)."""
    cdef TTEntry* e = tt_bucket(s, key)
    cdef uint64_t data = 0
    cdef int i
    cdef TTHit hit
    hit.flag = 0
    hit.move = 0
    for i in range(TT_WAYS):
        data = e[i].data
        if (e[i].check ^ data) == key and data != 0:
            break
        data = 0
    if data == 0:
        return hit
    hit.move = <move_t> <uint32_t> data      # the low 32 bits (a wider move, with a
                                             # wall square, is kept without it)
    hit.score = <int> ((data >> 32) & 0xffff) - 32768
    hit.depth = <int> ((data >> 48) & 0xff)
    hit.flag = <int> ((data >> 56) & 3)
    return hit


cdef inline int tt_worth(Search* s, uint64_t data) noexcept nogil:
    """How much an entry is worth keeping: its depth, less 8 plies for each search
    (generation) since it was written."""
    return <int> ((data >> 48) & 0xff) - 8 * ((s.generation - <int> (data >> 58)) & 63)


cdef inline void tt_write(Search* s, uint64_t key, move_t move, int score, int depth,
                          int flag) noexcept nogil:
    """Store in the bucket's entry for `key` if it has one, else in an empty entry,
    else in place of the entry worth least (shallow, or left by an older search)."""
    cdef TTEntry* e = tt_bucket(s, key)
    cdef TTEntry* victim = e
    cdef int i, worth, least = INF
    cdef uint64_t old
    cdef uint64_t data = (<uint64_t> <uint32_t> move | (<uint64_t> ((score + 32768) & 0xffff) << 32)
                          | (<uint64_t> (depth & 0xff) << 48) | (<uint64_t> flag << 56)
                          | (<uint64_t> (s.generation & 63) << 58))
    for i in range(TT_WAYS):
        old = e[i].data
        if old == 0 or (e[i].check ^ old) == key:
            victim = &e[i]
            break
        worth = tt_worth(s, old)
        if worth < least:
            least = worth
            victim = &e[i]
    victim.data = data
    victim.check = key ^ data


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int static_eval(Pos* p, Search* s) noexcept nogil:
    """evaluate(p) and the side to move's tempo (a setting), the evaluation from the
    search's cache where it is dear (EVAL_CACHE: mobility generates both sides'
    moves).  Iterative deepening meets the same leaves again at every depth.  The key
    is the transposition table's, which holds all an evaluation reads."""
    cdef EvalEntry* e
    if not EVAL_CACHE:
        return evaluate(p) + s.set.tempo
    e = &s.evals[p.key & (EVAL_CACHE_SIZE - 1)]
    if e.key != p.key:
        e.key = p.key
        e.score = evaluate(p)
    return e.score + s.set.tempo


cdef inline int captured_code(Pos* p, move_t m) noexcept nogil:
    """The code on the square `m` captures on (EMPTY where it takes nothing: a drop, a
    castling, a promotion in place or a pass)."""
    if m & (F_DROP | F_CASTLE) or move_from(m) == move_to(m):
        return EMPTY
    return p.b[p.ep_victim] if (m & F_EP) else p.b[move_to(m)]


cdef inline int victim_value(Pos* p, move_t m) noexcept nogil:
    """The captured piece's value plus one (a capture of a piece worth 0 still counts),
    0 for a move that takes nothing."""
    cdef int cap = captured_code(p, m)
    return VALUE[code_type(cap)] + 1 if cap > OFF else 0


cdef inline int history_index(Pos* p, move_t m) noexcept nogil:
    """The history-heuristic slot of a quiet move: the moving piece's code and its
    destination (a dropped piece counts as the piece it becomes)."""
    if m & F_DROP:
        return piece_code(move_selector(m) - 1, p.side) * NSQ + move_to(m)
    return p.b[move_from(m)] * NSQ + move_to(m)


cdef inline void history_update(Search* s, Pos* p, move_t m, int bonus) noexcept nogil:
    """Raise a quiet move's history score by `bonus`, less the closer it already is to
    HISTORY_MAX: the scores stay bounded and old credit fades, so that however long a
    game or an analysis runs they neither overflow nor outrank killers and captures.
    (A malus for the quiet moves tried before a cut-off made fixed-depth searches
    larger: chess kiwipete depth 8, 242,478 -> 290,550 nodes; shogi 104,203 -> 136,081.)"""
    cdef int* h = &s.history[history_index(p, m)]
    h[0] += bonus - h[0] * (bonus if bonus > 0 else -bonus) // HISTORY_MAX


cdef inline short* cont_row(Pos* p, Search* s) noexcept nogil:
    """The continuation-history scores of the quiet moves that answer the move just
    played (by history_index), or NULL: none before the first move, after a pass, or
    with the setting off.  The row is the previous move's piece and destination,
    hashed to one of 2^cont_bits rows (a row for each would cost megabytes a game in
    the large ones); a node reads only its own row, which stays in the cache."""
    cdef Undo* u
    cdef uint32_t prev
    if not s.set.cont_history or p.ply == 0 or s.cont == NULL:
        return NULL
    u = &p.hist[p.ply - 1]
    if u.move == 0:
        return NULL
    prev = <uint32_t> (u.moved * NSQ + move_to(u.move) + 1) * <uint32_t> 2654435761
    return s.cont + <size_t> (prev >> (32 - s.cont_bits)) * (NCODES * NSQ)


cdef inline void bonus_update(short* h, int bonus) noexcept nogil:
    """history_update's rule for a continuation-history score."""
    h[0] = <short> (h[0] + bonus - h[0] * (bonus if bonus > 0 else -bonus) // HISTORY_MAX)


cdef inline bint capture_history_on(Search* s) noexcept nogil:
    return s.captures != NULL and s.set.capture_history


cdef inline short* capture_score(Pos* p, Search* s, move_t m) noexcept nogil:
    """The capture history's score of the capture `m` (the taking piece's code, the
    square it takes on, the victim's type); only where capture_history_on."""
    return &s.captures[(p.b[move_from(m)] * NSQ + move_to(m)) * NTYPES
                       + code_type(captured_code(p, m))]


cdef void reward_captures(Pos* p, Search* s, move_t best, bint best_captures,
                          move_t* tried, int n, int depth) noexcept nogil:
    """After a cut-off at `depth` by the move `best`: its capture history rises if it
    captures, and falls for the captures `tried[:n]` searched before it in vain (a
    capture that looked good and was refuted here is likely refuted at its siblings)."""
    cdef int k
    if best_captures:
        bonus_update(capture_score(p, s, best), depth * depth)
    for k in range(n):
        bonus_update(capture_score(p, s, tried[k]), -depth * depth)


cdef inline int captured_value(Pos* p, move_t m) noexcept nogil:
    """The value of the piece `m` captures (0 for none)."""
    cdef int cap = captured_code(p, m)
    return VALUE[code_type(cap)] if cap > OFF else 0


cdef inline int capture_gain(Pos* p, move_t m) noexcept nogil:
    """What the capture `m` wins at most: its victim's value, and in a drop game the
    value of the piece it puts in the taker's hand (a promotion's gain aside)."""
    cdef int cap = captured_code(p, m), held
    if not HAS_DROPS or cap <= OFF:
        return captured_value(p, m)
    held = CAPTURE_TO_HAND[p.side * NTYPES + code_type(cap)]
    return captured_value(p, m) + (HAND_VALUE[held] if held >= 0 else 0)


cdef inline int value_on(Pos* p, int sq) noexcept nogil:
    return VALUE[code_type(p.b[sq])] if p.b[sq] > OFF else 0


cdef int see_reply(Pos* p, Search* s, int sq, int level) noexcept nogil:
    """What the side to move wins, at least 0, by exchanging on `sq`: it captures there
    with its least valuable piece that can legally do so (of those, the capture that
    gains most, promotion included), or stops.  Make-based, so that every piece the
    rules can express (hoppers, pieces that capture otherwise than they move) counts
    through the generated move generator, with x-rays and pins."""
    cdef move_t* mv = s.movebuf + (MAX_PLY + level) * MAX_MOVES
    cdef int n, i, mover, gain, best_mover = INF, best_gain = 0, victim
    cdef move_t m, best = 0
    if level >= SEE_LEVELS or p.b[sq] <= OFF:
        return 0
    if not CAPTURES_BY_SOURCE and not attacked(p.b, sq, p.side):
        return 0                  # (captures_onto's own walk finds no attacker as fast)
    victim = value_on(p, sq)
    n = captures_onto(p, mv, sq)
    for i in range(n):
        m = mv[i]
        if move_to(m) != sq or (m & (F_DROP | F_CASTLE | F_EP)):
            continue
        mover = VALUE[code_type(p.b[move_from(m)])]
        if mover > best_mover:
            continue
        make(p, m)
        if legal_after_make(p, m, 1, True):
            gain = victim + value_on(p, sq) - mover
            if mover < best_mover or gain > best_gain:
                best, best_mover, best_gain = m, mover, gain
        unmake(p)
    if not best:
        return 0
    make(p, best)
    gain = best_gain - see_reply(p, s, sq, level + 1)
    unmake(p)
    return gain if gain > 0 else 0


cdef int see(Pos* p, Search* s, move_t m) noexcept nogil:
    """Static exchange evaluation of the capture `m`: the material it wins (negative:
    loses) when both sides then exchange on its square, each free to stop."""
    cdef int to = move_to(m), gain, victim = captured_value(p, m)
    cdef int mover = VALUE[code_type(p.b[move_from(m)])]
    make(p, m)
    gain = victim + value_on(p, to) - mover
    if legal_after_make(p, m, 1, True):
        gain -= see_reply(p, s, to, 0)
    unmake(p)
    return gain


cdef inline bint losing_capture(Pos* p, Search* s, move_t m) noexcept nogil:
    """Does the capture `m` lose material by exchange?  (Taking a piece worth at least
    the taker's value never does, so only the others are evaluated.)  The answer is
    cached: an exchange evaluation makes and generates captures at every level, and
    iterative deepening orders the same captures of the same positions at each depth."""
    cdef uint64_t h
    cdef uint64_t* entry
    cdef bint losing
    if captured_value(p, m) >= VALUE[code_type(p.b[move_from(m)])]:
        return False
    h = (p.key ^ (<uint64_t> m * <uint64_t> 0x9E3779B97F4A7C15)) | 1
    entry = &s.sees[(h >> 1) & (SEE_CACHE_SIZE - 1)]
    if (entry[0] | 1) == h:
        return entry[0] & 1 == 0
    losing = see(p, s, m) < 0
    entry[0] = h ^ losing         # bit 0 clear: losing
    return losing


cdef inline int* ply_scores(Search* s, int ply) noexcept nogil:
    """The move-ordering scores of the list searched at `ply`."""
    return s.scores + ply * MAX_MOVES


cdef void score_moves(Pos* p, Search* s, move_t* mv, int n, move_t tt_move,
                      int ply, bint lazy_see=False) noexcept nogil:
    """Give each move its ordering score (ply_scores), higher first: the table's move,
    captures that do not lose (most valuable victim, least valuable taker), promotions,
    killers, quiet moves by history, losing captures last.  With `lazy_see`, captures
    are scored as if none lost: pick_move tells the losing ones when it reaches them,
    so that no exchange is evaluated for a move a cut-off never reaches."""
    cdef int* scores = ply_scores(s, ply)
    cdef int i, sc, frm, sel
    cdef move_t m
    cdef short* cont = cont_row(p, s)
    for i in range(n):
        m = mv[i]
        frm = move_from(m)
        sel = move_selector(m)
        if m == tt_move:
            sc = 1 << 30
        else:
            sc = victim_value(p, m)
            if sc and USE_SEE and not lazy_see and losing_capture(p, s, m):
                sc = -(1 << 24) + sc     # after the quiet moves (quiescence skips them)
            elif sc:
                sc = (1 << 24) + CAPTURE_BASE + sc * 16 - (VALUE[code_type(p.b[frm])] >> 4)
                if capture_history_on(s):
                    sc += capture_score(p, s, m)[0] // 8
            elif sel and not (m & (F_DROP | F_CASTLE)):
                sc = HIGH_SCORE + VALUE[sel - 1]
            elif ply < MAX_PLY and m == s.killers[ply][0]:
                sc = 1 << 22
            elif ply < MAX_PLY and m == s.killers[ply][1]:
                sc = (1 << 22) - 1
            else:
                sc = s.history[history_index(p, m)]
                if cont != NULL:
                    sc += cont[history_index(p, m)]
        scores[i] = sc


cdef inline int best_of(int* scores, int i, int n) noexcept nogil:
    """The index of the best of scores[i:n], the first of equals."""
    cdef int j, best = i
    for j in range(i + 1, n):
        if scores[j] > scores[best]:
            best = j
    return best


cdef inline void bring(move_t* mv, int* scores, int i, int j) noexcept nogil:
    """Move mv[j] (and its score) to i, the ones between keeping their order: bringing
    the best of the rest to the front one at a time gives the order a stable sort
    would, without sorting the moves a cut-off never reaches."""
    cdef move_t m = mv[j]
    cdef int sc = scores[j], k
    for k in range(j, i, -1):
        mv[k] = mv[k - 1]
        scores[k] = scores[k - 1]
    mv[i] = m
    scores[i] = sc


cdef struct Picker:
    # Where pick_move stands in one node's move list.
    int high_end                # mv[:high_end] were the moves scored HIGH_SCORE or more
                                # (0 once none of those is left unpicked)
    int sorted_from             # mv[sorted_from:n] are in their final order (n: not yet)
    int quiet_picks             # moves picked since the captures ran out


cdef void start_picking(Search* s, move_t* mv, int* scores, int n, Picker* pk) noexcept nogil:
    """Set up picking from the scored list mv[:n]: the moves scored HIGH_SCORE or more
    (the table's move, captures, promotions) are put first, each part keeping its
    order, so that picking them scans only them and not a drop game's hundred quiet
    moves each time.  No move of one part ties with one of the other, so the order
    picked is the one the unparted list gives."""
    cdef move_t* low_mv = s.movebuf + (MAX_PLY + SEE_LEVELS) * MAX_MOVES    # (scratch)
    cdef int* low_sc = s.scores + MAX_PLY * MAX_MOVES
    cdef int i, high = 0, low = 0
    for i in range(n):
        if scores[i] >= HIGH_SCORE:
            mv[high] = mv[i]
            scores[high] = scores[i]
            high += 1
        else:
            low_mv[low] = mv[i]
            low_sc[low] = scores[i]
            low += 1
    memcpy(mv + high, low_mv, low * sizeof(move_t))
    memcpy(scores + high, low_sc, low * sizeof(int))
    pk.high_end = high
    pk.sorted_from = n
    pk.quiet_picks = 0


cdef void merge_runs(move_t* mv, int* sc, move_t* out_mv, int* out_sc, int lo, int mid,
                     int hi) noexcept nogil:
    """Merge the runs [lo, mid) and [mid, hi), each best-first, into out_*: the left
    run's move first among equal scores (a stable merge)."""
    cdef int a = lo, b = mid, k = lo
    while a < mid and b < hi:
        if sc[a] >= sc[b]:
            out_mv[k] = mv[a]
            out_sc[k] = sc[a]
            a += 1
        else:
            out_mv[k] = mv[b]
            out_sc[k] = sc[b]
            b += 1
        k += 1
    while a < mid:
        out_mv[k] = mv[a]
        out_sc[k] = sc[a]
        a += 1
        k += 1
    while b < hi:
        out_mv[k] = mv[b]
        out_sc[k] = sc[b]
        b += 1
        k += 1


cdef void sort_rest(Search* s, move_t* mv, int* scores, int lo, int n) noexcept nogil:
    """Sort mv[lo:n] best-first, stably (equal scores keep their order): the order
    that picking them one at a time gives, in n log n steps instead of
    n^2 (a drop game's node has a hundred quiet moves or more, and a node that fails
    low picks every one).  Runs of SORT_RUN by insertion, then merges back and forth
    between the list and the search's scratch list."""
    cdef move_t* tmp_mv = s.movebuf + (MAX_PLY + SEE_LEVELS) * MAX_MOVES
    cdef int* tmp_sc = s.scores + MAX_PLY * MAX_MOVES
    cdef move_t* src_mv = mv
    cdef int* src_sc = scores
    cdef move_t* swap_mv
    cdef int* swap_sc
    cdef int start, end, i, j, sc, width = SORT_RUN, lo2
    cdef move_t m
    start = lo
    while start < n:
        end = start + SORT_RUN if start + SORT_RUN < n else n
        for i in range(start + 1, end):     # insertion: past the lower scores only
            m = mv[i]
            sc = scores[i]
            j = i - 1
            while j >= start and scores[j] < sc:
                mv[j + 1] = mv[j]
                scores[j + 1] = scores[j]
                j -= 1
            mv[j + 1] = m
            scores[j + 1] = sc
        start = end
    while lo + width < n:
        lo2 = lo
        while lo2 < n:
            merge_runs(src_mv, src_sc, tmp_mv, tmp_sc, lo2,
                       lo2 + width if lo2 + width < n else n,
                       lo2 + 2 * width if lo2 + 2 * width < n else n)
            lo2 += 2 * width
        swap_mv, swap_sc = src_mv, src_sc
        src_mv, src_sc = tmp_mv, tmp_sc
        tmp_mv, tmp_sc = swap_mv, swap_sc
        width *= 2
    if src_mv != mv:
        memcpy(mv + lo, src_mv + lo, (n - lo) * sizeof(move_t))
        memcpy(scores + lo, src_sc + lo, (n - lo) * sizeof(int))


cdef inline void pick_move(Pos* p, Search* s, move_t* mv, int* scores, int i,
                           int n, Picker* pk) noexcept nogil:
    """Bring the best of mv[i:n] to i, over moves scored with lazy_see: a capture it
    brings that loses by exchange is scored as a losing capture (after the quiet
    moves) and the next best is brought instead.  The order is the one score_moves without lazy_see gives, but
    for ties among losing captures (one found losing here stands before those it
    passed): quiescence, which skips losing captures, searches the same moves.
    Once the captures are past, every score left is final, and after QUIET_PICKS
    moves picked one at a time (the killers; a cut-off comes early or not at all)
    the rest are sorted at once, to the same order."""
    cdef int j
    if i >= pk.sorted_from:
        return
    while True:
        if i < pk.high_end:
            j = best_of(scores, i, pk.high_end)
            if scores[j] < HIGH_SCORE:      # only captures found losing left there:
                pk.high_end = 0             # their scores are below every other
                j = best_of(scores, i, n)
        else:
            j = best_of(scores, i, n)
        bring(mv, scores, i, j)
        if not USE_SEE or not (1 << 24) <= scores[i] < (1 << 30) \
                or not losing_capture(p, s, mv[i]):
            break
        scores[i] = -(1 << 24) + victim_value(p, mv[i])
    if scores[i] < (1 << 24):
        pk.quiet_picks += 1
        if pk.quiet_picks == QUIET_PICKS and n - i > SORT_RUN:
            sort_rest(s, mv, scores, i + 1, n)
            pk.sorted_from = i + 1


cdef void order_moves(Pos* p, Search* s, move_t* mv, int n, move_t tt_move,
                      int ply) noexcept nogil:
    """Sort moves best-first, stably (their scores stay in ply_scores beside them)."""
    score_moves(p, s, mv, n, tt_move, ply)
    sort_rest(s, mv, ply_scores(s, ply), 0, n)


cdef inline int captures_only(Pos* p, move_t* mv, int n) noexcept nogil:
    """Keep the captures of `mv[:n]` at its head, in their order, and say how many:
    quiescence orders and searches only those, and in drop games most moves are drops."""
    cdef int i, k = 0
    for i in range(n):
        if victim_value(p, mv[i]):
            mv[k] = mv[i]
            k += 1
    return k


cdef inline int promotion_gain(Pos* p, move_t m) noexcept nogil:
    """What the promotion of the board move `m` adds: the value of the type it becomes
    less its piece's own (0 for a move that does not promote, a drop or castling)."""
    if not move_selector(m) or m & (F_DROP | F_CASTLE):
        return 0
    return VALUE[move_selector(m) - 1] - VALUE[code_type(p.b[move_from(m)])]


cdef inline int quiescence_moves(Pos* p, Search* s, move_t* mv, int n) noexcept nogil:
    """Of the capture generator's list mv[:n]: the captures, and with qs_promotions the
    promotions that take nothing and gain enough (the generator lists those of a piece
    that must promote where it arrives).  A pawn a step from queening is a queen at the
    horizon, which no static score sees.  Not where captures are compulsory: a move
    that takes nothing may be illegal there, which quiescence's legality test (a
    look-ahead's) does not ask."""
    cdef int i, k = 0, least_gain
    if not s.set.qs_promotions or HAS_MUST_CAPTURE:
        return captures_only(p, mv, n)
    least_gain = s.least_value * s.set.qs_promotions // 100
    for i in range(n):
        if victim_value(p, mv[i]) or promotion_gain(p, mv[i]) >= least_gain:
            mv[k] = mv[i]
            k += 1
    return k


cdef inline void make_null(Pos* p) noexcept nogil:
    """Pass the move (null-move pruning).  The halfmove clock restarts so that no
    repetition is counted across the pass."""
    cdef Undo* u = &p.hist[p.ply]
    u.move = 0
    u.ep = p.ep
    u.ep_victim = p.ep_victim
    u.halfmove = p.halfmove
    u.key = p.key
    if p.ep:
        p.key ^= Z_EP[p.ep]
        p.ep = 0
    p.halfmove = 0
    p.side ^= 1
    p.key ^= Z_SIDE
    p.ply += 1


cdef inline void unmake_null(Pos* p) noexcept nogil:
    p.ply -= 1
    cdef Undo* u = &p.hist[p.ply]
    p.side ^= 1
    p.ep = u.ep
    p.ep_victim = u.ep_victim
    p.halfmove = u.halfmove
    p.key = u.key


cdef int least_piece_value() noexcept nogil:
    cdef int t, least = INF
    for t in range(NTYPES):
        if t != ROYAL_TYPE and 0 < VALUE[t] < least:
            least = VALUE[t]
    return least


cdef bint has_pieces(Pos* p, int least) noexcept nogil:
    """Does the side to move have a piece worth more than the cheapest type, on the
    board or in hand?  Without one, zugzwang is likely and a pass proves nothing."""
    cdef int sq, pc, t
    for sq in range(FIRST_SQ, LAST_SQ + 1):
        pc = p.b[sq]
        if pc > OFF and (pc & 1) == p.side and VALUE[code_type(pc)] > least:
            return True
    if HAS_DROPS:
        for t in range(NTYPES):
            if p.hand[p.side * NTYPES + t] and VALUE[t] > least:
                return True
    return False


cdef inline bint out_of_time(Search* s) noexcept nogil:
    if s.stopped:
        return True
    if s.stop_request or (s.node_limit and s.nodes >= s.node_limit):
        s.stopped = 1
    elif s.deadline > 0 and (s.nodes & 1023) == 0 and now() >= s.deadline:
        s.stopped = 1
    return s.stopped


cdef inline bint side_in_check(Pos* p, Search* s) noexcept nogil:
    """in_check(p, p.side) at a node of the search.  Every move in the tree is legal,
    so the side to move was not in check before the last move (s.lines_trusted says
    the root's waiting side was not either): in a CHECK_BY_LINES game gives_check then
    answers for most moves without the attack test, and a pass changes nothing."""
    cdef move_t last
    cdef int quick
    if CHECK_BY_LINES and s.lines_trusted:
        last = p.hist[p.ply - 1].move
        if last == 0:
            return False              # a null move: the side was waiting, not in check
        quick = gives_check(p, last)
        if quick >= 0:
            return quick
    return in_check(p, p.side)


cdef bint repeated(Pos* p) noexcept nogil:
    """Has this position occurred before (since the last capture or pawn move)?"""
    cdef int i = p.ply - 2, limit = p.ply - p.halfmove
    while i >= 0 and i >= limit:
        if p.hist[i].key == p.key:
            return True
        i -= 2
    return False


cdef inline int game_end_score(int result, int ply) noexcept nogil:
    """The score of a game a rule has ended, for the side to move (mate-like, so that
    the nearest win is preferred)."""
    if result == RESULT_LOSS:
        return -MATE + ply
    if result == RESULT_WIN:
        return MATE - ply
    return 0


cdef inline int tt_score(int score, int ply) noexcept nogil:
    """A score from the table, where mates are stored from the node's view, as seen
    from the root (`ply` plies above)."""
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


cdef int quiesce(Pos* p, Search* s, int alpha, int beta, int ply,
                 int forced_left) noexcept nogil:
    """Captures only, from a static evaluation the side to move may stand on; where a
    rule obliges it to capture (HAS_MUST_CAPTURE), it may not, and every capture is
    searched, losing ones too, in the first `forced_left` plies (capture chains
    branch: beyond them the usual stand-pat bound keeps quiescence small)."""
    cdef move_t* mv = s.movebuf + ply * MAX_MOVES
    cdef int n, i, score, stand, qply
    cdef int reason, result
    cdef bint forced = False, evading = False
    cdef move_t searched = 0      # (wide moves: the last capture searched)
    cdef move_t tt_move = 0
    cdef int legal_count = 0
    cdef TTHit hit
    cdef Picker picker
    s.nodes += 1
    if out_of_time(s):
        return 0
    if HAS_GAME_END:
        result = rules_game_end(p, &reason)
        if result:
            return game_end_score(result, ply)
    if ply >= MAX_PLY - 1:
        return static_eval(p, s)
    if s.set.qs_tt:
        hit = tt_read(s, p.key)
        if hit.flag:
            score = tt_score(hit.score, ply)
            if hit.flag == TT_EXACT or (hit.flag == TT_LOWER and score >= beta) or \
                    (hit.flag == TT_UPPER and score <= alpha):
                return score
            tt_move = hit.move
    if HAS_MUST_CAPTURE and forced_left > 0:
        forced = rules_must_capture(p)
    qply = FORCED_QPLIES - forced_left
    if (qply < s.set.qs_evasions or 0 < qply <= s.set.qs_checks) and side_in_check(p, s):
        evading = forced = True   # standing pat in check would ignore a mate
    if not forced:
        stand = static_eval(p, s)
        if stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
    elif evading and alpha < -MATE + ply:
        alpha = -MATE + ply       # (no legal move: returned below)
    if evading:
        n = gen_pseudo(p, mv)
    else:
        n = quiescence_moves(p, s, mv, gen_captures(p, mv))
    score_moves(p, s, mv, n, tt_move, ply, True)
    start_picking(s, mv, ply_scores(s, ply), n, &picker)
    for i in range(n):
        pick_move(p, s, mv, ply_scores(s, ply), i, n, &picker)
        if not forced and ply_scores(s, ply)[i] < 0:
            break                 # the rest lose material by exchange too
        if s.set.qs_delta and not forced and not move_selector(mv[i]) and stand \
                + capture_gain(p, mv[i]) + s.least_value * s.set.qs_delta // 100 <= alpha:
            continue              # even winning the victim free leaves it below alpha
        if WIDE_MOVES and searched and <uint32_t> mv[i] == <uint32_t> searched:
            # A capture followed by a wall placement (the duck) is searched with one wall
            # square only: which square changes little in a capture sequence, and every
            # square would multiply quiescence by the empty squares at each ply.
            continue
        make(p, mv[i])
        prefetch_node(s, p.key, s.set.qs_tt)
        if not legal_after_make(p, mv[i], 0 if evading else 1, True):
            unmake(p)
            continue
        legal_count += 1
        searched = mv[i]
        score = -quiesce(p, s, -beta, -alpha, ply + 1, forced_left - 1)
        unmake(p)
        if s.stopped:
            return 0
        if score >= beta:
            return score
        if score > alpha:
            alpha = score
    if evading and legal_count == 0:
        return no_move_score(p, ply)
    if CHECK_BY_LINES and not forced and qply < s.set.qs_checks:
        alpha = quiet_checks(p, s, mv, alpha, beta, ply, forced_left)
        if s.stopped:
            return 0
    return alpha


cdef inline bint may_give_check(Pos* p, move_t m) noexcept nogil:
    """Before making the quiet move `m` (CHECK_BY_LINES games): could it check the enemy
    royal piece, by the piece it puts down (CHECKS_FROM) or by a line it opens (ON_LINE)?
    A filter: gives_check decides once it is made."""
    cdef int king = p.royal[p.side ^ 1], frm = move_from(m), to = move_to(m), code
    if king < 0 or (m & F_CASTLE):
        return False
    if m & F_DROP:
        code = piece_code(move_selector(m) - 1, p.side)
    elif ON_LINE[king * NSQ + frm]:
        return True
    else:
        code = piece_code(move_selector(m) - 1, p.side) if move_selector(m) else p.b[frm]
    return CHECKS_FROM[code * 2 * NSQ + NSQ + king - to] != 0


cdef inline bint cannot_check(Pos* p, Search* s, move_t m) noexcept nogil:
    """Is the quiet move `m`, not yet made, sure not to give check (may_give_check's
    filter, where side_in_check's short cut holds too; castling is not filtered)?"""
    return CHECK_BY_LINES and s.lines_trusted and not (m & F_CASTLE) \
        and not may_give_check(p, m)


cdef int quiet_checks(Pos* p, Search* s, move_t* mv, int alpha, int beta, int ply,
                      int forced_left) noexcept nogil:
    """Quiescence's second part at its first qs_checks plies: the quiet moves (drops
    too) that give check and do not lose their piece by exchange, each answered by
    every move of the side in check, so that a mate or a fork by a check just past the
    horizon is seen.  Returns alpha raised by any of them (at least beta: a
    cut-off)."""
    cdef int n = gen_pseudo(p, mv), i, score
    cdef move_t m
    for i in range(n):
        m = mv[i]
        if victim_value(p, m) or not may_give_check(p, m):
            continue
        make(p, m)
        if not legal_after_make(p, m, 1, True) or not side_in_check(p, s) \
                or see_reply(p, s, move_to(m), 0) > 0:
            unmake(p)             # (a checking piece that is lost by exchange
            continue              # seldom pays for it)
        score = -quiesce(p, s, -beta, -alpha, ply + 1, forced_left - 1)
        unmake(p)
        if s.stopped:
            return alpha
        if score > alpha:
            alpha = score
            if alpha >= beta:
                break
    return alpha


cdef int null_move_cutoff(Pos* p, Search* s, int depth, int beta, int ply,
                          bint cut) noexcept nogil:
    """Null-move pruning at a null-window node: if passing still holds beta after a
    reduced search, a real move will too (the score to return), else -INF.  Not where
    the side to move has only its cheapest type (zugzwang), nor near mate scores; deep
    cut-offs are verified by a reduced search without a pass at this node."""
    cdef int r = s.set.null_base + depth // s.set.null_depth_div, score, static, more
    if beta >= MATE_BOUND or beta <= -MATE_BOUND or not has_pieces(p, s.least_value):
        return -INF
    static = static_eval(p, s)
    if static < beta:
        return -INF
    if s.set.null_margin:
        more = (static - beta) // s.set.null_margin
        r += more if more < 3 else 3
    make_null(p)
    prefetch_node(s, p.key, True)
    score = -alphabeta(p, s, depth - 1 - r, -beta, -beta + 1, ply + 1, False, not cut)
    unmake_null(p)
    if s.stopped or score < beta:
        return -INF
    if score >= MATE_BOUND:
        score = beta                  # a mate found after a pass is not a proven mate
    if depth >= 10:
        if alphabeta(p, s, depth - 1 - r, beta - 1, beta, ply, False, cut) < beta or s.stopped:
            return -INF
    return score


cdef inline int futility_margin(Search* s, int depth) noexcept nogil:
    """How far below alpha (or above beta) a static evaluation `depth` plies from the
    horizon may be before the search gives up on (or accepts) the node: two of the
    game's cheapest pieces a ply."""
    return 2 * s.least_value * depth


cdef inline int rfp_margin(Search* s, int depth) noexcept nogil:
    """How far above beta a static evaluation `depth` plies from the horizon must be
    for reverse futility to take it as a fail high (the setting rfp_margin, in
    hundredths of the game's cheapest piece a ply: 200 is futility_margin's)."""
    return s.least_value * s.set.rfp_margin * depth // 100


cdef int shallow_cutoff(Pos* p, Search* s, int depth, int alpha, int beta, int ply,
                        int static, bint improving) noexcept nogil:
    """Reverse futility and razoring at a null-window node near the horizon, not in
    check (the caller's condition) nor near mate scores: a static evaluation a margin
    above beta is taken as a fail high, and one far below alpha that quiescence cannot
    lift is taken as a fail low.  The score to return, or -INF to search on."""
    cdef int score
    if beta >= MATE_BOUND or alpha <= -MATE_BOUND:
        return -INF
    if depth <= s.set.rfp_depth and static - rfp_margin(s, depth - improving) >= beta:
        return static - rfp_margin(s, depth - improving)
    if depth <= s.set.razor_depth and static + 3 * s.least_value * depth <= alpha:
        score = quiesce(p, s, alpha, alpha + 1, ply, FORCED_QPLIES)
        if score <= alpha:
            return score
    return -INF


cdef inline int lmr_plies(Search* s, int depth, int legal_count) noexcept nogil:
    """The reduction table's plies (set_reductions) for the legal_count-th move at
    `depth`, both cut to the table's size."""
    return s.lmr[depth if depth < LMR_SIZE else LMR_SIZE - 1][
        legal_count if legal_count < LMR_SIZE else LMR_SIZE - 1]


cdef inline int reduction(Pos* p, Search* s, move_t m, int depth, int legal_count,
                          bint checked, int ply, bint pv, int history,
                          int stat, bint worsening, bint cut, bint tt_capture) noexcept nogil:
    """Late-move reduction of a quiet move already made (a capture's: capture_reduction):
    those late in the ordering (from the lmr_first-th), at depth 3 or more, that
    neither escape nor give check, are searched shallower, the more the deeper and
    later (s.lmr), a ply less at a principal-variation node, for a killer and for a
    move with a good history (or by its whole record `stat`, history plus continuation
    history, with lmr_history); never into quiescence."""
    cdef int r
    if depth < 3 or legal_count < s.set.lmr_first or checked:
        return 0
    if side_in_check(p, s):
        return 0
    r = lmr_plies(s, depth, legal_count)
    if pv:
        r -= 1
    elif worsening:
        r += 1
    if cut:
        r += s.set.cut_reduction
    if tt_capture:
        r += s.set.tt_capture_reduction   # (a capture is likely the best move here)
    if ply < MAX_PLY and (m == s.killers[ply][0] or m == s.killers[ply][1]):
        r -= 1
    if s.set.lmr_history:
        r -= stat * s.set.lmr_history // (100 * (HISTORY_MAX // 4))
    elif history > HISTORY_MAX // 4:
        r -= 1
    elif s.set.history_malus and history < -HISTORY_MAX // 4:
        r += 1
    if r > depth - 2:
        r = depth - 2
    return r if r > 0 else 0


cdef inline int capture_reduction(Pos* p, Search* s, int depth, int legal_count,
                                  bint checked, bint pv, int order_score) noexcept nogil:
    """Late-move reduction of a capture already made (setting lmr_captures): one the
    ordering found losing by exchange (order_score below zero), as late and as deep as
    a quiet move would need, that neither escapes nor gives check, is reduced by the
    table's plies, a ply less at a principal-variation node."""
    cdef int r
    if not s.set.lmr_captures or order_score >= 0 or depth < 3 \
            or legal_count < s.set.lmr_first or checked:
        return 0
    if side_in_check(p, s):
        return 0
    r = lmr_plies(s, depth, legal_count) - pv
    if r > depth - 2:
        r = depth - 2
    return r if r > 0 else 0


cdef inline bint late_move(Search* s, int depth, int legal_count,
                           bint worsening) noexcept nogil:
    """Is a quiet move this late in the ordering, this near the horizon, not worth
    searching at a null-window node (late-move pruning: 3 + depth^2 moves are, half
    as many where the static score is worsening)?"""
    return depth <= s.set.lmp_depth and legal_count > (3 + depth * depth) >> worsening


cdef inline bint bad_history(Search* s, move_t m, int depth, int legal_count, int ply,
                             int history, short* cont, int index) noexcept nogil:
    """History pruning (setting history_prune, as Stockfish's counter-move pruning):
    is the quiet move `m`, the legal_count-th, one whose late-move reduction would
    leave it fewer than history_prune plies, and that has failed where it was tried
    (its history and, where kept, its continuation history after the last move both
    below zero)?  Killers are kept."""
    if history >= 0 or (cont != NULL and cont[index] >= 0):
        return False
    if ply < MAX_PLY and (m == s.killers[ply][0] or m == s.killers[ply][1]):
        return False
    return depth - 1 - lmr_plies(s, depth, legal_count) < s.set.history_prune


cdef inline bint futile_late_move(Search* s, move_t m, int depth, int legal_count, int ply,
                                  int stat, int static, int alpha) noexcept nogil:
    """Parent-node futility (setting lmr_futility, as Stockfish's): is the quiet move
    `m`, the legal_count-th, one whose late-move reduction would leave it fewer than
    lmr_futility plies, that is neither a killer nor has a good record (`stat`,
    history plus continuation history, below half HISTORY_MAX), and that the static
    score cannot lift to alpha with the futility margin of that reduced depth?"""
    cdef int plies
    if legal_count < s.set.lmr_first or stat >= HISTORY_MAX // 2 \
            or alpha <= -MATE_BOUND or alpha >= MATE_BOUND:
        return False
    if ply < MAX_PLY and (m == s.killers[ply][0] or m == s.killers[ply][1]):
        return False
    plies = depth - 1 - lmr_plies(s, depth, legal_count)
    if plies < 0:
        plies = 0
    return plies < s.set.lmr_futility and static + futility_margin(s, plies + 1) <= alpha


cdef inline bint loses_exchange(Pos* p, Search* s, move_t m, int depth, bint quiet,
                                 int taken, int mover) noexcept nogil:
    """Exchange pruning, with the move `m` just made (`taken`: the value it captured,
    `mover`: its piece's before it moved): does it lose, if the opponent then exchanges
    on its square, more than a pawn a ply of `depth` (a quiet move) or two pawns a ply
    (a capture)?  The caller asks only about the captures the ordering found losing."""
    cdef int to = move_to(m)
    if m & F_CASTLE:
        return False
    if quiet:
        return see_reply(p, s, to, 0) > s.least_value * depth
    return taken + value_on(p, to) - mover - see_reply(p, s, to, 0) \
        < -2 * s.least_value * depth


cdef int singular_extension(Pos* p, Search* s, TTHit* hit, int depth, int beta, int ply,
                            bint cut, int* cutoff) noexcept nogil:
    """Singular extension test at a node whose table entry holds a move with a lower
    bound (or exact score) from nearly this depth: search the node without that move,
    half as deep, against a bound a margin below the table's score.  1 (search the
    table's move a ply deeper) when no other move reaches the bound: the move is the
    only good one, and a line that hangs on one move is where a shallow search
    errs.  When even the bound is at least beta, some other move also holds beta, so
    the node fails high without searching (multi-cut: *cutoff the score, else -INF)."""
    cdef int value = tt_score(hit.score, ply), bound, score
    cutoff[0] = -INF
    if value >= MATE_BOUND or value <= -MATE_BOUND or hit.depth < depth - 3 \
            or hit.flag == TT_UPPER or ply >= 2 * s.root_depth:
        return 0
    bound = value - s.least_value * s.set.singular_margin * depth // 100
    s.excluded[ply] = hit.move
    score = alphabeta(p, s, (depth - 1) // 2, bound - 1, bound, ply, False, cut)
    s.excluded[ply] = 0
    if s.stopped:
        return 0
    if score < bound:
        return 1
    if bound >= beta:
        cutoff[0] = bound
    return 0


cdef inline int search_move(Pos* p, Search* s, int depth, int alpha, int beta, int ply,
                            int legal_count, int reduce, bint cut) noexcept nogil:
    """The score of the move just made: principal variation search (the first move
    with the full window, the others with a null window first), with the move searched
    `reduce` plies shallower at first and again at full depth if it then beats alpha.
    `cut`: this node is an expected cut node; below it, a reduced search's node is one
    (its parent expects the late move to fail), a principal variation's is not, and
    otherwise they alternate."""
    cdef int score
    cdef bint pv = beta - alpha > 1
    if legal_count == 1:
        return -alphabeta(p, s, depth - 1, -beta, -alpha, ply + 1, True, not pv and not cut)
    score = -alphabeta(p, s, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, True,
                       True if reduce else not cut)
    if reduce and score > alpha and not s.stopped:
        score = -alphabeta(p, s, depth - 1, -alpha - 1, -alpha, ply + 1, True, not cut)
    if alpha < score < beta and not s.stopped:
        score = -alphabeta(p, s, depth - 1, -beta, -alpha, ply + 1, True, False)
    return score


cdef inline int bounded_static(int static, TTHit* hit, int ply) noexcept nogil:
    """The static score `static`, moved to the table's score where the entry's bound
    says the node's value lies beyond it (a lower bound above it, an upper bound below
    it): a search, however shallow, knows more than the evaluation, and the pruning
    that reads the static score then errs less (tt_static).  Mate scores are left
    out: no margin applies to them."""
    cdef int score = tt_score(hit.score, ply)
    if score >= MATE_BOUND or score <= -MATE_BOUND:
        return static
    if (hit.flag == TT_LOWER and score > static) or (hit.flag == TT_UPPER and score < static) \
            or hit.flag == TT_EXACT:
        return score
    return static


cdef inline (bint, bint) improvement(Search* s, int static, int ply) noexcept nogil:
    """(improving, worsening): is the side to move's static score `static` better, or
    no better, than at its last node two plies up?  Neither where that one is unknown
    (in check, or the root)."""
    cdef int before = s.static_at[ply - 2] if ply >= 2 else -INF
    if before == -INF:
        return False, False
    return static > before, static <= before


cdef int probcut(Pos* p, Search* s, int depth, int beta, int ply, int static,
                 bint cut) noexcept nogil:
    """ProbCut at a null-window node not in check: if a capture that wins at least
    `raised - static` by exchange (raised: beta and a margin) holds `raised` in
    quiescence and then in a search 4 plies shallower, a full-depth search would almost
    surely hold beta: the score to return, else -INF.  At most three captures are
    tried (the first ones generated that pass the exchange test): the test must stay
    cheap beside the search it saves."""
    cdef move_t* mv = s.movebuf + ply * MAX_MOVES
    cdef int raised = beta + s.least_value * s.set.probcut // 100, n, i, tried = 0
    cdef int score, to, taken, mover
    cdef move_t m
    if beta <= -MATE_BOUND or raised >= MATE_BOUND:
        return -INF
    n = gen_captures(p, mv)
    for i in range(n):
        m = mv[i]
        if tried >= 3:
            break
        if m == s.excluded[ply] or move_selector(m):
            continue                  # (promotions: their gain is not the victim's)
        taken = captured_value(p, m)
        if static + taken < raised:
            continue                  # no exchange can win more than the victim
        to = move_to(m)
        mover = VALUE[code_type(p.b[move_from(m)])]
        make(p, m)
        if not legal_after_make(p, m, 0, False) \
                or static + taken - (0 if taken >= mover else see_reply(p, s, to, 0)) < raised:
            unmake(p)
            continue
        tried += 1
        score = -quiesce(p, s, -raised, -raised + 1, ply + 1, FORCED_QPLIES)
        if score >= raised:
            score = -alphabeta(p, s, depth - 4, -raised, -raised + 1, ply + 1, True, not cut)
        unmake(p)
        if s.stopped:
            return -INF
        if score >= raised:
            return score
    return -INF


cdef bint check_pays(Pos* p, Search* s) noexcept nogil:
    """Does the check the side to move is in, given by the last move, keep its material
    by exchange (check_see: only such checks are extended)?  A check that hangs the
    checking piece is seldom worth a ply: the reply takes it.  A move off a line to the
    royal piece may check by discovery, whatever becomes of the piece that moved, and
    castling, en passant and a pass change more than one square: those always count,
    as does every check in a game whose lines are not known (SAFETY_BY_LINES) and one
    that may come from a piece put down as a hopper's screen (HOP_LINES)."""
    cdef Undo* u
    cdef move_t m
    cdef int king = p.royal[p.side], to, gain
    if not SAFETY_BY_LINES or king < 0 or p.ply <= 0:
        return True
    u = &p.hist[p.ply - 1]
    m = u.move
    to = move_to(m)
    if m == 0 or m & (F_CASTLE | F_EP):
        return True
    if not (m & F_DROP) and ON_LINE[king * NSQ + move_from(m)]:
        return True
    if HOP_LINES and ON_LINE[king * NSQ + to]:
        return True
    gain = 0 if m & F_DROP else value_on(p, to) - VALUE[code_type(u.moved)]   # (a promotion's)
    if u.captured > OFF:
        gain += VALUE[code_type(u.captured)]
    return gain - see_reply(p, s, to, 0) >= 0


cdef int alphabeta(Pos* p, Search* s, int depth, int alpha, int beta, int ply,
                   bint null_ok, bint cut) noexcept nogil:
    cdef move_t* mv = s.movebuf + ply * MAX_MOVES
    cdef move_t best_move = 0, tt_move = 0, m
    cdef int n, i, k, score, best = -INF, legal_count = 0, old_alpha = alpha, checked, reason, result
    cdef int static, history, stat, reduce, taken = 0, mover = 0, nquiets = 0
    cdef bint tt_capture = False      # the table's move is a capture (tt_capture_reduction)
    cdef bint quiet, futile, prunable, exchange, pruned, improving = False, worsening = False
    cdef move_t quiets[MAX_QUIETS]    # the quiet moves searched (history_malus)
    cdef move_t captures[MAX_CAPTURES]   # the captures searched (capture_history)
    cdef int ncaptures = 0, order_score
    cdef bint capture
    cdef short* cont                  # the continuation-history row (cont_history)
    cdef TTHit hit
    cdef Picker picker
    cdef move_t excluded = s.excluded[ply]    # (a singular-extension test's search)
    cdef int extend_tt = 0            # plies more for the table's move (singular)
    if ply > 0:
        if repeated(p) or rules_draw(p):
            return 0
        if HAS_GAME_END:
            result = rules_game_end(p, &reason)
            if result:
                return game_end_score(result, ply)
    checked = side_in_check(p, s)
    if checked and ply < MAX_PLY - 8 and (not s.set.check_see or check_pays(p, s)):
        depth += 1                # look one ply further when in check
    if depth <= 0 or ply >= MAX_PLY - 1:
        return quiesce(p, s, alpha, beta, ply, FORCED_QPLIES)
    s.nodes += 1
    if out_of_time(s):
        return 0
    hit = tt_read(s, p.key)
    if hit.flag:
        tt_move = hit.move
        if ply > 0 and hit.depth >= depth and not excluded:
            score = tt_score(hit.score, ply)
            if hit.flag == TT_EXACT or (hit.flag == TT_LOWER and score >= beta) or \
                    (hit.flag == TT_UPPER and score <= alpha):
                return score
    if s.set.iir_depth and depth >= s.set.iir_depth and not tt_move:
        depth -= 1                # no move to try first: a cheaper search finds one
    static = -INF
    if s.set.improving:
        if not checked:
            static = static_eval(p, s)
            improving, worsening = improvement(s, static, ply)
        s.static_at[ply] = static
    if s.set.null_move and null_ok and ply > 0 and not checked and beta - alpha == 1 \
            and depth >= 3 and not excluded:
        score = null_move_cutoff(p, s, depth, beta, ply, cut)
        if score != -INF:
            return score
    if s.set.probcut and ply > 0 and not checked and beta - alpha == 1 and depth >= 5 \
            and not excluded:
        if static == -INF:
            static = static_eval(p, s)
        score = probcut(p, s, depth, beta, ply, static, cut)
        if s.stopped:
            return 0
        if score != -INF:
            return score
    futile = False
    prunable = ply > 0 and not checked and beta - alpha == 1
    if prunable and depth <= max(s.set.futility_depth, s.set.rfp_depth, s.set.razor_depth):
        if static == -INF:
            static = static_eval(p, s)
        if s.set.tt_static and hit.flag:
            static = bounded_static(static, &hit, ply)
        score = shallow_cutoff(p, s, depth, alpha, beta, ply, static, improving)
        if score != -INF:
            return score
        futile = depth <= s.set.futility_depth and alpha > -MATE_BOUND \
            and static + futility_margin(s, depth) <= alpha
    if s.set.singular_depth and depth >= s.set.singular_depth and ply > 0 and tt_move \
            and not excluded:
        extend_tt = singular_extension(p, s, &hit, depth, beta, ply, cut, &score)
        if s.stopped:
            return 0
        if score != -INF:
            return score
    if prunable and s.set.lmr_futility and static == -INF:
        static = static_eval(p, s)
    cont = cont_row(p, s)             # (only where moves are searched)
    n = gen_pseudo(p, mv)
    score_moves(p, s, mv, n, tt_move, ply, True)
    start_picking(s, mv, ply_scores(s, ply), n, &picker)
    for i in range(n):
        pick_move(p, s, mv, ply_scores(s, ply), i, n, &picker)
        m = mv[i]
        if m == excluded:
            continue
        capture = victim_value(p, m) != 0
        quiet = not capture and (not move_selector(m) or (m & (F_DROP | F_CASTLE)))
        history = s.history[history_index(p, m)] if quiet else 0
        stat = history + cont[history_index(p, m)] if quiet and cont != NULL else history
        if m == tt_move:
            tt_capture = capture
        exchange = prunable and depth <= s.set.see_depth and legal_count > 0 \
            and best > -MATE_BOUND and (quiet or ply_scores(s, ply)[i] < 0)
        if exchange and not quiet:
            taken = captured_value(p, m)
            mover = VALUE[code_type(p.b[move_from(m)])]
        # A quiet move cannot lift a hopeless static score, nor is one this late, or
        # one that has kept failing (history pruning), likely to be the best: pruned
        # unless it gives check (the count is the one it would have if legal).  One
        # that cannot give check is not even made.
        pruned = quiet and legal_count >= 1 and (futile or (
            prunable and best > -MATE_BOUND and (
                late_move(s, depth, legal_count + 1, worsening)
                or (s.set.history_prune and bad_history(s, m, depth, legal_count + 1, ply,
                                                        history, cont, history_index(p, m)))
                or (s.set.lmr_futility and futile_late_move(s, m, depth, legal_count + 1,
                                                            ply, stat, static, alpha)))))
        if pruned and cannot_check(p, s, m):
            continue              # (uncounted: the counts after it prune all the same)
        order_score = ply_scores(s, ply)[i]
        make(p, m)
        prefetch_node(s, p.key, True)
        if not legal_after_make(p, m, 0, checked):
            unmake(p)
            continue
        legal_count += 1
        if pruned and not side_in_check(p, s):
            unmake(p)
            continue
        if exchange and not side_in_check(p, s) \
                and loses_exchange(p, s, m, depth, quiet, taken, mover):
            unmake(p)             # near the horizon, a move that hangs material
            continue              # rarely pays it back
        if quiet:
            reduce = reduction(p, s, m, depth, legal_count, checked, ply,
                               beta - alpha > 1, history, stat, worsening, cut, tt_capture)
        else:
            reduce = capture_reduction(p, s, depth, legal_count, checked,
                                       beta - alpha > 1, order_score)
        score = search_move(p, s, depth + extend_tt if m == tt_move else depth,
                            alpha, beta, ply, legal_count, reduce, cut)
        unmake(p)
        if s.stopped:
            return 0
        if score > best:
            best = score
            best_move = m
        if score > alpha:
            alpha = score
        if alpha >= beta:
            if capture_history_on(s):
                reward_captures(p, s, m, capture, captures, ncaptures, depth)
            if not capture and ply < MAX_PLY:
                if s.killers[ply][0] != m:
                    s.killers[ply][1] = s.killers[ply][0]
                    s.killers[ply][0] = m
                history_update(s, p, m, depth * depth)
                if cont != NULL and quiet:
                    bonus_update(&cont[history_index(p, m)], depth * depth)
                if s.set.history_malus and quiet:
                    for k in range(nquiets):
                        history_update(s, p, quiets[k], -depth * depth)
                        if cont != NULL:
                            bonus_update(&cont[history_index(p, quiets[k])], -depth * depth)
            break
        if s.set.history_malus and quiet and nquiets < MAX_QUIETS:
            quiets[nquiets] = m
            nquiets += 1
        if capture and ncaptures < MAX_CAPTURES and capture_history_on(s):
            captures[ncaptures] = m
            ncaptures += 1
    if legal_count == 0:
        return alpha if excluded else no_move_score(p, ply)
    if excluded:
        return best                   # (a search without the best move: not for the table)
    tt_write(s, p.key, best_move, best + ply if best > MATE_BOUND else
             (best - ply if best < -MATE_BOUND else best), depth,
             TT_LOWER if best >= beta else (TT_EXACT if best > old_alpha else TT_UPPER))
    return best



cdef int search_root(Pos* p, Search* s, move_t* root, int n, int depth, int alpha,
                     int beta, move_t first, move_t* best_move) noexcept nogil:
    """One iteration of iterative deepening over the root moves `root[:n]`: the best
    score, and its move in best_move.  `first` (else the table's move) is searched
    first.  A stopped iteration's best_move is the best of the moves searched to the
    end (0 if none was), so when `first` is the last depth's choice, a different
    best_move beat it at this depth."""
    cdef int i, score, best = -INF, a = alpha
    s.least_value = least_piece_value()
    s.lines_trusted = not in_check(p, p.side ^ 1)
    s.root_depth = depth
    s.static_at[0] = -INF
    order_moves(p, s, root, n, first if first else tt_read(s, p.key).move, 0)
    for i in range(n):
        make(p, root[i])
        if i == 0:
            score = -alphabeta(p, s, depth - 1, -beta, -a, 1, True, False)
        else:           # principal variation search: a null window first
            score = -alphabeta(p, s, depth - 1, -a - 1, -a, 1, True, True)
            if a < score < beta and not s.stopped:
                score = -alphabeta(p, s, depth - 1, -beta, -a, 1, True, False)
        unmake(p)
        if s.stopped:
            break
        if score > best:
            best = score
            best_move[0] = root[i]
        if score > a:
            a = score
        if a >= beta:
            break                     # fails high: an aspiration window is widened
    if best_move[0] and not s.stopped:
        tt_write(s, p.key, best_move[0], best, depth,
                 TT_LOWER if best >= beta else (TT_EXACT if best > alpha else TT_UPPER))
    return best
