"""The PIN locks stop guessers without locking the staff out for long: the doubling of a
lock's length is capped at four hours, and people who prove presence another way end
every lock before its time, recorded with them: at a cabinet, the main door open with
its key and two people's PINs (a manager's or technician's, then anyone else's); at a
table, a technician's PIN typed at the host.  The lone cabinet and the table service
driven by their typed commands over real SQLite ledgers, with a clock the test moves."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.rng import SeededRandomSource
from kiosk.config import load_config
from kiosk.game.commands import LiftLockout, OperatorLogin, OperatorLogout, SetDoor
from kiosk.game.errors import MachineError, NotAuthorised
from kiosk.game.rules.lockout import LOCK_DURATION, MAX_FAILURES, MAX_LOCK, parse_stamp
from kiosk.game.rules.operators import LOCKOUT_TILT
from kiosk.service.device_commands import LiftLockoutAtHost
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.wiring.host import HostPlan, open_table_host
from kiosk.wiring.lone_cabinet import LoneCabinet

PEOPLE = (
    ("Ann Smith", "attendant", "246810"),
    ("Bob Jones", "technician", "135792"),
    ("Cy Young", "manager", "975310"),
)
ANN, BOB, CY = PEOPLE


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def config_file(tmp_path: Path):
    text = f'db_path = "{tmp_path / "uth.db"}"\n'
    for name, role, pin in PEOPLE:
        text += f'\n[[operators]]\nname = "{name}"\nrole = "{role}"\npin = "{pin}"\n'
    path = tmp_path / "cabinet.toml"
    path.write_text(text)
    return load_config(path)


@pytest.fixture
def cabinet(tmp_path):
    clock = Clock()
    config = config_file(tmp_path)
    m = LoneCabinet.open(config, rng=SeededRandomSource(3), clock=clock)
    yield m, clock, config
    m.close()


def lock_the_pad(m: LoneCabinet, clock: Clock, start: int = 0) -> None:
    for i in range(MAX_FAILURES):
        clock.now += timedelta(seconds=1)
        with pytest.raises(NotAuthorised):
            m.station.execute(OperatorLogin(f"{start + i:06d}"))
    with pytest.raises(NotAuthorised) as locked:
        m.station.execute(OperatorLogin(ANN[2]))
    assert locked.value.code == "pin_locked"


def test_a_guessers_locks_double_up_to_four_hours_and_no_longer(cabinet):
    m, clock, _config = cabinet
    lengths = []
    for n in range(8):
        lock_the_pad(m, clock, start=10 * n)
        last = m.table.ledger.events(("operator_lockout",))[-1]
        until = parse_stamp(last.detail["until"])
        lengths.append(until - parse_stamp(last.at))
        clock.now = until
    minutes = [round(x.total_seconds() / 60) for x in lengths]
    assert MAX_LOCK == timedelta(hours=4) and LOCK_DURATION == timedelta(minutes=15)
    assert minutes == [15, 30, 60, 120, 240, 240, 240, 240]


def test_the_door_opened_with_its_key_and_two_peoples_pins_lift_every_lock(cabinet):
    m, clock, config = cabinet
    lock_the_pad(m, clock)
    assert LOCKOUT_TILT in {t.code for t in m.station.snapshot().tilts}
    with pytest.raises(MachineError) as closed:
        m.station.execute(LiftLockout(CY[2], ANN[2]))
    assert closed.value.code == "door_closed"
    m.station.execute(SetDoor(True))
    with pytest.raises(NotAuthorised) as low:
        m.station.execute(LiftLockout(ANN[2], CY[2]))  # an attendant cannot lift it
    assert low.value.code == "role_required"
    with pytest.raises(NotAuthorised) as same:
        m.station.execute(LiftLockout(CY[2], CY[2]))
    assert same.value.code == "same_operator"
    assert m.station.execute(LiftLockout(CY[2], ANN[2])) == CY[0]
    (lifted,) = m.table.ledger.events(("operator_lockout_lifted",))
    assert lifted.detail["operator"] == CY[0] and lifted.detail["role"] == "manager"
    assert lifted.detail["witness"] == ANN[0] and lifted.detail["how"] == "door"
    assert LOCKOUT_TILT not in {t.code for t in m.station.snapshot().tilts}
    assert m.station.execute(OperatorLogin(BOB[2])) == "technician"  # every account logs in again
    m.station.execute(OperatorLogout())
    m.close()
    again = LoneCabinet.open(config, rng=SeededRandomSource(3), clock=clock)  # stays lifted
    try:
        assert again.station.execute(OperatorLogin(ANN[2])) == "attendant"
        with pytest.raises(MachineError) as none:
            again.station.execute(LiftLockout(CY[2], ANN[2]))
        assert none.value.code == "wrong_state"  # no lock stands
    finally:
        again.close()


def test_wrong_pins_at_the_open_door_are_counted_and_limited_per_opening(cabinet):
    m, clock, _config = cabinet
    lock_the_pad(m, clock)
    m.station.execute(SetDoor(True))
    for i in range(MAX_FAILURES):
        with pytest.raises(NotAuthorised) as wrong:
            m.station.execute(LiftLockout(f"55555{i}", ANN[2]))
        assert wrong.value.code == "wrong_pin"
    with pytest.raises(NotAuthorised) as spent:
        m.station.execute(LiftLockout(CY[2], ANN[2]))  # the right PINs, but not at this opening
    assert "open it again" in spent.value.reason
    failed = m.table.ledger.events(("operator_login_failed",))
    assert [e.detail["purpose"] for e in failed].count("lift_lockout") == MAX_FAILURES
    m.station.execute(SetDoor(False))
    m.station.execute(SetDoor(True))
    assert m.station.execute(LiftLockout(BOB[2], ANN[2])) == BOB[0]


def test_a_technicians_pin_at_the_table_host_lifts_the_locks_of_every_station(tmp_path):
    clock = Clock()
    config = config_file(tmp_path)
    table = Table.open(
        config, (1, 2, 3), rng=SeededRandomSource(5), clock=clock, timing=TableTiming(60, 60)
    )
    try:
        for i in range(MAX_FAILURES):  # a hostile client at station 3
            with pytest.raises(NotAuthorised):
                table.execute(3, OperatorLogin(f"70707{i}"))
        with pytest.raises(NotAuthorised) as locked:
            table.execute(1, OperatorLogin(CY[2]))
        assert locked.value.code == "pin_locked"
        with pytest.raises(NotAuthorised) as low:
            table.execute(1, LiftLockoutAtHost(ANN[2]))
        assert low.value.code == "role_required"
        assert table.execute(1, LiftLockoutAtHost(BOB[2])) == BOB[0]
        (lifted,) = table.ledger.events(("operator_lockout_lifted",))
        assert lifted.detail == {"operator": BOB[0], "role": "technician", "how": "host"}
        assert LOCKOUT_TILT not in table.station_tilts(3)
        assert table.execute(2, OperatorLogin(CY[2])) == "manager"
    finally:
        table.close()


def test_the_table_host_lifts_the_locks_when_started_with_a_technicians_pin(tmp_path):
    """``uth table serve --lift-lockout``: the PIN typed at the host, checked before the
    host listens; a wrong one starts nothing."""
    config = config_file(tmp_path)
    table = Table.open(config, (1, 2), rng=SeededRandomSource(5), timing=TableTiming(60, 60))
    for i in range(MAX_FAILURES):
        with pytest.raises(NotAuthorised):
            table.execute(2, OperatorLogin(f"60606{i}"))
    table.close()
    plan = HostPlan((1, 2), tmp_path / "link-host", lift_pin="121212")
    with pytest.raises(NotAuthorised) as wrong:
        open_table_host(config, plan, timing=TableTiming(60, 60))
    assert wrong.value.code == "wrong_pin"
    parts = open_table_host(
        config, dataclasses.replace(plan, lift_pin=CY[2]), timing=TableTiming(60, 60)
    )
    try:
        assert parts.table.execute(1, OperatorLogin(ANN[2])) == "attendant"
        lifted = parts.table.ledger.last_event("operator_lockout_lifted")
        assert lifted.detail == {"operator": CY[0], "role": "manager", "how": "host"}
    finally:
        parts.close()
