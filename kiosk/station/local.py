"""A station in the game service's own process: the lone cabinet's end of its table.

:class:`LocalTable` is the :class:`~kiosk.station.port.StationPort` of station
``station`` of an in-process :class:`~kiosk.service.table.Table`: no sockets, no TLS, the
same commands and the same answers a station gets over the link
(:class:`~kiosk.station.remote.RemoteTable`), so the screens' controller, the validator
and the printer run the same code on a cabinet and at a table's station.  As over the
link, the chips placed before Deal are kept here, checked at once by the service's own
rules (:mod:`kiosk.station.chips`), and placed at the service as one wager with Deal
(:mod:`kiosk.service.wager`), which checks them again; the print orders of this station's
cash-outs wait here for its printer.  Amounts are cents.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future

from devices.host import DeviceEventKind, PrintOutcome, make_event
from engine.uth.paytable import Limits, Paytable
from kiosk.game import commands as cmd
from kiosk.game.errors import MachineError
from kiosk.game.rules.betting import check_chip, require_ante
from kiosk.game.vocabulary import Bets
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.records import EventRecord, RoundRecord
from kiosk.link.messages import ErrorMessage, EscrowAck, PrintTicket
from kiosk.link.outcomes import ACCEPTED, EscrowEnd, MoneyOutcome
from kiosk.service.device_commands import (
    AcceptEscrow,
    AcceptTicket,
    Command,
    Pass,
    ReportPrint,
    SetPrinter,
    SettleEscrow,
    TestCredits,
)
from kiosk.service.dispatch import Outcome
from kiosk.service.slot_system import REDEMPTION_DEADLINE_S, AwaitingSystem
from kiosk.service.snapshot import StationSnapshot
from kiosk.service.table import Table
from kiosk.service.wager import place_wager
from kiosk.station.chips import progressive_offered, repeat_bets, take_progressive
from kiosk.subscribers import Subscribers

log = logging.getLogger(__name__)


class LocalTable:
    """Station ``station`` of ``table``, in process (thread-safe).  Every change of the
    table counts as progress (its screens redraw); the table's print orders for this
    station are queued for its printer."""

    #: The rounds it recalls are the ledger's own, deck included.
    recall_kept_elsewhere = False

    def __init__(self, table: Table, station: int = 1) -> None:
        self.table = table
        self._station = station
        self._cond = threading.Condition()
        self._progress = 0
        self._received_at = time.monotonic()
        self._refusals: dict[str, str] = {}
        self._orders: list[PrintTicket] = []
        self._running = False
        self._unsubscribe: Callable[[], None] | None = None
        self.errors: list[ErrorMessage] = []
        self.resets = 0
        self._listeners: Subscribers[[]] = Subscribers()
        # the chips placed here, sent with Deal; changed under the table's lock, then
        # this one (the table calls its listeners, which read them, under its lock)
        self._chips = threading.RLock()
        self._pending = Bets()

    # -- life cycle ----------------------------------------------------------------------
    def start(self) -> None:
        """Follow the table's changes; a ticket pending since before a restart is
        ordered printed again (``resume``)."""
        with self._cond:
            if self._running:
                return
            self._running = True
        self._unsubscribe = self.table.subscribe(self._changed)
        self._order(resume=True)

    def stop(self) -> None:
        with self._cond:
            self._running = False
            self._cond.notify_all()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _changed(self) -> None:
        with self._cond:
            self._progress += 1
            self._received_at = time.monotonic()
            self._cond.notify_all()
        if self._running:  # a ticket whose number arrived since (the casino's system)
            fresh = self.table.fresh_print_order(self._station)
            if fresh is not None:
                with self._cond:
                    self._orders.append(fresh)
                    self._cond.notify_all()
        self._listeners.notify()

    def listen(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` after every change of the table, in the thread that made
        it (under the table's lock: it should only note the change); returns a function
        that stops it."""
        return self._listeners.add(callback)

    # -- reading -------------------------------------------------------------------------
    @property
    def station(self) -> int:
        return self._station

    @property
    def connected(self) -> bool:
        """In process the service is always there (a stopped one says why in its tilts)."""
        return True

    @property
    def paytable(self) -> Paytable | None:
        return self.table.paytable

    @property
    def limits(self) -> Limits | None:
        return self.table.limits

    @property
    def pending(self) -> Bets:
        """The chips placed here since the last Deal (not yet sent)."""
        with self._chips:
            return self._pending

    @property
    def door_open(self) -> bool:
        return self.table.snapshot(self._station).door_open

    @property
    def received_at(self) -> float:
        with self._cond:
            return self._received_at

    def snapshot(self) -> StationSnapshot | None:
        return self.table.snapshot(self._station)

    def wait_for(
        self, predicate: Callable[[StationSnapshot], bool], timeout: float
    ) -> StationSnapshot | None:
        deadline = time.monotonic() + timeout
        while True:
            with self._cond:
                seen = self._progress
            snap = self.snapshot()
            if snap is not None and predicate(snap):
                return snap
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.wait_change(seen, min(left, 0.25))

    def wait_change(self, since: int, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._progress <= since:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            return self._progress

    def progress(self) -> int:
        with self._cond:
            return self._progress

    # -- the front door ------------------------------------------------------------------
    def execute(self, command: Command) -> Outcome:
        """Carry out ``command`` at the service for this station (a cash-out's ticket is
        ordered printed as the table changes: :meth:`_changed`); chips are kept here
        until Deal (see the module)."""
        if isinstance(
            command, (cmd.PlaceChip, cmd.RepeatBets, cmd.ClearBets, cmd.TakeProgressive, cmd.Deal)
        ):
            self._bet(command)
            return None
        done = self.table.execute(self._station, command)
        if isinstance(command, (Pass, cmd.CashOut)):  # the service took its chips back too
            with self._chips:
                self._pending = Bets()
        return done

    def _bet(
        self,
        command: cmd.PlaceChip | cmd.RepeatBets | cmd.ClearBets | cmd.TakeProgressive | cmd.Deal,
    ) -> None:
        n = self._station
        with self.table.lock, self._chips:
            if isinstance(command, cmd.ClearBets):
                self.table.execute(n, command)  # between rounds only; the result is put away
                self._pending = Bets()
            elif isinstance(command, cmd.Deal):
                bets = self._pending
                require_ante(bets)
                self._pending = Bets()  # the table's listeners see the round dealt
                try:
                    place_wager(self.table, n, bets)
                except MachineError:
                    self._pending = bets  # refused: the chips stay here
                    raise
            elif isinstance(command, cmd.PlaceChip):
                check_chip(command.spot, command.cents)  # the rest: the controller's
                self._pending = self._pending.add(command.spot, command.cents)
            elif isinstance(command, cmd.TakeProgressive):
                self._pending = take_progressive(self.table.snapshot(n), self._pending)
            else:
                snap, last = self.table.snapshot(n), self.table.station_state(n).last_bets
                offered = progressive_offered(snap, self.table.paytable)
                self._pending = repeat_bets(snap, self.table.limits, last, progressive=offered)

    def _order(self, resume: bool) -> None:
        """Queue the print order of the station's pending ticket, once (again with
        ``resume``: after a restart or when the printer comes back)."""
        order = self.table.print_order(self._station, resume)
        if order is None:
            return
        with self._cond:
            if all(o.txn != order.txn for o in self._orders):
                self._orders.append(order)
            self._cond.notify_all()

    # -- the validator -------------------------------------------------------------------
    def escrow_note(self, cents: int, txn: str, timeout: float) -> EscrowAck | None:
        return self._escrow(
            txn, lambda: self.table.execute(self._station, AcceptEscrow(txn, cents))
        )

    def escrow_ticket(self, validation: str, txn: str, timeout: float) -> int | None:
        """The ticket's amount to stack it, None to return it.  A ticket of another
        machine is asked of the casino's system: this waits (not holding the table) for
        its answer, up to :data:`~kiosk.service.slot_system.REDEMPTION_DEADLINE_S` more."""
        found: list[int] = []

        def accept() -> None:
            found.append(self.table.execute(self._station, AcceptTicket(txn, validation)))

        deadline = time.monotonic() + max(timeout, REDEMPTION_DEADLINE_S + 1.0)
        while True:
            seen = self.progress()
            try:
                ack = self._escrow(txn, accept)
            except AwaitingSystem:
                if time.monotonic() > deadline:
                    self._refusals[txn] = "the casino's system did not answer"
                    return None
                self.wait_change(seen, 0.2)
                continue
            return found[0] if ack is not None and ack.accepted and found else None

    def _escrow(self, txn: str, accept: Callable[[], object]) -> EscrowAck | None:
        """The service's answer to an escrow; a ledger fault is raised (the item goes
        back, and the cabinet stands in the ``ledger`` tilt)."""
        try:
            accept()
        except AwaitingSystem:
            raise
        except MachineError as exc:
            if exc.code == "ledger_fault":
                raise
            self._refusals[txn] = exc.reason
            log.warning("escrow %s refused: %s", txn, exc.reason)
            return _ack(txn, False, reason=exc.reason)
        self._refusals.pop(txn, None)
        return _ack(txn, True)

    def escrow_refusal(self, txn: str) -> str:
        return self._refusals.get(txn, "")

    def report_note(
        self, txn: str, end: EscrowEnd, reason: str, timeout: float, cents: int | None = None
    ) -> EscrowAck | None:
        """The validator's report about escrow ``txn``; None when the service could not
        record it (a ledger fault: the driver asks again)."""
        return self._settle(txn, SettleEscrow(txn, end, reason[:64], cents))

    def _settle(
        self, txn: str, command: SettleEscrow | ReportPrint | TestCredits
    ) -> EscrowAck | None:
        """The service's answer to a report about ``txn``, as the link would carry it;
        None for a ledger fault (the report is made again)."""
        try:
            how = self.table.execute(self._station, command)
        except MachineError as exc:
            if exc.code == "ledger_fault":
                return None
            return _ack(
                txn, False, reason=exc.reason, code=str(exc.code), outcome=MoneyOutcome.REFUSED
            )
        return _ack(txn, how in ACCEPTED, outcome=how)

    def report_fault(self, device: str, kind: DeviceEventKind, detail: str, active: bool) -> None:
        try:
            event = make_event(device, kind, detail[:256], active=active)
            self.table.device_report(self._station, event)
        except MachineError as exc:
            log.warning("%s %s not recorded: %s", device, kind, exc)

    def insert_note(self, cents: int, timeout: float) -> EscrowAck | None:
        """A note with no validator: escrowed, then stacked."""
        txn = f"note-{secrets.token_hex(8)}"
        ack = self.escrow_note(cents, txn, timeout)
        if ack is None or not ack.accepted:
            return ack
        self.report_note(txn, EscrowEnd.VEND_VALID, "", timeout)
        return ack

    # -- the printer -----------------------------------------------------------------------
    def printer_ready(self, ready: bool) -> None:
        self.table.execute(self._station, SetPrinter(ready))
        if ready:
            self._order(resume=True)

    def next_print_order(self, timeout: float) -> PrintTicket | None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._orders:
                left = deadline - time.monotonic()
                if left <= 0 or not self._running:
                    return None
                self._cond.wait(left)
            return self._orders.pop(0)

    def report_print(
        self, txn: str, outcome: PrintOutcome, validation: str, reason: str, timeout: float
    ) -> EscrowAck | None:
        return self._settle(txn, ReportPrint(txn, outcome, validation, reason[:128]))

    # -- the ledger ----------------------------------------------------------------------
    def ledger_can_record(self) -> bool:
        return self.table.ledger_can_record(self._station)

    def ledger_events(self, kinds: tuple[EventKind, ...], last: int | None) -> list[EventRecord]:
        found = self.table.read(lambda a: a.events(kinds, last, viewer=self._station))
        return list(found)

    # -- game recall ---------------------------------------------------------------------
    def recall_rounds(self, last: int, timeout: float) -> Future[list[RoundRecord]]:
        """This station's last ``last`` settled rounds (an open one is not shown), read
        at once: the future is done when it is returned."""
        future: Future[list[RoundRecord]] = Future()
        try:
            found = self.table.recall(last + 1, station=self._station)
        except Exception as exc:  # a ledger that cannot be read
            future.set_exception(exc)
        else:
            future.set_result([r for r in found if r.state != "open"][:last])
        return future


def _ack(
    txn: str,
    accepted: bool,
    *,
    reason: str = "",
    code: str | None = None,
    outcome: MoneyOutcome | None = None,
) -> EscrowAck:
    """The answer a station reads, as the link would carry it (a transaction name the
    link would not carry is answered all the same: nothing crosses a link here)."""
    try:
        return EscrowAck(
            txn=txn, accepted=accepted, reason=reason[:512], code=code, outcome=outcome
        )
    except ValueError:
        return EscrowAck.model_construct(
            txn=txn, accepted=accepted, reason=reason[:512], code=code, outcome=outcome
        )
