"""A plain, slow, obviously-correct interpreter of Fairyforge's rule model.

It reads a `Variant` (fairyforge.compiler.model) and plays the game it describes,
knowing nothing of the compiler's lowering or of the generated engines: the board is a
dict {(file, rank): (piece name, colour)}, hands are Counters of piece names, every
move is made on a fresh copy of the position and every legality rule is checked by
looking at the position after the move.  It is meant to be read next to the model's
documentation and the seed games' rules pages (docs/rules/), not to be fast.

    oracle = Interpreter(load_variant("shogi"))
    pos = oracle.position()               # the setup, or oracle.position(fen)
    pos.legal_moves()                     # {"c3c4", "P@e5", "b2h8+", ...}
    pos.push("c3c4"); pos.pop()
    pos.is_check(); pos.outcome()         # None or (winner, reason)
    pos.perft(3)

Coordinates are (file, rank) from 0, White's a1 = (0, 0).  Colours are "white" and
"black".  Moves are written as in Fairy-Stockfish's UCI (e2e4, e7e8q, b2h8+, P@e4).

Two choices the model leaves open: the halfmove clock restarts on drops (as in
Fairy-Stockfish's crazyhouse), and a hop (cannon) atom's max_steps is not used.
Pages, sections (§) and ambiguities below are those of docs/rules/ (the seed games'
rules).
"""

from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Optional

from fairyforge.compiler.model import Castling
from fairyforge.fen import parse_fen

WHITE, BLACK = "white", "black"
SIDES = (WHITE, BLACK)


def opponent(colour):
    return BLACK if colour == WHITE else WHITE


def parse_square_name(name):
    """'e4' -> (4, 3)."""
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def square_name(square):
    """(4, 3) -> 'e4'."""
    return f"{chr(ord('a') + square[0])}{square[1] + 1}"


_REGIONS = {}


def squares_of(square_set, colour):
    """The squares of a model SquareSet for one side, as a set of coordinates."""
    # Cached by identity: hashing a SquareSet (tuples of names) on every call is slow.
    key = (id(square_set), colour)
    if key not in _REGIONS:
        _REGIONS[key] = (square_set, frozenset(parse_square_name(s)
                                               for s in square_set.for_side(colour)))
    return _REGIONS[key][1]


