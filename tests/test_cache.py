"""The engine cache under attack: damaged modules, killed builds, leftovers, and the
`fairyforge cache` command (compiler/cache.py, runtime/cache_command.py)."""

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from fairyforge import cli
from fairyforge.compiler import build, cache, resolve

MINI = textwrap.dedent("""\
    variant cachemini{n} "Cache mini"
    board 4x4
    piece king K K royal
    piece rook R R
    setup "1k2/4/4/R2K w - - 0 1"
    """)

# Loads a game in a fresh process and prints its perft(2): a crash (SIGBUS, SIGSEGV)
# shows as a negative return code instead of killing the test run.
LOAD = "import sys, fairyforge as ff; print(ff.load(sys.argv[1]).start().perft(2))"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("FAIRYFORGE_CACHE", str(root))
    return root


def write_mini(tmp_path, n):
    path = tmp_path / f"cachemini{n}.variant"
    path.write_text(MINI.format(n=n))
    return str(path)


def load_in_child(path):
    return subprocess.run([sys.executable, "-c", LOAD, path], capture_output=True, text=True,
                          timeout=300)


def forge_manifest(module_path):
    """Make the manifest vouch for the module as it now is (size and hash), as a
    damaged or tampered entry could."""
    manifest = os.path.join(os.path.dirname(module_path), cache.MANIFEST)
    with open(manifest) as handle:
        info = json.load(handle)
    info["size"], info["sha256"] = cache.file_digest(module_path)
    with open(manifest, "w") as handle:
        json.dump(info, handle)


def test_a_build_keeps_the_pyx_and_leaves_no_c_source_or_lock(tmp_path, cache_dir):
    path = build.build(resolve.load_variant(write_mini(tmp_path, 1)))
    entry = os.path.dirname(path)
    names = sorted(os.listdir(entry))
    assert [n for n in names if n.endswith(".pyx")] == [os.path.basename(build.source_path(path))]
    assert not [n for n in names if n.endswith(".c")]
    assert sorted(os.listdir(cache_dir)) == [os.path.basename(entry)]    # no .lock, no .tmp-
    info = json.load(open(os.path.join(entry, cache.MANIFEST)))
    assert (info["size"], info["sha256"]) == cache.file_digest(path)


def test_a_corrupt_module_matching_its_manifest_is_rebuilt(tmp_path, cache_dir):
    """Issue 17 item 4: a damaged .so whose manifest was rewritten to match raised
    ImportError on load; now the load rebuilds it."""
    path = write_mini(tmp_path, 2)
    module = build.build(resolve.load_variant(path))
    expected = load_in_child(path).stdout
    with open(module, "r+b") as handle:        # an ELF header no loader accepts
        handle.write(b"\x7fELF\x02\x01\x01" + b"\xff" * 40)
    forge_manifest(module)
    proc = load_in_child(path)
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert proc.stdout == expected
    assert cache.read_entry(os.path.dirname(module)) is not None


