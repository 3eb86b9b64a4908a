"""Phase 2, resolve: parsed statements -> the rule model.

Follows `extends` (the parent's statements first, the child's override them), checks
every name, turns Betza strings into move atoms and region expressions into square
sets for both sides, and makes every default explicit.  Each problem is reported at
the line and column that caused it; all of them are collected before giving up.
"""

import difflib
import os
from importlib import resources

from fairyforge.errors import FenError
from fairyforge.fen import parse_fen, parse_square, square_name

from . import parse as parse_phase
from .betza import BetzaError, parse_betza
from .diagnostics import DiagnosticBag
from .model import (Captures, Castling, Deployment, DropRule, MoveAtom, PieceType,
                    Promotion, Restriction, SquareSet, Variant)

MAX_FILES = 16
MAX_RANKS = 16
SIDES = ("white", "black")
NOT_YET_GENERATED = {
    # Statements the language accepts but the code generator cannot enforce yet are
    # listed here: they are refused rather than silently ignored.
}
EVENTS = ("capture", "check", "promote")


def bundled_path(name):
    """Path of a bundled definition (`chess` -> .../definitions/chess.variant) or None."""
    if not name or "/" in name or name.endswith(".variant"):
        return None
    path = resources.files("fairyforge.definitions").joinpath(f"{name}.variant")
    return str(path) if path.is_file() else None


def bundled_names():
    folder = resources.files("fairyforge.definitions")
    return sorted(p.name[:-len(".variant")] for p in folder.iterdir()
                  if p.name.endswith(".variant"))


def locate(name_or_path, relative_to=None):
    """A definition file for a bundled name or a path (relative to a child file)."""
    if relative_to and not os.path.isabs(name_or_path):
        candidate = os.path.join(os.path.dirname(relative_to), name_or_path)
        if os.path.isfile(candidate):
            return candidate
        if os.path.isfile(candidate + ".variant"):
            return candidate + ".variant"
    if os.path.isfile(name_or_path):
        return name_or_path
    return bundled_path(name_or_path)


def small_int(token, limit=10 ** 6):
    """int(token), or limit + 1 for a number too long to matter (int() refuses numbers of
    thousands of digits with ValueError; every count in a definition is small)."""
    text = str(token).lstrip("0") or "0"
    return int(text) if len(text) <= 9 else limit + 1


