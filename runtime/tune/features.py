"""The evaluation as a linear function of its parameters: what Texel's method fits.

The generated evaluator (compiler/core/search.pxi `evaluate`) adds, from White's
view, each piece's value and square bonus on the board (Black's subtracted), and each
piece in hand at its hand value.  So a position's evaluation is `x . theta + c`: the
features `x` count pieces (White's minus Black's) by type, by type and square (seen
from the owner's side under the game's symmetry) and in hand; `c` holds the rules' own
terms (rules_evaluate), which tuning leaves alone.

In a game with a royal piece the king-safety terms (compiler/evalparams.py
KING_SAFETY; compiler/core/evaluate.pxi computes them in the engine) are features too:
for each side's royal piece, its own pieces next to it, the enemy's within two squares,
the enemy's board moves next to it or onto it (Engine.king_attack_counts) and, in a drop
game, the empty squares next to it times each type the enemy holds.
Mobility (evalparams.py; evaluate.pxi `activity`) counts each type's moves on the
board, White's minus Black's: the engine's own generator counts them
(Engine.mobility_counts), so the two cannot disagree on what a move is.  A passed
piece (of a type that promotes, no enemy piece of its type ahead of it on its file or
the files beside it) counts on its rank, seen from its owner's side.

The parameter vector theta has these blocks, in pawns (centipawns / 100, so that the
optimiser sees numbers of one size):
  values[t]       for each type whose value may be learned (not royal, no `value` line)
  hands[t]        for each such type, in a drop game
  squares[t, s]   for each type and square, s a square of White's side
  shelter[t], near[t], attacks[t]   for each type, in a game with a royal piece
  holes[t]        for each type, in a drop game with a royal piece
  mobility[t]     for each type
  threats[term, t]  for each term (evalparams.THREATS: the taker's side to move, or
                  waiting) and each type not royal: board moves that take a piece of
                  it with a cheaper one (Engine.threat_pairs summed over the takers),
                  the taker's minus the other's
  structure: doubled[t], isolated[t] for each type that promotes, pair[t] for each
                  type not royal (evalparams.STRUCTURE), White's minus Black's
  passed[t, r]    for each type that promotes and each rank (its owner's)
  attackers[n]    in a game with a royal piece, for n = 0 .. KING_ATTACKERS - 1: a
                  royal piece with n enemy attackers (evalparams.KING_ATTACKERS;
                  Engine.king_attackers counts them), White's minus Black's; in a
                  drop game a row of these for each count of types the enemy holds
                  in hand (evalparams.attackers_index)
  by_count[t, n]  for each type and n = 0 .. MOBILITY_COUNTS - 1: a piece of it with n
                  board moves (the last: that many or more; Engine.mobility_by_piece
                  counts them), White's minus Black's, on top of mobility[t]'s line
  drop_checks[term, t]  in a drop game with a royal piece, for each term
                  (evalparams.DROP_CHECKS: safe, defended) and each type a hand may
                  drop, not royal: empty squares from which a piece of it that the side
                  holds would attack the enemy royal piece (Engine.drop_checks), White's
                  minus Black's; and (safe_to_move, defended_to_move) the side to
                  move's alone, negative where Black is to move
  board_checks[term, t]  in a game with a royal piece, for each term
                  (evalparams.BOARD_CHECKS: safe, defended) and each type not royal:
                  board moves of a piece of it to a square it would attack the enemy
                  royal piece from (Engine.board_checks), White's minus Black's; and
                  the to_move terms as drop checks' (the side to move's alone)
  threats_by_taker[term, taker, t]  the same by the taking type too (Engine.threat_pairs),
                  for every type that takes and each type not royal taken
  mobility_safe[t]  for each type: board moves to a square no enemy piece of the
                  game's cheapest type attacks (Engine.safe_mobility_counts), White's
                  minus Black's, on top of mobility[t]
  passed_king[term, t, r]  in a game with a royal piece, for each term
                  (evalparams.PASSED_KING: own, enemy), each type that promotes and each
                  rank: a passed piece's royal piece's (or the enemy's) distance to the
                  square ahead of it, at most evalparams.PASSED_KING_DISTANCE, White's
                  minus Black's; like the endgame blocks, its endgame share where the
                  evaluation blends endgame tables in
  endgame values[t], endgame squares[t, s]   where the evaluation blends endgame
                  tables in (evalparams.py "endgame"): a piece's value and square then
                  count phase/PHASE_MAX in the first blocks and the rest in these
"""

from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from ..compiler import evalparams
from ..compiler.lower import Lowerer
from ..encoding import piece_code

WHITE, BLACK = 0, 1