def steps_to(frm, target, vector):
    """k > 0 such that frm + k * vector == target, or None."""
    (fx, fy), (tx, ty), (dx, dy) = frm, target, vector
    if (tx - fx, ty - fy) == vector:
        return 1                # the common case, decided quickly
    candidates = set()
    for delta, d in ((tx - fx, dx), (ty - fy, dy)):
        if d == 0:
            if delta != 0:
                return None
        elif delta % d != 0:
            return None
        else:
            candidates.add(delta // d)
    if len(candidates) != 1:
        return None
    k = candidates.pop()
    return k if k > 0 else None


# ---------------------------------------------------------------------------------------
# Moves and positions (plain values)
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Move:
    piece: str                          # the type that moves (or is dropped)
    to: tuple
    frm: Optional[tuple] = None         # None for a drop
    promotion: Optional[str] = None     # the type the piece becomes
    castling: Optional[Castling] = None
    en_passant: bool = False            # captures the pawn that just double-stepped
    skipped: Optional[tuple] = None     # the square a lame double step passed over

    @property
    def is_drop(self):
        return self.frm is None


@dataclass
class State:
    board: dict                 # (file, rank) -> (piece name, colour)
    hands: dict                 # colour -> Counter of piece names
    side: str                   # the side to move
    castling: frozenset         # FEN letters of the castling rights still held
    ep: Optional[tuple]         # (en passant square, square of the pawn to remove)
    halfmove: int
    fullmove: int
    lifted: frozenset           # sides whose restriction trigger has happened

    def copy(self):
        return replace(self, board=dict(self.board),
                       hands={c: Counter(h) for c, h in self.hands.items()})

    def key(self):
        """What makes two positions 'the same' for repetition."""
        hands = tuple(tuple(sorted((n, k) for n, k in self.hands[c].items() if k))
                      for c in SIDES)
        return (frozenset(self.board.items()), hands, self.side, self.castling,
                self.ep[0] if self.ep else None, self.lifted)


# ---------------------------------------------------------------------------------------
# The rules
# ---------------------------------------------------------------------------------------

class Interpreter:
    """The rules of one variant, read straight from its rule model."""

    def __init__(self, variant):
        self.variant = v = variant
        self.pieces = {p.name: p for p in v.pieces}
        self.royals = {p.name for p in v.pieces if p.royal}
        self.tokens = {tok: (p.name, colour) for p in v.pieces
                       for colour, tok in zip(SIDES, p.tokens) if tok is not None}
        self.on_board = {(f, r) for f in range(v.files) for r in range(v.ranks)}
        self.drop_rules = {}
        for rule in v.drops:
            self.drop_rules.setdefault(rule.piece, []).append(rule)
        self.setup = parse_fen(v.setup, v.files, v.ranks, self.tokens)
        self.castling_letter = {c: self._castling_letter(c) for c in v.castling}
        self.dead = lru_cache(maxsize=None)(self._dead)

    # -- positions -----------------------------------------------------------------------
    def position(self, fen=None):
        return OraclePosition(self, self.state_from_fen(fen or self.variant.setup))

    def start(self):
        return self.position()

    def state_from_fen(self, fen):
        v = self.variant
        parsed = parse_fen(fen, v.files, v.ranks, self.tokens)
        hands = {WHITE: Counter(), BLACK: Counter()}
        for name, colour in parsed.holdings:
            hands[colour][name] += 1
        ep = None
        if parsed.en_passant != "-":
            # The pawn that passed stands one step beyond the square it skipped.
            square = parse_square_name(parsed.en_passant)
            mover = opponent(parsed.side)
            ep = (square, self.shift(square, (0, 1), mover))
        castling = frozenset(parsed.castling) - {"-"}
        lifted = frozenset({"w": WHITE, "b": BLACK}[c] for c in parsed.lifted if c != "-")
        return State(dict(parsed.board), hands, parsed.side, castling, ep,
                     parsed.halfmove, parsed.fullmove, lifted)

    def fen(self, state):
        v = self.variant
        rows = []
        for rank in range(v.ranks - 1, -1, -1):
            row, empty = "", 0
            for file in range(v.files):
                if (file, rank) not in state.board:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += self.token(*state.board[(file, rank)])
            rows.append(row + (str(empty) if empty else ""))
        text = "/".join(rows)
        if v.drops or "[" in v.setup:
            held = "".join(self.token(p.name, colour) * state.hands[colour][p.name]
                           for colour in SIDES for p in v.pieces
                           if state.hands[colour][p.name] > 0)
            text += f"[{held}]"
        rights = "".join(sorted(state.castling, key=lambda c: (c.islower(), c.upper() != "K")))
        rights = rights or "-"
        ep = square_name(state.ep[0]) if state.ep else "-"
        fen = f"{text} {state.side[0]} {rights} {ep} {state.halfmove} {state.fullmove}"
        if v.restrictions:
            fen += " " + ("".join(c[0] for c in SIDES if c in state.lifted) or "-")
        return fen

    def token(self, name, colour):
        return self.pieces[name].tokens[SIDES.index(colour)]

    # -- geometry ------------------------------------------------------------------------
    def orient(self, vector, colour):
        """A vector written from White's side, as the given side sees it."""
        dx, dy = vector
        if colour == BLACK:
            dy = -dy
            if self.variant.symmetry == "rotate":
                dx = -dx
        return dx, dy

    def shift(self, square, vector, colour):
        dx, dy = self.orient(vector, colour)
        return square[0] + dx, square[1] + dy

    def atom_applies(self, piece, atom, frm, colour):
        """Do the atom's conditions (Betza i, `move ... in REGION`) hold on `frm`?"""
        if atom.initial and frm not in squares_of(piece.initial_squares, colour):
            return False
        if atom.only_in is not None and frm not in squares_of(atom.only_in, colour):
            return False
        return True

    def allowed_target(self, piece, colour, square):
        """On the board, and inside the piece's confinement (xiangqi's palace and
        river; Kjartansson's fortress and river, kjartansson.md ambiguities 10 and 16)."""
        if square not in self.on_board:
            return False
        return piece.confined_to is None or square in squares_of(piece.confined_to, colour)

    def leap_target(self, board, frm, colour, piece, atom):
        """Where a leap lands, if it is possible at all: None when a lame square is
        occupied or the target is off the board or outside the confinement."""
        for lame in atom.lame_path:
            if self.shift(frm, lame, colour) in board:
                return None
        to = self.shift(frm, (atom.dx, atom.dy), colour)
        return to if self.allowed_target(piece, colour, to) else None

    def line(self, frm, atom, colour):
        """The squares along the atom's direction, nearest first, to the board's edge."""
        out, square = [], frm
        while True:
            square = self.shift(square, (atom.dx, atom.dy), colour)
            if square not in self.on_board:
                return out
            out.append(square)

    def atom_targets(self, board, frm, colour, piece, atom):
        """(target, captured) pairs of one atom of one piece; captured is the enemy
        piece taken, or None for a move to an empty square."""
        if not self.atom_applies(piece, atom, frm, colour):
            return []
        found = []

        def consider(square):
            if not self.allowed_target(piece, colour, square):
                return
            occupant = board.get(square)
            if occupant is None and atom.moves:
                found.append((square, None))
            elif occupant is not None and occupant[1] != colour and atom.captures:
                found.append((square, occupant))

        if atom.kind == "leap":
            to = self.leap_target(board, frm, colour, piece, atom)
            if to is not None:
                consider(to)
        elif atom.kind == "ride":
            for steps, square in enumerate(self.line(frm, atom, colour), start=1):
                if atom.max_steps and steps > atom.max_steps:
                    break
                consider(square)
                if square in board:
                    break
        elif atom.kind == "hop":
            # Cannon: over exactly one piece (the screen, of either colour).
            squares = self.line(frm, atom, colour)
            screens = [i for i, s in enumerate(squares) if s in board]
            if screens:
                for square in squares[screens[0] + 1:]:
                    consider(square)
                    if square in board:
                        break
        elif atom.kind == "grasshop":
            squares = self.line(frm, atom, colour)
            screens = [i for i, s in enumerate(squares) if s in board]
            if screens and screens[0] + 1 < len(squares):
                consider(squares[screens[0] + 1])
        else:
            raise ValueError(f"unknown atom kind {atom.kind!r}")
        return found

    def _dead(self, name, colour, square):
        """Could a piece of this type never move from `square` on an empty board?"""
        piece = self.pieces[name]
        for atom in piece.moves:
            if not self.atom_applies(piece, atom, square, colour):
                continue
            first = self.shift(square, (atom.dx, atom.dy), colour)
            if atom.kind in ("hop", "grasshop"):
                # needs a screen and a square beyond it
                second = self.shift(first, (atom.dx, atom.dy), colour)
                if first in self.on_board and self.allowed_target(piece, colour, second):
                    return False
            elif self.allowed_target(piece, colour, first):
                return False
        return True

    # -- attacks and check ---------------------------------------------------------------
    def attacked(self, board, square, by):
        """Could a piece of `by` capture onto `square` (as if an enemy stood there)?"""
        for frm, (name, colour) in board.items():
            if colour != by or frm == square:
                continue
            piece = self.pieces[name]
            ox, oy = square[0] - frm[0], square[1] - frm[1]
            for atom, (dx, dy) in self.capture_atoms(name, by):
                # Only to save time: skip atoms that do not point at the square.
                if atom.kind == "leap" and (dx, dy) != (ox, oy):
                    continue
                if ox * dy != oy * dx or ox * dx + oy * dy <= 0:
                    continue
                if self.captures_onto(board, frm, by, piece, atom, square):
                    return True
        return False

    @lru_cache(maxsize=None)
    def capture_atoms(self, name, colour):
        """The piece's atoms that can capture, with their vectors as `colour` sees them."""
        return tuple((atom, self.orient((atom.dx, atom.dy), colour))
                     for atom in self.pieces[name].moves if atom.captures)

    def captures_onto(self, board, frm, colour, piece, atom, target):
        """Could this atom capture a piece standing on `target`?  The same rules as
        atom_targets, asked backwards: how many steps of the atom lead to the target,
        and what stands on the squares between."""
        steps = steps_to(frm, target, self.orient((atom.dx, atom.dy), colour))
        if steps is None:
            return False
        if not (self.atom_applies(piece, atom, frm, colour)
                and self.allowed_target(piece, colour, target)):
            return False
        between = [self.shift(frm, (atom.dx * k, atom.dy * k), colour) for k in range(1, steps)]
        occupied = [square in board for square in between]
        if atom.kind == "leap":
            return steps == 1 and all(self.shift(frm, lame, colour) not in board
                                      for lame in atom.lame_path)
        if atom.kind == "ride":
            return (atom.max_steps == 0 or steps <= atom.max_steps) and not any(occupied)
        if atom.kind == "hop":
            return sum(occupied) == 1
        if atom.kind == "grasshop":
            return steps >= 2 and occupied[-1] and not any(occupied[:-1])
        raise ValueError(f"unknown atom kind {atom.kind!r}")

    def attacked_by_generation(self, board, square, by):
        """attacked(), the slow way: put an enemy on the square and generate every
        capture of `by` (kept to test attacked() against)."""
        board = dict(board)
        board[square] = ("<someone>", opponent(by))
        return any(to == square and taken is not None
                   for frm, (name, colour) in board.items() if colour == by
                   for atom in self.pieces[name].moves
                   for to, taken in self.atom_targets(board, frm, by, self.pieces[name], atom))

    def attacks_of(self, state, colour):
        """{(attacker square, target square)}: every enemy piece each piece of `colour`
        could capture now, whoever is to move (what the perpetual rules call attacking).
        During a deployment phase, while `colour` still holds its royal piece, its
        pieces cannot move, so they attack nothing."""
        if self.variant.deployment is not None and any(state.hands[colour][r]
                                                       for r in self.royals):
            return set()
        pairs = set()
        for frm, (name, owner) in state.board.items():
            if owner != colour:
                continue
            piece = self.pieces[name]
            for target, (_, victim) in state.board.items():
                if victim != colour and any(
                        self.captures_onto(state.board, frm, colour, piece, atom, target)
                        for atom in piece.moves if atom.captures):
                    pairs.add((frm, target))
        return pairs

    def royal_squares(self, board, colour):
        return [sq for sq, (name, c) in board.items() if c == colour and name in self.royals]

    def in_check(self, state, colour):
        """The side's royal piece is on the board and attacked."""
        return any(self.attacked(state.board, sq, opponent(colour))
                   for sq in self.royal_squares(state.board, colour))

    def kings_face(self, board):
        """Xiangqi's flying general (kjartansson.md, ambiguity 13): two royals
        on one file with nothing between them."""
        white, black = self.royal_squares(board, WHITE), self.royal_squares(board, BLACK)
        for a in white:
            for b in black:
                if a[0] == b[0]:
                    low, high = sorted((a[1], b[1]))
                    if all((a[0], r) not in board for r in range(low + 1, high)):
                        return True
        return False

    # -- move generation -----------------------------------------------------------------
    def pseudo_moves(self, state):
        """Every move the pieces' movements allow, before any legality rule."""
        colour = state.side
        deployment = self.variant.deployment
        royal_in_hand = any(state.hands[colour][r] for r in self.royals)
        if not (deployment is not None and royal_in_hand):
            # En passant takes "as if the pawn had moved one square": a piece that may
            # capture onto the passed square takes the pawn when it steps there, so the
            # plain step with the same from and to squares is not a separate move.
            passant = list(self.en_passant_moves(state))
            taken = {(m.frm, m.to) for m in passant}
            yield from (m for m in self.board_moves(state) if (m.frm, m.to) not in taken)
            yield from passant
            yield from self.castling_moves(state)
        # Deployment: while the royal is in hand, the side may only drop (iChess).
        yield from self.drop_moves(state)

    def board_moves(self, state):
        colour = state.side
        for frm, (name, owner) in list(state.board.items()):
            if owner != colour:
                continue
            piece = self.pieces[name]
            targets = []
            for atom in piece.moves:
                for to, taken in self.atom_targets(state.board, frm, colour, piece, atom):
                    skipped = None
                    if (atom.kind == "leap" and taken is None and len(atom.lame_path) == 1
                            and name in self.variant.en_passant):
                        skipped = self.shift(frm, atom.lame_path[0], colour)
                    targets.append((to, skipped))
            for to, skipped in dict.fromkeys(targets):
                yield from self.with_promotions(Move(name, to, frm, skipped=skipped), colour)

    def with_promotions(self, move, colour):
        """The move itself and/or its promoting versions: on a move ending in the zone
        (or starting there, shogi-style: wwii.md §4.1, kjartansson.md §4); the plain
        move is kept unless promotion is forced there (Frontofhouse's Helm,
        frontofhouse.md §4.2; WWII's chess pawns on rank 9) or the piece could never
        move again."""
        piece = self.pieces[move.piece]
        promo = piece.promotion
        if promo is None:
            yield move
            return
        zone = squares_of(promo.zone, colour)
        if not (move.to in zone or (promo.on_leaving and move.frm in zone)):
            yield move
            return
        for choice in promo.choices:
            yield replace(move, promotion=choice)
        forced = move.to in squares_of(promo.forced, colour)
        if not forced and not self.dead(move.piece, colour, move.to):
            yield move

    def en_passant_moves(self, state):
        """Captures onto the square a double step just skipped, by any en passant
        piece with a capturing leap there (frontofhouse.md §6.2; kjartansson.md,
        ambiguity 6: diagonally, or sideways by a pawn beyond the river)."""
        if state.ep is None:
            return
        square, victim = state.ep
        colour = state.side
        for frm, (name, owner) in list(state.board.items()):
            if owner != colour or name not in self.variant.en_passant:
                continue
            piece = self.pieces[name]
            for atom in piece.moves:
                if (atom.kind == "leap" and atom.captures
                        and self.atom_applies(piece, atom, frm, colour)
                        and self.leap_target(state.board, frm, colour, piece, atom) == square
                        and square not in state.board):
                    yield from self.with_promotions(Move(name, square, frm, en_passant=True),
                                                    colour)
                    break

    def castling_moves(self, state):
        """Castling needs the right, the royal on its square and the rook -- the type
        that stands on rook_from in the setup, so a reintroduced piece never castles
        (frontofhouse.md §6.3) -- an empty path and no attacked king square."""
        colour = state.side
        for option, letter in self.castling_letter.items():
            if option.side != colour or letter not in state.castling:
                continue
            king_from, king_to, rook_from, rook_to = (parse_square_name(s) for s in (
                option.king_from, option.king_to, option.rook_from, option.rook_to))
            king = state.board.get(king_from)
            if king is None or king[1] != colour or king[0] not in self.royals:
                continue
            if state.board.get(rook_from) != (self.setup.board.get(rook_from, (None,))[0], colour):
                continue
            squares = (king_from, king_to, rook_from, rook_to)
            low, high = min(s[0] for s in squares), max(s[0] for s in squares)
            rank = king_from[1]
            if any((f, rank) in state.board and (f, rank) not in (king_from, rook_from)
                   for f in range(low, high + 1)):
                continue
            step = 1 if king_to[0] >= king_from[0] else -1
            path = [(f, rank) for f in range(king_from[0], king_to[0] + step, step)]
            if any(self.attacked(state.board, s, opponent(colour)) for s in path):
                continue
            yield Move(king[0], king_to, king_from, castling=option)

    def _castling_letter(self, option):
        king_file = parse_square_name(option.king_from)[0]
        rook_file = parse_square_name(option.rook_from)[0]
        letter = "K" if rook_file > king_file else "Q"
        return letter if option.side == WHITE else letter.lower()

    def drop_moves(self, state):
        """Drops on empty squares of the zone, never where the piece could not move
        again (frontofhouse.md §5.2, kjartansson.md §5.2), never outside its
        confinement (Kjartansson's Elephants, rule 10d), and `not doubled` is nifu
        (ichess.md §5.3, chesstonia.md §5.3)."""
        colour = state.side
        hand = state.hands[colour]
        deployment = self.variant.deployment
        for name in sorted(n for n, k in hand.items() if k > 0):
            if deployment is not None and name == deployment.last and sum(hand.values()) != 1:
                continue        # iChess: the King is dropped last
            piece = self.pieces[name]
            targets = set()
            for rule in self.drop_rules.get(name, []):
                for to in squares_of(rule.zone, colour):
                    if to in state.board or not self.allowed_target(piece, colour, to):
                        continue
                    if not self.variant.dead_drops_allowed and self.dead(name, colour, to):
                        continue
                    if rule.not_doubled and sum(
                            state.board.get((to[0], r)) == (name, colour)
                            for r in range(self.variant.ranks)) >= rule.file_limit:
                        continue
                    targets.add(to)
            for to in sorted(targets):
                yield Move(name, to)

    # -- making moves --------------------------------------------------------------------
    def play(self, state, move):
        """The position after `move` (a new State; `state` is unchanged)."""
        v = self.variant
        colour = state.side
        after = state.copy()
        board = after.board
        taken = None
        if move.is_drop:
            after.hands[colour][move.piece] -= 1
            board[move.to] = (move.piece, colour)
        elif move.castling is not None:
            c = move.castling
            rook = board.pop(parse_square_name(c.rook_from))
            king = board.pop(move.frm)
            board[move.to] = king
            board[parse_square_name(c.rook_to)] = rook
        else:
            if move.en_passant:
                taken = board.pop(state.ep[1])
            else:
                taken = board.get(move.to)
            del board[move.frm]
            board[move.to] = (move.promotion or move.piece, colour)
        if taken is not None:
            self.to_hand(after, taken, colour)

        # Castling rights go when anything starts or ends on a king or rook square.
        touched = {move.frm, move.to}
        if move.en_passant:
            touched.add(state.ep[1])
        after.castling = frozenset(
            letter for option, letter in self.castling_letter.items()
            if letter in state.castling and not touched & {
                parse_square_name(option.king_from), parse_square_name(option.rook_from)})

        after.ep = None
        if move.skipped is not None and self.could_take_en_passant(board, move.skipped,
                                                                    opponent(colour)):
            after.ep = (move.skipped, move.to)

        # The move-rule clock restarts on irreversible moves: captures, moves of pieces
        # that only go forward (pawns), and drops (as Fairy-Stockfish counts them).
        resets = (taken is not None or move.is_drop
                  or all(a.dy > 0 for a in self.pieces[move.piece].moves))
        after.halfmove = 0 if resets else state.halfmove + 1
        if colour == BLACK:
            after.fullmove += 1
        after.side = opponent(colour)

        # Restrictions (WWII rule 8): the trigger side's first capture/check/promotion.
        for r in v.restrictions:
            if r.trigger_side == colour and colour not in after.lifted:
                if self.events(state, move, after) & set(r.events):
                    after.lifted = after.lifted | {colour}
        return after

    def to_hand(self, state, taken, capturer):
        """Captures: into the capturer's hand (possibly converted) or out of play.
        E.g. a Ferz returns as a Pawn (ichess.md §5.1), every piece as its
        forward-only form (frontofhouse.md §5.1), Advisors leave the game
        (kjartansson.md §5.1), and so does everything the USA captures (wwii.md §5.1)."""
        name, _ = taken
        caps = self.variant.captures
        to_hand = caps.to_hand_white if capturer == WHITE else caps.to_hand_black
        if not to_hand or name in self.royals:
            return
        becomes = dict(caps.becomes)
        if name in becomes:
            held = becomes[name]
        else:
            held = self.pieces[name].demotes_to or name
        if held is not None:
            state.hands[capturer][held] += 1

    def could_take_en_passant(self, board, skipped, enemy):
        """A double step makes an en passant square only if an enemy en passant piece
        could capture onto the skipped square with a capturing leap."""
        for frm, (name, owner) in board.items():
            if owner != enemy or name not in self.variant.en_passant:
                continue
            piece = self.pieces[name]
            for atom in piece.moves:
                if (atom.kind == "leap" and atom.captures
                        and self.atom_applies(piece, atom, frm, enemy)
                        and self.leap_target(board, frm, enemy, piece, atom) == skipped):
                    return True
        return False

    def events(self, before, move, after):
        """Which restriction events a move is: capture, check, promote."""
        out = set()
        if move.en_passant or (not move.is_drop and move.castling is None
                               and move.to in before.board):
            out.add("capture")
        if self.in_check(after, after.side):
            out.add("check")
        if move.promotion is not None:
            out.add("promote")
        return out

    # -- legality ------------------------------------------------------------------------
    def is_legal(self, state, move, look_ahead=True):
        """All the rules that look at the position after the move.  `look_ahead` is off
        while answering "has the opponent any legal move?" for drop mates and
        stalemating moves (those rules are not applied a second time)."""
        v = self.variant
        colour = state.side
        after = self.play(state, move)
        if self.in_check(after, colour):
            return False
        if v.no_facing_kings and self.kings_face(after.board):
            return False
        for r in v.restrictions:
            if r.restricted_side == colour and r.trigger_side not in state.lifted:
                if self.events(state, move, after) & set(r.forbidden):
                    return False
        if not look_ahead:
            return True
        mating_drop = move.is_drop and any(rule.not_mating
                                           for rule in self.drop_rules.get(move.piece, []))
        if mating_drop or v.stalemating_illegal:
            they_are_in_check = self.in_check(after, after.side)
            rule_applies = ((mating_drop and they_are_in_check)                # uchifuzume
                            or (v.stalemating_illegal and not they_are_in_check))  # WWII 6
            if rule_applies and not self.has_legal_move(after, look_ahead=False):
                return False
        return True

    def legal_moves(self, state, look_ahead=True):
        return [m for m in self.pseudo_moves(state) if self.is_legal(state, m, look_ahead)]

    def has_legal_move(self, state, look_ahead=True):
        return any(self.is_legal(state, m, look_ahead) for m in self.pseudo_moves(state))

    # -- notation ------------------------------------------------------------------------
    def move_text(self, move, colour):
        if move.is_drop:
            white, black = self.pieces[move.piece].tokens
            return f"{(white or black.upper()).rstrip('~')}@{square_name(move.to)}"
        text = square_name(move.frm) + square_name(move.to)
        if move.promotion is not None:
            promoted = self.pieces[move.promotion]
            if promoted.letter.startswith("+"):
                text += "+"
            else:
                text += promoted.tokens[SIDES.index(colour)].lower().rstrip("~")
        return text


@dataclass(frozen=True)
class CycleFacts:
    """One move as the perpetual rules see it (identities are numbers that follow the
    pieces around the board)."""
    moved: int
    check: bool
    checkers: frozenset     # pieces of the mover attacking the enemy royal piece
    chases: frozenset       # (attacker, target): enemy non-royal pieces the mover attacks


class AmbiguousMove(Exception):
    """Two different legal moves with the same text."""


class OraclePosition:
    """A position and the moves that led to it, with the runtime's Position's queries."""

    def __init__(self, interpreter, state):
        self.rules = interpreter
        self.state = state
        self.history = []           # (state before, move, gave check) per pushed move
        self.past_keys = []         # the repetition key of each of those states
        self._legal = None
        # Identity numbers that follow the pieces (perpetual rules about "the same
        # piece"): {square: number}, and per pushed move (numbers before it, CycleFacts).
        self.identities = {sq: n for n, sq in enumerate(sorted(state.board))}
        self.issued = len(self.identities)
        self.cycle_history = []

    # -- queries -------------------------------------------------------------------------
    def legal_move_table(self):
        """{text: [Move, ...]}; more than one Move under a text is an ambiguity."""
        if self._legal is None:
            table = {}
            for move in self.rules.legal_moves(self.state):
                if self.refused_by_cycle_rule(move):
                    continue
                table.setdefault(self.rules.move_text(move, self.state.side), []).append(move)
            self._legal = table
        return self._legal

    def refused_by_cycle_rule(self, move):
        """`perpetual check illegal` (wwii.md, ambiguity 7; kjartansson.md, ambiguity 14) and
        `perpetual chase illegal` (kjartansson.md, ambiguity 15): a move may not make the
        position occur for the repetition_count-th time when, in the moves since the
        first of those occurrences, its side has checked every time (by one piece, if
        the rule says so) or chased one piece.  (Depends on the history, so perft
        does not apply it.)"""
        v = self.rules.variant
        needed = v.repetition_count
        if "illegal" not in (v.perpetual_check, v.perpetual_chase) or not needed:
            return False
        # (Only to save time: unless some position has occurred needed-1 times already,
        # no move can make one occur the needed-th time.)
        seen = Counter(self.past_keys + [self.state.key()])
        if not seen or max(seen.values()) < needed - 1:
            return False
        after = self.rules.play(self.state, move)
        ids = self.follow(move)
        mine = self.cycle_facts(move, after, ids)
        # keys[i] is the position before the i-th move; the last one is `after`.
        keys = self.past_keys + [self.state.key(), after.key()]
        occurrences = [i for i, k in enumerate(keys) if k == keys[-1]]
        if len(occurrences) >= needed:
            facts = [f for _, f in self.cycle_history[occurrences[-needed]:]] + [mine]
            mover, other = facts[::-1][0::2], facts[::-1][1::2]
            if ((v.perpetual_check == "illegal" and self.checked_throughout(mover))
                    or (v.perpetual_chase == "illegal"
                        and self.chased_throughout(mover, other))):
                return True
        # Ambiguity 15, "that side must deviate": also refused is a chasing move after
        # which the chased piece could complete the repetition itself.
        if v.perpetual_chase != "illegal":
            return False
        for reply in self.rules.legal_moves(after):
            if reply.is_drop:
                continue
            final = self.rules.play(after, reply).key()
            occurrences = [i for i, k in enumerate(keys + [final]) if k == final]
            if len(occurrences) < needed:
                continue
            facts = [f for _, f in self.cycle_history[occurrences[-needed]:]] + [mine]
            chaser, chased = facts[::-1][0::2], facts[::-1][1::2]
            moved_piece = CycleFacts(ids[reply.frm], False, frozenset(), frozenset())
            if self.chased_throughout(chaser, chased + [moved_piece]):
                return True
        return False

    # -- the perpetual rules' view of a move ----------------------------------------------
    def follow(self, move):
        """The identity numbers after `move` (from the current position)."""
        ids = dict(self.identities)
        if move.is_drop:
            ids[move.to] = self.issued
        elif move.castling is not None:
            king = ids.pop(move.frm)
            rook = ids.pop(parse_square_name(move.castling.rook_from))
            ids[move.to] = king
            ids[parse_square_name(move.castling.rook_to)] = rook
        else:
            if move.en_passant:
                del ids[self.state.ep[1]]
            ids.pop(move.to, None)
            ids[move.to] = ids.pop(move.frm)
        return ids

    def cycle_facts(self, move, after, ids):
        """What the perpetual rules need of a move: the piece that moved, whether it
        gave check, which pieces attack the enemy royal and which enemy non-royal
        pieces each piece of the mover attacks (by identity) after it."""
        colour = self.state.side
        checkers, chases = set(), set()
        v = self.rules.variant
        needed = v.perpetual_chase or v.perpetual_check_one_piece
        for frm, target in self.rules.attacks_of(after, colour) if needed else ():
            if after.board[target][0] in self.rules.royals:
                checkers.add(ids[frm])
            else:
                chases.add((ids[frm], ids[target]))
        return CycleFacts(ids[move.to], self.rules.in_check(after, after.side),
                          frozenset(checkers), frozenset(chases))

    def checked_throughout(self, facts):
        """Every one of these moves gave check (by one and the same piece, if the
        variant says `perpetual check by one piece`)."""
        if not facts or not all(f.check for f in facts):
            return False
        if self.rules.variant.perpetual_check_one_piece:
            return any(all(piece in f.checkers for f in facts) for piece in facts[0].checkers)
        return True

    def chased_throughout(self, facts, replies):
        """After each of these moves, one piece attacked one and the same enemy piece,
        and each reply moved that piece (kjartansson.md, ambiguity 15)."""
        return bool(facts and replies) and any(
            all((attacker, target) in f.chases for f in facts)
            and all(r.moved == target for r in replies)
            for attacker, target in facts[0].chases)

    def legal_moves(self):
        return set(self.legal_move_table())

    def ambiguous_moves(self):
        return {t: ms for t, ms in self.legal_move_table().items() if len(set(ms)) > 1}

    def is_check(self):
        return self.rules.in_check(self.state, self.state.side)

    def fen(self):
        return self.rules.fen(self.state)

    @property
    def turn(self):
        return self.state.side

    def outcome(self):
        """None while the game goes on, else (winner, reason), as Position.outcome()."""
        v = self.rules.variant
        side = self.state.side
        if not self.legal_move_table():
            if self.is_check():
                return opponent(side), "checkmate"
            return result(v.stalemate, side, "stalemate")
        repeated = self.repetition()
        if repeated is not None:
            return repeated
        if v.move_rule and self.state.halfmove >= 2 * v.move_rule:
            return None, "move rule"
        return None

    def repetition(self):
        v = self.rules.variant
        needed = v.repetition_count
        if not needed:
            return None
        keys = self.past_keys + [self.state.key()]
        occurrences = [i for i, k in enumerate(keys) if k == keys[-1]]
        if len(occurrences) < needed:
            return None
        side_now = self.state.side
        facts = [f for _, f in self.cycle_history[occurrences[-needed]:]]
        by_last_mover, by_other = facts[::-1][0::2], facts[::-1][1::2]
        # The side that broke a perpetual rule declared `loses` loses.
        for broke, replies, winner in ((by_last_mover, by_other, side_now),
                                       (by_other, by_last_mover, opponent(side_now))):
            if v.perpetual_check == "loses" and self.checked_throughout(broke):
                return winner, "perpetual check"
            if v.perpetual_chase == "loses" and self.chased_throughout(broke, replies):
                return winner, "perpetual chase"
        return result(v.repetition_result, side_now, "repetition")

    # -- moves ---------------------------------------------------------------------------
    def push(self, text, prefer=None):
        """Play a move given as text.  If the text names several different moves,
        `prefer(moves)` chooses one, else AmbiguousMove is raised."""
        table = self.legal_move_table()
        if text not in table:
            raise ValueError(f"illegal move {text} in {self.fen()}")
        moves = list(dict.fromkeys(table[text]))
        if len(moves) > 1:
            if prefer is None:
                raise AmbiguousMove(f"{text} is {moves} in {self.fen()}")
            move = prefer(moves)
        else:
            move = moves[0]
        before = self.state
        after = self.rules.play(before, move)
        ids = self.follow(move)
        self.cycle_history.append((self.identities, self.cycle_facts(move, after, ids)))
        if move.is_drop:
            self.issued += 1
        self.identities = ids
        self.state = after
        self._legal = None
        self.history.append((before, move, self.is_check()))
        self.past_keys.append(before.key())
        return move

    def pop(self):
        before, move, _ = self.history.pop()
        self.past_keys.pop()
        self.identities, _ = self.cycle_history.pop()
        self.state = before
        self._legal = None
        return move

    def perft(self, depth):
        """Leaf count of the move tree, bulk-counted at the last ply."""
        if depth == 0:
            return 1
        moves = self.rules.legal_moves(self.state)
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            child = OraclePosition(self.rules, self.rules.play(self.state, move))
            total += child.perft(depth - 1)
        return total


def result(rule_result, side_to_move, reason):
    """(winner, reason) from a rule's result for the side to move."""
    if rule_result == "draw":
        return None, reason
    if rule_result == "loss":
        return opponent(side_to_move), reason
    return side_to_move, reason
