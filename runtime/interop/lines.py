"""What the import's generators (emit.py, emit_ends.py) return."""

from dataclasses import dataclass

# A generator's answer when a child of a bundled game would have to take back a rule
# of its parent that the language cannot take back (the whole game is written instead)
TAKE_BACK = "take back"


@dataclass
class Line:
    """A statement of the definition and the options it comes from (for its comment)."""
    text: str
    sources: tuple = ()             # option names whose settings it expresses
