"""The statements of the game ends and the capture rule, written from a Fairy-Stockfish
configuration: stalemate, checkmate, extinction (both ways), bare king, compulsory
captures, n-check and the counting rules.  Generators as in emit.py (a `Writer` in,
`Line`s out, `TAKE_BACK` for a child that would have to take back a parent's rule)."""

from . import fsf
from .lines import TAKE_BACK, Line

# Fairy-Stockfish's counting rules (position.h, counting_limit) read the counts of its
# pawn, rook, khon (= silver) and knight types: the four pieces of `counting … with`.
COUNTING_TYPES = ("pawn", "rook", "silver", "knight")


def result(w, option):
    value = w.config.value(option)
    if value not in ("win", "loss", "draw"):
        w.refuse(option, "expected win, loss or draw")
    return value


def stalemate(w):
    count = " for fewer pieces" if w.config.flag("stalematePieceCount") else ""
    return [Line(f"stalemate {result(w, 'stalemateValue')}{count}",
                 ("stalemateValue", "stalematePieceCount"))]


def checkmate(w):
    value = result(w, "checkmateValue")
    if value == "loss" and not w.extends:
        return []
    return [Line(f"checkmate {value}", ("checkmateValue",))]


def compulsory(w):
    if w.config.flag("mustCapture"):
        return [Line("captures are compulsory", ("mustCapture",))]
    return TAKE_BACK if w.extends and w.parent.captures_compulsory else []


def extinction(w):
    """`win by extinction`, `win by losing all …` or `bare king loses`, from
    extinctionValue and its piece types and counts (position.cpp: a side has lost or
    won when, for one listed type, it has at most extinctionPieceCount pieces on the
    board and in hand, and the other side at least extinctionOpponentPieceCount)."""
    value = w.config.value("extinctionValue")
    parent = w.parent
    from .emit_rules import royal_stand_in
    if royal_stand_in(w.config) or (w.config.flag("extinctionPseudoRoyal") and
                                    not w.config.flag("blastOnCapture")):
        # FSF looks at extinction only without pseudo-royal pieces or with explosions
        # (position.cpp, is_game_end); the stand-in's extinction is checkmate
        return TAKE_BACK if w.extends and (parent.extinction or parent.bare_king) else []
    from .emit import promoted_pairs
    if _types(w) != "*" and any(high in w.types("extinctionPieceTypes")
                                for _, high in promoted_pairs(w)):
        w.refuse("extinctionPieceTypes", "FSF counts the pieces promoted to a listed type as "
                 "that type, and `win by extinction` counts each listed piece on its own")
    if w.extends and (parent.extinction or (parent.extinction_wins and value != "win")):
        return TAKE_BACK                    # (`win by extinction` statements add up)
    if value == "none":
        return [Line("no bare king")] if w.extends and parent.bare_king else []
    line = _bare_king(w) if value == "loss" and _types(w) == "*" else None
    line = line or (_extinction(w) if value == "loss" else _losing_all(w))
    if w.extends and parent.bare_king and not line.text.startswith("bare king"):
        return [Line("no bare king"), line]
    return [line]


def _types(w):
    return w.config.value("extinctionPieceTypes").strip()


def _counts(w):
    return (w.config.value("extinctionPieceCount"),
            w.config.value("extinctionOpponentPieceCount"))


def _bare_king(w):
    if _counts(w) != ("1", "2") or fsf.KING not in w.config.pieces:
        return None
    claim = ", unless bared back" if w.config.flag("extinctionClaim") else ""
    return Line(f"bare king loses{claim}", ("extinctionValue", "extinctionPieceTypes",
                                            "extinctionPieceCount", "extinctionClaim"))


