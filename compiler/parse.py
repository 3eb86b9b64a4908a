"""Phase 1, parse: definition text -> a list of typed statements (compiler.nodes).

A definition is line-oriented, so each line is parsed on its own with the lark grammar:
grammar/variant.lark for the board, the pieces and the setup, plus the grammar of each
rule kind (compiler/rules/*.py, GRAMMAR).  That gives every line's syntax error in one
run (not only the first) and keeps error locations exact.  Nothing here knows what a
statement means; the resolve phase and the rule kinds do.
"""

import difflib
import re
from dataclasses import dataclass, field
from importlib import resources

import lark
from lark import Transformer, Token

from . import nodes, rules
from .diagnostics import DiagnosticBag, Location


@dataclass
class Definition:
    """A parsed definition file."""

    path: str
    text: str
    statements: list = field(default_factory=list)      # nodes.Node, in file order


def _grammar_text(name):
    return resources.files("fairyforge.grammar").joinpath(name).read_text()


_LINE_PARSER = None


def grammar_text():
    """The whole grammar: the core's, and each rule kind's statements after it."""
    kinds = [kind for kind in rules.REGISTRY if hasattr(kind, "GRAMMAR")]
    alternatives = "\n    | ".join(name for kind in kinds for name in kind.STATEMENTS)
    parts = [_grammar_text("variant.lark"), f"_rule_statement: {alternatives}"]
    parts += [kind.GRAMMAR for kind in kinds]
    return "\n".join(parts)


def line_parser():
    """The lark parser for one statement line (built once per process)."""
    global _LINE_PARSER
    if _LINE_PARSER is None:
        _LINE_PARSER = lark.Lark(grammar_text(), start="line", parser="lalr",
                                 maybe_placeholders=False, propagate_positions=True)
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
    "MOVE_SCOPE": "in or along",
    "ALL": "all",
    "SIDE_NAME": "white or black",
    "CAPTURE_FATE": "go to hand or are removed",
    "DROP_FLAG": "not doubled, not tripled, not mating, mating loses, either side up or "
                 "on opposite colours",
    "FLIP_CAPTURING": "on capturing",
    "CAPTURED_ONLY": "only to captured pieces",
    "TAKEN_BACK": "castling, en passant or drops",
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

for _kind in rules.REGISTRY:
    TERMINAL_WORDS.update(getattr(_kind, "TERMINAL_WORDS", {}))

# The words a line may start with: the core's, then the rule kinds'.
STATEMENT_WORDS = ("variant board symmetry region piece move initial confine promote demote flip stuck "
                   "captures captured drop deploy castling en no value setup sides").split()
STATEMENT_WORDS += [word for kind in rules.REGISTRY for word in getattr(kind, "KEYWORDS", ())
                    if word not in STATEMENT_WORDS]


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


class _ToNode(Transformer):
    """Turns one line's parse tree into its typed statement (compiler.nodes).

    The parts of statements become values here (region expressions nested tuples,
    name lists lists); each statement rule then builds its node class, found in the
    core's table (nodes.STATEMENTS) or a rule kind's (rules.statements()).
    """

    NODES = {**nodes.STATEMENTS, **rules.statements()}
    PARTS = {name: function for kind in rules.REGISTRY
             for name, function in getattr(kind, "TRANSFORMS", {}).items()}

    def __default__(self, data, children, meta):
        if data in self.NODES:
            return self.NODES[data].from_parts(children)
        if data in self.PARTS:
            return self.PARTS[data](children)
        return super().__default__(data, children, meta)

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

    # -- other parts ----------------------------------------------------------------------
    def name_list(self, c):
        return list(c)

    def side(self, c):
        return c[0]

    def extends(self, c):
        # Tagged, so that a quoted parent (`variant x extends "a.variant"`, no title)
        # is not mistaken for the title by the header.
        return ("extends", c[0])

    def drop_pieces(self, c):
        return "all" if isinstance(c[0], Token) and c[0] == "all" else c[0]

    def drop_zone(self, c):
        return c[0]

    def promote_trigger(self, c):
        return "leaving" if c else "entering"

    def promote_forced(self, c):
        return c[0]

    def captured_decl(self, c):
        return c[0]

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
            statement = _ToNode().transform(tree)
        except RecursionError:
            # Thousands of nested parentheses overflow the tree walk: say so rather
            # than crash with a Python RecursionError.
            bag.error(Location(path, number, raw.find("(") + 1 or 1, raw),
                      "the line nests parentheses too deeply")
            continue
        statement.loc, statement.text = loc, strip_comment(raw).strip()
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
