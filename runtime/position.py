"""Positions: the python-chess-like API over a generated engine.

A Position owns one engine object (the compiled module's Engine) and the history of
the moves pushed on it.  FEN is read and written here, in Python, from the game's
META table; nothing reaches the compiled code before it has been checked.
"""

from collections import Counter
from dataclasses import dataclass
from typing import Optional

from . import cycles
from .compiler.rules import chess960
from .encoding import F_DROP, OFF, move_from, piece_code
from .errors import (ArgumentError, EmptyHistoryError, FenError, IllegalMoveError,
                     InvalidMoveError)
from .fen import COUNTER_LIMIT, ENGINE_COUNTER_LIMIT, parse_fen, square_name
from .fen_out import write_fen
from .move import Move
from . import refusals
from .refusals import game_end_reason

SIDES = ("white", "black")


@dataclass(frozen=True)
class Outcome:
    """How a game ended: `winner` is "white", "black" or None (a draw)."""

    winner: Optional[str]
    reason: str


class Position:
    """A position of a game, with the moves that led to it from where it was set up."""

    def __init__(self, game, fen, *, counter_limit=COUNTER_LIMIT):
        # counter_limit: the largest halfmove clock and fullmove number read (copy()
        # reads the engine's own FEN up to the engine's limit).
        self.game = game
        self._engine = game.module.Engine()
        self._records = []             # for each pushed move: a cycles.Record
        self._moves = []               # the pushed Moves, oldest first
        self._setup_fen = fen
        self._load_fen(fen, counter_limit)
        meta = game.meta
        # Piece identities, for the rules about one and the same piece in a cycle.
        self._tracker = (cycles.PieceTracker(self._engine, meta)
                         if cycles.needs_identities(meta) else None)

    @property
    def engine(self):
        """The compiled engine behind this position: the handle that search, play,
        playtest, UCI and the play diff use for what the Position API does not cover
        (searching, raw move codes).  Moves pushed on it bypass the history rules."""
        return self._engine

    # -- FEN in --------------------------------------------------------------------------
    def _load_fen(self, fen, counter_limit):
        """Check a FEN against the game's rules (the same check `fairyforge check`
        makes of the setup: compiler/positions.py) and set the engine to it."""
        game, meta = self.game, self.game.meta
        parsed = parse_fen(fen, meta["files"], meta["ranks"], game.token_table, counter_limit)
        problems = game.position_rules.problems(parsed)
        if problems:
            raise FenError(*problems[0], fen)
        index = game.notation.index_of_square
        pieces = [(index[square_name(*square)], piece_code(typ, colour))
                  for square, (typ, colour) in parsed.board.items()]
        pieces += [(index[square_name(*square)], OFF) for square in parsed.walls]
        ntypes = len(meta["pieces"])
        hands = [0] * (2 * ntypes)
        for typ, colour in parsed.holdings:
            hands[colour * ntypes + typ] += 1
        ep, victim = game.position_rules.en_passant_squares(parsed) or ((), ())
        counters, halfmove = game.position_rules.engine_counters(parsed)
        self._engine.set_state(
            pieces, hands, SIDES.index(parsed.side), self._castling_bits(parsed),
            index[square_name(*ep)] if ep else 0, index[square_name(*victim)] if ep else 0,
            halfmove, parsed.fullmove,
            (1 if "w" in parsed.lifted else 0) | (2 if "b" in parsed.lifted else 0), counters)
        self.notation = game.notation
        if meta["chess960_castling"]:
            self._set_castling_squares(parsed)

    def _set_castling_squares(self, parsed):
        """`chess960 castling`: the king's and rooks' squares the FEN gives castle."""
        rights, _, _ = chess960.read_rights(self.game.position_rules, parsed)
        index, kings = self.game.notation.index_of_square, [0, 0]
        rooks = [0] * len(self.game.meta["castling"])
        for bit, (king, rook) in rights.items():
            kings[0 if king[1] == 0 else 1] = index[square_name(*king)]
            rooks[bit] = index[square_name(*rook)]
        self._engine.set_castling_squares(kings, rooks)
        self.notation = self.game.notation.with_castling_rooks(dict(enumerate(rooks)))

    def _castling_bits(self, parsed):
        """The castling rights' bits, with the first-move rights (rules/first_moves.py)
        after them, and a game with gating's rights (above them all)."""
        meta, rules = self.game.meta, self.game.position_rules
        bits = {c["fen"]: 1 << c["bit"] for c in meta["castling"]}
        bits.update((letter, 1 << right["bit"]) for letter, right in rules.first_rights.items())
        if meta["chess960_castling"]:        # (rights by the FEN's own king and rooks)
            rights, gates, _ = chess960.read_rights(rules, parsed)
            letters = [c["fen"] for c in meta["castling"] if c["bit"] in rights]
        else:
            letters, gates = rules.rights(parsed)
        gate_bits = {(b["file"], 0 if b["colour"] == 0 else meta["ranks"] - 1): b["mask"]
                     for b in meta["gating"]["bits"]}
        return (sum(bits[letter] for letter in set(letters) if letter in bits)
                + sum(gate_bits[square] for square in gates))

    # -- FEN out --------------------------------------------------------------------------
    def fen(self):
        """The position in Fairy-Stockfish's FEN style (runtime/fen_out.py)."""
        return write_fen(self.game, self._engine)

    # -- moves ----------------------------------------------------------------------------
    @property
    def turn(self):
        return SIDES[self._engine.state()[0]]

    def legal_moves(self):
        """The legal moves, history-dependent rules (perpetual check and chase) included."""
        notation, colour = self.notation, self._engine.state()[0]
        board = tuple(self._engine.board())          # gives the Moves piece and capture
        return [notation.move(code, colour, board) for code in self._legal_codes()]

    def _legal_codes(self):
        codes = self._engine.legal_moves()
        if cycles.refuses_moves(self.game.meta) and self._could_repeat():
            codes = [c for c in codes if self._cycle_rule_broken(c) is None]
        return codes

    def _is_legal(self, move):
        """Is `move` one of legal_moves()?  (Tested on its code, then on the one Move
        that code makes here, so that a push in a wide game, such as the duck's with
        about 2,000 moves, does not build a Move for each of them.)"""
        if move.code not in self._legal_codes():
            return False
        board = tuple(self._engine.board())
        return self.notation.move(move.code, self._engine.state()[0], board) == move

    def _could_repeat(self):
        """Has some position of the history occurred often enough that one more move
        could complete the repetition?  (Cheap; spares the test of every move.)"""
        keys = self._engine.history_keys() + [self._engine.key()]
        return cycles.most_repeated(keys) >= self.game.meta["repetition_count"] - 1

    def _cycle_rule_broken(self, code):
        """Why this legal move breaks a perpetual rule declared `illegal` (a reason for
        an error message), or None.  Such a move would make the position occur for the
        N-th time while its side checked, or chased one piece, throughout the cycle --
        or it would continue a chase that the chased piece could end by completing the
        repetition itself (so the chasing side must deviate before, docs/rules/kjartansson.md,
        ambiguity 15)."""
        meta, engine = self.game.meta, self._engine
        before = self._tracker.board() if self._tracker else None
        mover = engine.state()[0]
        engine.push(code)
        try:
            keys = engine.history_keys() + [engine.key()]
            ids, record = self._record(code, before, mover)
            first = cycles.cycle_moves(keys, meta["repetition_count"])
            if first is not None:
                mine, theirs = cycles.split_sides(self._records[first:] + [record])
                if meta["perpetual_check"] == "illegal" and cycles.perpetual_check(
                        mine, meta["perpetual_check_one_piece"]):
                    return "it would repeat the position with a perpetual check"
                if meta["perpetual_chase"] == "illegal" and cycles.perpetual_chase(
                        mine, theirs):
                    return "it would repeat the position with a perpetual chase"
            if (meta["perpetual_chase"] == "illegal" and record.chases
                    and self._reply_completes_chase(keys, ids, record)):
                return ("it would go on with a perpetual chase: the chased piece could "
                        "repeat the position")
            return None
        finally:
            engine.pop()

    def _reply_completes_chase(self, keys, ids, record):
        """Could the opponent answer the move just made (its identities and Record
        given, `keys` ending with its position) with a move of the chased piece that
        makes the position occur for the N-th time, completing a perpetual chase?"""
        needed = self.game.meta["repetition_count"]
        counts = Counter(keys)
        for reply, key in self._engine.child_keys():
            if reply & F_DROP or counts[key] < needed - 1:
                continue
            first = cycles.cycle_moves(keys + [key], needed)
            moved = cycles.Record(ids[move_from(reply)], False, frozenset(), frozenset())
            theirs, mine = cycles.split_sides(self._records[first:] + [record, moved])
            if cycles.perpetual_chase(mine, theirs):
                return True
        return False

    def _record(self, code, before, mover):
        """(identities or None, cycles.Record) of the move the engine has just made."""
        if self._tracker is None:
            return None, cycles.Record(-1, self._engine.is_check(), frozenset(), frozenset())
        return self._tracker.after(code, before, mover)

    def push(self, move):
        """Play a Move (from legal_moves) or a UCI string."""
        if isinstance(move, str):
            return self.push_uci(move)
        if not isinstance(move, Move):
            raise InvalidMoveError(repr(move), "a move must be a Move (from legal_moves) or a "
                                   f"string such as e2e4, got {type(move).__name__}")
        if not self._is_legal(move):
            raise IllegalMoveError(str(move), f"illegal move {move} in {self.fen()}")
        before = self._tracker.board() if self._tracker else None
        mover = self._engine.state()[0]
        self._engine.push(move.code)
        ids, record = self._record(move.code, before, mover)
        if self._tracker:
            self._tracker.push(ids)
        self._records.append(record)
        self._moves.append(move)
        return move

    def push_uci(self, text):
        """Play a move given as text (e2e4, e7e8q, b2h8+, P@e4); returns the Move."""
        if not isinstance(text, str):
            raise InvalidMoveError(repr(text), f"a move must be a string, got {type(text).__name__}")
        text = text.strip()
        for move in self.legal_moves():
            if move.uci == text:
                return self.push(move)
        raise refusals.why_not(self, text)

    def pop(self):
        """Take back the last move and return it."""
        if self._engine.ply() == 0:
            raise EmptyHistoryError("pop() from a position with no moves to take back")
        self._engine.pop()
        self._records.pop()
        if self._tracker:
            self._tracker.pop()
        return self._moves.pop()

    @property
    def move_stack(self):
        """The moves pushed since the position was set up, oldest first (as python-chess)."""
        return list(self._moves)

    def copy(self):
        other = Position(self.game, self.fen(), counter_limit=ENGINE_COUNTER_LIMIT)
        return other

    # -- queries --------------------------------------------------------------------------
    def is_check(self):
        return self._engine.is_check()

    def perft(self, depth):
        """Leaf nodes `depth` plies down (0 to MAX_PERFT_DEPTH).  Ctrl-C stops it at
        once with KeyboardInterrupt."""
        return self._engine.perft(_perft_depth(depth, 0))

    def divide(self, depth):
        """[(move, leaf count)] for every legal move: perft's first ply (depth >= 1)."""
        notation, colour = self.notation, self._engine.state()[0]
        return [(notation.move(code, colour), count)
                for code, count in self._engine.divide(_perft_depth(depth, 1))]

    def key(self):
        return self._engine.key()

    def outcome(self):
        """None while the game goes on, else an Outcome (winner, reason)."""
        return _draw_odds(self.game.variant, self._rules_outcome())

    def _rules_outcome(self):
        meta = self.game.meta
        side = self._engine.state()[0]
        ended = self._engine.game_end()
        if ended is not None:               # a rule such as extinction ended the game
            return _result(ended[0], side, game_end_reason(ended[1]))
        if not self.legal_moves():
            if self._engine.is_check():
                return Outcome(SIDES[1 - side], "checkmate")
            return _result(meta["stalemate"], side, "stalemate")
        repeated = self._repetition()
        if repeated is not None:
            return repeated
        if meta["move_rule"] and self._engine.state()[3] >= 2 * meta["move_rule"]:
            return Outcome(None, "move rule")
        limit, counted = self._engine.counters()[-2:]     # (the counting rule's pair)
        if meta["counting"] and limit and counted > limit:
            return Outcome(None, "counting")
        if self.game.variant.lone_promotion_draw and _only_promotions_left(self, side):
            return Outcome(None, "only promotions")
        return None

    def _repetition(self):
        meta = self.game.meta
        if not meta["repetition_count"]:
            return None
        keys = self._engine.history_keys() + [self._engine.key()]
        first = cycles.cycle_moves(keys, meta["repetition_count"])
        if first is None:
            return None
        # The perpetual rules declared `loses`: the side that broke one loses.
        side_now = self._engine.state()[0]      # (the last move was the other side's)
        mine, theirs = cycles.split_sides(self._records[first:])
        for broke, other, winner in ((mine, theirs, side_now), (theirs, mine, 1 - side_now)):
            if meta["perpetual_check"] == "loses" and cycles.perpetual_check(
                    broke, meta["perpetual_check_one_piece"]):
                return Outcome(SIDES[winner], "perpetual check")
            if meta["perpetual_chase"] == "loses" and cycles.perpetual_chase(broke, other):
                return Outcome(SIDES[winner], "perpetual chase")
        # `repetition N loss for white`: the result is that side's, whoever is to move.
        whose = SIDES.index(meta["repetition_side"]) if meta.get("repetition_side") else side_now
        return _result(meta["repetition_result"], whose, "repetition")

    def __str__(self):
        from .board_text import text_board
        return text_board(self)

    def __repr__(self):
        return f"<Position {self.game.name} {self.fen()}>"

    # -- pictures and notation (thin wrappers over svg, san) ---------------------------
    def _repr_svg_(self):
        """The board as SVG, for Jupyter (fairyforge.svg.board has the options)."""
        from . import svg
        return svg.board(self, lastmove=self._moves[-1] if self._moves else None,
                         check=True, size=400)

    def san(self, move):
        """The move (a Move or UCI text) in standard algebraic notation: Nf3, e8=Q, P@e4."""
        from . import san
        return san.san(self, move)

    def parse_san(self, text):
        """The legal Move that a SAN text names (MoveError if none or several)."""
        from . import san
        return san.parse_san(self, text)

    def push_san(self, text):
        """Play a move given in SAN; returns the Move."""
        return self.push(self.parse_san(text))

    @property
    def setup_fen(self):
        """The FEN this position was set up from, before the moves of move_stack."""
        return self._setup_fen


