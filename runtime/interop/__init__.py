"""Fairy-Stockfish interoperability: `fairyforge import variants.ini` (ini sections
into definitions) and `fairyforge export GAME` (a game into an ini section).

    from fairyforge import interop
    sections = interop.read_ini(text)
    imported = interop.translate(sections, "centaurking")   # .text: the definition
    section_text = interop.export_variant(ff.load("chess").variant)

The names are imported on first use, so that the command line starts without them.
"""

_NAMES = {"ImportRefusal": "errors", "IniError": "ini", "read_ini": "ini",
          "Imported": "importer", "translate": "importer", "export_variant": "export",
          "ExportRefusal": "export"}
__all__ = list(_NAMES)


def __getattr__(name):
    if name not in _NAMES:
        raise AttributeError(f"module 'fairyforge.interop' has no attribute {name!r}")
    from importlib import import_module
    return getattr(import_module(f".{_NAMES[name]}", __name__), name)
