"""Phase 6, build: Cython source -> an importable extension module, cached.

The cache key is a hash of the rule model (its canonical YAML), the learned evaluation
parameters in use (compiler/evalparams.py), the templates, the
hand-written engine core, the source of the generating phases (lower, codegen, build,
the rule kinds), the compiler version, the
Cython version, the Python ABI and the C flags, so a change to any of them builds anew
and nothing stale is ever served.  Each entry is a directory holding the module, its
.pyx source and a manifest with the module's size and SHA-256 (compiler/cache.py); an
entry whose module is missing, damaged or does not load is rebuilt.  Builds of the same
key are serialised with a file lock, and the finished entry appears with an atomic
rename, so two processes building one game at once both end up importing the same
module.  The C compiler runs under a watchdog that kills it if the builder dies.
"""

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time

from fairyforge.errors import BuildError

from . import cache, codegen, evalparams, lower as lower_phase, model as model_phase
from .cache import cache_root  # noqa: F401  (the public home of the cache location)

# -O3, not -O2: gcc takes 45% longer over an engine, but it searches 3-7% faster
# (measured in chess and crazyhouse; perft is as fast either way).
CFLAGS = ["-O3", "-fno-strict-aliasing", "-fPIC", "-w"]
# (-fPIC as in CFLAGS: without it the shared object cannot be linked at all.)
# A quick build is what a protocol session plays with while the optimized engine
# compiles (runtime/protocols/builds.py), and every build with FAIRYFORGE_BUILD=quick:
# gcc -O0 compiles a game in about a sixth of -O3's time (the whole build takes half),
# and the engine it makes searches two to four times slower.
QUICK_FLAGS = ["-O0", "-fno-strict-aliasing", "-fPIC", "-w"]
BUILD_ENV = "FAIRYFORGE_BUILD"
SANITIZE_FLAGS = ["-O1", "-g", "-fno-omit-frame-pointer", "-fno-strict-aliasing", "-fPIC", "-w",
                  "-fsanitize=address,undefined"]


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
                     ("lower.py", "codegen.py", "build.py", "evalparams.py"))
    rule_kinds = sorted((entry for entry in folder.joinpath("rules").iterdir()
                         if entry.name.endswith(".py")), key=lambda entry: entry.name)
    engine = codegen.source_files()
    return phases + "".join(entry.read_text() for entry in rule_kinds + engine)


def cache_key(model_yaml, flags, params=None):
    """The cache key: every input that shapes a built module (add new ones here),
    the learned evaluation parameters included."""
    h = hashlib.sha256()
    for part in (model_yaml, evalparams.canonical(params), _generator_source(), codegen.VERSION,
                 _cython_version(),
                 sysconfig.get_config_var("EXT_SUFFIX") or "", sys.version, " ".join(flags)):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:20]


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


# The watchdog the C compiler runs under (python -I -S -c: starts in milliseconds).  The
# compiler gets its own process group, so the watchdog can kill cc1 and as with it, and
# it does so when the builder dies (its parent changes), is interrupted or terminated.
_WATCHDOG = """
import os, signal, subprocess, sys
parent = os.getppid()
child = subprocess.Popen(sys.argv[1:], start_new_session=True)
def stop(*_):
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except OSError:
        pass
    os._exit(1)
signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
while True:
    try:
        sys.exit(child.wait(timeout=0.2))
    except subprocess.TimeoutExpired:
        if os.getppid() != parent:
            stop()
"""


def _run_compiler(cmd):
    """Run the C compiler; returns (exit status, stderr).  Never leaves it running."""
    proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", _WATCHDOG, *cmd],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _out, err = proc.communicate()
    except BaseException:                      # KeyboardInterrupt and the like
        proc.terminate()
        proc.wait()
        raise
    return proc.returncode, err


def _compile(pyx_path, module_name, workdir, flags, progress):
    """Cythonize and compile; returns the module's path.  The C source is deleted after:
    it is megabytes, and the .pyx beside the module is what a reader opens."""
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
    status, stderr = _run_compiler(cmd)
    if status != 0:
        raise BuildError("the C compiler failed:\n" + stderr[-4000:])
    os.remove(c_path)
    return so_path


