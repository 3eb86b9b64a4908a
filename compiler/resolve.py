"""Phase 2, resolve: parsed statements -> the rule model.

Gets the statements of the definition and its ancestors from the loader (parents
first, so the child's override them), checks every name, turns Betza strings into move
atoms and region expressions into square sets for both sides, and makes every default
explicit.  The board, the pieces, the setup and how pieces are captured and dropped
are resolved here; each rule kind resolves its own statements (compiler/rules/, its
`resolve`).  Each problem is reported at the line and column that caused it; all of
them are collected before giving up.
"""

import os

from fairyforge import encoding
from fairyforge.errors import FenError
from fairyforge.fen import parse_fen, parse_square, square_name
from fairyforge.move import drop_letter

from . import geometry, loader, nodes, positions, rules
from .atoms import merge_atoms, with_changes
from .betza import BetzaError, parse_betza
from .diagnostics import DiagnosticBag, Location
from .loader import bundled_names, bundled_path, load_variant, locate  # noqa: F401 (entry points)
from .loader import did_you_mean
from .model import Captures, Castling, Deployment, DropRule, PieceType, SquareSet, Variant
from .promotion import PromotionResolver
from .regions import SIDES, RegionResolver, small_int

MAX_FILES, MAX_RANKS = encoding.MAX_FILES, encoding.MAX_RANKS
MAX_HAND = encoding.MAX_HAND

# The core statements by the name the resolver files them under: the settings given
# once (the last one counts) and the ones that accumulate.
SETTINGS = {nodes.VariantHeader: "variant", nodes.Board: "board",
            nodes.Symmetry: "symmetry", nodes.Setup: "setup", nodes.EnPassant: "en_passant",
            nodes.CapturedRevert: "captured_revert", nodes.Deploy: "deploy",
            nodes.Sides: "sides", nodes.StuckAllowed: "stuck"}
LISTS = {nodes.Region: "region", nodes.Promote: "promote", nodes.Demote: "demote",
         nodes.Flip: "flip",
         nodes.Captured: "captured", nodes.CapturesFate: "captures", nodes.Drop: "drop",
         nodes.CastlingMove: "castling", nodes.ExtraMove: "move", nodes.Initial: "initial",
         nodes.Confine: "confine", nodes.Value: "value"}


