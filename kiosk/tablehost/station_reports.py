"""A station's money reports at the table host: its validator's escrows and reports,
its printer's, a burn-in's test credits and its devices' faults, each turned into the
game service's command and answered over the link (:class:`~kiosk.link.messages.EscrowAck`,
its ``outcome`` for a report).  A ticket of another machine is answered once the
casino's system has (on a worker thread, the link's own never waits for it)."""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable

from devices.host import DeviceEventKind, make_event
from kiosk.game.errors import MachineError
from kiosk.link.events import Inbound
from kiosk.link.messages import (
    Body,
    DeviceFault,
    Escrow,
    EscrowAck,
    PrinterReport,
    PrinterState,
    TestCreditsReport,
    ValidatorReport,
)
from kiosk.link.outcomes import ACCEPTED, MoneyOutcome
from kiosk.service.device_commands import (
    AcceptEscrow,
    AcceptTicket,
    ReportPrint,
    SetPrinter,
    SettleEscrow,
    TestCredits,
)
from kiosk.service.slot_system import REDEMPTION_DEADLINE_S, AwaitingSystem
from kiosk.service.table import Table

log = logging.getLogger("kiosk.tablehost.service")


class StationReports:
    """The host's answers to its stations' money reports (see the module)."""

    def __init__(
        self,
        table: Table,
        send: Callable[[str, Body], None],
        print_order: Callable[[str, int, bool], None],
        stopping: threading.Event,
    ) -> None:
        self.table = table
        self.send = send
        self.print_order = print_order
        self.stopping = stopping

    def escrow(self, inbound: Inbound, seat: int, body: Escrow) -> None:
        """Phase one: the note's or ticket's acceptance committed before the station
        stacks it (a repeat of an open escrow is accepted again, nothing written).  A
        ticket's amount is the host's: the answer's ``amount_cents``."""
        if body.ticket is not None:
            try:
                ack = self._ticket_ack(seat, body.txn, body.ticket)
            except AwaitingSystem:  # asked of the casino's system: answered when it answers
                worker = threading.Thread(
                    target=self._await_system,
                    args=(inbound.station_id, seat, body.txn, body.ticket),
                    name="table-ticket",
                    daemon=True,
                )
                worker.start()
                return
        elif body.denomination_cents is None:
            ack = EscrowAck(txn=body.txn, accepted=False, reason="an escrow holds a note or ticket")
        else:
            try:
                self.table.execute(seat, AcceptEscrow(body.txn, body.denomination_cents))
            except MachineError as exc:
                ack = EscrowAck(txn=body.txn, accepted=False, reason=exc.reason[:512])
            else:
                ack = EscrowAck(txn=body.txn, accepted=True)
        if not ack.accepted:
            log.warning("escrow %s of seat %d refused: %s", body.txn, seat, ack.reason)
        self.send(inbound.station_id, ack)

    def _ticket_ack(self, seat: int, txn: str, ticket: str) -> EscrowAck:
        """The answer to a ticket's escrow (raises :class:`AwaitingSystem` while the
        casino's system has not answered)."""
        try:
            cents = self.table.execute(seat, AcceptTicket(txn, ticket))
        except AwaitingSystem:
            raise
        except MachineError as exc:
            return EscrowAck(txn=txn, accepted=False, reason=exc.reason[:512])
        return EscrowAck(txn=txn, accepted=True, amount_cents=cents)

    def _await_system(self, station_id: str, seat: int, txn: str, ticket: str) -> None:
        """Ask again until the casino's system has answered about the ticket (or its
        deadline passed: the ticket is then refused), then answer the station."""
        deadline = time.monotonic() + REDEMPTION_DEADLINE_S + 1.0
        while True:
            try:
                ack = self._ticket_ack(seat, txn, ticket)
                break
            except AwaitingSystem:
                if time.monotonic() > deadline or self.stopping.wait(0.1):
                    ack = EscrowAck(
                        txn=txn, accepted=False, reason="no answer from the casino's system"
                    )
                    break
        if not ack.accepted:
            log.warning("ticket %s of seat %d refused: %s", txn, seat, ack.reason)
        self.send(station_id, ack)

    def validator_report(self, inbound: Inbound, seat: int, body: ValidatorReport) -> None:
        """Phase two: the validator's report settles the escrow it names, answered with
        how the service left it (``outcome``)."""
        how = self.table.execute(
            seat, SettleEscrow(body.txn, body.end, body.reason[:64], body.cents)
        )
        if how is MoneyOutcome.UNKNOWN:
            log.warning("seat %d %s for %s matches no escrow of the seat", seat, body.end, body.txn)
        self.send(inbound.station_id, _settled(body.txn, how))

    def printer_state(self, inbound: Inbound, seat: int, body: PrinterState) -> None:
        """The station's printer can print (a pending ticket is ordered again) or not."""
        self.table.execute(seat, SetPrinter(body.ready))
        if body.ready:
            self.print_order(inbound.station_id, seat, True)

    def printer_report(self, inbound: Inbound, seat: int, body: PrinterReport) -> None:
        """The printer's report settles the ticket payout it names (see
        :meth:`~kiosk.service.payouts.Payouts.report`)."""
        report = ReportPrint(body.txn, body.outcome, body.validation, body.reason[:128])
        how = self.table.execute(seat, report)
        self.send(inbound.station_id, _settled(body.txn, how))

    def test_credits(self, inbound: Inbound, seat: int, body: TestCreditsReport) -> None:
        """A burn-in's test credits, once by their transaction; a refusal is answered
        (``refused``, with its reason and code)."""
        try:
            how = self.table.execute(seat, TestCredits(body.txn, body.cents))
        except MachineError as exc:
            log.warning("test credits at seat %d refused: %s", seat, exc.reason)
            refused = EscrowAck(
                txn=body.txn,
                accepted=False,
                reason=exc.reason[:512],
                code=str(exc.code),
                outcome=MoneyOutcome.REFUSED,
            )
            self.send(inbound.station_id, refused)
            return
        self.send(inbound.station_id, _settled(body.txn, how))

    def device_fault(self, inbound: Inbound, seat: int, body: DeviceFault) -> None:
        """A station's device event (a fault, its end, the validator's own reports after
        a restart): the service tilts, clears or settles that station's escrow.
        ``host_error`` is recorded only: a station's driver callbacks raise on purpose
        while the host has not answered (the driver then retries), no fault of the
        device."""
        event = make_event(body.device, body.kind, body.detail, active=body.active)
        if event.kind is DeviceEventKind.HOST_ERROR:
            event = dataclasses.replace(event, tilt=False)
        self.table.device_report(seat, event)


def _settled(txn: str, how: MoneyOutcome) -> EscrowAck:
    """The answer to a report about ``txn`` that the service left as ``how``."""
    return EscrowAck(txn=txn, accepted=how in ACCEPTED, outcome=how)
