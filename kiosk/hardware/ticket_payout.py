"""Cash-out by TITO ticket: the :class:`~kiosk.machine.payout_strategy.Payout` strategy that prints through
the TCL printer driver (:class:`devices.tcl.TicketPrinter`).

One cash-out, in order (each step is one ledger transaction)::

    Machine.cash_out()            credits -> pending payout            (UI thread)
    TicketPayout.start()          queues the job, returns at once      (under the machine lock)
    Machine.issue_ticket()        ticket row written *pending*         (payout thread)
    TicketPrinter.print_ticket()  blocks until the printer says        (payout thread)
      PRINTED      -> Machine.payout_complete()   ticket issued, tickets-out meter, credits 0
      NOT_PRINTED  -> Machine.payout_failed()     ticket void, credits back on the meter
      UNKNOWN      -> Machine.payout_to_handpay() ticket void, an attendant pays

A power cut anywhere in between leaves the cash-out pending in the ledger; at power-up
the machine voids a ticket whose row was written and turns the cash-out into a handpay
(the printer may have printed it), or, if no row was written yet, calls :meth:`resume`,
which prints it now.  A validation number is never printed twice, and a cash-out is
never paid twice: a voided number is refused by the validator.

Threading: printing takes seconds, so it runs on this strategy's own thread; every call
it makes into the machine goes through the machine's lock.  :meth:`start` only queues,
so the machine never waits on the printer while holding its lock (the printer's own
thread reports faults to the machine: waiting on it there could deadlock).
"""

from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass
from datetime import UTC, date, datetime

from devices.errors import TicketDataError
from devices.tcl import PrintOutcome, PrintResult, TicketPrinter
from devices.ticket import TicketData
from kiosk.config import CabinetConfig
from kiosk.ledger.records import TicketRecord
from kiosk.machine.errors import MachineError
from kiosk.machine.payout_strategy import PayoutHost
from kiosk.machine.snapshot import PayoutRequest

log = logging.getLogger(__name__)


def ticket_data(config: CabinetConfig, ticket: TicketRecord) -> TicketData:
    """What is printed for ``ticket`` (raises TicketDataError for unprintable data)."""
    issued = datetime.strptime(ticket.issued_at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    return TicketData(
        casino_name=config.casino_name,
        address=config.casino_address,
        machine_number=config.machine_number,
        issued_at=issued,
        amount_cents=ticket.amount,
        sequence_number=ticket.sequence % 100_000_000,
        validation_number=ticket.validation,
        expires_on=date.fromisoformat(ticket.expires_on) if ticket.expires_on else None,
    )


@dataclass(frozen=True)
class PayoutOutcome:
    """How one ticket cash-out ended (kept for tests, tools and the demo screen)."""

    transaction_id: str
    validation: str | None
    amount: int  # cents
    outcome: PrintOutcome
    detail: str


class TicketPayout:
    """Prints cash-out tickets on ``printer`` (attach it later with :meth:`attach`).

    Call :meth:`run` to start the printing thread and :meth:`close` to stop it; jobs
    queued before :meth:`run` (a cash-out resumed at power-up) wait for it.
    """

    method = "ticket"

    def __init__(self, config: CabinetConfig, printer: TicketPrinter | None = None) -> None:
        self.config = config
        self.printer = printer
        self.outcomes: list[PayoutOutcome] = []
        self._jobs: queue.Queue[tuple[PayoutHost, PayoutRequest] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._busy = threading.Event()
        self._lock = threading.Lock()

    # -- the Payout protocol (called by the machine, under its lock) --------------------
    def start(self, host: PayoutHost, request: PayoutRequest) -> None:
        """Queue the cash-out for the printing thread; returns at once."""
        self._jobs.put((host, request))

    def resume(self, host: PayoutHost, request: PayoutRequest) -> None:
        """At power-up, a ticket cash-out with no ticket written yet: print it now."""
        log.info(
            "resuming cash-out %s: no ticket was issued before the power cut",
            request.transaction_id,
        )
        self._jobs.put((host, request))

    # -- life cycle --------------------------------------------------------------------
    def attach(self, printer: TicketPrinter | None) -> None:
        self.printer = printer

    def run(self) -> None:
        """Start the printing thread (idempotent)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._thread = threading.Thread(target=self._loop, name="ticket-payout", daemon=True)
        self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        """Stop the printing thread once the job in hand (if any) is over."""
        thread = self._thread
        if thread is None:
            return
        self._jobs.put(None)
        thread.join(timeout)
        if thread.is_alive():
            log.warning("ticket payout thread still printing after %.1f s", timeout)
        self._thread = None

    @property
    def idle(self) -> bool:
        """No job queued and none printing."""
        return self._jobs.empty() and not self._busy.is_set()

    def _loop(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            self._busy.set()
            try:
                self.pay(*job)
            except Exception:  # never let the thread die: the cash-out stays pending
                log.exception("ticket payout %s failed", job[1].transaction_id)
            finally:
                self._busy.clear()

    # -- one cash-out ------------------------------------------------------------------
    def pay(self, host: PayoutHost, request: PayoutRequest) -> PayoutOutcome | None:
        """Issue, print and settle one cash-out (blocking; normally on the thread)."""
        txn = request.transaction_id
        try:
            ticket = host.issue_ticket(txn)
        except MachineError as exc:
            log.warning("cash-out %s not printed: %s", txn, exc.reason)
            return None
        result = self._print(ticket)
        outcome = PayoutOutcome(
            txn, ticket.validation, ticket.amount, result.outcome, result.detail
        )
        with self._lock:
            self.outcomes.append(outcome)
        log.info(
            "ticket #%d %s for %d cents: %s (%s)",
            ticket.sequence,
            ticket.validation,
            ticket.amount,
            result.outcome.value,
            result.detail,
        )
        try:
            if result.outcome is PrintOutcome.PRINTED:
                host.payout_complete(txn, ticket.validation)
            elif result.outcome is PrintOutcome.NOT_PRINTED:
                host.payout_failed(txn, result.detail)
            else:
                host.payout_to_handpay(
                    txn, f"the printer could not confirm ticket #{ticket.sequence}: {result.detail}"
                )
        except MachineError as exc:  # e.g. the ledger failed: the machine is tilted
            log.error("cash-out %s could not be settled: %s", txn, exc.reason)
        return outcome

    def _print(self, ticket: TicketRecord) -> PrintResult:
        vn = ticket.validation
        try:
            data = ticket_data(self.config, ticket)
        except TicketDataError as exc:
            return PrintResult(PrintOutcome.NOT_PRINTED, vn, f"ticket data refused: {exc}")
        printer = self.printer
        if printer is None:
            return PrintResult(PrintOutcome.NOT_PRINTED, vn, "no ticket printer")
        try:
            printer.open()
        except Exception as exc:  # nothing was sent
            return PrintResult(PrintOutcome.NOT_PRINTED, vn, f"printer unavailable: {exc}")
        try:
            return printer.print_ticket(data)
        except TicketDataError as exc:  # raised before anything is sent
            return PrintResult(PrintOutcome.NOT_PRINTED, vn, f"ticket data refused: {exc}")
        except Exception as exc:  # part of the job may have gone out: cannot tell
            log.exception("printing ticket %s", vn)
            return PrintResult(PrintOutcome.UNKNOWN, vn, f"driver error: {exc!r}")

    def last_outcome(self) -> PayoutOutcome | None:
        with self._lock:
            return self.outcomes[-1] if self.outcomes else None
