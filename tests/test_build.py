"""The build cache: reuse, corruption, concurrency, invalidation, missing toolchain."""

import os
import subprocess
import sys
import textwrap

import pytest

import fairyforge as ff
from fairyforge.compiler import build, cache as cache_module, evalparams, resolve
from fairyforge.game import Game

MINI = textwrap.dedent("""\
    variant mini{n} "Mini"
    board 4x4
    piece king K K royal
    piece rook R R
    setup "1k2/4/4/R2K w - - 0 1"
    """)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("FAIRYFORGE_CACHE", str(root))
    return root


def write_mini(tmp_path, n=0, extra=""):
    path = tmp_path / f"mini{n}.variant"
    path.write_text(MINI.format(n=n) + extra)
    return str(path)


def test_cached_build_is_reused(tmp_path, cache):
    variant = resolve.load_variant(write_mini(tmp_path))
    first = build.build(variant)
    mtime = os.path.getmtime(first)
    assert build.build(variant) == first
    assert os.path.getmtime(first) == mtime


def test_optimized_and_quick_builds_are_entries_of_their_own(tmp_path, cache, monkeypatch):
    """The product's engines are optimized; the tests' (FAIRYFORGE_BUILD=quick, from
    conftest) and the UCI session's first engine are not.  Both count the same."""
    variant = resolve.load_variant(write_mini(tmp_path, 5))
    monkeypatch.setenv("FAIRYFORGE_BUILD", "optimized")
    optimized = build.build(variant)
    quick = build.build(variant, quick=True)
    monkeypatch.setenv("FAIRYFORGE_BUILD", "quick")
    assert build.build(variant) == quick
    assert optimized != quick
    flags = [cache_module.read_entry(os.path.dirname(path))["flags"]
             for path in (optimized, quick)]
    assert flags == [build.CFLAGS, build.QUICK_FLAGS]
    counts = [Game(variant, build.import_module(path), path).start().perft(3)
              for path in (optimized, quick)]
    assert counts[0] == counts[1] > 100


def test_a_bad_build_setting_is_refused_naming_it(tmp_path, cache, monkeypatch):
    monkeypatch.setenv("FAIRYFORGE_BUILD", "fast")
    proc = subprocess.run([sys.executable, "-m", "fairyforge.cli", "perft",
                           write_mini(tmp_path, 6), "2"], capture_output=True, text=True)
    assert proc.returncode != 0
    assert "FAIRYFORGE_BUILD='fast': it may be 'quick' or 'optimized'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_corrupted_cache_entry_is_rebuilt(tmp_path, cache):
    variant = resolve.load_variant(write_mini(tmp_path, 1))
    path = build.build(variant)
    with open(path, "r+b") as handle:          # damage the module in place
        handle.seek(100)
        handle.write(b"\0garbage\0")
    messages = []
    again = build.build(variant, progress=messages.append)
    assert any("compiling" in m for m in messages)     # it was built anew
    module = build.import_module(again)
    assert module.Engine is not None


def test_half_written_entry_is_rebuilt(tmp_path, cache):
    variant = resolve.load_variant(write_mini(tmp_path, 2))
    path = build.build(variant)
    os.remove(os.path.join(os.path.dirname(path), "manifest.json"))
    messages = []
    build.build(variant, progress=messages.append)
    assert any("compiling" in m for m in messages)


def test_rule_change_is_never_served_stale(tmp_path, cache):
    path = write_mini(tmp_path, 3)
    before = build.build(resolve.load_variant(path))
    with open(path, "a") as handle:
        handle.write("stalemate loss\n")
    after = build.build(resolve.load_variant(path))
    assert before != after


def test_two_processes_building_at_once_get_the_same_module(tmp_path, cache):
    path = write_mini(tmp_path, 4)
    script = ("import sys, fairyforge as ff; g = ff.load(sys.argv[1]); "
              "print(g.module_path); print(g.start().perft(2))")
    procs = [subprocess.Popen([sys.executable, "-c", script, path], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), outputs
    lines = [out.split() for out, _ in outputs]
    assert lines[0] == lines[1]


def test_missing_c_compiler_gives_one_clear_message(tmp_path, cache, monkeypatch):
    monkeypatch.setenv("CC", "/nonexistent/cc")
    variant = resolve.load_variant(write_mini(tmp_path, 5))
    with pytest.raises(ff.BuildError, match="no C compiler found.*install one"):
        build.build(variant)


def test_missing_python_headers_gives_one_clear_message(tmp_path, cache, monkeypatch):
    import sysconfig
    real = sysconfig.get_paths

    def no_headers(*args, **kwargs):
        paths = dict(real(*args, **kwargs))
        paths["include"] = str(tmp_path / "no-include")
        return paths

    monkeypatch.setattr(sysconfig, "get_paths", no_headers)
    variant = resolve.load_variant(write_mini(tmp_path, 6))
    with pytest.raises(ff.BuildError, match="Python headers are missing.*python3-dev"):
        build.build(variant)


def test_build_command_shows_progress(tmp_path, cache):
    path = write_mini(tmp_path, 7)
    proc = subprocess.run([sys.executable, "-m", "fairyforge.cli", "build", path],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "cythonizing" in proc.stderr and "compiling C" in proc.stderr
    assert proc.stdout.strip().endswith((".so", ".pyd"))


def test_unusable_cache_directory_gives_one_clear_message(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("FAIRYFORGE_CACHE", str(blocker / "cache"))
    variant = resolve.load_variant(write_mini(tmp_path, 8))
    with pytest.raises(ff.BuildError, match="cannot use the engine cache directory.*FAIRYFORGE_CACHE"):
        build.build(variant)


def test_sanitized_build_links(tmp_path, cache):
    """The AddressSanitizer build (bench/sanitize.py) compiles and links (it lacked -fPIC)."""
    variant = resolve.load_variant(write_mini(tmp_path, 9))
    path = build.build(variant, sanitize=True)
    assert os.path.isfile(path)
    # an entry of its own: the usual build's is still empty (not built here, to save time)
    assert not build.cached(variant, evalparams.for_build(variant))


def test_a_compiler_change_is_never_served_stale(monkeypatch):
    """The cache key covers the generating phases' source, not only the template."""
    variant = resolve.load_variant("chess")
    before = build.cache_key("model", build.CFLAGS)
    monkeypatch.setattr(build, "_generator_source", lambda: "a changed lower.py")
    assert build.cache_key("model", build.CFLAGS) != before
    assert variant is not None


def test_generated_source_reads_as_written_by_hand(games):
    """The templates render clean code (there is no tidying pass): no always-true
    guards, double signs, empty-block `pass`es or runs of blank lines."""
    import re
    for name in ("chess", "xiangqi", "kjartansson"):
        with open(games[name].source_path) as f:
            source = f.read()
        assert "if True" not in source
        assert not re.search(r"[\w\])] [+-] -\d|[+-]= -\d", source)
        assert "\n\n\n\n" not in source
        assert not re.search(r"\n( +)[^\n]*\n\1pass\n", source)


def test_variant_named_as_fairy_stockfish_spells_it_builds(tmp_path, cache):
    """`3check` and `ai-wok` are names FSF uses: digits first and hyphens are allowed
    in a game's name, and the engine module's name stays a Python identifier."""
    path = tmp_path / "3check-x.variant"
    path.write_text('variant 3check-x "Three" extends chess\n')
    game = ff.load(str(path))
    assert game.name == "3check-x"
    assert game.start().perft(2) == 400
