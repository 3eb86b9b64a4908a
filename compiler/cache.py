"""The engine cache on disk: where entries live, their locks, their checks, their cleaning.

Layout under the cache root ($FAIRYFORGE_CACHE, else ~/.cache/fairyforge):

    ff_GAME_KEY/                 a finished entry: the module (.so), its readable source
                                 (.pyx) and manifest.json (game, size and SHA-256 of the
                                 module, build time); its directory's mtime is the last use
    ff_GAME_KEY.lock             held (flock) while GAME_KEY is built; removed afterwards
    ff_GAME_KEY.tmp-XXXXXX/      a build in progress; renamed into place when finished

A build killed with SIGKILL leaves its .tmp- directory and lock file behind.  The lock
tells a live build from a dead one, so the next build (or `fairyforge cache clean`)
removes what dead builds left, and never what a running one is writing.
"""

import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import shutil
import struct
import sys
import time

from fairyforge.errors import BuildError

MANIFEST = "manifest.json"
TEMP_MARK = ".tmp-"
LOCK_SUFFIX = ".lock"
ENTRY_PREFIX = "ff_"
DAY = 86400.0
# Entries unused for this many days are evicted after each new build
# ($FAIRYFORGE_CACHE_MAX_DAYS; 0 keeps everything).
DEFAULT_MAX_DAYS = 60


def cache_root():
    """Where built engines live: $FAIRYFORGE_CACHE, else the user's cache directory."""
    root = os.environ.get("FAIRYFORGE_CACHE")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "fairyforge")
    try:
        os.makedirs(root, exist_ok=True)
        if not os.access(root, os.W_OK | os.X_OK):
            raise PermissionError("not writable")
    except OSError as err:      # one clear message, not a traceback from os.makedirs
        raise BuildError(f"cannot use the engine cache directory {root} "
                         f"({getattr(err, 'strerror', None) or err}): set FAIRYFORGE_CACHE "
                         "to a writable directory") from err
    return root


# -- locks ----------------------------------------------------------------------------

@contextlib.contextmanager
def locked(root, name, wait=True):
    """Hold the lock of entry `name`; yields False instead when wait=False and it is busy.

    The lock file is removed on release.  A waiter may have opened the file just before
    that; it then holds a lock on an unlinked file, so after locking it checks that the
    path still names the file it locked, and tries again if not.
    """
    path = os.path.join(root, name + LOCK_SUFFIX)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            os.close(fd)
            yield False
            return
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        yield True
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        os.close(fd)


def _entry_name(filename):
    """The entry a cache file or directory belongs to (ff_chess_KEY.tmp-x -> ff_chess_KEY)."""
    if filename.endswith(LOCK_SUFFIX):
        return filename[:-len(LOCK_SUFFIX)]
    return filename.split(TEMP_MARK)[0]


def sweep_stale(root):
    """Remove the temporary directories and lock files of builds that died; returns bytes."""
    freed = 0
    names = [f for f in os.listdir(root) if TEMP_MARK in f or f.endswith(LOCK_SUFFIX)]
    for name in sorted({_entry_name(f) for f in names}):
        with locked(root, name, wait=False) as free:
            if not free:                       # a live build holds it
                continue
            for leftover in [f for f in os.listdir(root) if f.startswith(name + TEMP_MARK)]:
                path = os.path.join(root, leftover)
                _stop_compilers_in(path)
                freed += _tree_size(path)
                shutil.rmtree(path, ignore_errors=True)
    return freed


def _stop_compilers_in(workdir):
    """Kill compilers (cc1 and its kind) still working in a dead build's directory.

    The build runs its compiler under a watchdog that kills it when the builder dies;
    this is the second line, for a watchdog killed too (Linux: read from /proc).
    """
    if not os.path.isdir("/proc"):
        return
    needle = workdir.encode()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                if needle in handle.read():
                    os.kill(int(pid), 9)
        except OSError:
            continue


# -- entries --------------------------------------------------------------------------

