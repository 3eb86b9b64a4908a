"""Shared fixtures: each game is compiled once per test session (and cached on disk).

The tests never touch the user's own engine cache: unless FAIRYFORGE_CACHE is set (to
keep engines between runs, as CI and developers may), it points at a temporary
directory made for the session and removed after it.
"""

import contextlib
import fcntl
import os
import signal
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

if not os.environ.get("FAIRYFORGE_CACHE"):
    # Set before anything builds, and inherited by the subprocesses tests start.
    _SESSION_CACHE = tempfile.mkdtemp(prefix="fairyforge-test-cache-")
    os.environ["FAIRYFORGE_CACHE"] = _SESSION_CACHE
else:
    _SESSION_CACHE = None
# Builds take most of a test run's time, and the tests check what engines do, not how
# fast: they build unoptimized engines (gcc -O0: half the build time), unless
# FAIRYFORGE_BUILD says otherwise.  test_build.py builds optimized ones too, and CI's
# smoke test (`fairyforge perft chess 5`) runs one.
os.environ.setdefault("FAIRYFORGE_BUILD", "quick")
# Learned evaluation files (`fairyforge tune`) the user keeps must not change what the
# tests' engines play: builds look for them in a directory that does not exist.
os.environ["FAIRYFORGE_TUNED"] = os.path.join(tempfile.gettempdir(),
                                              f"fairyforge-test-no-tuned-{os.getpid()}")

import fairyforge as ff  # noqa: E402

HERE = os.path.dirname(__file__)
DATA = os.path.join(HERE, "data")
DEFINITIONS = os.path.join(os.path.dirname(HERE), "definitions")


