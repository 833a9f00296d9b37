"""The suite's own machinery, run as ``./scripts/test`` runs it: the longest tests start
first, and the tests that share a module fixture run on one worker, which computes it
once (``--dist loadgroup``; a pytest release that drops the xdist groups silently
fails here)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CONFTEST = """
from tests.conftest import pytest_collection_modifyitems  # the suite's own ordering and groups
"""

SHARED = """
import os

import pytest
@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    with open(os.environ["SHARED_LOG"], "a") as log:
        log.write(os.environ.get("PYTEST_XDIST_WORKER", "main") + "\\n")
    return 42

@pytest.mark.parametrize("n", range(6))
def test_uses_it(shared, n):
    assert shared == 42

@pytest.mark.parametrize("n", range(6))
def test_alone(n):
    pass

@pytest.mark.slow
def test_long():
    pass
"""


def _suite(tmp_path: Path) -> Path:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "conftest.py").write_text(CONFTEST)
    (suite / "test_shared.py").write_text(SHARED)
    return suite


def _pytest(suite: Path, log: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # not this run's worker variables (PYTEST_XDIST_WORKER...): the child is a run of its own
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(PYTHONPATH=str(ROOT), SHARED_LOG=str(log))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-W", "ignore", *args],
        cwd=suite, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_the_longest_tests_are_collected_first(tmp_path):
    suite = _suite(tmp_path)
    run = _pytest(suite, tmp_path / "log", "--collect-only", "-q")
    assert run.returncode == 0, run.stdout + run.stderr
    ids = [line for line in run.stdout.splitlines() if "::" in line]
    assert ids[0] == "test_shared.py::test_long" and len(ids) == 13


def test_a_shared_module_fixture_is_computed_once_on_two_workers(tmp_path):
    suite, log = _suite(tmp_path), tmp_path / "log"
    run = _pytest(suite, log, "-n", "2", "--dist", "loadgroup", "-v")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "13 passed" in run.stdout
    workers = {line.split("]")[0] for line in run.stdout.splitlines() if "PASSED" in line}
    assert workers == {"[gw0", "[gw1"}, "both workers ran tests"
    assert len(log.read_text().splitlines()) == 1, "computed once"
