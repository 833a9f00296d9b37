"""The operator port in process: :class:`LocalOperator` over a real :class:`Table` on a
SQLite file answers with the same records, rules and refusals as the table host does
for a remote station (``test_station_operator.py`` drives the remote adapter)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.operator_screens import PEOPLE, cabinet_config
from support.table_money import credit

from devices.host import DeviceEventKind, make_event
from engine.rng import SeededRandomSource
from kiosk.game import commands as cmd
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.station.operator_local import LocalOperator
from kiosk.station.operator_port import (
    Capability,
    MeterReadings,
    OperatorPort,
    Paytables,
    Person,
    Refused,
    TableLimits,
    TableStatus,
)

ANN, TED, _CY = PEOPLE
JAM = "device:validator:acceptor_jam"


class Answers:
    """Every answer the port gave, in order."""

    def __init__(self) -> None:
        self.got: list[object] = []

    def __call__(self, answer: object) -> None:
        self.got.append(answer)

    @property
    def last(self) -> object:
        return self.got[-1]


@pytest.fixture
def table(tmp_path: Path):
    found = Table.open(
        cabinet_config(tmp_path), (1, 2), rng=SeededRandomSource(5), timing=TableTiming(60, 60)
    )
    yield found
    found.close()


def test_the_in_process_port_logs_in_reads_and_acts_with_typed_records(table):
    port: OperatorPort = LocalOperator(table, 1)
    seen = Answers()
    assert port.station == 1 and not port.busy
    assert port.table_status(seen) and isinstance(seen.last, Refused)
    assert seen.last.session_ended  # nobody logged in yet
    port.login("111222", seen)
    assert seen.last == Refused("wrong_pin", "wrong PIN")
    port.login(ANN[2], seen)
    assert seen.last == Person(ANN[0], "attendant")
    credit(table, 2, 2000)
    table.execute(2, cmd.CashOut())
    table.device_report(2, make_event("validator", DeviceEventKind.ACCEPTOR_JAM, "jammed"))
    port.table_status(seen)
    status = seen.last
    assert isinstance(status, TableStatus)
    assert [s.station for s in status.stations] == [1, 2]
    two = status.stations[1]
    assert two.payout_pending == 2000 and two.connected
    assert [d.code for d in two.devices] == [JAM] and two.devices[0].text == "jammed"
    assert status.limits == port.limits()
    assert status.paytable is not None and status.paytable.sha256 == table.paytable.sha256
    port.clear_tilt(2, JAM, seen)
    assert isinstance(seen.last, TableStatus) and not seen.last.stations[1].tilts
    port.handpay_paid(2, seen)
    assert isinstance(seen.last, TableStatus) and seen.last.stations[1].payout_pending == 0
    acts = table.ledger.events(("operator_action",))
    assert [(a.station, a.detail["action"], a.detail["at_station"]) for a in acts] == [
        (2, "clear_tilt", 1),
        (2, "handpay_reset", 1),
    ]
    # an attendant may not change the limits
    lim = port.limits()
    assert lim is not None
    port.set_limits(TableLimits(lim.ante_min, lim.ante_min, lim.trips_min, lim.trips_max), seen)
    assert isinstance(seen.last, Refused) and seen.last.code == "role_required"
    port.meters(1, seen)
    assert isinstance(seen.last, MeterReadings) and seen.last.station == 1
    port.recall(1, seen)
    assert seen.last == ()
    port.logout()
    port.meters(1, seen)
    assert isinstance(seen.last, Refused) and seen.last.session_ended


def test_a_configuration_change_needs_the_door_and_a_technician(table):
    port = LocalOperator(table, 1)
    seen = Answers()
    port.login(TED[2], seen)
    lim, bounds = port.limits(), port.limit_bounds()
    assert lim is not None and bounds is not None and bounds[1] == table.paytable.limits.ante_step
    lower = TableLimits(lim.ante_min, lim.ante_min, lim.trips_min, lim.trips_max)
    port.set_limits(lower, seen)
    assert isinstance(seen.last, Refused) and "door" in seen.last.reason
    table.execute(1, cmd.SetDoor(True))
    port.set_limits(lower, seen)
    assert isinstance(seen.last, TableStatus) and seen.last.limits == lower
    assert table.limits.ante_max == lim.ante_min
    port.paytables(seen)
    tables = seen.last
    assert isinstance(tables, Paytables) and tables.in_force == table.paytable.sha256
    assert [t.title for t in tables.tables if t.in_force] == [
        f"{table.paytable.name} {table.paytable.version}"
    ]


def test_the_pages_a_port_offers(table):
    port = LocalOperator(table, 1)
    assert port.offers(Capability.TABLE_STATUS) and port.offers(Capability.PAYTABLES)
    assert not port.offers(Capability.RAM_CLEAR)
    cabinet = LocalOperator(table, 1, extra=(Capability.RAM_CLEAR, Capability.EVENTS))
    assert cabinet.offers(Capability.RAM_CLEAR) and cabinet.offers(Capability.EVENTS)