def pytest_configure(config):
    """Tests send Ctrl-C (SIGINT) to the processes they start.  A run started in the
    background of a non-interactive shell has SIGINT ignored, and its children would
    inherit that: restore Python's handler, so that they start with the default."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_unconfigure(config):
    if _SESSION_CACHE:
        shutil.rmtree(_SESSION_CACHE, ignore_errors=True)


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run slow checks (deep perft, long fuzz campaigns)")


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--runslow"):
        skip = pytest.mark.skip(reason="slow: run with --runslow")
        for item in items:
            if "slow" in item.keywords:
                item.add_marker(skip)


# A run of many test modules needs nearly every bundled game, and the build of each (about
# 7 s of C compilation) dominates it: build them all first, one process per core, instead
# of one at a time as each test asks.  FAIRYFORGE_TEST_PREBUILD=1 or 0 forces the choice.
PREBUILD_FROM_MODULES = 12


def _build_bundled(name):
    try:
        ff.load(name)
    except Exception:          # noqa: BLE001  (the tests of that game report it)
        pass


def _my_share(names):
    """The games this process prebuilds, and with how many build processes.  Under
    pytest-xdist every worker collects the whole session: each builds its own share
    with its share of the cores (the cache's locks keep a game from being built twice
    when a test asks for it early)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)
    return names[worker::workers], max(1, (os.cpu_count() or 1) // workers)


def pytest_collection_finish(session):
    modules = {item.module.__name__ for item in session.items if hasattr(item, "module")}
    wanted = os.environ.get("FAIRYFORGE_TEST_PREBUILD")
    if wanted == "0" or (wanted != "1" and len(modules) < PREBUILD_FROM_MODULES):
        return
    names, processes = _my_share(ff.bundled_games())
    started = time.monotonic()
    # (Shared: a worker that starts its tests early waits for the other's builds before
    # it runs a quiet test.)
    with _machine_lock(exclusive=False), ProcessPoolExecutor(max_workers=processes) as pool:
        list(pool.map(_build_bundled, names))
    session.config.get_terminal_writer().line(
        f"built {len(names)} bundled games in {time.monotonic() - started:.0f} s "
        f"({processes} processes; FAIRYFORGE_TEST_PREBUILD=0 skips this)")


def definition_error(tmp_path, text):
    """The message of the DefinitionError that loading `text`, as bad.variant, raises."""
    from fairyforge.errors import DefinitionError
    path = tmp_path / "bad.variant"
    path.write_text(text)
    with pytest.raises(DefinitionError) as err:
        ff.load(str(path))
    return str(err.value)


class Games:
    """Lazily loaded games, shared by every test of the session."""

    def __init__(self):
        self._games = {}

    def __getitem__(self, name):
        if name not in self._games:
            self._games[name] = ff.load(name)
        return self._games[name]


@pytest.fixture(scope="session")
def games():
    return Games()


# -- sharing the machine between pytest-xdist workers ------------------------------------

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Under pytest-xdist (pyproject's addopts run one worker per core), a test marked
    `quiet` has the machine to itself: it holds an exclusive lock that every other
    test holds shared, so it starts once the tests running beside it end, and none
    starts beside it.  Those tests time a cold build, or a clock, against a client's
    fixed timeouts (python-chess gives `play` 10 s), which a build in the other worker
    would otherwise eat into.

    The lock is taken here, around the test's whole protocol, not in a fixture: a
    function-scoped fixture is set up after the module- and session-scoped ones the
    test needs, and those (which build engines) would run outside the lock, beside a
    quiet test in the other worker.  (A wait for the lock shows in no duration.)"""
    quiet = item.get_closest_marker("quiet") is not None
    with _machine_lock(exclusive=quiet):
        if quiet:
            _wait_for_stray_builds()
        yield


# Processes that compile engines: a UCI session's background build runs in a session of
# its own and may outlive the test that started it (it fills the cache), so a quiet
# test also waits for them to end.
_BUILD_MODULE = b"fairyforge.protocols.builds"
_COMPILERS = {b"cc1", b"as", b"ld", b"collect2"}


def _wait_for_stray_builds(limit=120.0):
    """Wait (at most `limit` seconds) until no process on the machine is building an
    engine: the compilers an earlier test left running would eat a quiet test's clock."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and _builds_running():
        time.sleep(0.5)


def _builds_running():
    me = os.getpid()
    for name in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                command = handle.read()
        except OSError:
            continue
        program = os.path.basename(command.split(b"\0", 1)[0])
        if program in _COMPILERS or _BUILD_MODULE in command.split(b"\0"):
            return True
    return False


@contextlib.contextmanager
def _machine_lock(exclusive):
    """This xdist run's machine lock, exclusive or shared (nothing outside xdist)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        yield
        return
    path = os.path.join(tempfile.gettempdir(), f"fairyforge-test-machine-{run}.lock")
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# -- the fuzzing table ---------------------------------------------------------------------

_WORKERS_FUZZ = []          # (controller) each xdist worker's fuzzing counts


def _fuzz_module(importing=False):
    """tests/test_fuzz.py where this process has imported it (or imports it now)."""
    import sys
    module = sys.modules.get("test_fuzz")
    if module is None and importing:
        import importlib
        module = importlib.import_module("test_fuzz")
    return module


def pytest_sessionfinish(session):
    """A worker hands its fuzzing counts to the controller, which prints the table."""
    module = _fuzz_module()
    if module is not None and hasattr(session.config, "workeroutput"):
        session.config.workeroutput["fuzz"] = {
            kind: stats.counts() for kind, stats in module.FUZZ_STATS.items() if stats.cases}


@pytest.hookimpl(optionalhook=True)         # (a pytest-xdist hook)
def pytest_testnodedown(node, error):
    counts = getattr(node, "workeroutput", {}).get("fuzz")
    if counts:
        _WORKERS_FUZZ.append(counts)


def pytest_terminal_summary(terminalreporter):
    """The fuzzing table (tests/test_fuzz.py): cases run per input class, over every
    xdist worker."""
    module = _fuzz_module(importing=bool(_WORKERS_FUZZ))
    if module is None:
        return
    for counts in _WORKERS_FUZZ:
        for kind, got in counts.items():
            module.FUZZ_STATS[kind].add_counts(got)
    lines = module.fuzz_report()
    if lines:
        terminalreporter.section("fuzzing")
        for line in lines:
            terminalreporter.write_line(line)
