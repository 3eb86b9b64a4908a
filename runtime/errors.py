"""The exceptions a user of Fairyforge can see.

Every error Fairyforge raises on purpose derives from FairyforgeError, so a caller can
catch them all in one place; the subclasses say which kind of input was wrong.
"""


class FairyforgeError(Exception):
    """Base class of every error Fairyforge raises on purpose."""


class DefinitionError(FairyforgeError):
    """A variant definition has one or more errors.

    `diagnostics` holds every problem found (a list of Diagnostic); str() gives them
    in the `file:line:col: message` form, each with the line and a caret: the first
    200, then a line counting the rest.
    """

    def __init__(self, diagnostics):
        from .compiler.diagnostics import render_all
        self.diagnostics = list(diagnostics)
        super().__init__(render_all(self.diagnostics))


class FenError(FairyforgeError, ValueError):
    """A FEN string is malformed or describes an impossible position.

    `field` names the part of the FEN that is wrong (board, holdings, side, castling,
    en passant, halfmove clock, fullmove number).
    """

    def __init__(self, field, message, fen=None):
        self.field = field
        self.fen = fen
        super().__init__(f"bad FEN {field}: {message}")


class MoveError(FairyforgeError, ValueError):
    """Base class of the errors about a move."""

    def __init__(self, move, message):
        self.move = move
        super().__init__(message)


class InvalidMoveError(MoveError):
    """The text is not a move at all (malformed, or off the board)."""


class IllegalMoveError(MoveError):
    """The move is well-formed but not legal in the position."""


class EmptyHistoryError(FairyforgeError, IndexError):
    """pop() was called with no move to take back."""


class BuildError(FairyforgeError):
    """A generated engine could not be compiled or loaded."""


class UnknownGameError(FairyforgeError, LookupError):
    """A game name is neither a bundled game nor a readable definition file."""


class ArgumentError(FairyforgeError, ValueError):
    """An argument of an API call is of the wrong kind or out of range (a perft depth
    of -1 or 2.5, say)."""


class ConcurrentUseError(FairyforgeError, RuntimeError):
    """One Position (one engine) was used from two threads at once.  Positions are not
    shared between threads: give each thread its own (`pos.copy()`)."""
