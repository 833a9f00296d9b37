"""The first paytable of a new ledger is held to the bounds like every later one: a
Trips RTP of 565% is refused at the first run (no ledger is created), exactly, without
the PAR cache; an installed cabinet reads the standard table's proven record."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from kiosk.config import load_config
from kiosk.game.paytables.first_paytable import SEVEN_CARD_COUNTS, SEVEN_CARD_HANDS, trips_rtp
from kiosk.game.paytables.rtp_record import known_rtp
from kiosk.game.vocabulary import LEDGER_TILT
from kiosk.ledger.key import CabinetKey
from kiosk.wiring.lone_cabinet import LoneCabinet


def rich_trips(tmp_path: Path) -> Path:
    """The standard table with Trips three of a kind at 60:1 instead of 5:1 (Trips RTP 372%)."""
    text = (PAYTABLE_DIR / "standard.toml").read_text(encoding="utf-8")
    at = text.index("[trips]")
    head, tail = text[:at], text[at:]
    old = next(line for line in tail.splitlines() if line.startswith("three_of_a_kind"))
    path = tmp_path / "rich.toml"
    path.write_text(head + tail.replace(old, 'three_of_a_kind = "60:1"'))
    return path


def ledger_tilt(m: LoneCabinet) -> str:
    return {t.code: t.message for t in m.station.snapshot().tilts}.get(LEDGER_TILT, "")


def test_the_published_counts_give_the_standard_trips_rtp():
    assert sum(SEVEN_CARD_COUNTS.values()) == SEVEN_CARD_HANDS
    rtp = trips_rtp(load_paytable(PAYTABLE_DIR / "standard.toml"))
    assert abs(float(rtp) - 0.965021) < 1e-6 and isinstance(rtp, Fraction)


def test_a_first_paytable_outside_the_bounds_is_refused(tmp_path):
    table = load_paytable(rich_trips(tmp_path))
    assert float(trips_rtp(table)) > 3  # about 372%
    config = load_config(None, db_path=tmp_path / "uth.db", paytable=rich_trips(tmp_path))
    m = LoneCabinet.open(config)
    try:
        message = ledger_tilt(m)
        assert "PAYTABLE FAULT" in message and "trips RTP" in message and "outside" in message
        assert m.table.ledger is None
    finally:
        m.close()
    assert not config.db_path.exists() and not config.marker_path.exists()


@pytest.fixture
def other_medium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on another filesystem than ``tmp_path`` (tmpfs, accepted as another
    device in tests: kiosk.ledger.media), removed after."""
    base = Path("/dev/shm")
    if not base.is_dir() or os.stat(base).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("no second filesystem (/dev/shm) on this machine")
    monkeypatch.setenv("UTH_WITNESS_WITHOUT_DISK", "1")
    folder = Path(tempfile.mkdtemp(prefix="uth-witness-", dir=base))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_an_installed_cabinet_knows_the_standard_tables_return_from_its_first_start(
    tmp_path, monkeypatch, other_medium
):
    """The shipped record proves the standard table's return: no `uth paytable check`
    is needed for the first start, and the cache stays cold."""
    monkeypatch.setenv("UTH_PAR_CACHE", str(tmp_path / "par"))
    path = tmp_path / "cabinet.toml"
    path.write_text(
        f'installed = true\ndb_path = "{tmp_path / "var" / "uth.db"}"\n'
        f'ledger_key_path = "{tmp_path / "key" / "k"}"\n'
        f'anchor_path = "{other_medium / "a"}"\ninstall_marker = "{other_medium / "m"}"\n'
        '[[operators]]\nname = "Ann"\nrole = "manager"\npin = "975310"\n'
    )
    config = load_config(path)
    CabinetKey.create(config.key_path)
    m = LoneCabinet.open(config)
    try:
        assert m.table.ledger is not None, m.station.snapshot().tilts
        assert known_rtp(m.station.snapshot().paytable, m.table.ledger.key).source == "shipped"
    finally:
        m.close()
    assert not (tmp_path / "par").exists()
