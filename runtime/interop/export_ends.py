"""The export of the rule kinds that end a game or constrain captures, beyond those of
export.py: checkmate and stalemate results, compulsory captures, extinction wins,
n-check, the counting rules, the repetition result for one side and the move rule's
pieces.  Each writer returns ini lines or raises `ExportRefusal` with the reason."""

from . import fsf
from .emit_ends import COUNTING_TYPES, fen_check_counts
from .errors import ExportRefusal


def unowned_royal(v):
    """The royal type nobody owns (`-/-`): the game has no royal piece."""
    return next((p for p in v.pieces if p.royal and p.tokens == (None, None)), None)


def refusals(v):
    """(failed, reason) pairs for what Fairy-Stockfish cannot say of these rules."""
    return tuple((test(v), wording) for test, wording in _UNWRITTEN) + (
        (bool(v.capture_bans) and (bool(v.screen_bans) or any(a != b for a, b in v.capture_bans)),
         "captures restricted by piece type other than mutuallyImmuneTypes' (no capture of "
         "a type by the same type)"),
        (bool(v.extinction_wins) and bool(v.extinction or v.bare_king),
         "both a win by losing pieces and a loss by extinction or bare king (it has one "
         "extinctionValue)"),
        (bool(v.check_count) and bool(v.counting), "both n-check and a counting rule"),
    )


# Rules Fairy-Stockfish has options for, which the exporter does not write yet: refused
# by name rather than dropped.
def _not_written(field, what, test=bool):
    return (lambda v: test(getattr(v, field, None)),
            f"the exporter does not write {what} yet")


_UNWRITTEN = (
    _not_written("ep_marked_pieces", "marked double steps of named pieces"),
    _not_written("first_moves", "first moves (cambodianMoves)"),
    _not_written("gate_pieces", "gating from the hand (gating, seirawanGating)"),
    _not_written("setup", "wall squares (their round trip is not verified)",
                 lambda setup: "*" in setup.split()[0]),
    _not_written("walling", "the duck (wallingRule)"),
    _not_written("petrify_on_capture", "petrification (petrifyOnCaptureTypes)"),
    _not_written("mate_alone_loses", "mates that lose or draw by their givers (shatarMateRule)"),
    _not_written("mate_needs_check_by", "mates that lose or draw by their givers (shatarMateRule)"),
    _not_written("bare_king", "a bare king's draw (extinctionValue = draw)",
                 lambda rule: rule == "draws"),
    _not_written("standing_promotion", "promotions standing on their square (sittuyinPromotion)"),
    _not_written("lone_promotion_draw", "the draw of a lone piece that can only promote"),
)


def captures(v, types):
    return [f"mustCapture = {'true' if v.captures_compulsory else 'false'}",
            f"checkmateValue = {v.checkmate}",
            f"stalematePieceCount = {'true' if v.stalemate_piece_count else 'false'}"]


def extinction_wins(v, types):
    """`win by losing all pieces` (every type but the royal one, which FSF counts as one
    piece where the game has it) or `win by losing all of PIECE` (one type)."""
    if not v.extinction_wins:
        return []
    royal_owned = any(p.royal and p.tokens[0] for p in v.pieces)
    everything = {p.name for p in v.pieces if not p.royal}
    if set(v.extinction_wins) == everything:
        return ["extinctionValue = win", "extinctionPieceTypes = *",
                f"extinctionPieceCount = {1 if royal_owned else 0}"]
    if len(v.extinction_wins) == 1:
        letter = types[v.extinction_wins[0]][1]
        return ["extinctionValue = win", f"extinctionPieceTypes = {letter}",
                "extinctionPieceCount = 0"]
    raise ExportRefusal("Fairy-Stockfish has no win by losing all of several piece types "
                        "(it decides each listed type on its own)")


def check_count(v, types):
    if not v.check_count:
        return []
    return ["checkCounting = true"]


def setup_fen(v):
    """The start FEN, with the checks to give where the game counts checks and its
    setup does not say (Fairy-Stockfish's default would be 1+1)."""
    fields = v.setup.split()
    if not v.check_count or fen_check_counts(v.setup) or len(fields) < 4:
        return v.setup
    return " ".join(fields[:4] + [f"{v.check_count}+{v.check_count}"] + fields[4:])


def counting(v, types):
    if not v.counting:
        return []
    wanted = [types[name][0] for name in v.counting_pieces]
    if wanted != list(COUNTING_TYPES):
        raise ExportRefusal("Fairy-Stockfish's counting rules count its own pawn, rook, "
                            "khon and knight types, and the game's counting pieces are "
                            f"{', '.join(v.counting_pieces)} ({', '.join(wanted)} there)")
    return [f"countingRule = {v.counting}"]


def repetition_side(v, types):
    """`repetition N RESULT for SIDE`: nFoldValueAbsolute, whose value is White's."""
    if v.repetition_side is None:
        return []
    flip = {"win": "loss", "loss": "win", "draw": "draw"}
    value = v.repetition_result if v.repetition_side == "white" \
        else flip[v.repetition_result]
    return [f"nFoldValue = {value}", "nFoldValueAbsolute = true"]


def move_rule_pieces(v, types):
    """nMoveRuleTypes: the `restarted by` pieces, or the derived forward-only ones where
    they are not the pieces written as FSF's pawn type (its default)."""
    from ..compiler.rules.move_rule import restarts_clock
    names = v.move_rule_pieces
    if names is None:
        names = [p.name for p in v.pieces if p.name in types and restarts_clock(v, p)]
        pawns = [name for name, (option, _) in types.items() if option == "pawn"]
        if not v.move_rule or set(names) == set(pawns):
            return []
    letters = "".join(dict.fromkeys(types[name][1] for name in names))
    return [f"nMoveRuleTypes = {letters or '-'}"]


def no_royal(v, types):
    """`king = -` for a game without a royal piece, and for an atomic one, whose royal
    piece is written as FSF's atomic writes it (export._Slots: a pseudo-royal commoner
    whose extinction loses)."""
    if unowned_royal(v):
        return [f"{fsf.KING} = -"]
    if not v.explosions:
        return []
    letter = next(types[p.name][1] for p in v.pieces if p.royal)
    return [f"{fsf.KING} = -", "extinctionValue = loss", f"extinctionPieceTypes = {letter}",
            "extinctionPseudoRoyal = true", f"castlingKingPiece = {letter}"]


WRITERS = (no_royal, captures, extinction_wins, check_count, counting, repetition_side,
           move_rule_pieces)
