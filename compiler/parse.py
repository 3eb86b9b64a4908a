"""Phase 1, parse: definition text -> a list of statements, each with its location.

A definition is line-oriented, so each line is parsed on its own with the lark grammar
in grammar/variant.lark.  That gives every line's syntax error in one run (not only
the first) and keeps error locations exact.  Nothing here knows what a statement
means; the resolve phase does.
"""

import difflib
import re
from dataclasses import dataclass, field
from importlib import resources

import lark
from lark import Transformer, Token

from .diagnostics import DiagnosticBag, Location


@dataclass
class Statement:
    """One line of a definition: its kind (the grammar rule), its parts and location.

    `args` maps part names to values; tokens in it keep their column, and `loc_of`
    turns any of them into a Location for an error message.
    """

    kind: str
    args: dict
    loc: Location
    text: str = ""

    def loc_of(self, token):
        column = getattr(token, "column", None) or self.loc.column
        return Location(self.loc.file, self.loc.line, column, self.loc.source_line)


@dataclass
class Definition:
    """A parsed definition file."""

    path: str
    text: str
    statements: list = field(default_factory=list)


def _grammar_text(name):
    return resources.files("fairyforge.grammar").joinpath(name).read_text()


_LINE_PARSER = None


def line_parser():
    """The lark parser for one statement line (built once per process)."""
    global _LINE_PARSER
    if _LINE_PARSER is None:
        _LINE_PARSER = lark.Lark(_grammar_text("variant.lark"), start="line",
                                 parser="lalr", maybe_placeholders=False,
                                 propagate_positions=True)
    return _LINE_PARSER


# Words for the grammar's terminals, so syntax errors read as sentences.
TERMINAL_WORDS = {
    "NAME": "a name such as pawn",
    "LETTER": "a piece letter such as P or +P",
    "BETZA": "a Betza move such as fW or mRcpR",
    "BOARD_SIZE": "a board size such as 8x8",
    "SYMMETRY": "mirror or rotate",
    "SQUARE": "a square such as e4",
    "FILE_LETTER": "a file letter such as a",
    "INT": "a whole number",
    "NUMBER": "a number",
    "STRING": 'a quoted string such as "Chess"',
    "RESULT": "draw, loss or win",
    "ROYAL": "royal",
    "ALL": "all",
    "SIDE_NAME": "white or black",
    "CAPTURE_FATE": "go to hand or are removed",
    "DROP_FLAG": "not doubled or not mating",
    "PERPETUAL_KIND": "check or chase",
    "PERPETUAL_FATE": "loses or illegal",
    "ONE_PIECE": "by one piece",
    "EVENT": "captures, checks or promotes",
    # (symbols are quoted: "expected all, &, ,, ..." did not read as a sentence)
    "LEAVING": "'or leaving'",
    "EQUAL": "'='",
    "MINUS": "'-'",
    "COMMA": "a comma",
    "COLON": "':'",
    "AMPERSAND": "'&'",
    "LPAR": "'('",
    "RPAR": "')'",
    "$END": "the end of the line",
}

STATEMENT_WORDS = ("variant board symmetry region piece move initial confine promote demote "
                   "captures captured drop deploy castling en no stalemate repetition "
                   "perpetual until value setup sides").split()


def describe_expected(expected, parser):
    """Turn a set of lark terminal names into an English list of what was expected."""
    words = []
    for name in sorted(expected):
        if name in TERMINAL_WORDS:
            word = TERMINAL_WORDS[name]
        elif "END" in name.upper():
            word = "the end of the line"
        else:
            try:
                pattern = parser.get_terminal(name).pattern
            except KeyError:
                pattern = None
            if pattern is not None and pattern.type == "str":
                word = pattern.value
            else:
                word = name.lower()
        if word not in words:
            words.append(word)
    if len(words) > 8:
        return "a statement keyword such as " + ", ".join(STATEMENT_WORDS[:8]) + " ..."
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _context_hint(statement_keyword, expected):
    """A more specific phrase for the places users most often get wrong."""
    if statement_keyword == "piece" and "BETZA" in expected:
        return "expected a Betza move such as fW or mRcpR after the piece letter"
    if statement_keyword == "piece" and "LETTER" in expected:
        return "expected a piece letter such as P (or +P for a promoted piece) after the piece name"
    return None