class CheckBlock(NamedTuple):
    """One of the two check terms (drop checks, board checks), which the fit treats
    alike: Space.check_blocks."""
    section: str                # its parameter-file section
    terms: tuple                # evalparams.DROP_CHECKS or BOARD_CHECKS
    types: list                 # the types with slots
    slot: Callable              # slot(term, t): a type's place in theta
    table: int                  # the index of its current numbers in Space.tables


@dataclass
class Space:
    """The parameters of one game's evaluation: names, positions in theta, start values."""

    variant: object
    symmetry: str
    value_types: list            # type indices with a learned board value
    hand_types: list             # type indices with a learned hand value
    theta0: np.ndarray           # the current evaluation's parameters (pawns)
    tables: tuple                # the current (values, hand_values, pst per code,
                                 # king safety: {term: per type}, mobility: per type,
                                 # passed: a row of ranks per type; 0s where it has none)
    safety_types: list = ()      # types with shelter, near and attacks slots (all; none
                                 # without a royal piece)
    hole_types: list = ()        # types with a holes slot (the same, in a drop game)
    mobility_types: list = ()    # types with a mobility slot, and MOBILITY_COUNTS
                                 # mobility-by-count slots (all)
    passer_types: list = ()      # types with passed slots, one a rank (those that promote)
    endgame: bool = False        # values and squares blended with endgame ones by phase
    phase_weights: list = ()     # per type: what a piece adds to the phase (lower.py)
    phase_max: int = 1           # the setup's phase
    nonroyal_types: list = ()    # the types not royal: a slot each in the threat and pair terms
    attacker_slots: int = 0      # KING_ATTACKERS in a game with a royal piece (times
                                 # HAND_ATTACKERS with drops), else 0
    drop_check_types: list = ()  # types with safe and defended drop-check slots (those a
                                 # hand may drop, not royal, in a game with a royal piece)
    check_types: list = ()       # types with safe and defended board-check slots (those
                                 # not royal, in a game with a royal piece)
    passed_king_types: list = ()  # types with own and enemy passed-king slots, one a rank
                                 # (those that promote, in a game with a royal piece)

    @property
    def files(self):
        return self.variant.files

    @property
    def ranks(self):
        return self.variant.ranks

    @property
    def size(self):
        return self.endgame_start + (len(self.value_types) + self.square_count
                                     if self.endgame else 0)

    @property
    def endgame_start(self):
        return self.passed_king_start + (len(evalparams.PASSED_KING)
                                         * len(self.passed_king_types) * self.ranks)

    @property
    def passed_king_start(self):
        return self.safe_mobility_start + len(self.mobility_types)

    @property
    def safe_mobility_start(self):
        return self.taker_threats_start + (len(evalparams.THREATS) * len(self.variant.pieces)
                                           * len(self.nonroyal_types))

    @property
    def taker_threats_start(self):
        return self.board_checks_start + len(evalparams.BOARD_CHECKS) * len(self.check_types)

    @property
    def board_checks_start(self):
        return self.drop_checks_start + len(evalparams.DROP_CHECKS) * len(self.drop_check_types)

    @property
    def drop_checks_start(self):
        return self.by_count_start + len(self.mobility_types) * evalparams.MOBILITY_COUNTS

    @property
    def by_count_start(self):
        return self.attackers_start + self.attacker_slots

    @property
    def attackers_start(self):
        return self.passed_start + len(self.passer_types) * self.ranks

    @property
    def passed_start(self):
        return self.structure_start + 2 * len(self.passer_types) + len(self.nonroyal_types)

    @property
    def structure_start(self):
        return self.threats_start + len(evalparams.THREATS) * len(self.nonroyal_types)

    @property
    def threats_start(self):
        return self.mobility_start + len(self.mobility_types)

    @property
    def mobility_start(self):
        return self.safety_start + 3 * len(self.safety_types) + len(self.hole_types)

    @property
    def safety_start(self):
        return len(self.value_types) + len(self.hand_types) + self.square_count

    @property
    def square_count(self):
        return len(self.variant.pieces) * self.files * self.ranks

    def value_slot(self, t):
        return self.value_types.index(t)

    def hand_slot(self, t):
        return len(self.value_types) + self.hand_types.index(t)

    def square_slot(self, t, f, r):
        first = len(self.value_types) + len(self.hand_types)
        return first + (t * self.ranks + r) * self.files + f

    def square_block(self):
        start = len(self.value_types) + len(self.hand_types)
        return slice(start, start + self.square_count)

    def safety_slot(self, term, t):
        """The slot of king-safety `term` (evalparams.KING_SAFETY) for type t."""
        block = evalparams.KING_SAFETY.index(term) * len(self.safety_types)
        return self.safety_start + block + t

    def safety_block(self):
        return slice(self.safety_start, self.mobility_start)

    def mobility_slot(self, t):
        return self.mobility_start + self.mobility_types.index(t)

    def mobility_block(self):
        return slice(self.mobility_start, self.threats_start)

    def threat_slot(self, term, t):
        """The slot of threat `term` (evalparams.THREATS) on type t."""
        block = evalparams.THREATS.index(term) * len(self.nonroyal_types)
        return self.threats_start + block + self.nonroyal_types.index(t)

    def threats_block(self):
        return slice(self.threats_start, self.structure_start)

    def structure_slot(self, term, t):
        """The slot of structure `term` (evalparams.STRUCTURE) for type t: doubled and
        isolated for the types that promote, pair for those not royal."""
        if term == "pair":
            return self.structure_start + 2 * len(self.passer_types) + self.nonroyal_types.index(t)
        block = 0 if term == "doubled" else len(self.passer_types)
        return self.structure_start + block + self.passer_types.index(t)

    def structure_types(self, term):
        return self.nonroyal_types if term == "pair" else self.passer_types

    def structure_block(self):
        return slice(self.structure_start, self.passed_start)

    def passed_slot(self, t, rank):
        """The slot of a passed piece of type t on `rank`, counted from its owner's side."""
        return self.passed_start + self.passer_types.index(t) * self.ranks + rank

    def passed_block(self):
        return slice(self.passed_start, self.attackers_start)

    def attackers_slot(self, index):
        """The slot of the king-attackers cell `index` (evalparams.attackers_index)."""
        return self.attackers_start + index

    def attackers_block(self):
        return slice(self.attackers_start, self.by_count_start)

    def by_count_slot(self, t, moves):
        """The slot of a piece of type t with `moves` board moves (the last: that many
        or more)."""
        return (self.by_count_start + self.mobility_types.index(t) * evalparams.MOBILITY_COUNTS
                + min(moves, evalparams.MOBILITY_COUNTS - 1))

    def by_count_block(self):
        return slice(self.by_count_start, self.drop_checks_start)

    def drop_check_slot(self, term, t):
        """The slot of drop-check `term` (evalparams.DROP_CHECKS) for type t."""
        block = evalparams.DROP_CHECKS.index(term) * len(self.drop_check_types)
        return self.drop_checks_start + block + self.drop_check_types.index(t)

    def drop_checks_block(self):
        return slice(self.drop_checks_start, self.board_checks_start)

    def board_check_slot(self, term, t):
        """The slot of board-check `term` (evalparams.BOARD_CHECKS) for type t."""
        block = evalparams.BOARD_CHECKS.index(term) * len(self.check_types)
        return self.board_checks_start + block + self.check_types.index(t)

    def board_checks_block(self):
        return slice(self.board_checks_start, self.taker_threats_start)

    def taker_threat_slot(self, term, taker, t):
        """The slot of threat `term` (evalparams.THREATS) by type `taker` on type t."""
        row = evalparams.THREATS.index(term) * len(self.variant.pieces) + taker
        return self.taker_threats_start + row * len(self.nonroyal_types) \
            + self.nonroyal_types.index(t)

    def taker_threats_block(self):
        return slice(self.taker_threats_start, self.safe_mobility_start)

    def safe_mobility_slot(self, t):
        return self.safe_mobility_start + self.mobility_types.index(t)

    def safe_mobility_block(self):
        return slice(self.safe_mobility_start, self.passed_king_start)

    def passed_king_slot(self, term, t, rank):
        """The slot of passed-king `term` (evalparams.PASSED_KING) for a passed piece of
        type t on `rank` (its owner's)."""
        row = evalparams.PASSED_KING.index(term) * len(self.passed_king_types) \
            + self.passed_king_types.index(t)
        return self.passed_king_start + row * self.ranks + rank

    def passed_king_block(self):
        return slice(self.passed_king_start, self.endgame_start)

    def check_blocks(self):
        """The two check terms, drop checks then board checks (CheckBlock)."""
        return (CheckBlock("drop_checks", evalparams.DROP_CHECKS, self.drop_check_types,
                           self.drop_check_slot, 11),
                CheckBlock("board_checks", evalparams.BOARD_CHECKS, self.check_types,
                           self.board_check_slot, 12))

    def endgame_value_slot(self, t):
        return self.endgame_start + self.value_types.index(t)

    def endgame_square_slot(self, t, f, r):
        return self.endgame_start + len(self.value_types) + (t * self.ranks + r) * self.files + f

    def endgame_value_block(self):
        return slice(self.endgame_start, self.endgame_start + len(self.value_types))

    def endgame_square_block(self):
        return slice(self.endgame_value_block().stop, self.size)

    def endgame_block(self):
        return slice(self.endgame_start, self.size)


