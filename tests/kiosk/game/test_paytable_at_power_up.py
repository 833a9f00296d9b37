"""A missing or unreadable paytable at power-up is a tilt, never a crash: on a first run
(no ledger is created) and with the ledger missing.  With a ledger, the paytable in
force is the ledger's copy: the file is not needed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.cabinet import credits, insert_note

from engine.uth.paytable import PAYTABLE_DIR
from kiosk.config import load_config
from kiosk.game.errors import PlayDisabled
from kiosk.game.vocabulary import LEDGER_TILT
from kiosk.wiring.lone_cabinet import LoneCabinet


def cabinet(tmp_path: Path):
    table = tmp_path / "table.toml"
    shutil.copy(PAYTABLE_DIR / "standard.toml", table)
    return load_config(None, db_path=tmp_path / "uth.db", paytable=table), table


def ledger_tilt(m: LoneCabinet) -> str:
    return {t.code: t.message for t in m.station.snapshot().tilts}[LEDGER_TILT]


@pytest.mark.parametrize("damage", ["missing", "garbage", "a folder"])
def test_a_first_run_without_a_readable_paytable_tilts(tmp_path, damage):
    config, table = cabinet(tmp_path)
    table.unlink()
    if damage == "garbage":
        table.write_bytes(b"\x00\xff not toml [[[")
    elif damage == "a folder":
        table.mkdir()
    m = LoneCabinet.open(config)
    try:
        message = ledger_tilt(m)
        assert "PAYTABLE FAULT" in message and str(table) in message
        assert m.table.ledger is None and not config.db_path.exists()
        assert not config.marker_path.exists()
        with pytest.raises(PlayDisabled):
            insert_note(m, 2000)
    finally:
        m.close()
    if table.is_dir():
        table.rmdir()
    elif table.exists():
        table.unlink()
    shutil.copy(PAYTABLE_DIR / "standard.toml", table)
    m = LoneCabinet.open(config)  # the paytable is back: the first run happens now
    try:
        assert m.station.snapshot().playable and config.db_path.exists()
    finally:
        m.close()


def test_a_missing_ledger_and_a_missing_paytable_tilt(tmp_path):
    config, table = cabinet(tmp_path)
    LoneCabinet.open(config).close()
    config.db_path.unlink()
    table.unlink()
    m = LoneCabinet.open(config)
    try:
        assert m.table.ledger is None and not config.db_path.exists()
        assert "missing" in ledger_tilt(m)
    finally:
        m.close()


def test_with_a_ledger_the_paytable_file_is_not_needed(tmp_path):
    config, table = cabinet(tmp_path)
    m = LoneCabinet.open(config)
    insert_note(m, 2000)
    m.close()
    table.unlink()
    m = LoneCabinet.open(config)
    try:
        assert m.station.snapshot().playable and credits(m) == 2000
    finally:
        m.close()
