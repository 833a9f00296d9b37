"""The README's figures command for the phones, ``python -m bench.tournament_net``,
seats its five remote players (one loopback address each, under the host's per-address
cap on sockets without a seat) and prints its figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.heavy
def test_the_bench_seats_five_phones_and_prints_its_figures():
    run = subprocess.run(
        [sys.executable, "-m", "bench.tournament_net", "--seconds", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "5 remote + 1 host bot" in run.stdout and "action round trip ms: p50" in run.stdout, (
        run.stdout
    )
