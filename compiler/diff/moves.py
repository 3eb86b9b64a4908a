"""Moves in plain words with Betza: Betza read backwards.

`describe_moves(atoms)` groups a piece's move atoms (compiler/model.py's MoveAtom) into
phrases such as ('backward diagonal step', 'bF').  The atom letters, their shapes and
the compounds come from compiler/betza.py's tables; the direction modifiers are checked
against the Betza parser itself, so a phrase's Betza always reads back to its atoms.
"""

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Optional

from ..betza import (COMPOUNDS, LEAPERS, BetzaError, compound_letter, leaper_letter,
                     parse_betza)
from ..model import SquareSet
from .words import canon, multiset_changes, squareset_text, value_text

# The shape of each leaper's move; a one-square move is a step (a slide when it rides),
# a longer one a leap (a ride).
SHAPE_WORDS = {"W": "orthogonal", "F": "diagonal", "D": "two-square orthogonal",
               "N": "knight", "A": "two-square diagonal", "H": "three-square orthogonal",
               "C": "camel", "Z": "zebra", "G": "three-square diagonal"}


def _noun(letter, rides):
    """'diagonal step', 'knight leap', 'orthogonal slide', 'camel ride'."""
    one_square = max(LEAPERS[letter]) == 1
    verb = ("slide" if one_square else "ride") if rides else ("step" if one_square else "leap")
    return f"{SHAPE_WORDS[letter]} {verb}"


# Two leapers whose full sets of moves read better as one compound (W and F: K or Q).
MERGEABLE = {parts[0]: parts[1] for parts in COMPOUNDS.values() if len(parts) == 2}
KIND_ORDER = ("leap", "ride", "hop", "grasshop")

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

# MoveAtom fields the phrases render; any other field is shown as [name value].
ATOM_KNOWN = {"dx", "dy", "kind", "max_steps", "moves", "captures", "lame_path",
              "initial", "only_in", "along"}


@lru_cache(maxsize=None)
def direction_groups(letter):
    """[(Betza direction modifiers, words, frozenset of vectors)] for an atom letter,
    largest first; the vectors are what the Betza parser itself makes of them."""
    a, b = LEAPERS[letter]
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
    """What atoms share to be told in one phrase: all but their direction."""

    letter: Optional[str]
    kind: str
    max_steps: int
    moves: bool
    captures: bool
    lame: bool
    initial: bool
    only_in: object
    extras: tuple

    def with_letter(self, letter):
        return _Signature(letter, *[getattr(self, f.name) for f in fields(self)][1:])


def _signature(atom):
    extras = tuple((f.name, canon(getattr(atom, f.name))) for f in fields(atom)
                   if f.name not in ATOM_KNOWN)
    return _Signature(leaper_letter(atom.dx, atom.dy), atom.kind, atom.max_steps,
                      atom.moves, atom.captures, bool(atom.lame_path), atom.initial,
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
            return "step in any direction", compound_letter((family, MERGEABLE[family]), False)
        noun = _noun(family, rides=False)
        if sig.max_steps not in (0, 1):
            noun += f" (at most {sig.max_steps})"
        return noun, family
    if merged:
        base, unit = "slide in any direction", "squares"
        rider = compound_letter((family, MERGEABLE[family]), True)
    else:
        base = _noun(family, rides=True)
        compound = compound_letter((family,), True)     # R for W, B for F
        rider = compound or family + ("" if sig.max_steps else family)
        unit = "squares" if compound else "leaps"
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


def _merged_pairs(groups):
    """{signature: its twin} for full sets of W and F moves of the same kind, which
    read better as K (a step) or Q (a slide)."""
    merged = {}
    for sig, vectors in groups.items():
        twin_letter = MERGEABLE.get(sig.letter)
        if twin_letter is None or sig.kind not in KIND_ORDER:
            continue
        twin = sig.with_letter(twin_letter)
        if (twin in groups and len(vectors) == 4 and len(groups[twin]) == 4
                and (sig.kind != "leap" or sig.max_steps == 1)):
            merged[sig] = twin
    return merged


def _sort_key(sig):
    family = tuple(LEAPERS).index(sig.letter) if sig.letter in LEAPERS else 99
    kind = KIND_ORDER.index(sig.kind) if sig.kind in KIND_ORDER else 9
    return (sig.initial, sig.only_in is not None, family, kind,
            not (sig.moves and sig.captures), sig.captures)


def _phrases(sig, vectors, merged, board):
    """The phrases [(words, betza)] of one signature's atoms."""
    initial, after, words = _prefix(sig)
    where = ""
    if sig.only_in is not None:
        ss = SquareSet(tuple(sorted(sig.only_in[1])), tuple(sorted(sig.only_in[2])))
        where = f" while standing on {squareset_text(ss, board)}"
    tail = where + "".join(f" [{name} {value_text(value)}]" for name, value in sig.extras)
    if merged:
        noun, atom = _atom_text(sig, merged=True)
        return [(" ".join(words + [noun]) + tail, initial + after + atom)]
    if sig.letter is None:
        verb = "leap" if sig.kind == "leap" else sig.kind
        return [(" ".join(words + [f"{verb} by ({dx:+d}, {dy:+d})"]) + tail, "?")
                for dx, dy in sorted(vectors)]
    noun, atom = _atom_text(sig)
    chosen, rest = _cover(sig.letter, vectors)
    dir_words = [w for _, w in chosen if w]
    fragments = [initial + mods + after + atom for mods, _ in chosen]
    for dx, dy in sorted(rest):                 # cannot happen with Betza atoms
        dir_words.append(f"({dx:+d}, {dy:+d})")
        fragments.append("?")
    direction = " and ".join(dir_words)
    text = " ".join(words + ([direction] if direction else []) + [noun])
    return [(text + tail, "".join(fragments))]


def describe_moves(atoms, board=None):
    """Group move atoms into phrases: [(words, betza)], e.g.
    ('backward diagonal step', 'bF'), ('forward orthogonal slide', 'fR')."""
    groups = {}                 # signature -> its vectors, in the atoms' order
    for atom in atoms:
        groups.setdefault(_signature(atom), set()).add((atom.dx, atom.dy))
    merged = _merged_pairs(groups)
    skip = set(merged.values())
    phrases = []
    for sig in sorted(groups, key=_sort_key):
        if sig not in skip:
            phrases += _phrases(sig, groups[sig], sig in merged, board)
    return phrases


def moves_text(atoms, board=None):
    """'non-capturing forward orthogonal step (fmW); ...' or 'none'."""
    phrases = describe_moves(atoms, board)
    if not phrases:
        return "none"
    return "; ".join(f"{words} ({betza})" for words, betza in phrases)


def atom_changes(atoms_a, atoms_b):
    """(gained atoms, lost atoms) from A to B, order-insensitive."""
    return multiset_changes(atoms_a, atoms_b)
