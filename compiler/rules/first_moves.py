"""`first move PIECE BETZA [, not in check] [, lost to ROOK on its lines]`: moves a
piece may make only while it has not moved from its square in the setup, carried in
the FEN as Fairy-Stockfish carries its gating rights, by the square's file in the
castling field (`DEde`).  Cambodian chess (Ouk Chatrang, FSF's cambodianMoves): the
king's first move may be a knight's leap to the rank in front (`mfsN`: d1 to b2 or f2),
not while in check, and the met's a leap two squares straight ahead (`mfD`: e1 to e3).

A right belongs to a square of the setup that holds the piece: it is lost when a move
leaves or ends on that square (the piece moved or was captured), and, with `lost to
ROOK on its lines`, when an enemy ROOK moves to a square on the piece's rank or file,
whatever stands between (FSF: a rook "aiming" at the king).  The moves are leaps to
empty squares.

Engine (templates/rules/first_moves.j2): the rights are bits of the core's castling
rights after the castling options (`rights` below gives the order), so make/unmake,
the Zobrist key and set_state carry them, and CASTLE_CLEAR loses them when their
square is touched; the extra_moves hook generates the leaps, the after_make hook takes
the right away on a rook's line.  FEN: compiler/positions.py reads the letters,
runtime/fen_out.py writes them.  Oracle: pyffish's cambodian and karouk
(tests/test_first_moves.py, tests/test_fsf_catalog.py).
"""

from dataclasses import dataclass
from typing import Any

from fairyforge.encoding import piece_code
from fairyforge.errors import FenError
from fairyforge.fen import parse_fen

from ..geometry import orient
from ..nodes import Node

ORDER = 14

GRAMMAR = '''
// first move PIECE BETZA [, not in check] [, lost to PIECE on its lines]
first_move_decl: "first" "move" NAME BETZA NOT_IN_CHECK? first_move_lost?
NOT_IN_CHECK.2: /,[ \\t]*not[ \\t]+in[ \\t]+check(?![A-Za-z0-9_])/
first_move_lost: "," "lost" "to" NAME "on" "its" "lines"
'''
KEYWORDS = ("first",)
TERMINAL_WORDS = {"NOT_IN_CHECK": ", not in check"}
TRANSFORMS = {"first_move_lost": lambda children: children[0]}


@dataclass
class FirstMove(Node):
    piece: Any
    betza: Any
    not_in_check: Any = None        # the NOT_IN_CHECK token
    lost_to: Any = None             # the NAME of `lost to NAME on its lines`

    @classmethod
    def from_parts(cls, parts):
        check = next((p for p in parts[2:] if getattr(p, "type", "") == "NOT_IN_CHECK"), None)
        lost = next((p for p in parts[2:] if getattr(p, "type", "") == "NAME"), None)
        return cls(parts[0], parts[1], check, lost)


@dataclass(frozen=True)
class FirstMoveRule:
    """One piece's first moves: White-relative leaps (dx, dy), refused while its side
    is in check or not, and the piece whose move onto its lines takes the right."""
    piece: str
    betza: str
    leaps: tuple
    not_in_check: bool = False
    lost_to: str = ""


STATEMENTS = {"first_move_decl": FirstMove}
FIELDS = [("first_moves", tuple, ())]          # FirstMoveRule per piece
TEMPLATE = "rules/first_moves.j2"


def resolve(nodes, context):
    """A later statement for the same piece replaces the earlier one (also in a child)."""
    rules = {}
    for node in nodes:
        name = context.piece_name(node, node.piece)
        leaps = _leaps(node, context)
        lost = context.piece_name(node, node.lost_to) if node.lost_to is not None else ""
        if name is None or leaps is None or lost is None:
            continue
        rules[name] = FirstMoveRule(name, str(node.betza), leaps,
                                    node.not_in_check is not None, lost)
    if rules:
        _check_setup(nodes, context, rules)
    return {"first_moves": tuple(rules.values())}


def _leaps(node, context):
    """The statement's Betza as White-relative (dx, dy) leaps to empty squares."""
    from ..betza import BetzaError, parse_betza     # (betza imports the model, which
    try:                                            # imports the rule kinds)
        atoms = parse_betza(str(node.betza))
    except BetzaError as err:
        context.error(node, node.betza, f"first move {node.piece}: {err}")
        return None
    own = [a for a in context.pieces.get(str(node.piece), {}).get("atoms", ()) if a.moves]
    for a in atoms:
        if a.kind != "leap" or a.captures or a.lame_path or a.initial:
            context.error(node, node.betza, f"first move {node.piece} {node.betza}: only "
                          "leaps to empty squares are supported (m…, as in mfD)")
            return None
        if any(_reaches(b, a.dx, a.dy) for b in own):
            context.error(node, node.betza, f"first move {node.piece} {node.betza}: a "
                          f"{node.piece} already moves there")
            return None
    return tuple((a.dx, a.dy) for a in atoms)