def space_for(variant, params, endgame=False):
    """The Space of `variant` with the evaluation `params` (None: derived) as start;
    with `endgame`, or where `params` has endgame tables, the endgame blocks too (they
    start as the middlegame's numbers where `params` has none).  Not by `endgame` in a
    game whose captures go to the captor's hand: its phase never falls (crazyhouse,
    shogi), so the blend would cost the engine time and change nothing."""
    lowerer = Lowerer(variant, params)
    tables = lowerer.lower()
    learnable = [i for i, p in enumerate(variant.pieces) if not p.royal and p.value is None]
    droppable = {rule.piece for rule in variant.drops}     # the types a hand can hold
    ntypes = len(variant.pieces)
    safety_types = list(range(ntypes)) if tables.royal_type >= 0 else []
    space = Space(variant, evalparams.symmetry_of(variant), learnable,
                  [t for t in learnable if variant.pieces[t].name in droppable], None,
                  (tables.values, tables.hand_values, tables.pst,
                   tables.king_safety or {term: [0] * ntypes for term in evalparams.KING_SAFETY},
                   tables.mobility or [0] * ntypes,
                   tables.passed or [[0] * variant.ranks for _ in range(ntypes)]),
                  safety_types, safety_types if variant.drops else [], list(range(ntypes)),
                  [t for t, piece in enumerate(variant.pieces) if piece.promotion is not None],
                  tables.endgame is not None or (endgame and tables.phase_max > 0
                                                 and not tables.captures_fill_hands),
                  tables.phase_weights, max(tables.phase_max, 1),
                  [t for t, piece in enumerate(variant.pieces) if not piece.royal],
                  len(evalparams.attackers_table(None, bool(variant.drops)))
                  if tables.royal_type >= 0 else 0)
    space.drop_check_types = [t for t, piece in enumerate(variant.pieces)
                              if piece.name in droppable and not piece.royal] \
        if tables.royal_type >= 0 else []
    space.check_types = [t for t in range(ntypes) if t != tables.royal_type] \
        if tables.royal_type >= 0 else []
    space.passed_king_types = list(space.passer_types) if tables.royal_type >= 0 else []
    space.tables += (tables.endgame or (tables.values, tables.pst),
                     lowerer.threats_by_victim() or {term: [0] * ntypes
                                                     for term in evalparams.THREATS},
                     tables.structure or {term: [0] * ntypes for term in evalparams.STRUCTURE},
                     tables.king_attackers or evalparams.attackers_table(None,
                                                                         bool(variant.drops)),
                     tables.mobility_by_count or [0] * ntypes * evalparams.MOBILITY_COUNTS,
                     tables.drop_checks or {term: [0] * ntypes for term in evalparams.DROP_CHECKS},
                     tables.board_checks or {term: [0] * ntypes for term in evalparams.BOARD_CHECKS},
                     lowerer.threats_by_taker(),
                     tables.mobility_safe or [0] * ntypes,
                     tables.passed_king or {term: [[0] * variant.ranks for _ in range(ntypes)]
                                            for term in evalparams.PASSED_KING})
    theta = np.zeros(space.size)
    for t in space.value_types:
        theta[space.value_slot(t)] = tables.values[t] / 100
    for t in space.hand_types:
        theta[space.hand_slot(t)] = tables.hand_values[t] / 100
    for t in range(len(variant.pieces)):
        row = tables.pst[piece_code(t, WHITE)]
        for r in range(variant.ranks):
            for f in range(variant.files):
                theta[space.square_slot(t, f, r)] = row[lowerer.index(f, r)] / 100
    for term in evalparams.KING_SAFETY:
        for t in space.hole_types if term == "holes" else space.safety_types:
            theta[space.safety_slot(term, t)] = space.tables[3][term][t] / 100
    for t in space.mobility_types:
        theta[space.mobility_slot(t)] = space.tables[4][t] / 100
    for term in evalparams.THREATS:
        for t in space.nonroyal_types:
            theta[space.threat_slot(term, t)] = space.tables[7][term][t] / 100
    for term in evalparams.THREATS:
        for taker in range(len(variant.pieces)):
            for t in space.nonroyal_types:
                theta[space.taker_threat_slot(term, taker, t)] = \
                    space.tables[13][term][taker * ntypes + t] / 100
    for t in space.mobility_types:
        theta[space.safe_mobility_slot(t)] = space.tables[14][t] / 100
    for term in evalparams.STRUCTURE:
        for t in space.structure_types(term):
            theta[space.structure_slot(term, t)] = space.tables[8][term][t] / 100
    for t in space.passer_types:
        for rank in range(variant.ranks):
            theta[space.passed_slot(t, rank)] = space.tables[5][t][rank] / 100
    for term in evalparams.PASSED_KING:
        for t in space.passed_king_types:
            for rank in range(variant.ranks):
                theta[space.passed_king_slot(term, t, rank)] = space.tables[15][term][t][rank] / 100
    for index in range(space.attacker_slots):
        theta[space.attackers_slot(index)] = space.tables[9][index] / 100
    for t in space.mobility_types:
        for moves in range(evalparams.MOBILITY_COUNTS):
            theta[space.by_count_slot(t, moves)] = \
                space.tables[10][t * evalparams.MOBILITY_COUNTS + moves] / 100
    for block in space.check_blocks():
        for term in block.terms:
            for t in block.types:
                theta[block.slot(term, t)] = space.tables[block.table][term][t] / 100
    if space.endgame:
        values_eg, pst_eg = space.tables[6]
        for t in space.value_types:
            theta[space.endgame_value_slot(t)] = values_eg[t] / 100
        for t in range(len(variant.pieces)):
            row = pst_eg[piece_code(t, WHITE)]
            for r in range(variant.ranks):
                for f in range(variant.files):
                    theta[space.endgame_square_slot(t, f, r)] = row[lowerer.index(f, r)] / 100
    space.theta0 = theta
    return space


