"""A station's ticket printer: the real TCL driver, printing what the game service
orders, in process (the lone cabinet) or over the link (a table's station): the same
code either way (:class:`~kiosk.station.port.StationPort`).

The service writes each cash-out ticket *pending* in its ledger before it orders it
printed (:mod:`kiosk.service.payouts`); the station keeps no money state beyond the job
in hand::

    printer = StationPrinter(remote, "/dev/serial/by-id/...")   # or "sim" (demo)
    printer.start()     # tells the host "ready" while the printer can print
    ...                 # (on every reconnect, and "offline" on a fault)
    printer.close()

Each :class:`~kiosk.link.messages.PrintTicket` is printed once by
:meth:`~devices.tcl.TicketPrinter.print_ticket` and its outcome (``printed`` with the
validation number the printer reported done, ``not_printed``, ``unknown``) reported to
the host until the host answers (an :class:`~kiosk.link.messages.EscrowAck` with its
``outcome``).  The outcome is kept by the
order's transaction, so an order sent again (``resume``, after a host restart) is
answered with it, never printed twice; an order resumed that this process never printed
(the station restarted meanwhile) is never printed again: with a job ``journal`` (a
small file written and synced before the print command goes out, and again once it has)
the printer's status decides (:meth:`~devices.tcl.TicketPrinter.job_after_restart`): an
order the journal does not name never reached the printer (``not_printed``); one whose
command went out is ``printed``, ``not_printed`` or ``unknown`` as the TCL status says
(a printer that restarted too cannot tell).  Without a journal it is ``unknown``.  An
``unknown`` ticket is voided by the host and paid by an attendant: a validation number
is never printed twice, and a ticket that did come out is never paid by hand as well
(the casino's system hears of the void first: :mod:`kiosk.sas`).
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from devices.errors import TicketDataError
from devices.host import DeviceEvent, DeviceEventKind
from devices.sim import TclSimulator
from devices.tcl import PrinterConfig, PrintOutcome, PrintResult, TicketPrinter
from kiosk.config import SIMULATED_PORT
from kiosk.game.rules.tickets import order_ticket
from kiosk.link.messages import PrintTicket
from kiosk.station.port import StationPort

log = logging.getLogger(__name__)

#: The job journal's file name in a station's state folder (beside the lone cabinet's
#: ledger, in a table station's run folder).
JOURNAL_FILE = "printer-job.json"


def untold_after_restart(order: PrintTicket) -> PrintResult:
    """How a ticket ordered before this station started ended when nothing can tell
    (no job journal, no printer to ask): ``unknown``.  The service then voids the number
    and an attendant pays: never printed twice, never paid twice."""
    return PrintResult(
        PrintOutcome.UNKNOWN, order.validation, "power lost while printing: the station restarted"
    )


class StationPrinter:
    """The station's TCL printer on ``port`` (``"sim"``: a simulator on a pty in this
    process), printing the host's orders on its own thread (see the module)."""

    def __init__(
        self,
        remote: StationPort,
        port: str,
        config: PrinterConfig | None = None,
        answer_s: float = 3.0,
        *,
        sim_seed: int | None = None,
        journal: Path | None = None,
    ) -> None:
        self.remote = remote
        self.journal = journal
        self.sim = TclSimulator(seed=sim_seed) if port == SIMULATED_PORT else None
        self.port = port
        self.config = replace(config or PrinterConfig(), device_name="printer")
        self.answer_s = answer_s
        self.driver: TicketPrinter | None = None
        self.results: dict[str, PrintResult] = {}  # this process's jobs, by transaction
        self._unreported: dict[str, PrintResult] = {}
        self._opened = False
        self._told_ready = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._follow, name="station-printer", daemon=True)

    def start(self) -> StationPrinter:
        if self.sim is not None:
            self.sim.start()
            self.port = self.sim.port
        self.driver = TicketPrinter(self.port, self, self.config)
        try:
            self.driver.open()
            self._opened = True
        except Exception as exc:  # reported "offline"; printing opens it again
            log.error("printer on %s unavailable: %s", self.port, exc)
            self.remote.report_fault(
                "printer", DeviceEventKind.COMM_ERROR, f"cannot open {self.port}: {exc}", True
            )
        if self._opened:  # polled once open (a printer opened later starts then)
            self.driver.start()
        self._thread.start()
        return self

    def wait_told(self, timeout: float) -> bool:
        """Block until the host has been told the printer is ready (True) or
        ``timeout`` seconds pass (False): a cash-out before then would be a handpay."""
        return self._told_ready.wait(timeout)

    def ready(self) -> bool:
        """Whether a ticket can be printed now (opened, no fault but paper low)."""
        driver = self.driver
        if driver is None or not self._opened:
            return False
        return not (driver.active_faults - {DeviceEventKind.PAPER_LOW})

    # -- devices.host.DeviceEventSink -----------------------------------------------------
    def device_event(self, event: DeviceEvent) -> None:
        self.remote.report_fault(event.device, event.kind, event.detail, event.active)

    # -- the thread ----------------------------------------------------------------------
    def _follow(self) -> None:
        told: tuple[bool, int, bool] | None = None  # (connected, resets, ready) last told
        while not self._stopping.is_set():
            now = (self.remote.connected, self.remote.resets, self.ready())
            if now != told and now[0]:
                try:
                    self.remote.printer_ready(now[2])
                    told = now
                    (self._told_ready.set if now[2] else self._told_ready.clear)()
                    log.info("printer %s", "ready" if now[2] else "offline")
                except Exception as exc:
                    log.warning("printer state not sent: %s", exc)
            elif not now[0]:
                told = None  # tell again once connected
                self._told_ready.clear()
            self._report_pending()
            order = self.remote.next_print_order(0.1)
            if order is not None:
                self._take(order)

    def _take(self, order: PrintTicket) -> None:
        done = self.results.get(order.txn)
        if done is not None:
            self._unreported[order.txn] = done  # answered again, never printed twice
        elif order.resume:
            log.warning("ticket %s was ordered before this station started", order.validation)
            result = self._after_restart(order)
            log.info("ticket %s after a restart: %s (%s)", order.validation, result.outcome.value,
                     result.detail)  # fmt: skip
            self.results[order.txn] = result
            self._unreported[order.txn] = result
        else:
            result = self._print(order)
            log.info("ticket %s: %s (%s)", order.validation, result.outcome.value, result.detail)
            self.results[order.txn] = result
            self._unreported[order.txn] = result
        self._report_pending()

    def _after_restart(self, order: PrintTicket) -> PrintResult:
        """How a job ordered before this station started ended (see the module)."""
        vn, driver = order.validation, self.driver
        if self.journal is None or driver is None or not self._opened:
            return untold_after_restart(order)
        entry = self._journal_entry()
        if entry is None or entry.get("txn") != order.txn:
            return PrintResult(PrintOutcome.NOT_PRINTED, vn, "the order never reached the printer")
        if entry.get("outcome") in {o.value for o in PrintOutcome}:  # ended, not yet reported
            return PrintResult(
                PrintOutcome(str(entry["outcome"])), vn, str(entry.get("detail", ""))
            )
        result = driver.job_after_restart(vn)
        if result.outcome is PrintOutcome.PRINTED and not entry.get("sent"):
            # the flag may be the ticket's before: its command may never have gone out
            return PrintResult(PrintOutcome.UNKNOWN, vn, "cut while the job was being sent")
        return result

    def _journal_entry(self) -> dict[str, object] | None:
        assert self.journal is not None
        try:
            entry = json.loads(self.journal.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) else None

    def _write_journal(self, entry: dict[str, object]) -> None:
        """Write the job journal (the last job: its order, whether its command went
        out, its outcome), on disk when this returns."""
        if self.journal is None:
            return
        tmp = self.journal.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(json.dumps(entry))
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(self.journal)
        fd = os.open(self.journal.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def _print(self, order: PrintTicket) -> PrintResult:
        entry: dict[str, object] = {"txn": order.txn, "validation": order.validation, "sent": False}
        self._write_journal(entry)
        result = self._print_job(order, lambda: self._write_journal({**entry, "sent": True}))
        self._write_journal({**entry, "sent": True, "outcome": result.outcome.value,
                             "detail": result.detail})  # fmt: skip
        return result

    def _print_job(self, order: PrintTicket, on_sent: Callable[[], None]) -> PrintResult:
        vn = order.validation
        driver = self.driver
        if driver is None:
            return PrintResult(PrintOutcome.NOT_PRINTED, vn, "no ticket printer")
        try:
            data = order_ticket(order)
        except (TicketDataError, ValueError) as exc:
            return PrintResult(PrintOutcome.NOT_PRINTED, vn, f"ticket data refused: {exc}")
        if not self._opened:
            try:
                driver.open()
                self._opened = True
                driver.start()
            except Exception as exc:  # nothing was sent
                return PrintResult(PrintOutcome.NOT_PRINTED, vn, f"printer unavailable: {exc}")
        try:
            return driver.print_ticket(data, on_sent)
        except TicketDataError as exc:  # raised before anything is sent
            return PrintResult(PrintOutcome.NOT_PRINTED, vn, f"ticket data refused: {exc}")
        except Exception as exc:  # part of the job may have gone out: cannot tell
            log.exception("printing ticket %s", vn)
            return PrintResult(PrintOutcome.UNKNOWN, vn, f"driver error: {exc!r}")

    def _report_pending(self) -> None:
        """Report every outcome the host has not answered yet (it may be down)."""
        if not self.remote.connected:
            return
        for txn, result in list(self._unreported.items()):
            ack = self.remote.report_print(
                txn, result.outcome, result.validation_number, result.detail, self.answer_s
            )
            if ack is None:
                return  # no answer: again on the next turn
            self._unreported.pop(txn, None)

    def printed(self) -> list[str]:
        """Validation numbers the simulated printer printed (empty when not simulated)."""
        sim = self.sim
        if sim is None:
            return []
        with sim.lock:
            tickets = list(sim.printed)
        return [t.text(t.barcode_region) for t in tickets if t.barcode_region]

    def last_result(self) -> PrintResult | None:
        """How the last job this process printed ended (None before the first)."""
        return next(reversed(self.results.values()), None)

    @property
    def idle(self) -> bool:
        """No print order waiting for an answer from the service."""
        return not self._unreported

    def close(self) -> None:
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(5.0)
        if self.driver is not None:
            self.driver.close()
        if self.sim is not None:
            self.sim.stop()
