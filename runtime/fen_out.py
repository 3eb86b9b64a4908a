"""Writing FEN, byte for byte as Fairy-Stockfish writes it (`pyffish.get_fen`).

    <board>[<holdings>] <side> <castling> <en passant> [<checks>] <halfmove> <fullmove> [<lifted>]

Fairy-Stockfish's conventions, where they are not plain FEN:

* Holdings are written, in brackets, for every game with drops (or whose setup has
  brackets), `[]` when both hands are empty.  White's pieces come first; within a side
  the piece types go in descending order of Fairy-Stockfish's internal piece-type
  numbering (queen before rook before bishop before knight before pawn; in shogi gold,
  knight, lance, pawn, silver, rook, bishop).  That numbering belongs to FSF's built-in
  pieces, so a piece is matched to one by its moves (see FSF_PIECE_ORDER); a piece that
  matches none is a custom piece, which FSF numbers above every built-in one.
* In a game with `mark every double step` (Berolina, Pawnback: FSF's convention for
  its custom en passant pieces), the en passant field names the square passed and
  the square of the piece that passed it, `e3e4`, after every double step.
* The castling and en passant fields are always written (`-` when empty), shogi and
  xiangqi included: FSF's `[-] w 0 1` is the shogi *start* FEN of its variants.ini,
  which we read, but never what it writes.
* A game with a check count (`win by 3 checks`) writes the checks each side has
  still to give, White's first, before the halfmove clock: `3+3` at the start.
* A game with a counting rule, once counting has started, writes its limit (in plies)
  in place of the en passant field and the plies counted in place of the halfmove
  clock: `... b - 32 3 40`.
* The counters are written as the engine keeps them (the halfmove clock's resets are
  the engine's: captures, drops, promotions and moves of chess-like pawns).
"""

from functools import lru_cache
from weakref import WeakKeyDictionary

from .compiler.betza import parse_betza
from .compiler.rules.gating import write_rights
from .encoding import EMPTY, OFF, code_colour, code_type

# Fairy-Stockfish's built-in piece types, in the order of its PieceType enum (types.h),
# each given by the Betza of its moves.  Conditional parts of a move (initial double
# steps, en passant, palace lines) are left out on both sides of the comparison, so the
# chess pawn is `fmWfcF`; moves allowed only in a region count where the whole matches
# a type (the xiangqi soldier's sideways steps beyond the river make it FSF's soldier
# `fsW`, not the shogi pawn `fW`).  FSF's immobile piece, which has no moves, is left out.
FSF_PIECE_ORDER = (
    ("pawn", "fmWfcF"), ("knight", "N"), ("bishop", "B"), ("rook", "R"), ("queen", "Q"),
    ("fers", "F"), ("alfil", "A"), ("fers_alfil", "FA"), ("silver", "FfW"),
    ("aiwok", "RNF"), ("bers", "RF"), ("archbishop", "BN"), ("chancellor", "RN"),
    ("amazon", "QN"), ("knibis", "mNcB"), ("biskni", "mBcN"), ("kniroo", "mNcR"),
    ("rookni", "mRcN"), ("shogi_pawn", "fW"), ("lance", "fR"), ("shogi_knight", "ffN"),
    ("gold", "WfF"), ("dragon_horse", "BW"), ("clobber", "cW"), ("breakthrough", "fmWfF"),
    ("cannon", "mRcpR"), ("janggi_cannon", "pR"), ("soldier", "fsW"),
    ("horse", "nN"), ("elephant", "nA"), ("janggi_elephant", "nZ"), ("banner", "RcpRnN"),
    ("wazir", "W"), ("commoner", "K"), ("centaur", "KN"),
)
# Built-in types that are more than their moves: the janggi cannon is a `pR` hopper that
# may neither hop over nor capture a cannon (our `no hop over` and `no capture of` the
# piece by itself); a plain `pR` piece is one of FSF's custom pieces.
_SELF_BANNED = {"janggi_cannon"}

_HAND_ORDERS = WeakKeyDictionary()     # Game -> hand_order(game.variant)


def _signature(atoms, regions=False):
    """What identifies a piece's moves: its atoms, as a set; without `regions` only the
    unconditional ones, with it also those allowed only in a region (not its lines)."""
    return frozenset((a.dx, a.dy, a.kind, a.max_steps, a.moves, a.captures, a.lame_path)
                     for a in atoms if not a.initial and not a.along
                     and (regions or a.only_in is None))


@lru_cache(maxsize=None)
def _fsf_rank_of_signature():
    ranks = {}
    for rank, (_, betza) in enumerate(FSF_PIECE_ORDER):
        ranks.setdefault(_signature(parse_betza(betza)), rank)
    return ranks


def _fsf_rank(variant, piece):
    """The rank of FSF's built-in type that moves as `piece`, or None (a custom piece)."""
    known = _fsf_rank_of_signature()
    found = known.get(_signature(piece.moves, regions=True))
    if found is None:
        found = known.get(_signature(piece.moves))
    if found is not None and FSF_PIECE_ORDER[found][0] in _SELF_BANNED:
        itself = (piece.name, piece.name)
        if itself not in variant.capture_bans or itself not in variant.screen_bans:
            return None
    return found