def did_you_mean(word, candidates):
    close = difflib.get_close_matches(str(word), list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


class Resolver:
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
        self.statements = {}        # single-valued settings: kind -> Statement
        self.lists = {k: [] for k in ("region", "promote", "demote", "captured", "captures", "drop",
                                      "castling", "move", "initial", "confine", "value",
                                      "perpetual", "restriction")}

    # -- errors -------------------------------------------------------------------------
    def error(self, statement, token, message):
        self.bag.error(statement.loc_of(token), message)

    # -- squares and regions ----------------------------------------------------------
    def mirror(self, sq):
        f, r = sq
        if self.symmetry == "rotate":
            return (self.files - 1 - f, self.ranks - 1 - r)
        return (f, self.ranks - 1 - r)

    def square(self, st, token):
        sq = parse_square(str(token), self.files, self.ranks)
        if sq is None:
            self.error(st, token, f"square {token} is off the {self.files}x{self.ranks} board")
        return sq

    def _rank_bound(self, st, token):
        value = small_int(token)
        if not 1 <= value <= self.ranks:
            self.error(st, token, f"rank {value} is off the board (ranks 1-{self.ranks})")
            return None
        return value - 1

    def _file_bound(self, st, token):
        index = ord(str(token)) - ord("a")
        if not 0 <= index < self.files:
            last = chr(ord("a") + self.files - 1)
            self.error(st, token, f"file {token} is off the board (files a-{last})")
            return None
        return index

    def _white_atom(self, st, expr):
        """Squares of one literal region atom, written from White's side."""
        kind = expr[0]
        if kind == "ranks":
            lo, hi = self._rank_bound(st, expr[1]), self._rank_bound(st, expr[2])
            if lo is None or hi is None:
                return set()
            lo, hi = min(lo, hi), max(lo, hi)
            return {(f, r) for f in range(self.files) for r in range(lo, hi + 1)}
        if kind == "files":
            lo, hi = self._file_bound(st, expr[1]), self._file_bound(st, expr[2])
            if lo is None or hi is None:
                return set()
            lo, hi = min(lo, hi), max(lo, hi)
            return {(f, r) for f in range(lo, hi + 1) for r in range(self.ranks)}
        if kind == "rect":
            a, b = self.square(st, expr[1]), self.square(st, expr[2])
            if a is None or b is None:
                return set()
            return {(f, r) for f in range(min(a[0], b[0]), max(a[0], b[0]) + 1)
                    for r in range(min(a[1], b[1]), max(a[1], b[1]) + 1)}
        if kind == "all":
            return {(f, r) for f in range(self.files) for r in range(self.ranks)}
        raise AssertionError(kind)

    def region(self, st, expr, side, literal=False):
        """Evaluate a region expression for one side.

        Squares are written from White's side and mirrored for Black, unless `literal`
        (a statement that names its side, `for black`): then they are the board's own
        squares, as in `castling for black`.
        """
        kind = expr[0]
        if kind == "ref":
            name = str(expr[1])
            if (name, side) not in self.regions:
                self.error(st, expr[1], f"unknown region '{name}'"
                           + did_you_mean(name, self.region_names))
                return set()
            return set(self.regions[(name, side)])
        if kind == "union":
            out = set()
            for sub in expr[1]:
                out |= self.region(st, sub, side, literal)
            return out
        if kind == "inter":
            out = self.region(st, expr[1][0], side, literal)
            for sub in expr[1][1:]:
                out &= self.region(st, sub, side, literal)
            return out
        if kind == "except":
            out = self.region(st, expr[1], side, literal)
            for sub in expr[2]:
                out -= self.region(st, sub, side, literal)
            return out
        squares = self._white_atom(st, expr)
        if side == "black" and not literal:
            squares = {self.mirror(sq) for sq in squares}
        return squares

    def square_set(self, st, expr):
        return self.names(self.region(st, expr, "white")), self.names(self.region(st, expr, "black"))

    @staticmethod
    def names(squares):
        return tuple(square_name(f, r) for f, r in sorted(squares, key=lambda s: (s[1], s[0])))

    def as_set(self, st, expr):
        white, black = self.square_set(st, expr)
        return SquareSet(white, black)

    # -- loading -----------------------------------------------------------------------
    def collect(self, definition, chain=()):
        """Gather statements, parents first; child statements override."""
        statements = definition.statements
        header = next((s for s in statements if s.kind == "variant"), None)
        if header is None:
            loc = statements[0].loc if statements else None
            if loc is None:
                from .diagnostics import Location
                loc = Location(definition.path, 1, 1, "")
            if not self.bag:          # a broken `variant` line was reported already
                self.bag.error(loc, "a definition must start with `variant NAME`")
            return [], None
        parent_name = header.args["extends"]
        collected = []
        if parent_name is not None:
            parent_text = str(parent_name).strip('"')
            parent_path = locate(parent_text, definition.path)
            if parent_path is None:
                self.error(header, parent_name, f"cannot find the parent variant '{parent_text}'"
                           + did_you_mean(parent_text, bundled_names()))
            elif os.path.realpath(parent_path) in chain:
                self.error(header, parent_name,
                           f"inheritance cycle: '{parent_text}' extends this variant again")
            else:
                parent = parse_phase.parse_file(parent_path, self.bag)
                inherited, _ = self.collect(parent, chain + (os.path.realpath(parent_path),))
                collected += [s for s in inherited if s.kind != "variant"]
        collected += statements
        return collected, header

    def resolve(self, definition):
        chain = (os.path.realpath(definition.path),) if os.path.exists(definition.path) else ()
        statements, header = self.collect(definition, chain)
        if header is None:
            return None
        self.header = header
        for st in statements:
            if st.kind in NOT_YET_GENERATED:
                self.error(st, None, f"{NOT_YET_GENERATED[st.kind]} are part of the language "
                           "but the code generator does not enforce them yet")
                continue
            if st.kind in ("board", "symmetry", "setup", "stalemate", "repetition",
                           "move_rule", "en_passant", "no_facing_kings", "captured_revert",
                           "variant", "deploy", "sides"):
                self.statements[st.kind] = st
                if st.kind == "board":
                    self._board(st)
                elif st.kind == "symmetry":
                    self.symmetry = str(st.args["mode"])
            elif st.kind == "region":
                self.lists["region"].append(st)    # evaluated once board and symmetry are final
            elif st.kind == "piece":
                self._piece(st)
            elif st.kind == "perpetual":
                self.lists["perpetual"].append(st)
            else:
                self.lists[st.kind].append(st)
        return self._build()

    # -- statements ---------------------------------------------------------------------
    def _board(self, st):
        token = st.args["size"]
        files, ranks = (small_int(x) for x in str(token).split("x"))
        if not (1 <= files <= MAX_FILES and 1 <= ranks <= MAX_RANKS):
            self.error(st, token, f"board {token} is not supported: files and ranks must be "
                       f"between 1 and {MAX_FILES}")
            return
        self.files, self.ranks = files, ranks

    def _region(self, st):
        name = str(st.args["name"])
        if parse_square(name, 26, 99) is not None:
            self.error(st, st.args["name"], f"region name '{name}' looks like a square")
            return
        sides = [str(st.args["side"])] if st.args["side"] else list(SIDES)
        for side in sides:
            self.regions[(name, side)] = frozenset(
                self.region(st, st.args["expr"], side, literal=bool(st.args["side"])))
        self.region_names.add(name)

    def _piece(self, st):
        name, letter = str(st.args["name"]), str(st.args["letter"])
        if parse_square(name, 26, 99) is not None:
            self.error(st, st.args["name"], f"piece name '{name}' looks like a square")
            return
        if name in self.pieces and self.pieces[name]["statement"].loc.file == st.loc.file:
            first = self.pieces[name]["statement"].loc
            self.error(st, st.args["name"], f"piece '{name}' is already defined on line {first.line}")
            return
        if name in self.pieces:          # a child variant redefines an inherited piece
            self.piece_order.remove(name)
        tokens = piece_tokens(letter)
        for other, info in self.pieces.items():
            clash = [t for t in tokens if t is not None and t in info["tokens"]]
            if clash and other != name:
                self.error(st, st.args["letter"], f"letter {clash[0]} is already used by piece "
                           f"'{other}' (line {info['statement'].loc.line})")
                return
        try:
            atoms = parse_betza(str(st.args["betza"]))
        except BetzaError as err:
            self._betza_error(st, st.args["betza"], err)
            atoms = ()
        self.pieces[name] = {"statement": st, "letter": letter, "tokens": tokens,
                             "betza": str(st.args["betza"]),
                             "royal": st.args["royal"], "atoms": list(atoms)}
        self.piece_order.append(name)

    def _betza_error(self, st, token, err):
        loc = st.loc_of(token)
        from .diagnostics import Location
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
        for st in self.lists["region"]:
            self._region(st)
        for st in self.lists["move"]:
            name = self.piece_name(st, st.args["piece"])
            if name is None:
                continue
            try:
                atoms = parse_betza(str(st.args["betza"]))
            except BetzaError as err:
                self._betza_error(st, st.args["betza"], err)
                continue
            where = self.as_set(st, st.args["region"])
            self.pieces[name]["atoms"] += [_with(a, only_in=where) for a in atoms]
            self.pieces[name]["betza"] += f" (+{st.args['betza']} in region)"

        for info in self.pieces.values():
            info["atoms"] = merge_atoms(info["atoms"])

        setup = self._setup()
        initial = self._initial_squares(setup)
        confined = self._per_piece_region("confine")
        promotions = self._promotions()
        demotions = self._demotions(promotions)
        values = {}
        for st in self.lists["value"]:
            name = self.piece_name(st, st.args["piece"])
            value = float(st.args["value"])
            if not -1000 <= value <= 1000:
                # The engine keeps values in C ints (centipawns); an absurd value would
                # overflow them.
                self.error(st, st.args["value"], f"value {st.args['value']} is out of range: "
                           "a piece's value is given in pawns, between -1000 and 1000")
            elif name:
                values[name] = value
        derived = self._reverting_types(promotions, demotions)
        for twin in derived:        # a twin moves, is confined and is valued as its original
            if twin["twin_of"] in confined:
                confined[twin["name"]] = confined[twin["twin_of"]]
            if twin["twin_of"] in values:
                values[twin["name"]] = values[twin["twin_of"]]

        pieces = []
        for name in self.piece_order + [d["name"] for d in derived]:
            info = self.pieces[name]
            if info["atoms"] and any(a.initial for a in info["atoms"]) and name not in initial:
                self.error(info["statement"], info["statement"].args["betza"],
                           f"piece '{name}' has initial (i) moves but does not appear in the "
                           f"setup: say where with `initial {name} in REGION`")
            pieces.append(PieceType(
                name=name, letter=info["letter"], tokens=info["tokens"], betza=info["betza"],
                royal=info["royal"],
                moves=tuple(info["atoms"]),
                initial_squares=(initial.get(name, SquareSet((), ()))
                                 if any(a.initial for a in info["atoms"]) else SquareSet((), ())),
                confined_to=confined.get(name), promotion=promotions.get(name),
                demotes_to=demotions.get(name), value=values.get(name)))
        royals = [p for p in pieces if p.royal]
        if len(royals) > 1:
            st = self.pieces[royals[1].name]["statement"]
            self.error(st, st.args["name"], "only one royal piece type is supported "
                       f"('{royals[0].name}' is royal already)")
        if not royals and self.pieces:
            self.error(self.header, self.header.args["name"],
                       "no royal piece: mark the piece whose capture ends the game, "
                       "as in `piece king K K royal`")

        captures = self._captures()
        drops = self._drops(captures, setup)
        castling = self._castling(setup)
        en_passant = tuple(n for n in (self.piece_name(self.statements["en_passant"], t)
                                       for t in self.statements["en_passant"].args["pieces"])
                           if n) if "en_passant" in self.statements else ()
        for name, token in zip(en_passant, self.statements["en_passant"].args["pieces"]
                               if en_passant else ()):
            # The engine captures in passing the piece that made a quiet lame leap
            # (ifmnD); a piece without one could never be taken en passant.
            if not any(a.moves and a.lame_path for a in self.pieces[name]["atoms"]):
                self.error(self.statements["en_passant"], token,
                           f"en passant {name}: a {name} has no multi-step move to be "
                           "captured in passing (write the double step as a lame leap, "
                           "as in ifmnD)")
        stalemate = self.statements.get("stalemate")
        repetition = self.statements.get("repetition")
        move_rule = self.statements.get("move_rule")
        if repetition and not 2 <= small_int(repetition.args["count"]) <= 1000:
            self.error(repetition, repetition.args["count"],
                       f"repetition {repetition.args['count']}: the count of occurrences "
                       "that ends the game must be between 2 and 1000")
        if move_rule and not 1 <= small_int(move_rule.args["moves"]) <= 10000:
            self.error(move_rule, move_rule.args["moves"],
                       f"move rule {move_rule.args['moves']}: the number of moves must be "
                       "between 1 and 10000")
        self._check_setup(setup, pieces, drops, castling, en_passant)
        perpetual = {str(s.args["kind"]): str(s.args["fate"]) for s in self.lists["perpetual"]}
        one_piece = self._perpetual_one_piece()
        deployment, restrictions = self._deployment(setup), self._restrictions()
        self._check_perpetual(perpetual, repetition)
        self._check_hand_owners(pieces, captures)
        title = self.header.args["title"]
        parent = self.header.args["extends"]
        if self.bag:
            return None
        return Variant(
            name=str(self.header.args["name"]),
            title=str(title).strip('"') if title else str(self.header.args["name"]),
            parent=str(parent).strip('"') if parent else None,
            files=self.files, ranks=self.ranks, symmetry=self.symmetry,
            pieces=tuple(pieces), setup=setup[0] if setup else "",
            captures=captures, drops=drops,
            dead_drops_allowed=False, castling=castling, en_passant=en_passant,
            no_facing_kings="no_facing_kings" in self.statements,
            stalemate=str(stalemate.args["result"]) if stalemate else "draw",
            stalemating_illegal=bool(stalemate and stalemate.args["illegal"]),
            repetition_count=small_int(repetition.args["count"]) if repetition else 0,
            repetition_result=str(repetition.args["result"]) if repetition else "draw",
            perpetual_check=perpetual.get("check"), perpetual_chase=perpetual.get("chase"),
            perpetual_check_one_piece=one_piece,
            move_rule=small_int(move_rule.args["moves"]) if move_rule else 0,
            deployment=deployment, restrictions=restrictions,
            side_names=(tuple(str(self.statements["sides"].args[k]).strip('"')
                              for k in ("white", "black"))
                        if "sides" in self.statements else ("White", "Black")))

    def _check_perpetual(self, perpetual, repetition):
        """Perpetual check and chase rules work on repetitions: they need a repetition
        rule to say when a position counts as repeated."""
        for kind in ("check", "chase"):
            if kind in perpetual and repetition is None:
                st = next(s for s in self.lists["perpetual"] if str(s.args["kind"]) == kind)
                self.error(st, st.args["kind"], f"a perpetual {kind} rule needs a repetition "
                           "rule to say when a position counts as repeated, as in "
                           "`repetition 4 draw`")

    def _perpetual_one_piece(self):
        """`perpetual check by one piece …`: only the checks of a single piece count.
        (A chase is by one piece by definition, so the words do not apply to it.)"""
        one_piece = False
        for st in self.lists["perpetual"]:
            if st.args.get("one_piece") is None:
                if str(st.args["kind"]) == "check":
                    one_piece = False           # the last statement of a kind wins
                continue
            if str(st.args["kind"]) == "chase":
                self.error(st, st.args["one_piece"], "`by one piece` qualifies perpetual "
                           "check only: a perpetual chase is always by one piece")
            else:
                one_piece = True
        return one_piece

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
                               if s.args["side"] in (None, side) and s.args["fate"] == "hand"),
                              self.header)
                    self.error(st, None, f"a captured {piece.name} would go to {side.title()}'s "
                               f"hand as a {target}, but {side.title()} has no letter for a "
                               f"{target} (its letter is written {by_name[target].letter})")

    def _deployment(self, setup):
        st = self.statements.get("deploy")
        if st is None:
            return None
        last = self.piece_name(st, st.args["last"]) if st.args["last"] else None
        royal = next((n for n, i in self.pieces.items() if i["royal"]), None)
        if setup and royal and not any(name == royal for name, _ in setup[1].holdings):
            self.error(st, None, f"a deployment phase lasts while the royal piece '{royal}' is "
                       "in hand, but the setup does not hold it in hand")
        if setup and last and not any(name == last for name, _ in setup[1].holdings):
            self.error(st, st.args["last"], f"the deployment order names '{last}', which is not "
                       "in hand in the setup")
        return Deployment(last=last)

    def _restrictions(self):
        out = []
        for st in self.lists["restriction"]:
            trigger, restricted = str(st.args["trigger_side"]), str(st.args["restricted_side"])
            if trigger == restricted:
                self.error(st, st.args["restricted_side"],
                           "a restriction must name two different sides")
                continue
            out.append(Restriction(trigger_side=trigger, events=tuple(sorted(set(st.args["events"]))),
                                   restricted_side=restricted,
                                   forbidden=tuple(sorted(set(st.args["forbidden"])))))
        return tuple(out)

    def _setup(self):
        st = self.statements.get("setup")
        if st is None:
            self.error(self.header, self.header.args["name"],
                       "no setup: give the start position with `setup \"FEN\"`")
            return None
        fen = str(st.args["fen"]).strip('"')
        try:
            parsed = parse_fen(fen, self.files, self.ranks, self.token_table())
        except FenError as err:
            self.error(st, st.args["fen"], f"setup does not fit the game: {err}")
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
        for st in self.lists["initial"]:
            where = self.as_set(st, st.args["region"])
            for token in st.args["pieces"]:
                name = self.piece_name(st, token)
                if name:
                    out[name] = where
        return out

    def _per_piece_region(self, kind):
        out = {}
        for st in self.lists[kind]:
            where = self.as_set(st, st.args["region"])
            for token in st.args["pieces"]:
                name = self.piece_name(st, token)
                if name:
                    out[name] = where
        return out

    def _promotions(self):
        out = {}
        for st in self.lists["promote"]:
            name = self.piece_name(st, st.args["piece"])
            choices = [self.piece_name(st, c) for c in st.args["choices"]]
            errors_before = len(self.bag.items)
            zone = self.as_set(st, st.args["zone"])
            if len(self.bag.items) > errors_before:
                continue            # the zone itself is wrong; that error says enough
            forced = self.as_set(st, st.args["forced"]) if st.args["forced"] else SquareSet((), ())
            if name is None or None in choices:
                continue
            if not zone.white and not zone.black:
                self.error(st, st.args["piece"], f"promotion of '{name}' can never happen: "
                           "its zone has no squares")
                continue
            on_leaving = st.args["trigger"] == "leaving"
            if self.pieces[name]["atoms"] and not self._can_promote(name, zone, on_leaving):
                self.error(st, st.args["zone"][1] if st.args["zone"][0] == "ref" else
                           st.args["piece"],
                           f"promotion of '{name}' can never happen: no move of a {name} "
                           f"{'starts or ends' if on_leaving else 'ends'} in its zone")
                continue
            bad_choice = False
            for k, (choice, token) in enumerate(zip(choices, st.args["choices"])):
                if self.pieces[choice]["royal"]:
                    self.error(st, token, f"'{name}' may not promote to the royal '{choice}'")
                    bad_choice = True
                elif choice == name:
                    self.error(st, token, f"'{name}' cannot promote to itself")
                    bad_choice = True
                elif choice in choices[:k]:
                    # Each choice is a move of its own: listed twice, it would be
                    # generated twice.
                    self.error(st, token, f"'{choice}' is listed twice")
                    bad_choice = True
            plus = [c for c in choices if self.pieces[c]["letter"].startswith("+")]
            if len(plus) > 1:
                # A promotion to a `+X` piece is written with a bare `+` (b2h8+): two such
                # choices would be the same move text and could not be told apart.
                self.error(st, st.args["choices"][choices.index(plus[1])],
                           f"'{plus[0]}' and '{plus[1]}' would both be written '+' in moves: "
                           "give all but one of them an ordinary letter")
                bad_choice = True
            if bad_choice:
                continue
            out[name] = Promotion(choices=tuple(choices), zone=zone,
                                  on_leaving=st.args["trigger"] == "leaving", forced=forced)
        return out

    def _can_promote(self, name, zone, on_leaving):
        """Could some move of the piece (on an empty board, whatever its conditions)
        end in the promotion zone (or, with `on leaving`, start there), for either side?"""
        board = [(f, r) for f in range(self.files) for r in range(self.ranks)]
        for side in SIDES:
            squares = {parse_square(n, self.files, self.ranks) for n in zone.for_side(side)}
            for atom in self.pieces[name]["atoms"]:
                dx, dy = atom.dx, atom.dy
                if side == "black":
                    dx, dy = (-dx if self.symmetry == "rotate" else dx), -dy
                steps = 1 if atom.kind == "leap" else (atom.max_steps or
                                                       max(self.files, self.ranks))
                for f, r in board:
                    for k in range(1, steps + 1):
                        to = (f + k * dx, r + k * dy)
                        if not (0 <= to[0] < self.files and 0 <= to[1] < self.ranks):
                            break
                        if to in squares or (on_leaving and (f, r) in squares):
                            return True
        return False

    def _demotions(self, promotions):
        """What a captured promoted piece becomes: explicit `demote`, or for a `+X` piece
        the single piece that promotes to it."""
        sources = {}
        for src, promo in promotions.items():
            for choice in promo.choices:
                sources.setdefault(choice, []).append(src)
        out = {}
        explicit = {str(st.args["piece"]) for st in self.lists["demote"]}
        for name, info in self.pieces.items():
            if info["letter"].startswith("+") and name not in explicit:
                srcs = sources.get(name, [])
                if len(srcs) == 1:
                    out[name] = srcs[0]
                elif len(srcs) > 1:
                    self.error(info["statement"], info["statement"].args["name"],
                               f"'{name}' is promoted from several pieces ({', '.join(srcs)}): "
                               f"say what it demotes to with `demote {name} to PIECE`")
        for st in self.lists["demote"]:
            name = self.piece_name(st, st.args["piece"])
            target = self.piece_name(st, st.args["to"])
            if name and target:
                out[name] = target
        return out

    def _reverting_types(self, promotions, demotions):
        """`captured promoted pieces revert`: each promotion to an ordinary piece gets a
        twin type that moves the same but returns to hand as the piece it came from
        (written with `~` in FEN, as Fairy-Stockfish does)."""
        if "captured_revert" not in self.statements:
            return []
        st = self.statements["captured_revert"]
        derived = []
        for src, promo in list(promotions.items()):
            new_choices = []
            for choice in promo.choices:
                info = self.pieces[choice]
                if info["letter"].startswith("+") or choice in demotions:
                    new_choices.append(choice)
                    continue
                twin = f"{choice}_from_{src}"
                letter = info["letter"] + "~"
                tokens = tuple(t + "~" if t else None for t in info["tokens"])
                if any(i["letter"] == letter for i in self.pieces.values()):
                    self.error(st, None, f"several pieces promote to '{choice}': cannot tell "
                               "what it reverts to")
                    continue
                self.pieces[twin] = {"statement": info["statement"], "letter": letter,
                                     "tokens": tokens, "betza": info["betza"], "royal": False,
                                     "atoms": list(info["atoms"])}
                demotions[twin] = src
                derived.append({"name": twin, "twin_of": choice})
                new_choices.append(twin)
            promotions[src] = Promotion(tuple(new_choices), promo.zone, promo.on_leaving,
                                        promo.forced)
        return derived

    def _captures(self):
        to_hand = {"white": False, "black": False}
        for st in self.lists["captures"]:
            for side in ([str(st.args["side"])] if st.args["side"] else SIDES):
                to_hand[side] = st.args["fate"] == "hand"
        becomes = {}
        for st in self.lists["captured"]:
            name = self.piece_name(st, st.args["piece"])
            target = st.args["becomes"]
            target = self.piece_name(st, target) if target is not None else None
            if name and (target or st.args["becomes"] is None):
                becomes[name] = target
        return Captures(to_hand_white=to_hand["white"], to_hand_black=to_hand["black"],
                        becomes=tuple(sorted(becomes.items(), key=lambda kv: kv[0])))

    def _drops(self, captures, setup):
        holdings = bool(setup and setup[1].holdings)
        if not (captures.to_hand_white or captures.to_hand_black or holdings
                or self.lists["drop"]):
            return ()
        everywhere = self.names({(f, r) for f in range(self.files) for r in range(self.ranks)})
        default = {"white": everywhere, "black": everywhere}
        specific, flags = {}, {}
        for st in self.lists["drop"]:
            sides = [str(st.args["side"])] if st.args["side"] else list(SIDES)
            zone = None
            if st.args["zone"] and st.args["side"]:     # `for black`: the board's own squares
                side = sides[0]
                literal = self.names(self.region(st, st.args["zone"], side, literal=True))
                zone = (literal, literal)
            elif st.args["zone"]:
                zone = self.square_set(st, st.args["zone"])
            if st.args["pieces"] == "all":
                targets = None
            else:
                targets = [n for n in (self.piece_name(st, t) for t in st.args["pieces"]) if n]
            if targets is None:         # `drop all ... not doubled` restricts every piece
                for name in self.piece_order:
                    flags.setdefault(name, set()).update(st.args["flags"])
            for side in sides:
                index = SIDES.index(side)
                if targets is None:
                    if zone is not None:
                        default[side] = zone[index]
                    continue
                for name in targets:
                    if zone is not None:
                        specific[(name, side)] = zone[index]
                    flags.setdefault(name, set()).update(st.args["flags"])
        rules = []
        deploying = "deploy" in self.statements
        for name in self.piece_order:
            if self.pieces[name]["letter"].startswith("+"):
                continue
            if self.pieces[name]["royal"] and not deploying:
                continue
            zone = SquareSet(specific.get((name, "white"), default["white"]),
                             specific.get((name, "black"), default["black"]))
            rules.append(DropRule(piece=name, zone=zone,
                                  not_doubled="not doubled" in flags.get(name, ()),
                                  not_mating="not mating" in flags.get(name, ())))
        return tuple(rules)

    def _castling(self, setup):
        out = []
        seen = {}
        royal = next((n for n, i in self.pieces.items() if i["royal"]), None)
        for st in self.lists["castling"]:
            squares = [self.square(st, st.args[k]) for k in
                       ("king_from", "king_to", "rook_from", "rook_to")]
            if None in squares:
                continue
            # The engine moves the king and the rook as two pieces: the same square for
            # both would lose one of them.
            if squares[0] == squares[2] or squares[1] == squares[3]:
                self.error(st, st.args["rook_from"] if squares[0] == squares[2]
                           else st.args["rook_to"],
                           "castling: the king and the rook must start and end on "
                           "different squares")
                continue
            sides = [str(st.args["side"])] if st.args["side"] else list(SIDES)
            for side in sides:
                sq = squares
                if side == "black" and not st.args["side"]:
                    sq = [self.mirror(s) for s in squares]
                kf, kt, rf, rt = (square_name(*s) for s in sq)
                if sq[0][1] != sq[2][1] or sq[1][1] != sq[0][1] or sq[3][1] != sq[0][1]:
                    self.error(st, st.args["king_from"],
                               "castling squares must all be on one rank")
                    continue
                # FEN names a castling right by the side of the king its rook is on
                # (K or Q), so a side can castle at most once towards each wing.
                wing = (side, sq[2][0] > sq[0][0])
                if wing in seen:
                    self.error(st, st.args["rook_from"],
                               f"{side} already castles with a rook on that side of the king "
                               f"(line {seen[wing].loc.line}): FEN can name only one "
                               "castling right per wing")
                    continue
                seen[wing] = st
                if setup:
                    board = setup[1].board
                    if royal and board.get(sq[0]) != (royal, side):
                        self.error(st, st.args["king_from"],
                                   f"castling can never happen: the setup has no {side} "
                                   f"{royal} on {kf}")
                        continue
                    if board.get(sq[2], (None, None))[1] != side:
                        self.error(st, st.args["rook_from"],
                                   f"castling can never happen: the setup has no {side} "
                                   f"piece on {rf} to castle with")
                        continue
                out.append(Castling(side=side, king_from=kf, king_to=kt, rook_from=rf,
                                    rook_to=rt))
        return tuple(out)

    def _check_setup(self, setup, pieces, drops, castling, en_passant):
        """What the setup FEN must agree with besides its board's shape and letters:
        one royal piece per side (on the board or in hand), pieces in hand that can be
        dropped, hand counts the engine can hold.  (Whether the side not to move is in
        check, or a piece stands where it could never move, is checked when the engine
        is built: `ff.load` refuses such a setup with FenError.)"""
        from .lower import MAX_HAND
        if not setup:
            return
        st = self.statements["setup"]
        token = st.args["fen"]
        parsed = setup[1]
        royal = next((p for p in pieces if p.royal), None)
        droppable = {d.piece for d in drops}
        if royal is not None:
            for colour, side in enumerate(SIDES):
                if royal.tokens[colour] is None:
                    continue
                count = (sum(1 for v in parsed.board.values() if v == (royal.name, side))
                         + sum(1 for v in parsed.holdings if v == (royal.name, side)))
                if count != 1:
                    self.error(st, token, f"setup does not fit the game: {side} must have "
                               f"one {royal.name} (on the board or in hand), the setup "
                               f"gives it {count}")
        counts = {}
        for name, side in parsed.holdings:
            counts[(name, side)] = counts.get((name, side), 0) + 1
        for (name, side), count in sorted(counts.items()):
            if name not in droppable:
                self.error(st, token, f"setup does not fit the game: the {side} {name} in "
                           "hand could never be dropped")
            elif count > MAX_HAND - 1:
                self.error(st, token, f"setup does not fit the game: {count} {side} {name}s "
                           f"in hand, at most {MAX_HAND - 1} are supported")
        # The state fields, as the runtime reads them (fairyforge.position).
        letters = set()
        for c in castling:
            kf = parse_square(c.king_from, self.files, self.ranks)
            rf = parse_square(c.rook_from, self.files, self.ranks)
            letter = "K" if rf[0] > kf[0] else "Q"
            letters.add(letter if c.side == "white" else letter.lower())
        for ch in "" if parsed.castling == "-" else parsed.castling:
            if ch not in letters:
                self.error(st, token, f"setup does not fit the game: '{ch}' is not a "
                           f"castling right of this game (rights: {''.join(sorted(letters)) or 'none'})")
        if parsed.en_passant != "-" and not en_passant:
            self.error(st, token, "setup does not fit the game: the game has no en passant, "
                       f"but the setup's en passant field is '{parsed.en_passant}'")
        if parsed.lifted != "-" and not self.lists["restriction"]:
            self.error(st, token, f"setup does not fit the game: unexpected extra field "
                       f"'{parsed.lifted}'")


