"""Tickets at player stations in one process with their host: the real TCL driver on a
TclSimulator pty prints station 1's cash-out, the real ID-003 driver on its simulator
takes that ticket at station 2, over real TLS links on loopback to a TableHost and its
SQLite ledger.  The ticket is pending before it prints, issued by the printer's report,
redeemed once at the other station; a failed print voids it; an order sent again after a
host restart is answered from the job's outcome, never printed twice."""

from __future__ import annotations

import pytest
from support.fast_devices import FAST_PRINTER, FAST_VALIDATOR, never, wait_for
from support.table_money import credit

from devices.host import PrintOutcome
from kiosk.config import load_config
from kiosk.game.commands import CashOut
from kiosk.ledger.meters import balance
from kiosk.link import auth
from kiosk.link.certs import certificate_pem
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import PrinterReport, TestCreditsReport
from kiosk.link.outcomes import MoneyOutcome
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.station.notes import StationValidator
from kiosk.station.printer import StationPrinter
from kiosk.station.remote import RemoteTable
from kiosk.tablehost.service import TableHost

FAST = LinkLimits(
    auth_timeout_s=2.0, ping_s=2.0, heartbeat_s=0.05, backoff_min_s=0.02, backoff_max_s=0.2
)


class Rig:
    def __init__(self, tmp_path) -> None:
        self.config = load_config(db_path=tmp_path / "var" / "uth.db")
        self.pairing = HostPairing(tmp_path / "host")
        self.remotes: dict[int, RemoteTable] = {}
        self.port = 0
        self.open_host()
        pem = certificate_pem(self.pairing.identity.certificate_der())
        for seat in (1, 2):
            key = auth.new_station_key()
            self.pairing.add(f"station-{seat}", seat, key)
            station = StationPairing(f"station-{seat}", seat, key, self.pairing.fingerprint, pem)
            remote = RemoteTable(station, "127.0.0.1", self.port, limits=FAST)
            remote.start()
            assert remote.wait_for(lambda s: True, 10) is not None
            self.remotes[seat] = remote

    def open_host(self) -> None:
        self.table = Table.open(self.config, (1, 2), timing=TableTiming(60, 60))
        self.host = TableHost(self.table, self.pairing, port=self.port, limits=FAST, tick_s=0.05)
        self.port = self.host.start()
        self.serving = True

    def stop_host(self) -> None:
        self.host.stop()
        self.table.close()
        self.serving = False

    def kinds(self, kind: str) -> list[tuple[str | None, int, int]]:
        assert self.table.ledger is not None
        return [(e.txn, e.amount, e.station) for e in self.table.ledger.events((kind,))]


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path)
    yield r
    for remote in r.remotes.values():
        remote.stop()
    if r.serving:
        r.stop_host()


def test_a_ticket_printed_at_station_1_is_credited_once_at_station_2(rig):
    printer = StationPrinter(rig.remotes[1], "sim", FAST_PRINTER).start()
    validator = StationValidator(rig.remotes[2], "sim", FAST_VALIDATOR).start()
    sim = validator.sim
    assert sim is not None
    try:
        assert wait_for(lambda: rig.table.printer_ready(1), 10)
        credit(rig.table, 1, 7500)
        rig.remotes[1].execute(CashOut())
        assert wait_for(lambda: len(printer.printed()) == 1, 15)
        (number,) = printer.printed()
        assert wait_for(lambda: rig.table.ledger.ticket(number).status == "issued", 10)
        ticket = rig.table.ledger.ticket(number)
        assert ticket.amount == 7500 and ticket.station == 1
        assert rig.remotes[1].wait_for(lambda s: s.payout_pending == 0 and s.credits == 0, 10)

        assert wait_for(lambda: not sim.inhibited, 10)
        sim.insert_ticket(number)
        assert wait_for(lambda: rig.table.credits(2) == 7500, 15)
        assert rig.kinds("ticket_in")[0][1:] == (7500, 2)
        assert rig.table.ledger.ticket(number).status == "redeemed"
        assert wait_for(lambda: len(sim.cashbox) == 1, 5)

        sim.insert_ticket(number)  # the same ticket again: returned, logged
        assert wait_for(lambda: len(sim.returned) == 1, 15)
        assert never(lambda: rig.table.credits(2) != 7500 or len(rig.kinds("ticket_in")) != 1, 0.3)
        reasons = [e.detail["reason"] for e in rig.table.ledger.events(("ticket_rejected",))]
        assert reasons == ["redeemed"]
        for seat in (1, 2):
            assert balance(rig.table.meter_readings(seat))["balanced"]
    finally:
        validator.close()
        printer.close()