def _extinction(w):
    """extinctionValue = loss: a listed type down to extinctionPieceCount (`below N`,
    N the count + 1), or `*` with count 0: no piece at all."""
    count, opponent = _counts(w)
    if opponent != "0" or w.config.flag("extinctionClaim") or \
            (_types(w) == "*" and count != "0"):
        w.refuse("extinctionValue", "extinctionValue = loss is `win by extinction of …` "
                 "(types listed, or `*` with count 0), `… below N` (count N - 1) or `bare "
                 "king loses` (`*`, counts 1 and 2); other counts are not in the language yet")
    if _types(w) == "*":
        return Line("win by extinction of all pieces", ("extinctionValue", "extinctionPieceTypes"))
    listed = w.types("extinctionPieceTypes")
    names = [w.names[t] for t in listed if t != fsf.KING]
    if len(names) != len(listed):
        w.refuse("extinctionPieceTypes", "the royal piece cannot be listed: checkmate "
                                         "ends the game before its last one is taken")
    below = f" below {int(count) + 1}" if count != "0" else ""
    return Line(f"win by extinction of {', '.join(names)}{below}",
                ("extinctionValue", "extinctionPieceTypes", "extinctionPieceCount"))


def _losing_all(w):
    """extinctionValue = win: every piece (the king apart, which counts as one where
    the game has it), or one listed type, lost."""
    count, opponent = _counts(w)
    royal = fsf.KING in w.config.pieces
    sources = ("extinctionValue", "extinctionPieceTypes", "extinctionPieceCount")
    if w.config.flag("extinctionClaim") or opponent != "0":
        w.refuse("extinctionOpponentPieceCount", "extinctionValue = win with a count for "
                 "the opponent or a claim is not in the language yet")
    if _types(w) == "*":
        if count != ("1" if royal else "0"):
            w.refuse("extinctionPieceCount", "extinctionValue = win counts every piece but "
                     "the royal one (extinctionPieceCount 1 with a king, 0 without)")
        return Line("win by losing all pieces", sources)
    types = w.types("extinctionPieceTypes")
    if count != "0" or len(types) != 1 or types[0] == fsf.KING:
        w.refuse("extinctionPieceTypes", "extinctionValue = win is `win by losing all of "
                 "PIECE` for one non-royal type, count 0 (FSF decides each listed type "
                 "on its own)")
    return Line(f"win by losing all of {w.names[types[0]]}", sources)


def check_count(w):
    """checkCounting: the checks to give come from the start FEN's `3+3` (without it,
    Fairy-Stockfish's first check wins)."""
    if not w.config.flag("checkCounting"):
        return TAKE_BACK if w.extends and w.parent.check_count else []
    counts = fen_check_counts(w.config.value("startFen"))
    if counts and counts[0] != counts[1]:
        w.refuse("startFen", "checks to give that differ between the sides at the start "
                             "are not in the language yet")
    checks = counts[0] if counts else 1
    noun = "check" if checks == 1 else "checks"
    return [Line(f"win by {checks} {noun}", ("checkCounting", "startFen"))]


def fen_check_counts(fen):
    """The (white, black) checks to give of a FEN's `3+3` field, or None."""
    for field in fen.split()[1:]:
        parts = field.split("+")
        if len(parts) == 2 and all(p.isdigit() for p in parts):
            return int(parts[0]), int(parts[1])
    return None


def counting(w):
    rule = w.config.value("countingRule")
    if rule == "none":
        return TAKE_BACK if w.extends and w.parent.counting else []
    if rule not in ("makruk", "asean", "cambodian"):
        w.refuse("countingRule", f"the {rule} counting rule is not in the language yet "
                                 "(makruk, asean and cambodian are)")
    missing = [t for t in COUNTING_TYPES if t not in w.config.pieces]
    if missing:
        w.refuse("countingRule", "the counting rules count Fairy-Stockfish's pawn, rook, "
                                 f"khon and knight types; the game has no {missing[0]}")
    names = ", ".join(w.names[t] for t in COUNTING_TYPES)
    return [Line(f"counting {rule} with {names}", ("countingRule",))]
