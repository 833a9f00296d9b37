"""A manager's adjustment of the standalone progressive meter, countersigned by a second
person's PIN: up and down, one recorded event in one transaction that the meters and
the ledger's verify add up; every refusal before anything is written; a power cut around
it that loses and doubles nothing; a tampered adjustment row that verify names."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from support.progressive_table import (
    ATTENDANT,
    CEILING,
    MANAGER,
    RESET,
    TECHNICIAN,
    WAGER,
    open_table,
    put_in_force,
    write_paytable,
)
from support.table_money import credit

from engine.rng import SeededRandomSource
from engine.uth.round import Action
from kiosk.config import ProgressiveLink
from kiosk.game.commands import (
    AdjustProgressive,
    AdjustReason,
    Deal,
    Decide,
    OperatorLogin,
    OperatorLogout,
    PlaceChip,
    SetDoor,
)
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import MachineError
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.meters import balance
from kiosk.ledger.schema import PROTECTIVE_TRIGGERS
from kiosk.service.progressive import levels
from kiosk.service.table import Table

UP, DOWN = EventKind.PROGRESSIVE_ADJUSTED_UP, EventKind.PROGRESSIVE_ADJUSTED_DOWN


@pytest.fixture
def table(tmp_path: Path):
    table = open_table(tmp_path, (1, 2), SeededRandomSource(4))
    put_in_force(table, write_paytable(tmp_path))
    yield table
    if table.ledger is not None:
        table.close()


def manager_at_door(table: Table, station: int = 1, pin: str = MANAGER) -> None:
    table.execute(station, SetDoor(True))
    table.execute(station, OperatorLogin(pin))


def total(ledger: Ledger, kind: EventKind) -> int:
    return sum(e.amount for e in ledger.events((kind,)))


def check_identity(ledger: Ledger) -> tuple[int, int]:
    """The meter added up from the events (resets + contributions - hits + adjustments
    up - adjustments down) equals the levels the meters hold; the ledger verifies."""
    meter = (
        total(ledger, EventKind.PROGRESSIVE_RESET)
        + total(ledger, EventKind.PROGRESSIVE_CONTRIBUTION)
        - total(ledger, EventKind.PROGRESSIVE_HIT)
        + total(ledger, UP)
        - total(ledger, DOWN)
    )
    reserve = total(ledger, EventKind.PROGRESSIVE_RESERVE) - total(
        ledger, EventKind.PROGRESSIVE_RESERVE_DRAWN
    )
    assert levels(ledger) == (meter, reserve)
    assert balance(ledger.meters)["balanced"]
    report = Ledger.verify(ledger)
    assert report.ok, report.problem
    return meter, reserve


def test_a_manager_sets_the_meter_up_then_down_countersigned_and_recorded(table):
    manager_at_door(table)
    before = table.execute(1, AdjustProgressive(250_000, ATTENDANT, AdjustReason.TRANSFER))
    assert before == RESET
    (up,) = table.ledger.events((UP,))
    assert up.amount == 150_000 and up.station == 1
    assert {k: up.detail[k] for k in ("operator", "witness", "before", "after", "reason")} == {
        "operator": "manager",
        "witness": "attendant",
        "before": RESET,
        "after": 250_000,
        "reason": "transfer",
    }
    assert up.detail["witness_role"] == "attendant" and up.detail["role"] == "manager"
    assert table.snapshot(2).progressive_meter == 250_000
    assert check_identity(table.ledger) == (250_000, 0)

    assert table.execute(1, AdjustProgressive(40_000, TECHNICIAN)) == 250_000  # below the reset
    (down,) = table.ledger.events((DOWN,))
    assert down.amount == 210_000 and down.detail["after"] == 40_000
    assert down.detail["reason"] == "correction" and down.detail["witness"] == "technician"
    assert table.ledger.meters["progressive_adjusted_up"] == 150_000
    assert table.ledger.meters["progressive_adjusted_down"] == 210_000
    assert table.ledger.meters["progressive_adjustments"] == 2
    assert check_identity(table.ledger) == (40_000, 0)

    assert table.execute(1, AdjustProgressive(40_000, ATTENDANT)) == 40_000  # as it stands
    assert table.ledger.meters["progressive_adjustments"] == 2  # nothing recorded

    assert table.execute(1, AdjustProgressive(0, ATTENDANT)) == 40_000  # down to nothing
    assert table.execute(1, AdjustProgressive(CEILING, ATTENDANT)) == 0  # up to the ceiling
    assert check_identity(table.ledger) == (CEILING, 0)

    # a round after it settles on the adjusted meter
    table.execute(1, SetDoor(False))
    credit(table, 1, 5000)
    table.execute(1, PlaceChip("ante", 500))
    table.execute(1, PlaceChip("progressive", WAGER))
    table.execute(1, Deal())
    for action in (Action.CHECK, Action.CHECK, Action.FOLD):
        if table.snapshot(1).round_open:
            table.execute(1, Decide(action))
    assert not table.snapshot(1).round_open
    meter, _ = check_identity(table.ledger)
    assert meter <= CEILING


def refused(table: Table, command: AdjustProgressive, code: ErrorCode, station: int = 1) -> None:
    events = table.ledger.counts()[1]
    meters = dict(table.ledger.meters)
    with pytest.raises(MachineError) as no:
        table.execute(station, command)
    assert no.value.code == code, no.value.reason
    if code != ErrorCode.WRONG_PIN:  # a wrong PIN is recorded and counted
        assert table.ledger.counts()[1] == events
    assert {k: v for k, v in table.ledger.meters.items() if k.startswith("progressive")} == {
        k: v for k, v in meters.items() if k.startswith("progressive")
    }


def test_only_a_manager_may_adjust_the_meter(table):
    table.execute(1, OperatorLogout())  # the technician who put the paytable in force
    table.execute(1, SetDoor(True))
    refused(table, AdjustProgressive(200_000, MANAGER), ErrorCode.OPERATOR_REQUIRED)
    for pin in (ATTENDANT, TECHNICIAN):
        table.execute(1, OperatorLogin(pin))
        refused(table, AdjustProgressive(200_000, MANAGER), ErrorCode.ROLE_REQUIRED)
    assert levels(table.ledger).meter == RESET


def test_the_door_must_be_open(table):
    table.execute(1, OperatorLogin(MANAGER))
    refused(table, AdjustProgressive(200_000, ATTENDANT), ErrorCode.DOOR_CLOSED)


def test_a_second_person_must_countersign(table):
    manager_at_door(table)
    refused(table, AdjustProgressive(200_000, ""), ErrorCode.WITNESS_REQUIRED)
    refused(table, AdjustProgressive(200_000, MANAGER), ErrorCode.SAME_OPERATOR)
    refused(table, AdjustProgressive(200_000, "987654"), ErrorCode.WRONG_PIN)
    failed = table.ledger.last_event(EventKind.OPERATOR_LOGIN_FAILED)
    assert failed is not None and failed.detail["purpose"] == "progressive_adjust"
    assert not table.ledger.events((UP, DOWN))
    check_identity(table.ledger)


@pytest.mark.parametrize("cents", [-1, CEILING + 1])
def test_the_amount_stays_between_zero_and_the_ceiling(table, cents):
    manager_at_door(table)
    with pytest.raises(MachineError) as no:
        table.execute(1, AdjustProgressive(cents, ATTENDANT))
    assert no.value.code == ErrorCode.METER_OUT_OF_RANGE and no.value.params == {"cents": CEILING}
    refused(table, AdjustProgressive(cents, ATTENDANT), ErrorCode.METER_OUT_OF_RANGE)


def test_not_while_a_round_is_in_play(table):
    credit(table, 2, 5000)
    table.execute(2, PlaceChip("ante", 500))
    table.execute(2, Deal())
    assert table.snapshot(2).round_open
    manager_at_door(table)
    refused(table, AdjustProgressive(200_000, ATTENDANT), ErrorCode.ROUND_IN_PROGRESS)


def test_not_without_a_progressive(tmp_path):
    table = open_table(tmp_path, (1,), SeededRandomSource(4))
    manager_at_door(table)
    refused(table, AdjustProgressive(200_000, ATTENDANT), ErrorCode.NO_PROGRESSIVE)
    table.close()


def test_not_when_the_casinos_controller_keeps_the_meter(tmp_path, table):
    table.close()
    linked = open_table(
        tmp_path,
        (1, 2),
        SeededRandomSource(4),
        sas_port="/dev/null",
        progressive_link=ProgressiveLink(group=7, level=1),
    )
    manager_at_door(linked)
    refused(linked, AdjustProgressive(200_000, ATTENDANT), ErrorCode.PROGRESSIVE_LINKED)
    linked.close()


# -- power cuts ----------------------------------------------------------------------------
def cut_child(tmp_path: Path, inside: bool) -> None:
    """In a forked child: the manager adjusts the meter to 300,000 and the power goes
    inside the adjustment's transaction (``inside``) or right after it committed."""
    from kiosk.ledger import ledger as ledger_module

    if inside:
        real = ledger_module.Ledger.event

        def event(self, k, **kw):
            got = real(self, k, **kw)
            if k == UP:
                os._exit(0)
            return got

        ledger_module.Ledger.event = event  # type: ignore[method-assign]
    table = open_table(tmp_path, (1, 2), SeededRandomSource(4))
    manager_at_door(table)
    table.execute(1, AdjustProgressive(300_000, ATTENDANT))
    os._exit(3 if inside else 0)


