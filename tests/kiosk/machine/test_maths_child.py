"""The exact maths in a child process: the same figures as in the process, its
progress relayed, its failures raised here with the child's reason."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from engine.maths.par import par
from engine.uth.paytable import load_paytable
from kiosk.machine.maths_child import ChildMathsError, exact_report_afresh, run_in_child

STANDARD = Path(__file__).resolve().parents[3] / "paytables" / "standard.toml"


@pytest.mark.heavy
def test_the_child_computes_the_same_exact_report_and_relays_its_progress():
    table = load_paytable(STANDARD)
    seen: list[tuple[int, int]] = []
    report = run_in_child(exact_report_afresh, table, progress=lambda d, n: seen.append((d, n)))
    with tempfile.TemporaryDirectory() as scratch:
        here = par(table, "optimal", cache=scratch)
    assert report.rtps() == here.rtps()  # exact fractions, not approximations
    assert report.paytable_sha256 == table.sha256
    assert seen and all(0 <= d <= n for d, n in seen)
    assert [d for d, _n in seen if _n == seen[-1][1]] == sorted(d for d, _n in seen if _n == seen[-1][1])


def test_a_failure_in_the_child_is_raised_with_its_reason():
    with pytest.raises(ChildMathsError, match="AttributeError|TypeError|ValueError"):
        run_in_child(exact_report_afresh, "not a paytable")
