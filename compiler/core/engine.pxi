# The Python-facing engine: the same for every game (hand-written, included by every
# generated engine after its META table).

from libc.stdlib cimport calloc
from libc.string cimport memcpy

from fairyforge.errors import ConcurrentUseError

cdef enum:
    MAX_PERFT_DEPTH = 64
    COUNT_MOVES = 0             # what Engine._board_move_counts counts (its docstring)
    COUNT_NEAR_KING = 1


def _check_counters(counters):
    """set_state's counters: NCOUNTERS numbers, none in a game without them; a hashed
    pair (the first) up to MAX_COUNTER, a plain one up to MAX_PLAIN_COUNTER."""
    cdef int i, most
    if len(counters) != NCOUNTERS or (any(counters) and not HAS_COUNTERS):
        raise ValueError("counters must be %d numbers, in a game that keeps them" % NCOUNTERS)
    for i in range(NCOUNTERS):
        most = MAX_COUNTER if HASH_COUNTERS and i < 2 else MAX_PLAIN_COUNTER
        if not 0 <= counters[i] <= most:
            raise ValueError("counter %d must be from 0 to %d" % (i, most))


cdef class HashTable:
    """A transposition table: 2^k entries of 16 bytes, in buckets of TT_WAYS (search.pxi).  Engines share one (Lazy SMP,
    and the positions of one game in a protocol session) by holding the same object;
    the memory is freed when the last holder lets go."""

    cdef TTEntry* entries
    cdef uint64_t mask
    cdef public int generation      # searches begun with it (ages entries, mod 64)

    def __cinit__(self, int megabytes):
        cdef uint64_t count = 1
        while count * 2 * sizeof(TTEntry) <= (<uint64_t> max(megabytes, 1)) << 20:
            count *= 2
        self.entries = <TTEntry*> calloc(count, sizeof(TTEntry))
        if self.entries == NULL:
            raise MemoryError("no memory for a %d MB hash table" % megabytes)
        self.mask = count - 1

    def __dealloc__(self):
        free(self.entries)

    def clear(self):
        memset(self.entries, 0, (self.mask + 1) * sizeof(TTEntry))

    @property
    def megabytes(self):
        """The table's size in MB (the largest power of two not above the request)."""
        return ((self.mask + 1) * sizeof(TTEntry)) >> 20


cdef void turn_sides_pieces(Pos* p, int colour, unsigned char* alone) noexcept:
    """Copy p's board into alone[NSQ] with `colour`'s pieces turned to the enemy's: they
    block lines as before and attack nothing, so that a piece of `colour` put on it
    alone is all the attack test can find (Engine.board_checks, drop_checks)."""
    cdef int sq, pc
    for sq in range(NSQ):
        pc = p.b[sq]
        alone[sq] = pc ^ 1 if pc > OFF and code_colour(pc) == colour else pc


cdef _count_check(const unsigned char* b, int s, int t, int colour, list safe, list defended):
    """Count a check of `colour`'s piece of type `t` from `s` in `defended` where an enemy
    piece attacks `s`, else in `safe` (as evaluate.pxi check_bonus tells them apart)."""
    if attacked(b, s, colour ^ 1):
        defended[t] += 1
    else:
        safe[t] += 1


