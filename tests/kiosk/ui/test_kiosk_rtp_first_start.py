"""``uth kiosk`` started for the first time with a paytable that has no record of its
return: the cabinet computes the record in the maths child and signs it before play
opens, then reads it as every later start does."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from kiosk.game.paytables.rtp_record import known_rtp, trips_rtp
from kiosk.ledger.key import CabinetKey

KIOSK = [sys.executable, "-m", "kiosk", "kiosk", "--headless", "--window", "800x480", "--no-sound"]


@pytest.mark.heavy
def test_a_first_start_with_an_unknown_table_computes_its_record_before_play(tmp_path):
    text = (PAYTABLE_DIR / "standard.toml").read_text(encoding="utf-8")
    custom = tmp_path / "custom.toml"
    custom.write_text(text.replace('flush = "7:1"', 'flush = "6:1"').replace("Standard", "Custom"))
    table = load_paytable(custom)
    config = tmp_path / "cabinet.toml"
    config.write_text(f'db_path = "{tmp_path / "uth.db"}"\npaytable = "{custom}"\n')
    proc = subprocess.Popen(
        [*KIOSK, "--config", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    proven = ""
    try:
        assert proc.stderr is not None
        deadline = time.monotonic() + 240
        for line in proc.stderr:
            if "return of Custom proven in" in line:
                proven = line
                break
            assert time.monotonic() < deadline, "no record computed in time"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    assert proven, "the kiosk ended without computing the record"
    record = known_rtp(table, CabinetKey.load(Path(f"{tmp_path / 'uth.db'}.key")))
    assert record is not None and record.source == "signed"
    assert record.figures["trips"] == pytest.approx(float(trips_rtp(table)), abs=1e-12)