def test_a_failed_print_voids_the_ticket_and_a_resent_order_is_not_printed_twice(rig):
    printer = StationPrinter(rig.remotes[1], "sim", FAST_PRINTER).start()
    psim = printer.sim
    assert psim is not None
    try:
        assert wait_for(lambda: rig.table.printer_ready(1), 10)
        credit(rig.table, 1, 2000)
        psim.fail_next_print("paper_out")
        rig.remotes[1].execute(CashOut())
        assert wait_for(lambda: len(rig.kinds("cashout_failed")) == 1, 20)
        (voided,) = [e.detail["validation"] for e in rig.table.ledger.events(("ticket_void",))]
        assert rig.table.ledger.ticket(voided).status == "void"
        assert rig.remotes[1].wait_for(lambda s: s.credits == 2000, 10)  # back on the meter
        assert rig.table.snapshot(1).tilts  # paper out stops the station
        psim.clear_fault("paper_out")
        assert rig.remotes[1].wait_for(lambda s: not s.tilts, 10)  # and its end

        # printed and issued; the order sent again (as after a restart) is answered
        # from the job's outcome, not printed again
        assert wait_for(lambda: rig.table.printer_ready(1), 10)
        rig.remotes[1].execute(CashOut())
        assert wait_for(lambda: len(psim.printed) == 1, 15)
        (number,) = printer.printed()
        assert wait_for(lambda: rig.table.ledger.ticket(number).status == "issued", 10)
        ticket = rig.table.ledger.ticket(number)
        order = rig.table.print_order(1)
        assert order is None  # nothing pending
        rig.host.link.send("station-1", _order_of(rig, ticket))  # the host's order again
        assert never(lambda: len(psim.printed) != 1 or len(rig.kinds("ticket_out")) != 1, 1.0)
    finally:
        printer.close()


def test_a_ticket_ordered_before_a_host_and_station_restart_is_voided_not_reprinted(rig):
    printer = StationPrinter(rig.remotes[1], "sim", FAST_PRINTER).start()
    assert wait_for(lambda: rig.table.printer_ready(1), 10)
    printer.close()  # the station goes down with the printer: the order is not taken
    credit(rig.table, 1, 3000)
    rig.remotes[1].execute(CashOut())
    assert wait_for(lambda: bool(rig.remotes[1].print_orders), 10)
    (payout,) = [e.txn for e in rig.table.ledger.events(("cashout",))]
    number = rig.table.ledger.ticket_for_cashout(payout).validation
    rig.stop_host()
    rig.remotes[1].print_orders.clear()  # the station restarted: the order is gone
    rig.open_host()
    assert rig.table.snapshot(1).payout_pending == 3000
    again = StationPrinter(rig.remotes[1], "sim", FAST_PRINTER).start()
    try:
        assert wait_for(lambda: rig.table.ledger.ticket(number).status != "pending", 20)
        assert rig.table.ledger.ticket(number).status == "void"  # cannot tell: void
        assert rig.table.ledger.has_txn(payout, "cashout_handpay")
        assert again.printed() == [] and rig.table.snapshot(1).payout_pending == 3000
    finally:
        again.close()


def _order_of(rig, ticket):
    from kiosk.link.messages import PrintTicket

    return PrintTicket(
        txn=ticket.cashout_txn,
        validation=ticket.validation,
        amount_cents=ticket.amount,
        sequence=ticket.sequence,
        issued_at=ticket.issued_at,
        expires_on=ticket.expires_on,
        casino_name=rig.config.casino_name,
        machine_number=rig.config.machine_number,
        resume=True,
    )


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")  # the ill-typed body
def test_test_credits_over_the_link_count_once_and_bad_reports_are_refused(rig):
    remote = rig.remotes[1]
    ack = remote.test_credits(5000, 10.0)
    assert ack is not None and ack.accepted and ack.outcome is MoneyOutcome.CREDITED
    assert ack.reason == "" and ack.amount_cents is None
    assert remote.wait_for(lambda s: s.credits == 5000, 10)
    (event,) = rig.table.ledger.events(("test_credits_in",))
    replayed = TestCreditsReport(txn=event.txn, cents=5000)
    remote.settled.pop(event.txn)
    remote.link.send(replayed)  # the same transaction again: nothing new
    assert wait_for(lambda: event.txn in remote.settled, 10)
    assert remote.settled[event.txn].outcome is MoneyOutcome.CREDITED
    ill_typed = PrinterReport.model_construct(txn=5, outcome=PrintOutcome.PRINTED)
    remote.link.send(ill_typed)  # refused by the host's link: never acted on
    assert wait_for(lambda: rig.host.link.stats().refusals["malformed"] == 1, 10)
    assert rig.table.credits(1) == 5000 and rig.table.meter_readings(1)["bills_in"] == 0
    assert len(rig.table.ledger.events(("test_credits_in",))) == 1
