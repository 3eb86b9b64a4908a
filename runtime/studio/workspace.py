"""The studio's folder: the only place it reads or writes user files.

Every path a request names is taken relative to the folder the studio was started in
and refused (StudioError, HTTP 403) if it leads outside it, through `..`, an absolute
path or a symbolic link.  A definition's `extends` chain is checked the same way
before the compiler follows it: a parent must be a bundled game or a file inside the
folder.  Texts are limited to MAX_TEXT bytes.
"""

import os

from ..compiler import build, loader, parse, resolve
from ..compiler.nodes import VariantHeader
from ..compiler.diagnostics import DiagnosticBag
from ..errors import DefinitionError, FairyforgeError

MAX_TEXT = 256 * 1024          # a definition, a FEN or a PGN: far more than any needs
MAX_LISTED = 500
SKIPPED_DIRS = {".git", "__pycache__", "node_modules", ".venv", "venv"}


class StudioError(FairyforgeError):
    """A request the studio refuses; `status` is the HTTP status to answer with."""

    def __init__(self, message, status=400):
        self.status = status
        super().__init__(message)


class Workspace:
    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.bundled_dir = os.path.realpath(os.path.dirname(loader.bundled_path("chess")))

    # -- paths ---------------------------------------------------------------------------
    def path(self, relative):
        """The real path of a file named relative to the folder (StudioError outside)."""
        if not isinstance(relative, str) or not relative or "\0" in relative:
            raise StudioError("a file path is needed")
        if os.path.isabs(relative):
            raise StudioError(f"'{relative}' is outside the studio's folder", 403)
        real = os.path.realpath(os.path.join(self.root, relative))
        if not self.inside(real):
            raise StudioError(f"'{relative}' is outside the studio's folder", 403)
        return real

    def inside(self, real):
        return real == self.root or real.startswith(self.root + os.sep)

    def relative(self, real):
        return os.path.relpath(real, self.root)

    # -- files ---------------------------------------------------------------------------
    def definitions(self):
        """The definition files in the folder (and its subfolders), relative paths."""
        found = []
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
            for name in sorted(files):
                if name.endswith(".variant"):
                    real = os.path.realpath(os.path.join(folder, name))
                    if self.inside(real):
                        found.append(self.relative(os.path.join(folder, name)))
                if len(found) >= MAX_LISTED:
                    return found
        return found

    def read(self, relative):
        real = self.path(relative)
        if not os.path.isfile(real):
            raise StudioError(f"no file '{relative}' in the studio's folder", 404)
        if os.path.getsize(real) > MAX_TEXT:
            raise StudioError(f"'{relative}' is larger than {MAX_TEXT // 1024} KiB", 413)
        with open(real, encoding="utf-8", errors="replace") as handle:
            return handle.read()

    def write(self, relative, text):
        if not relative.endswith(".variant"):
            raise StudioError("the studio only writes definition files (.variant)", 403)
        real = self.path(relative)
        limit_text(text)
        os.makedirs(os.path.dirname(real), exist_ok=True)
        with open(real, "w", encoding="utf-8") as handle:
            handle.write(text)
        return self.relative(real)

    # -- definitions ---------------------------------------------------------------------
    def check(self, text, relative="untitled.variant"):
        """The diagnostics of a definition text, as dicts (line, column, message)."""
        limit_text(text)
        real = self.path(relative)
        bag = DiagnosticBag()
        definition = parse.parse_text(text, real, bag)
        if self._parents_inside(definition, bag):
            resolve.resolve(definition, bag)
        return [self.diagnostic_dict(d) for d in bag.sorted()]

    def variant(self, source):
        """The rule model of a source: {"game": bundled name} | {"path": file} |
        {"text": definition, "path": where it would be saved}.  DefinitionError if
        it has errors."""
        if source.get("game"):
            name = source["game"]
            if name not in loader.bundled_names():
                raise StudioError(f"no bundled game '{name}'", 404)
            return loader.load_variant(name)
        relative = source.get("path") or "untitled.variant"
        text = source["text"] if source.get("text") is not None else self.read(relative)
        limit_text(text)
        bag = DiagnosticBag()
        definition = parse.parse_text(text, self.path(relative), bag)
        if self._parents_inside(definition, bag):
            variant = resolve.resolve(definition, bag)
            bag.raise_if_any()
            return variant
        bag.raise_if_any()

    def load(self, source, progress=None):
        """A compiled Game for a source (see variant)."""
        import fairyforge
        from ..game import Game
        variant = self.variant(source)
        path, module = build.load_module(variant, progress=progress)
        cache = fairyforge._loaded
        if path not in cache:
            cache[path] = Game(variant, module, path)
        return cache[path]

    def _parents_inside(self, definition, bag, depth=0):
        """Follow `extends` as the resolver will; report a parent outside the folder."""
        header = next((s for s in definition.statements if isinstance(s, VariantHeader)), None)
        if header is None or header.extends is None or depth > 32:
            return True
        name = str(header.extends).strip('"')
        located = loader.locate(name, definition.path)
        if located is None:
            return True                     # the resolver says it cannot find it
        real = os.path.realpath(located)
        if not (self.inside(real) or os.path.dirname(real) == self.bundled_dir):
            bag.error(header.loc, f"the parent '{name}' is outside the studio's folder: "
                                  "the studio opens only files inside it and bundled games")
            return False
        parent = parse.parse_file(real, DiagnosticBag())
        return self._parents_inside(parent, bag, depth + 1)

    def diagnostic_dict(self, diagnostic):
        loc = diagnostic.location
        file = loc.file
        if os.path.isabs(file):
            real = os.path.realpath(file)
            file = self.relative(real) if self.inside(real) else os.path.basename(file)
        return {"file": file, "line": loc.line, "column": loc.column,
                "message": diagnostic.message}


def limit_text(text):
    if not isinstance(text, str):
        raise StudioError("text expected")
    if len(text.encode("utf-8", errors="replace")) > MAX_TEXT:
        raise StudioError(f"the text is larger than {MAX_TEXT // 1024} KiB", 413)


def diagnostics_of(err, workspace):
    """DefinitionError -> diagnostic dicts; anything else -> one without a place."""
    if isinstance(err, DefinitionError):
        return [workspace.diagnostic_dict(d) for d in err.diagnostics]
    return [{"file": "", "line": 0, "column": 0, "message": str(err)}]

