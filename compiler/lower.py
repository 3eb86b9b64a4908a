"""Phase 4, lower: the rule model -> tables for code generation.

Decides the board representation and numbers everything:

* a padded mailbox: the board is stored row by row with `stride = files + pad`
  columns (the first `pad` of each row are off the board, and serve as the right
  margin of the row below too) and `pad` extra rows above and below, all holding an
  OFF sentinel, so any leap of at most `pad` squares from a board square lands on the
  board or on OFF, never outside the array.
  Square index = (rank + pad) * stride + file + pad.
* piece codes and moves as fairyforge.encoding lays them out.
* every square set the rules use becomes one row of a byte table (`regions`), so the
  generated code tests membership with one array load.

The result is plain data (ints, lists, dicts); the codegen phase only renders it.
"""

from dataclasses import dataclass, field
from math import gcd

from fairyforge.encoding import MAX_FILES, MAX_HAND, MAX_RANKS, board_cells, piece_code
from fairyforge.fen import parse_fen, parse_square

from . import rules
from . import geometry
from .geometry import PieceWalk, orient
from .rules.standing_promotion import move_bound

WHITE, BLACK = 0, 1
SIDE_NAMES = ("white", "black")


@dataclass
class Tables:
    """Everything the template needs, already numbered."""

    name: str
    files: int
    ranks: int
    pad: int
    stride: int
    nsq: int
    ntypes: int
    board_squares: list               # indices of the real squares, a1 first
    square_names: dict                # index -> "e4"
    regions: list = field(default_factory=list)      # list of (comment, bytes[nsq])
    pieces: list = field(default_factory=list)       # per type: dict (see _lower_piece)
    attack_entries: list = field(default_factory=list)   # per colour: list of dicts
    castling: list = field(default_factory=list)
    royal_type: int = -1
    capture_to_hand: list = field(default_factory=list)  # [colour][type] -> hand type or -1
    drops: list = field(default_factory=list)
    has_drops: bool = False
    has_ep: bool = False
    ep_always_marked: bool = False    # `mark every double step` (rules/ep_marking.py)
    captures_fill_hands: bool = False
    resets_clock: list = field(default_factory=list)  # per type: True for pawn-like pieces
    ep_zone: list = None              # [colour] -> region row: squares passed over that
                                      # may be taken en passant (None: all of them)
    deploy: dict = None               # {"last": type index or -1} when there is a deployment
    rules: dict = field(default_factory=dict)        # rule kind's module name -> its lower()
    values: list = field(default_factory=list)       # per type: material value (centipawns)
    hand_values: list = field(default_factory=list)  # per type: value in hand (centipawns)
    pst: list = field(default_factory=list)          # per code: per square bonus (centipawns)
    king_safety: dict = None          # {"shelter"|"near"|"attacks"|"holes": per type (centipawns)}, or
                                      # None: no king-safety term (compiler/evalparams.py)
    king_attackers: list = None       # by the count of the enemy's attackers (the last: that
                                      # many or more; in a drop game a row for each count of
                                      # types in hand, evalparams.attackers_index): centipawns
                                      # for the royal piece's side, or None: no such term
    mobility: list = None             # per type: centipawns per board move, or None: no
                                      # mobility term (compiler/evalparams.py)
    mobility_by_count: list = None    # per type, then per count of a piece's board moves (the
                                      # last: that many or more): centipawns a piece, or None
    mobility_safe: list = None        # per type: centipawns more per board move to a square
                                      # no enemy piece of the cheapest type attacks, or None
    guard_entries: list = field(default_factory=list)   # per colour: attack_entries cut to
                                      # the cheapest types' codes (mobility_safe's test)
    drop_checks: dict = None          # {"safe"|"defended": per type (centipawns)} for each
                                      # square a piece in hand could check from, or None
    drop_check_repeats: bool = False  # two of a droppable piece's attacks may reach one
                                      # square (may_repeat_moves): count each square once
    drop_check_entries: list = field(default_factory=list)   # per colour: attack_entries
                                      # cut to the droppable types' codes (the walk's ways)
    board_checks: dict = None         # {"safe"|"defended": per type (centipawns)} for each
                                      # board move to a square it would check from, or None
    check_entries: list = field(default_factory=list)   # per colour: attack_entries cut to
                                      # the types not royal (the board-check marks' ways)
    passed: list = None               # per type: centipawns by rank (from the owner's side)
                                      # for a passed piece, or None: no passed term
    passed_king: dict = None          # {"own"|"enemy": per type, centipawns by rank, per
                                      # square of a royal piece's distance to the square
                                      # ahead of a passed piece}, or None (evalparams.py)
    structure: dict = None            # {"doubled"|"isolated"|"pair": per type (centipawns)},
                                      # or None: no structure term (compiler/evalparams.py)
    threats: dict = None              # {"to_move"|"waiting": per taking type, per type
                                      # taken (centipawns), NTYPES * NTYPES}, or None: no
                                      # threat term (compiler/evalparams.py)
    endgame: tuple = None             # (values, pst) as a game ends, blended with `values`
                                      # and `pst` by phase, or None: no blend (evalparams.py)
    search_settings: dict = field(default_factory=dict)   # search settings measured for
                                      # this game (evalparams SEARCH_SETTINGS), by name
    phase_weights: list = None        # per type: what a piece of it adds to the phase
    phase_max: int = 0                # the phase of the setup: the game's start
    meta: dict = field(default_factory=dict)


