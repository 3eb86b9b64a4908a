"""Engines built in the background, so that a protocol session keeps answering.

A build runs in a child process (`python -m fairyforge.protocols.builds SOURCE`) watched
by a thread: the child's progress lines come back as they are written, and the build
can be cancelled at any moment (SIGINT to the child's process group: the compiler
removes its temporary directory and the C compiler stops with it).  The cache entry
appears with an atomic rename (compiler/build.py), so a build cancelled or killed at
any point leaves the cache as it was, and the next session simply builds again.

A game not in the cache is built twice: first unoptimized (gcc -O0: a few seconds,
compiler/build.py QUICK_FLAGS), which the session plays with at once, then optimized,
which replaces it when it is ready.  A client that allows ten seconds for its first
move (python-chess does) gets one, though the optimized build takes longer.  The quick
engine evaluates as the rules alone suggest, without the game's learned parameter file:
the code of the file's extra terms (king attackers, threats, checks ...) takes Cython and
gcc a third as long again, seconds that would come out of that first move's ten.
"""

import os
import signal
import subprocess
import sys
import threading
import time

PROGRESS = "progress "          # the child's progress lines start with this
QUICK_READY = "quick ready"     # the child's line once the quick build is in the cache
MAX_ERROR_LINES = 40            # a definition with 8000 errors is reported in brief
CANCEL_GRACE = 3.0              # seconds a cancelled child gets before SIGKILL
QUICK_EVALUATION = None         # the quick engine's: the rules' own, no parameter file


class Build:
    """One variant's build: start() it, wait() for it, or cancel() it.

    When the build ends (not when it is cancelled) `on_done(build)` is called from the
    build's thread, with `game` set to the loaded Game or `error` to the reason.  Before
    that, if the optimized engine had to be compiled, `on_quick(build)` is called with
    `quick_game` set to the unoptimized Game, to play with meanwhile.
    """

    def __init__(self, name, source, on_progress, on_done, on_quick=None):
        self.name = name
        self.source = source
        self.on_progress = on_progress
        self.on_done = on_done
        self.on_quick = on_quick
        self.quick_game = None
        self.game = None
        self.error = None
        self.cancelled = False
        self.compiled = False           # it compiled (not merely found in the cache)
        self.finished = threading.Event()
        self.playable = threading.Event()    # an engine (quick or optimized) is applied
        self.started = time.monotonic()
        self._process = None
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name=f"build {name}", daemon=True)

    def start(self):
        self._thread.start()
        return self

    def wait(self, timeout=None):
        """True once the build has ended (built, failed or cancelled)."""
        return self.finished.wait(timeout)

    def wait_playable(self, timeout=None):
        """True once there is an engine to play with (the quick one will do), or the
        build has ended."""
        return self.playable.wait(timeout)

    @property
    def seconds(self):
        return time.monotonic() - self.started

    def cancel(self, wait=False):
        """Stop the child (if any) and forget the result.  With `wait`, return once the
        child is gone (at most CANCEL_GRACE seconds), else at once."""
        with self._lock:
            self.cancelled = True
            process = self._process
        if process is None:
            return
        if wait:
            _interrupt(process)
        else:
            threading.Thread(target=_interrupt, args=(process,), daemon=True).start()

    def join(self, timeout):
        self._thread.join(timeout)

    def _run(self):
        try:
            self._build()
        except Exception as err:        # the thread must end with a verdict, whatever happens
            self.error = f"{type(err).__name__}: {err}"
        try:
            if not self.cancelled:
                self.on_done(self)      # before `finished`: a waiter sees the result applied
        finally:
            self.finished.set()
            self.playable.set()

    def _build(self):
        errors = []
        with self._lock:
            if self.cancelled:
                return
            self._process = subprocess.Popen(
                [sys.executable, "-m", "fairyforge.protocols.builds", self.source],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                text=True, errors="replace", start_new_session=True)
        for line in self._process.stdout:
            line = line.rstrip("\n")
            if line.startswith(PROGRESS):
                self.compiled = True
                if not self.cancelled:
                    self.on_progress(self, line[len(PROGRESS):])
            elif line == QUICK_READY:
                self._quick_ready()
            elif line.strip() and len(errors) < MAX_ERROR_LINES:
                errors.append(line)
        status = self._process.wait()
        if self.cancelled:
            return
        if status != 0:
            self.error = "\n".join(errors) or f"the build process failed (exit status {status})"
            return
        self.game = _load_built(self.source)   # found in the cache the child filled

    def _quick_ready(self):
        if self.cancelled or self.on_quick is None:
            return
        try:
            self.quick_game = _load_quick(self.source)
        except Exception as err:    # noqa: BLE001  (the optimized build still comes)
            self.on_progress(self, f"the quick engine did not load ({type(err).__name__}: "
                                   f"{err}); waiting for the optimized one")
            return
        if not self.cancelled:
            self.on_quick(self)
            self.playable.set()


def _load_built(source):
    """The Game the child built last, with the game's own evaluation (optimized, unless
    FAIRYFORGE_BUILD=quick), loaded in this process from the cache the child filled."""
    import warnings
    from fairyforge import load
    from fairyforge.compiler.evalparams import StaleParametersWarning
    with warnings.catch_warnings():            # the child said it, as an info string
        warnings.simplefilter("ignore", StaleParametersWarning)
        return load(source)


def _load_quick(source):
    """The quick engine the child put in the cache (QUICK_EVALUATION), loaded here."""
    from fairyforge import Game
    from fairyforge.compiler import build, loader
    variant = loader.load_variant(source)
    path, module = build.load_module(variant, evaluation=QUICK_EVALUATION, quick=True)
    return Game(variant, module, path)


def _interrupt(process):
    """SIGINT to the child's process group (the compiler cleans up on it), SIGKILL if it
    is still there after a grace period."""
    try:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
            process.wait(CANCEL_GRACE)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    except (ProcessLookupError, PermissionError):
        pass                                    # already gone


def _say(message):
    print(PROGRESS + message, flush=True)


def main(argv=None):
    """The child: build one game's engine into the cache (its quick build first, when
    the engine has to be compiled), progress on stdout."""
    argv = sys.argv[1:] if argv is None else argv
    # The parent cancels a build with SIGINT; a process started with SIGINT ignored
    # (the background of a non-interactive shell, some GUIs) passes that on, and the
    # build would then outlive `quit` and leave its temporary files.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from fairyforge.compiler import build, evalparams, loader
    from fairyforge.errors import FairyforgeError
    try:
        variant = loader.load_variant(argv[0])
        params = evalparams.for_build(variant, progress=_say)
        if not build.cached(variant, params):
            build.build(variant, progress=lambda message: _say("quick engine: " + message),
                        evaluation=QUICK_EVALUATION, quick=True)
            print(QUICK_READY, flush=True)
        build.build(variant, progress=_say, evaluation=params)
    except KeyboardInterrupt:
        return 130
    except FairyforgeError as err:
        print(str(err), flush=True)
        return 2
    except Exception as err:        # RecursionError, MemoryError ...: reported, not a traceback
        print(f"{type(err).__name__}: {err}", flush=True)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
