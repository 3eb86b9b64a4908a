"""Phase 6, build: Cython source -> an importable extension module, cached.

The cache key is a hash of the rule model (its canonical YAML), the templates, the
hand-written engine core, the source of the generating phases (lower, codegen, build,
the rule kinds), the compiler version, the
Cython version, the Python ABI and the C flags, so a change to any of them builds anew
and nothing stale is ever served.  Each entry is a directory
holding the module and a manifest with the module's SHA-256; an entry whose module is
missing or does not match its manifest is rebuilt.  Builds of the same key are
serialised with a file lock, and the finished entry appears with an atomic rename, so
two processes building one game at once both end up importing the same module.
"""

import fcntl
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time

from fairyforge.errors import BuildError

from . import codegen, lower as lower_phase, model as model_phase

CFLAGS = ["-O3", "-fno-strict-aliasing", "-fPIC", "-w"]
# (-fPIC as in CFLAGS: without it the shared object cannot be linked at all.)
SANITIZE_FLAGS = ["-O1", "-g", "-fno-omit-frame-pointer", "-fno-strict-aliasing", "-fPIC", "-w",
                  "-fsanitize=address,undefined"]


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


def _cython_version():
    try:
        import Cython
        return Cython.__version__
    except ImportError:
        return "missing"


def _generator_source():
    """The source of the phases that shape a generated module (lower, codegen, build).

    Part of the cache key, so that any change to the compiler itself -- not only to
    the template or the version number -- builds anew instead of serving a stale module.
    """
    from importlib import resources
    folder = resources.files("fairyforge.compiler")
    phases = "".join(folder.joinpath(name).read_text() for name in
                     ("lower.py", "codegen.py", "build.py"))
    rule_kinds = sorted((entry for entry in folder.joinpath("rules").iterdir()
                         if entry.name.endswith(".py")), key=lambda entry: entry.name)
    engine = codegen.source_files()
    return phases + "".join(entry.read_text() for entry in rule_kinds + engine)


def cache_key(model_yaml, flags):
    h = hashlib.sha256()
    for part in (model_yaml, _generator_source(), codegen.VERSION,
                 _cython_version(),
                 sysconfig.get_config_var("EXT_SUFFIX") or "", sys.version, " ".join(flags)):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:20]


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _entry_ok(entry):
    """Is a cache entry complete and uncorrupted?"""
    manifest = os.path.join(entry, "manifest.json")
    try:
        with open(manifest) as handle:
            info = json.load(handle)
        module = os.path.join(entry, info["module_file"])
        return _sha256(module) == info["sha256"], info
    except (OSError, ValueError, KeyError):
        return False, None


def _say(progress, message):
    if progress:
        progress(message)


def check_toolchain():
    """Fail early, with what to install, when there is no C compiler or no Python headers."""
    try:
        import Cython  # noqa: F401
    except ImportError:
        raise BuildError("Cython is not installed: pip install cython")
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    cc = os.environ.get("CC", cc).split()[0]
    if shutil.which(cc) is None:
        raise BuildError(f"no C compiler found (looked for '{cc}'): install one, e.g. "
                         "'apt-get install gcc' on Debian/Ubuntu or 'xcode-select --install' "
                         "on macOS, or set CC")
    include = sysconfig.get_paths()["include"]
    if not os.path.isfile(os.path.join(include, "Python.h")):
        raise BuildError(f"the Python headers are missing (no Python.h in {include}): install "
                         f"them, e.g. 'apt-get install python3-dev'")
    return cc


def _compile(pyx_path, module_name, workdir, flags, progress):
    cc = check_toolchain()
    from Cython.Compiler import Main as cython_main
    c_path = os.path.join(workdir, module_name + ".c")
    _say(progress, "cythonizing")
    options = cython_main.CompilationOptions(cython_main.default_options, output_file=c_path,
                                             language_level=3,
                                             include_path=[codegen.core_folder()])
    try:
        result = cython_main.compile(pyx_path, options)
    except Exception as err:        # Cython reports errors by raising from deep inside
        raise BuildError(f"Cython failed on the generated {pyx_path}: {err}") from err
    if getattr(result, "num_errors", 0) or not os.path.exists(c_path):
        raise BuildError(f"Cython reported errors in the generated {pyx_path} "
                         "(a bug in Fairyforge's templates: please report it)")
    ext = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    so_path = os.path.join(workdir, module_name + ext)
    cmd = [cc, "-shared", *flags, "-I", sysconfig.get_paths()["include"], c_path, "-o", so_path]
    if "-fsanitize=address,undefined" in flags:
        cmd.append("-fsanitize=address,undefined")
    _say(progress, "compiling C")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError("the C compiler failed:\n" + proc.stderr[-4000:])
    return so_path


def build(variant, progress=None, sanitize=False, force=False):
    """Build (or find in the cache) the engine module for a Variant; returns its path."""
    flags = SANITIZE_FLAGS if sanitize else CFLAGS
    model_yaml = model_phase.dump_yaml(variant)
    key = cache_key(model_yaml, flags)
    module_name = f"ff_{variant.name}_{key}"
    root = cache_root()
    entry = os.path.join(root, module_name)
    ok, info = _entry_ok(entry)
    if ok and not force:
        return os.path.join(entry, info["module_file"])
    lock_path = os.path.join(root, module_name + ".lock")
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)       # one builder per key; others wait here
        ok, info = _entry_ok(entry)
        if ok and not force:                   # someone else built it while we waited
            return os.path.join(entry, info["module_file"])
        started = time.monotonic()
        _say(progress, f"generating {variant.name}")
        lowerer = lower_phase.Lowerer(variant)
        tables = lowerer.lower()
        source = codegen.generate(tables, lowerer.max_moves())
        work = tempfile.mkdtemp(prefix=module_name + ".", dir=root)
        try:
            pyx_path = os.path.join(work, module_name + ".pyx")
            with open(pyx_path, "w") as handle:
                handle.write(source)
            so_path = _compile(pyx_path, module_name, work, flags, progress)
            with open(os.path.join(work, "manifest.json"), "w") as handle:
                json.dump({"module_file": os.path.basename(so_path), "sha256": _sha256(so_path),
                           "variant": variant.name, "flags": flags,
                           "seconds": round(time.monotonic() - started, 2)}, handle)
            if os.path.exists(entry):
                shutil.rmtree(entry, ignore_errors=True)
            os.replace(work, entry)            # atomic: readers see all of it or none
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
        _say(progress, f"built in {time.monotonic() - started:.1f} s")
        return os.path.join(entry, os.path.basename(so_path))


def import_module(path):
    """Import a built engine module from its file."""
    name = os.path.basename(path).split(".")[0]
    if name in sys.modules:
        return sys.modules[name]
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    try:
        loader.exec_module(module)
    except ImportError as err:
        raise BuildError(f"could not load the built engine {path}: {err}") from err
    sys.modules[name] = module
    return module


def source_path(module_path):
    """The generated .pyx beside a built module (what a user opens to read the engine)."""
    base = os.path.basename(module_path).split(".")[0]
    return os.path.join(os.path.dirname(module_path), base + ".pyx")
