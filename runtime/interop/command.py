"""`fairyforge import FILE.ini [SECTION...] [-o DIR] [--force]` and
`fairyforge export GAME [-o FILE]`.

cli.py registers both with `add_parsers(subparsers)`.  Import writes one definition per
section into DIR (default: the current folder) and, for several sections, prints a
summary: what was imported, and what was refused with the reason.  Exit status: 0 when
every section asked for was imported, 2 when one was refused or the ini is unreadable.
"""

import os
import sys

from .errors import ImportRefusal
from .ini import IniError, read_ini

EXIT_OK, EXIT_ERROR = 0, 2


def add_parsers(subparsers):
    i = subparsers.add_parser("import", help="translate Fairy-Stockfish's variants.ini "
                                             "sections into definitions")
    i.add_argument("ini", metavar="FILE.ini", help="a Fairy-Stockfish variants.ini")
    i.add_argument("sections", nargs="*", metavar="SECTION",
                   help="the sections to import (default: all)")
    i.add_argument("-o", "--output", metavar="DIR", default=".",
                   help="where to write the .variant files (default: the current folder)")
    i.add_argument("--force", action="store_true", help="overwrite existing files")
    i.set_defaults(func=run_import)
    e = subparsers.add_parser("export", help="write a game as a Fairy-Stockfish "
                                             "variants.ini section")
    e.add_argument("game", metavar="GAME", help="a bundled game's name or a definition file")
    e.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: stdout)")
    e.add_argument("--name", help="the section's name (default: the game's)")
    e.set_defaults(func=run_export)


def run_import(args):
    try:
        with open(args.ini, encoding="utf-8") as handle:
            sections = read_ini(handle.read(), os.path.basename(args.ini))
    except (OSError, UnicodeDecodeError) as err:
        print(f"fairyforge: error: cannot read {args.ini}: "
              f"{getattr(err, 'strerror', None) or err}", file=sys.stderr)
        return EXIT_ERROR
    except IniError as err:
        print(f"fairyforge: error: {err}", file=sys.stderr)
        return EXIT_ERROR
    unknown = [name for name in args.sections if name not in sections]
    if unknown:
        print(f"fairyforge: error: {args.ini} has no section {', '.join(unknown)} "
              f"(sections: {', '.join(sections)})", file=sys.stderr)
        return EXIT_ERROR
    wanted = args.sections or list(sections)
    os.makedirs(args.output, exist_ok=True)
    imported, refused = [], []
    for name in wanted:
        outcome = _import_one(sections, name, args)
        (imported if isinstance(outcome, str) else refused).append(outcome)
    for problem in refused:
        print(f"fairyforge: refused {problem}", file=sys.stderr)
    if len(wanted) > 1:
        _summary(imported, refused)
    return EXIT_ERROR if refused else EXIT_OK


def _import_one(sections, name, args):
    """The path written, or the refusal (an ImportRefusal or a message)."""
    from .importer import translate
    path = os.path.join(args.output, f"{name}.variant")
    if os.path.exists(path) and not args.force:
        return ImportRefusal(name, None, None, f"{path} exists (use --force to overwrite it)")
    try:
        imported = translate(sections, name, os.path.basename(args.ini), path)
    except ImportRefusal as refusal:
        return refusal
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(imported.text)
    print(path)
    return path


def _summary(imported, refused):
    print(f"\nimported {len(imported)}, refused {len(refused)}", file=sys.stderr)
    for line in summary_lines(refused):
        print(line, file=sys.stderr)


def summary_lines(refused):
    """The refusals grouped by reason, most frequent first; built-in parents by name."""
    from collections import Counter
    groups = Counter(getattr(r, "group", str(r)) for r in refused)
    parents = Counter(r.parent for r in refused if getattr(r, "parent", None))
    lines = []
    for group, count in groups.most_common():
        lines.append(f"  {count:3d}  {group}")
        if group == ImportRefusal.PARENT:
            lines.append("       (" + ", ".join(f"{p} {n}" for p, n in parents.most_common())
                         + ")")
    return lines


def run_export(args):
    from ..compiler import loader
    from .export import ExportRefusal, export_variant
    variant = loader.load_variant(args.game)
    try:
        text = export_variant(variant, args.name)
    except ExportRefusal as refusal:
        print(f"fairyforge: error: cannot export {variant.name}: {refusal}", file=sys.stderr)
        return EXIT_ERROR
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(args.output, file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK
