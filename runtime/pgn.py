"""PGN for any game: export a played game and read games back.

    [Variant "shogi"]
    [FEN "..."]                 only when the game did not start from the setup
    1. Pc4 Pg6 2. Bxh8+ Sxh8 *

Moves are SAN as fairyforge.san writes and reads it.  python-chess's PGN reader is not
used: its tokenizer knows only squares a1-h8 and chess moves, and variants have files
past h, ranks past 9, drops and `+` promotions.  The reader here keeps the comments
({...} and ; to the end of the line) after each main-line move (`tune` reads a
`[%eval 0.35]` there), skips variations in parentheses, NAGs ($1) and annotation
marks, and stops a game at its result.
"""

import re
from dataclasses import dataclass, field

from .errors import FairyforgeError, MoveError

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
TOKEN = re.compile(r"""
    (?P<comment>\{[^}]*\}|;[^\n]*)
  | (?P<open>\() | (?P<close>\))
  | (?P<nag>\$[0-9]+)
  | (?P<result>1-0|0-1|1/2-1/2|\*)
  | (?P<number>[0-9]+\.+)
  | (?P<move>[^\s(){};$]+)
""", re.VERBOSE)


class PgnError(FairyforgeError, ValueError):
    """A PGN text that cannot be read; the message names the line."""


@dataclass
class PgnGame:
    """A game read from PGN: its tags, the position after its moves and its result."""

    headers: dict = field(default_factory=dict)
    position: object = None          # a Position whose move_stack holds the moves
    result: str = "*"
    # Per move of the main line: the text of the comments after it (without braces,
    # several joined by a space), None where it has none.
    comments: list = field(default_factory=list)
    line: int = 1                    # the line of the text where the game starts


def result_of(pos):
    outcome = pos.outcome()
    if outcome is None:
        return "*"
    return {"white": "1-0", "black": "0-1", None: "1/2-1/2"}[outcome.winner]


def export(pos, headers=None, comments=None):
    """The game that led to `pos` (from its setup, through its move_stack) as PGN;
    `comments`, one per move (None for none), are written after their moves."""
    game = pos.game
    tags = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?",
            "White": "?", "Black": "?", "Result": result_of(pos), "Variant": game.name}
    if pos.setup_fen != game.start_fen:
        tags.update(SetUp="1", FEN=pos.setup_fen)
    tags.update(headers or {})
    lines = [f'[{name} "{quote(str(value))}"]' for name, value in tags.items()]
    movetext = _movetext(pos, comments or ())
    return "\n".join(lines) + "\n\n" + wrap(movetext + [tags["Result"]]) + "\n"


def _movetext(pos, comments):
    replay = pos.game.position(pos.setup_fen)
    side, _, _, _, number, _ = replay.engine.state()
    words, commented = [], False
    for i, move in enumerate(pos.move_stack):
        if side == 0:
            words.append(f"{number}.")
        elif i == 0 or commented:           # Black's move after a comment is numbered
            words.append(f"{number}...")
        words.append(replay.san(move))
        comment = comments[i] if i < len(comments) else None
        commented = bool(comment)
        if commented:
            words += f"{{{comment}}}".split()
        replay.push(move)
        side, number = side ^ 1, number + (side == 1)
    return words


def quote(text):
    """A tag value as PGN writes it (backslashes and quotes escaped)."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def wrap(words, width=79):
    """Move text: the words joined by spaces, in lines of at most `width` characters."""
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join(lines + [line])


def read_game(text, game=None):
    """The first game of a PGN text (PgnError if there is none)."""
    for found in read_games(text, game):
        return found
    raise PgnError("no game in the PGN text")


def read_games(text, game=None, same_variant=False):
    """Every game of a PGN text, one PgnGame at a time.  `game` (a Game) is used when
    given; otherwise the Variant tag names a bundled game (default chess).  With
    `same_variant`, a game whose Variant tag names another game than `game` is a
    PgnError (other tools name chess "Standard": leave it off for their files)."""
    for headers, movetext, line in _split(text):
        if same_variant and game is not None:
            tag = headers.get("Variant", game.name)
            if tag.lower() != game.name.lower():
                raise PgnError(f"game from line {line}: a game of {tag}, not {game.name} "
                               "(its Variant tag)")
        yield _build(headers, movetext, line, game)


def _split(text):
    """(tags, movetext, first line number) of each game: a tag after movetext starts
    the next game."""
    headers, body, start = {}, [], 1
    for line_no, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            if body:
                yield headers, "\n".join(body), start
                headers, body = {}, []
            if not headers:
                start = line_no
            name, value = _tag(stripped, line_no)
            headers[name] = value
        elif stripped or body:
            body.append(line)
    if headers or any(b.strip() for b in body):
        yield headers, "\n".join(body), start


def _tag(text, line_no):
    m = TAG.fullmatch(text)
    if not m:
        raise PgnError(f'line {line_no}: a tag is written [Name "value"], got {text}')
    return m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))


def _build(headers, movetext, line, game):
    from . import bundled_games, load
    if game is None:
        # Only a bundled game: a PGN's tag never makes us open a file.
        name = headers.get("Variant", "chess").lower() or "chess"
        if name not in bundled_games():
            raise PgnError(f"game from line {line}: unknown Variant '{name}' (bundled: "
                           f"{', '.join(bundled_games())}); pass game= for another")
        game = load(name)
    fen = headers.get("FEN")
    pos = game.position(fen) if fen else game.start()
    result = headers.get("Result", "*")
    depth, comments = 0, []
    for m in TOKEN.finditer(movetext):
        kind = m.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
        elif kind == "result" and depth == 0:
            result = m.group()
            break
        elif kind == "move" and depth == 0:
            _push(pos, m.group(), line)
            comments.append(None)
        elif kind == "comment" and depth == 0 and comments:
            text = m.group().strip("{};").strip()
            comments[-1] = text if comments[-1] is None else f"{comments[-1]} {text}"
    return PgnGame(headers, pos, result, comments, line)


def _push(pos, text, line):
    san = re.sub(r"[!?]+$", "", text)
    try:
        pos.push_san(san)
    except MoveError as err:
        ply = len(pos.move_stack) + 1
        raise PgnError(f"game from line {line}, ply {ply}: {err}") from err
