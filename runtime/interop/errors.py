"""The import's refusal: what could not be translated, and where."""

from ..errors import FairyforgeError


class ImportRefusal(FairyforgeError):
    """An option (or a section) that the language cannot express yet.  `section`,
    `option` (the text as written, or None), `line` and `reason` name it; the message is
    "SECTION: OPTION = VALUE (line N): REASON"."""

    # The summary's group for the refusals of a built-in parent (with `parent` set)
    PARENT = "the parent is a Fairy-Stockfish built-in variant Fairyforge has no definition of yet"

    def __init__(self, section, option, line, reason, value=None, parent=None):
        self.section, self.option, self.line, self.reason = section, option, line, reason
        self.parent = parent
        self.group = self.PARENT if parent else reason
        what = option if value is None else f"{option} = {value}"
        where = f" (line {line})" if line else ""
        head = f"{section}: {what}{where}" if option else f"{section}{where}"
        super().__init__(f"{head}: {reason}")


class ExportRefusal(FairyforgeError):
    """The game has a rule Fairy-Stockfish cannot express."""
