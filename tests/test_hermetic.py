"""The tests are hermetic: a cabinet run in the checkout, a poisoned home and a foreign
environment change neither what they see nor those folders (see tests/conftest.py).

The checkout's ``var/`` gets what ``./scripts/cabinet`` leaves there (a ledger, its
cabinet key, anchor and install marker, made by the project's own ``uth autoplay``); a
home gets a poisoned PAR cache (a standard table's report claiming a 10% return) and a
configuration; ``UTH_CONFIG`` names a configuration pointing at the checkout's ledger,
``UTH_PAR_CACHE`` the poisoned cache, ``UTH_HEADLESS=0`` and ``DISPLAY`` a display that
does not exist.  Under all that, the paytable, kiosk and audit tests run in a child
pytest, pass, and leave every file of both folders as it was.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.maths.cache import report_path
from engine.maths.par import par
from engine.uth.paytable import load_paytable

ROOT = Path(__file__).resolve().parents[1]
STANDARD = ROOT / "paytables" / "standard.toml"
#: the entry points that read the demo configuration, the PAR cache or the checkout
INNER_TESTS = (
    "tests/engine/maths/test_par.py::test_paytable_check_prints_rtps_and_accepts",
    "tests/engine/maths/test_par.py::test_paytable_check_refuses_out_of_bounds",
    "tests/engine/maths/test_par.py::test_paytable_check_reads_bounds_from_the_cabinet_config",
    "tests/kiosk/game/test_paytable_editor.py::test_paytable_new_prints_the_exact_par_of_the_derived_table",
    "tests/kiosk/ui/test_kiosk_process.py::test_sigterm_ends_the_kiosk_with_an_orderly_power_down",
    "tests/kiosk/ledger/test_audit.py",
    "tests/kiosk/ui/test_operator_hold.py",
)


def _files(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` -> the sha256 of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _poisoned_cache(folder: Path) -> None:
    """A valid-looking optimal report of the standard table that claims a 10% return."""
    table = load_paytable(STANDARD)
    small = tuple(c for c in range(52) if c // 4 >= 5)  # ranks 7..A: a quick analysis
    rep = par(table, "optimal", deck=small, workers=1, cache=folder / "small")
    fake = dataclasses.replace(rep, main=dict(rep.main, rtp_total_main_bet=0.10),
                               trips=dict(rep.trips, rtp=0.10), deck_size=52)
    path = report_path(table, "optimal", tuple(range(52)), folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(fake.to_json())


@pytest.mark.heavy
def test_a_cabinet_run_in_the_checkout_and_a_poisoned_home_change_nothing_the_tests_see(tmp_path):
    var = ROOT / "var"
    made_var = not (var / "uth.db").exists()
    if made_var:  # what ./scripts/cabinet leaves in a fresh clone
        made = subprocess.run(
            [sys.executable, "-m", "kiosk.cli", "autoplay", "--db", str(var / "uth.db"), "--rounds", "2"],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
        )
        assert made.returncode == 0, made.stderr
    assert (var / "uth.db.key").exists()
    home = tmp_path / "home"
    _poisoned_cache(home / ".cache" / "uth" / "par")
    (home / ".config" / "uth").mkdir(parents=True)
    foreign = home / ".config" / "uth" / "cabinet.toml"
    foreign.write_text(f'db_path = "{var / "uth.db"}"\nrtp_min_pct = 99.9\n')
    env = {
        **os.environ,
        "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), "XDG_CONFIG_HOME": str(home / ".config"),
        "UTH_CONFIG": str(foreign), "UTH_PAR_CACHE": str(home / ".cache" / "uth" / "par"),
        "UTH_HEADLESS": "0", "DISPLAY": ":97",
    }
    before_var, before_home = _files(var), _files(home)
    try:
        inner = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
             "-o", "addopts=", *INNER_TESTS],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=800,
        )
        assert inner.returncode == 0, inner.stdout[-4000:] + inner.stderr[-2000:]
        assert " passed" in inner.stdout and "failed" not in inner.stdout
        assert _files(var) == before_var
        assert _files(home) == before_home
    finally:
        if made_var:
            shutil.rmtree(var, ignore_errors=True)
