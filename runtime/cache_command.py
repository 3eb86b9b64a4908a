"""`fairyforge cache list|clean|path`: the built engines kept on disk.

    fairyforge cache list                     each entry: game, size, built, last used
    fairyforge cache clean [--older-than D]   remove all entries (or those unused for D days)
    fairyforge cache path                     the cache directory

The cache is $FAIRYFORGE_CACHE, else ~/.cache/fairyforge (compiler/cache.py holds its
layout).  cli.py registers the subcommand with `add_parser(subparsers)`.
"""

import argparse
import time

EXIT_OK = 0


def _days(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"DAYS must be a number, not '{text[:20]}'")
    if not value >= 0 or value == float("inf"):      # also refuses nan
        raise argparse.ArgumentTypeError("DAYS must be 0 or more")
    return value


def add_parser(subparsers):
    c = subparsers.add_parser("cache", help="list or clean the built engines",
                              description="The compiled engines kept in $FAIRYFORGE_CACHE "
                                          "(default ~/.cache/fairyforge).")
    actions = c.add_subparsers(dest="action", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="each entry with its game, size and age")
    listing.set_defaults(func=run_list)
    clean = actions.add_parser("clean", help="remove entries (all unless --older-than)")
    clean.add_argument("--older-than", type=_days, metavar="DAYS", dest="older_than",
                       help="only entries not used for more than DAYS days")
    clean.set_defaults(func=run_clean)
    where = actions.add_parser("path", help="print the cache directory")
    where.set_defaults(func=run_path)
    return c


def size_text(size):
    """1536 -> '1.5 KB', in powers of 1024 as du -h."""
    if size < 1024:
        return f"{size} B"
    value = size / 1024
    for unit in ("KB", "MB"):
        if value < 1024:
            return f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"


def age_text(seconds):
    """A duration in its largest whole unit: '40 s', '12 min', '3 h', '5 d'."""
    seconds = max(0, seconds)
    for unit, length in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= length:
            return f"{int(seconds // length)} {unit}"
    return f"{int(seconds)} s"


def run_list(args):
    from .compiler import cache
    root = cache.cache_root()
    entries = cache.entries(root)
    now = time.time()
    if entries:
        width = max(4, max(len(e.game) for e in entries))
        print(f"{'game':<{width}}  {'size':>9}  {'built':>11}  {'used':>11}  entry")
        for e in entries:
            print(f"{e.game:<{width}}  {size_text(e.size):>9}  {age_text(now - e.built) + ' ago':>11}"
                  f"  {age_text(now - e.used) + ' ago':>11}  {e.name}")
    total = sum(e.size for e in entries)
    print(f"{len(entries)} {'entry' if len(entries) == 1 else 'entries'}, "
          f"{size_text(total)} in {root}")
    return EXIT_OK


def run_clean(args):
    from .compiler import cache
    root = cache.cache_root()
    removed, freed = cache.clean(root, older_than_days=args.older_than)
    which = "" if args.older_than is None else f" unused for more than {args.older_than:g} days"
    print(f"removed {removed} {'entry' if removed == 1 else 'entries'}{which}, "
          f"{size_text(freed)} freed in {root}")
    return EXIT_OK


def run_path(args):
    from .compiler import cache
    print(cache.cache_root())
    return EXIT_OK