def piece_tokens(letter):
    """(White's, Black's) FEN token of a LETTER as written: `R`, `C/r`, `R/-`, `-/r`."""
    if "/" in letter:
        white, black = letter.split("/")
    else:
        white, black = letter, letter.lower()
    return (None if white == "-" else white, None if black == "-" else black)


def _covers(b, a):
    """Does atom `b` reach every square atom `a` reaches, from the same squares?"""
    if (a.dx, a.dy) != (b.dx, b.dy):
        return False
    if b.initial and not a.initial:
        return False
    if b.only_in is not None and b.only_in != a.only_in:
        return False
    if b.lame_path and b.lame_path != a.lame_path:
        return False
    if a.kind in ("hop", "grasshop") or b.kind in ("hop", "grasshop"):
        return a.kind == b.kind and a.max_steps == b.max_steps
    if b.kind == "ride" and not b.max_steps:
        return True
    reach_a = 1 if a.kind == "leap" else a.max_steps
    reach_b = 1 if b.kind == "leap" else b.max_steps
    return bool(reach_a) and reach_a <= reach_b


def merge_atoms(atoms):
    """The atoms with overlaps removed, so that no move is generated twice.

    Betza describes a set of moves: `KW`, `WfF` with `W` again, `mR` with `W`, or a
    doubled `move` statement name some moves twice, and the generator (one loop per
    atom) would list them twice: perft counts and legal_moves() would be wrong.  An
    atom loses the move/capture modes that another atom covering all its squares
    already has; an atom left with neither is dropped.
    """
    atoms = list(atoms)
    keep = []
    for i, a in enumerate(atoms):
        moves, captures = a.moves, a.captures
        for j, b in enumerate(atoms):
            if i == j or not _covers(b, a):
                continue
            if _covers(a, b) and j > i:
                continue            # the same squares: the first of the two keeps them
            moves = moves and not b.moves
            captures = captures and not b.captures
        if moves or captures:
            keep.append(a if (moves, captures) == (a.moves, a.captures)
                        else _with(a, moves=moves, captures=captures))
    return keep