@pytest.mark.parametrize("inside", [True, False], ids=["inside", "committed"])
def test_a_power_cut_around_the_adjustment_loses_and_doubles_nothing(tmp_path, table, inside):
    table.close()
    pid = os.fork()
    if pid == 0:
        try:
            cut_child(tmp_path, inside)
        finally:
            os._exit(4)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    again = open_table(tmp_path, (1, 2), SeededRandomSource(4))
    ups = again.ledger.events((UP,))
    assert len(ups) == (0 if inside else 1)
    assert check_identity(again.ledger) == ((RESET if inside else 300_000), 0)
    manager_at_door(again)  # the manager does it (again): the meter ends where asked, once
    assert again.execute(1, AdjustProgressive(300_000, ATTENDANT)) == (RESET if inside else 300_000)
    assert len(again.ledger.events((UP,))) == 1
    assert check_identity(again.ledger) == (300_000, 0)
    again.close()


# -- verify --------------------------------------------------------------------------------
def tamper(db: Path, *sql: str) -> None:
    conn = sqlite3.connect(db)
    for name in PROTECTIVE_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    for statement in sql:
        conn.execute(statement)
    for statement in PROTECTIVE_TRIGGERS.values():
        conn.execute(statement)
    conn.commit()
    conn.close()


@pytest.mark.parametrize("what", ["amount", "meter"])
def test_verify_names_a_tampered_adjustment(tmp_path, table, what):
    manager_at_door(table)
    table.execute(1, AdjustProgressive(200_000, ATTENDANT))
    (up,) = table.ledger.events((UP,))
    db = table.config.db_path
    table.close()
    assert Ledger.open(db, readonly=True).verify().ok
    if what == "amount":
        tamper(db, f"UPDATE events SET amount = 900000 WHERE id = {up.id}")
        where = f"events {up.id}: hash"
    else:
        tamper(db, "UPDATE meters SET value = 900000 WHERE name = 'progressive_adjusted_up'")
        where = "meter progressive_adjusted_up: is 900000, the rows add up to 100000"
    report = Ledger.open(db, readonly=True).verify()
    assert not report.ok and where in report.problem, report.problem
