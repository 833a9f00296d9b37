"""Repeated unknown ticket numbers (more than 5 within 10 minutes) tilt the validator:
acceptance is inhibited, an event and the tilt name the count, and only an attendant
clears it.  Driven through the validator simulator and the real ID-003 driver."""

from __future__ import annotations

import pytest
from support.cabinet import credits as credits_at
from support.tito_helpers import Clock, cabinets, wait_for

from kiosk.game.commands import (
    ClearTilt,
    OperatorLogin,
    OperatorLogout,
)
from kiosk.game.rules.tickets import UNKNOWN_TICKETS_TILT


@pytest.fixture
def cabinet(tmp_path):
    yield from cabinets(tmp_path)


def unknown(i: int) -> str:
    return f"9999{i:014d}"


def test_six_unknown_tickets_in_ten_minutes_tilt_the_validator(cabinet):
    clock = Clock()
    cab = cabinet(clock=clock)
    m = cab.parts
    for i in range(5):
        cab.insert_ticket(unknown(i))
    assert UNKNOWN_TICKETS_TILT not in {t.code for t in m.station.snapshot().tilts}
    cab.insert_ticket(unknown(5))
    assert len(cab.vsim.returned) == 6 and not cab.vsim.cashbox
    tilt = {t.code: t.message for t in m.station.snapshot().tilts}[UNKNOWN_TICKETS_TILT]
    assert "6 unknown ticket numbers within 10 minutes" in tilt
    (event,) = m.table.ledger.events(("tickets_unknown_repeated",))
    assert event.detail["count"] == 6
    assert wait_for(lambda: cab.vsim.inhibited)  # acceptance inhibited
    cab.devices.insert_bill(2000)
    assert wait_for(lambda: len(cab.vsim.returned) == 7) and credits_at(m) == 0

    cab.close()  # the tilt stands across a restart
    cab = cabinet(clock=clock)
    m = cab.parts
    assert UNKNOWN_TICKETS_TILT in {t.code for t in m.station.snapshot().tilts}
    m.station.execute(OperatorLogin(m.config.operator_pins["attendant"]))
    m.station.execute(ClearTilt(UNKNOWN_TICKETS_TILT))
    m.station.execute(OperatorLogout())
    assert wait_for(lambda: not cab.vsim.inhibited)
    cab.insert_ticket(unknown(6))  # counting starts again after the tilt
    assert UNKNOWN_TICKETS_TILT not in {t.code for t in m.station.snapshot().tilts}
    cab.insert_bill(2000)
    assert credits_at(m) == 2000


def test_unknown_tickets_spread_over_more_than_ten_minutes_do_not_tilt(cabinet):
    clock = Clock()
    cab = cabinet(clock=clock)
    for i in range(12):
        cab.insert_ticket(unknown(i))
        clock.advance(minutes=2, seconds=1)
    assert UNKNOWN_TICKETS_TILT not in {t.code for t in cab.parts.station.snapshot().tilts}
    assert not cab.parts.table.ledger.events(("tickets_unknown_repeated",))
