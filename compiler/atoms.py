"""Move atoms after Betza parsing: overlaps removed, so no move is generated twice."""

from .model import MoveAtom


def _covers(b, a):
    """Does atom `b` reach every square atom `a` reaches, from the same squares?"""
    if (a.dx, a.dy) != (b.dx, b.dy):
        return False
    if b.initial and not a.initial:
        return False
    if b.only_in is not None and b.only_in != a.only_in:
        return False
    if b.along and not a.along:
        return False
    if b.lame_path and b.lame_path != a.lame_path:
        return False
    if a.kind in ("hop", "grasshop") or b.kind in ("hop", "grasshop"):
        return a.kind == b.kind and a.max_steps == b.max_steps
    if b.kind == "ride" and not b.max_steps:
        return True
    reach_a = 1 if a.kind == "leap" else a.max_steps
    reach_b = 1 if b.kind == "leap" else b.max_steps
    return bool(reach_a) and reach_a <= reach_b


def merge_atoms(atoms):
    """The atoms with overlaps removed, so that no move is generated twice.

    Betza describes a set of moves: `KW`, `WfF` with `W` again, `mR` with `W`, or a
    doubled `move` statement name some moves twice, and the generator (one loop per
    atom) would list them twice: perft counts and legal_moves() would be wrong.  An
    atom loses the move/capture modes that another atom covering all its squares
    already has; an atom left with neither is dropped.

    Only atoms of one direction can cover each other, and exact repeats are dropped
    first, so a Betza string of thousands of letters is merged in linear time.
    """
    atoms = list(dict.fromkeys(atoms))          # exact repeats: the first one stays
    by_direction = {}
    for index, atom in enumerate(atoms):
        by_direction.setdefault((atom.dx, atom.dy), []).append((index, atom))
    keep = []
    for i, a in enumerate(atoms):
        moves, captures = a.moves, a.captures
        for j, b in by_direction[(a.dx, a.dy)]:
            if i == j or not _covers(b, a):
                continue
            if _covers(a, b) and j > i:
                continue            # the same squares: the first of the two keeps them
            moves = moves and not b.moves
            captures = captures and not b.captures
        if moves or captures:
            keep.append(a if (moves, captures) == (a.moves, a.captures)
                        else with_changes(a, moves=moves, captures=captures))
    return keep


def with_changes(atom, **changes):
    """A copy of `atom` with some fields changed."""
    data = dict(atom.__dict__)
    data.update(changes)
    return MoveAtom(**data)
