import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# the screens run on the invisible dummy driver on purpose
os.environ.setdefault("UTH_HEADLESS", "1")
# decision values cost ~0.1 s of CPU a round: on only where a test asks for them
os.environ.setdefault("UTH_DECISION_VALUES", "0")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session", autouse=True)
def _session_par_cache(tmp_path_factory):
    """No test reads or writes the user's PAR cache (it could hold results of older maths)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("UTH_PAR_CACHE", str(tmp_path_factory.mktemp("session-par-cache")))
        yield


@pytest.fixture(scope="session")
def standard_optimal_par(tmp_path_factory):
    """The full exact analysis of the standard paytable under optimal play, computed once
    per test session (about two minutes on two cores), and the cache folder holding it."""
    from engine.maths.par import par
    from engine.uth.paytable import load_paytable

    cache = tmp_path_factory.mktemp("standard-optimal-par")
    report = par(load_paytable(ROOT / "paytables" / "standard.toml"), "optimal", cache=cache)
    return report, cache
