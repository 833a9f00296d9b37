"""A wiped ledger folder: the database, its -wal, the marker and the anchor deleted,
the cabinet key kept.  The record beside the key says the cabinet had a ledger, so the
next start is the "ledger missing" tilt, never a silent first run; ``uth audit init
--force`` is the one deliberate way to start over, and it is recorded."""

from __future__ import annotations

import shutil
from pathlib import Path

from support.cabinet import credits, insert_note

from engine.rng import SeededRandomSource
from kiosk.cli import main as uth
from kiosk.config import CabinetConfig, load_config
from kiosk.ledger.files import key_record_path
from kiosk.ledger.ledger import Ledger
from kiosk.wiring.lone_cabinet import LoneCabinet

#: The cabinet's people (an installed cabinet without any is tilted).
OPERATORS = "".join(
    f'[[operators]]\nname = "{n}"\nrole = "{r}"\npin = "{p}"\n'
    for n, r, p in (("Ann Smith", "attendant", "246810"), ("Cy Young", "manager", "975310"))
)


def cabinet(tmp_path: Path) -> tuple[CabinetConfig, Path]:
    """The installer's layout without a second medium: the key outside the ledger
    folder, everything else in it."""
    path = tmp_path / "cabinet.toml"
    path.write_text(
        f'db_path = "{tmp_path / "var" / "uth.db"}"\n'
        f'ledger_key_path = "{tmp_path / "key" / "ledger.key"}"\n' + OPERATORS
    )
    return load_config(path), path


def test_a_wiped_folder_with_the_key_kept_is_ledger_missing(tmp_path, capsys):
    config, path = cabinet(tmp_path)
    m = LoneCabinet.open(config, rng=SeededRandomSource(5))
    assert m.table.ledger is not None
    insert_note(m, 2000)
    old_id = m.table.ledger.ledger_id
    m.close()
    assert key_record_path(config.key_path).exists()
    shutil.rmtree(config.db_path.parent)  # database, -wal, marker, anchor: all gone
    m = LoneCabinet.open(config)
    try:
        tilt = next(t.message for t in m.station.snapshot().tilts if t.code == "ledger")
        assert "missing" in tilt and old_id in tilt and "audit init --force" in tilt
    finally:
        m.close()
    assert not config.db_path.exists()  # never created
    assert uth(["audit", "init", "--config", str(path)]) != 0  # not without --force
    assert not config.db_path.exists()
    capsys.readouterr()
    assert uth(["audit", "init", "--config", str(path), "--force"]) == 0
    ledger = Ledger.open(config.db_path)
    try:
        (replaced,) = ledger.events(("ledger_replaced",))
        assert replaced.detail["previous_ledger_id"] == old_id
    finally:
        ledger.close()
    m = LoneCabinet.open(config)
    try:
        assert not [t for t in m.station.snapshot().tilts if t.code == "ledger"]
        assert credits(m) == 0
    finally:
        m.close()


def test_a_key_made_before_the_first_start_is_a_first_run(tmp_path):
    """The installer makes the key (``uth audit keygen``) before the first start: that
    key has signed no ledger yet, so the first start creates one."""
    config, path = cabinet(tmp_path)
    assert uth(["audit", "keygen", "--config", str(path)]) == 0
    m = LoneCabinet.open(config)
    try:
        assert m.table.ledger is not None and not m.station.snapshot().tilts
    finally:
        m.close()