def features(space, board, hands, squares, royals=(-1, -1), mobility=None, attacks=None,
             threats=None, side=WHITE, attackers=None, by_piece=None, drop_checks=None,
             board_checks=None, safe_mobility=None):
    """(slots, counts, the current evaluation's piece terms in centipawns) of a position.

    board: piece codes of the real squares, a1 first (engine.board()); hands: the
    engine's hand counts, White's types then Black's; squares: the engine's index of
    each real square (META["squares"]); royals: the engine's index of each side's royal
    piece, -1 for none (engine.royal_square); mobility: each type's board moves, White's
    types then Black's (engine.mobility_counts()), None to leave mobility out; attacks:
    each type's board moves next to the enemy royal piece, White's types then Black's
    (engine.king_attack_counts()), None to leave king attacks out; threats: the board
    moves that take an enemy piece with a cheaper one, by side, taking type and type
    taken (engine.threat_pairs()), None to leave threats out; side: the side to move;
    attackers: each side's (attackers of the enemy royal piece, types in hand), White's
    then Black's (engine.king_attackers()), None to leave the attackers term out;
    by_piece: each side's (type, board moves) of each piece, or None for a side that
    is deploying (engine.mobility_by_piece()), None to leave mobility by count out;
    drop_checks: each side's (safe, defended) counts by type (engine.drop_checks()),
    None to leave drop checks out; board_checks: the same for board moves
    (engine.board_checks()), None to leave board checks out; safe_mobility: each type's
    board moves to a square no enemy pawn (cheapest type) attacks, White's types then
    Black's (engine.safe_mobility_counts()), None to leave safe mobility out."""
    values, hand_values, pst = space.tables[:3]
    values_eg, pst_eg = space.tables[6]
    slots, counts, score = [], [], 0
    ntypes = len(space.variant.pieces)
    share = _phase(space, board, hands) / space.phase_max if space.endgame else 1.0
    middle = end = 0        # the blended sums (values and squares), as the engine's
    for k, code in enumerate(board):
        if code < 2:
            continue
        t, colour = (code >> 1) - 1, code & 1
        sign = 1 if colour == WHITE else -1
        f, r = k % space.files, k // space.files
        if colour == BLACK:
            f, r = evalparams.black_square(space.symmetry, (f, r), space.files, space.ranks)
        if t in space.value_types:
            _add_blended(slots, counts, space.value_slot(t),
                         space.endgame_value_slot(t) if space.endgame else None, sign, share)
        _add_blended(slots, counts, space.square_slot(t, f, r),
                     space.endgame_square_slot(t, f, r) if space.endgame else None, sign, share)
        middle += sign * (values[t] + pst[code][squares[k]])
        end += sign * (values_eg[t] + pst_eg[code][squares[k]])
        if t in space.passer_types and _passed(space, board, k % space.files,
                                               k // space.files, code):
            slots.append(space.passed_slot(t, r))       # (both symmetries flip ranks)
            counts.append(sign)
            score += sign * space.tables[5][t][r]
            if t in space.passed_king_types:
                bonus = _passed_king(space, t, k, r, colour, squares, royals, share,
                                     slots, counts)
                if space.endgame:
                    end += bonus
                else:
                    score += bonus
    score += _blend(space, middle, end, board, hands) if space.endgame else middle
    for t in range(ntypes):
        held = hands[t] - hands[ntypes + t]
        if held:
            score += held * hand_values[t]
            if t in space.hand_types:
                slots.append(space.hand_slot(t))
                counts.append(held)
    if space.safety_types:
        for colour, royal in enumerate(royals):
            if royal >= 0:
                score += _king_safety(space, board, hands, squares.index(royal), colour,
                                      slots, counts, attacks)
    if attackers is not None and space.attacker_slots and min(royals) >= 0:
        score += _attackers(space, attackers, slots, counts)
    if mobility is not None:
        score += _moves_by_type(space, mobility, space.mobility_slot, space.tables[4],
                                slots, counts)
    if safe_mobility is not None:
        score += _moves_by_type(space, safe_mobility, space.safe_mobility_slot,
                                space.tables[14], slots, counts)
    if by_piece is not None:
        score += _by_count(space, by_piece, slots, counts)
    for checks, block in zip((drop_checks, board_checks), space.check_blocks()):
        if checks is not None:
            score += _checks(space, checks, block, side, slots, counts)
    if threats is not None:
        score += _threats(space, threats, side, slots, counts)
    score += _structure(space, board, slots, counts)
    return slots, counts, score


def _moves_by_type(space, moves, slot, learned, slots, counts):
    """Add a per-type move count's features (mobility, safe mobility: `moves` by type,
    White's then Black's, into `slot`'s slots); their terms now, centipawns from
    White's view (`learned`: the file's numbers by type)."""
    ntypes, score = len(space.variant.pieces), 0
    for t in space.mobility_types:
        edge = moves[t] - moves[ntypes + t]
        if edge:
            slots.append(slot(t))
            counts.append(edge)
            score += edge * learned[t]
    return score


def _by_count(space, by_piece, slots, counts):
    """Add the mobility-by-count features (as compiler/core/evaluate.pxi
    `piece_activity` looks its table up: each piece by its type and count of board
    moves); their terms now, centipawns from White's view."""
    score, learned, width = 0, space.tables[10], evalparams.MOBILITY_COUNTS
    for colour, pieces in enumerate(by_piece):
        sign = 1 if colour == WHITE else -1
        for t, moves in pieces or ():
            slots.append(space.by_count_slot(t, moves))
            counts.append(sign)
            score += sign * learned[t * width + min(moves, width - 1)]
    return score


def _checks(space, checks, block, side, slots, counts):
    """Add the drop-check or board-check features (as compiler/core/evaluate.pxi
    `drop_check` and `board_check` count them: each side's (safe, defended) counts by
    type, `checks`, for the CheckBlock `block`; a to_move term, evalparams.check_term,
    counts the same squares of the side to move `side` only);
    their terms now, centipawns from White's view."""
    learned, score = space.tables[block.table], 0
    for t in block.types:
        for term in block.terms:
            kind, to_move_only = evalparams.check_term(term)
            if to_move_only:
                count = checks[side][kind][t] * (1 if side == WHITE else -1)
            else:
                count = checks[WHITE][kind][t] - checks[BLACK][kind][t]
            if count:
                slots.append(block.slot(term, t))
                counts.append(count)
                score += count * learned[term][t]
    return score


def _structure(space, board, slots, counts):
    """Add the structure features (as compiler/core/evaluate.pxi `structure` counts
    them); their terms now, centipawns from White's view."""
    ntypes, files = len(space.variant.pieces), space.files
    learned = space.tables[8]
    pieces = [[0] * ntypes for _ in (WHITE, BLACK)]
    by_file = [[[0] * files for _ in range(ntypes)] for _ in (WHITE, BLACK)]
    for k, code in enumerate(board):
        if code >= 2:
            t, colour = (code >> 1) - 1, code & 1
            pieces[colour][t] += 1
            by_file[colour][t][k % files] += 1
    feature = {}                    # (term, type) -> White's count minus Black's
    for colour, sign in ((WHITE, 1), (BLACK, -1)):
        for t in space.nonroyal_types:
            if pieces[colour][t] >= 2:
                feature[("pair", t)] = feature.get(("pair", t), 0) + sign
        for t in space.passer_types:
            row = by_file[colour][t]
            for f, n in enumerate(row):
                if not n:
                    continue
                feature[("doubled", t)] = feature.get(("doubled", t), 0) + sign * (n - 1)
                if (f == 0 or not row[f - 1]) and (f == files - 1 or not row[f + 1]):
                    feature[("isolated", t)] = feature.get(("isolated", t), 0) + sign * n
    score = 0
    for (term, t), count in feature.items():
        if count:
            slots.append(space.structure_slot(term, t))
            counts.append(count)
            score += count * learned[term][t]
    return score


def _attackers(space, attackers, slots, counts):
    """Add the king-attackers features (as compiler/core/evaluate.pxi `attacker_count`
    indexes them): each royal piece by its enemy's (board attackers, types in hand), for
    the royal piece's side; their terms now, centipawns from White's view."""
    score, learned = 0, space.tables[9]
    for colour, sign in ((WHITE, 1), (BLACK, -1)):
        index = evalparams.attackers_index(*attackers[1 - colour], bool(space.variant.drops))
        slots.append(space.attackers_slot(index))
        counts.append(sign)
        score += sign * learned[index]
    return score


def _threats(space, threats, side, slots, counts):
    """Add the threat features (as compiler/core/evaluate.pxi `activity` counts them:
    each side's by whether it is to move, by the type taken and by the pair), from
    `threats`, Engine.threat_pairs; their terms now, centipawns from White's view."""
    ntypes = len(space.variant.pieces)
    by_victim, by_taker = space.tables[7], space.tables[13]
    score = 0
    for colour in (WHITE, BLACK):
        term = "to_move" if colour == side else "waiting"
        sign = 1 if colour == WHITE else -1
        for t in space.nonroyal_types:
            pairs = [threats[(colour * ntypes + taker) * ntypes + t] for taker in range(ntypes)]
            if not any(pairs):
                continue
            slots.append(space.threat_slot(term, t))
            counts.append(sign * sum(pairs))
            score += sign * sum(pairs) * by_victim[term][t]
            for taker, count in enumerate(pairs):
                if count:
                    slots.append(space.taker_threat_slot(term, taker, t))
                    counts.append(sign * count)
                    score += sign * count * by_taker[term][taker * ntypes + t]
    return score


def _phase(space, board, hands):
    """The position's phase (compiler/lower.py `phase`), at most the setup's."""
    ntypes = len(space.variant.pieces)
    phase = sum(space.phase_weights[(code >> 1) - 1] for code in board if code >= 2)
    if space.variant.drops:
        phase += sum(space.phase_weights[t] * (hands[t] + hands[ntypes + t])
                     for t in range(ntypes))
    return min(phase, space.phase_max)


def _blend(space, middle, end, board, hands):
    """evaluate.pxi `blend`: C's integer division, towards zero."""
    phase = _phase(space, board, hands)
    total = middle * phase + end * (space.phase_max - phase)
    quotient = abs(total) // space.phase_max
    return quotient if total >= 0 else -quotient


def _add_blended(slots, counts, slot, endgame_slot, sign, share):
    """A value or square feature: all in `slot` without an endgame block, else `share`
    (the phase's fraction of the setup's) there and the rest in `endgame_slot`."""
    slots.append(slot)
    counts.append(sign * share)
    if endgame_slot is not None:
        slots.append(endgame_slot)
        counts.append(sign * (1.0 - share))


def _passed_king(space, t, k, rank, colour, squares, royals, share, slots, counts):
    """Add the passed-king features of `colour`'s passed piece of type t on the real
    square k (on its owner's `rank`), as compiler/core/evaluate.pxi `passer_kings`
    counts them: each royal piece's distance to the square ahead of it, in the
    endgame's share (`share` being the middlegame's) where the evaluation blends
    endgame tables in; its bonus now, centipawns from White's view."""
    files, ranks = space.files, space.ranks
    sign = 1 if colour == WHITE else -1
    f, r = k % files, k // files
    if rank < ranks - 1:
        r += 1 if colour == WHITE else -1
    weight = (1.0 - share) if space.endgame else 1.0
    bonus = 0
    for term, royal in zip(evalparams.PASSED_KING, (royals[colour], royals[1 - colour])):
        if royal < 0:
            continue
        king = squares.index(royal)
        distance = min(max(abs(king % files - f), abs(king // files - r)),
                       evalparams.PASSED_KING_DISTANCE)
        slot = space.passed_king_slot(term, t, rank)
        slots.append(slot)
        counts.append(sign * distance * weight)
        bonus += sign * distance * space.tables[15][term][t][rank]
    return bonus


def _passed(space, board, f, r, code):
    """Does no enemy piece of the type of `code` (on file f, rank r) stand ahead of it
    on its file or a file beside it (as compiler/core/evaluate.pxi `is_passed`)?"""
    ahead = range(r + 1, space.ranks) if code & 1 == WHITE else range(r - 1, -1, -1)
    files = range(max(f - 1, 0), min(f + 2, space.files))
    return not any(board[rank * space.files + file] == code ^ 1
                   for rank in ahead for file in files)


def _king_safety(space, board, hands, king, colour, slots, counts, attacks=None):
    """Add the king-safety features of `colour`'s royal piece on the real square `king`
    (as compiler/core/evaluate.pxi `king_safety` and, for the enemy's moves next to it,
    `activity` count them); its terms now, in centipawns from White's view."""
    ntypes = len(space.variant.pieces)
    learned = space.tables[3]
    sign = 1 if colour == WHITE else -1
    f, r = king % space.files, king // space.files
    score, holes = 0, 0
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            if (dx, dy) == (0, 0) or not (0 <= f + dx < space.files and 0 <= r + dy < space.ranks):
                continue
            near = max(abs(dx), abs(dy)) == 1
            code = board[(r + dy) * space.files + f + dx]
            if code >= 2:
                t = (code >> 1) - 1
                term = "near" if code & 1 != colour else "shelter" if near else None
                if term:
                    slots.append(space.safety_slot(term, t))
                    counts.append(sign)
                    score += sign * learned[term][t]
            elif code == 0 and near:
                holes += 1
    if attacks is not None:
        enemy = (1 - colour) * ntypes
        for t in space.safety_types:
            if attacks[enemy + t]:
                slots.append(space.safety_slot("attacks", t))
                counts.append(sign * attacks[enemy + t])
                score += sign * attacks[enemy + t] * learned["attacks"][t]
    if space.hole_types and holes:
        for t in range(ntypes):
            if hands[(1 - colour) * ntypes + t]:
                slots.append(space.safety_slot("holes", t))
                counts.append(sign * holes)
                score += sign * holes * learned["holes"][t]
    return score


def to_params(space, theta, fit_info):
    """A parameter file's content for the fitted theta (centipawns, rounded)."""
    pieces = space.variant.pieces
    data = {"format": evalparams.FORMAT, "game": space.variant.name,
            "model_hash": evalparams.model_hash(space.variant), "symmetry": space.symmetry,
            "values": {pieces[t].name: int(round(100 * theta[space.value_slot(t)]))
                       for t in space.value_types},
            "hand_values": {pieces[t].name: int(round(100 * theta[space.hand_slot(t)]))
                            for t in space.hand_types},
            "pst": {}, "fit": fit_info}
    for t, piece in enumerate(pieces):
        data["pst"][piece.name] = [[int(round(100 * theta[space.square_slot(t, f, r)]))
                                    for f in range(space.files)] for r in range(space.ranks)]
    if space.safety_types:
        data["king_safety"] = {
            term: {pieces[t].name: int(round(100 * theta[space.safety_slot(term, t)]))
                   for t in (space.hole_types if term == "holes" else space.safety_types)}
            for term in evalparams.KING_SAFETY if term != "holes" or space.hole_types}
    if space.attacker_slots:
        cells = [int(round(100 * theta[space.attackers_slot(index)]))
                 for index in range(space.attacker_slots)]
        width = evalparams.KING_ATTACKERS      # (a drop game's rows, by types in hand)
        data["king_attackers"] = cells if len(cells) == width else \
            [cells[start:start + width] for start in range(0, len(cells), width)]
    if space.mobility_types:
        data["mobility"] = {pieces[t].name: int(round(100 * theta[space.mobility_slot(t)]))
                            for t in space.mobility_types}
    safe = {pieces[t].name: int(round(100 * theta[space.safe_mobility_slot(t)]))
            for t in space.mobility_types}
    if any(safe.values()):
        data["mobility_safe"] = safe
    by_count = {pieces[t].name: [int(round(100 * theta[space.by_count_slot(t, moves)]))
                                 for moves in range(evalparams.MOBILITY_COUNTS)]
                for t in space.mobility_types}
    if any(any(row) for row in by_count.values()):
        data["mobility_by_count"] = {name: row for name, row in by_count.items() if any(row)}
    for block in space.check_blocks():
        if block.types:
            data[block.section] = {
                term: {pieces[t].name: int(round(100 * theta[block.slot(term, t)]))
                       for t in block.types}
                for term in block.terms}
    if space.nonroyal_types:
        data["threats"] = {term: {pieces[t].name: int(round(100 * theta[space.threat_slot(term, t)]))
                                  for t in space.nonroyal_types}
                           for term in evalparams.THREATS}
    taker_threats = {term: {pieces[taker].name: row for taker in range(len(pieces))
                            for row in [{pieces[t].name: learned for t in space.nonroyal_types
                                         for learned in [int(round(100 * theta[
                                             space.taker_threat_slot(term, taker, t)]))]
                                         if learned}] if row}
                     for term in evalparams.THREATS}
    if any(taker_threats.values()):
        data["threats_by_taker"] = taker_threats
    data["structure"] = {term: {pieces[t].name: int(round(100 * theta[space.structure_slot(term, t)]))
                                for t in space.structure_types(term)}
                         for term in evalparams.STRUCTURE}
    if space.passer_types:
        data["passed"] = {pieces[t].name: [int(round(100 * theta[space.passed_slot(t, rank)]))
                                           for rank in range(space.ranks)]
                          for t in space.passer_types}
    passed_king = {term: {pieces[t].name: [int(round(100 * theta[space.passed_king_slot(term, t, rank)]))
                                           for rank in range(space.ranks)]
                          for t in space.passed_king_types}
                   for term in evalparams.PASSED_KING}
    if any(any(row) for rows in passed_king.values() for row in rows.values()):
        data["passed_king"] = passed_king
    if space.endgame:
        data["endgame"] = {
            "values": {pieces[t].name: int(round(100 * theta[space.endgame_value_slot(t)]))
                       for t in space.value_types},
            "pst": {piece.name: [[int(round(100 * theta[space.endgame_square_slot(t, f, r)]))
                                  for f in range(space.files)] for r in range(space.ranks)]
                    for t, piece in enumerate(pieces)}}
    data["fit"] = data.pop("fit")           # last in the file, after the numbers
    return data
