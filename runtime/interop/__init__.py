"""Fairy-Stockfish interoperability: `fairyforge import variants.ini` (ini sections
into definitions) and `fairyforge export GAME` (a game into an ini section).

    from fairyforge import interop
    sections = interop.read_ini(text)
    imported = interop.translate(sections, "centaurking")   # .text: the definition
    section_text = interop.export_variant(ff.load("chess").variant)
"""

from .errors import ImportRefusal
from .ini import IniError, read_ini
from .importer import Imported, translate

__all__ = ["ImportRefusal", "IniError", "Imported", "read_ini", "translate"]