class Lowerer:
    def __init__(self, variant, params=None):
        self.v = variant
        self.params = params        # learned evaluation (compiler/evalparams.py) or None
        self.files, self.ranks = variant.files, variant.ranks
        self.type_index = {p.name: i for i, p in enumerate(variant.pieces)}
        self.pad = self._pad()
        self.stride = self.files + self.pad
        self.nsq = board_cells(self.files, self.ranks, self.pad)
        self._region_ids = {}
        self.regions = []

    # -- geometry -----------------------------------------------------------------------
    def _pad(self):
        reach = 1
        for p in self.v.pieces:
            for a in p.moves:
                reach = max(reach, abs(a.dx), abs(a.dy))
        return reach

    def index(self, f, r):
        return (r + self.pad) * self.stride + f + self.pad

    def square_index(self, name):
        f, r = parse_square(name, self.files, self.ranks)
        return self.index(f, r)

    def offset(self, dx, dy, colour):
        """Board-array offset of a White-relative vector for a colour."""
        dx, dy = orient(dx, dy, colour, self.v.symmetry)
        return dy * self.stride + dx

    def coordinates(self, index):
        """(file, rank) of a board-array index."""
        row, column = divmod(index, self.stride)
        return column - self.pad, row - self.pad

    def on_board(self, index):
        r, c = divmod(index, self.stride)
        return self.pad <= c < self.pad + self.files and self.pad <= r < self.pad + self.ranks

    def all_squares(self):
        return [self.index(f, r) for r in range(self.ranks) for f in range(self.files)]

    # -- regions ------------------------------------------------------------------------
    def region_id(self, indices, comment):
        """Row number of a square set in the region table (shared between equal sets)."""
        key = frozenset(indices)
        if key not in self._region_ids:
            row = [0] * self.nsq
            for i in key:
                row[i] = 1
            self._region_ids[key] = len(self.regions)
            self.regions.append((comment, row))
        return self._region_ids[key]

    def side_squares(self, square_set, colour):
        return {self.square_index(n) for n in square_set.for_side(SIDE_NAMES[colour])}

    # -- pieces ---------------------------------------------------------------------------
    def _atoms(self, piece, colour):
        out = []
        for a in piece.moves:
            entry = {
                "off": self.offset(a.dx, a.dy, colour),
                "dx": a.dx, "dy": a.dy,
                "kind": a.kind, "max_steps": a.max_steps,
                "moves": a.moves, "captures": a.captures,
                "lame": [self.offset(x, y, colour) for x, y in a.lame_path],
                "initial_reg": None, "only_reg": None, "along_reg": None,
                "screen_codes": (self._banned_screens(piece)
                                 if a.kind in ("hop", "grasshop") else []),
            }
            if a.initial:
                entry["initial_reg"] = self.region_id(
                    self.side_squares(piece.initial_squares, colour),
                    f"initial squares of {piece.name} ({SIDE_NAMES[colour]})")
            if a.only_in is not None:
                entry["only_reg"] = self.region_id(
                    self.side_squares(a.only_in, colour),
                    f"extra-move region of {piece.name} ({SIDE_NAMES[colour]})")
                if a.along:
                    entry["along_reg"] = entry["only_reg"]
            out.append(entry)
        return out

    def _banned_screens(self, piece):
        """Codes of the pieces this piece's hops may not jump (`no hop over … by …`)."""
        screens = [v for c, v in self.v.screen_bans if c == piece.name]
        return [piece_code(self.type_index[v], colour)
                for v in screens for colour in (WHITE, BLACK)]

    def _lower_piece(self, piece):
        t = self.type_index[piece.name]
        per_colour = []
        for colour in (WHITE, BLACK):
            atoms = self._atoms(piece, colour)
            confine = (self.side_squares(piece.confined_to, colour)
                       if piece.confined_to is not None else None)
            walk = PieceWalk.of(self.v, piece, colour)
            dead = {sq for sq in self.all_squares()
                    if not walk.can_move_from(self.coordinates(sq))}
            info = {
                "code": piece_code(t, colour),
                "atoms": atoms,
                "confine_reg": (self.region_id(confine, f"{piece.name} confined "
                                               f"({SIDE_NAMES[colour]})")
                                if confine is not None else None),
                "dead": dead,
                "promo": None,
                "dedupe": may_repeat_moves(piece.moves),
            }
            if piece.promotion is not None:
                promo = piece.promotion
                zone = self.side_squares(promo.zone, colour)
                # stuck pieces allowed: no promotion is forced by a dead square
                forced = self.side_squares(promo.forced, colour) | (
                    set() if self.v.dead_drops_allowed else dead)
                info["promo"] = {
                    "choices": [self.type_index[c] for c in promo.choices],
                    "zone_reg": self.region_id(zone, f"promotion zone of {piece.name} "
                                               f"({SIDE_NAMES[colour]})"),
                    "forced_reg": self.region_id(forced, f"forced promotion of {piece.name} "
                                                 f"({SIDE_NAMES[colour]})"),
                    "on_leaving": promo.on_leaving,
                    "on_capture": promo.on_capture,
                    "limits": self._promotion_limits(promo, colour),
                }
            per_colour.append(info)
        return {
            "index": t, "name": piece.name, "letter": piece.letter, "betza": piece.betza,
            "royal": piece.royal, "colours": per_colour,
            "ep": piece.name in self.v.en_passant,
            "ep_marked": piece.name in self.v.ep_marked_pieces,    # rules/ep_marking.py
        }

    # -- attacks ------------------------------------------------------------------------
    def _attack_entries(self, pieces, colour):
        """How pieces of `colour` attack a square: grouped where the test is the same.

        Unconditional leaps are grouped by offset and unconditional rides by direction
        and range, so the generated attack test looks at each square once.
        """
        grouped, single = {}, []
        for piece in pieces:
            info = piece["colours"][colour]
            for a in info["atoms"]:
                if not a["captures"]:
                    continue
                conditional = (a["lame"] or a["initial_reg"] is not None
                               or a["only_reg"] is not None or a["screen_codes"]
                               or info["confine_reg"] is not None)
                entry = {"kind": a["kind"], "off": a["off"], "max_steps": a["max_steps"],
                         "lame": a["lame"], "initial_reg": a["initial_reg"],
                         "only_reg": a["only_reg"], "confine_reg": info["confine_reg"],
                         "along_reg": a["along_reg"], "screen_codes": a["screen_codes"],
                         "codes": [info["code"]], "ep": piece["ep"]}
                if conditional or a["kind"] in ("hop", "grasshop"):
                    single.append(entry)
                    continue
                key = (a["kind"], a["off"], a["max_steps"], piece["ep"])
                if key in grouped:
                    if info["code"] not in grouped[key]["codes"]:
                        grouped[key]["codes"].append(info["code"])
                else:
                    grouped[key] = entry
        leaps = [e for e in grouped.values() if e["kind"] == "leap"]
        rides = [e for e in grouped.values() if e["kind"] == "ride"]
        return leaps + single + rides      # cheap tests first

    # -- evaluation ----------------------------------------------------------------------
    def _evaluation(self, pieces):
        """Piece values, values in hand and square bonuses: derived from the rules, or
        learned (`fairyforge tune`) where a parameter set is given.

        A derived value grows with the piece's average mobility on an empty board (a
        pawn-like piece with about one move is worth ~100).  The derived square bonus
        rewards squares where the piece has more moves than its average (centralisation,
        the river, the palace...) and, for a piece that promotes, nearness to its
        promotion zone.  `value PIECE N` in the definition overrides both (N in pawns).
        """
        squares = self.all_squares()
        values, pst = [], [[0] * self.nsq for _ in range(piece_code(len(pieces), 0))]
        for piece, model in zip(pieces, self.v.pieces):
            walks = [PieceWalk.of(self.v, model, colour) for colour in (WHITE, BLACK)]
            average = self._average_mobility(model, walks[WHITE], squares)
            value = 100 * (average / 1.5) ** 0.7
            values.append(0 if model.royal else int(round(value)))
            for colour in (WHITE, BLACK):
                row = pst[piece_code(piece["index"], colour)]
                for sq in squares:
                    row[sq] = self._square_bonus(model, walks[colour], colour, sq, average)
        hand_values = list(values)
        if self.params is not None:
            self._apply_params(values, hand_values, pst)
        for i, model in enumerate(self.v.pieces):
            if model.value is not None and not model.royal:
                values[i] = hand_values[i] = int(round(100 * model.value))
        return values, hand_values, pst

    def king_safety(self, royal_type):
        """The learned king-safety bonuses per type (evalparams.KING_SAFETY), or None
        where there are none: no parameter set has them, all are 0, or the game has no
        royal piece to be safe."""
        from .evalparams import KING_SAFETY
        learned = (self.params or {}).get("king_safety", {})
        if royal_type < 0 or not any(learned.get(term) for term in KING_SAFETY):
            return None
        tables = {term: [int(round(max(-2000, min(2000, learned.get(term, {}).get(p.name, 0)))))
                         for p in self.v.pieces] for term in KING_SAFETY}
        if not self.v.drops:
            tables["holes"] = [0] * len(self.v.pieces)
        return tables if any(any(row) for row in tables.values()) else None

    def king_attackers(self, royal_type):
        """The learned king-attackers bonuses as evalparams.attackers_table flattens them
        (a row by board attackers; in a drop game, one such row for each count of types
        in hand), or None where there are none (no parameter set has them, all are 0,
        or no royal piece)."""
        from .evalparams import attackers_table
        table = [int(round(max(-2000, min(2000, value))))
                 for value in attackers_table(self.params, bool(self.v.drops))]
        return table if royal_type >= 0 and any(table) else None

    def mobility(self, section="mobility"):
        """The learned mobility bonus per type (evalparams: centipawns per board move;
        `section` "mobility_safe": per move to a square no enemy pawn attacks), or None
        where there is none (no parameter set has one, or all are 0)."""
        learned = (self.params or {}).get(section, {})
        table = [int(round(max(-500, min(500, learned.get(p.name, 0))))) for p in self.v.pieces]
        return table if any(table) else None

    def mobility_by_count(self):
        """The learned bonuses per piece by its type and count of board moves
        (evalparams.MOBILITY_COUNTS a type, types in order, in one list), or None where
        there are none (no parameter set has them, or all are 0)."""
        from .evalparams import MOBILITY_COUNTS
        learned = (self.params or {}).get("mobility_by_count", {})
        table = [int(round(max(-2000, min(2000, value))))
                 for p in self.v.pieces for value in learned.get(p.name, [0] * MOBILITY_COUNTS)]
        return table if any(table) else None

    def cheapest_types(self, values):
        """The types not royal of the least positive value (`values`, as the search's
        least_piece_value finds it): the pawns whose attacks keep a square unsafe."""
        worth = [v for t, v in enumerate(values) if not self.v.pieces[t].royal and v > 0]
        return {t for t, v in enumerate(values)
                if not self.v.pieces[t].royal and worth and v == min(worth)}

    def drop_checks(self, royal_type):
        """The learned drop-check bonuses (evalparams DROP_CHECKS: per type, centipawns),
        a row per term, or None where there are none (or no drops, or no royal piece to
        check)."""
        from .evalparams import DROP_CHECKS
        if not self.v.drops or royal_type < 0:
            return None
        return self._rows_by_type("drop_checks", DROP_CHECKS)

    def board_checks(self, royal_type):
        """The learned board-check bonuses (evalparams BOARD_CHECKS: per type,
        centipawns), a row per term, or None where there are none (or no royal piece)."""
        from .evalparams import BOARD_CHECKS
        return self._rows_by_type("board_checks", BOARD_CHECKS) if royal_type >= 0 else None

    def drop_check_repeats(self):
        """Could two attacks of a droppable piece reach the same square (so that the
        drop-check walk, an attack entry at a time, must mark the squares it counted)?"""
        droppable = {rule.piece for rule in self.v.drops}
        return any(may_repeat_moves([a for a in p.moves if a.captures])
                   for p in self.v.pieces if p.name in droppable)

    def _drop_check_entries(self, attack_entries):
        """Each colour's attack entries with only the codes of the types a hand may drop:
        the ways a dropped piece can attack."""
        return _entries_of(attack_entries, {self.type_index[rule.piece] for rule in self.v.drops})

    def _check_entries(self, attack_entries, royal_type):
        """Each colour's attack entries without the royal type's codes: the ways a piece
        moved can give check (a royal piece never does)."""
        return _entries_of(attack_entries, set(range(len(self.v.pieces))) - {royal_type})

    def threats(self, values):
        """The learned threat bonuses (evalparams THREATS), a row per term: for each
        taking type, for each type taken, the victim's bonus ("threats") and the pair's
        ("threats_by_taker"), centipawns, or None where there are none.  Never on a
        royal piece (an attack on it is check, which the search sees), nor where the
        taker is worth as much as the victim or more (`values`: no threat, then)."""
        from .evalparams import THREATS
        by_victim = self.threats_by_victim() or {}
        by_taker = self.threats_by_taker()
        ntypes = len(self.v.pieces)
        rows = {term: [by_victim.get(term, [0] * ntypes)[k % ntypes] + by_taker[term][k]
                       if values[k // ntypes] < values[k % ntypes] else 0
                       for k in range(ntypes * ntypes)] for term in THREATS}
        return rows if any(any(row) for row in rows.values()) else None

    def threats_by_victim(self):
        """The file's threat bonuses by the type taken (evalparams THREATS: "threats"),
        a row per term, or None where there are none."""
        from .evalparams import THREATS
        return self._rows_by_type("threats", THREATS)

    def threats_by_taker(self):
        """The file's threat bonuses by the pair ("threats_by_taker"), a row per term of
        NTYPES x NTYPES centipawns (taking type, then type taken), 0 where it has none
        and for a royal piece taken."""
        from .evalparams import THREATS
        learned = (self.params or {}).get("threats_by_taker", {})
        return {term: [0 if victim.royal else _centipawns(
                           learned.get(term, {}).get(taker.name, {}).get(victim.name, 0))
                       for taker in self.v.pieces for victim in self.v.pieces]
                for term in THREATS}

    def structure(self):
        """The learned structure bonuses (evalparams STRUCTURE: per type, centipawns),
        a row per term, or None where there are none (doubled and isolated only for
        types that promote: evalparams.check_pieces; pair never for a royal one)."""
        from .evalparams import STRUCTURE
        return self._rows_by_type("structure", STRUCTURE)

    def _rows_by_type(self, section, terms):
        """{term: a number per type (0 for a royal one and for one the file leaves
        out), in +-2000 centipawns} of a parameter-file section, or None if all are 0."""
        learned = (self.params or {}).get(section, {})
        rows = {term: [0 if p.royal else _centipawns(learned.get(term, {}).get(p.name, 0))
                       for p in self.v.pieces] for term in terms}
        return rows if any(any(row) for row in rows.values()) else None

    def passed(self):
        """The learned passed-piece bonuses (evalparams: per type that promotes, one a
        rank), a row per type (0s for the others), or None where there are none."""
        learned = (self.params or {}).get("passed", {})    # (promoting types only:
        rows = [[int(round(max(-2000, min(2000, bonus))))   # evalparams.check_pieces)
                 for bonus in learned.get(p.name, [0] * self.v.ranks)]
                for p in self.v.pieces]
        return rows if any(any(row) for row in rows) else None

    def passed_king(self, royal_type):
        """The learned bonuses for a royal piece's distance to a passed piece
        (evalparams PASSED_KING: per term, per type that promotes, one a rank), a row
        per type (0s for the others) for each term, or None where there are none or
        no royal piece to measure from.  The terms come in PASSED_KING's order, which
        is the engine's: the template numbers them as they come."""
        from .evalparams import PASSED_KING
        learned = (self.params or {}).get("passed_king", {})
        rows = {term: [[int(round(max(-500, min(500, bonus))))
                        for bonus in learned.get(term, {}).get(p.name, [0] * self.v.ranks)]
                       for p in self.v.pieces]
                for term in PASSED_KING}
        if royal_type < 0 or not any(any(row) for table in rows.values() for row in table):
            return None
        return rows

    def phase(self, values):
        """How far the game is from its end, for the blend of `endgame` tables: each
        piece of a type worth more than the cheapest (not royal) adds its value, on
        the board or in hand (a captured piece that returns by a drop is still in
        play).  Returns (weight per type, the setup's phase): the blend is all
        middlegame at the setup's phase or above, all endgame at 0."""
        from .positions import parse_fen, token_table
        worth = [v for v, model in zip(values, self.v.pieces) if not model.royal and v > 0]
        cheapest = min(worth, default=0)
        weights = [v if not model.royal and v > cheapest else 0
                   for v, model in zip(values, self.v.pieces)]
        setup = parse_fen(self.v.setup, self.v.files, self.v.ranks, token_table(self.v))
        total = sum(weights[t] for t, _colour in list(setup.board.values()) + setup.holdings)
        return weights, total

    def endgame(self, values, pst):
        """The learned board values and square tables of a game's end (evalparams
        "endgame"), the middlegame's where it gives none; None where the parameter set
        has no endgame section.  A `value` line in the definition holds for both."""
        learned = (self.params or {}).get("endgame")
        if not learned:
            return None
        from .evalparams import black_square
        values_eg, pst_eg = list(values), [list(row) for row in pst]
        for i, model in enumerate(self.v.pieces):
            if model.name in learned.get("values", {}) and not model.royal \
                    and model.value is None:
                values_eg[i] = int(round(learned["values"][model.name]))
            rows = learned.get("pst", {}).get(model.name)
            for f in range(self.files) if rows else ():
                for r in range(self.ranks):
                    bonus = int(round(max(-2000, min(2000, rows[r][f]))))
                    pst_eg[piece_code(i, WHITE)][self.index(f, r)] = bonus
                    bf, br = black_square(self.params["symmetry"], (f, r), self.files,
                                          self.ranks)
                    pst_eg[piece_code(i, BLACK)][self.index(bf, br)] = bonus
        return values_eg, pst_eg

    def _average_mobility(self, model, walk, squares):
        confine = (self.side_squares(model.confined_to, WHITE)
                   if model.confined_to is not None else None)
        home = squares if confine is None else [s for s in squares if s in confine]
        mobility = [walk.mobility(self.coordinates(s)) for s in home]
        return max(sum(mobility) / max(len(mobility), 1), 0.5)

    def _square_bonus(self, model, walk, colour, sq, average):
        bonus = 4 * (walk.mobility(self.coordinates(sq)) - average)
        if model.promotion is not None:
            zone = self.side_squares(model.promotion.zone, colour)
            if zone:
                distance = min(abs(self._rank(sq) - self._rank(z)) for z in zone)
                bonus += max(0, 30 - 8 * distance)
        if model.royal:
            bonus = -bonus      # a royal piece is safer where it is less exposed
        return int(round(max(-60, min(60, bonus))))

    def _apply_params(self, values, hand_values, pst):
        """Put a learned parameter set's numbers in place of the derived ones.  Square
        tables are White's, rank 1 first; Black's follow the game's symmetry."""
        from .evalparams import black_square
        p = self.params
        for i, model in enumerate(self.v.pieces):
            if model.name in p["values"] and not model.royal:
                values[i] = int(round(p["values"][model.name]))
            if model.name in p["hand_values"]:
                hand_values[i] = int(round(p["hand_values"][model.name]))
            rows = p["pst"].get(model.name)
            if rows is None:
                continue
            for f in range(self.files):
                for r in range(self.ranks):
                    bonus = int(round(max(-2000, min(2000, rows[r][f]))))
                    pst[piece_code(i, WHITE)][self.index(f, r)] = bonus
                    bf, br = black_square(p["symmetry"], (f, r), self.files, self.ranks)
                    pst[piece_code(i, BLACK)][self.index(bf, br)] = bonus

    def _rank(self, index):
        return index // self.stride - self.pad

    # -- castling -----------------------------------------------------------------------
    def _castling(self):
        out = []
        for bit, c in enumerate(self.v.castling):
            colour = SIDE_NAMES.index(c.side)
            kf, kt = self.square_index(c.king_from), self.square_index(c.king_to)
            rf, rt = self.square_index(c.rook_from), self.square_index(c.rook_to)
            lo, hi = min(kf, kt, rf, rt), max(kf, kt, rf, rt)
            must_be_empty = [s for s in range(lo, hi + 1) if s not in (kf, rf)]
            step = 1 if kt >= kf else -1
            king_path = list(range(kf, kt + step, step))
            letter = "K" if rf > kf else "Q"
            rook_type = self._setup_type_at(c.rook_from, colour)
            king_type = self.type_index[c.piece] if c.piece else self._royal()
            if rook_type is None and self.v.castling_dropped_rook:     # placement chess
                rook_type = self.type_index[self.v.castling_dropped_rook]
            out.append({"bit": bit, "mask": 1 << bit, "colour": colour, "king_from": kf, "king_to": kt,
                        "king_code": piece_code(king_type, colour),
                        # Only a royal king may not castle out of, through or into check.
                        "king_royal": king_type == self._royal(),
                        "rook_code": piece_code(rook_type, colour) if rook_type is not None else -1,
                        "rook_from": rf, "rook_to": rt, "empty": must_be_empty,
                        "king_path": king_path,
                        "fen": letter if colour == WHITE else letter.lower()})
        return out

    def _royal(self):
        return next((i for i, p in enumerate(self.v.pieces) if p.royal), -1)

    def token_table(self):
        """FEN token -> (type index, colour)."""
        return {tok: (i, colour) for i, p in enumerate(self.v.pieces)
                for colour, tok in enumerate(p.tokens) if tok is not None}

    def _setup_type_at(self, square, colour):
        """Type of the piece of `colour` standing on `square` in the setup, or None."""
        setup = parse_fen(self.v.setup, self.files, self.ranks, self.token_table())
        found = setup.board.get(parse_square(square, self.files, self.ranks))
        if found and found[1] == colour:
            return found[0]
        return None

    def _ep_victim_delta(self):
        """Per colour: the offsets from an en passant square to the square of the piece
        that passed it, one per direction of a double step (a Berolina pawn has two)."""
        deltas = [[], []]
        for p in self.v.pieces:
            if p.name not in self.v.en_passant:
                continue
            for a in p.moves:
                for c in (WHITE, BLACK):
                    delta = self.offset(a.dx, a.dy, c) // 2
                    if a.moves and a.lame_path and delta not in deltas[c]:
                        deltas[c].append(delta)
        return deltas if deltas[WHITE] else None

    def max_moves(self):
        """The length of the engine's move lists (the resolver refused games whose bound
        passes encoding.MAX_MOVES)."""
        return geometry.move_list_bound(self.files, self.ranks, self.v.pieces,
                                        len(self.v.drops), len(self.v.castling),
                                        len(self.v.gate_pieces),
                                        walls=self.v.walling is not None) + move_bound(self.v)

    # -- captures and drops ------------------------------------------------------------
    def _capture_to_hand(self):
        becomes = dict(self.v.captures.becomes)
        table = []
        for colour, to_hand in ((WHITE, self.v.captures.to_hand_white),
                                (BLACK, self.v.captures.to_hand_black)):
            row = []
            for p in self.v.pieces:
                if not to_hand or p.royal:
                    row.append(-1)
                    continue
                if p.name in becomes:
                    target = becomes[p.name]
                else:
                    target = p.demotes_to or p.name
                row.append(self.type_index[target] if target is not None else -1)
            table.append(row)
        return table

    def _drop_squares(self, rule, piece):
        """Where `piece` (a lowered piece) may be dropped under `rule`, per colour."""
        per_colour = []
        for colour in (WHITE, BLACK):
            zone = self.side_squares(rule.zone, colour)
            if not self.v.dead_drops_allowed:
                zone -= piece["colours"][colour]["dead"]
            confine = piece["colours"][colour]["confine_reg"]
            if confine is not None:
                zone = {s for s in zone if self.regions[confine][1][s]}
            per_colour.append(sorted(zone))
        return per_colour

    def _drops(self, pieces):
        out = []
        for rule in self.v.drops:
            t = self.type_index[rule.piece]
            # `either side up`: also dropped as its promoted side (a move selecting that
            # type, with the hand's type in the from field: runtime/encoding.py)
            as_type = self.type_index[rule.also_as] if rule.also_as else -1
            out.append({"type": t, "code_white": piece_code(t, WHITE),
                        "squares": self._drop_squares(rule, pieces[t]),
                        "as_type": as_type,
                        "as_squares": (self._drop_squares(rule, pieces[as_type])
                                       if as_type >= 0 else [[], []]),
                        "not_doubled": rule.not_doubled,
                        "file_limit": rule.file_limit,
                        "not_mating": rule.not_mating})
        return out

    # -- everything -----------------------------------------------------------------------
    def lower(self):
        v = self.v
        pieces = [self._lower_piece(p) for p in v.pieces]
        castling = self._castling()
        squares = self.all_squares()
        names = {self.index(f, r): f"{chr(97 + f)}{r + 1}"
                 for r in range(self.ranks) for f in range(self.files)}
        royal = next((i for i, p in enumerate(v.pieces) if p.royal), -1)
        tables = Tables(
            name=v.name, files=self.files, ranks=self.ranks, pad=self.pad,
            stride=self.stride, nsq=self.nsq, ntypes=len(v.pieces),
            board_squares=squares, square_names=names, pieces=pieces,
            castling=castling, royal_type=royal,
            capture_to_hand=self._capture_to_hand(),
            has_drops=bool(v.drops), has_ep=bool(v.en_passant),
            ep_always_marked=v.ep_always_marked,       # compiler/rules/ep_marking.py
            # Which pieces' moves restart the move-rule clock: compiler/rules/move_rule.py.
            resets_clock=[rules.move_rule.restarts_clock(v, p) for p in v.pieces],
        )
        tables.drops = self._drops(pieces)
        if v.en_passant_zone is not None:
            # Region rows of the squares each side's pieces pass over that may be taken.
            tables.ep_zone = [self.region_id(self.side_squares(v.en_passant_zone, c),
                                             f"en passant zone of {SIDE_NAMES[c]}")
                              for c in (WHITE, BLACK)]
        if v.deployment is not None:
            tables.deploy = {"last": self.type_index[v.deployment.last]
                             if v.deployment.last else -1}
        tables.captures_fill_hands = any(h >= 0 for row in tables.capture_to_hand for h in row)
        tables.rules = {rules.name_of(kind): kind.lower(v, self) for kind in rules.REGISTRY
                        if hasattr(kind, "lower")}
        tables.values, tables.hand_values, tables.pst = self._evaluation(pieces)
        tables.king_safety = self.king_safety(royal)
        tables.king_attackers = self.king_attackers(royal)
        tables.mobility = self.mobility()
        tables.mobility_by_count = self.mobility_by_count()
        tables.mobility_safe = self.mobility("mobility_safe")
        tables.passed = self.passed()
        tables.passed_king = self.passed_king(royal)
        tables.threats = self.threats(tables.values)
        tables.drop_checks = self.drop_checks(royal)
        tables.drop_check_repeats = self.drop_check_repeats()
        tables.board_checks = self.board_checks(royal)
        tables.structure = self.structure()
        tables.search_settings = dict(sorted((self.params or {}).get("search_settings",
                                                                     {}).items()))
        tables.phase_weights, tables.phase_max = self.phase(tables.values)
        if tables.phase_max > 0:
            tables.endgame = self.endgame(tables.values, tables.pst)
        tables.attack_entries = [self._attack_entries(pieces, c) for c in (WHITE, BLACK)]
        tables.drop_check_entries = self._drop_check_entries(tables.attack_entries)
        tables.check_entries = self._check_entries(tables.attack_entries, royal)
        tables.guard_entries = _entries_of(tables.attack_entries,
                                           self.cheapest_types(tables.values))
        tables.regions = self.regions
        tables.meta = self._meta(tables)
        return tables

    def _promotion_limits(self, promo, colour):
        """`only to captured pieces`: per choice, how many of it the side has in the
        setup (a promotion to it needs fewer on the board); [] without the option."""
        if not promo.captured_only:
            return []
        board = parse_fen(self.v.setup, self.files, self.ranks, self.token_table()).board
        return [sum(1 for owner in board.values() if owner == (self.type_index[choice], colour))
                for choice in promo.choices]

    def _promotion_suffixes(self, piece):
        """How a move promoting to `piece` ends, per side: `+` for a `+` piece, `-` for
        the piece a `+` piece turns back into (flip: `a1a2-`, as Fairy-Stockfish writes
        a demotion), else its lowercase letter."""
        if piece.letter.startswith("+"):
            return ["+", "+"]
        if any(p.letter.startswith("+") and p.promotion and piece.name in p.promotion.choices
               for p in self.v.pieces):
            return ["-", "-"]
        return [(tok or piece.letter).rstrip("~").lower() for tok in piece.tokens]

    def _meta(self, t):
        """What the runtime needs to talk to users: names, letters, notation, rules."""
        v = self.v
        setup = parse_fen(v.setup, v.files, v.ranks, self.token_table())
        return {
            "name": v.name, "title": v.title, "files": v.files, "ranks": v.ranks,
            "nsq": t.nsq, "squares": t.board_squares,
            "pieces": [{"name": p.name, "letter": p.letter, "royal": p.royal,
                        "tokens": list(p.tokens),
                        "promotes": p.promotion is not None,
                        "promotion_suffix": self._promotion_suffixes(p)} for p in v.pieces],
            "deployment": t.deploy is not None,
            "deploy_last": t.deploy["last"] if t.deploy else -1,
            "side_names": list(v.side_names),
            "confined": [[sorted(self.side_squares(p.confined_to, c)) if p.confined_to else None
                          for c in (WHITE, BLACK)] for p in v.pieces],
            "drop_zones": {d["type"]: d["squares"] for d in t.drops},
            # `either side up`: hand type -> the type it may also be dropped as
            "drop_as": {d["type"]: d["as_type"] for d in t.drops if d["as_type"] >= 0},
            "restrictions": t.rules["restrictions"]["restrictions"],
            "setup": v.setup,
            "setup_has_holdings": setup.has_holdings,
            "has_drops": bool(v.drops),
            "castling": [{"fen": c["fen"], "bit": c["bit"], "colour": c["colour"],
                          "king_from": c["king_from"], "rook_from": c["rook_from"]}
                         for c in t.castling],
            "has_ep": bool(v.en_passant),
            "chess960_castling": v.chess960_castling,      # compiler/rules/chess960.py
            "gating": t.rules["gating"],                   # compiler/rules/gating.py
            "ep_always_marked": v.ep_always_marked,
            "stalemate": v.stalemate,
            "repetition_count": v.repetition_count,
            "repetition_result": v.repetition_result,
            "repetition_side": v.repetition_side,
            "perpetual_check": v.perpetual_check,
            "perpetual_check_one_piece": v.perpetual_check_one_piece,
            "perpetual_chase": v.perpetual_chase,
            "move_rule": v.move_rule,
            "check_count": v.check_count,
            "counting": v.counting,
            "royal_type": t.royal_type,
            "ep_victim_delta": self._ep_victim_delta(),
            "max_hand": MAX_HAND - 1,
            "dead": [[sorted(c["dead"]) for c in p["colours"]] for p in t.pieces],
        }


def lower(variant, params=None):
    return Lowerer(variant, params).lower()


def _centipawns(number):
    """A learned number as the engine holds it: whole centipawns within +-2000."""
    return int(round(max(-2000, min(2000, number))))


def _entries_of(attack_entries, types):
    """Each colour's attack entries with only the codes of `types` (an entry left
    with none dropped)."""
    return [[{**entry, "codes": codes} for entry in entries
             for codes in [[c for c in entry["codes"] if c // 2 - 1 in types]] if codes]
            for entries in attack_entries]


def may_repeat_moves(atoms):
    """Could two of a piece's atoms generate the same move?  resolve.merge_atoms removes
    the overlaps where one atom covers the other; what is left are partial ones, such
    as a leap on a rider's line (`fRD`: the D leap and the rook's second step when the
    square between is empty) or riders of different ranges under different conditions
    (`fmWifmR2`: the first step, twice on the initial squares).  For such a piece the
    generator drops repeated moves.  Conditions (initial, regions) are ignored, so the
    answer may be yes where no repeat can happen: that costs time, not correctness."""
    lines = []
    for a in atoms:
        if a.kind in ("hop", "grasshop"):
            # A hopper lands somewhere past the first piece on its line.
            lines.append((_unit(a), "beyond", set(), a.moves, a.captures))
            continue
        step = gcd(abs(a.dx), abs(a.dy))
        reach = ({step} if a.kind == "leap"
                 else {step * k for k in range(1, (a.max_steps or max(MAX_FILES, MAX_RANKS)) + 1)})
        lines.append((_unit(a), a.kind, reach, a.moves, a.captures))
    for i, (unit, kind, reach, moves, captures) in enumerate(lines):
        for other_unit, other_kind, other_reach, other_moves, other_captures in lines[i + 1:]:
            if unit != other_unit or not ((moves and other_moves) or (captures and other_captures)):
                continue
            if "beyond" in (kind, other_kind):
                # Rider and hopper never meet (the rider stops at the first piece, the
                # hopper lands past it); a leap or another hopper may.
                if "ride" not in (kind, other_kind):
                    return True
                continue
            if reach & other_reach:
                return True
    return False


def _unit(atom):
    step = gcd(abs(atom.dx), abs(atom.dy))
    return (atom.dx // step, atom.dy // step)