def _with(atom, **changes):
    data = dict(atom.__dict__)
    data.update(changes)
    return MoveAtom(**data)


def resolve(definition, bag=None):
    """Resolve a parsed Definition into a Variant, raising DefinitionError on problems."""
    own_bag = bag is None
    bag = bag if bag is not None else DiagnosticBag()
    variant = Resolver(bag).resolve(definition)
    if own_bag:
        bag.raise_if_any()
    return variant


def load_variant(name_or_path):
    """Parse and resolve a bundled game or a definition file into a Variant."""
    from fairyforge.errors import UnknownGameError
    if isinstance(name_or_path, os.PathLike):
        name_or_path = os.fspath(name_or_path)
    if not isinstance(name_or_path, str):       # None, bytes, 123: not a name (TypeError)
        raise UnknownGameError(f"a game is a bundled name or a definition file's path, got "
                               f"{type(name_or_path).__name__}; bundled games: "
                               f"{', '.join(bundled_names())}")
    path = locate(name_or_path)
    if path is None:
        raise UnknownGameError(f"no bundled game or definition file named '{name_or_path}'"
                               + did_you_mean(name_or_path, bundled_names())
                               + f"; bundled games: {', '.join(bundled_names())}")
    bag = DiagnosticBag()
    definition = parse_phase.parse_file(path, bag)
    variant = resolve(definition, bag)      # also after syntax errors: report them all
    bag.raise_if_any()
    return variant
