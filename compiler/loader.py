"""Finding and reading definitions: bundled names, paths, and `extends` chains.

`load_variant` is the front door of the compiler: a bundled name or a path in, the
resolved rule model out.  `collect` follows a definition's parents (iteratively, so a
chain of any length is fine) and returns every statement, parents first, so that a
child's statements override what it inherits.
"""

import difflib
import os
from importlib import resources

from fairyforge.errors import UnknownGameError

from . import parse as parse_phase
from .diagnostics import DiagnosticBag, Location
from .nodes import VariantHeader


def bundled_path(name):
    """Path of a bundled definition (`chess` -> .../definitions/chess.variant) or None."""
    if not name or "/" in name or name.endswith(".variant"):
        return None
    path = resources.files("fairyforge.definitions").joinpath(f"{name}.variant")
    return str(path) if path.is_file() else None


def bundled_names():
    folder = resources.files("fairyforge.definitions")
    return sorted(p.name[:-len(".variant")] for p in folder.iterdir()
                  if p.name.endswith(".variant"))


def locate(name_or_path, relative_to=None):
    """A definition file for a bundled name or a path (relative to a child file)."""
    if relative_to and not os.path.isabs(name_or_path):
        candidate = os.path.join(os.path.dirname(relative_to), name_or_path)
        if os.path.isfile(candidate):
            return candidate
        if os.path.isfile(candidate + ".variant"):
            return candidate + ".variant"
    if os.path.isfile(name_or_path):
        return name_or_path
    return bundled_path(name_or_path)


def did_you_mean(word, candidates):
    close = difflib.get_close_matches(str(word), list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _header(definition, bag):
    """The definition's `variant` line, or None (reported unless a syntax error on the
    `variant` line itself was reported already)."""
    header = next((s for s in definition.statements if isinstance(s, VariantHeader)), None)
    if header is None and not bag:
        statements = definition.statements
        loc = statements[0].loc if statements else Location(definition.path, 1, 1, "")
        bag.error(loc, "a definition must start with `variant NAME`")
    return header


def _parent(definition, header, seen, bag):
    """The parsed parent of a definition whose header says `extends`, or None (with
    the reason reported)."""
    name = header.extends
    text = str(name).strip('"')
    path = locate(text, definition.path)
    if path is None:
        bag.error(header.loc_of(name), f"cannot find the parent variant '{text}'"
                  + did_you_mean(text, bundled_names()))
        return None
    if os.path.realpath(path) in seen:
        bag.error(header.loc_of(name),
                  f"inheritance cycle: '{text}' extends this variant again")
        return None
    seen.add(os.path.realpath(path))
    return parse_phase.parse_file(path, bag)


def collect(definition, bag):
    """(every statement of the definition and its ancestors, parents first; the
    definition's header), or ([], None) without a header."""
    header = _header(definition, bag)
    if header is None:
        return [], None
    seen = {os.path.realpath(definition.path)} if os.path.exists(definition.path) else set()
    ancestors, current, current_header = [], definition, header
    while current_header is not None and current_header.extends is not None:
        parent = _parent(current, current_header, seen, bag)
        if parent is None:
            break
        parent_header = _header(parent, bag)
        if parent_header is not None:
            ancestors.append(parent)
        current, current_header = parent, parent_header
    statements = []
    for ancestor in reversed(ancestors):
        statements += [s for s in ancestor.statements if not isinstance(s, VariantHeader)]
    return statements + definition.statements, header


def load_chess960_twin(name_or_path):
    """A game's Chess960 twin (Fairy-Stockfish's UCI_Chess960 switch): its definition
    with `chess960 castling` added, so that it castles from the FEN's king and rook
    squares.  A game that has the statement already is its own twin."""
    variant = load_variant(name_or_path)
    if variant.chess960_castling:
        return variant
    if not variant.castling:
        raise UnknownGameError(f"'{name_or_path}' has no castling, so it has no Chess960 "
                               "twin (chess960 castling needs a `castling` statement)")
    path = os.path.abspath(locate(name_or_path))
    if '"' in path or "\n" in path:
        # The twin extends the file by its path, in a quoted string, which the language
        # gives no way to escape: such a path would be misread, so it is refused.
        raise UnknownGameError(f"'{name_or_path}' cannot have a Chess960 twin: its path "
                               "holds a double quote or a line break (rename the file)")
    title = variant.title.replace('"', "'")
    text = (f'variant {variant.name} "{title} (Chess960)" extends "{path}"\n'
            "chess960 castling\n")
    bag = DiagnosticBag()
    definition = parse_phase.parse_text(text, f"{path} (Chess960 twin)", bag)
    from .resolve import resolve
    twin = resolve(definition, bag)
    bag.raise_if_any()
    return twin


def load_variant(name_or_path):
    """Parse and resolve a bundled game or a definition file into a Variant."""
    from .resolve import resolve
    if isinstance(name_or_path, os.PathLike):
        name_or_path = os.fspath(name_or_path)
    if not isinstance(name_or_path, str):       # None, bytes, 123: not a name (TypeError)
        raise UnknownGameError(f"a game is a bundled name or a definition file's path, got "
                               f"{type(name_or_path).__name__}; bundled games: "
                               f"{', '.join(bundled_names())}")
    path = locate(name_or_path)
    if path is None:
        raise UnknownGameError(f"no bundled game or definition file named '{name_or_path}'"
                               + did_you_mean(name_or_path, bundled_names())
                               + f"; bundled games: {', '.join(bundled_names())}")
    bag = DiagnosticBag()
    definition = parse_phase.parse_file(path, bag)
    variant = resolve(definition, bag)      # also after syntax errors: report them all
    bag.raise_if_any()
    return variant
