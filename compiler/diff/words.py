"""Model values in plain words, and what "equal" means when two models are compared.

`canon` gives the canonical form two values are compared by; the rest turns squares,
square sets and any other model value into the words the report uses, and words the
change of a value that no wording in the registry renders specially.
"""

from collections import Counter
from dataclasses import fields, is_dataclass

from fairyforge.fen import parse_square

from ..model import SquareSet


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


def multiset_changes(items_a, items_b):
    """(the items only B has, the items only A has), counted as multisets of canonical
    forms, so that the same items in another order are no change."""
    ca = Counter(canon(x) for x in items_a)
    cb = Counter(canon(x) for x in items_b)
    by_canon = {}
    for item in tuple(items_a) + tuple(items_b):
        by_canon.setdefault(canon(item), item)
    return ([by_canon[k] for k in (cb - ca).elements()],
            [by_canon[k] for k in (ca - cb).elements()])


def field_of(obj, name, default=None):
    """A model field that an older or newer model may lack (None for a missing object)."""
    return getattr(obj, name, default)


def piece_tokens(piece):
    """(White's, Black's) FEN token of a piece (None where a side never owns it)."""
    tokens = field_of(piece, "tokens")
    if tokens:
        return tuple(tokens)
    letter = piece.letter
    return letter, letter.lower()


def change_kind(in_a, in_b):
    """added (only B has the rule), removed (only A has it) or changed (both)."""
    return "added" if not in_a else "removed" if not in_b else "changed"


# ----------------------------------------------------------------------------------------
# Squares
# ----------------------------------------------------------------------------------------

class Board:
    """A board's size, for describing sets of squares (full ranks, files, rectangles)."""

    def __init__(self, files, ranks):
        self.files, self.ranks = files, ranks

    @classmethod
    def of(cls, variant):
        return cls(field_of(variant, "files", 8), field_of(variant, "ranks", 8))

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


def square_name(f, r):
    return f"{_file(f)}{r + 1}"


def _rectangles(coords):
    """Cover squares with rectangles [f0, f1, r0, r1]: runs of adjacent files on each
    rank, merged over consecutive ranks."""
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
    rects, open_rects = [], {}
    for f0, f1, r in runs:
        rect = open_rects.get((f0, f1))
        if rect is not None and rect[3] == r - 1:
            rect[3] = r
        else:
            rect = [f0, f1, r, r]
            rects.append(rect)
            open_rects[(f0, f1)] = rect
    return sorted(rects, key=lambda x: (x[2], x[0]))


def squares_text(names, board):
    """A set of squares in the language's own words: 'rank 8', 'ranks 2-7', 'file a',
    'd1-f3', 'e4', 'all squares'; 'no squares' when empty."""
    coords = _coords(names)
    if not coords:
        return "no squares"
    if board is not None and coords == board.squares():
        return "all squares"
    files = board.files if board else None
    ranks = board.ranks if board else None
    parts = []
    for f0, f1, r0, r1 in _rectangles(coords):
        if files is not None and f0 == 0 and f1 == files - 1:
            parts.append(f"rank {r0 + 1}" if r0 == r1 else f"ranks {r0 + 1}-{r1 + 1}")
        elif ranks is not None and r0 == 0 and r1 == ranks - 1:
            parts.append(f"file {_file(f0)}" if f0 == f1 else f"files {_file(f0)}-{_file(f1)}")
        elif f0 == f1 and r0 == r1:
            parts.append(square_name(f0, r0))
        else:
            parts.append(f"{square_name(f0, r0)}-{square_name(f1, r1)}")
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
# Any value, and the change of a value no wording renders specially
# ----------------------------------------------------------------------------------------

def _is_scalar(value):
    return value is None or isinstance(value, (str, int, float, bool))


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


def _items_change(a, b, label, board_a, board_b):
    """The change of a list of structured items, order-insensitive ([] if none)."""
    added, removed = multiset_changes(a, b)
    if not added and not removed:
        return []               # the same items in another order
    bits = []
    if added:
        bits.append("adds " + "; ".join(value_text(x, board_b) for x in added))
    if removed:
        bits.append("removes " + "; ".join(value_text(x, board_a) for x in removed))
    return [f"field {label} changed: " + ", ".join(bits)]


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
        return _items_change(a, b, label, board_a, board_b)
    return [f"field {label} changed from {value_text(a, board_a)} to {value_text(b, board_b)}"]


def unknown_field_changes(a, b, known, prefix, board_a, board_b):
    """Generic lines for the fields of a dataclass that no wording renders specially
    (fields added to the model later are diffed this way automatically)."""
    lines = []
    names = [f.name for f in fields(a)] if a is not None else []
    names += [f.name for f in fields(b) if f.name not in names] if b is not None else []
    for name in names:
        if name in known:
            continue
        lines += generic_changes(field_of(a, name), field_of(b, name),
                                 f"{prefix}{name}", board_a, board_b)
    return lines
