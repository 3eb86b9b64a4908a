"""Positions: the python-chess-like API over a generated engine.

A Position owns one engine object (the compiled module's Engine) and the history of
the moves pushed on it.  FEN is read and written here, in Python, from the game's
META table; nothing reaches the compiled code before it has been checked.
"""

import re
from collections import Counter
from dataclasses import dataclass
from typing import Optional

from . import cycles
from .errors import EmptyHistoryError, FenError, IllegalMoveError, InvalidMoveError
from .fen import parse_fen, parse_square
from .move import F_DROP, FROM_MASK, Move

SIDES = ("white", "black")
MOVE_SYNTAX = re.compile(r"(?:[A-Z]@|[a-z][0-9]{1,2})[a-z][0-9]{1,2}[a-z+]?")


@dataclass(frozen=True)
class Outcome:
    """How a game ended: `winner` is "white", "black" or None (a draw)."""

    winner: Optional[str]
    reason: str


class Position:
    """A position of a game, with the moves that led to it from where it was set up."""

    def __init__(self, game, fen):
        self.game = game
        self._engine = game.module.Engine()
        self._records = []             # for each pushed move: a cycles.Record
        self._moves = []               # the pushed Moves, oldest first
        self._setup_fen = fen
        self._load_fen(fen)
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
    def _load_fen(self, fen):
        meta = self.game.meta
        files, ranks = meta["files"], meta["ranks"]
        checks = _checks(self.game)
        parsed = parse_fen(fen, files, ranks, self.game.token_table)
        pieces = []
        royal_count = [0, 0]
        for (f, r), (typ, colour) in parsed.board.items():
            side = SIDES[colour]
            index = meta["squares"][r * files + f]
            name = meta["pieces"][typ]["name"]
            confined = meta["confined"][typ][colour]
            if confined is not None and index not in confined:
                raise FenError("board", f"a {side} {name} on {chr(97 + f)}{r + 1} is outside "
                               "the area it is confined to", fen)
            if meta["pieces"][typ]["promotes"] and index in meta["dead"][typ][colour]:
                # Its promotion is forced where it could never move again: it cannot
                # stand there unpromoted.  (A piece that never promotes can get stuck.)
                raise FenError("board", f"a {side} {name} on "
                               f"{chr(97 + f)}{r + 1} could never move again", fen)
            if (f, r) not in checks.reachable[typ][colour]:
                raise FenError("board", f"a {side} {name} can never stand on "
                               f"{chr(97 + f)}{r + 1}: no move, drop or promotion of "
                               f"{meta['title']} puts one there", fen)
            if typ == meta["royal_type"]:
                royal_count[colour] += 1
            pieces.append((index, 2 + 2 * typ + colour))
        hands = self._hands(parsed, fen)
        ntypes = len(meta["pieces"])
        royal = meta["royal_type"]
        for colour, side in enumerate(SIDES):
            if royal < 0 or meta["pieces"][royal]["tokens"][colour] is None:
                continue
            # The royal piece is never captured: exactly one per side, on the board or
            # (during a deployment phase) in hand.
            count = royal_count[colour] + hands[colour * ntypes + royal]
            name = meta["pieces"][royal]["name"]
            if count != 1:
                raise FenError("board", f"{side} must have one {name}, the position "
                               f"gives it {count}", fen)
        if checks.captures_to_hand:
            # A capture adds to a hand; the engine keeps hand counts below max_hand + 1,
            # which no hand can pass if there are no more pieces than that to capture.
            total = sum(hands) + sum(1 for _, code in pieces if (code >> 1) - 1 != royal)
            if total > meta["max_hand"]:
                raise FenError("board", f"{total} pieces besides the royal ones: with "
                               f"captures going to hand, at most {meta['max_hand']} are "
                               "supported", fen)
        side = SIDES.index(parsed.side)
        castling = self._castling_bits(parsed.castling, fen, pieces)
        ep, victim = self._en_passant(parsed, side, pieces, fen)
        lifted = self._lifted(parsed.lifted, fen)
        # The halfmove clock counts plies since the last capture or pawn move: never
        # more than the plies played (the fullmove number counts White's moves).
        played = 2 * (parsed.fullmove - 1) + side
        if parsed.halfmove > played:
            raise FenError("halfmove clock", f"{parsed.halfmove} plies since the last capture "
                           f"or pawn move, but only {played} have been played by move "
                           f"{parsed.fullmove}", fen)
        self._engine.set_state(pieces, hands, side, castling, ep, victim,
                               parsed.halfmove, parsed.fullmove, lifted)
        # The side that just moved may not be in check (it could not have left itself so).
        them = 1 - side
        if self._royal_attacked(them):
            raise FenError("board", f"{SIDES[them]} is in check but it is {SIDES[side]}'s "
                           "turn", fen)

    def _hands(self, parsed, fen):
        meta = self.game.meta
        ntypes = len(meta["pieces"])
        hands = [0] * (2 * ntypes)
        if parsed.holdings and not meta["has_drops"]:
            raise FenError("holdings", f"{meta['title']} has no pieces in hand", fen)
        for typ, colour in parsed.holdings:
            token = meta["pieces"][typ]["tokens"][colour]
            if typ not in self.game.droppable:
                raise FenError("holdings", f"'{token}' cannot be held in hand", fen)
            i = colour * ntypes + typ
            hands[i] += 1
            if hands[i] > meta["max_hand"]:
                raise FenError("holdings", f"more than {meta['max_hand']} '{token}' in hand", fen)
        return hands

    def _lifted(self, text, fen):
        if not self.game.meta["restrictions"]:
            if text != "-":
                raise FenError("fen", f"unexpected extra field '{text}'", fen)
            return 0
        if text == "-":
            return 0
        if not set(text) <= {"w", "b"} or len(set(text)) != len(text):
            raise FenError("restrictions", f"'{text}' must be -, w, b or wb", fen)
        return (1 if "w" in text else 0) | (2 if "b" in text else 0)

    def _castling_bits(self, text, fen, pieces=()):
        if text == "-":
            return 0
        meta = self.game.meta
        options = {c["fen"]: c for c in meta["castling"]}
        board = dict(pieces)
        rook_codes = _checks(self.game).castling_rook_codes
        bits = 0
        for ch in text:
            if ch not in options:
                raise FenError("castling", f"'{ch}' is not a castling right of this game "
                               f"(rights: {''.join(options) or 'none'})", fen)
            if bits & (1 << options[ch]["bit"]):
                raise FenError("castling", f"'{ch}' is given twice", fen)
            # A right whose king or rook is not on its square could never be used (and
            # Fairy-Stockfish would drop it): refuse it rather than keep a dead right.
            c = options[ch]
            king_code = 2 + 2 * meta["royal_type"] + c["colour"]
            if board.get(c["king_from"]) != king_code:
                raise FenError("castling", f"'{ch}': the {SIDES[c['colour']]} "
                               f"{meta['pieces'][meta['royal_type']]['name']} is not on "
                               f"{self.game.notation.square_of_index[c['king_from']]}", fen)
            if board.get(c["rook_from"]) != rook_codes[ch]:
                raise FenError("castling", f"'{ch}': no {SIDES[c['colour']]} piece to castle "
                               f"with on {self.game.notation.square_of_index[c['rook_from']]}",
                               fen)
            bits |= 1 << c["bit"]
        return bits

    def _en_passant(self, parsed, side, pieces, fen):
        text = parsed.en_passant
        if text == "-":
            return 0, 0
        meta = self.game.meta
        delta = meta["ep_victim_delta"]
        if delta is None:
            raise FenError("en passant", f"{meta['title']} has no en passant", fen)
        sq = parse_square(text, meta["files"], meta["ranks"])
        if sq is None:
            raise FenError("en passant", f"'{text}' is not a square of the board", fen)
        index = meta["squares"][sq[1] * meta["files"] + sq[0]]
        mover = 1 - side
        victim = index + delta[mover]
        origin = index - delta[mover]
        occupied = {i: code for i, code in pieces}
        on_board = set(meta["squares"])
        # The piece that just passed the square must be one that can be taken en passant
        # (else an en passant capture would remove, say, a knight), and the square it
        # came from must be empty.
        if (index in occupied or victim not in occupied or occupied[victim] & 1 != mover
                or (occupied[victim] >> 1) - 1 not in _checks(self.game).ep_types
                or origin not in on_board or origin in occupied):
            raise FenError("en passant", f"no {SIDES[mover]} piece has just passed {text}", fen)
        return index, victim

    def _royal_attacked(self, colour):
        return self._engine.royal_attacked(colour)

    # -- FEN out --------------------------------------------------------------------------
    def fen(self):
        meta = self.game.meta
        files, ranks = meta["files"], meta["ranks"]
        letters = [p["letter"] for p in meta["pieces"]]
        codes = self._engine.board()
        tokens = [p["tokens"] for p in meta["pieces"]]
        rows = []
        for r in range(ranks - 1, -1, -1):
            row, empty = "", 0
            for f in range(files):
                code = codes[r * files + f]
                if code < 2:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += tokens[(code >> 1) - 1][code & 1]
            if empty:
                row += str(empty)
            rows.append(row)
        text = "/".join(rows)
        if meta["has_drops"] or meta["setup_has_holdings"]:
            hands = self._engine.hands()
            n = len(letters)
            held = ""
            for colour in (0, 1):
                for typ in range(n):
                    if hands[colour * n + typ]:
                        held += tokens[typ][colour] * hands[colour * n + typ]
            text += f"[{held}]"
        side, castling, ep, halfmove, fullmove, lifted = self._engine.state()
        rights = "".join(c["fen"] for c in sorted(meta["castling"],
                                                   key=lambda c: (c["colour"], c["fen"].upper() != "K"))
                         if castling & (1 << c["bit"])) or "-"
        ep_text = self.game.notation.square_of_index[ep] if ep else "-"
        fen = f"{text} {'wb'[side]} {rights} {ep_text} {halfmove} {fullmove}"
        if meta["restrictions"]:
            fen += " " + ("".join(c for bit, c in ((1, "w"), (2, "b")) if lifted & bit) or "-")
        return fen

    # -- moves ----------------------------------------------------------------------------
    @property
    def turn(self):
        return SIDES[self._engine.state()[0]]

    def legal_moves(self):
        """The legal moves, history-dependent rules (perpetual check and chase) included."""
        notation, colour = self.game.notation, self._engine.state()[0]
        codes = self._engine.legal_moves()
        if cycles.refuses_moves(self.game.meta) and self._could_repeat():
            codes = [c for c in codes if self._cycle_rule_broken(c) is None]
        board = tuple(self._engine.board())          # gives the Moves piece and capture
        return [notation.move(code, colour, board) for code in codes]

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
        repetition itself (so the chasing side must deviate before, RULES.md section 4
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
            moved = cycles.Record(ids[reply & FROM_MASK], False, frozenset(), frozenset())
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
        if move not in self.legal_moves():
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
        raise self._why_not(text)

    def _why_not(self, text):
        """The most specific error for a move text that matched no legal move."""
        meta = self.game.meta
        if not MOVE_SYNTAX.fullmatch(text):
            return InvalidMoveError(text, f"'{text}' is not a move: write moves like e2e4, "
                                    "e7e8q, b2h8+ or P@e4")
        squares = re.findall(r"[a-z][0-9]{1,2}", text.split("@")[-1])
        for sq in squares[:2]:
            if parse_square(sq, meta["files"], meta["ranks"]) is None:
                return InvalidMoveError(text, f"move {text}: {sq} is not on the board")
        reason = (self._rule_broken(text) or self._promotion_mismatch(text)
                  or self._why_impossible(text, squares))
        return IllegalMoveError(text, f"illegal move {text}: {reason}")

    def _promotion_mismatch(self, text):
        """The piece could go there, but the promotion suffix is missing, extra or not
        one of the choices (else None)."""
        m = re.fullmatch(r"([a-z][0-9]{1,2}[a-z][0-9]{1,2})([a-z+]?)", text)
        if not m:
            return None
        base, suffix = m.groups()
        notation, colour = self.game.notation, self._engine.state()[0]
        endings = []                    # in the game's order of promotion choices
        for t in (notation.text(code, colour) for code in self._engine.pseudo_moves()):
            if t.startswith(base) and re.fullmatch(r"[a-z+]?", t[len(base):]) \
                    and t[len(base):] not in endings:
                endings.append(t[len(base):])
        if not endings:
            return None
        choices = ", ".join(e for e in endings if e) or "none"
        if not suffix:
            destination = re.findall(r"[a-z][0-9]{1,2}", base)[1]
            return (f"the piece must promote on {destination}: write {base}{endings[0]} "
                    f"(choices: {choices})")
        if endings == [""]:
            return f"this move does not promote: write {base} without '{suffix}'"
        return f"'{suffix}' is not a promotion choice of this move (choices: {choices})"

    def _rule_broken(self, text):
        """Why a move the pieces could make is refused, or None if they cannot make it."""
        notation, colour = self.game.notation, self._engine.state()[0]
        for code in self._engine.pseudo_moves():
            if notation.text(code, colour) == text:
                reason = self._engine.refusal(code)
                if reason == 0:
                    return self._cycle_rule_broken(code)
                return explain_refusal(self.game, reason, colour, code)
        return None

    def _why_impossible(self, text, squares):
        """Why no piece can make this move at all (geometry, hand, deployment, zones)."""
        game, meta = self.game, self.game.meta
        colour = self._engine.state()[0]
        mover = meta["side_names"][colour]
        names = [p["name"] for p in meta["pieces"]]
        hands = self._engine.hands()
        ntypes = len(names)
        royal = meta["royal_type"]
        deploying = meta["deployment"] and hands[colour * ntypes + royal] > 0
        target = game.notation.index_of_square[squares[-1]]
        board = dict(zip(meta["squares"], self._engine.board()))
        if "@" in text:
            letter = text.split("@")[0]
            typ = next((i for i, p in enumerate(meta["pieces"])
                        if (p["tokens"][0] or (p["tokens"][1] or "").upper()).rstrip("~") == letter), None)
            if typ is None or not hands[colour * ntypes + typ]:
                return f"{mover} has no {names[typ] if typ is not None else letter} in hand"
            name = names[typ]
            if board[target] > 1:
                return f"{squares[-1]} is not empty"
            if typ == meta["deploy_last"] and sum(hands[colour * ntypes:(colour + 1) * ntypes]) > hands[colour * ntypes + typ]:
                return (f"the {name} must be dropped last, when it is the only piece in "
                        f"{mover}'s hand")
            if target in meta["dead"][typ][colour]:
                return f"a {name} may not be dropped on {squares[-1]}: it could never move from there"
            zone = meta["drop_zones"].get(typ, [[], []])[colour]
            if target not in zone:
                return f"a {name} may not be dropped on {squares[-1]}"
            return (f"a {name} may not be dropped on a file that already holds an own "
                    f"{name}")
        if deploying:
            return (f"pieces may not move during deployment: {mover} still has its "
                    f"{names[royal]} in hand")
        origin = game.notation.index_of_square[squares[0]]
        code = board[origin]
        if code < 2:
            return f"no piece on {squares[0]}"
        if code & 1 != colour:
            return (f"the piece on {squares[0]} is {meta['side_names'][code & 1]}'s and it is "
                    f"{mover}'s turn")
        typ = (code >> 1) - 1
        if board[target] > 1 and board[target] & 1 == colour:
            return f"{squares[-1]} holds {mover}'s own {names[(board[target] >> 1) - 1]}"
        confined = meta["confined"][typ][colour]
        if confined is not None and target not in confined:
            return f"the {names[typ]} on {squares[0]} may not leave its area to go to {squares[-1]}"
        return f"the {names[typ]} on {squares[0]} cannot go to {squares[-1]} that way"

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
        other = Position(self.game, self.fen())
        return other

    # -- queries --------------------------------------------------------------------------
    def is_check(self):
        return self._engine.is_check()

    def perft(self, depth):
        return self._engine.perft(depth)

    def divide(self, depth):
        notation, colour = self.game.notation, self._engine.state()[0]
        return [(notation.move(code, colour), count)
                for code, count in self._engine.divide(depth)]

    def key(self):
        return self._engine.key()

    def outcome(self):
        """None while the game goes on, else an Outcome (winner, reason)."""
        meta = self.game.meta
        side = self._engine.state()[0]
        if not self.legal_moves():
            if self._engine.is_check():
                return Outcome(SIDES[1 - side], "checkmate")
            return _result(meta["stalemate"], side, "stalemate")
        repeated = self._repetition()
        if repeated is not None:
            return repeated
        if meta["move_rule"] and self._engine.state()[3] >= 2 * meta["move_rule"]:
            return Outcome(None, "move rule")
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
        return _result(meta["repetition_result"], side_now, "repetition")

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


class _Checks:
    """What FEN validation needs to know about a game beyond its META table, worked out
    once per game from its rule model."""

    def __init__(self, game):
        variant, meta = game.variant, game.meta
        files, ranks = meta["files"], meta["ranks"]
        names = [p["name"] for p in meta["pieces"]]
        types = {name: i for i, name in enumerate(names)}
        self.ep_types = {types[n] for n in variant.en_passant if n in types}
        self.captures_to_hand = bool(variant.captures.to_hand_white
                                     or variant.captures.to_hand_black)
        setup = parse_fen(meta["setup"], files, ranks, game.token_table)
        self.castling_rook_codes = {}
        for c in meta["castling"]:
            square = game.notation.square_of_index[c["rook_from"]]
            f, r = parse_square(square, files, ranks)
            found = setup.board.get((f, r))
            self.castling_rook_codes[c["fen"]] = (2 + 2 * found[0] + found[1]) if found else -1
        self.reachable = reachable_squares(variant, setup, types)


def _checks(game):
    checks = game.__dict__.get("_fen_checks")
    if checks is None:
        checks = game._fen_checks = _Checks(game)
    return checks


def _squares(names, files, ranks):
    return {parse_square(n, files, ranks) for n in names}


def reachable_squares(variant, setup, types):
    """For each piece type and colour, the squares a piece of it could ever stand on:
    where the setup puts it, where it can be dropped, where a promotion or castling
    puts it, and everything its moves reach from there on an empty board (honouring
    initial-only and region-only moves, confinement and forced promotion).  A superset
    of the truth, so a FEN is only refused for a square no game could reach, such as
    a chess pawn on its first rank or a xiangqi elephant off its seven points."""
    files, ranks = variant.files, variant.ranks
    everywhere = {(f, r) for f in range(files) for r in range(ranks)}
    seeds = [[set(), set()] for _ in variant.pieces]
    for (f, r), (typ, colour) in setup.board.items():
        seeds[typ][colour].add((f, r))
    for drop in variant.drops:
        for colour, side in enumerate(SIDES):
            seeds[types[drop.piece]][colour] |= _squares(drop.zone.for_side(side), files, ranks)
    for piece in variant.pieces:
        if piece.promotion is None:
            continue
        for colour, side in enumerate(SIDES):
            zone = (everywhere if piece.promotion.on_leaving
                    else _squares(piece.promotion.zone.for_side(side), files, ranks))
            for choice in piece.promotion.choices:
                seeds[types[choice]][colour] |= zone
    royal = next((i for i, p in enumerate(variant.pieces) if p.royal), None)
    for c in variant.castling:
        colour = SIDES.index(c.side)
        rook = setup.board.get(parse_square(c.rook_from, files, ranks))
        if royal is not None:
            seeds[royal][colour].add(parse_square(c.king_to, files, ranks))
        if rook is not None:
            seeds[rook[0]][rook[1]].add(parse_square(c.rook_to, files, ranks))
    out = []
    for typ, piece in enumerate(variant.pieces):
        per_colour = []
        for colour, side in enumerate(SIDES):
            initial = _squares(piece.initial_squares.for_side(side), files, ranks)
            confine = (_squares(piece.confined_to.for_side(side), files, ranks)
                       if piece.confined_to is not None else None)
            must_promote = set()
            if piece.promotion is not None:
                must_promote = (_squares(piece.promotion.zone.for_side(side), files, ranks)
                                & _squares(piece.promotion.forced.for_side(side), files, ranks))
            atoms = []
            for a in piece.moves:
                dx, dy = a.dx, a.dy
                if colour == 1:
                    dx, dy = (-dx if variant.symmetry == "rotate" else dx), -dy
                only = (_squares(a.only_in.for_side(side), files, ranks)
                        if a.only_in is not None else None)
                steps = 1 if a.kind == "leap" else (a.max_steps or max(files, ranks))
                atoms.append((dx, dy, steps, initial if a.initial else None, only))
            seen = set(seeds[typ][colour])
            todo = list(seen)
            while todo:
                f, r = todo.pop()
                for dx, dy, steps, need, only in atoms:
                    if (need is not None and (f, r) not in need) or \
                            (only is not None and (f, r) not in only):
                        continue
                    for k in range(1, steps + 1):
                        to = (f + k * dx, r + k * dy)
                        if to not in everywhere:
                            break
                        if confine is not None and to not in confine:
                            continue
                        if to not in seen and to not in must_promote:
                            seen.add(to)
                            todo.append(to)
            per_colour.append(seen)
        out.append(per_colour)
    return out


REFUSALS = {
    1: "it would leave {mover}'s {royal} attacked",
    2: "the two {royal}s would face each other on an open file",
    3: "{mover} may not capture before {trigger} has {events}",
    4: "{mover} may not give check before {trigger} has {events}",
    5: "{mover} may not promote before {trigger} has {events}",
    6: "a {piece} drop may not give checkmate",
    7: "it would leave {other} without a legal move, and stalemating is not allowed",
}
PAST = {"capture": "captured", "check": "checked", "promote": "promoted"}


def explain_refusal(game, reason, colour, code):
    """Words for the engine's refusal codes (see why_illegal in the generated engine)."""
    meta = game.meta
    names = meta["side_names"]
    restriction = next((r for r in meta["restrictions"] if r["restricted"] == colour), None)
    events = ""
    trigger = names[1 - colour]
    if restriction:
        done = [e for bit, e in ((1, "capture"), (2, "check"), (4, "promote"))
                if restriction["events"] & bit]
        words = [PAST[e] for e in done]
        events = ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]
        trigger = names[restriction["trigger"]]
    return REFUSALS.get(reason, "it breaks a rule of the game").format(
        mover=names[colour], other=names[1 - colour], trigger=trigger, events=events,
        royal=meta["pieces"][meta["royal_type"]]["name"],
        piece=meta["pieces"][((code >> 18) & 127) - 1]["name"] if (code >> 18) & 127 else "")


def _result(result, side_to_move, reason):
    """An Outcome from a rule result ("draw", "loss", "win") for the side to move."""
    if result == "draw":
        return Outcome(None, reason)
    if result == "loss":
        return Outcome(SIDES[1 - side_to_move], reason)
    return Outcome(SIDES[side_to_move], reason)
