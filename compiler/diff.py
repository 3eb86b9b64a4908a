"""Compare two variants: their resolved rule models, or their engines' behaviour.

`diff_variants(a, b)` compares two rule models (never the definition text), so two
definitions that differ only in formatting, statement order, comments or the names of
regions compare equal.  The result, a RuleDiff, is a list of groups (board, pieces,
captures, drops, special rules, game end, setup, other), each a list of entries with a
`kind` (added, removed or changed), a `subject`, a one-line `text` in plain words and
`details` (more lines of plain words, with the Betza beside every move).

The comparison is generic over the model's dataclass fields: anything this module does
not render specially is still compared, and reported as "field X changed from .. to ..".

`play_diff(game_a, game_b, depth)` compares two compiled games by what they allow: a
breadth-first search for the shortest move sequence after which the two engines'
legal moves differ.

    from fairyforge.compiler import diff
    result = diff.diff_files("chess", "crazyhouse")
    print(diff.render(result, "text"))
    play = diff.play_diff(ff.load("shogi"), ff.load("my_shogi.variant"), depth=3)
"""

import json
import re
import time
from collections import Counter
from dataclasses import dataclass, field, fields, is_dataclass
from functools import lru_cache
from typing import Optional

import yaml

from fairyforge.errors import FairyforgeError
from fairyforge.fen import parse_fen, parse_square

from .betza import BetzaError, parse_betza
from .model import SquareSet

FORMATS = ("text", "yaml", "json")

GROUPS = (
    ("board", "Board and regions"),
    ("pieces", "Pieces"),
    ("captures", "Captures"),
    ("drops", "Drops"),
    ("special", "Special rules"),
    ("game_end", "Game end"),
    ("setup", "Setup"),
    ("other", "Other rules"),
)
GROUP_TITLES = dict(GROUPS)
KINDS = ("added", "removed", "changed")
MARKERS = {"added": "+", "removed": "-", "changed": "~"}

# Variant fields that identify a game but are not rules: shown in the header only.
IDENTITY_FIELDS = {"name", "title", "parent"}


class DiffError(FairyforgeError):
    """Two games cannot be compared the way that was asked (e.g. by play)."""


# ----------------------------------------------------------------------------------------
# The result
# ----------------------------------------------------------------------------------------

@dataclass
class Entry:
    """One difference: `kind` is added, removed or changed (from A to B)."""

    kind: str
    subject: str
    text: str
    details: list = field(default_factory=list)

    def as_dict(self):
        return {"kind": self.kind, "subject": self.subject, "text": self.text,
                "details": list(self.details)}


@dataclass
class Group:
    name: str
    title: str
    entries: list = field(default_factory=list)

    def __bool__(self):
        return bool(self.entries)

    def __iter__(self):
        return iter(self.entries)

    def __len__(self):
        return len(self.entries)

    def find(self, subject):
        """The entries about `subject`."""
        return [e for e in self.entries if e.subject == subject]

    def as_dict(self):
        return {"name": self.name, "title": self.title,
                "entries": [e.as_dict() for e in self.entries]}


@dataclass
class RuleDiff:
    """The rule differences between variants A and B (only groups with entries)."""

    a: dict                     # name, title, parent of A
    b: dict
    groups: list = field(default_factory=list)

    def __bool__(self):
        return any(self.groups)

    @property
    def count(self):
        return sum(len(g) for g in self.groups)

    def group(self, name):
        """The group called `name` (empty if it has no differences)."""
        if name not in GROUP_TITLES:
            raise KeyError(f"no diff group '{name}' (groups: {', '.join(GROUP_TITLES)})")
        for g in self.groups:
            if g.name == name:
                return g
        return Group(name, GROUP_TITLES[name])

    def entries(self):
        return [e for g in self.groups for e in g.entries]

    def as_dict(self):
        def public(ident):
            return {k: v for k, v in ident.items() if not k.startswith("_")}
        return {"a": public(self.a), "b": public(self.b), "differences": self.count,
                "groups": [g.as_dict() for g in self.groups]}


@dataclass
class PlayDiff:
    """The result of a behavioural comparison.

    found: a position was reached where the legal moves differ; `sequence` is the
    shortest move sequence leading to it (moves legal in both games), `only_a` and
    `only_b` the moves just one of the games allows there.  complete: the search
    covered every position up to `depth` (False when it stopped at the position limit).
    """

    a: str
    b: str
    depth: int
    start_fen_a: str
    start_fen_b: str
    found: bool
    sequence: list = field(default_factory=list)
    fen_a: Optional[str] = None
    fen_b: Optional[str] = None
    only_a: list = field(default_factory=list)
    only_b: list = field(default_factory=list)
    positions: int = 0
    complete: bool = True
    searched_depth: int = 0

    def __bool__(self):
        return self.found

    def as_dict(self):
        return {"a": self.a, "b": self.b, "depth": self.depth,
                "start_fen_a": self.start_fen_a, "start_fen_b": self.start_fen_b,
                "found": self.found, "sequence": list(self.sequence),
                "fen_a": self.fen_a, "fen_b": self.fen_b,
                "only_a": list(self.only_a), "only_b": list(self.only_b),
                "positions": self.positions, "complete": self.complete,
                "searched_depth": self.searched_depth}


# ----------------------------------------------------------------------------------------
# Canonical values: what "equal" means
# ----------------------------------------------------------------------------------------