MAX_PERFT_DEPTH = 64        # the engine's bound (compiler/core/engine.pxi)


def _only_promotions_left(pos, side):
    """`draw when a lone PIECE can only promote` (compiler/rules/standing_promotion.py):
    the side to move has two pieces on the board, one of them a PIECE, is not in check,
    and each of its legal moves is a promotion."""
    variant = pos.game.variant
    names = [piece.name for piece in variant.pieces]
    code = piece_code(names.index(variant.standing_promotion.piece), side)
    mine = [c for c in pos.engine.board() if c > OFF and c & 1 == side]
    return (len(mine) == 2 and mine.count(code) == 1 and not pos.is_check()
            and all(move.promotion for move in pos.legal_moves()))


def _perft_depth(depth, least):
    """A perft depth, checked: a whole number from `least` to MAX_PERFT_DEPTH."""
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise ArgumentError(f"a perft depth is a whole number, got {depth!r}")
    if not least <= depth <= MAX_PERFT_DEPTH:
        raise ArgumentError(f"a perft depth is between {least} and {MAX_PERFT_DEPTH}, "
                            f"got {depth}")
    return depth


def _draw_odds(variant, outcome):
    """`draws count as wins for SIDE`: a drawn game is SIDE's win, for the same reason."""
    odds = variant.draw_odds
    if odds and outcome is not None and outcome.winner is None:
        return Outcome(odds, outcome.reason)
    return outcome


def _result(result, side_to_move, reason):
    """An Outcome from a rule result ("draw", "loss", "win") for the side to move."""
    if result == "draw":
        return Outcome(None, reason)
    if result == "loss":
        return Outcome(SIDES[1 - side_to_move], reason)
    return Outcome(SIDES[side_to_move], reason)