class Resolver(RegionResolver, PromotionResolver):
    """Resolves one definition (with its ancestors) into a Variant."""

    def __init__(self, bag):
        self.bag = bag
        self.files = 8
        self.ranks = 8
        self.symmetry = "mirror"
        self.regions = {}           # (name, side) -> frozenset of (file, rank)
        self.region_names = set()
        self.pieces = {}            # name -> dict of the piece's parts
        self.piece_order = []
        self.statements = {}        # SETTINGS name -> the last such statement
        self.lists = {name: [] for name in LISTS.values()}
        self.rule_nodes = {kind: [] for kind in rules.REGISTRY}
        self.drops_taken_back = False   # `no drops`
        self.small_int = small_int  # (for the rule kinds)

    def resolve(self, definition):
        statements, header = loader.collect(definition, self.bag)
        if header is None:
            return None
        self.header, self.root = header, definition.path
        for st in statements:
            self._file(st)
        return self._build()

    def _file(self, st):
        """Put one statement where its resolution will find it."""
        kind = rules.owner(st)
        if isinstance(st, nodes.TakeBack):
            self._take_back(st.what)
        elif kind is not None:
            self.rule_nodes[kind].append(st)
        elif type(st) in SETTINGS:
            self.statements[SETTINGS[type(st)]] = st
            if isinstance(st, nodes.Board):
                self._board(st)
            elif isinstance(st, nodes.Symmetry):
                self.symmetry = str(st.mode)
        elif isinstance(st, nodes.Piece):
            self._piece(st)
        else:
            self.lists[LISTS[type(st)]].append(st)   # regions: once board and symmetry are final

    def _take_back(self, what):
        """`no castling | en passant | drops`: forget what the parents said of it."""
        if what == "castling":
            self.lists["castling"].clear()
        elif what == "en passant":
            self.statements.pop("en_passant", None)
        else:
            self.lists["drop"].clear()
            self.drops_taken_back = True

    # -- errors -------------------------------------------------------------------------
    def error(self, statement, token, message):
        """Report at the statement's part; a problem with an inherited statement is
        reported at the child's `extends`, which is what the user can change."""
        loc = statement.loc_of(token)
        if loc.file != self.root and self.header.extends is not None:
            parent = os.path.basename(loc.file).removesuffix(".variant")
            message += f" (inherited from {parent}, line {loc.line}: `{statement.text}`)"
            loc = self.header.loc_of(self.header.extends)
        self.bag.error(loc, message)

    # -- statements ---------------------------------------------------------------------
    def _board(self, st):
        token = st.size
        files, ranks = (small_int(x) for x in str(token).split("x"))
        if not (1 <= files <= MAX_FILES and 1 <= ranks <= MAX_RANKS):
            self.error(st, token, f"board {token} is not supported: files and ranks must be "
                       f"between 1 and {MAX_FILES}")
            return
        self.files, self.ranks = files, ranks

    def _region(self, st):
        name = str(st.name)
        if parse_square(name, 26, 99) is not None:
            self.error(st, st.name, f"region name '{name}' looks like a square")
            return
        sides = [str(st.side)] if st.side else list(SIDES)
        for side in sides:
            self.regions[(name, side)] = frozenset(
                self.region(st, st.expr, side, literal=bool(st.side)))
        self.region_names.add(name)

    def _piece(self, st):
        name, letter = str(st.name), str(st.letter)
        if parse_square(name, 26, 99) is not None:
            self.error(st, st.name, f"piece name '{name}' looks like a square")
            return
        if name in self.pieces and self.pieces[name]["statement"].loc.file == st.loc.file:
            first = self.pieces[name]["statement"].loc
            self.error(st, st.name, f"piece '{name}' is already defined on line {first.line}")
            return
        if name in self.pieces:          # a child variant redefines an inherited piece
            self.piece_order.remove(name)
        tokens = piece_tokens(letter)
        for other, info in self.pieces.items():
            clash = [t for t in tokens if t is not None and t in info["tokens"]]
            if clash and other != name:
                self.error(st, st.letter, f"letter {clash[0]} is already used by piece "
                           f"'{other}' (line {info['statement'].loc.line})")
                return
        try:
            atoms = parse_betza(str(st.betza))
        except BetzaError as err:
            self._betza_error(st, st.betza, err)
            atoms = ()
        self.pieces[name] = {"statement": st, "letter": letter, "tokens": tokens,
                             "betza": str(st.betza),
                             "royal": st.royal, "atoms": list(atoms)}
        self.piece_order.append(name)

    def _betza_error(self, st, token, err):
        loc = st.loc_of(token)
        self.bag.error(Location(loc.file, loc.line, loc.column + err.offset, loc.source_line),
                       str(err))

    def piece_name(self, st, token):
        name = str(token)
        if name not in self.pieces:
            self.error(st, token, f"unknown piece '{name}'" + did_you_mean(name, self.pieces))
            return None
        return name

    # -- assembling the model ---------------------------------------------------------
    def _build(self):
        # Regions are evaluated here, in order, on the final board (a child variant may
        # change the board or the symmetry after its parent's regions were written).
        latest = {id(st) for st in self._latest_regions()}
        for st in self.lists["region"]:
            if id(st) in latest:
                self._region(st)
            else:
                self._replaced_region(st)
        self._extra_moves()
        for info in self.pieces.values():
            info["atoms"] = merge_atoms(info["atoms"])
        setup = self._setup()
        pieces = self._piece_types(setup)
        self._check_royals(pieces)
        captures = self._captures()
        drops = self._drops(captures, setup)
        self._check_drop_letters(drops)
        castling = self._castling(setup)
        en_passant = self._en_passant()
        en_passant_zone = self._en_passant_zone()
        deployment = self._deployment(setup)
        self._check_hand_owners(pieces, captures)
        rule_fields = self._rule_fields()
        self._check_encoding_limits(pieces, castling, drops, rule_fields)
        if setup is None:
            return None
        variant = Variant(
            **self._header_fields(),
            files=self.files, ranks=self.ranks, symmetry=self.symmetry,
            pieces=tuple(pieces), setup=setup[0] if setup else "",
            captures=captures, drops=drops,
            dead_drops_allowed="stuck" in self.statements, castling=castling, en_passant=en_passant,
            deployment=deployment, side_names=self._side_names(),
            en_passant_zone=en_passant_zone, **rule_fields)
        self._check_setup(variant)     # (also after other errors: report them all)
        return None if self.bag else variant

    def _check_setup(self, variant):
        """The setup must be a position the game allows: the runtime's own check of
        every FEN (compiler/positions.py), so `check` and the engine agree."""
        st = self.statements["setup"]
        parsed = parse_fen(variant.setup, self.files, self.ranks, positions.token_table(variant))
        for field, message in positions.rules_for(variant).problems(parsed):
            self.error(st, st.fen, f"setup does not fit the game: {message} ({field})")

    def _latest_regions(self):
        """The region statements no later one redefines."""
        latest = {}
        for st in self.lists["region"]:
            latest[(str(st.name), str(st.side) if st.side else None)] = st
        return list(latest.values())

    def _replaced_region(self, st):
        """A region a later statement redefines (a child's `region last_rank = rank 6`
        replaces its parent's, which the child's board may not have room for): still
        evaluated, for the regions defined from it in between, but its errors are moot."""
        bag, self.bag = self.bag, DiagnosticBag()
        try:
            self._region(st)
        finally:
            self.bag = bag

    def _extra_moves(self):
        """`move PIECE BETZA in REGION`: moves added to a piece, in a region only;
        `along REGION`: moves that also pass and end only on the region's squares."""
        for st in self.lists["move"]:
            name = self.piece_name(st, st.piece)
            if name is None:
                continue
            try:
                atoms = parse_betza(str(st.betza))
            except BetzaError as err:
                self._betza_error(st, st.betza, err)
                continue
            where = self.as_set(st, st.region)
            along = str(st.scope) == "along"
            self.pieces[name]["atoms"] += [with_changes(a, only_in=where, along=along)
                                           for a in atoms]
            self.pieces[name]["betza"] += f" (+{st.betza} {st.scope} region)"

    def _values(self):
        values = {}
        for st in self.lists["value"]:
            name = self.piece_name(st, st.piece)
            value = float(st.value)
            if not -1000 <= value <= 1000:
                # The engine keeps values in C ints (centipawns); an absurd value would
                # overflow them.
                self.error(st, st.value, f"value {st.value} is out of range: "
                           "a piece's value is given in pawns, between -1000 and 1000")
            elif name:
                values[name] = value
        return values

    def _piece_types(self, setup):
        """The PieceTypes: each piece with its moves, initial squares, confinement,
        promotion, demotion and value; the twins of reverting promotions last."""
        initial = self._initial_squares(setup)
        confined = self._per_piece_region("confine")
        promotions = self._promotions()
        demotions = self._demotions(promotions)
        values = self._values()
        derived = self._reverting_types(promotions, demotions)
        for twin in derived:        # a twin moves, is confined and is valued as its original
            if twin["twin_of"] in confined:
                confined[twin["name"]] = confined[twin["twin_of"]]
            if twin["twin_of"] in values:
                values[twin["name"]] = values[twin["twin_of"]]
        pieces = []
        for name in self.piece_order + [d["name"] for d in derived]:
            info = self.pieces[name]
            has_initial = any(a.initial for a in info["atoms"])
            if has_initial and name not in initial:
                self.error(info["statement"], info["statement"].betza,
                           f"piece '{name}' has initial (i) moves but does not appear in the "
                           f"setup: say where with `initial {name} in REGION`")
            pieces.append(PieceType(
                name=name, letter=info["letter"], tokens=info["tokens"], betza=info["betza"],
                royal=info["royal"], moves=tuple(info["atoms"]),
                initial_squares=(initial.get(name, SquareSet((), ())) if has_initial
                                 else SquareSet((), ())),
                confined_to=confined.get(name), promotion=promotions.get(name),
                demotes_to=demotions.get(name), value=values.get(name)))
        return pieces

    def _check_royals(self, pieces):
        royals = [p for p in pieces if p.royal]
        if len(royals) > 1:
            st = self.pieces[royals[1].name]["statement"]
            self.error(st, st.name, "only one royal piece type is supported "
                       f"('{royals[0].name}' is royal already)")
        if not royals and self.pieces:
            self.error(self.header, self.header.name,
                       "no royal piece: mark the piece whose capture ends the game, "
                       "as in `piece king K K royal`")

    def _en_passant(self):
        st = self.statements.get("en_passant")
        if st is None:
            return ()
        names = tuple(n for n in (self.piece_name(st, t) for t in st.pieces) if n)
        for name, token in zip(names, st.pieces):
            # The engine captures in passing the piece that made a quiet lame leap
            # (ifmnD); a piece without one could never be taken en passant.
            if not any(a.moves and a.lame_path for a in self.pieces[name]["atoms"]):
                self.error(st, token, f"en passant {name}: a {name} has no multi-step move "
                           "to be captured in passing (write the double step as a lame "
                           "leap, as in ifmnD)")
        return names

    def _en_passant_zone(self):
        """`en passant … in REGION`: the squares passed over that may be taken in
        passing (Fairy-Stockfish's enPassantRegion, written for the side that passes)."""
        st = self.statements.get("en_passant")
        if st is None or st.zone is None:
            return None
        return self.as_set(st, st.zone)

    def _header_fields(self):
        title, parent = self.header.title, self.header.extends
        return {"name": str(self.header.name),
                "title": str(title).strip('"') if title else str(self.header.name),
                "parent": str(parent).strip('"') if parent else None}

    def _side_names(self):
        sides = self.statements.get("sides")
        if sides is None:
            return ("White", "Black")
        return (str(sides.white).strip('"'), str(sides.black).strip('"'))

    def _rule_fields(self):
        """Each rule kind resolves its statements (all of them, parents first) into
        the model fields it owns."""
        values = {}
        for kind in rules.REGISTRY:
            if hasattr(kind, "resolve"):
                values.update(kind.resolve(self.rule_nodes[kind], self))
        return values

    def _check_encoding_limits(self, pieces, castling, drops, rule_fields):
        """What the engine's bit layouts and move lists cannot hold is refused here,
        by name."""
        reach = max([1] + [max(abs(a.dx), abs(a.dy)) for p in pieces for a in p.moves])
        cells = encoding.board_cells(self.files, self.ranks, reach)
        moves = geometry.move_list_bound(self.files, self.ranks, pieces, len(drops or ()),
                                         len(castling or ()),
                                         len(rule_fields.get("gate_pieces", ())),
                                         walls=rule_fields.get("walling") is not None)
        for problem in encoding.limit_problems(len(pieces), cells, len(castling), moves):
            self.error(self.header, self.header.name, problem)

    def _check_hand_owners(self, pieces, captures):
        """A captured piece may only enter a hand whose side has a letter for it."""
        becomes = dict(captures.becomes)
        by_name = {p.name: p for p in pieces}
        for side, to_hand in (("white", captures.to_hand_white), ("black", captures.to_hand_black)):
            if not to_hand:
                continue
            index = SIDES.index(side)
            for piece in pieces:
                if piece.royal or piece.tokens[1 - index] is None:
                    continue            # the side never captures it: the other side never owns it
                target = becomes.get(piece.name, piece.demotes_to or piece.name)
                if target is not None and by_name[target].tokens[index] is None:
                    st = next((s for s in reversed(self.lists["captures"])
                               if s.side in (None, side) and s.fate == "hand"),
                              self.header)
                    self.error(st, None, f"a captured {piece.name} would go to {side.title()}'s "
                               f"hand as a {target}, but {side.title()} has no letter for a "
                               f"{target} (its letter is written {by_name[target].letter})")

    def _deployment(self, setup):
        st = self.statements.get("deploy")
        if st is None:
            return None
        last = self.piece_name(st, st.last) if st.last else None
        royal = next((n for n, i in self.pieces.items() if i["royal"]), None)
        if setup and royal and not any(name == royal for name, _ in setup[1].holdings):
            self.error(st, None, f"a deployment phase lasts while the royal piece '{royal}' is "
                       "in hand, but the setup does not hold it in hand")
        if setup and last and not any(name == last for name, _ in setup[1].holdings):
            self.error(st, st.last, f"the deployment order names '{last}', which is not "
                       "in hand in the setup")
        return Deployment(last=last)

    def _setup(self):
        st = self.statements.get("setup")
        if st is None:
            self.error(self.header, self.header.name,
                       "no setup: give the start position with `setup \"FEN\"`")
            return None
        fen = str(st.fen).strip('"')
        try:
            parsed = parse_fen(fen, self.files, self.ranks, self.token_table())
        except FenError as err:
            self.error(st, st.fen, f"setup does not fit the game: {err}")
            return None
        return fen, parsed

    def token_table(self):
        """FEN token -> (piece name, side) for every piece declared so far."""
        table = {}
        for name, info in self.pieces.items():
            for side, token in zip(SIDES, info["tokens"]):
                if token is not None:
                    table[token] = (name, side)
        return table

    def _initial_squares(self, setup):
        """Where each piece's Betza `i` moves apply: the ranks it starts on, per side."""
        out = {}
        if setup:
            ranks = {}
            for (f, r), (name, side) in setup[1].board.items():
                ranks.setdefault(name, {"white": set(), "black": set()})[side].add(r)
            for name, by_side in ranks.items():
                squares = {}
                for side in SIDES:
                    rs = by_side[side]
                    if not rs:    # absent for this side: mirror the other side's ranks
                        other = by_side["white" if side == "black" else "black"]
                        rs = {self.mirror((0, r))[1] for r in other}
                    squares[side] = {(f, r) for f in range(self.files) for r in rs}
                out[name] = SquareSet(self.names(squares["white"]), self.names(squares["black"]))
        out.update(self._per_piece_region("initial"))
        return out

    def _per_piece_region(self, kind):
        """`initial`/`confine PIECES in|to REGION`: piece name -> its squares (the last
        statement for a piece counts)."""
        out = {}
        for st in self.lists[kind]:
            where = self.as_set(st, st.region)
            for token in st.pieces:
                name = self.piece_name(st, token)
                if name:
                    out[name] = where
        return out

    def _captures(self):
        to_hand = {"white": False, "black": False}
        for st in self.lists["captures"]:
            for side in ([str(st.side)] if st.side else SIDES):
                to_hand[side] = st.fate == "hand"
        becomes = {}
        for st in self.lists["captured"]:
            name = self.piece_name(st, st.piece)
            target = st.becomes
            target = self.piece_name(st, target) if target is not None else None
            if name and (target or st.becomes is None):
                becomes[name] = target
        return Captures(to_hand_white=to_hand["white"], to_hand_black=to_hand["black"],
                        becomes=tuple(sorted(becomes.items(), key=lambda kv: kv[0])))

    def _drops(self, captures, setup):
        if self.drops_taken_back and not self.lists["drop"]:
            return ()
        # (in a game with gating, the hand the setup holds is for gating only)
        holdings = bool(setup and setup[1].holdings) and not self.rule_nodes[rules.gating]
        if not (captures.to_hand_white or captures.to_hand_black or holdings
                or self.lists["drop"]):
            return ()
        everywhere = self.names({(f, r) for f in range(self.files) for r in range(self.ranks)})
        default = {"white": everywhere, "black": everywhere}
        specific, flags = {}, {}
        for st in self.lists["drop"]:
            sides = [str(st.side)] if st.side else list(SIDES)
            zone = None
            if st.zone and st.side:     # `for black`: the board's own squares
                side = sides[0]
                literal = self.names(self.region(st, st.zone, side, literal=True))
                zone = (literal, literal)
            elif st.zone:
                zone = self.square_set(st, st.zone)
            if st.pieces == "all":
                targets = None
            else:
                targets = [n for n in (self.piece_name(st, t) for t in st.pieces) if n]
            if targets is None:         # `drop all ... not doubled` restricts every piece
                for name in self.piece_order:
                    flags.setdefault(name, set()).update(st.flags)
            for side in sides:
                index = SIDES.index(side)
                if targets is None:
                    if zone is not None:
                        default[side] = zone[index]
                    continue
                for name in targets:
                    if zone is not None:
                        specific[(name, side)] = zone[index]
                    flags.setdefault(name, set()).update(st.flags)
        found = []
        deploying = "deploy" in self.statements
        for name in self.piece_order:
            if self.pieces[name]["letter"].startswith("+"):
                continue
            if self.pieces[name]["royal"] and not (deploying or self._held(setup, name)):
                continue
            zone = SquareSet(specific.get((name, "white"), default["white"]),
                             specific.get((name, "black"), default["black"]))
            own = flags.get(name, set())
            found.append(DropRule(piece=name, zone=zone,
                                  not_doubled=bool({"not doubled", "not tripled"} & own),
                                  # `mating loses` (a child's) overrides `not mating`
                                  not_mating="not mating" in own and "mating loses" not in own,
                                  mating_loses="mating loses" in own,
                                  also_as=self._upside(name) if "either side up" in own else "",
                                  opposite_colours="on opposite colours" in own,
                                  file_limit=1 if "not doubled" in own else 2))
        return tuple(found)

    @staticmethod
    def _held(setup, name):
        """Does the setup hold `name` in the hand of a side that has none on the board?
        (A royal piece there is droppable: placement chess starts with the kings in hand.)"""
        return bool(setup) and any(piece == name and (name, side) not in setup[1].board.values()
                                   for piece, side in setup[1].holdings)

    def _upside(self, name):
        """`either side up`: the piece lettered `+LETTER` that `name` may be dropped as
        ("" if none: an error where the statement names the piece, as `drop all` means
        the pieces that have another side)."""
        letter = self.pieces[name]["letter"]
        other = next((n for n, info in self.pieces.items()
                      if info["letter"] == "+" + letter), "")
        named = [s for s in self.lists["drop"] if "either side up" in s.flags
                 and s.pieces != "all" and name in map(str, s.pieces)]
        if not other and named:
            token = next(t for t in named[-1].pieces if str(t) == name)
            self.error(named[-1], token, f"'{name}' may not be dropped either side up: no "
                       f"piece is lettered +{letter}")
        return other

    def _check_drop_letters(self, drops):
        """Move text names a dropped piece by one letter (`A@e4`, fairyforge.move's
        drop_letter): two droppable pieces with the same one could not be told apart."""
        first = {}
        for rule in drops:
            info = self.pieces[rule.piece]
            letter = drop_letter(info["tokens"]) if any(info["tokens"]) else None
            if letter in first:
                self.error(info["statement"], info["statement"].letter,
                           f"drops of '{rule.piece}' would be written {letter}@SQUARE, as "
                           f"those of '{first[letter]}' are (a drop names a piece by White's "
                           "letter, or Black's uppercased): give one of them another letter")
            elif letter:
                first[letter] = rule.piece

    def _castling(self, setup):
        out = []
        seen = {}
        royal = next((n for n, i in self.pieces.items() if i["royal"]), None)
        for st in self.lists["castling"]:
            squares = [self.square(st, getattr(st, k)) for k in
                       ("king_from", "king_to", "rook_from", "rook_to")]
            if None in squares:
                continue
            # The engine moves the king and the rook as two pieces: the same square for
            # both would lose one of them.
            if squares[0] == squares[2] or squares[1] == squares[3]:
                self.error(st, st.rook_from if squares[0] == squares[2]
                           else st.rook_to,
                           "castling: the king and the rook must start and end on "
                           "different squares")
                continue
            if squares[0] == squares[1]:    # written by the king's move: e1e1 would be a pass
                self.error(st, st.king_to, "castling: the king must move (a castling is "
                           "written as the king's move, as in e1g1)")
                continue
            sides = [str(st.side)] if st.side else list(SIDES)
            for side in sides:
                sq = squares
                if side == "black" and not st.side:
                    sq = [self.mirror(s) for s in squares]
                kf, kt, rf, rt = (square_name(*s) for s in sq)
                if sq[0][1] != sq[2][1] or sq[1][1] != sq[0][1] or sq[3][1] != sq[0][1]:
                    self.error(st, st.king_from,
                               "castling squares must all be on one rank")
                    continue
                # FEN names a castling right by the side of the king its rook is on
                # (K or Q), so a side can castle at most once towards each wing.
                wing = (side, sq[2][0] > sq[0][0])
                if wing in seen:
                    self.error(st, st.rook_from,
                               f"{side} already castles with a rook on that side of the king "
                               f"(line {seen[wing].loc.line}): FEN can name only one "
                               "castling right per wing")
                    continue
                seen[wing] = st
                # (with the royal piece in hand, castling may come with drops: placement)
                if setup and self._held(setup, royal):
                    king = royal
                else:
                    king = self._castling_king(st, setup, sq, side, royal)
                    if king is None:
                        continue
                out.append(Castling(side=side, king_from=kf, king_to=kt, rook_from=rf,
                                    rook_to=rt, piece=king))
        return tuple(out)

    def _castling_king(self, st, setup, sq, side, royal):
        """The type that castles as the king: the setup's piece on the king's square
        (the royal piece in chess, giveaway's ordinary king), or None after an error."""
        if not setup:
            return royal or ""
        board = setup[1].board
        kf, rf = square_name(*sq[0]), square_name(*sq[2])
        if royal and self.pieces[royal]["tokens"][SIDES.index(side)] is None:
            royal = None        # a royal type this side does not own (antichess's -/-)
        king, owner = board.get(sq[0], (None, None))
        # A game with a royal piece castles with it; one without castles with the piece
        # that stands there.
        if owner != side or (royal and king != royal):
            self.error(st, st.king_from, f"castling can never happen: the setup has no "
                       f"{side} {royal or 'piece'} on {kf}")
            return None
        if board.get(sq[2], (None, None))[1] != side:
            self.error(st, st.rook_from, f"castling can never happen: the setup has no "
                       f"{side} piece on {rf} to castle with")
            return None
        return king

def piece_tokens(letter):
    """(White's, Black's) FEN token of a LETTER as written: `R`, `C/r`, `R/-`, `-/r`."""
    if "/" in letter:
        white, black = letter.split("/")
    else:
        white, black = letter, letter.lower()
    return (None if white == "-" else white, None if black == "-" else black)


def resolve(definition, bag=None):
    """Resolve a parsed Definition into a Variant, raising DefinitionError on problems."""
    own_bag = bag is None
    bag = bag if bag is not None else DiagnosticBag()
    variant = Resolver(bag).resolve(definition)
    if own_bag:
        bag.raise_if_any()
    return variant