class _ToStatement(Transformer):
    """Turns one line's parse tree into a Statement (kind + args)."""

    def __init__(self, make):
        super().__init__()
        self._make = make

    # -- region expressions become nested tuples ------------------------------------
    def rank(self, c):
        return ("ranks", c[0], c[0])

    def ranks(self, c):
        return ("ranks", c[0], c[1])

    def file(self, c):
        return ("files", c[0], c[0])

    def files(self, c):
        return ("files", c[0], c[1])

    def rectangle(self, c):
        return ("rect", c[0], c[1])

    def square(self, c):
        return ("rect", c[0], c[0])

    def all_squares(self, c):
        return ("all", c[0])

    def region_ref(self, c):
        return ("ref", c[0])

    def region_atom(self, c):
        return c[0]

    def region_inter(self, c):
        return c[0] if len(c) == 1 else ("inter", tuple(c))

    def region_union(self, c):
        return c[0] if len(c) == 1 else ("union", tuple(c))

    def region_expr(self, c):
        return c[0] if len(c) == 1 else ("except", c[0], tuple(c[1:]))

    def name_list(self, c):
        return list(c)

    def event_list(self, c):
        return [str(t).rstrip("s").replace("checke", "check") for t in c]

    def side(self, c):
        return c[0]

    def extends(self, c):
        # Tagged, so that a quoted parent (`variant x extends "a.variant"`, no title)
        # is not mistaken for the title by variant_decl.
        return ("extends", c[0])

    def drop_pieces(self, c):
        return "all" if isinstance(c[0], Token) and c[0] == "all" else c[0]

    def drop_zone(self, c):
        return c[0]

    def promote_trigger(self, c):
        return "leaving" if c else "entering"

    def promote_forced(self, c):
        return c[0]

    # -- statements -------------------------------------------------------------------
    def variant_decl(self, c):
        args = {"name": c[0], "title": None, "extends": None}
        for item in c[1:]:
            if isinstance(item, tuple) and item[0] == "extends":
                args["extends"] = item[1]
            else:
                args["title"] = item
        return self._make("variant", args)

    def board_decl(self, c):
        return self._make("board", {"size": c[0]})

    def symmetry_decl(self, c):
        return self._make("symmetry", {"mode": c[0]})

    def region_decl(self, c):
        if len(c) == 3:
            return self._make("region", {"name": c[0], "side": c[1], "expr": c[2]})
        return self._make("region", {"name": c[0], "side": None, "expr": c[1]})

    def piece_decl(self, c):
        return self._make("piece", {"name": c[0], "letter": c[1], "betza": c[2],
                                    "royal": len(c) > 3})

    def move_decl(self, c):
        return self._make("move", {"piece": c[0], "betza": c[1], "region": c[2]})

    def initial_decl(self, c):
        return self._make("initial", {"pieces": c[0], "region": c[1]})

    def confine_decl(self, c):
        return self._make("confine", {"pieces": c[0], "region": c[1]})

    def promote_decl(self, c):
        args = {"piece": c[0], "choices": c[1], "zone": c[2], "trigger": "entering",
                "forced": None}
        rest = list(c[3:])
        if rest and isinstance(rest[0], str):      # "entering"/"leaving" (regions are tuples)
            args["trigger"] = rest.pop(0)
        if rest:
            args["forced"] = rest[0]
        return self._make("promote", args)

    def demote_decl(self, c):
        return self._make("demote", {"piece": c[0], "to": c[1]})

    def captures_decl(self, c):
        return self._make("captures", {"fate": "hand" if "hand" in c[0] else "removed",
                                       "side": c[1] if len(c) > 1 else None, "token": c[0]})

    def captured_becomes(self, c):
        return self._make("captured", {"piece": c[0], "becomes": c[1]})

    def captured_removed(self, c):
        return self._make("captured", {"piece": c[0], "becomes": None})

    def captured_revert(self, c):
        return self._make("captured_revert", {})

    def drop_decl(self, c):
        args = {"pieces": c[0], "side": None, "zone": None, "flags": []}
        for item in c[1:]:
            if isinstance(item, Token) and item.type == "SIDE_NAME":
                args["side"] = item
            elif isinstance(item, Token) and item.type == "DROP_FLAG":
                args["flags"].append(" ".join(str(item).split()))
            else:
                args["zone"] = item
        return self._make("drop", args)

    def deploy_decl(self, c):
        return self._make("deploy", {"last": c[0] if c else None})

    def castling_decl(self, c):
        side = None
        if len(c) == 5:
            side, c = c[0], c[1:]
        return self._make("castling", {"side": side, "king_from": c[0], "king_to": c[1],
                                       "rook_from": c[2], "rook_to": c[3]})

    def en_passant_decl(self, c):
        return self._make("en_passant", {"pieces": c[0]})

    def facing_decl(self, c):
        return self._make("no_facing_kings", {})

    def stalemate_decl(self, c):
        return self._make("stalemate", {"result": c[0], "illegal": len(c) > 1})

    def repetition_decl(self, c):
        return self._make("repetition", {"count": c[0], "result": c[1]})

    def perpetual_decl(self, c):
        return self._make("perpetual", {"kind": c[0], "fate": c[-1],
                                        "one_piece": c[1] if len(c) > 2 else None})

    def move_rule_decl(self, c):
        return self._make("move_rule", {"moves": c[0]})

    def restriction_decl(self, c):
        return self._make("restriction", {"trigger_side": c[0], "events": c[1],
                                          "restricted_side": c[2], "forbidden": c[3]})

    def value_decl(self, c):
        return self._make("value", {"piece": c[0], "value": c[1]})

    def sides_decl(self, c):
        return self._make("sides", {"white": c[0], "black": c[1]})

    def setup_decl(self, c):
        return self._make("setup", {"fen": c[0]})

    def line(self, c):
        return c[0]