cdef class Engine:
    """One position with its move history (used by fairyforge.Position).

    Threads: the long calls (perft, search_depth) release the GIL.  While one runs, any
    other call on the same engine but stop() raises ConcurrentUseError instead of
    reading or changing a position in the middle of being searched.  Several engines
    may search at once, sharing one HashTable (clone(), use_table(): Lazy SMP).
    """

    cdef Pos pos
    cdef Search search
    cdef int busy
    cdef HashTable table

    cdef int _idle(self) except -1:
        if self.busy:
            raise ConcurrentUseError("this position is being searched or counted by "
                                     "another thread: use a copy per thread")
        return 0

    def __cinit__(self):
        memset(&self.pos, 0, sizeof(Pos))
        memset(&self.search, 0, sizeof(Search))
        self.search.set = default_settings()
        set_reductions(&self.search)
        self.pos.hist_cap = 256
        self.pos.hist = <Undo*> malloc(self.pos.hist_cap * sizeof(Undo))
        if self.pos.hist == NULL:
            raise MemoryError()
        if RULE_BYTES:
            self.pos.rule_hist = <unsigned char*> malloc(self.pos.hist_cap * RULE_BYTES)
            if self.pos.rule_hist == NULL:
                raise MemoryError()
        self.clear()

    def __dealloc__(self):
        if self.pos.hist != NULL:
            free(self.pos.hist)
        free(self.pos.rule_hist)
        free(self.search.movebuf)
        free(self.search.scores)
        free(self.search.evals)
        free(self.search.sees)
        free(self.search.cont)
        free(self.search.captures)

    def set_hash_size(self, int megabytes):
        """Give this engine a new transposition table of about this many megabytes (the
        largest power of two not above it; MemoryError if it cannot be had)."""
        self.use_table(HashTable(megabytes))

    def use_table(self, HashTable table not None):
        """Search with `table`, which other engines of this game may share."""
        self._idle()
        self.table = table
        self.search.tt = table.entries
        self.search.tt_mask = table.mask

    @property
    def hash_table(self):
        """The transposition table (None before the first search)."""
        return self.table

    def new_game(self):
        """Forget what earlier searches learnt (transposition table, killers, history)."""
        self._idle()
        if self.table is not None:
            self.table.clear()
        memset(self.search.killers, 0, sizeof(self.search.killers))
        memset(self.search.history, 0, sizeof(self.search.history))
        if self.search.cont != NULL:
            memset(self.search.cont, 0, (<size_t> 1 << self.search.cont_bits)
                   * NCODES * NSQ * sizeof(short))
        if self.search.captures != NULL:
            memset(self.search.captures, 0, CAPTURE_ENTRIES * sizeof(short))

    def clone(self):
        """A new engine at this position with its history, sharing this one's table (a
        Lazy SMP helper: it searches in its own thread while this one searches)."""
        self._idle()
        cdef Engine other = type(self)()
        other._reserve(self.pos.ply + 8)
        cdef Undo* hist = other.pos.hist
        cdef int cap = other.pos.hist_cap
        cdef unsigned char* rule_hist = other.pos.rule_hist
        other.pos = self.pos
        other.pos.hist = hist
        other.pos.hist_cap = cap
        other.pos.rule_hist = rule_hist
        memcpy(hist, self.pos.hist, self.pos.ply * sizeof(Undo))
        if RULE_BYTES:
            memcpy(rule_hist, self.pos.rule_hist, self.pos.ply * RULE_BYTES)
        self._prepare_search()
        other.use_table(self.table)
        other.search.set = self.search.set
        memcpy(other.search.lmr, self.search.lmr, sizeof(self.search.lmr))
        return other

    def search_settings(self):
        """The search's pruning parameters (search.pxi, Settings), by name."""
        return dict(self.search.set)

    def configure_search(self, **settings):
        """Change some of the search's pruning parameters (search_settings() names
        them), for experiments: two engines of one build, configured differently, can
        play each other (bench/search_ab.py).  An unknown name or a value out of range
        is a ValueError naming it, and changes nothing."""
        self._idle()
        cdef dict merged = dict(self.search.set)
        for name, value in settings.items():
            if name not in merged:
                raise ValueError("unknown search setting %r (known: %s)"
                                 % (name, ", ".join(sorted(merged))))
            if not isinstance(value, int) or not 0 <= value <= 1000:
                raise ValueError("search setting %s must be a whole number from 0 to 1000, "
                                 "not %r" % (name, value))
            merged[name] = value
        if merged["null_depth_div"] < 1 or merged["lmr_divisor"] < 1:
            raise ValueError("null_depth_div and lmr_divisor must be at least 1")
        self.search.set = merged
        set_reductions(&self.search)

    def stop(self):
        """Ask a running search to stop (safe from another thread)."""
        self.search.stop_request = 1

    def evaluate(self, bint fresh=False):
        """The static evaluation, from the side to move's view (evaluate.pxi).
        `fresh`: its structure and passed-piece terms counted from the board instead
        of read from the module's table of them (PAWN_TABLE), which a test compares."""
        self._idle()
        return evaluate_with(&self.pos, fresh)

    def piece_values(self):
        """The material value of each piece type, in type order (centipawns)."""
        return [VALUE[t] for t in range(NTYPES)]

    def see(self, move_t move):
        """Static exchange evaluation of the pseudo-legal capture `move` (search.pxi's
        `see`): the material the side to move wins by it, once both sides have
        exchanged on its square as long as it pays."""
        self._idle()
        self._prepare_search()
        self._reserve(SEE_LEVELS + 8)
        return see(&self.pos, &self.search, move)

    def losing_capture(self, move_t move):
        """Does the pseudo-legal capture `move` lose material by exchange, as the
        search's move ordering asks it (search.pxi `losing_capture`, whose answers are
        cached by position and move)?"""
        self._idle()
        self._prepare_search()
        self._reserve(SEE_LEVELS + 8)
        return bool(losing_capture(&self.pos, &self.search, move))

    def ordering_scores(self, move_t tt_move=0, int ply=0):
        """[(move, score)] for the side to move's pseudo-legal moves, in the generator's
        order, as the search's move ordering scores them (search.pxi `score_moves`,
        every losing capture found at once): with the killers and history the last
        search left, at `ply` (the killers' row), `tt_move` as the table's move.  For
        tests: the order `picked_order` gives is these moves sorted by score, stably."""
        return self._scored_moves(tt_move, ply, False)

    def picked_order(self, move_t tt_move=0, int ply=0):
        """[(move, score)] in the order an inner node of the search tries them
        (search.pxi `start_picking` and `pick_move` over lazily scored moves: losing
        captures found when picked, the rest sorted once the killers are past), with
        the score each had when picked.  For tests (see `ordering_scores`)."""
        return self._scored_moves(tt_move, ply, True)

    def _scored_moves(self, move_t tt_move, int ply, bint picked):
        self._idle()
        if not 0 <= ply < MAX_PLY:
            raise ValueError("ply must be between 0 and %d" % (MAX_PLY - 1))
        self._prepare_search()
        self._reserve(SEE_LEVELS + 8)
        cdef move_t* mv = self.search.movebuf + ply * MAX_MOVES
        cdef int* scores = ply_scores(&self.search, ply)
        cdef int n = gen_pseudo(&self.pos, mv), i
        cdef Picker picker
        score_moves(&self.pos, &self.search, mv, n, tt_move, ply, picked)
        if picked:
            start_picking(&self.search, mv, scores, n, &picker)
            for i in range(n):
                pick_move(&self.pos, &self.search, mv, scores, i, n, &picker)
        return [(mv[i], scores[i]) for i in range(n)]

    def search_depth(self, int depth, uint64_t node_limit=0, double seconds=0.0,
                     int alpha=-INF, int beta=INF, moves=None, move_t first=0):
        """One iteration of iterative deepening: (score, best move, nodes, stopped).

        `moves` restricts the root to these move codes (for rules the engine cannot see,
        such as repetition-based ones); `first`, one of them, is searched first (by
        default the transposition table's move).  A stopped iteration's move is the
        best of those searched to the end (0: none was), and its score is that move's.
        """
        self._idle()
        if not 1 <= depth < MAX_PLY - 8:
            raise ValueError("depth must be between 1 and %d" % (MAX_PLY - 9))
        cdef move_t root[MAX_MOVES]
        cdef int n = 0, best
        cdef move_t best_move = 0, m
        self._prepare_search()
        for m in (self.legal_moves() if moves is None else list(moves)):
            root[n] = m
            n += 1
        if n == 0:
            return (no_move_score(&self.pos, 0), 0, 0, False)
        self._reserve(MAX_PLY + SEE_LEVELS + 8)
        if depth == 1:                  # a new search: older entries age
            self.table.generation = (self.table.generation + 1) & 63
        self.search.generation = self.table.generation
        self.search.nodes = 0
        self.search.node_limit = node_limit
        self.search.deadline = now() + seconds if seconds > 0 else 0.0
        self.search.stopped = 0
        self.search.stop_request = 0
        self.busy = 1
        try:
            with nogil:
                best = search_root(&self.pos, &self.search, root, n, depth, alpha, beta,
                                   first, &best_move)
        finally:
            self.busy = 0
        return (best, best_move, self.search.nodes, bool(self.search.stopped))

    cdef int _prepare_search(self) except -1:
        """Allocate the transposition table and the move buffers on first use."""
        if self.table is None:
            self.set_hash_size(16)
        if self.search.movebuf == NULL:
            # (one list more of each: sort_rest's scratch)
            self.search.movebuf = <move_t*> malloc(<size_t> (MAX_PLY + SEE_LEVELS + 1)
                                                        * MAX_MOVES * sizeof(move_t))
            self.search.scores = <int*> malloc(<size_t> (MAX_PLY + 1) * MAX_MOVES * sizeof(int))
            if self.search.movebuf == NULL or self.search.scores == NULL:
                raise MemoryError()
        if self.search.sees == NULL:
            # (zeroed: a hashed key has bit 0 set, so an empty entry matches only the
            # hash 1)
            self.search.sees = <uint64_t*> calloc(SEE_CACHE_SIZE, sizeof(uint64_t))
            if self.search.sees == NULL:
                raise MemoryError()
        if EVAL_CACHE and self.search.evals == NULL:
            # (zeroed: key 0 marks an empty entry; no position hashes to 0 in practice)
            self.search.evals = <EvalEntry*> calloc(EVAL_CACHE_SIZE, sizeof(EvalEntry))
            if self.search.evals == NULL:
                raise MemoryError()
        if self.search.set.cont_history and self.search.cont == NULL:
            self.search.cont_bits = 1           # as many rows as CONT_ENTRIES allows
            while (2 << self.search.cont_bits) * NCODES * NSQ <= CONT_ENTRIES \
                    and self.search.cont_bits < 12:
                self.search.cont_bits += 1
            self.search.cont = <short*> calloc((<size_t> 1 << self.search.cont_bits)
                                               * NCODES * NSQ, sizeof(short))
            if self.search.cont == NULL:
                raise MemoryError()
        if self.search.set.capture_history and self.search.captures == NULL:
            self.search.captures = <short*> calloc(CAPTURE_ENTRIES, sizeof(short))
            if self.search.captures == NULL:
                raise MemoryError()
        return 0

    def principal_variation(self, int max_length=16):
        """The expected line from the transposition table (legal moves only)."""
        self._idle()
        line = []
        seen = set()
        cdef move_t move
        while len(line) < max_length and self.table is not None:
            move = tt_read(&self.search, self.pos.key).move
            if move == 0 or self.pos.key in seen or move not in self.legal_moves():
                break
            seen.add(self.pos.key)
            line.append(move)
            self._reserve(2)
            make(&self.pos, move)
        for _ in line:
            unmake(&self.pos)
        return line

    cdef int _reserve(self, int extra) except -1:
        """Room in the history for `extra` more moves."""
        cdef int64_t cap = self.pos.hist_cap, needed = <int64_t> self.pos.ply + extra
        cdef Undo* grown
        cdef unsigned char* grown_bytes
        if needed < cap:
            return 0
        while needed >= cap:
            cap *= 2
        if cap > (1 << 28):
            raise MemoryError("a move history that long cannot be kept")
        grown = <Undo*> realloc(self.pos.hist, cap * sizeof(Undo))
        if grown == NULL:
            raise MemoryError()
        self.pos.hist = grown
        if RULE_BYTES:
            grown_bytes = <unsigned char*> realloc(self.pos.rule_hist, cap * RULE_BYTES)
            if grown_bytes == NULL:
                raise MemoryError()
            self.pos.rule_hist = grown_bytes
        self.pos.hist_cap = cap
        return 0

    def clear(self):
        """An empty board, White to move, no history."""
        self._idle()
        cdef int i
        for i in range(NSQ):
            self.pos.b[i] = EMPTY if BOARD_MASK[i] else OFF
        for i in range(2 * NTYPES):
            self.pos.hand[i] = 0
        self.pos.side = 0
        self.pos.ep = 0
        self.pos.ep_victim = 0
        self.pos.castling = 0
        self.pos.lifted = 0
        self.pos.halfmove = 0
        self.pos.fullmove = 1
        self.pos.royal[0] = -1
        self.pos.royal[1] = -1
        for i in range(NCOUNTERS):
            self.pos.counter[i] = 0
        self.pos.castle_king[0] = self.pos.castle_king[1] = 0
        for i in range(NCASTLE):
            self.pos.castle_rook[i] = 0
        self.pos.ply = 0
        self._rehash()

    cdef void _rehash(self):
        """The Zobrist key counted from the whole position (make and unmake keep it
        up after)."""
        cdef uint64_t key = 0
        cdef int i, c, typ
        for i in range(NSQ):
            # pieces, and walls on board squares: make() hashes a wall it puts (the
            # duck, petrification) as code OFF, so a FEN's walls must count the same
            if self.pos.b[i] > OFF or (self.pos.b[i] == OFF and BOARD_MASK[i]):
                key ^= Z_PIECE[self.pos.b[i] * NSQ + i]
        for c in range(2):
            for typ in range(NTYPES):
                key ^= hand_key(c, typ, self.pos.hand[hand_index(c, typ)])
        for i in range(NCASTLE):
            if self.pos.castling & (1 << i):
                key ^= Z_CASTLE[i]
        if self.pos.ep:
            key ^= Z_EP[self.pos.ep]
        if self.pos.side:
            key ^= Z_SIDE
        for i in range(2):
            if self.pos.lifted & (1 << i):
                key ^= Z_LIFTED[i]
            if HASH_COUNTERS:
                key ^= Z_COUNTER[i * (MAX_COUNTER + 1) + self.pos.counter[i]]
        self.pos.key = key

    def set_state(self, pieces, hands, int side, int castling, int ep, int ep_victim,
                  int halfmove, int fullmove, int lifted=0, counters=(0, 0)):
        """Set a whole position.  pieces: [(square index, code)]; hands: 2*NTYPES counts;
        counters: the rule counters, NCOUNTERS of them (games with HAS_COUNTERS): a pair
        per rule kind that keeps them, the hashed pair (checks) first.

        The caller (fairyforge.position) validates the FEN; this re-checks every index
        so that no input can write outside the board.
        """
        self._idle()
        cdef int sq, code, i, typ
        if side not in (0, 1):
            raise ValueError("side must be 0 or 1")
        if len(hands) != 2 * NTYPES:
            raise ValueError("hands must have %d counts" % (2 * NTYPES))
        for i in range(2 * NTYPES):
            if not 0 <= hands[i] <= MAX_HAND - 1:
                raise ValueError("hand count out of range")
        for sq, code in pieces:
            if not (0 <= sq < NSQ and BOARD_MASK[sq]):
                raise ValueError("square index %r is not on the board" % sq)
            if not (OFF <= code < NCODES):      # (OFF on a board square: a wall)
                raise ValueError("piece code %r is not a piece or a wall" % code)
        if ep and not (0 <= ep < NSQ and BOARD_MASK[ep] and 0 <= ep_victim < NSQ
                       and BOARD_MASK[ep_victim]):
            raise ValueError("en passant square is not on the board")
        _check_counters(counters)
        if CAPTURES_FILL_HANDS:
            # A hand may never count MAX_HAND pieces of a type (its Zobrist keys stop
            # there), so there may not be that many pieces in play.
            if sum(hands) + sum(1 for sq, code in pieces
                                if code > OFF and code_type(code) != ROYAL_TYPE) \
                    > MAX_HAND - 1:
                raise ValueError("more pieces than a hand can hold")
        self.clear()
        for sq, code in pieces:
            self.pos.b[sq] = code
            if code > OFF and code_type(code) == ROYAL_TYPE:
                self.pos.royal[code_colour(code)] = sq
        for i in range(2 * NTYPES):
            self.pos.hand[i] = hands[i]
        self.pos.side = side
        self.pos.castling = castling & (((1 << NCASTLE) - 1) | EXTRA_RIGHTS)
        self.pos.ep = ep
        self.pos.ep_victim = ep_victim
        self.pos.halfmove = halfmove
        self.pos.fullmove = fullmove
        self.pos.lifted = lifted & 3
        for i in range(NCOUNTERS):
            self.pos.counter[i] = counters[i]
        self._rehash()

    def board(self):
        """Piece codes of the real squares, in META['squares'] order."""
        self._idle()
        return [self.pos.b[i] for i in META["squares"]]

    def hands(self):
        self._idle()
        return [self.pos.hand[i] for i in range(2 * NTYPES)]

    def state(self):
        """(side, castling bits, en passant square, halfmove clock, fullmove number,
        lifted restriction bits)."""
        self._idle()
        return (self.pos.side, self.pos.castling, self.pos.ep, self.pos.halfmove,
                self.pos.fullmove, self.pos.lifted)

    def en_passant(self):
        """(en passant square, square of the piece an en passant capture takes), 0s if
        none."""
        self._idle()
        if not self.pos.ep:
            return (0, 0)
        return (self.pos.ep, self.pos.ep_victim)

    def counters(self):
        """The rule kinds' counters, a pair per kind: for n-check, the checks White and
        Black have still to give; for counting, the limit and the plies counted (the
        last pair, after the checks' in a game with both); (0, 0) in a game without
        counters."""
        self._idle()
        return tuple(self.pos.counter[i] for i in range(NCOUNTERS))

    def key(self):
        self._idle()
        return self.pos.key

    def castling_squares(self):
        """(each side's castling king square, each castling option's rook square):
        where a CHESS960 game castles from, as its FEN gave them (0: none)."""
        self._idle()
        return ((self.pos.castle_king[0], self.pos.castle_king[1]),
                tuple(self.pos.castle_rook[i] for i in range(NCASTLING)))

    def set_castling_squares(self, kings, rooks):
        """Set where a CHESS960 game castles from (after set_state): kings, each
        side's king square; rooks, each castling option's rook square (0: none)."""
        self._idle()
        cdef int i
        if not CHESS960:
            raise ValueError("castling squares come from the game, not the position")
        if len(kings) != 2 or len(rooks) != NCASTLING:
            raise ValueError("2 king squares and %d rook squares expected" % NCASTLING)
        for sq in list(kings) + list(rooks):
            if sq and not (0 < sq < NSQ and BOARD_MASK[sq]):
                raise ValueError("square index %r is not on the board" % sq)
        self.pos.castle_king[0], self.pos.castle_king[1] = kings[0], kings[1]
        for i in range(NCASTLING):
            self.pos.castle_rook[i] = rooks[i]

    def ply(self):
        self._idle()
        return self.pos.ply

    def royal_square(self, int colour):
        self._idle()
        return self.pos.royal[colour & 1]

    def activity(self, colour):
        """What `colour`'s board moves add to the evaluation (evaluate.pxi activity: its
        mobility, king-attack and threat terms, in centipawns for `colour`, whoever is
        to move): the sum the counts below give with the learned tables."""
        self._idle()
        return activity(&self.pos, colour & 1)

    def mobility_counts(self):
        """The board moves each type has (evaluate.pxi board_moves, what the mobility
        term counts), White's types then Black's, whoever is to move: the features
        `fairyforge tune` fits MOBILITY on."""
        return self._board_move_counts(COUNT_MOVES)

    def safe_mobility_counts(self):
        """The board moves each type has (as mobility_counts counts them) to a square
        that no enemy piece of the game's cheapest type attacks, White's types then
        Black's, whoever is to move: the features `fairyforge tune` fits MOBILITY_SAFE
        on.  Found from the move list another way than the activity walk's test
        (guarded_by_N, the attack test cut to the cheapest types): on a copy of the
        board whose enemy pieces of other types are turned to the mover's side (they
        still block, and attack nothing for the enemy), the full attack test."""
        self._idle()
        cdef move_t* out = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
        cdef unsigned char board[NSQ]
        cdef int n, i, colour, sq, pc, least = least_piece_value()
        if out == NULL:
            raise MemoryError()
        counts = [0] * (2 * NTYPES)
        for colour in range(2):
            memcpy(board, self.pos.b, NSQ)
            for sq in range(FIRST_SQ, LAST_SQ + 1):
                pc = board[sq]
                if pc > OFF and code_colour(pc) != colour and (
                        code_type(pc) == ROYAL_TYPE or VALUE[code_type(pc)] != least):
                    board[sq] = piece_code(code_type(pc), colour)
            n = board_moves(&self.pos, colour, out)
            for i in range(n):
                if not attacked(board, move_to(out[i]), colour ^ 1):
                    counts[colour * NTYPES + code_type(self.pos.b[move_from(out[i])])] += 1
        free(out)
        return counts

    def mobility_by_piece(self):
        """For each side, White's then Black's: (type, board moves) of each of its pieces
        on the board (moves counted as mobility_counts counts them), whoever is to move:
        the counts `fairyforge tune` fits MOBILITY_BY_COUNT by.  None for a side that
        is deploying (its royal piece in hand: nothing of it moves, nothing counts)."""
        self._idle()
        cdef move_t* out = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
        cdef int n, i, colour, sq, pc
        if out == NULL:
            raise MemoryError()
        sides = []
        for colour in range(2):
            if DEPLOYS and self.pos.hand[colour * NTYPES + ROYAL_TYPE] > 0:
                sides.append(None)
                continue
            n = board_moves(&self.pos, colour, out)
            moves = {}
            for i in range(n):
                moves[move_from(out[i])] = moves.get(move_from(out[i]), 0) + 1
            pieces = []
            for sq in range(FIRST_SQ, LAST_SQ + 1):
                pc = self.pos.b[sq]
                if pc > OFF and code_colour(pc) == colour:
                    pieces.append((code_type(pc), moves.get(sq, 0)))
            sides.append(pieces)
        free(out)
        return sides

    def king_attack_counts(self):
        """For each type, the board moves its pieces have to a square next to the enemy
        royal piece or onto it (evaluate.pxi activity, what KS_ATTACKS counts), White's
        types then Black's, whoever is to move: the features `fairyforge tune` fits
        KS_ATTACKS on.  All 0 in a game without a royal piece."""
        return self._board_move_counts(COUNT_NEAR_KING)

    def threat_counts(self):
        """For each type, the board moves that take an enemy piece of it with a piece
        worth less (evaluate.pxi `threatened`, what THREAT counts), by the taker's side:
        White's threats (on Black's pieces, by the victim's type) then Black's, whoever
        is to move (royal victims counted too, though THREAT is 0 there): threat_pairs
        summed over the takers."""
        pairs = self.threat_pairs()
        return [sum(pairs[(colour * NTYPES + taker) * NTYPES + victim]
                    for taker in range(NTYPES))
                for colour in range(2) for victim in range(NTYPES)]

    def threat_pairs(self):
        """threat_counts by the taker's type too: for each side, White's then Black's,
        for each taking type, for each type taken, the board moves that take an enemy
        piece of that type with a piece of this one worth less (index (side * NTYPES +
        taker) * NTYPES + victim), whoever is to move: the features `fairyforge tune`
        fits THREAT on (by the victim's type, and by the pair)."""
        self._idle()
        cdef move_t* out = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
        cdef int n, i, colour, taker, victim
        if out == NULL:
            raise MemoryError()
        counts = [0] * (2 * NTYPES * NTYPES)
        for colour in range(2):
            n = board_moves(&self.pos, colour, out)
            for i in range(n):
                taker = code_type(self.pos.b[move_from(out[i])])
                victim = threatened(&self.pos, out[i], taker)
                if victim >= 0:
                    counts[(colour * NTYPES + taker) * NTYPES + victim] += 1
        free(out)
        return counts

    def king_attackers(self):
        """For each side, White's then Black's: (how many of its pieces have a board
        move next to the enemy royal piece or onto it, how many types it holds in hand
        in a drop game, else 0), uncapped: what evaluate.pxi attacker_count indexes
        KS_ATTACKERS by and `fairyforge tune` fits it by.  (0, 0) for a side where
        either royal piece is off the board."""
        self._idle()
        cdef move_t* out = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
        cdef int n, i, colour, king, t
        if out == NULL:
            raise MemoryError()
        counts = [(0, 0), (0, 0)]
        for colour in range(2):
            king = self.pos.royal[colour ^ 1]
            if king < 0 or self.pos.royal[colour] < 0:
                continue
            n = board_moves(&self.pos, colour, out)
            attackers = {move_from(out[i]) for i in range(n) if next_to(move_to(out[i]), king)}
            held = sum(1 for t in range(NTYPES) if self.pos.hand[colour * NTYPES + t]) \
                if HAS_DROPS else 0
            counts[colour] = (len(attackers), held)
        free(out)
        return counts

    def board_checks(self):
        """For each side, White's then Black's: (safe, defended), each a count by type
        of its board moves (board_moves, as mobility counts them) to a square from which
        the moving piece, standing there, would attack the enemy royal piece, safe where
        no enemy piece attacks that square: what the activity walk adds BOARD_CHECK for
        (evaluate.pxi board_check) and `fairyforge tune` fits it by.  Found from the move
        list another way than the walk: the piece is put on the square of a board where
        the side's other pieces (the one moving too, still on its square) are turned to
        the enemy's, and the attack test asked.  0s for a royal piece's moves and for a
        side whose enemy royal piece is off the board."""
        self._idle()
        cdef move_t* out = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
        cdef unsigned char alone[NSQ]
        cdef int n, i, colour, king, pc, to, t, taken
        if out == NULL:
            raise MemoryError()
        counts = []
        for colour in range(2):
            safe, defended = [0] * NTYPES, [0] * NTYPES
            king = self.pos.royal[colour ^ 1]
            if king >= 0:
                turn_sides_pieces(&self.pos, colour, alone)
                n = board_moves(&self.pos, colour, out)
                for i in range(n):
                    pc, to = self.pos.b[move_from(out[i])], move_to(out[i])
                    t = code_type(pc)
                    if ROYAL_TYPE >= 0 and t == ROYAL_TYPE:
                        continue
                    taken = alone[to]
                    alone[to] = pc
                    if attacked(alone, king, colour):
                        _count_check(self.pos.b, to, t, colour, safe, defended)
                    alone[to] = taken
            counts.append((safe, defended))
        free(out)
        return counts

    def drop_check_score(self, colour):
        """What `colour`'s drop checks add to the evaluation (the generated
        drop_checks_0/1 walk: DROP_CHECK for each square, in centipawns for `colour`,
        its to_move terms too where `colour` is to move): the sum drop_checks' counts
        give with the learned tables."""
        self._idle()
        return drop_checks_0(&self.pos) if colour & 1 == 0 else drop_checks_1(&self.pos)

    def drop_checks(self):
        """For each side, White's then Black's: (safe, defended), each a count by type
        of the empty squares from which a piece of that type, held in that side's hand
        and droppable there (DROP_OK), would attack the enemy royal piece, safe where no
        enemy piece attacks the square: what evaluate.pxi drop_check adds DROP_CHECK
        for and `fairyforge tune` fits it by.  The reference for the generated walk,
        found another way: each piece is put on each square of a board where the
        side's other pieces are turned to the enemy's (so they block as before and
        attack nothing) and the attack test asked.  0s for a side whose enemy royal
        piece is off the board."""
        self._idle()
        cdef unsigned char alone[NSQ]
        cdef int colour, king, t, sq
        counts = []
        for colour in range(2):
            safe, defended = [0] * NTYPES, [0] * NTYPES
            king = self.pos.royal[colour ^ 1]
            if HAS_DROPS and king >= 0:
                turn_sides_pieces(&self.pos, colour, alone)
                for t in range(NTYPES):
                    if not self.pos.hand[colour * NTYPES + t]:
                        continue
                    for sq in range(FIRST_SQ, LAST_SQ + 1):
                        if self.pos.b[sq] != EMPTY or not DROP_OK[(colour * NTYPES + t) * NSQ + sq]:
                            continue
                        alone[sq] = piece_code(t, colour)
                        if attacked(alone, king, colour):
                            _count_check(self.pos.b, sq, t, colour, safe, defended)
                        alone[sq] = EMPTY
            counts.append((safe, defended))
        return counts

    cdef list _board_move_counts(self, int what):
        """Both sides' board moves counted by type, White's types then Black's:
        COUNT_MOVES every move by its piece's type, COUNT_NEAR_KING those next to the
        enemy royal piece or onto it by their piece's type."""
        self._idle()
        cdef move_t* out = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
        cdef int n, i, colour, king, counted
        if out == NULL:
            raise MemoryError()
        counts = [0] * (2 * NTYPES)
        for colour in range(2):
            king = self.pos.royal[colour ^ 1]
            if what == COUNT_NEAR_KING and king < 0:
                continue
            n = board_moves(&self.pos, colour, out)
            for i in range(n):
                counted = code_type(self.pos.b[move_from(out[i])])
                if what == COUNT_NEAR_KING and not next_to(move_to(out[i]), king):
                    continue
                counts[colour * NTYPES + counted] += 1
        free(out)
        return counts

    def legal_moves(self):
        self._idle()
        cdef move_t* out = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
        cdef int n, i
        if out == NULL:
            raise MemoryError()
        self._reserve(4)
        n = gen_legal(&self.pos, out)
        result = [out[i] for i in range(n)]
        free(out)
        return result

    def pseudo_moves(self):
        """Every move the pieces could make, before the rules about royal safety,
        restrictions, drop mates and stalemating moves are applied."""
        self._idle()
        cdef move_t* out = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
        cdef int n, i
        if out == NULL:
            raise MemoryError()
        n = gen_pseudo(&self.pos, out)
        result = [out[i] for i in range(n)]
        free(out)
        return result

    def captures(self, bint from_all_moves=False):
        """The pseudo-legal captures quiescence searches, as the capture generator
        (gen_captures) finds them, or with `from_all_moves` as picked out of every
        pseudo-legal move: the same list, which the tests check."""
        self._idle()
        cdef move_t* out = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
        cdef int n, i
        if out == NULL:
            raise MemoryError()
        n = gen_pseudo(&self.pos, out) if from_all_moves else gen_captures(&self.pos, out)
        n = captures_only(&self.pos, out, n)
        result = [out[i] for i in range(n)]
        free(out)
        return result

    def captures_onto(self, int square):
        """The side to move's pseudo-legal moves onto `square` in the list the exchange
        evaluation reads (captures_onto: the moves of the pieces that attack it, where
        the game allows), in its order: a test compares them with gen_captures's."""
        self._idle()
        if not (0 <= square < NSQ and BOARD_MASK[square]):
            raise ValueError("square index %r is not on the board" % square)
        cdef move_t* out = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
        cdef int n, i
        if out == NULL:
            raise MemoryError()
        n = captures_onto(&self.pos, out, square)
        result = [out[i] for i in range(n) if move_to(out[i]) == square]
        free(out)
        return result

    def capture_pairs(self, int colour):
        """[(from, to)] for every piece of `colour` and every enemy piece it could
        capture now, whoever is to move: what each piece attacks, for the perpetual
        chase rule.  Pseudo-legal, as xiangqi counts attacks (a pinned piece still
        attacks); en passant captures are left out (they take no piece on `to`)."""
        self._idle()
        cdef move_t* out = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
        cdef int n, i, to
        cdef move_t m
        if out == NULL:
            raise MemoryError()
        n = gen_moves_0(&self.pos, out, GEN_CAPTURES) if colour == 0 else gen_moves_1(&self.pos, out, GEN_CAPTURES)
        pairs = set()
        for i in range(n):
            m = out[i]
            to = move_to(m)
            if not m & (F_DROP | F_CASTLE | F_EP) and self.pos.b[to] > OFF:
                pairs.add((move_from(m), to))
        free(out)
        return sorted(pairs)

    def child_keys(self):
        """[(move, key)]: each legal move with the Zobrist key of the position after
        it (for rules that look one move ahead for a repetition)."""
        self._idle()
        cdef move_t* out = <move_t*> malloc(MAX_MOVES * sizeof(move_t))
        cdef int n, i
        if out == NULL:
            raise MemoryError()
        self._reserve(4)
        n = gen_legal(&self.pos, out)
        result = []
        for i in range(n):
            make(&self.pos, out[i])
            result.append((out[i], self.pos.key))
            unmake(&self.pos)
        free(out)
        return result

    def refusal(self, move_t move):
        """0 if a pseudo-legal `move` is legal, else the number of the rule it breaks."""
        self._idle()
        cdef int code
        if move not in self.pseudo_moves():
            raise ValueError("not a pseudo-legal move: %d" % move)
        self._reserve(4)
        # (the module-level why_illegal, not this method)
        make(&self.pos, move)
        code = why_illegal(&self.pos, move, 0)
        unmake(&self.pos)
        return code

    def game_end(self):
        """None, or (result for the side to move: "loss", "win" or "draw", the
        GameEnd number of the rule that ended the game)."""
        self._idle()
        cdef int reason = 0, result = 0
        self._reserve(4)                # a rule may look a ply ahead (the flag's reply)
        if HAS_GAME_END:
            result = rules_game_end(&self.pos, &reason)
        if not result:
            return None
        return (("loss", "win", "draw")[result - 1], reason)

    def is_check(self):
        self._idle()
        return in_check(&self.pos, self.pos.side)

    def check_shortcuts(self, move_t move):
        """What the search's short cuts say about the legal `move` (tests compare them
        with the attack test): (cannot_expose: True where the mover's royal piece
        needs no attack test, gives_check: 1, 0, or -1 where the attack test must tell
        whether the opponent is in check), both after the move, for a mover not in
        check.  (False, -1) in games without the short cuts."""
        self._idle()
        cdef bint safe
        cdef int check
        if move not in self.legal_moves():
            raise ValueError("not a legal move: %d" % move)
        self._reserve(4)
        make(&self.pos, move)
        safe = SAFETY_BY_LINES and cannot_expose(&self.pos, move)
        check = gives_check(&self.pos, move) if CHECK_BY_LINES else -1
        unmake(&self.pos)
        return safe, check

    def royal_attacked(self, int colour):
        """Is `colour`'s royal piece attacked (whoever is to move)?"""
        self._idle()
        return in_check(&self.pos, colour & 1)

    def push(self, move_t move):
        """Play `move`, which must be one of legal_moves() (checked: anything else is refused)."""
        self._idle()
        if move not in self.legal_moves():
            raise ValueError("not a legal move: %d" % move)
        self._reserve(2)
        make(&self.pos, move)

    def pop(self):
        """Take back the last move; returns it."""
        self._idle()
        if self.pos.ply == 0:
            raise IndexError("no move to take back")
        unmake(&self.pos)
        return self.pos.hist[self.pos.ply].move

    def history_keys(self):
        """Zobrist keys of the positions before each move of the history, oldest first."""
        self._idle()
        return [self.pos.hist[i].key for i in range(self.pos.ply)]

    def perft(self, int depth):
        """Leaf nodes `depth` plies down.  Ctrl-C (SIGINT) stops it within a fraction of
        a second with KeyboardInterrupt, the position unchanged."""
        self._idle()
        if not 0 <= depth <= MAX_PERFT_DEPTH:
            raise ValueError("depth must be between 0 and %d" % MAX_PERFT_DEPTH)
        if depth == 0:
            return 1
        cdef move_t* buf = <move_t*> malloc(<size_t> depth * MAX_MOVES * sizeof(move_t))
        cdef uint64_t nodes
        if buf == NULL:
            raise MemoryError()
        self._reserve(depth + 4)
        self.busy = 1
        self.pos.interrupted = 0
        try:
            with nogil:
                nodes = perft(&self.pos, depth, buf)
        finally:
            self.busy = 0
            free(buf)
        if self.pos.interrupted:
            self.pos.interrupted = 0
            raise_pending_signal()
        return nodes

    def divide(self, int depth):
        """[(move, leaf count)] for every legal move, as perft's first ply."""
        self._idle()
        if not 1 <= depth <= MAX_PERFT_DEPTH:
            raise ValueError("depth must be between 1 and %d" % MAX_PERFT_DEPTH)
        result = []
        for move in self.legal_moves():
            self._reserve(depth + 4)
            make(&self.pos, move)
            try:
                result.append((move, self.perft(depth - 1)))
            finally:                        # Ctrl-C in the subtree: the move is taken back
                unmake(&self.pos)
        return result
