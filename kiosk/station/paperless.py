"""A station printer with no paper (tests, benchmarks, the device-less demo): it takes the
service's print orders for its station from the station's link and reports each one's
outcome, exactly as :class:`kiosk.station.printer.StationPrinter` does with a real
printer, so every ticket goes the one way a ticket goes::

    printer = PaperlessPrinter().attach(link)   # tells the service "ready"
    ...                                         # a cash-out: the service orders the ticket
    printer.serve()                             # the order printed (reported), once

``outcome`` is what each new order ends as (``None``: never reported, as if the power
went while printing); ``delay`` seconds of "printing" pass before it is reported (the
demo); ``ready`` False is a station without a printer: cash-outs are paid by hand.  An
order resumed after a restart that this printer never took is decided by the station
printer's own rule (:func:`kiosk.station.printer.untold_after_restart`: voided, an
attendant pays).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from devices.tcl import PrintOutcome, PrintResult
from kiosk.game.commands import InsertCredits
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import MachineError
from kiosk.link.messages import PrintTicket
from kiosk.station.credits import insert_credits
from kiosk.station.port import StationPort
from kiosk.station.printer import untold_after_restart

log = logging.getLogger(__name__)

#: Seconds a report waits for the service's answer (in process: at once).
ANSWER_S = 3.0


class PaperlessPrinter:
    """Prints the station's tickets on no paper (see the module); thread-safe."""

    def __init__(
        self,
        outcome: PrintOutcome | None = PrintOutcome.PRINTED,
        reason: str = "paper out",
        *,
        delay: float = 0.0,
        ready: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.outcome = outcome
        self.reason = reason
        self.delay = delay
        self.is_ready = ready
        self.clock = clock
        self.link: StationPort | None = None
        self.orders: list[PrintTicket] = []  # every new order taken, in order
        self.printed_orders: list[PrintTicket] = []  # the orders reported printed
        self.pending: list[tuple[float, PrintTicket]] = []  # (due time, order) not yet ended
        self.results: dict[str, PrintResult] = {}  # by the cash-out's transaction
        self._lock = threading.RLock()

    @property
    def numbers(self) -> list[str]:
        """The validation numbers of the new orders taken, in order."""
        return [o.validation for o in self.orders]

    def attach(self, link: StationPort) -> PaperlessPrinter:
        """Print ``link``'s station's orders: tell the service whether a ticket can be
        printed, then take any order waiting; returns self."""
        self.link = link
        try:
            link.printer_ready(self.is_ready)
        except MachineError as exc:  # the ledger's tilt: nothing is ordered
            log.warning("printer state not told: %s", exc)
        with self._lock:
            self._serve()  # a ticket ordered before a restart (decided even with no printer)
        return self

    def serve(self) -> list[PrintTicket]:
        """Take the orders waiting and report the ones due; returns the orders reported
        printed now.  A printer that is not ready takes no order (a station's real
        printer may take them)."""
        if not self.is_ready:
            return []
        with self._lock:
            return self._serve()

    def _serve(self) -> list[PrintTicket]:
        link = self.link
        if link is None:
            return []
        while (order := link.next_print_order(0.0)) is not None:
            self._take(order)
        now, done = self.clock(), []
        for due, order in list(self.pending):
            if now < due or self.outcome is None and order.txn not in self.results:
                continue
            self.pending.remove((due, order))
            result = self.results.setdefault(
                order.txn, PrintResult(self.outcome or PrintOutcome.UNKNOWN, order.validation, "")
            )
            reason = "" if result.outcome is PrintOutcome.PRINTED else result.detail or self.reason
            link.report_print(order.txn, result.outcome, result.validation_number, reason, ANSWER_S)
            if result.outcome is PrintOutcome.PRINTED:
                self.printed_orders.append(order)
                done.append(order)
        return done

    def _take(self, order: PrintTicket) -> None:
        if any(o.txn == order.txn for _, o in self.pending):
            return  # in hand already
        known = order.txn in self.results or any(o.txn == order.txn for o in self.orders)
        if order.resume and not known:  # ordered before this printer started
            self.results[order.txn] = untold_after_restart(order)
        elif not known:
            self.orders.append(order)
        delay = 0.0 if order.txn in self.results else self.delay
        self.pending.append((self.clock() + delay, order))


class PaperlessDevices(PaperlessPrinter):
    """A station's devices with no hardware at all (the device-less demo, tests,
    benchmarks): the paperless printer, and the notes and tickets a validator would take,
    credited at the printer's station link in the service's two phases
    (:func:`kiosk.station.credits.insert_credits`)::

        devices = PaperlessDevices(delay=1.2).attach(cabinet.link)
        devices.credit(InsertCredits(2000))   # a note: escrowed, then stacked
    """

    def attach(self, link: StationPort) -> PaperlessDevices:
        super().attach(link)
        return self

    def credit(self, command: InsertCredits) -> None:
        """Credit ``command`` at the attached link; a refusal raises a
        :class:`MachineError` before any credit moves."""
        if self.link is None:
            raise MachineError("no station link attached", code=ErrorCode.NO_SNAPSHOT)
        insert_credits(self.link, command)
