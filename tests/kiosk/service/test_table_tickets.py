"""TITO tickets at the table's stations on the host's ledger (a real SQLite file, the
in-process Table): a cash-out ticket is written pending before it is printed and issued
by the printer's report, once; a failed print voids it; a ticket redeems once, at any
station; refused tickets are logged; notes keyed in go through the two escrow phases;
burn-in test credits are test credits."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from support.table_money import credit

from devices.host import PrintOutcome
from kiosk.config import load_config
from kiosk.game.commands import CashOut, ClearTilt, HandpayReset, InsertCredits, OperatorLogin
from kiosk.game.errors import MachineError, NotAuthorised, TicketRefused, WrongState
from kiosk.game.rules.tickets import UNKNOWN_TICKETS_LIMIT, UNKNOWN_TICKETS_TILT
from kiosk.ledger.meters import balance
from kiosk.link.outcomes import EscrowEnd
from kiosk.service.device_commands import (
    AcceptTicket,
    ReportPrint,
    SetPrinter,
    SettleEscrow,
    TestCredits,
)
from kiosk.service.table import Table
from kiosk.station.snapshot import machine_snapshot

ROOT = Path(__file__).resolve().parents[3]


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def config(tmp_path):
    return load_config(db_path=tmp_path / "var" / "uth.db")


@pytest.fixture
def clock():
    return Clock()


#: The demo configuration's attendant PIN.
ATTENDANT = "1111"


@pytest.fixture
def table(config, clock):
    t = Table.open(config, (1, 2, 5), clock=clock)
    for n in t.stations:  # an attendant at every station: handpays and tilts are theirs
        t.execute(n, OperatorLogin(ATTENDANT))
    yield t
    t.close()


def kinds(table: Table, station: int | None = None) -> list[str]:
    assert table.ledger is not None
    return [e.kind for e in table.ledger.events(station=station)]


def verify(config) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "audit", "verify", "--db", str(config.db_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def cash_out_ticket(table: Table, station: int, cents: int) -> tuple[str, str]:
    """Credit ``cents`` at ``station`` and cash them out to a printed ticket."""
    credit(table, station, cents)
    table.execute(station, SetPrinter(True))
    payout = table.execute(station, CashOut())
    order = table.print_order(station)
    assert order is not None
    assert table.execute(station, ReportPrint(payout.txn, PrintOutcome.PRINTED, order.validation)) == "issued"
    return payout.txn, order.validation


def test_a_ticket_is_pending_before_it_prints_and_issued_once_by_the_report(table, config):
    credit(table, 2, 5000)
    table.execute(2, SetPrinter(True))
    payout = table.execute(2, CashOut())
    assert payout.method == "ticket" and table.credits(2) == 0
    order = table.print_order(2)
    assert order is not None and order.amount_cents == 5000 and order.txn == payout.txn
    ticket = table.ledger.ticket(order.validation)
    assert ticket.status == "pending" and ticket.station == 2
    assert ticket.expires_on == "2026-03-31"  # the cabinet's expiry rule (30 days)
    assert kinds(table, 2)[-2:] == ["cashout", "ticket_issue"]
    snap = table.snapshot(2)  # the station's cash-out screen says a ticket is printing
    assert (snap.payout_pending, snap.payout_method) == (5000, "ticket")
    shown = machine_snapshot(snap, table.paytable, table.limits).cashout
    assert shown is not None and (shown.amount, shown.method) == (5000, "ticket")
    with pytest.raises(WrongState):  # printing: not an attendant's handpay
        table.execute(2, HandpayReset())
    for _ in range(3):  # reported, repeated, replayed
        how = table.execute(2, ReportPrint(payout.txn, PrintOutcome.PRINTED, order.validation))
        assert how == "issued"
    assert table.execute(2, ReportPrint(payout.txn, PrintOutcome.UNKNOWN, "", "late")) == "issued"
    assert table.ledger.ticket(order.validation).status == "issued"
    assert kinds(table).count("ticket_out") == 1 and table.print_order(2) is None
    assert table.snapshot(2).payout_pending == 0
    meters = table.meter_readings(2)
    assert meters["tickets_out"] == 5000 and meters["tickets_out_count"] == 1
    assert balance(meters)["balanced"]
    second = cash_out_ticket(table, 1, 2000)[1]
    assert table.ledger.ticket(second).sequence == ticket.sequence + 1  # one sequence


def test_a_print_that_fails_voids_the_ticket(table, config):
    credit(table, 1, 2000)
    table.execute(1, SetPrinter(True))
    payout = table.execute(1, CashOut())
    number = table.print_order(1).validation
    how = table.execute(1, ReportPrint(payout.txn, PrintOutcome.NOT_PRINTED, "", "paper out"))
    assert how == "returned" and table.credits(1) == 2000  # back on the meter
    assert table.ledger.ticket(number).status == "void"
    assert table.execute(1, ReportPrint(payout.txn, PrintOutcome.PRINTED, number)) == "returned"
    assert table.ledger.ticket(number).status == "void"
    # cannot tell whether it printed: void, and an attendant pays
    payout = table.execute(1, CashOut())
    number = table.print_order(1).validation
    assert table.execute(1, ReportPrint(payout.txn, PrintOutcome.UNKNOWN, "", "comm lost")) == "handpay"
    assert table.ledger.ticket(number).status == "void"
    assert table.snapshot(1).payout_pending == 2000
    assert table.execute(1, ReportPrint(payout.txn, PrintOutcome.PRINTED, number)) == "handpay"
    table.execute(1, HandpayReset())
    assert table.snapshot(1).payout_pending == 0 and table.credits(1) == 0
    meters = table.meter_readings(1)
    assert meters["handpay"] == 2000 and meters.get("tickets_out", 0) == 0
    assert balance(meters)["balanced"]
    with pytest.raises(TicketRefused):  # the void number is refused
        table.execute(2, AcceptTicket("s2-v", number))
    # a station without a printer keeps the handpay
    credit(table, 5, 1000)
    assert table.execute(5, CashOut()).method == "handpay" and table.print_order(5) is None
    table.close()
    verify(config)


def test_a_pending_ticket_resumes_after_a_host_restart(config, clock):
    table = Table.open(config, (1, 2), clock=clock)
    credit(table, 1, 3000)
    table.execute(1, SetPrinter(True))
    payout = table.execute(1, CashOut())
    number = table.print_order(1).validation
    table.close()
    table = Table.open(config, (1, 2), clock=clock)
    try:
        assert table.snapshot(1).payout_pending == 3000
        table.execute(1, SetPrinter(True))  # the station's printer again
        order = table.print_order(1, resume=True)
        assert order is not None and order.validation == number and order.resume
        # the station restarted too and cannot tell: void, handpay
        assert table.execute(1, ReportPrint(payout.txn, PrintOutcome.UNKNOWN, "", "restarted")) == "handpay"
        table.close()
        table = Table.open(config, (1, 2), clock=clock)
        assert table.snapshot(1).payout_pending == 3000 and table.print_order(1) is None
        table.execute(1, OperatorLogin(ATTENDANT))
        table.execute(1, HandpayReset())
        assert table.snapshot(1).payout_pending == 0
    finally:
        table.close()
    verify(config)


def test_a_ticket_redeems_once_at_any_station(table, config):
    txn, number = cash_out_ticket(table, 2, 4000)
    assert table.execute(5, AcceptTicket("s5-1", number)) == 4000
    assert table.execute(5, AcceptTicket("s5-1", number)) == 4000  # a resend
    assert table.credits(5) == 0
    with pytest.raises(TicketRefused) as held:  # in station 5's escrow
        table.execute(1, AcceptTicket("s1-1", number))
    assert held.value.code == "ticket_in_escrow"
    for _ in range(3):
        assert table.execute(5, SettleEscrow("s5-1", EscrowEnd.STACKED, "vend_valid")) == "credited"
    assert table.credits(5) == 4000 and kinds(table).count("ticket_in") == 1
    assert table.ledger.ticket(number).status == "redeemed"
    with pytest.raises(TicketRefused) as again:
        table.execute(1, AcceptTicket("s1-2", number))
    assert again.value.code == "ticket_redeemed"
    meters = table.meter_readings(5)
    assert meters["tickets_in"] == 4000 and balance(meters)["balanced"]


def test_refused_tickets_are_returned_with_the_reason(table, config, clock):
    with pytest.raises(TicketRefused) as unknown:
        table.execute(1, AcceptTicket("s1-u", "123456789012345678"))
    assert unknown.value.code == "ticket_unknown"
    _, number = cash_out_ticket(table, 2, 2500)
    clock.now += timedelta(days=31)
    with pytest.raises(TicketRefused) as expired:
        table.execute(1, AcceptTicket("s1-e", number))
    assert expired.value.code == "ticket_expired"
    rejected = table.ledger.events(("ticket_rejected",))
    assert [(e.txn, e.detail["reason"], e.station) for e in rejected] == [
        ("s1-u", "unknown", 1),
        ("s1-e", "expired", 1),
    ]
    assert table.credits(1) == 0 and not table.open_escrows(1)
    assert table.execute(1, SettleEscrow("s1-e", EscrowEnd.RETURNED)) == "unknown"
    assert table.credits(1) == 0 and table.ledger.ticket(number).status == "issued"
    credit(table, 1, 1000)
    table.execute(1, SetPrinter(True))
    pending = table.execute(1, CashOut())
    with pytest.raises(TicketRefused) as printing:  # not reported printed yet
        table.execute(2, AcceptTicket("s2-p", table.print_order(1).validation))
    assert printing.value.code == "ticket_pending"
    table.execute(1, ReportPrint(pending.txn, PrintOutcome.NOT_PRINTED, "", "jam"))
    table.close()
    verify(config)


def test_unknown_ticket_numbers_tried_again_and_again_stop_that_station(table, config, clock):
    """Someone trying validation numbers at station 5: after the cabinet's limit the
    station stops (its validator is inhibited by the tilt) until an attendant clears it;
    station 2 plays on, and the count starts again after the clearing."""

    def unknown(station: int, n: int) -> None:
        with pytest.raises(MachineError):
            table.execute(station, AcceptTicket(f"s{station}-u{n}", f"{n:018d}"))

    for n in range(UNKNOWN_TICKETS_LIMIT):
        unknown(5, n)
        clock.now += timedelta(seconds=30)
    assert UNKNOWN_TICKETS_TILT not in table.snapshot(5).tilts
    unknown(2, 99)  # another station's refusals are its own
    unknown(5, UNKNOWN_TICKETS_LIMIT)
    assert UNKNOWN_TICKETS_TILT in table.snapshot(5).tilts
    assert UNKNOWN_TICKETS_TILT not in table.snapshot(2).tilts
    (repeated,) = table.ledger.events(("tickets_unknown_repeated",))
    assert repeated.station == 5 and repeated.detail["count"] == UNKNOWN_TICKETS_LIMIT + 1
    _, number = cash_out_ticket(table, 1, 1500)
    with pytest.raises(MachineError):  # a real ticket too, while the station is stopped
        table.execute(5, AcceptTicket("s5-real", number))
    assert table.execute(2, AcceptTicket("s2-real", number)) == 1500
    table.execute(5, ClearTilt(UNKNOWN_TICKETS_TILT))
    unknown(5, 1000)  # counted afresh from the clearing
    assert UNKNOWN_TICKETS_TILT not in table.snapshot(5).tilts
    table.close()
    verify(config)


def test_notes_keyed_in_go_through_both_phases_and_test_credits_are_test_credits(table):
    assert credit(table, 1, 2000) == "credited"
    events = table.ledger.events(station=1)
    accepted, credited = events[-2], events[-1]
    assert (accepted.kind, credited.kind) == ("escrow_accepted", "bill_in")
    assert accepted.txn == credited.txn and credited.amount == 2000
    with pytest.raises(NotAuthorised):  # test credits: a technician answers for them
        table.execute(1, TestCredits(None, 500))  # (an attendant is logged in there)
    table.execute(1, OperatorLogin("2222"))  # a technician
    assert table.execute(1, TestCredits(None, 500)) == "credited"
    assert table.execute(1, TestCredits("burn-1", 700)) == "credited"
    assert table.execute(1, TestCredits("burn-1", 700)) == "credited"  # once per txn
    meters = table.meter_readings(1)
    assert meters["test_credits_in"] == 1200 and meters["test_credits_in_count"] == 2
    assert meters["bills_in"] == 2000 and table.credits(1) == 3200
    with pytest.raises(TypeError):  # no credit without its two phases: not a command here
        table.execute(1, InsertCredits(500))


def test_test_credits_need_a_technician_account(tmp_path):
    config = load_config(db_path=tmp_path / "var" / "uth.db")
    config = config.model_copy(update={"demo": False, "operators": ()})
    assert not config.accounts
    table = Table.open(config, (1,))
    try:
        with pytest.raises(MachineError) as refused:
            table.execute(1, TestCredits(None, 500))
        assert refused.value.code == "no_test_credits" and table.credits(1) == 0
        table.burn_in = True  # a technician's burn-in session, but nobody can log in
        with pytest.raises(MachineError) as refused:
            table.execute(1, TestCredits(None, 500))
        assert refused.value.code == "operator_required" and table.credits(1) == 0
    finally:
        table.close()