def hand_order(variant):
    """The piece type indices in the order FSF writes a side's holdings."""
    custom = len(FSF_PIECE_ORDER)

    def rank(index):
        piece = variant.pieces[index]
        if piece.royal:
            return custom + len(variant.pieces)        # FSF's KING is numbered last
        found = _fsf_rank(variant, piece)
        return custom + index if found is None else found

    return tuple(sorted(range(len(variant.pieces)), key=rank, reverse=True))


def _board_text(meta, codes):
    files, tokens = meta["files"], [p["tokens"] for p in meta["pieces"]]
    rows = []
    for r in range(meta["ranks"] - 1, -1, -1):
        row, empty = [], 0
        for f in range(files):
            code = codes[r * files + f]
            if code == EMPTY:
                empty += 1
                continue
            if empty:
                row.append(str(empty))
                empty = 0
            # the off-board code on a board square is a wall (Fairy-Stockfish's `*`)
            row.append("*" if code == OFF else tokens[code_type(code)][code_colour(code)])
        if empty:
            row.append(str(empty))
        rows.append("".join(row))
    return "/".join(rows)


def _holdings_text(game, hands):
    tokens = [p["tokens"] for p in game.meta["pieces"]]
    n = len(tokens)
    order = _HAND_ORDERS.get(game)
    if order is None:               # computed once per game: it parses Betza
        order = _HAND_ORDERS[game] = hand_order(game.variant)
    # (A one-sided piece has no token for the other side, which never holds it.)
    return "".join(tokens[typ][colour] * hands[colour * n + typ]
                   for colour in (0, 1) for typ in order if hands[colour * n + typ])


def _castling_text(game, engine, bits, hands):
    # K-side before Q-side, White before Black: KQkq (or, with `chess960 castling`, the
    # rooks' files: HAha); with gating, each side's gating files after its own letters.
    # First-move rights (rules/first_moves.py) follow each side's castling, by file.
    meta = game.meta
    rights = sorted(_castling_rights(game, engine),
                    key=lambda c: (c["colour"], c["fen"].upper() != "K"))
    held = [(c, _castling_letter(game, c)) for c in rights if bits & (1 << c["bit"])]
    if meta["gating"]["on"]:
        return write_rights(meta, held, bits, hands)
    text = [((c["colour"], 0), letter) for c, letter in held]
    text += [((r["colour"], 1 + r["square"][0]), r["letter"])
             for r in game.position_rules.first_rights.values() if bits & (1 << r["bit"])]
    return "".join(letter for _, letter in sorted(text, key=lambda h: h[0])) or "-"


def _castling_rights(game, engine):
    """The game's castling options; under `chess960 castling` with the king's and the
    rooks' squares of the position (its FEN's)."""
    if not game.meta["chess960_castling"]:
        return game.meta["castling"]
    kings, rooks = engine.castling_squares()
    return [dict(c, king_from=kings[c["colour"]], rook_from=rooks[c["bit"]])
            for c in game.meta["castling"]]


def _castling_letter(game, right):
    if not game.meta["chess960_castling"]:
        return right["fen"]
    file = game.notation.square_of_index[right["rook_from"]][0]
    return file.upper() if right["colour"] == 0 else file


def _en_passant_text(game, engine):
    """`-`, the square passed (`e3`), or, in a game that marks every double step
    (`mark every double step`), the square passed and the square of the piece that
    passed it, in Fairy-Stockfish's square order (rank by rank): `e3e4`, `b5c6`."""
    ep, victim = engine.en_passant()
    if not ep:
        return "-"
    squares = [ep, victim] if _marked_always(game, engine, victim) else [ep]
    names = [game.notation.square_of_index[s] for s in squares]
    return "".join(sorted(names, key=lambda n: (int(n[1:]), n[0])))


def _marked_always(game, engine, victim):
    """Is the double step that left a piece on `victim` written with both squares?"""
    if game.meta["ep_always_marked"]:
        return True
    marked = game.variant.ep_marked_pieces          # `mark every double step of PIECE…`
    if not marked:
        return False
    code = engine.board()[game.meta["squares"].index(victim)]
    return game.variant.pieces[code_type(code)].name in marked


def write_fen(game, engine):
    """The FEN of the engine's current position, in Fairy-Stockfish's style."""
    meta = game.meta
    text = _board_text(meta, engine.board())
    if meta["has_drops"] or meta["setup_has_holdings"]:
        text += f"[{_holdings_text(game, engine.hands())}]"
    side, castling, ep, halfmove, fullmove, lifted = engine.state()
    ep_text = _en_passant_text(game, engine)
    counters = engine.counters()     # the check count's pair first, counting's last
    if meta["counting"] and counters[-2]:
        # Counting has started: its limit and plies stand in the en passant field and
        # the halfmove clock (as Fairy-Stockfish writes them).
        ep_text, halfmove = counters[-2:]
    checks = "{}+{} ".format(*counters[:2]) if meta["check_count"] else ""
    castling_text = _castling_text(game, engine, castling, engine.hands())
    fen = (f"{text} {'wb'[side]} {castling_text} {ep_text} {checks}"
           f"{halfmove} {fullmove}")
    if meta["restrictions"]:
        fen += " " + ("".join(c for bit, c in ((1, "w"), (2, "b")) if lifted & bit) or "-")
    return fen