def strip_comment(line):
    """The line without its comment (a `#` outside a quoted string starts one)."""
    in_string = False
    for i, ch in enumerate(line):
        if ch == '"':
            in_string = not in_string
        elif ch == "#" and not in_string:
            return line[:i]
    return line


# Lines end at \n, \r\n or \r, as in editors.  (str.splitlines also breaks at form
# feeds, \x1c-\x1e, \x85 and \u2028/9, which would make our line numbers disagree with
# the editor's; those characters stay inside a line and are reported there.)
LINE_BREAK = re.compile(r"\r\n|\r|\n")


def source_lines(text):
    """The lines of a definition, numbered as an editor numbers them (from 0 here)."""
    lines = LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def parse_text(text, path="<string>", bag=None):
    """Parse definition text into a Definition; syntax errors go into `bag`."""
    own_bag = bag is None
    bag = bag if bag is not None else DiagnosticBag()
    parser = line_parser()
    definition = Definition(path=path, text=text)
    if text.startswith("\ufeff"):         # a byte-order mark some editors write
        text = text[1:]
    for number, raw in enumerate(source_lines(text), start=1):
        if not strip_comment(raw).strip():
            continue
        loc = Location(path, number, len(raw) - len(raw.lstrip()) + 1, raw)

        def make(kind, args, loc=loc, raw=raw):
            return Statement(kind, args, loc, raw.strip())

        try:
            tree = parser.parse(raw)
        except lark.exceptions.UnexpectedCharacters as err:
            bag.error(Location(path, number, err.column, raw),
                      _unexpected_character_message(raw, err, parser))
            continue
        except lark.exceptions.UnexpectedToken as err:
            bag.error(Location(path, number, _token_column(err, raw), raw),
                      _unexpected_token_message(raw, err, parser))
            continue
        except lark.exceptions.UnexpectedEOF as err:
            bag.error(Location(path, number, len(raw.rstrip()) + 1, raw),
                      "the line ends too early: expected "
                      + describe_expected(set(err.expected), parser))
            continue
        try:
            statement = _ToStatement(make).transform(tree)
        except RecursionError:
            # Thousands of nested parentheses overflow the tree walk: say so rather
            # than crash with a Python RecursionError.
            bag.error(Location(path, number, raw.find("(") + 1 or 1, raw),
                      "the line nests parentheses too deeply")
            continue
        definition.statements.append(statement)
    if own_bag:
        bag.raise_if_any()
    return definition


def _first_word(raw):
    words = strip_comment(raw).split()
    return words[0] if words else ""


def _token_column(err, raw):
    if err.token.type == "$END":
        return len(strip_comment(raw).rstrip()) + 1
    return err.column if err.column and err.column > 0 else 1


def _unknown_statement(keyword):
    close = difflib.get_close_matches(keyword, STATEMENT_WORDS, n=1, cutoff=0.6)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return f"unknown statement '{keyword}'{hint}: a line starts with one of " + ", ".join(STATEMENT_WORDS)


def _unexpected_token_message(raw, err, parser):
    keyword = _first_word(raw)
    expected = set(err.expected)
    hint = _context_hint(keyword, expected)
    if err.token.type == "$END":
        found = "the end of the line"
    else:
        found = f"'{err.token}'"
    if err.token.type != "$END" and err.column == 1 and keyword not in STATEMENT_WORDS:
        return _unknown_statement(keyword)
    return f"{hint or 'expected ' + describe_expected(expected, parser)}, found {found}"


def _unexpected_character_message(raw, err, parser):
    keyword = _first_word(raw)
    expected = set(err.allowed or ())
    char = raw[err.column - 1] if 0 < err.column <= len(raw) else "?"
    if err.column == 1 or (keyword not in STATEMENT_WORDS and raw.find(keyword) == err.column - 1):
        return _unknown_statement(keyword)
    hint = _context_hint(keyword, expected)
    if hint:
        return f"{hint}, found '{char}'"
    if expected:
        return f"unexpected '{char}': expected {describe_expected(expected, parser)}"
    return f"unexpected '{char}'"


def parse_file(path, bag=None):
    """Parse the definition file at `path`."""
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        # Not UTF-8 text: report where, instead of letting UnicodeDecodeError escape.
        before = data[:err.start].decode("utf-8", errors="replace")
        lines = source_lines(before + "x")
        line = len(lines)
        column = len(lines[-1])
        shown = source_lines(data.decode("utf-8", errors="replace") + "\n")[line - 1]
        own_bag = bag is None
        bag = bag if bag is not None else DiagnosticBag()
        bag.error(Location(str(path), line, column, shown),
                  f"the file is not UTF-8 text: byte 0x{data[err.start]:02x} cannot be read "
                  "(save the file as UTF-8)")
        if own_bag:
            bag.raise_if_any()
        return Definition(path=str(path), text="")
    return parse_text(text, str(path), bag)
