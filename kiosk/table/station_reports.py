"""A station's money reports at the table host: its validator's escrows and reports,
its printer's, a burn-in's test credits and its devices' faults, each turned into the
game service's command and answered over the link (:class:`~kiosk.link.messages.EscrowAck`,
``settled: <how>`` for a report).  A ticket of another machine is answered once the
casino's system has (on a worker thread, the link's own never waits for it)."""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable

from devices.host import DeviceEventKind, make_event
from kiosk.link.events import Inbound
from kiosk.link.messages import Body, DeviceEvent, Escrow, EscrowAck
from kiosk.machine.errors import MachineError
from kiosk.table.commands import (
    REPORT_OUTCOMES,
    AcceptEscrow,
    AcceptTicket,
    ReportPrint,
    SetPrinter,
    SettleEscrow,
    TestCredits,
)
from kiosk.table.payouts import printer_report
from kiosk.table.slot_system import REDEMPTION_DEADLINE_S, AwaitingSystem
from kiosk.table.table import Table
from kiosk.table.wire import SETTLED, TICKET_AMOUNT

log = logging.getLogger("kiosk.table.host_service")


class StationReports:
    """The host's answers to its stations' money reports (see the module)."""

    def __init__(
        self,
        table: Table,
        send: Callable[[str, Body], None],
        refuse: Callable[[Inbound, str, str], None],
        print_order: Callable[[str, int, bool], None],
        stopping: threading.Event,
    ) -> None:
        self.table = table
        self.send = send
        self.refuse = refuse
        self.print_order = print_order
        self.stopping = stopping

    def escrow(self, inbound: Inbound, seat: int, body: Escrow) -> None:
        """Phase one: the note's or ticket's acceptance committed before the station
        stacks it (a repeat of an open escrow is accepted again, nothing written).  A
        ticket's amount is the host's: the answer's ``reason`` is ``amount: <cents>``."""
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
        return EscrowAck(txn=txn, accepted=True, reason=f"{TICKET_AMOUNT}{cents}")

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
                    ack = EscrowAck(txn=txn, accepted=False, reason="no answer from the casino's system")
                    break
        if not ack.accepted:
            log.warning("ticket %s of seat %d refused: %s", txn, seat, ack.reason)
        self.send(station_id, ack)

    def device_event(self, inbound: Inbound, seat: int, body: DeviceEvent) -> None:
        """Phase two: the validator's report settles the escrow it names (see module)."""
        if body.event == "fault":
            self._fault(inbound, seat, body)
            return
        if body.device in ("printer", "burn_in"):
            self._station_money(inbound, seat, body)
            return
        outcome = REPORT_OUTCOMES.get(body.event) if body.device == "validator" else None
        if outcome is None:
            log.info("seat %d %s: %s %s", seat, body.device, body.event, body.detail)
            return
        txn, reason = body.detail.get("txn"), body.detail.get("reason", "")
        if not isinstance(txn, str) or not isinstance(reason, str):
            self.refuse(inbound, "table.bad-report", "a report names its txn and reason")
            return
        cents = body.detail.get("cents")
        if body.event == "vend_valid":
            reason = "vend_valid"
        if not (cents is None or (isinstance(cents, int) and not isinstance(cents, bool))):
            self.refuse(inbound, "table.bad-report", "a report's cents are a whole number")
            return
        how = self.table.execute(seat, SettleEscrow(txn, outcome, reason[:64], cents))
        if how == "unknown":
            log.warning("seat %d %s for %s matches no escrow of the seat", seat, body.event, txn)
        try:
            ack = EscrowAck(txn=txn, accepted=how == "credited", reason=f"{SETTLED}{how}")
        except ValueError:
            return  # not a transaction name a station sends: nothing to answer
        self.send(inbound.station_id, ack)

    def _station_money(self, inbound: Inbound, seat: int, body: DeviceEvent) -> None:
        """The printer's and a burn-in's reports, each naming a transaction answered
        with ``settled: <how>``; ``ready`` orders a pending ticket again."""
        command: SetPrinter | ReportPrint | TestCredits | None = printer_report(
            body.device, body.event, body.detail
        )
        if command is None and body.device == "burn_in" and body.event == "test_credits":
            txn, cents = body.detail.get("txn"), body.detail.get("cents")
            if isinstance(txn, str) and txn and isinstance(cents, int):
                command = TestCredits(txn, cents)
        if command is None:
            self.refuse(inbound, "table.bad-report", f"{body.device} {body.event}")
            return
        try:
            how = self.table.execute(seat, command)
        except MachineError as exc:
            if not isinstance(command, TestCredits):
                raise
            log.warning("test credits at seat %d refused: %s", seat, exc.reason)
            why = f"{SETTLED}refused: {exc.reason}"
            if command.txn is not None:
                ack = EscrowAck(
                    txn=command.txn, accepted=False, reason=why[:512], code=str(exc.code)
                )
                self.send(inbound.station_id, ack)
            return
        if isinstance(command, SetPrinter):
            if command.ready:
                self.print_order(inbound.station_id, seat, True)
            return
        txn = command.txn
        if txn is None:
            return
        try:
            ack = EscrowAck(txn=txn, accepted=how in ("issued", "credited"), reason=f"{SETTLED}{how}")
        except ValueError:
            return  # not a transaction name a station sends: nothing to answer
        self.send(inbound.station_id, ack)

    def _fault(self, inbound: Inbound, seat: int, body: DeviceEvent) -> None:
        """A station's device event (a fault, its end, the validator's own reports after
        a restart): the service tilts, clears or settles that station's escrow.
        ``host_error`` is recorded only: a station's driver callbacks raise on purpose
        while the host has not answered (the driver then retries), no fault of the
        device."""
        kind, detail, active = (body.detail.get(k) for k in ("kind", "detail", "active"))
        if not (isinstance(kind, str) and isinstance(detail, str) and isinstance(active, bool)):
            self.refuse(inbound, "table.bad-report", "a fault names its kind, detail and state")
            return
        try:
            event = make_event(body.device, DeviceEventKind(kind), detail[:256], active=active)
        except ValueError:
            self.refuse(inbound, "table.bad-report", f"no device event {kind!r}")
            return
        if event.kind is DeviceEventKind.HOST_ERROR:
            event = dataclasses.replace(event, tilt=False)
        self.table.device_report(seat, event)

