"""Every test is hermetic: its own home, caches, configuration and working folder.

Nothing a test runs (in process or as a child process) reads the checkout's ``var/``,
the user's home (``~/.cache/uth``, ``~/.config``) or a variable of the person running
the tests (``UTH_CONFIG``, ``UTH_PAR_CACHE``, ``UTH_HEADLESS``, ``DISPLAY`` ...):

* at import, before any test module builds a child process's environment from
  ``os.environ``, the process environment is cleaned: every ``UTH_*`` variable and the
  display variables are removed, ``HOME`` and the XDG folders point into a private
  folder, and the screens run on SDL's invisible dummy driver;
* then each test gets a fresh home, XDG folders, PAR cache and working directory of its
  own (:func:`_hermetic`), so the demo defaults (``var/uth.db`` relative to the working
  directory) land in the test's own folder.

``tests/test_hermetic.py`` proves it: it poisons the checkout's ``var/`` and a home's
caches and configuration, exports a foreign ``UTH_CONFIG`` and ``UTH_PAR_CACHE``, and
runs the paytable, kiosk and audit tests under it.
"""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: the person's variables that could change what a test sees
_FOREIGN = ("DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "NOTIFY_SOCKET", "WATCHDOG_USEC",
            "WATCHDOG_PID", "XDG_RUNTIME_DIR")


def _clean_environment(home: Path) -> dict[str, str]:
    """The variables every test and child process starts from (pure: returns them)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("UTH_") and k not in _FOREIGN}
    env.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        # the screens run on the invisible dummy driver on purpose
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        UTH_HEADLESS="1",
        # decision values cost ~0.1 s of CPU a round: on only where a test asks for them
        UTH_DECISION_VALUES="0",
        UTH_PAR_CACHE=str(home / ".cache" / "uth" / "par"),
    )
    return env


_SESSION_HOME = Path(tempfile.mkdtemp(prefix="uth-tests-home-"))
_BASE_ENV = _clean_environment(_SESSION_HOME)
os.environ.clear()
os.environ.update(_BASE_ENV)
atexit.register(shutil.rmtree, _SESSION_HOME, True)


@pytest.fixture(scope="session", autouse=True)
def _session_folder():
    """Session- and module-scoped fixtures start their processes before any test's own
    folder exists: they run in the session's private folder, never in the checkout."""
    work = _SESSION_HOME / "work"
    work.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(work)
        yield work


@pytest.fixture(autouse=True)
def _hermetic(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """A fresh home, XDG folders, PAR cache and working directory for this test."""
    base = tmp_path_factory.mktemp("hermetic")
    home, work = base / "home", base / "work"
    work.mkdir(parents=True)
    home.mkdir()
    for key, value in _clean_environment(home).items():
        if os.environ.get(key) != value:
            monkeypatch.setenv(key, value)
    for key in [k for k in os.environ if k.startswith("UTH_") and k not in _BASE_ENV]:
        monkeypatch.delenv(key)
    monkeypatch.chdir(work)
    yield work


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups into the test ids
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that needs the whole exact analysis, or is marked slow, is heavy (left out
    of the fast tier).

    The longest tests run first: slow ones, then heavy ones, then the rest, each in the
    order collected.  The workers take their next test as they free up (``--dist
    loadgroup``), so the long tests overlap each other and the short ones fill the gaps,
    instead of a long test starting last and the others waiting for it."""
    for item in items:
        if "standard_optimal_par" in getattr(item, "fixturenames", ()) or item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.heavy)
        shared = _shared_fixture(item)
        if shared is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(shared))
    items.sort(key=_start_order)


def _shared_fixture(item: pytest.Item) -> str | None:
    """The first module- or session-scoped fixture of the tests' own that ``item`` uses
    (an exact analysis, a dossier, a scan of the source), named ``where::fixture``: the
    tests that use it run on one worker, which computes it once instead of once on each
    worker (``--dist loadgroup``).  Fixtures named with a leading underscore (autouse
    settings of a module) are not shared work."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    for name in info.names_closure:
        defs = info.name2fixturedefs.get(name)
        if not defs or name.startswith("_"):
            continue
        fixture = defs[-1]
        # baseid: where the fixture is defined ("" for pytest's and plugins' own)
        if fixture.scope in ("module", "session") and fixture.baseid:
            return f"{fixture.baseid}::{name}"
    return None


def _start_order(item: pytest.Item) -> int:
    """0 for a slow test, 1 for another heavy one, 2 for the rest (a stable sort key)."""
    if item.get_closest_marker("slow"):
        return 0
    return 1 if item.get_closest_marker("heavy") else 2


@pytest.fixture(scope="session")
def standard_optimal_par(tmp_path_factory):
    """The full exact analysis of the standard paytable under optimal play, computed once
    per test session (a few seconds on two cores), and the cache folder holding it."""
    from engine.maths.par import par
    from engine.uth.paytable import load_paytable

    cache = tmp_path_factory.mktemp("standard-optimal-par")
    report = par(load_paytable(ROOT / "paytables" / "standard.toml"), "optimal", cache=cache)
    return report, cache
