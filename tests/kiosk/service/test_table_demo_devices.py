"""``uth table demo`` with devices: every station it starts drives a simulated bill
validator, so each note goes the two-phase way through the validator's driver (its
transactions are ``s<seat>-...`` on the host).  The demo runs as a real process with
its stations (SDL dummy driver); its ledger is read afterwards."""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from devices.sim import Id003Simulator
from kiosk.commands.table_demo import _children, _devices

ROOT = Path(__file__).resolve().parents[3]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "UTH_HEADLESS": "1"}


def _args(**kw: object) -> argparse.Namespace:
    base = dict(
        stations=(1, 2, 3),
        headless=True,
        window="800x480",
        display_window="1280x720",
        display_screenshot=None,
        rounds=None,
    )
    return argparse.Namespace(**{**base, **kw})


def _option(line: list[str], name: str) -> str:
    return line[line.index(name) + 1]


def test_every_station_of_the_demo_has_its_simulated_validator(tmp_path):
    lines = _children(_args(), tmp_path, 7300, 7301, {})
    stations, display = lines[:-1], lines[-1]
    assert [_option(line, "--station") for line in stations] == ["1", "2", "3"]
    assert all(_option(line, "--validator") == "sim" for line in stations)
    assert "--validator" not in display
    # playing by themselves, the stations take the demo's simulators on their ptys
    sim = Id003Simulator().start()
    try:
        assert _devices(2, {2: sim})[:2] == ["--validator", sim.port]
        lines = _children(_args(rounds=1), tmp_path, 7300, 7301, {2: sim})
        assert _option(lines[1], "--validator") == sim.port
        assert _option(lines[0], "--validator") == "sim"
    finally:
        sim.stop()


@pytest.mark.heavy
def test_a_demo_playing_by_itself_takes_its_notes_through_the_validators(tmp_path):
    folder = tmp_path / "t"
    done = subprocess.run(
        [
            sys.executable, "-m", "kiosk", "table", "demo", "--stations", "2", "--headless",
            "--rounds", "1", "--betting-seconds", "2", "--decision-seconds", "2",
            "--folder", str(folder),
        ],
        env=ENV, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "stations exited [0, 0]" in done.stdout
    conn = sqlite3.connect(f"file:{folder / 'table.db'}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT kind, station, txn, amount FROM events"
            " WHERE kind IN ('escrow_accepted', 'bill_in') ORDER BY id"
        ).fetchall()
    finally:
        conn.close()
    accepted = [(n, txn, cents) for kind, n, txn, cents in rows if kind == "escrow_accepted"]
    credited = [(n, txn, cents) for kind, n, txn, cents in rows if kind == "bill_in"]
    assert {n for n, _txn, _cents in accepted} == {1, 2}
    # each note was the validator driver's transaction, credited once, as escrowed
    assert all(txn.startswith(f"s{n}-") for n, txn, _cents in accepted)
    assert sorted(credited) == sorted(accepted)
