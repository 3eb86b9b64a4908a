"""The statements of the later rule kinds, written from a Fairy-Stockfish configuration:
explosions, captures and hops restricted by piece type (the janggi cannon), palace
lines, passing, the check-escape rule (makpong), bikjang, material counting,
pseudo-royal pieces and promotion limits.  Generators as in emit.py (a `Writer` in,
`Line`s out, `TAKE_BACK` for a child that would have to take back a parent's rule)."""

import re

from . import fsf
from .errors import ImportRefusal
from .lines import TAKE_BACK, Line

# Fairy-Stockfish's janggi material (position.h, material_counting_result): its types
# and their weights; White's count has 1 taken off, which is Black's 1.5 in halves.
JANGGI_POINTS = (("rook", "13"), ("janggiCannon", "7"), ("horse", "5"),
                 ("janggiElephant", "3"), ("wazir", "3"), ("soldier", "2"))

# The pieces that use Fairy-Stockfish's palace lines (position.cpp, attackers_to:
# "Janggi palace moves") and the Betza of their moves along them.  The king uses them
# only where it moves as a wazir (FSF's king_type() == WAZIR).
LINE_MOVES = (("wazir", "F"), ("soldier", "fF"), ("rook", "B"), ("janggiCannon", "pB"))


def _absent(w, test):
    """A child whose parent has the rule and whose ini takes it out: TAKE_BACK."""
    return TAKE_BACK if w.extends and test(w.parent) else []


def explosions(w):
    """blastOnCapture: FSF blows up the capturer and every non-pawn piece around
    (position.cpp: `pieces() ^ pieces(PAWN)`), sparing blastImmuneTypes everywhere."""
    if not w.config.flag("blastOnCapture"):
        return _absent(w, lambda p: p.explosions)
    if fsf.KING in w.config.pieces:
        w.refuse("blastOnCapture", "explosions beside Fairy-Stockfish's king type: its atomic "
                 "games blow up a pseudo-royal commoner (king = -, extinctionPseudoRoyal), "
                 "and a blown-up king type ends no game there")
    nearby = [w.names["pawn"]] if "pawn" in w.config.pieces else []
    if w.extends and w.parent.explosions:
        if list(w.parent.explosion_spared_nearby) != nearby:
            return TAKE_BACK                # (FSF's pawn type taken out: none spared)
        return _immune(w)
    lines = [Line("captures explode", ("blastOnCapture",))]
    if nearby:
        lines.append(Line(f"explosions spare {nearby[0]} nearby", ("blastOnCapture",)))
    return lines + _immune(w)


def _immune(w):
    immune = w.types("blastImmuneTypes")
    if not immune:
        return []
    return [Line(f"explosions spare {', '.join(w.names_of(immune))}",
                 ("blastImmuneTypes",))]


# The atoms on which Fairy-Stockfish's lame modifier `n` works (bitboard.cpp,
# lame_leaper_path); on any other (nC, nW, nF, nH, nG) pyffish's piece never moves.
LAME_ATOMS = "NADZ"


def refuse_lame_atoms(w, fsf_type, piece):
    """A Betza `n` on an atom where FSF's piece gets no moves, but ours a lame leap."""
    for modifiers, atom in re.findall(r"([a-z]*)([A-Z])", piece.betza):
        if "n" in modifiers and atom not in LAME_ATOMS:
            raise ImportRefusal(w.config.section, piece.setting.key or fsf_type,
                                piece.setting.line, f"a lame {atom} (Betza n{atom}): "
                                "Fairy-Stockfish gives it no moves at all (its lame leaps are "
                                f"{', '.join('n' + a for a in LAME_ATOMS)}), the language a "
                                "lame leap", piece.setting.value)


def royal_letters(w, piece):
    """The royal piece's letters: a side without one in the start position, that can
    never get one (no promotion to it; a royal piece is never in hand), owns none
    (maharajah's White: `-/k`), as Fairy-Stockfish plays a side without a king."""
    from .emit import promoted_pairs
    board = w.config.value("startFen").split()[0]
    reached = {w.config.type_of(ch) for ch in w.config.value("promotionPieceTypesWhite")}
    reached |= {high for _, high in promoted_pairs(w)}
    if w.config.type_of(piece.letter) in reached:
        return piece.letter.upper()
    white = piece.letter.upper() if piece.letter.upper() in board else "-"
    black = piece.letter if piece.letter in board else "-"
    if white != "-" and black != "-":
        return piece.letter.upper()
    return f"{white}/{black}"


def capture_bans(w):
    """mutuallyImmuneTypes: a piece of a listed type never takes one of its own type."""
    lines = []
    for fsf_type in w.types("mutuallyImmuneTypes"):
        names = ", ".join(w.names_of([fsf_type]))
        lines.append(Line(f"no capture of {names} by {names}", ("mutuallyImmuneTypes",)))
    return lines


def janggi_cannon(w, piece):
    """The janggi cannon: a hopper that never hops over a cannon nor takes one."""
    name, key = w.names["janggiCannon"], piece.setting.key or "janggiCannon"
    return [Line(f"piece {name} {piece.letter.upper()} pR", (key,)),
            Line(f"no hop over {name} by {name}", (key,)),
            Line(f"no capture of {name} by {name}", (key,))]


def palace_lines(w):
    """diagonalLines: the region of the lines, and each piece's moves along them."""
    squares = w.squares("diagonalLines")
    if not squares:
        return _absent(w, lambda p: any(a.along for piece in p.pieces for a in piece.moves))
    from . import regions
    w.region_lines.append(Line(f"region lines = {regions.expression(squares, w.files, w.ranks)}",
                               ("diagonalLines",)))
    users = list(LINE_MOVES)
    king = w.config.pieces.get(fsf.KING)
    if king and king.betza == "W":
        users.insert(0, (fsf.KING, "F"))
    return [Line(f"move {w.names[t]} {betza} along lines", ("diagonalLines",))
            for t, betza in users if t in w.config.pieces]