def canon(value):
    """A hashable canonical form: square sets as sets, dataclasses field by field."""
    if isinstance(value, SquareSet):
        return ("SquareSet", frozenset(value.white), frozenset(value.black))
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple((f.name, canon(getattr(value, f.name)))
                                               for f in fields(value))
    if isinstance(value, (tuple, list)):
        return tuple(canon(x) for x in value)
    if isinstance(value, dict):
        return tuple(sorted((canon(k), canon(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return frozenset(canon(x) for x in value)
    return value


def _is_scalar(value):
    return value is None or isinstance(value, (str, int, float, bool))


def _get(obj, name, default=None):
    return getattr(obj, name, default)


# ----------------------------------------------------------------------------------------
# Squares in plain words
# ----------------------------------------------------------------------------------------

class Board:
    """A board's size, for describing sets of squares (full ranks, files, rectangles)."""

    def __init__(self, files, ranks):
        self.files, self.ranks = files, ranks

    @classmethod
    def of(cls, variant):
        return cls(_get(variant, "files", 8), _get(variant, "ranks", 8))

    def squares(self):
        return {(f, r) for f in range(self.files) for r in range(self.ranks)}


def _coords(names):
    """(file, rank) pairs from square names (or pairs already)."""
    out = set()
    for name in names:
        if isinstance(name, tuple):
            out.add(name)
            continue
        sq = parse_square(str(name), 26, 100)
        if sq is not None:
            out.add(sq)
    return out


def _file(f):
    return chr(ord("a") + f)


def _sq(f, r):
    return f"{_file(f)}{r + 1}"


def squares_text(names, board):
    """A set of squares in the language's own words: 'rank 8', 'ranks 2-7', 'file a',
    'd1-f3', 'e4', 'all squares'; 'no squares' when empty."""
    coords = _coords(names)
    if not coords:
        return "no squares"
    if board is not None and coords == board.squares():
        return "all squares"
    # runs of adjacent files on each rank, merged over consecutive ranks into rectangles
    runs = []
    for r in sorted({r for _, r in coords}):
        fs = sorted(f for f, rr in coords if rr == r)
        start = prev = fs[0]
        for f in fs[1:]:
            if f != prev + 1:
                runs.append((start, prev, r))
                start = f
            prev = f
        runs.append((start, prev, r))
    rects = []          # [f0, f1, r0, r1]
    open_rects = {}
    for f0, f1, r in runs:
        rect = open_rects.get((f0, f1))
        if rect is not None and rect[3] == r - 1:
            rect[3] = r
        else:
            rect = [f0, f1, r, r]
            rects.append(rect)
            open_rects[(f0, f1)] = rect
    files = board.files if board else None
    ranks = board.ranks if board else None
    parts = []
    for f0, f1, r0, r1 in sorted(rects, key=lambda x: (x[2], x[0])):
        if files is not None and f0 == 0 and f1 == files - 1:
            parts.append(f"rank {r0 + 1}" if r0 == r1 else f"ranks {r0 + 1}-{r1 + 1}")
        elif ranks is not None and r0 == 0 and r1 == ranks - 1:
            parts.append(f"file {_file(f0)}" if f0 == f1 else f"files {_file(f0)}-{_file(f1)}")
        elif f0 == f1 and r0 == r1:
            parts.append(_sq(f0, r0))
        else:
            parts.append(f"{_sq(f0, r0)}-{_sq(f1, r1)}")
    return ", ".join(parts)


def squareset_text(ss, board):
    """A per-side square set: 'ranks 2-7' when both sides have the same squares, else
    'rank 8 for White, rank 1 for Black'."""
    if ss is None:
        return "none"
    white, black = set(ss.white), set(ss.black)
    if white == black:
        return squares_text(white, board)
    return f"{squares_text(white, board)} for White, {squares_text(black, board)} for Black"


def squareset_change(a, b, board_a, board_b):
    """How a per-side square set changed: 'rank 8 for White, ... -> ... (adds ..., removes ...)'."""
    before = squareset_text(a, board_a)
    after = squareset_text(b, board_b)
    a_sides = {"White": set(a.white) if a else set(), "Black": set(a.black) if a else set()}
    b_sides = {"White": set(b.white) if b else set(), "Black": set(b.black) if b else set()}
    notes = {}
    for side in ("White", "Black"):
        added, removed = b_sides[side] - a_sides[side], a_sides[side] - b_sides[side]
        bits = []
        if added:
            bits.append("adds " + squares_text(added, board_b))
        if removed:
            bits.append("removes " + squares_text(removed, board_a))
        notes[side] = ", ".join(bits)
    if notes["White"] == notes["Black"]:
        note = notes["White"]
    else:
        note = "; ".join(f"for {side}: {text}" for side, text in notes.items() if text)
    return f"{before} -> {after}" + (f" ({note})" if note else "")


# ----------------------------------------------------------------------------------------
# Generic values and field-by-field comparison
# ----------------------------------------------------------------------------------------

def value_text(value, board=None):
    """Any model value in plain words."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, SquareSet):
        return squareset_text(value, board)
    if is_dataclass(value) and not isinstance(value, type):
        inner = ", ".join(f"{f.name} {value_text(getattr(value, f.name), board)}"
                          for f in fields(value))
        return f"{type(value).__name__}({inner})"
    if isinstance(value, (tuple, list)):
        if not value:
            return "none"
        return "[" + ", ".join(value_text(v, board) for v in value) + "]"
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else str(value)
    return str(value)


def generic_changes(a, b, label, board_a=None, board_b=None):
    """Plain lines for how a value changed, recursing into dataclasses."""
    if canon(a) == canon(b):
        return []
    if isinstance(a, SquareSet) or isinstance(b, SquareSet):
        if (a is None or isinstance(a, SquareSet)) and (b is None or isinstance(b, SquareSet)):
            return [f"{label}: {squareset_change(a, b, board_a, board_b)}"]
    if (is_dataclass(a) and is_dataclass(b) and type(a) is type(b)
            and not isinstance(a, type)):
        lines = []
        for f in fields(a):
            lines += generic_changes(getattr(a, f.name), getattr(b, f.name),
                                     f"{label}.{f.name}", board_a, board_b)
        return lines
    if (isinstance(a, (tuple, list)) and isinstance(b, (tuple, list))
            and not all(_is_scalar(x) for x in tuple(a) + tuple(b))):
        ca = Counter(canon(x) for x in a)
        cb = Counter(canon(x) for x in b)
        if ca == cb:
            return []           # the same items in another order
        by_canon = {canon(x): x for x in tuple(a) + tuple(b)}
        added = [by_canon[k] for k in (cb - ca).elements()]
        removed = [by_canon[k] for k in (ca - cb).elements()]
        bits = []
        if added:
            bits.append("adds " + "; ".join(value_text(x, board_b) for x in added))
        if removed:
            bits.append("removes " + "; ".join(value_text(x, board_a) for x in removed))
        return [f"field {label} changed: " + ", ".join(bits)]
    return [f"field {label} changed from {value_text(a, board_a)} to {value_text(b, board_b)}"]


def unknown_field_changes(a, b, known, prefix, board_a, board_b):
    """Generic lines for the fields of a dataclass this module does not render specially
    (fields added to the model later are diffed this way automatically)."""
    lines = []
    names = [f.name for f in fields(a)] if a is not None else []
    names += [f.name for f in fields(b) if f.name not in names] if b is not None else []
    for name in names:
        if name in known:
            continue
        lines += generic_changes(_get(a, name), _get(b, name),
                                 f"{prefix}{name}", board_a, board_b)
    return lines


# ----------------------------------------------------------------------------------------
# Moves in plain words with Betza
# ----------------------------------------------------------------------------------------

FAMILY_LETTERS = {(1, 0): "W", (1, 1): "F", (2, 0): "D", (2, 1): "N", (2, 2): "A",
                  (3, 0): "H", (3, 1): "C", (3, 2): "Z", (3, 3): "G"}
FAMILY_ORDER = "WFDNAHCZG"
LEAP_NOUNS = {"W": "orthogonal step", "F": "diagonal step",
              "D": "two-square orthogonal leap", "N": "knight leap",
              "A": "two-square diagonal leap", "H": "three-square orthogonal leap",
              "C": "camel leap", "Z": "zebra leap", "G": "three-square diagonal leap"}
RIDE_NOUNS = {"W": "orthogonal slide", "F": "diagonal slide",
              "D": "two-square orthogonal ride", "N": "knight ride",
              "A": "two-square diagonal ride", "H": "three-square orthogonal ride",
              "C": "camel ride", "Z": "zebra ride", "G": "three-square diagonal ride"}
RIDER_LETTERS = {"W": "R", "F": "B"}

ORTHOGONAL_GROUPS = (("", ""), ("fs", "forward and sideways"), ("bs", "backward and sideways"),
                     ("v", "forward and backward"), ("s", "sideways"), ("f", "forward"),
                     ("b", "backward"), ("l", "left"), ("r", "right"))
DIAGONAL_GROUPS = (("", ""), ("f", "forward"), ("b", "backward"), ("l", "left"),
                   ("r", "right"), ("fl", "forward-left"), ("fr", "forward-right"),
                   ("bl", "back-left"), ("br", "back-right"))
OBLIQUE_GROUPS = (("", ""), ("fh", "forward"), ("bh", "backward"), ("lh", "left"),
                  ("rh", "right"), ("v", "narrow forward and backward"),
                  ("s", "wide sideways"), ("f", "narrow forward"), ("b", "narrow backward"),
                  ("fs", "wide forward"), ("bs", "wide backward"), ("l", "wide left"),
                  ("r", "wide right"), ("lv", "narrow left"), ("rv", "narrow right"),
                  ("lf", "narrow forward-left"), ("rf", "narrow forward-right"),
                  ("fl", "wide forward-left"), ("fr", "wide forward-right"),
                  ("lb", "narrow back-left"), ("rb", "narrow back-right"),
                  ("bl", "wide back-left"), ("br", "wide back-right"))

ATOM_KNOWN = {"dx", "dy", "kind", "max_steps", "moves", "captures", "lame_path",
              "initial", "only_in"}


@lru_cache(maxsize=None)
def direction_groups(letter):
    """[(Betza direction modifiers, words, frozenset of vectors)] for an atom letter,
    largest first; the vectors are what the Betza parser itself makes of them."""
    a, b = next(k for k, v in FAMILY_LETTERS.items() if v == letter)
    table = ORTHOGONAL_GROUPS if b == 0 else DIAGONAL_GROUPS if a == b else OBLIQUE_GROUPS
    out = []
    for mods, words in table:
        try:
            vectors = frozenset((x.dx, x.dy) for x in parse_betza(mods + letter))
        except BetzaError:
            continue
        if vectors and vectors not in {g[2] for g in out}:
            out.append((mods, words, vectors))
    out.sort(key=lambda g: -len(g[2]))       # stable: the table's order among equals
    return tuple(out)


def _family(dx, dy):
    key = tuple(sorted((abs(dx), abs(dy)), reverse=True))
    return FAMILY_LETTERS.get(key)


def _cover(letter, vectors):
    """Split a set of vectors into named direction groups: [(mods, words)]."""
    remaining = set(vectors)
    chosen = []
    for mods, words, group in direction_groups(letter):
        if group <= remaining:
            chosen.append((mods, words))
            remaining -= group
        if not remaining:
            break
    return chosen, remaining


@dataclass(frozen=True)
class _Signature:
    letter: Optional[str]
    kind: str
    max_steps: int
    moves: bool
    captures: bool
    lame: bool
    initial: bool
    only_in: object
    extras: tuple


def _signature(atom):
    extras = tuple((f.name, canon(getattr(atom, f.name))) for f in fields(atom)
                   if f.name not in ATOM_KNOWN)
    return _Signature(_family(atom.dx, atom.dy), atom.kind, atom.max_steps, atom.moves,
                      atom.captures, bool(atom.lame_path), atom.initial,
                      canon(atom.only_in) if atom.only_in is not None else None, extras)


def _prefix(sig):
    """('i' or '', the Betza modifiers that follow the direction letters, the words that
    come before the direction), e.g. ('i', 'mn', ['first-move', 'non-capturing', ...])."""
    words, after = [], ""
    if sig.initial:
        words.append("first-move")
    if sig.moves and not sig.captures:
        after += "m"
        words.append("non-capturing")
    elif sig.captures and not sig.moves:
        after += "c"
        words.append("capture-only")
    elif not sig.moves and not sig.captures:
        words.append("inert")
    if sig.lame:
        after += "n"
        words.append("blockable")
    if sig.kind == "hop":
        after += "p"
    elif sig.kind == "grasshop":
        after += "g"
    return ("i" if sig.initial else ""), after, words


def _atom_text(sig, merged=False):
    """The noun and the Betza atom of a signature: ('orthogonal slide', 'R'); `merged`
    for a full W and F together ('step in any direction', 'K')."""
    family = sig.letter
    if sig.kind == "leap":
        if merged:
            return "step in any direction", "K"
        noun = LEAP_NOUNS[family]
        if sig.max_steps not in (0, 1):
            noun += f" (at most {sig.max_steps})"
        return noun, family
    if merged:
        base, rider, unit = "slide in any direction", "Q", "squares"
    else:
        base = RIDE_NOUNS[family]
        rider = RIDER_LETTERS.get(family) or family + ("" if sig.max_steps else family)
        unit = "squares" if family in RIDER_LETTERS else "leaps"
    if sig.max_steps:
        rider += str(sig.max_steps)
        base += f" of up to {sig.max_steps} {unit}"
    if sig.kind == "hop":
        return f"{base} hopping over exactly one piece", rider
    if sig.kind == "grasshop":
        return f"{base} as a grasshopper (landing right behind the first piece)", rider
    if sig.kind == "ride":
        return base, rider
    return f"{base} ({sig.kind})", rider


def describe_moves(atoms, board=None):
    """Group move atoms into phrases: [(words, betza)], e.g.
    ('backward diagonal step', 'bF'), ('forward orthogonal slide', 'fR')."""
    groups = {}
    order = []
    for atom in atoms:
        sig = _signature(atom)
        if sig not in groups:
            groups[sig] = set()
            order.append(sig)
        groups[sig].add((atom.dx, atom.dy))
    # a full W and a full F of the same kind read better as K (a step) or Q (a slide)
    merged = {}
    for sig in order:
        if sig.letter != "W" or sig.kind not in ("leap", "ride", "hop", "grasshop"):
            continue
        twin = _Signature("F", *[getattr(sig, f.name) for f in fields(sig)][1:])
        if (twin in groups and len(groups[sig]) == 4 and len(groups[twin]) == 4
                and (sig.kind != "leap" or sig.max_steps == 1)):
            merged[sig] = twin
    skip = set(merged.values())

    def sort_key(sig):
        fam = FAMILY_ORDER.index(sig.letter) if sig.letter in FAMILY_ORDER else 99
        return (sig.initial, sig.only_in is not None, fam,
                ("leap", "ride", "hop", "grasshop").index(sig.kind)
                if sig.kind in ("leap", "ride", "hop", "grasshop") else 9,
                not (sig.moves and sig.captures), sig.captures)

    phrases = []
    for sig in sorted(order, key=sort_key):
        if sig in skip:
            continue
        initial, after, words = _prefix(sig)
        where = ""
        if sig.only_in is not None:
            ss = SquareSet(tuple(sorted(sig.only_in[1])), tuple(sorted(sig.only_in[2])))
            where = f" while standing on {squareset_text(ss, board)}"
        extra = "".join(f" [{name} {value_text(value)}]" for name, value in sig.extras)
        if sig in merged:
            noun, atom = _atom_text(sig, merged=True)
            text = " ".join(words + [noun])
            phrases.append((text + where + extra, initial + after + atom))
            continue
        if sig.letter is None:
            for dx, dy in sorted(groups[sig]):
                verb = "leap" if sig.kind == "leap" else sig.kind
                text = " ".join(words + [f"{verb} by ({dx:+d}, {dy:+d})"])
                phrases.append((text + where + extra, "?"))
            continue
        noun, atom = _atom_text(sig)
        chosen, rest = _cover(sig.letter, groups[sig])
        dir_words = [w for _, w in chosen if w]
        fragments = [initial + mods + after + atom for mods, _ in chosen]
        for dx, dy in sorted(rest):                 # cannot happen with Betza atoms
            dir_words.append(f"({dx:+d}, {dy:+d})")
            fragments.append("?")
        direction = " and ".join(dir_words)
        text = " ".join(words + ([direction] if direction else []) + [noun])
        phrases.append((text + where + extra, "".join(fragments)))
    return phrases


def moves_text(atoms, board=None):
    """'non-capturing forward orthogonal step (fmW); ...' or 'none'."""
    phrases = describe_moves(atoms, board)
    if not phrases:
        return "none"
    return "; ".join(f"{words} ({betza})" for words, betza in phrases)


def _atom_counter(atoms):
    return Counter(canon(a) for a in atoms)


def atom_changes(atoms_a, atoms_b):
    """(gained atoms, lost atoms) from A to B, order-insensitive."""
    ca, cb = _atom_counter(atoms_a), _atom_counter(atoms_b)
    by_canon = {}
    for atom in tuple(atoms_a) + tuple(atoms_b):
        by_canon.setdefault(canon(atom), atom)
    gained = [by_canon[k] for k in (cb - ca).elements()]
    lost = [by_canon[k] for k in (ca - cb).elements()]
    return gained, lost


# ----------------------------------------------------------------------------------------
# The rule comparison
# ----------------------------------------------------------------------------------------

PIECE_KNOWN = {"name", "letter", "tokens", "betza", "royal", "moves", "initial_squares",
               "confined_to", "promotion", "demotes_to", "value"}
PROMOTION_KNOWN = {"choices", "zone", "on_leaving", "forced"}
DROP_KNOWN = {"piece", "zone", "not_doubled", "not_mating"}
CAPTURES_KNOWN = {"to_hand_white", "to_hand_black", "becomes"}
VARIANT_KNOWN = IDENTITY_FIELDS | {
    "files", "ranks", "symmetry", "pieces", "setup", "captures", "drops",
    "dead_drops_allowed", "castling", "en_passant", "no_facing_kings", "stalemate",
    "stalemating_illegal", "repetition_count", "repetition_result", "perpetual_check",
    "perpetual_chase", "perpetual_check_one_piece", "move_rule", "deployment",
    "restrictions"}
SYMMETRY_WORDS = {"mirror": "Black's side is White's with the ranks flipped (mirror)",
                  "rotate": "Black's side is White's turned half a turn (rotate)"}
RESULT_WORDS = {"draw": "a draw", "loss": "a loss", "win": "a win"}


class _Differ:
    def __init__(self, a, b):
        self.a, self.b = a, b
        self.board_a, self.board_b = Board.of(a), Board.of(b)
        self.groups = {name: Group(name, title) for name, title in GROUPS}
        self.pieces_a = {p.name: p for p in _get(a, "pieces", ())}
        self.pieces_b = {p.name: p for p in _get(b, "pieces", ())}
        self.renamed = {}           # B's name -> A's name, for pieces matched by letter
        only_a = [n for n in self.pieces_a if n not in self.pieces_b]
        only_b = [n for n in self.pieces_b if n not in self.pieces_a]
        for nb in only_b:
            letter = self.pieces_b[nb].letter
            for na in only_a:
                if self.pieces_a[na].letter == letter and na not in self.renamed.values():
                    self.renamed[nb] = na
                    break

    # -- helpers ---------------------------------------------------------------------------
    def add(self, group, kind, subject, text, details=()):
        self.groups[group].entries.append(Entry(kind, subject, text, list(details)))

    def name_a(self, name_b):
        """B's piece name in A's terms (so a renamed piece matches its references)."""
        return self.renamed.get(name_b, name_b)

    def map_b(self, value):
        if value is None:
            return None
        if isinstance(value, str):
            return self.name_a(value)
        return tuple(self.map_b(v) for v in value)

    def both(self, pa, pb):
        """A piece's name, with B's name too when it was renamed."""
        return pa.name if pa.name == pb.name else f"{pa.name} ({pb.name} in {self.b.name})"

    def piece_label(self, piece):
        return f"{piece.name} ({piece.letter}, {piece.betza})"

    # -- the groups ------------------------------------------------------------------------
    def run(self):
        self.board()
        self.pieces()
        self.captures()
        self.drops()
        self.special()
        self.game_end()
        self.setup()
        self.other()
        return [g for name, g in self.groups.items() if g.entries]

    def board(self):
        a, b = self.a, self.b
        if (a.files, a.ranks) != (b.files, b.ranks):
            sq_a, sq_b = self.board_a.squares(), self.board_b.squares()
            details = []
            if sq_b - sq_a:
                details.append("squares added: " + squares_text(sq_b - sq_a, self.board_b))
            if sq_a - sq_b:
                details.append("squares removed: " + squares_text(sq_a - sq_b, self.board_a))
            self.add("board", "changed", "board",
                     f"board: {a.files}x{a.ranks} -> {b.files}x{b.ranks} "
                     f"({a.files * a.ranks} -> {b.files * b.ranks} squares)", details)
        if a.symmetry != b.symmetry:
            self.add("board", "changed", "symmetry",
                     f"symmetry: {SYMMETRY_WORDS.get(a.symmetry, a.symmetry)} -> "
                     f"{SYMMETRY_WORDS.get(b.symmetry, b.symmetry)}")

    # pieces ---------------------------------------------------------------------------------
    def becomes_a(self):
        return dict(_get(self.a.captures, "becomes", ()) or ())

    def becomes_b(self):
        pairs = _get(self.b.captures, "becomes", ()) or ()
        return {self.name_a(k): self.map_b(v) for k, v in pairs}

    def promotion_text(self, promo, board):
        text = f"promotes to {', '.join(promo.choices)} on {squareset_text(promo.zone, board)}"
        text += " on entering or leaving" if promo.on_leaving else " on entering"
        if promo.forced is not None and (promo.forced.white or promo.forced.black):
            text += f", forced on {squareset_text(promo.forced, board)}"
        return text

    def piece_details(self, piece, board, becomes):
        """The whole description of a piece that only one game has."""
        lines = [f"moves: {moves_text(piece.moves, board)}"]
        if piece.royal:
            lines.append("royal: the game is lost when it is checkmated")
        if any(a.initial for a in piece.moves) and piece.initial_squares is not None:
            lines.append(f"first moves from: {squareset_text(piece.initial_squares, board)}")
        if piece.confined_to is not None:
            lines.append(f"confined to {squareset_text(piece.confined_to, board)}")
        if piece.promotion is not None:
            lines.append(self.promotion_text(piece.promotion, board))
        if piece.demotes_to is not None:
            lines.append(f"demotes to {piece.demotes_to} when captured")
        if piece.name in becomes:
            target = becomes[piece.name]
            lines.append(f"when captured: {_becomes_words(target)}")
        if _get(piece, "value") is not None:
            lines.append(f"value {value_text(piece.value)}")
        for f in fields(piece):
            if f.name not in PIECE_KNOWN and _get(piece, f.name) not in (None, (), False):
                lines.append(f"{f.name}: {value_text(getattr(piece, f.name), board)}")
        return lines

    def pieces(self):
        becomes_a, becomes_b = self.becomes_a(), self.becomes_b()
        matched_b = set()
        for name, pa in self.pieces_a.items():
            nb = name if name in self.pieces_b else next(
                (k for k, v in self.renamed.items() if v == name), None)
            if nb is None:
                self.add("pieces", "removed", name,
                         f"{self.piece_label(pa)} is not in {self.b.name}",
                         self.piece_details(pa, self.board_a, becomes_a))
                continue
            matched_b.add(nb)
            self.changed_piece(pa, self.pieces_b[nb], becomes_a, becomes_b)
        for name, pb in self.pieces_b.items():
            if name not in matched_b:
                self.add("pieces", "added", name, f"{self.piece_label(pb)} is new in {self.b.name}",
                         self.piece_details(pb, self.board_b, {k: v for k, v in becomes_b.items()}))

    def changed_piece(self, pa, pb, becomes_a, becomes_b):
        ba, bb = self.board_a, self.board_b
        details, aspects = [], []
        if pa.name != pb.name:
            details.append(f"renamed: {pa.name} -> {pb.name}")
            aspects.append("name")
        if pa.letter != pb.letter:
            details.append(f"letter: {pa.letter} -> {pb.letter}")
            aspects.append("letter")
        elif piece_tokens(pa) != piece_tokens(pb):
            ta = "/".join(t or "-" for t in piece_tokens(pa))
            tb = "/".join(t or "-" for t in piece_tokens(pb))
            details.append(f"FEN tokens (White/Black): {ta} -> {tb}")
            aspects.append("FEN tokens")
        if pa.royal != pb.royal:
            details.append("becomes royal" if pb.royal else "is no longer royal")
            aspects.append("royalty")
        plain_a = [m for m in pa.moves if not m.initial]
        plain_b = [m for m in pb.moves if not m.initial]
        gained, lost = atom_changes(plain_a, plain_b)
        if gained:
            details.append("gains: " + moves_text(gained, bb))
        if lost:
            details.append("loses: " + moves_text(lost, ba))
        if gained or lost:
            aspects.append("moves")
        # initial moves and confinement are reported with the special rules
        self.double_steps(pa, pb)
        self.confinement(pa, pb)
        if canon(pa.promotion) != canon(pb.promotion):
            lines = self.promotion_changes(pa.promotion, pb.promotion)
            if lines:           # (empty when only a renamed choice differs)
                aspects.append("promotion")
                details += lines
        if pa.demotes_to != self.map_b(pb.demotes_to):
            aspects.append("demotion")
            details.append(f"demotion when captured: {_demotes_words(pa.demotes_to)} -> "
                           f"{_demotes_words(pb.demotes_to)}")
        if becomes_a.get(pa.name, "default") != becomes_b.get(pa.name, "default"):
            aspects.append("capture disposition")
            details.append(f"when captured: {_becomes_words(becomes_a.get(pa.name, 'default'))}"
                           f" -> {_becomes_words(becomes_b.get(pa.name, 'default'))}")
        if _get(pa, "value") != _get(pb, "value"):
            aspects.append("value")
            details.append(f"value: {value_text(_get(pa, 'value'))} -> "
                           f"{value_text(_get(pb, 'value'))}")
        extra = unknown_field_changes(pa, pb, PIECE_KNOWN, "", ba, bb)
        if extra:
            aspects.append("other fields")
            details += extra
        if aspects:
            betza = pa.betza if pa.betza == pb.betza else f"{pa.betza} -> {pb.betza}"
            self.add("pieces", "changed", pa.name,
                     f"{pa.name} ({pa.letter}, {betza}): {', '.join(aspects)} changed", details)

    def promotion_changes(self, a, b):
        ba, bb = self.board_a, self.board_b
        if a is None:
            return ["gains a promotion: " + self.promotion_text(b, bb)]
        if b is None:
            return ["no longer promotes (" + self.promotion_text(a, ba) + ")"]
        lines = []
        choices_b = self.map_b(b.choices)
        if set(a.choices) != set(choices_b):
            lines.append(f"promotion choices: {', '.join(a.choices)} -> {', '.join(b.choices)}")
        if canon(a.zone) != canon(b.zone):
            lines.append(f"promotion zone: {squareset_change(a.zone, b.zone, ba, bb)}")
        if a.on_leaving != b.on_leaving:
            lines.append("promotion: " + ("on entering the zone -> on entering or leaving it"
                                          if b.on_leaving else
                                          "on entering or leaving the zone -> on entering it"))
        if canon(a.forced) != canon(b.forced):
            lines.append(f"promotion forced on: {squareset_change(a.forced, b.forced, ba, bb)}")
        lines += unknown_field_changes(a, b, PROMOTION_KNOWN, "promotion.", ba, bb)
        return lines

    # special rules that live on pieces -------------------------------------------------------
    def double_steps(self, pa, pb):
        ia = [m for m in pa.moves if m.initial]
        ib = [m for m in pb.moves if m.initial]
        gained, lost = atom_changes(ia, ib)
        details = []
        if gained:
            details.append("gains: " + moves_text(gained, self.board_b))
        if lost:
            details.append("loses: " + moves_text(lost, self.board_a))
        if ia and ib and canon(pa.initial_squares) != canon(pb.initial_squares):
            details.append("first moves allowed from: " + squareset_change(
                pa.initial_squares, pb.initial_squares, self.board_a, self.board_b))
        if not details:
            return
        kind = "added" if not ia else "removed" if not ib else "changed"
        words = {"added": "now has first-move (initial) moves",
                 "removed": "no longer has first-move (initial) moves",
                 "changed": "its first-move (initial) moves changed"}[kind]
        self.add("special", kind, f"double steps of {pa.name}", f"{self.both(pa, pb)} {words}",
                 details)

    def confinement(self, pa, pb):
        ca, cb = pa.confined_to, pb.confined_to
        if canon(ca) == canon(cb):
            return
        if ca is None:
            self.add("special", "added", f"confinement of {pa.name}",
                     f"{self.both(pa, pb)} is confined to {squareset_text(cb, self.board_b)}")
        elif cb is None:
            self.add("special", "removed", f"confinement of {pa.name}",
                     f"{self.both(pa, pb)} is no longer confined "
                     f"(was {squareset_text(ca, self.board_a)})")
        else:
            self.add("special", "changed", f"confinement of {pa.name}",
                     f"{self.both(pa, pb)} confined to "
                     f"{squareset_change(ca, cb, self.board_a, self.board_b)}")

    # captures -------------------------------------------------------------------------------
    def captures(self):
        ca, cb = self.a.captures, self.b.captures
        wa, ba_ = _get(ca, "to_hand_white", False), _get(ca, "to_hand_black", False)
        wb, bb_ = _get(cb, "to_hand_white", False), _get(cb, "to_hand_black", False)
        if (wa, ba_) != (wb, bb_):
            if wa == ba_ and wb == bb_:
                text = f"{_fate(wa)} -> {_fate(wb)}"
            else:
                text = "; ".join(f"captured by {side}: {_fate(x)} -> {_fate(y)}"
                                 for side, x, y in (("White", wa, wb), ("Black", ba_, bb_))
                                 if x != y)
            kind = "added" if (wb or bb_) and not (wa or ba_) else \
                "removed" if (wa or ba_) and not (wb or bb_) else "changed"
            self.add("captures", kind, "captured pieces", "captured pieces: " + text)
        for line in unknown_field_changes(ca, cb, CAPTURES_KNOWN, "captures.",
                                          self.board_a, self.board_b):
            self.add("captures", "changed", "captures", line)

    # drops ----------------------------------------------------------------------------------
    def drop_text(self, rule, board):
        text = f"may be dropped on {squareset_text(rule.zone, board)}"
        flags = []
        if rule.not_doubled:
            flags.append("not on a file with an own unpromoted one")
        if rule.not_mating:
            flags.append("not to give checkmate")
        return text + ("; " + "; ".join(flags) if flags else "")

    def drops(self):
        a, b = self.a, self.b
        da = {r.piece: r for r in a.drops}
        db = {self.name_a(r.piece): r for r in b.drops}
        if bool(da) != bool(db):
            if db:
                self.add("drops", "added", "drops",
                         "drops: pieces in hand may be dropped on an empty square instead "
                         "of a move")
            else:
                self.add("drops", "removed", "drops", "drops: there are no drops any more")
        for name, ra in da.items():
            rb = db.get(name)
            if rb is None:
                self.add("drops", "removed", name,
                         f"{name} may no longer be dropped "
                         f"(was: {self.drop_text(ra, self.board_a)})")
                continue
            details = []
            if canon(ra.zone) != canon(rb.zone):
                details.append("drop zone: " + squareset_change(ra.zone, rb.zone,
                                                                 self.board_a, self.board_b))
            if ra.not_doubled != rb.not_doubled:
                details.append("no doubled drops (not on a file with an own unpromoted one): "
                               + ("added" if rb.not_doubled else "removed"))
            if ra.not_mating != rb.not_mating:
                details.append("no mating drops: " + ("added" if rb.not_mating else "removed"))
            details += unknown_field_changes(ra, rb, DROP_KNOWN, "", self.board_a, self.board_b)
            if details:
                self.add("drops", "changed", name, f"drops of {name} changed", details)
        for name, rb in db.items():
            if name not in da:
                self.add("drops", "added", rb.piece,
                         f"{rb.piece} {self.drop_text(rb, self.board_b)}")
        if _get(a, "dead_drops_allowed") != _get(b, "dead_drops_allowed"):
            allowed = _get(b, "dead_drops_allowed")
            self.add("drops", "added" if allowed else "removed", "dead drops",
                     "pieces may be dropped where they could never move again"
                     if allowed else "pieces may no longer be dropped where they could never "
                                     "move again")

    # special rules --------------------------------------------------------------------------
    def special(self):
        a, b = self.a, self.b
        ca = Counter(canon(c) for c in a.castling)
        cb = Counter(canon(c) for c in b.castling)
        by = {canon(c): c for c in tuple(a.castling) + tuple(b.castling)}
        for key in (ca - cb).elements():
            self.add("special", "removed", "castling", _castling_words(by[key]))
        for key in (cb - ca).elements():
            self.add("special", "added", "castling", _castling_words(by[key]))
        epa, epb = set(a.en_passant), set(self.map_b(tuple(b.en_passant)))
        for name in sorted(epa - epb):
            self.add("special", "removed", "en passant",
                     f"{name} no longer makes and takes en passant")
        for name in sorted(epb - epa):
            self.add("special", "added", "en passant", f"{name} makes and takes en passant")
        if a.no_facing_kings != b.no_facing_kings:
            words = "the kings may not face each other on an open file (flying kings)"
            self.add("special", "added" if b.no_facing_kings else "removed", "flying kings",
                     words if b.no_facing_kings else "no rule against facing kings any more")
        da, db = _get(a, "deployment"), _get(b, "deployment")
        if canon(da) != canon(db):
            if da is None:
                self.add("special", "added", "deployment", "deployment: " + _deployment_words(db))
            elif db is None:
                self.add("special", "removed", "deployment",
                         f"no deployment phase any more (was: {_deployment_words(da)})")
            else:
                self.add("special", "changed", "deployment",
                         f"deployment: {_deployment_words(da)} -> {_deployment_words(db)}",
                         generic_changes(da, db, "deployment", self.board_a, self.board_b))
        ra = Counter(canon(r) for r in _get(a, "restrictions", ()) or ())
        rb = Counter(canon(r) for r in _get(b, "restrictions", ()) or ())
        by = {canon(r): r for r in tuple(_get(a, "restrictions", ()) or ())
              + tuple(_get(b, "restrictions", ()) or ())}
        for key in (ra - rb).elements():
            self.add("special", "removed", "restriction", _restriction_words(by[key]))
        for key in (rb - ra).elements():
            self.add("special", "added", "restriction", _restriction_words(by[key]))

    # game end -------------------------------------------------------------------------------
    def game_end(self):
        a, b = self.a, self.b
        if a.stalemate != b.stalemate:
            self.add("game_end", "changed", "stalemate",
                     "stalemate: being stalemated is "
                     f"{RESULT_WORDS.get(a.stalemate, a.stalemate)} -> "
                     f"{RESULT_WORDS.get(b.stalemate, b.stalemate)}")
        if a.stalemating_illegal != b.stalemating_illegal:
            self.add("game_end", "added" if b.stalemating_illegal else "removed",
                     "stalemating", "stalemating the opponent is illegal"
                     if b.stalemating_illegal else "stalemating the opponent is allowed again")
        rep_a = (a.repetition_count, a.repetition_result)
        rep_b = (b.repetition_count, b.repetition_result)
        if (rep_a[0] or rep_b[0]) and (rep_a[0] != rep_b[0] or rep_a[1] != rep_b[1]):
            kind = "added" if not rep_a[0] else "removed" if not rep_b[0] else "changed"
            self.add("game_end", kind, "repetition",
                     f"{_repetition_words(*rep_a)} -> {_repetition_words(*rep_b)}")
        for which, noun in (("perpetual_check", "perpetual check"),
                            ("perpetual_chase", "perpetual chase")):
            va, vb = _get(a, which), _get(b, which)
            if which == "perpetual_check":
                va, vb = _one_piece(a, va), _one_piece(b, vb)
            if va != vb:
                kind = "added" if va is None else "removed" if vb is None else "changed"
                self.add("game_end", kind, noun,
                         f"{_perpetual_words(noun, va)} -> {_perpetual_words(noun, vb)}")
        if a.move_rule != b.move_rule:
            kind = "added" if not a.move_rule else "removed" if not b.move_rule else "changed"
            self.add("game_end", kind, "move rule",
                     f"{_move_rule_words(a.move_rule)} -> {_move_rule_words(b.move_rule)}")

    # setup ----------------------------------------------------------------------------------
    def setup(self):
        a, b = self.a, self.b
        pa = _parse_setup(a)
        pb = _parse_setup(b)
        if pa is None or pb is None:
            if a.setup != b.setup:
                self.add("setup", "changed", "setup", f"setup: {a.setup} -> {b.setup}")
            return
        def piece_words(entry, mapping):
            side, name = entry
            return f"{side} {mapping(name)}"

        def same(name):
            return name

        squares = []
        for sq in sorted(set(pa.board) | set(pb.board), key=lambda s: (s[1], s[0])):
            ea, eb = pa.board.get(sq), pb.board.get(sq)
            wa = piece_words(ea, same) if ea else "empty"
            wb = piece_words(eb, self.name_a) if eb else "empty"
            if wa != wb:
                shown_b = piece_words(eb, same) if eb else "empty"
                squares.append(f"{_sq(*sq)}: {wa} -> {shown_b}")
        if squares:
            self.add("setup", "changed", "board",
                     f"start position: {len(squares)} square{'s' if len(squares) != 1 else ''} "
                     "differ", squares)
        hands_a = Counter(piece_words(h, same) for h in pa.holdings)
        hands_b = Counter(piece_words(h, self.name_a) for h in pb.holdings)
        if hands_a != hands_b:
            details = []
            for words in sorted(set(hands_a) | set(hands_b)):
                if hands_a[words] != hands_b[words]:
                    details.append(f"{words}: {hands_a[words]} -> {hands_b[words]} in hand")
            self.add("setup", "changed", "hands", "start position: the pieces in hand differ",
                     details)
        if pa.side != pb.side:
            self.add("setup", "changed", "side to move",
                     f"side to move first: {pa.side} -> {pb.side}")
        if set(pa.castling.replace("-", "")) != set(pb.castling.replace("-", "")):
            self.add("setup", "changed", "castling rights",
                     f"castling rights at the start: {pa.castling} -> {pb.castling}")
        for attr, noun in (("en_passant", "en passant square"),
                           ("halfmove", "halfmove clock"), ("fullmove", "fullmove number"),
                           ("lifted", "lifted restrictions")):
            if not hasattr(pa, attr) or not hasattr(pb, attr):
                continue
            if getattr(pa, attr) != getattr(pb, attr):
                self.add("setup", "changed", noun,
                         f"{noun} at the start: {getattr(pa, attr)} -> {getattr(pb, attr)}")

    # anything else --------------------------------------------------------------------------
    def other(self):
        for line in unknown_field_changes(self.a, self.b, VARIANT_KNOWN, "",
                                          self.board_a, self.board_b):
            m = re.match(r"field ([\w.]+)", line)
            subject = m.group(1).split(".")[0] if m else "rules"
            self.add("other", "changed", subject, line)


def piece_tokens(piece):
    """(White's, Black's) FEN token of a piece (None where a side never owns it)."""
    tokens = _get(piece, "tokens")
    if tokens:
        return tuple(tokens)
    letter = piece.letter
    return letter, letter.lower()


def _parse_setup(variant):
    """The start position with every piece as (side, piece name), or None."""
    table, by_letter = {}, {}
    for piece in variant.pieces:
        for side, token in zip(("white", "black"), piece_tokens(piece)):
            if token:
                table.setdefault(token, (piece.name, side))
        by_letter[piece.letter] = piece.name
        table.setdefault(piece.letter, (piece.name, "white"))
    try:
        parsed = parse_fen(variant.setup, variant.files, variant.ranks, table)
    except Exception:           # noqa: BLE001 - an unparsable setup is compared as text
        return None
    names = {p.name for p in variant.pieces}

    def normal(value):
        # the FEN reader gives back the table's values; an older one gave (letter, side)
        first, side = value
        return (side, first if first in names else by_letter.get(first, first))

    parsed.board = {sq: normal(v) for sq, v in parsed.board.items()}
    parsed.holdings = [normal(v) for v in parsed.holdings]
    return parsed


def _fate(to_hand):
    return "go to the captor's hand" if to_hand else "are removed from play"


def _becomes_words(target):
    if target == "default":
        return "follows the capture rule"
    if target is None:
        return "is removed from play"
    return f"goes to hand as a {target}"


def _demotes_words(target):
    return f"returns to hand as a {target}" if target else "keeps its type"


def _castling_words(c):
    return (f"{c.side.capitalize()} castling: king {c.king_from} to {c.king_to}, "
            f"rook {c.rook_from} to {c.rook_to}")


def _deployment_words(d):
    if d is None:
        return "no deployment phase"
    text = "every piece in hand is dropped before any move"
    last = _get(d, "last")
    if last:
        text += f", the {last} last"
    return text


def _restriction_words(r):
    return (f"restriction: until {r.trigger_side} does one of ({', '.join(r.events)}), "
            f"{r.restricted_side} may not ({', '.join(r.forbidden)})")


def _repetition_words(count, result):
    if not count:
        return "no repetition rule"
    return f"{count}-fold repetition is {RESULT_WORDS.get(result, result)}"


def _one_piece(variant, fate):
    """A perpetual check fate, qualified when only one piece's checks count."""
    if fate is not None and _get(variant, "perpetual_check_one_piece", False):
        return f"by one piece {fate}"
    return fate


def _perpetual_words(noun, fate):
    if fate is None:
        return f"no {noun} rule"
    if fate.startswith("by one piece "):
        noun, fate = f"{noun} by one piece", fate[len("by one piece "):]
    if fate == "loses":
        return f"{noun} loses"
    if fate == "illegal":
        return f"{noun} is illegal"
    return f"{noun} {fate}"


def _move_rule_words(n):
    return f"{n}-move rule" if n else "no move rule"


def _identity(variant, source=None):
    out = {"name": _get(variant, "name"), "title": _get(variant, "title"),
           "parent": _get(variant, "parent")}
    if source is not None:
        out["source"] = source
    return out


def diff_variants(a, b, source_a=None, source_b=None):
    """Compare two rule models (Variants); returns a RuleDiff (falsy when they are equal)."""
    groups = _Differ(a, b).run()
    ida, idb = _identity(a, source_a), _identity(b, source_b)
    if ida["name"] == idb["name"]:
        ida["_same_name"] = idb["_same_name"] = True
    return RuleDiff(ida, idb, groups)


def diff_files(a, b):
    """Compare two bundled games or definition files by their resolved rules.

    Raises DefinitionError / UnknownGameError (FairyforgeError) if either does not load.
    """
    from .resolve import load_variant
    return diff_variants(load_variant(a), load_variant(b), source_a=a, source_b=b)


# ----------------------------------------------------------------------------------------
# Rendering
# ----------------------------------------------------------------------------------------

def _who(ident):
    text = str(ident.get("name"))
    extra = []
    if ident.get("title") and ident.get("title") != ident.get("name"):
        extra.append(str(ident["title"]))
    if ident.get("parent"):
        extra.append(f"extends {ident['parent']}")
    if ident.get("source") and ident.get("source") != ident.get("name"):
        extra.append(f"from {ident['source']}")
    return text + (f" ({', '.join(extra)})" if extra else "")


def _short(ident, letter):
    """How the legend names a side: its name, or A/B with the source if names are equal."""
    return str(ident.get("name")) if not ident.get("_same_name") else \
        f"{letter} ({ident.get('source') or ident.get('name')})"


def render_text(result):
    """The rule diff as text; the empty string when there is no difference (as diff(1))."""
    if not result:
        return ""
    lines = [f"--- {_who(result.a)}", f"+++ {_who(result.b)}"]
    for group in result.groups:
        lines.append("")
        lines.append(group.title)
        for entry in group.entries:
            lines.append(f"  {MARKERS.get(entry.kind, '?')} {entry.text}")
            for detail in entry.details:
                lines.append(f"      {detail}")
    n = result.count
    la, lb = _short(result.a, "A"), _short(result.b, "B")
    lines.append("")
    lines.append(f"{n} difference{'s' if n != 1 else ''} "
                 f"(+ only in {lb}, - only in {la}, ~ changed)")
    return "\n".join(lines) + "\n"


def render_play_text(play):
    a, b = play.a, play.b
    start = ("the start position" if play.start_fen_a == play.start_fen_b
             else "each game's start position")
    if play.start_fen_a == play.start_fen_b:
        head = f"Play: {a} vs {b}, from {play.start_fen_a}"
    else:
        head = f"Play: {a} vs {b}, from {start} ({play.start_fen_a} / {play.start_fen_b})"
    lines = [head]
    if play.found:
        n = len(play.sequence)
        if n:
            lines.append(f"the legal moves differ after {n} move{'s' if n != 1 else ''}: "
                         + " ".join(play.sequence))
        else:
            lines.append("the legal moves differ in the start position")
        lines.append(f"  position in {a}: {play.fen_a}")
        if play.fen_b != play.fen_a:
            lines.append(f"  position in {b}: {play.fen_b}")
        lines.append(f"  only {a} allows: {' '.join(play.only_a) or '(nothing more)'}")
        lines.append(f"  only {b} allows: {' '.join(play.only_b) or '(nothing more)'}")
    elif play.complete:
        lines.append(f"no difference up to depth {play.depth} "
                     f"({play.positions} positions compared)")
    else:
        lines.append(f"no difference found in the {play.positions} positions compared; the "
                     f"search stopped at the position limit during depth "
                     f"{play.searched_depth} of {play.depth}")
    return "\n".join(lines) + "\n"


def render(result, fmt="text"):
    """A RuleDiff or a PlayDiff as text, YAML or JSON."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format '{fmt}' (formats: {', '.join(FORMATS)})")
    if fmt == "text":
        return render_play_text(result) if isinstance(result, PlayDiff) else render_text(result)
    data = result.as_dict()
    if isinstance(result, PlayDiff):
        data = {"play": data}
    if fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=False, width=100,
                          allow_unicode=True)


# ----------------------------------------------------------------------------------------
# Behavioural comparison
# ----------------------------------------------------------------------------------------

DEFAULT_MAX_POSITIONS = 500_000
PROGRESS_SECONDS = 2.0


class _Walker:
    """Moves of one position as text, with push/pop; uses the engine directly when it
    can (no legality re-check, move texts cached per code), else the public API."""

    def __init__(self, position):
        self.position = position
        self.engine = getattr(position, "engine", None)
        notation = getattr(getattr(position, "game", None), "notation", None)
        self.fast = (self.engine is not None and notation is not None
                     and all(hasattr(self.engine, n) for n in ("legal_moves", "push", "pop", "key"))
                     and hasattr(notation, "text"))
        self.notation = notation
        self.texts = {}

    def moves(self):
        """{uci text: handle to push}"""
        if self.fast:
            out = {}
            texts = self.texts
            for code in self.engine.legal_moves():
                text = texts.get(code)
                if text is None:
                    text = texts[code] = self.notation.text(code)
                out[text] = code
            return out
        return {str(m): m for m in self.position.legal_moves()}

    def push(self, handle):
        if self.fast:
            self.engine.push(handle)
        else:
            self.position.push(handle)

    def pop(self):
        if self.fast:
            self.engine.pop()
        else:
            self.position.pop()

    def key(self):
        return self.engine.key() if self.fast else self.position.key()


def check_playable(va, vb):
    """Raise DiffError unless two variants (rule models) can be compared move by move:
    the same board size and the same piece letters."""
    if (va.files, va.ranks) != (vb.files, vb.ranks):
        raise DiffError(f"cannot compare by play: {va.name} is played on {va.files}x{va.ranks} "
                        f"and {vb.name} on {vb.files}x{vb.ranks}")
    la = {t.rstrip("~") for p in va.pieces for t in piece_tokens(p) if t}
    lb = {t.rstrip("~") for p in vb.pieces for t in piece_tokens(p) if t}
    if la != lb:
        parts = []
        if la - lb:
            parts.append(f"only {va.name} has {', '.join(sorted(la - lb))}")
        if lb - la:
            parts.append(f"only {vb.name} has {', '.join(sorted(lb - la))}")
        raise DiffError("cannot compare by play: the games' piece letters differ ("
                        + "; ".join(parts) + ")")


def play_diff(game_a, game_b, depth, fen=None, max_positions=DEFAULT_MAX_POSITIONS,
              progress=None, labels=None):
    """Breadth-first search for the shortest move sequence (moves legal in both games)
    after which the two games' legal moves differ, up to `depth` moves.

    game_a, game_b: compiled games (fairyforge.load).  fen: start here (in both games)
    instead of each game's start position.  Positions already seen (the same pair of
    positions reached by another order of moves) are skipped.  `progress`, if given, is
    called with a short message every few seconds of a long search.  `labels` names the
    two games in the report (default: their names, marked (A) and (B) if equal).
    Returns a PlayDiff; raises DiffError if the games cannot be compared by play and
    FenError if the FEN does not fit one of them.
    """
    if depth < 0:
        raise DiffError("the depth must be 0 or more")
    check_playable(game_a.variant, game_b.variant)
    pos_a = game_a.position(fen) if fen else game_a.start()
    pos_b = game_b.position(fen) if fen else game_b.start()
    wa, wb = _Walker(pos_a), _Walker(pos_b)
    if labels is None:
        labels = (game_a.name, game_b.name)
        if labels[0] == labels[1]:
            labels = (f"{labels[0]} (A)", f"{labels[1]} (B)")
    result = PlayDiff(a=labels[0], b=labels[1], depth=depth,
                      start_fen_a=pos_a.fen(), start_fen_b=pos_b.fen(), found=False)
    frontier = [()]             # paths: tuples of (text, handle_a, handle_b)
    seen = {(wa.key(), wb.key())}
    positions = 0
    truncated = False           # stopped comparing at the position limit
    queue_full = False          # some positions were never queued (the limit again)
    started = last_report = time.monotonic()
    for level in range(depth + 1):
        result.searched_depth = level
        next_frontier = []
        for done, path in enumerate(frontier, 1):
            if positions >= max_positions:
                truncated = True
                break
            for _, ha, hb in path:
                wa.push(ha)
                wb.push(hb)
            try:
                moves_a, moves_b = wa.moves(), wb.moves()
                positions += 1
                if moves_a.keys() != moves_b.keys():
                    result.found = True
                    result.sequence = [t for t, _, _ in path]
                    result.only_a = sorted(set(moves_a) - set(moves_b))
                    result.only_b = sorted(set(moves_b) - set(moves_a))
                    result.fen_a, result.fen_b = _fen_now(wa), _fen_now(wb)
                    break
                if level < depth:
                    for text, ha in moves_a.items():
                        if positions + len(next_frontier) >= max_positions:
                            queue_full = True
                            break
                        hb = moves_b[text]
                        wa.push(ha)
                        wb.push(hb)
                        key = (wa.key(), wb.key())
                        wa.pop()
                        wb.pop()
                        if key not in seen:
                            seen.add(key)
                            next_frontier.append(path + ((text, ha, hb),))
            finally:
                for _ in path:
                    wa.pop()
                    wb.pop()
            now = time.monotonic()
            if progress is not None and now - last_report >= PROGRESS_SECONDS:
                last_report = now
                progress(f"depth {level} of {depth}: {done} of {len(frontier)} positions at "
                         f"this depth, {positions} compared in all ({now - started:.0f} s)")
        if result.found or truncated:
            break
        frontier = next_frontier
        if not frontier:
            break
    result.positions = positions
    result.complete = result.found or not (truncated or queue_full)
    return result


def _fen_now(walker):
    """The FEN of the walker's current position (after raw engine pushes)."""
    try:
        return walker.position.fen()
    except Exception:           # noqa: BLE001 - the FEN is a courtesy in the report
        return None
