"""Which positions a game allows: the one check of a FEN against a game's rules.

`fairyforge check` runs it on the setup (compiler/resolve.py), and the runtime on
every FEN it reads (fairyforge.position), so the two can never disagree.  It works on
the rule model and a ParsedFen whose pieces are (type index, colour) pairs, and
answers with every problem as (FEN field, message), in the order the fields are read.
"""

import functools
import re

from fairyforge.encoding import MAX_HAND
from fairyforge.fen import parse_fen, parse_square, square_name

from .geometry import PieceWalk, orient, squares_of
from .rules import chess960, counting, first_moves, gating

# The engine's limit for a counting rule's plies (MAX_PLAIN_COUNTER, compiler/core/board.pxi).
MAX_PLAIN_COUNTER = 30000

SIDES = ("white", "black")


def token_table(variant):
    """FEN token -> (type index, colour)."""
    return {tok: (i, colour) for i, p in enumerate(variant.pieces)
            for colour, tok in enumerate(p.tokens) if tok is not None}


@functools.lru_cache(maxsize=64)
def rules_for(variant):
    """The PositionRules of a variant, worked out once per process (`check` and the
    runtime loading the same game share them)."""
    return PositionRules(variant)


class PositionRules:
    """A game's rules about positions, worked out once per game."""

    def __init__(self, variant):
        self.v = variant
        self.types = {p.name: i for i, p in enumerate(variant.pieces)}
        self.royal = next((i for i, p in enumerate(variant.pieces) if p.royal), None)
        # (the pieces a hand may hold: the droppable and the gated ones)
        self.droppable = ({self.types[d.piece] for d in variant.drops}
                          | {self.types[name] for name in variant.gate_pieces})
        self.walks = [[PieceWalk.of(variant, p, colour) for colour in (0, 1)]
                      for p in variant.pieces]
        setup = parse_fen(variant.setup, variant.files, variant.ranks, token_table(variant))
        self.castling = self._castling(setup)
        self.castling_files = self._castling_files()
        # First-move rights (compiler/rules/first_moves.py), also in the castling field.
        self.first_rights = {r["letter"]: r for r in first_moves.rights(variant)}
        self.reachable = self._reachable(setup)

    # -- what is worked out once ----------------------------------------------------------
    def _castling_files(self):
        """Shredder-FEN letter (the rook's file, `H`, `a`) -> its K/Q letter, for the
        rights whose file letter is not itself K, Q, k or q."""
        files = {}
        for letter, (colour, _, rook, *_) in self.castling.items():
            file = chr(ord("a") + rook[0])
            file = file.upper() if colour == 0 else file
            if file not in self.castling:
                files[file] = letter
        return files

    def castling_rights(self, text):
        """The K/Q letters of a FEN castling field, read as X-FEN (`KQkq`) or
        Shredder-FEN (`HAha`)."""
        return [] if text == "-" else [c if c in self.first_rights
                                       else self.castling_files.get(c, c) for c in text]

    def _castling(self, setup):
        """FEN letter -> (colour, king square, rook square, the setup's piece there);
        self.castling_bits: FEN letter -> the option's bit (its statement's place)."""
        rights, self.castling_bits = {}, {}
        for bit, c in enumerate(self.v.castling):
            colour = SIDES.index(c.side)
            king = parse_square(c.king_from, self.v.files, self.v.ranks)
            rook = parse_square(c.rook_from, self.v.files, self.v.ranks)
            letter = "K" if rook[0] > king[0] else "Q"
            self.castling_bits[letter if colour == 0 else letter.lower()] = bit
            rights[letter if colour == 0 else letter.lower()] = (
                colour, king, rook, setup.board.get(rook) or self._dropped_rook(colour),
                self._castling_piece(c, colour))
        return rights

    def _castling_piece(self, castling, colour):
        """The (type, colour) that castles: the castling's own piece (the royal one, or
        giveaway's and nocheckatomic's ordinary king), None if there is none."""
        typ = self.types.get(castling.piece, self.royal)
        return None if typ is None else (typ, colour)

    def _name(self, piece):
        return "king" if piece is None else self.v.pieces[piece[0]].name

    def _dropped_rook(self, colour):
        """`castling with dropped ROOK` (placement): the rook when the setup has none."""
        names = [p.name for p in self.v.pieces]
        rook = self.v.castling_dropped_rook
        return (names.index(rook), colour) if rook else None

    def _seeds(self, setup):
        """Where each type and colour can appear without moving there: the setup,
        drops, promotions and castling."""
        v, files, ranks = self.v, self.v.files, self.v.ranks
        everywhere = {(f, r) for f in range(files) for r in range(ranks)}
        seeds = [[set(), set()] for _ in v.pieces]
        for square, (typ, colour) in setup.board.items():
            seeds[typ][colour].add(square)
        for drop in v.drops:
            for colour, side in enumerate(SIDES):
                seeds[self.types[drop.piece]][colour] |= squares_of(drop.zone.for_side(side),
                                                                    files, ranks)
        for piece in v.pieces:
            if piece.promotion is None:
                continue
            for colour, side in enumerate(SIDES):
                zone = (everywhere if piece.promotion.on_leaving
                        else squares_of(piece.promotion.zone.for_side(side), files, ranks))
                for choice in piece.promotion.choices:
                    seeds[self.types[choice]][colour] |= zone
        for name in v.extra_pieces:                # `extra pieces`: a FEN's, anywhere
            seeds[self.types[name]] = [set(everywhere), set(everywhere)]
        for name in v.gate_pieces:                 # gated onto the back ranks
            for colour in (0, 1):
                rank = 0 if colour == 0 else ranks - 1
                seeds[self.types[name]][colour] |= {(f, rank) for f in range(files)}
        for colour, king, rook, found, king_piece in self.castling.values():
            c = next(c for c in v.castling if SIDES.index(c.side) == colour
                     and parse_square(c.rook_from, files, ranks) == rook)
            if king_piece is not None:
                seeds[king_piece[0]][colour].add(parse_square(c.king_to, files, ranks))
            if found is not None:
                seeds[found[0]][found[1]].add(parse_square(c.rook_to, files, ranks))
        return seeds

    def _reachable(self, setup):
        """For each type and colour, the squares a piece of it could ever stand on: a
        superset of the truth, so a FEN is only refused for a square no game could
        reach, such as a chess pawn on its first rank."""
        seeds = self._seeds(setup)
        out = []
        for typ, piece in enumerate(self.v.pieces):
            per_colour = []
            for colour, side in enumerate(SIDES):
                must_promote = set()
                if piece.promotion is not None:
                    files, ranks = self.v.files, self.v.ranks
                    must_promote = (squares_of(piece.promotion.zone.for_side(side), files, ranks)
                                    & squares_of(piece.promotion.forced.for_side(side),
                                                 files, ranks))
                per_colour.append(self.walks[typ][colour].closure(seeds[typ][colour],
                                                                  must_promote))
            out.append(per_colour)
        return out

    # -- the checks ---------------------------------------------------------------------
    def problems(self, parsed):
        """Every problem of a position (a ParsedFen of (type, colour) pieces)."""
        found = []
        found += self._board_problems(parsed)
        found += self._hand_problems(parsed)
        found += self._royal_problems(parsed)
        found += self._castling_problems(parsed)
        found += self._en_passant_problems(parsed)[1]
        found += self._lifted_problems(parsed)
        found += self._check_count_problems(parsed)
        found += self._counting_problems(parsed)
        found += self._clock_problems(parsed)
        if not found:
            found += self._check_problems(parsed)
        return found

    def _board_problems(self, parsed):
        out = []
        for square, (typ, colour) in parsed.board.items():
            piece, where = self.v.pieces[typ], square_name(*square)
            walk = self.walks[typ][colour]
            what = f"a {SIDES[colour]} {piece.name} on {where}"
            if walk.confine is not None and square not in walk.confine:
                out.append(("board", f"{what} is outside the area it is confined to"))
            elif piece.promotion is not None and not walk.can_move_from(square) \
                    and not self.v.dead_drops_allowed:
                # Its promotion is forced where it could never move again: it cannot
                # stand there unpromoted (unless `stuck pieces allowed`).  (A piece that
                # never promotes can get stuck.)
                out.append(("board", f"{what} could never move again"))
            elif square not in self.reachable[typ][colour]:
                out.append(("board", f"a {SIDES[colour]} {piece.name} can never stand on "
                            f"{where}: no move, drop or promotion of {self.v.title} puts "
                            "one there"))
        return out

    def _hand_problems(self, parsed):
        if parsed.holdings and not (self.v.drops or self.v.gate_pieces):
            return [("holdings", f"{self.v.title} has no pieces in hand")]
        out, counts = [], {}
        for typ, colour in parsed.holdings:
            counts[(typ, colour)] = counts.get((typ, colour), 0) + 1
        for (typ, colour), count in sorted(counts.items()):
            held = f"{SIDES[colour]} {self.v.pieces[typ].name}"
            if typ not in self.droppable:
                placed = " or gated" if self.v.gate_pieces else ""
                out.append(("holdings", f"the {held} in hand could never be dropped{placed}"))
            elif count > MAX_HAND - 1:
                out.append(("holdings", f"{count} {held}s in hand, at most {MAX_HAND - 1} "
                            "are supported"))
        captures_to_hand = self.v.captures.to_hand_white or self.v.captures.to_hand_black
        # A capture adds to a hand, whose counts stay below MAX_HAND: no hand can pass
        # that if there are no more pieces than that to capture or hold.  The engine's
        # own bound (set_state) counts every piece in hand, a royal one waiting to be
        # deployed included, and every piece on the board but the royal ones.
        in_hand = len(parsed.holdings)
        on_board = sum(1 for typ, _ in parsed.board.values() if typ != self.royal)
        if captures_to_hand and in_hand + on_board > MAX_HAND - 1:
            out.append(("board", f"{in_hand + on_board} pieces in play ({in_hand} in hand and "
                        f"{on_board} on the board besides the royal ones): with captures "
                        f"going to hand, at most {MAX_HAND - 1} are supported"))
        return out

    def _royal_problems(self, parsed):
        if self.royal is None:
            return []
        out, piece = [], self.v.pieces[self.royal]
        for colour, side in enumerate(SIDES):
            if piece.tokens[colour] is None:
                continue
            # The royal piece is never captured: exactly one per side, on the board or
            # (during a deployment phase) in hand.  Where a blast can destroy it, the
            # side to move may have none: the last move blew it up and the game is over.
            count = (sum(1 for p in parsed.board.values() if p == (self.royal, colour))
                     + sum(1 for p in parsed.holdings if p == (self.royal, colour)))
            if count == 0 and side == parsed.side and self._royal_can_explode():
                continue
            if count != 1:
                out.append(("board", f"{side} must have one {piece.name} (on the board or "
                            f"in hand), the position gives it {count}"))
        return out

    def _first_right_problems(self, parsed, right):
        """A first-move right whose piece is not on its square could never be used."""
        colour, piece = right["colour"], right["piece"]
        if parsed.board.get(right["square"]) != (right["type"], colour):
            return [("castling", f"'{right['letter']}': no {SIDES[colour]} {piece} on "
                     f"{square_name(*right['square'])} to make its first move")]
        return []

    def rights(self, parsed):
        """(castling K/Q letters, gated squares) of the FEN's castling field; gated
        squares are (file, rank) pairs, only in a game with gating (read as
        Fairy-Stockfish reads them: gating.read_rights)."""
        if self.v.chess960_castling:
            return [], chess960.read_rights(self, parsed)[1]
        if not self.v.gate_pieces:
            return self.castling_rights(parsed.castling), set()
        letters, gates, _ = gating.read_rights(self, parsed)
        return letters, gates

    def _royal_can_explode(self):
        """Can a blast destroy the royal piece (`captures explode`, and it is not
        spared everywhere)?"""
        return (self.v.explosions and self.royal is not None
                and self.v.pieces[self.royal].name not in self.v.explosion_immune)

    def _castling_problems(self, parsed):
        if parsed.castling == "-":
            return []
        if self.v.chess960_castling:
            return chess960.read_rights(self, parsed)[2]
        out, seen = [], set()
        letters = self.castling_rights(parsed.castling)
        if self.v.gate_pieces:
            letters, _, out = gating.read_rights(self, parsed)
        rights = "".join(self.castling) or "none"
        if self.castling_files:
            rights += ", or by the rooks' files: " + "".join(self.castling_files)
        if self.first_rights:
            rights += ", first moves: " + "".join(self.first_rights)
        for letter in letters:
            if letter in self.first_rights and letter not in seen:
                seen.add(letter)
                out += self._first_right_problems(parsed, self.first_rights[letter])
                continue
            if letter not in self.castling:
                out.append(("castling", f"'{letter}' is not a castling right of this game "
                            f"(rights: {rights})"))
                continue
            if letter in seen:
                out.append(("castling", f"'{letter}' is given twice"))
            seen.add(letter)
            colour, king, rook, rook_piece, king_piece = self.castling[letter]
            # A right whose king or rook is not on its square could never be used (and
            # Fairy-Stockfish would drop it): refuse it rather than keep a dead right.
            if king_piece is None or parsed.board.get(king) != king_piece:
                out.append(("castling", f"'{letter}': the {SIDES[colour]} "
                            f"{self._name(king_piece)} is not on {square_name(*king)}"))
            elif rook_piece is None or parsed.board.get(rook) != rook_piece:
                out.append(("castling", f"'{letter}': no {SIDES[colour]} piece to castle "
                            f"with on {square_name(*rook)}"))
        return out

    def en_passant_squares(self, parsed):
        """(the en passant square, the square of the piece an en passant capture
        takes), or None when the field is `-`."""
        return self._en_passant_problems(parsed)[0]

    def _en_passant_problems(self, parsed):
        text = parsed.en_passant
        if text == "-":
            return None, []
        if not self.v.en_passant:
            return None, [("en passant", f"{self.v.title} has no en passant, but the en "
                           f"passant field is '{text}'")]
        names = re.findall(r"[a-z][0-9]*", text)
        squares = [parse_square(name, self.v.files, self.v.ranks) for name in names]
        if "".join(names) != text or len(names) > 2:
            return None, [("en passant", f"'{text}' must be a square, or the square passed "
                           "and the square of the piece that passed it (e3e4)")]
        if None in squares:
            bad = names[squares.index(None)]
            return None, [("en passant", f"'{bad}' is not a square of the board")]
        # Fairy-Stockfish's two-square form names the square passed (empty) and the
        # piece's square (occupied), in either order.
        passed = [s for s in squares if s not in parsed.board]
        named = [s for s in squares if s in parsed.board]
        if len(passed) == 1:
            for victim in self._passers(parsed, passed[0]):
                if victim in named or not named:
                    return (passed[0], victim), []
        mover = SIDES[0 if parsed.side == "black" else 1]
        return None, [("en passant", f"no {mover} piece has just passed {text}")]

    def _passers(self, parsed, square):
        """The squares of the pieces that may have just passed `square`."""
        mover = 0 if parsed.side == "black" else 1
        for step in self._double_steps(mover):
            victim = (square[0] + step[0], square[1] + step[1])
            origin = (square[0] - step[0], square[1] - step[1])
            piece = parsed.board.get(victim)
            # The piece that just passed the square must be one that can be taken en
            # passant, and the square it came from must be empty.
            if (piece is not None and piece[1] == mover
                    and self.v.pieces[piece[0]].name in self._ep_movers()
                    and self._on_board(origin) and origin not in parsed.board):
                yield victim

    def _double_steps(self, colour):
        """Half of each double step that can be taken en passant, as `colour` moves
        (the engine's passed square is the middle of the step)."""
        steps = []
        for piece in self.v.pieces:
            if piece.name not in self._ep_movers():
                continue
            for a in piece.moves:
                if a.moves and a.lame_path:
                    dx, dy = orient(a.dx, a.dy, colour, self.v.symmetry)
                    if (dx // 2, dy // 2) not in steps:
                        steps.append((dx // 2, dy // 2))
        return steps

    def _ep_movers(self):
        """The pieces whose double steps may be taken en passant: the `en passant` ones
        and those of `mark every double step of …` (compiler/rules/ep_marking.py)."""
        return set(self.v.en_passant) | set(self.v.ep_marked_pieces)

    def _on_board(self, square):
        return 0 <= square[0] < self.v.files and 0 <= square[1] < self.v.ranks

    def _lifted_problems(self, parsed):
        text = parsed.lifted
        if not self.v.restrictions:
            return [] if text == "-" else [("fen", f"unexpected extra field '{text}'")]
        if text != "-" and (not set(text) <= {"w", "b"} or len(set(text)) != len(text)):
            return [("restrictions", f"'{text}' must be -, w, b or wb")]
        return []

    def engine_counters(self, parsed):
        """(the engine's rule counters, its halfmove clock) for a position: n-check's
        checks still to give, then a counting rule's limit and plies counted, which
        stand in the FEN's halfmove clock field (Fairy-Stockfish's convention)."""
        counters, halfmove = (), parsed.halfmove
        if self.v.check_count:
            counters += self.checks_left(parsed)
        if self.v.counting and parsed.counting_limit:
            counters, halfmove = counters + (parsed.counting_limit, parsed.halfmove), 0
        elif self.v.counting and self.v.check_count:
            counters += (0, 0)
        return counters or (0, 0), halfmove

    def _counting_problems(self, parsed):
        limit = parsed.counting_limit
        if limit is None:
            return []
        if not self.v.counting:
            return [("counting", f"{self.v.title} has no counting rule, but the FEN gives a "
                     f"counting limit ({limit}) in place of the en passant field")]
        allowed = counting.fen_limits(self.v.counting)
        if limit == 0:
            return []               # Fairy-Stockfish's "not counting" (cambodian's suite row)
        if limit not in allowed:
            return [("counting", f"{limit} is not a limit of {self.v.counting} counting "
                     f"(in plies: {', '.join(map(str, allowed))})")]
        if parsed.halfmove > MAX_PLAIN_COUNTER:
            return [("counting", f"{parsed.halfmove} plies counted: at most "
                     f"{MAX_PLAIN_COUNTER} are supported")]
        return []

    def checks_left(self, parsed):
        """(White's, Black's) checks still to give, in a game with a check count:
        from either FEN form; (N, N), none given yet, when the FEN has neither."""
        n = self.v.check_count
        if parsed.checks_given is not None:
            return tuple(max(n - given, 0) for given in parsed.checks_given)
        return parsed.checks_left if parsed.checks_left is not None else (n, n)

    def _check_count_problems(self, parsed):
        n = self.v.check_count
        given = parsed.checks_left is not None or parsed.checks_given is not None
        if not n:
            return [("check counters", f"{self.v.title} does not count checks")] if given else []
        if parsed.checks_left is not None and parsed.checks_given is not None:
            return [("check counters", "given twice, as checks to give (3+3) and as checks "
                     "given (+0+0)")]
        counts, what = ((parsed.checks_given, "given") if parsed.checks_given is not None
                        else (parsed.checks_left, "still to give"))
        for colour, count in enumerate(counts or ()):
            if count > n:
                return [("check counters", f"{SIDES[colour]} has {count} checks {what}, but "
                         f"{n} checks win the game")]
        mover = SIDES.index(parsed.side)
        if self.checks_left(parsed)[mover] == 0:
            return [("check counters", f"{parsed.side} has given all {n} checks, so the game "
                     f"ended before it was {parsed.side}'s turn")]
        return []

    def _clock_problems(self, parsed):
        if parsed.counting_limit is not None:
            return []           # the field holds the plies counted, not the clock
        # The halfmove clock counts plies since the last capture or pawn move: never
        # more than the plies played (the fullmove number counts White's moves).
        played = 2 * (parsed.fullmove - 1) + (parsed.side == "black")
        if parsed.halfmove > played:
            return [("halfmove clock", f"{parsed.halfmove} plies since the last capture "
                     f"or pawn move, but only {played} have been played by move "
                     f"{parsed.fullmove}")]
        return []

    def _check_problems(self, parsed):
        """The side that just moved may not be in check (it could not have left
        itself so)."""
        side = 0 if parsed.side == "white" else 1
        them = 1 - side
        royal = next((sq for sq, p in parsed.board.items() if p == (self.royal, them)), None)
        # wall squares block lines as pieces do (and screen hoppers, as in FSF)
        board = {**parsed.board, **{sq: (None, None) for sq in parsed.walls}}
        if royal is not None and self.v.pieces[self.royal].name in self.v.petrify_on_capture:
            # a royal piece that would turn into a wall may not capture: it gives no check
            board.update({sq: (None, None) for sq, p in parsed.board.items()
                          if p == (self.royal, side)})
        if royal is not None and self.attacked(board, royal, side) \
                and not self._touching_royals_safe(parsed.board, royal, side):
            return [("board", f"{SIDES[them]} is in check but it is {SIDES[side]}'s turn")]
        return []

    def _touching_royals_safe(self, board, royal, colour):
        """With explosions, a royal piece beside `colour`'s royal piece is not in
        check (its taker would blow up its own), nor is any once `colour`'s has
        exploded."""
        if not self.v.explosions:
            return False
        other = next((sq for sq, p in board.items() if p == (self.royal, colour)), None)
        # Once `colour`'s royal piece has exploded, the game is over and nothing is check.
        return other is None or max(abs(other[0] - royal[0]), abs(other[1] - royal[1])) == 1

    def attacked(self, board, square, by_colour):
        """Is `square` attacked by a piece of `by_colour` on `board`?"""
        return any(square in self.walks[typ][colour].captures(board, origin)
                   for origin, (typ, colour) in board.items() if colour == by_colour)