def _reaches(atom, dx, dy):
    """Could the piece's own move `atom` also go (dx, dy)?  (Then the first move would
    be generated twice.)  A rider or hopper counts for every multiple of its step."""
    if atom.kind == "leap":
        return (atom.dx, atom.dy) == (dx, dy)
    for k in range(1, 1 + max(abs(dx), abs(dy))):
        if (atom.dx * k, atom.dy * k) == (dx, dy):
            return not atom.max_steps or k <= atom.max_steps
    return False


def _check_setup(nodes, context, rules):
    """Each piece with first moves stands in the setup, on one square per file and side
    (the FEN names a right by its file)."""
    setup = context.statements.get("setup")
    if setup is None:
        return
    table = {tok: (name, colour) for name, info in context.pieces.items()
             for colour, tok in enumerate(info["tokens"]) if tok is not None}
    try:
        parsed = parse_fen(str(setup.fen).strip('"'), context.files, context.ranks, table)
    except (FenError, ValueError):
        return                      # (the setup's own check reports it)
    last = {str(n.piece): n for n in nodes if str(n.piece) in rules}
    seen = {}
    for square, (name, colour) in sorted(parsed.board.items()):
        if name not in rules:
            continue
        key = (colour, square[0])
        if key in seen:
            context.error(last[name], last[name].piece, f"first move {name}: the "
                          f"{seen[key]} and the {name} of one side stand on one file in the "
                          "setup (a FEN names a first-move right by its file)")
        seen[key] = name
    for name, node in last.items():
        if name not in seen.values():
            context.error(node, node.piece, f"first move {name}: no {name} in the setup")


def rights(variant, colour_names=("white", "black")):
    """The first-move rights, in the order of their bits (after the castling options):
    White's by file, then Black's.  Each: {colour, square (file, rank), piece, letter,
    bit, leaps (as that side plays them), not_in_check, lost_to}."""
    if not variant.first_moves:
        return []
    rules = {r.piece: r for r in variant.first_moves}
    names = [p.name for p in variant.pieces]
    table = {tok: (p.name, colour) for p in variant.pieces
             for colour, tok in enumerate(p.tokens) if tok is not None}
    parsed = parse_fen(variant.setup, variant.files, variant.ranks, table)
    found = sorted((colour, square[0], square[1], name)
                   for square, (name, colour) in parsed.board.items() if name in rules)
    out = []
    for colour, f, r, name in found:
        rule = rules[name]
        letter = chr(ord("a") + f)
        out.append({"colour": colour, "square": (f, r), "piece": name,
                    "type": names.index(name),
                    "letter": letter.upper() if colour == 0 else letter,
                    "bit": len(variant.castling) + len(out),
                    "leaps": [orient(dx, dy, colour, variant.symmetry) for dx, dy in rule.leaps],
                    "not_in_check": rule.not_in_check,
                    "lost_to": names.index(rule.lost_to) if rule.lost_to else -1})
    return out


def lower(variant, lowerer):
    out = []
    for right in rights(variant):
        f, r = right["square"]
        sq = lowerer.index(f, r)
        targets = [lowerer.index(f + dx, r + dy) for dx, dy in right["leaps"]
                   if 0 <= f + dx < variant.files and 0 <= r + dy < variant.ranks]
        lines = [lowerer.index(x, r) for x in range(variant.files) if x != f] + \
                [lowerer.index(f, y) for y in range(variant.ranks) if y != r]
        out.append(dict(right, sq=sq, targets=targets, lines=lines,
                        code=piece_code(right["type"], right["colour"]),
                        mask=1 << right["bit"], name=f"{chr(97 + f)}{r + 1}"))
    return {"rights": out}


def active(tables):
    return bool(tables["rights"])


def _words(rules):
    if not rules:
        return "no first moves"
    return "; ".join(f"{r.piece} {r.betza}"
                     + (" (not in check)" if r.not_in_check else "")
                     + (f" (lost to {r.lost_to} on its lines)" if r.lost_to else "")
                     for r in rules)


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("first_moves")
    def first_moves(cmp, old, new):
        if tuple(old) != tuple(new):
            cmp.add("special", words.change_kind(old, new), "first moves",
                    f"{_words(old)} -> {_words(new)}")
