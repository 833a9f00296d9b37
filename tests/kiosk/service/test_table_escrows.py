"""Notes at the table's stations, two-phase on the host's ledger (a real SQLite file): an
accepted escrow credits nothing; the validator's report credits it exactly once, checked
in the ledger, across repeats and a host restart."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from devices.host import DeviceEvent, DeviceEventKind, make_event
from kiosk.config import load_config
from kiosk.game.commands import SetDoor
from kiosk.game.errors import MachineError
from kiosk.ledger.meters import balance
from kiosk.link.outcomes import EscrowEnd
from kiosk.service.device_commands import AcceptEscrow, SettleEscrow
from kiosk.service.money_in import UNMATCHED_TILT
from kiosk.service.table import Table

ROOT = Path(__file__).resolve().parents[3]


def validator(kind: DeviceEventKind) -> DeviceEvent:
    """The validator's own report, as a station's driver makes it."""
    return make_event("validator", kind, str(kind))


@pytest.fixture
def config(tmp_path):
    return load_config(db_path=tmp_path / "var" / "uth.db")


def bills(table: Table, station: int) -> list[tuple[str | None, int]]:
    assert table.ledger is not None
    return [(e.txn, e.amount) for e in table.ledger.events(("bill_in",), station=station)]


def verify(config) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "audit", "verify", "--db", str(config.db_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_accepted_note_is_credited_once_by_its_report(config):
    table = Table.open(config, (1, 2))
    try:
        assert table.execute(2, AcceptEscrow("s2-a", 2000)) is True
        assert table.credits(2) == 0 and table.open_escrows(2) == ["s2-a"]
        assert table.execute(2, AcceptEscrow("s2-a", 2000)) is True  # a resend: nothing new
        assert len(table.ledger.events(("escrow_accepted",))) == 1
        for _ in range(3):  # the report, resent and replayed
            table.execute(2, SettleEscrow("s2-a", EscrowEnd.STACKED, "vend_valid"))
        assert bills(table, 2) == [("s2-a", 2000)] and table.credits(2) == 2000
        assert table.open_escrows(2) == []
        with pytest.raises(MachineError):  # a replayed escrow of a finished note
            table.execute(2, AcceptEscrow("s2-a", 2000))
        table.execute(2, SettleEscrow("s2-a", EscrowEnd.RETURNED, "returned"))  # changes nothing
        assert table.credits(2) == 2000
        with pytest.raises(MachineError):  # another station's transaction
            table.execute(1, AcceptEscrow("s2-a", 2000))
        assert table.execute(1, SettleEscrow("s2-a", EscrowEnd.STACKED)) == "unknown"
        assert table.credits(1) == 0 and bills(table, 1) == []
        assert balance(table.meter_readings(2))["balanced"]
    finally:
        table.close()
    verify(config)


def test_a_returned_note_is_never_credited_and_a_tilted_seat_takes_no_note(config):
    table = Table.open(config, (1,))
    try:
        table.execute(1, AcceptEscrow("s1-r", 5000))
        assert table.execute(1, SettleEscrow("s1-r", EscrowEnd.RETURNED, "returned")) == "returned"
        assert table.execute(1, SettleEscrow("s1-r", EscrowEnd.STACKED)) == "returned"
        assert table.credits(1) == 0
        table.execute(1, SetDoor(True))
        with pytest.raises(MachineError):
            table.execute(1, AcceptEscrow("s1-d", 5000))
        assert not table.ledger.has_txn("s1-d", "escrow_accepted")
    finally:
        table.close()


def test_an_open_escrow_survives_a_host_restart_and_is_settled_once(config):
    table = Table.open(config, (1, 2))
    table.execute(1, AcceptEscrow("s1-x", 10_000))
    table.ledger.close()  # the power goes before the validator's report
    table = Table.open(config, (1, 2))
    try:
        assert table.open_escrows(1) == ["s1-x"] and table.credits(1) == 0
        # the station restarted too: its validator reports a note in the stacker
        table.device_report(1, validator(DeviceEventKind.POWER_UP_BILL_IN_STACKER))
        table.device_report(1, validator(DeviceEventKind.VEND_UNMATCHED))  # and VEND VALID again
        assert table.execute(1, SettleEscrow("s1-x", EscrowEnd.STACKED, "vend_valid")) == "credited"
        assert bills(table, 1) == [("s1-x", 10_000)] and table.credits(1) == 10_000
        assert UNMATCHED_TILT not in table.snapshot(1).tilts
        # a note in the stacker with no escrow ever accepted at station 2: a tilt, no credit
        table.device_report(2, validator(DeviceEventKind.VEND_UNMATCHED))
        assert UNMATCHED_TILT in table.snapshot(2).tilts and table.credits(2) == 0
    finally:
        table.close()
    verify(config)


def test_a_new_note_closes_the_seat_s_older_open_escrow(config):
    table = Table.open(config, (1,))
    table.execute(1, AcceptEscrow("s1-old", 2000))
    table.ledger.close()  # the power goes: after it, nothing is on its way to the box
    table = Table.open(config, (1,))
    try:
        table.execute(1, AcceptEscrow("s1-new", 5000))  # the validator holds a new note
        assert table.open_escrows(1) == ["s1-new"]
        assert table.ledger.has_txn("s1-old", "escrow_aborted")
        table.device_report(1, validator(DeviceEventKind.POWER_UP_BILL_IN_STACKER))
        assert bills(table, 1) == [("s1-new", 5000)]
        table.device_report(1, validator(DeviceEventKind.POWER_UP))  # nothing left open
        assert table.credits(1) == 5000
    finally:
        table.close()
