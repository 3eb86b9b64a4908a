"""Betza/XBetza move notation -> move atoms (part of the resolve phase).

Direction letters follow Fairy-Stockfish's reading of XBetza, since its engine is the
oracle our classics are checked against:

* a lone direction letter counts as doubled: `fN` is `ffN`, the two narrow forward leaps;
* a two-letter group names the moves in both directions, the second letter giving the
  dominant axis: `fsN` is the two wide forward leaps, `lfN` the narrow forward-left one;
* on orthogonal atoms a mixed group is the union of its letters (`fsW`: forward and
  sideways steps, the xiangqi soldier across the river);
* `h` ("half") after a letter keeps every move on that side: `fhN` has four moves.
"""

from dataclasses import dataclass
from importlib import resources

import lark

from .model import MoveAtom

LEAPERS = {"W": (1, 0), "F": (1, 1), "D": (2, 0), "N": (2, 1), "A": (2, 2),
           "H": (3, 0), "C": (3, 1), "Z": (3, 2), "G": (3, 3)}
COMPOUNDS = {"K": ("W", "F"), "R": ("W",), "B": ("F",), "Q": ("W", "F")}
RIDERS = {"R", "B", "Q"}
VERTICAL = "fbv"
HORIZONTAL = "lrs"
DIRECTION_LETTERS = VERTICAL + HORIZONTAL + "h"
MAX_RANGE = 99          # longer than any board (at most 16 squares a side)

# The tables read backwards, for describing moves (fairyforge diff): the leaper of a
# vector's shape, and the compound letters.
LEAPER_OF_SHAPE = {shape: letter for letter, shape in LEAPERS.items()}


def leaper_letter(dx, dy):
    """The leaper atom (W, F, D, N, ...) whose moves include the vector (dx, dy), or
    None for a vector no Betza leaper makes."""
    return LEAPER_OF_SHAPE.get(tuple(sorted((abs(dx), abs(dy)), reverse=True)))


def compound_letter(leapers, rider):
    """The compound atom made of exactly these leapers, riding or not: (W,) riding is
    R, (W, F) leaping is K; None where there is none."""
    for letter, parts in COMPOUNDS.items():
        if set(parts) == set(leapers) and (letter in RIDERS) == rider:
            return letter
    return None


class BetzaError(Exception):
    """A Betza string that cannot be understood; `offset` is the 0-based index in it."""

    def __init__(self, offset, message):
        self.offset = offset
        super().__init__(message)


@dataclass
class _Part:
    modifiers: str
    atom: str
    range: str
    offset: int


_PARSER = None


def _parser():
    global _PARSER
    if _PARSER is None:
        text = resources.files("fairyforge.grammar").joinpath("betza.lark").read_text()
        _PARSER = lark.Lark(text, parser="lalr")
    return _PARSER


def _parts(text):
    """Split a Betza string into parts with the lark grammar."""
    tail = len(text) - len(text.rstrip("fblrvshmcnpgi"))
    if tail and tail == len(text) - len(text.rstrip("abcdefghijklmnopqrstuvwxyz")):
        raise BetzaError(len(text) - 1,
                         "Betza move ends with modifiers but no atom (such as W, F or N)")
    try:
        tree = _parser().parse(text)
    except lark.exceptions.UnexpectedCharacters as err:
        ch = text[err.pos_in_stream]
        if ch.isupper():
            raise BetzaError(err.pos_in_stream,
                             f"unknown Betza atom '{ch}' (atoms: W F D N A H C Z G K R B Q)")
        if ch in "ay":      # XBetza's leg separators: known, but not generated yet
            raise BetzaError(err.pos_in_stream, "multi-leg moves ('a', 'y') are not supported yet")
        if ch.islower():
            raise BetzaError(err.pos_in_stream,
                             f"unknown Betza modifier '{ch}' (modifiers: f b l r v s h m c n p g i)")
        raise BetzaError(err.pos_in_stream, f"unexpected '{ch}' in Betza move")
    except lark.exceptions.UnexpectedInput as err:
        pos = getattr(err, "pos_in_stream", None)
        if pos is None or pos >= len(text):
            raise BetzaError(len(text) - 1,
                             "Betza move ends with modifiers but no atom (such as W, F or N)")
        raise BetzaError(pos, f"unexpected '{text[pos]}' in Betza move")
    parts = []
    for part in tree.children:
        mods, atom, rng, offset = "", None, "", None
        for tok in part.children:
            if offset is None:
                offset = tok.start_pos
            if tok.type == "MODIFIER":
                mods += tok
            elif tok.type == "ATOM":
                atom = str(tok)
            else:
                rng = str(tok)
        parts.append(_Part(mods, atom, rng, offset))
    # A doubled atom with no modifiers of its own (NN, WW) is one unlimited rider.
    folded = []
    for part in parts:
        prev = folded[-1] if folded else None
        if (prev is not None and not part.modifiers and part.atom == prev.atom
                and not prev.range and not part.range and prev.atom in LEAPERS
                and not getattr(prev, "doubled", False)):
            prev.doubled = True
            continue
        folded.append(part)
    return folded