def _generate_into(variant, params, module_name, root, flags, progress):
    """Generate and compile into a fresh temporary directory; returns its path."""
    started = time.monotonic()
    _say(progress, f"generating {variant.name}")
    lowerer = lower_phase.Lowerer(variant, params)
    source = codegen.generate(lowerer.lower(), lowerer.max_moves())
    work = tempfile.mkdtemp(prefix=module_name + cache.TEMP_MARK, dir=root)
    try:
        pyx_path = os.path.join(work, module_name + ".pyx")
        with open(pyx_path, "w") as handle:
            handle.write(source)
        so_path = _compile(pyx_path, module_name, work, flags, progress)
        cache.write_manifest(work, so_path, variant.name, flags, time.monotonic() - started)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    _say(progress, f"built in {time.monotonic() - started:.1f} s")
    return work


def _flags(sanitize, quick):
    if sanitize:
        return SANITIZE_FLAGS
    return QUICK_FLAGS if quick or quick_builds_only() else CFLAGS


def quick_builds_only():
    """FAIRYFORGE_BUILD=quick: every engine is built unoptimized (while iterating on a
    definition's rules, and in the test suite, where builds take most of the time)."""
    value = os.environ.get(BUILD_ENV, "")
    if value not in ("", "quick", "optimized"):
        raise BuildError(f"{BUILD_ENV}={value!r}: it may be 'quick' or 'optimized' (the "
                         "default)")
    return value == "quick"


def _module_name(variant, flags, params):
    key = cache_key(model_phase.dump_yaml(variant, fast=True), flags, params)
    # Hyphens are fine in a game's name (ai-wok) but not in a Python module's.
    return f"ff_{variant.name.replace('-', '_')}_{key}"


def cached(variant, params, quick=False):
    """Whether the Variant's engine with these evaluation parameters (evalparams.for_build)
    is in the cache (its quick build with `quick`)."""
    module_name = _module_name(variant, _flags(False, quick), params)
    return cache.read_entry(os.path.join(cache_root(), module_name)) is not None


def build(variant, progress=None, sanitize=False, force=False, evaluation="auto", quick=False):
    """Build (or find in the cache) the engine module for a Variant; returns its path.

    evaluation: "auto" uses the game's learned parameter file when one fits its rules
    (compiler/evalparams.py), None the evaluation derived from the rules, a dict that
    parameter set.  quick: the unoptimized build (QUICK_FLAGS), its own cache entry."""
    flags = _flags(sanitize, quick)
    params = evalparams.for_build(variant, progress=progress) if evaluation == "auto" else evaluation
    module_name = _module_name(variant, flags, params)
    root = cache_root()
    entry = os.path.join(root, module_name)
    info = None if force else cache.read_entry(entry)
    if info is None:
        cache.sweep_stale(root)                # what builds killed earlier left behind
        with cache.locked(root, module_name):  # one builder per key; others wait here
            info = None if force else cache.read_entry(entry)
            if info is None:                   # nobody built it while we waited
                work = _generate_into(variant, params, module_name, root, flags, progress)
                if os.path.exists(entry):
                    shutil.rmtree(entry, ignore_errors=True)
                os.replace(work, entry)        # atomic: readers see all of it or none
                info = cache.read_entry(entry)
                if info is None:
                    raise BuildError(f"the engine just built in {entry} does not check out")
        cache.evict(root)
    cache.mark_used(entry)
    return os.path.join(entry, info["module_file"])


def load_module(variant, progress=None, sanitize=False, evaluation="auto", quick=False):
    """Build (or find in the cache) and import a Variant's engine: (path, module).

    A cached module that fails to load (damaged on disk, or built for another system)
    is rebuilt once instead of failing.  `evaluation` and `quick` as for build().
    """
    if evaluation == "auto":
        evaluation = evalparams.for_build(variant, progress=progress)   # read, warned once
    options = dict(progress=progress, sanitize=sanitize, evaluation=evaluation, quick=quick)
    path = build(variant, **options)
    try:
        return path, import_module(path)
    except BuildError as err:
        _say(progress, f"the cached engine did not load ({err.__cause__ or err}); rebuilding")
    path = build(variant, force=True, **options)
    return path, import_module(path)


def import_module(path):
    """Import a built engine module from its file."""
    name = os.path.basename(path).split(".")[0]
    if name in sys.modules:
        return sys.modules[name]
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    try:
        module = importlib.util.module_from_spec(spec)     # dlopen happens here
        loader.exec_module(module)
    except (ImportError, OSError) as err:
        raise BuildError(f"could not load the built engine {path}: {err}") from err
    sys.modules[name] = module
    return module


def source_path(module_path):
    """The generated .pyx beside a built module (what a user opens to read the engine)."""
    base = os.path.basename(module_path).split(".")[0]
    return os.path.join(os.path.dirname(module_path), base + ".pyx")
