"""A missing or unreadable paytable at power-up is a tilt, never a crash: on a first run
(no ledger is created) and with the ledger missing.  With a ledger, the paytable in
force is the ledger's copy: the file is not needed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.uth.paytable import PAYTABLE_DIR
from kiosk.cabinet import LEDGER_TILT, Machine, PlayDisabled
from kiosk.config import load_config


def cabinet(tmp_path: Path):
    table = tmp_path / "table.toml"
    shutil.copy(PAYTABLE_DIR / "standard.toml", table)
    return load_config(None, db_path=tmp_path / "uth.db", paytable=table), table


def ledger_tilt(m: Machine) -> str:
    return {t.code: t.message for t in m.snapshot().tilts}[LEDGER_TILT]


@pytest.mark.parametrize("damage", ["missing", "garbage", "a folder"])
def test_a_first_run_without_a_readable_paytable_tilts(tmp_path, damage):
    config, table = cabinet(tmp_path)
    table.unlink()
    if damage == "garbage":
        table.write_bytes(b"\x00\xff not toml [[[")
    elif damage == "a folder":
        table.mkdir()
    m = Machine.open(config)
    try:
        message = ledger_tilt(m)
        assert "PAYTABLE FAULT" in message and str(table) in message
        assert m.ledger is None and not config.db_path.exists()
        assert not config.marker_path.exists()
        with pytest.raises(PlayDisabled):
            m.insert_credits(2000)
    finally:
        m.close()
    if table.is_dir():
        table.rmdir()
    elif table.exists():
        table.unlink()
    shutil.copy(PAYTABLE_DIR / "standard.toml", table)
    m = Machine.open(config)  # the paytable is back: the first run happens now
    try:
        assert m.snapshot().playable and config.db_path.exists()
    finally:
        m.close()


def test_a_missing_ledger_and_a_missing_paytable_tilt(tmp_path):
    config, table = cabinet(tmp_path)
    Machine.open(config).close()
    config.db_path.unlink()
    table.unlink()
    m = Machine.open(config)
    try:
        assert m.ledger is None and not config.db_path.exists()
        assert "missing" in ledger_tilt(m)
    finally:
        m.close()


def test_with_a_ledger_the_paytable_file_is_not_needed(tmp_path):
    config, table = cabinet(tmp_path)
    m = Machine.open(config)
    m.insert_credits(2000)
    m.close()
    table.unlink()
    m = Machine.open(config)
    try:
        assert m.snapshot().playable and m.credits == 2000
    finally:
        m.close()
