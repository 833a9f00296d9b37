"""Two-phase escrow through the real ID-003 driver and the validator simulator: a note
whose credit cannot be written stays unacknowledged in VEND VALID, so the next
controller (the ledger repaired) credits it; a note is never stacked when its
acceptance cannot be written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from support.cabinet import credits, opened
from support.fast_devices import FAST_VALIDATOR, wait_for

from devices.id003 import BillValidator
from devices.id003.codes import Status
from devices.sim import Id003Simulator
from kiosk.config import load_config
from kiosk.game.vocabulary import LEDGER_WRITE_TILT
from kiosk.service import money_in
from kiosk.service.money_in import MoneyIn
from kiosk.wiring.lone_cabinet import LoneCabinet


@pytest.fixture
def sim():
    with Id003Simulator() as s:
        yield s


def driver(sim: Id003Simulator, machine: LoneCabinet) -> BillValidator:
    v = BillValidator(sim.port, machine.notes, FAST_VALIDATOR)
    v.enable()
    v.start()
    assert wait_for(lambda: v.ready)
    return v


def test_a_credit_that_cannot_be_written_is_not_acknowledged(tmp_path: Path, sim, monkeypatch):
    config = load_config(db_path=tmp_path / "uth.db")
    m = opened(config)
    real = MoneyIn.stacked

    def disk_full(self, station, txn):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(MoneyIn, "stacked", disk_full)
    v = driver(sim, m)
    try:
        sim.insert_bill(2000)
        assert wait_for(lambda: sim.state is Status.VEND_VALID and sim.vend_valid_reports > 3)
        assert credits(m) == 0 and not sim.cashbox  # never ACKed: the note waits in VEND VALID
    finally:
        v.close()
    m.table.ledger.close()  # the power goes; the ledger is repaired
    monkeypatch.setattr(MoneyIn, "stacked", real)
    m = opened(config)
    v = driver(sim, m)
    try:
        assert wait_for(lambda: credits(m) == 2000 and sim.state is Status.IDLING)
        assert [i.cents for i in sim.cashbox] == [2000]
        assert len(m.table.ledger.events(("bill_in",))) == 1
    finally:
        v.close()
        m.close()


def test_a_note_is_returned_when_its_acceptance_cannot_be_written(tmp_path: Path, sim, monkeypatch):
    m = opened(load_config(db_path=tmp_path / "uth.db"))

    def disk_full(escrow):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(money_in, "escrow_detail", disk_full)
    v = driver(sim, m)
    try:
        sim.insert_bill(5000)
        assert wait_for(lambda: sim.returned and sim.state in (Status.IDLING, Status.DISABLED))
        assert not sim.cashbox and credits(m) == 0
        assert LEDGER_WRITE_TILT in {t.code for t in m.station.snapshot().tilts}
    finally:
        v.close()
        m.close()
