"""Import every section of Fairy-Stockfish's variants.ini and compare each imported game
with pyffish, which loads the same ini (`pyffish.load_variant_config(text)`).

    python bench/import_fsf.py [--ini ../shared/fsf/variants.ini] [--positions 300]
                               [--sections a,b] [--seed 1] [--keep DIR]

For each section: imported or refused (the reason); for each imported one, the game is
built and compared with pyffish along random playouts (at least --positions positions)
by the tests' differential (tests/fsf_playouts.py): the start FEN, then in every
position the legal moves (Fairy-Stockfish's mating pawn drops apart, a convention of
its own), check, FEN and game end.  Prints one line per
section, then the counts: imported, refused (grouped by reason), exact, differing
(with the first difference).  Builds use $FAIRYFORGE_CACHE; the exit status is 0.
"""

import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_INI = os.path.join(HERE, "..", "..", "shared", "fsf", "variants.ini")


def arguments():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ini", default=DEFAULT_INI)
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--plies", type=int, default=120, help="longest playout")
    p.add_argument("--sections", help="comma-separated subset")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep", help="write the imported definitions into this folder")
    return p.parse_args()


def compare(game, sf, name, positions, plies, seed):
    """None when every compared position agrees, else the first difference: the tests'
    differential (tests/fsf_playouts.py): legal move sets (FSF's mating pawn drops, a
    convention of its own, apart), check, FEN and game end along random playouts."""
    sys.path.insert(0, os.path.join(HERE, "..", "tests"))
    from fsf_playouts import differential_playouts
    try:
        differential_playouts(sf, game, name, positions, seed, plies)
    except AssertionError as difference:
        text = str(difference).splitlines()[0][:400]
        if text == name:                    # (the start position's assertion)
            return f"start FEN {game.start().fen()} != pyffish " \
                   f"{sf.get_fen(name, sf.start_fen(name), [])}"
        return text
    return None


def export_round_trip(game, sf, name, positions, plies, seed):
    """The imported game exported again and loaded by pyffish under another name: None
    when it plays the same, else the refusal or the first difference."""
    from fairyforge.interop.export import ExportRefusal, export_variant
    section = f"roundtrip-{name}"
    try:
        sf.load_variant_config(export_variant(game.variant, name=section))
    except ExportRefusal as refusal:
        return f"export refused: {refusal}"
    return compare(game, sf, section, positions, plies, seed)


def main():
    args = arguments()
    import pyffish as sf
    import fairyforge as ff
    from fairyforge import interop
    from fairyforge.interop.command import summary_lines
    with open(args.ini, encoding="utf-8") as handle:
        text = handle.read()
    sf.load_variant_config(text)
    sections = interop.read_ini(text)
    wanted = args.sections.split(",") if args.sections else list(sections)
    folder = args.keep or tempfile.mkdtemp(prefix="ff-import-")
    os.makedirs(folder, exist_ok=True)
    refused, exact, differing, failed, round_trip = [], [], {}, {}, {}
    for name in wanted:
        path = os.path.join(folder, f"{name}.variant")
        try:
            imported = interop.translate(sections, name, os.path.basename(args.ini), path)
        except interop.ImportRefusal as refusal:
            refused.append(refusal)
            print(f"{name:24} refused: {refusal}", flush=True)
            continue
        with open(path, "w", encoding="utf-8") as out:
            out.write(imported.text)
        started = time.monotonic()
        try:
            game = ff.load(path)
            difference = compare(game, sf, name, args.positions, args.plies, args.seed)
        except ff.FairyforgeError as err:
            failed[name] = f"{type(err).__name__}: {str(err).splitlines()[0]}"
            print(f"{name:24} imported, fails to play: {failed[name]}", flush=True)
            continue
        took = time.monotonic() - started
        if not difference:
            round_trip[name] = export_round_trip(game, sf, name, args.positions, args.plies,
                                                 args.seed)
        if difference:
            differing[name] = difference
            print(f"{name:24} imported, differs ({took:.0f} s): {difference}", flush=True)
        else:
            exact.append(name)
            print(f"{name:24} imported, exact over {args.positions} positions ({took:.0f} s)",
                  flush=True)
    imported_count = len(exact) + len(differing) + len(failed)
    print(f"\nsections {len(wanted)}: imported {imported_count}, refused "
          f"{len(refused)}; of the imported: exact {len(exact)}, differing "
          f"{len(differing)}, failing to load {len(failed)}")
    trips = [n for n, result in round_trip.items() if result is None]
    print(f"export round trip of the exact imports: {len(trips)} exact of {len(round_trip)}")
    for name, result in round_trip.items():
        if result is not None:
            print(f"  {name}: {result}")
    print("refused, by reason:")
    for line in summary_lines(refused):
        print(line)
    for title, table in (("differing", differing), ("failing to load", failed)):
        for name, what in table.items():
            print(f"{title}: {name}: {what}")
    print(f"definitions in {folder}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