def test_a_truncated_module_matching_its_manifest_is_rebuilt_not_a_crash(tmp_path, cache_dir):
    """Issue 17 item 4: loading a truncated .so died with SIGBUS."""
    path = write_mini(tmp_path, 3)
    module = build.build(resolve.load_variant(path))
    expected = load_in_child(path).stdout
    with open(module, "r+b") as handle:
        handle.truncate(os.path.getsize(module) // 2)
    forge_manifest(module)
    assert not cache.shared_object_intact(module)
    assert cache.read_entry(os.path.dirname(module)) is None
    proc = load_in_child(path)
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert proc.stdout == expected
    assert cache.read_entry(os.path.dirname(module)) is not None


def test_load_module_rebuilds_when_the_import_fails(tmp_path, cache_dir, monkeypatch):
    """Whatever makes a cached module fail to import, load_module builds it again."""
    variant = resolve.load_variant(write_mini(tmp_path, 4))
    build.build(variant)
    real, calls = build.import_module, []

    def fails_once(path):
        calls.append(path)
        if len(calls) == 1:
            raise build.BuildError(f"could not load the built engine {path}: damaged")
        return real(path)

    monkeypatch.setattr(build, "import_module", fails_once)
    messages = []
    path, module = build.load_module(variant, progress=messages.append)
    assert module.Engine is not None and len(calls) == 2
    assert any("rebuilding" in m for m in messages) and any("compiling C" in m for m in messages)


def _processes_in(folder):
    """(pid, program name) of the processes whose command line names a file in `folder`
    (the compiler's watchdog, the driver, cc1, as, ld)."""
    needle, found = (str(folder) + os.sep).encode(), []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                argv = handle.read().split(b"\0")
        except OSError:
            continue
        if any(needle in arg for arg in argv):
            found.append((int(pid), os.path.basename(argv[0].decode(errors="replace"))))
    return found


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads processes from /proc")
def test_a_build_killed_mid_compile_leaves_nothing_running_and_is_cleaned_up(tmp_path, cache_dir):
    """Issue 17 item 10: `kill -9` during a build left its temporary directory and a
    running cc1.  The compiler dies with the builder (chess: cc1 would run on for
    many seconds), and the next build -- of another game -- removes the leftovers."""
    code = ("from fairyforge.compiler import build, resolve; "
            "build.build(resolve.load_variant('chess'))")
    builder = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.monotonic() + 180
    while not any(not name.startswith("python") for _, name in _processes_in(cache_dir)):
        assert builder.poll() is None, "the build ended before its compiler was seen"
        assert time.monotonic() < deadline, "no compiler process appeared"
        time.sleep(0.01)
    builder.send_signal(signal.SIGKILL)
    builder.wait()
    deadline = time.monotonic() + 2
    while _processes_in(cache_dir) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _processes_in(cache_dir) == [], "the compiler outlived the killed build"
    assert [n for n in os.listdir(cache_dir) if TEMP in n]     # what the killed build left ...
    module = build.build(resolve.load_variant(write_mini(tmp_path, 5)))
    assert os.listdir(cache_dir) == [os.path.basename(os.path.dirname(module))]   # ... is gone


TEMP = cache.TEMP_MARK


def test_a_live_builds_temporary_directory_is_never_swept(cache_dir):
    os.makedirs(cache_dir)
    work = cache_dir / f"ff_game_abc{TEMP}x1"
    work.mkdir()
    with cache.locked(str(cache_dir), "ff_game_abc"):
        cache.sweep_stale(str(cache_dir))
        assert work.is_dir()                    # its builder holds the lock
    cache.sweep_stale(str(cache_dir))
    assert not work.exists() and os.listdir(cache_dir) == []


def fake_entry(root, game, key, size, used_days_ago):
    """A cache entry as a build leaves one (the module need not be real to be listed)."""
    entry = root / f"ff_{game}_{key}"
    entry.mkdir(parents=True)
    (entry / f"ff_{game}_{key}.so").write_bytes(b"x" * size)
    (entry / cache.MANIFEST).write_text(json.dumps(
        {"module_file": f"ff_{game}_{key}.so", "variant": game,
         "built": time.time() - used_days_ago * cache.DAY - 60}))
    used = time.time() - used_days_ago * cache.DAY
    os.utime(entry, (used, used))
    return entry


def test_cache_list_shows_game_size_and_age(cache_dir, capsys):
    fake_entry(cache_dir, "chess", "aaa", 2048, 3)
    fake_entry(cache_dir, "shogi", "bbb", 3 * 1024 * 1024, 0)
    assert cli.main(["cache", "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["game", "size", "built", "used", "entry"]
    chess = next(line for line in out if line.startswith("chess"))
    assert "KB" in chess and "3 d ago" in chess and "ff_chess_aaa" in chess
    shogi = next(line for line in out if line.startswith("shogi"))
    assert "3.0 MB" in shogi
    assert out[-1].startswith("2 entries, 3.") and out[-1].endswith(str(cache_dir))


def test_cache_clean_older_than_then_all(cache_dir, capsys):
    old = fake_entry(cache_dir, "chess", "aaa", 1000, 40)
    new = fake_entry(cache_dir, "shogi", "bbb", 1000, 1)
    (cache_dir / f"ff_dead_ccc{TEMP}zz").mkdir()       # a dead build's leftovers
    (cache_dir / "ff_dead_ccc.lock").write_text("")
    assert cli.main(["cache", "clean", "--older-than", "30"]) == 0
    assert "removed 1 entry unused for more than 30 days" in capsys.readouterr().out
    assert not old.exists() and new.exists()
    assert sorted(os.listdir(cache_dir)) == [new.name]
    assert cli.main(["cache", "clean"]) == 0
    assert "removed 1 entry" in capsys.readouterr().out
    assert os.listdir(cache_dir) == []
    assert cli.main(["cache", "list"]) == 0
    assert capsys.readouterr().out.startswith("0 entries, 0 B in ")


def test_cache_clean_refuses_a_bad_age(cache_dir, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["cache", "clean", "--older-than", "soon"])
    assert exit_.value.code == 2
    assert "DAYS must be a number, not 'soon'" in capsys.readouterr().err


def test_cache_path_is_the_cache_directory(cache_dir, capsys):
    assert cli.main(["cache", "path"]) == 0
    assert capsys.readouterr().out.strip() == str(cache_dir)


def test_entries_unused_for_long_are_evicted_after_a_build(tmp_path, cache_dir, monkeypatch):
    monkeypatch.setenv("FAIRYFORGE_CACHE_MAX_DAYS", "10")
    stale = fake_entry(cache_dir, "chess", "aaa", 100, 11)
    recent = fake_entry(cache_dir, "shogi", "bbb", 100, 9)
    build.build(resolve.load_variant(write_mini(tmp_path, 6)))
    assert not stale.exists() and recent.exists()


def test_the_test_suite_never_uses_the_users_cache():
    """tests/conftest.py points FAIRYFORGE_CACHE away from ~/.cache/fairyforge."""
    home_cache = os.path.join(os.path.expanduser("~"), ".cache", "fairyforge")
    assert os.environ.get("FAIRYFORGE_CACHE")
    assert os.path.realpath(os.environ["FAIRYFORGE_CACHE"]) != os.path.realpath(home_cache)


def test_sweep_removes_nothing_but_cache_leftovers(cache_dir):
    """A file of the user's own in the cache directory is not the cache's to remove."""
    os.makedirs(cache_dir)
    (cache_dir / "notes.txt").write_text("mine")
    cache.clean(str(cache_dir))
    assert os.listdir(cache_dir) == ["notes.txt"]
    shutil.rmtree(cache_dir)