def file_digest(path):
    """(size, SHA-256) of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            h.update(chunk)
    return os.path.getsize(path), h.hexdigest()


def write_manifest(workdir, module_path, game, flags, seconds):
    size, sha256 = file_digest(module_path)
    info = {"module_file": os.path.basename(module_path), "size": size, "sha256": sha256,
            "variant": game, "flags": flags, "seconds": round(seconds, 2),
            "built": time.time()}
    with open(os.path.join(workdir, MANIFEST), "w") as handle:
        json.dump(info, handle)


def read_entry(entry):
    """The manifest of a complete, uncorrupted entry, else None.

    Checks the module's size and SHA-256 against the manifest, and that the module is a
    whole shared object: loading a truncated one can kill the process (SIGBUS), and a
    damaged manifest could vouch for it.
    """
    try:
        with open(os.path.join(entry, MANIFEST)) as handle:
            info = json.load(handle)
        module = os.path.join(entry, info["module_file"])
        if os.path.getsize(module) != info["size"]:
            return None
        if file_digest(module) != (info["size"], info["sha256"]) or not shared_object_intact(module):
            return None
        return info
    except (OSError, ValueError, KeyError, TypeError):
        return None


def mark_used(entry):
    """Record a use (the entry directory's mtime), for `cache list` and eviction."""
    with contextlib.suppress(OSError):
        os.utime(entry)


def shared_object_intact(path):
    """Does every part an ELF loader maps lie inside the file?  (Not ELF: trusted as is,
    except on Linux, where every extension module is ELF.)"""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:4] != b"\x7fELF":
        return not sys.platform.startswith("linux")
    if len(data) < 64 or data[4] not in (1, 2) or data[5] not in (1, 2):
        return False
    wide, order = data[4] == 2, "<" if data[5] == 1 else ">"
    header = struct.unpack_from(order + ("QQIHHHHHH" if wide else "IIIHHHHHH"), data, 32 if wide else 28)
    phoff, shoff, _flags, _ehsize, phentsize, phnum, shentsize, shnum, _ = header
    if phoff + phnum * phentsize > len(data) or shoff + shnum * shentsize > len(data):
        return False
    # The first six fields of a program header and of a section header.
    six = order + ("IIQQQQ" if wide else "IIIIII")
    for i in range(phnum):
        fields = struct.unpack_from(six, data, phoff + i * phentsize)
        offset, filesz = (fields[2], fields[5]) if wide else (fields[1], fields[4])
        if offset + filesz > len(data):
            return False
    for i in range(shnum):
        fields = struct.unpack_from(six, data, shoff + i * shentsize)
        kind, offset, size = fields[1], fields[4], fields[5]
        if kind != 8 and offset + size > len(data):          # 8: SHT_NOBITS (.bss)
            return False
    return True


@dataclasses.dataclass
class Entry:
    name: str          # directory name, ff_GAME_KEY
    game: str
    path: str
    size: int          # bytes on disk, the whole directory
    built: float       # time of the build (epoch seconds)
    used: float        # time of the last use


def _tree_size(path):
    total = 0
    for folder, _dirs, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.path.getsize(os.path.join(folder, name))
    return total


def entries(root):
    """Every finished entry of the cache, oldest use first."""
    found = []
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        if not name.startswith(ENTRY_PREFIX) or TEMP_MARK in name or not os.path.isdir(path):
            continue
        try:
            with open(os.path.join(path, MANIFEST)) as handle:
                info = json.load(handle)
            game, built = str(info.get("variant", "?")), float(info.get("built", 0))
            if "-O0" in info.get("flags", ()):     # build.QUICK_FLAGS: not the one to keep
                game += " (quick build)"
        except (OSError, ValueError, AttributeError, TypeError):
            game, built = "?", 0.0            # half-written or foreign: still listed, cleanable
        used = os.path.getmtime(path)
        found.append(Entry(name, game, path, _tree_size(path), built or used, used))
    return sorted(found, key=lambda e: e.used)


def clean(root, older_than_days=None, now=None):
    """Remove entries (all, or those unused for more than `older_than_days`) and whatever
    dead builds left.  Entries being rebuilt right now are kept.  Returns (count, bytes)."""
    now = time.time() if now is None else now
    freed, removed = sweep_stale(root), 0
    for entry in entries(root):
        if older_than_days is not None and now - entry.used <= older_than_days * DAY:
            continue
        with locked(root, entry.name, wait=False) as free:
            if free:
                shutil.rmtree(entry.path, ignore_errors=True)
                removed += 1
                freed += entry.size
    return removed, freed


def evict(root):
    """The eviction policy, run after each new build: entries unused for
    $FAIRYFORGE_CACHE_MAX_DAYS days (default 60; 0 or a non-number: never) are removed."""
    try:
        days = float(os.environ.get("FAIRYFORGE_CACHE_MAX_DAYS", DEFAULT_MAX_DAYS))
    except ValueError:
        return
    if days > 0:
        clean(root, older_than_days=days)