def _direction_groups(letters, offset, orthogonal):
    """Group direction letters: a lone letter is doubled, mixed pairs stay together."""
    groups, i = [], 0
    while i < len(letters):
        c = letters[i]
        nxt = letters[i + 1] if i + 1 < len(letters) else ""
        pair_ok = nxt and (nxt == c or (c in VERTICAL and nxt in HORIZONTAL)
                           or (c in HORIZONTAL and nxt in VERTICAL)
                           or (nxt == "h" and c != "h"))
        if c == "h" and not pair_ok:
            raise BetzaError(offset + i, "'h' (half) must follow a direction letter, as in fhN")
        if pair_ok:
            group = c + nxt
            i += 2
        else:
            group = c + c
            i += 1
        if orthogonal and group[0] != group[1] and group[1] != "h":
            groups += [group[0] * 2, group[1] * 2]
        else:
            groups.append(group)
    return groups


def _letter_matches(letter, dx, dy):
    return {"f": dy > 0, "b": dy < 0, "v": dy != 0,
            "l": dx < 0, "r": dx > 0, "s": dx != 0, "h": True}[letter]


def _group_matches(group, dx, dy):
    first, second = group
    if second == "h":
        return _letter_matches(first, dx, dy)
    if not (_letter_matches(first, dx, dy) and _letter_matches(second, dx, dy)):
        return False
    if second in VERTICAL:            # the second letter names the dominant axis
        return abs(dy) >= abs(dx)
    return abs(dx) >= abs(dy)


def _vectors(a, b):
    """All board vectors (dx, dy) of a leap of (a, b) squares."""
    out = set()
    for x, y in ((a, b), (b, a)):
        for sx in (1, -1):
            for sy in (1, -1):
                out.add((x * sx, y * sy))
    return sorted(out)


def _lame_path(dx, dy):
    """Squares a lame (n) leap passes: straight steps first, then diagonal ones."""
    path, x, y = [], 0, 0
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    while (x, y) != (dx, dy):
        if abs(dy - y) > abs(dx - x):
            y += sy
        elif abs(dx - x) > abs(dy - y):
            x += sx
        else:
            x += sx
            y += sy
        if (x, y) != (dx, dy):
            path.append((x, y))
    return tuple(path)


def parse_betza(text):
    """Turn a Betza string into a tuple of MoveAtoms (White's view, dy > 0 forward)."""
    atoms = []
    for part in _parts(text):
        mods = part.modifiers
        for bad in sorted(set(mods) - set(DIRECTION_LETTERS + "mcnpgi")):
            raise BetzaError(part.offset + mods.index(bad), f"unknown Betza modifier '{bad}'")
        directions = "".join(ch for ch in mods if ch in DIRECTION_LETTERS)
        moves = "m" in mods or "c" not in mods
        captures = "c" in mods or "m" not in mods
        lame, hop, grass, initial = ("n" in mods, "p" in mods, "g" in mods, "i" in mods)
        base_atoms = COMPOUNDS.get(part.atom, (part.atom,))
        rider = part.atom in RIDERS or bool(part.range) or getattr(part, "doubled", False)
        # (A range of thousands of digits would make int() raise ValueError, and a huge
        # one overflow the generated C: ranges past any board are refused.)
        max_steps = (int(part.range) if len(part.range) <= 3 else 1000) if part.range \
            else (0 if rider else 1)
        if part.range and not 1 <= max_steps <= MAX_RANGE:
            raise BetzaError(part.offset + len(mods) + 1,
                             f"a Betza range must be between 1 and {MAX_RANGE}")
        if (hop or grass) and not rider:
            raise BetzaError(part.offset, "p (hop) and g (grasshopper) need a rider such as R, B or Q")
        if (hop or grass) and part.range:
            raise BetzaError(part.offset, "a range on a hopping move (p or g) is not supported: "
                             "hoppers go as far as the line allows")
        if lame and rider:
            raise BetzaError(part.offset, "n (lame) applies to leapers such as nN or nA, not riders")
        kind = "grasshop" if grass else "hop" if hop else "ride" if rider else "leap"
        for atom_letter in base_atoms:
            a, b = LEAPERS[atom_letter]
            orthogonal = b == 0
            groups = _direction_groups(directions, part.offset, orthogonal)
            for dx, dy in _vectors(a, b):
                if groups and not any(_group_matches(g, dx, dy) for g in groups):
                    continue
                atoms.append(MoveAtom(dx=dx, dy=dy, kind=kind, max_steps=max_steps,
                                      moves=moves, captures=captures,
                                      lame_path=_lame_path(dx, dy) if lame else (),
                                      initial=initial, only_in=None))
    return tuple(atoms)