def passing(w):
    sides = [s for s, o in (("white", "passWhite"), ("black", "passBlack"))
             if w.config.flag(o)]
    if not sides:
        return _absent(w, lambda p: p.passing)
    which = "" if len(sides) == 2 else f" for {sides[0]}"
    return [Line(f"passing allowed{which}", ("passWhite", "passBlack"))]


def check_escape(w):
    """makpongRule: a king in check may not step away, only capture the checker."""
    if not w.config.flag("makpongRule"):
        return _absent(w, lambda p: p.royal_stays_in_check)
    if fsf.KING not in w.config.pieces:
        w.refuse("makpongRule", "the makpong rule needs a royal piece")
    return [Line(f"in check, {w.names[fsf.KING]} may only capture the checker",
                 ("makpongRule",))]


def bikjang(w):
    if not w.config.flag("bikjangRule"):
        return _absent(w, lambda p: p.facing_kings_end)
    return [Line("facing kings end the game", ("bikjangRule",))]


def material(w):
    """materialCounting: draw odds for one side, or janggi's points."""
    kind = w.config.value("materialCounting")
    if kind == "none":
        return _absent(w, lambda p: p.draw_odds or p.points)
    if kind in ("whitedrawodds", "blackdrawodds"):
        if w.extends and w.parent.points:
            return TAKE_BACK                # (one materialCounting: the points go)
        side = kind[:5]
        return [Line(f"draws count as wins for {side}", ("materialCounting",))]
    if kind != "janggi":
        w.refuse("materialCounting", f"material counting '{kind}' is not in the language "
                                     "yet (janggi and the draw odds are)")
    points = [f"{w.names[t]} {n}" for t, n in JANGGI_POINTS if t in w.config.pieces]
    return [Line(f"points {', '.join(points + ['black 1.5'])}", ("materialCounting",))]


def royal_stand_in(config):
    """The piece written as the royal one in an atomic game without a king: FSF's atomic
    makes its one extinction type pseudo-royal (variant.cpp, atomic_variant), which with
    explosions plays as a royal piece (definitions/atomic.variant); the language's
    pseudo-royal pieces may be blown up by their own side's captures."""
    value = config.options
    if fsf.KING in config.pieces or not config.flag("blastOnCapture") or \
            not config.flag("extinctionPseudoRoyal") or value["extinctionValue"].value != "loss" \
            or value["extinctionPieceCount"].value != "0":
        return None
    listed = value["extinctionPieceTypes"].value.strip()
    found = config.type_of(listed) if len(listed) == 1 and listed.isalpha() else None
    return found


def pseudo_royal(w):
    """extinctionPseudoRoyal: the extinction types may not be left attacked while a side
    has at most extinctionPieceCount + 1 of them (position.cpp, pseudoRoyals)."""
    if not w.config.flag("extinctionPseudoRoyal"):
        return _absent(w, lambda p: p.pseudo_royal)
    if w.config.value("extinctionPieceTypes").strip() in ("", "*"):
        w.refuse("extinctionPseudoRoyal", "pseudo-royal pieces are the listed "
                                          "extinctionPieceTypes (not `*`)")
    types = [t for t in w.types("extinctionPieceTypes")
             if t not in (fsf.KING, royal_stand_in(w.config))]
    if not types:
        return []
    most = int(w.config.value("extinctionPieceCount")) + 1
    when = "" if most >= w.files * w.ranks else f" when at most {most}"
    duple = ", duple check" if w.config.flag("dupleCheck") else ""
    from .emit import promoted_pairs
    if any(high in types for _, high in promoted_pairs(w)):
        w.refuse("promotedPieceType", "a piece promotion to a pseudo-royal type: FSF judges "
                 "it by the count before the move (position.cpp, legal: only a pawn's "
                 "PROMOTION by the count after), `pseudo royal` every promotion by the "
                 "count after it")
    if len(types) > 1 and most < w.files * w.ranks:
        w.refuse("extinctionPieceTypes", "FSF counts each pseudo-royal type on its own, "
                 "`pseudo royal … when at most N` the listed pieces together")
    return [Line(f"pseudo royal {', '.join(w.names_of(types))}{when}{duple}",
                 ("extinctionPseudoRoyal", "extinctionPieceTypes", "extinctionPieceCount",
                  "dupleCheck"))]


def promotion_limit(w):
    """promotionLimit = g:1 a:1: a side promotes to a type only while it has fewer than N
    of it (movegen.cpp: `promotion_limit(pt) > count(us, pt)`; 0 is no limit).  A type
    that promotedPieceType reaches is our `+` piece of each piece that promotes to it."""
    from .emit import promoted_pairs
    lines = []
    for item in w.config.value("promotionLimit").split():
        letter, _, count = item.partition(":")
        fsf_type = w.config.type_of(letter) if len(letter) == 1 else None
        if not count.isdigit() or fsf_type is None:
            w.refuse("promotionLimit", f"expected pairs such as q:1 of the game's pieces, "
                                       f"found {item!r}")
        names = [w.names["+" + low] for low, high in promoted_pairs(w) if high == fsf_type]
        if fsf_type in w.types("promotionPieceTypesWhite"):
            names.insert(0, w.names[fsf_type])
        lines += [Line(f"promotion to {name} only while fewer than {count}",
                       ("promotionLimit",)) for name in names if int(count) > 0]
    return lines or _absent(w, lambda p: p.promotion_limits)
