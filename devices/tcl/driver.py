"""TCL ticket printer driver (FutureLogic GEN2/GEN5 style) over pyserial.

:meth:`TicketPrinter.open` reads the status and defines the cash-out layout (regions and a
template) in the printer's RAM.  :meth:`TicketPrinter.print_ticket` sends one print command
and follows the status until the printer says the validation number is printed.

When does a ticket count as printed?  Only when, after the printer has visibly *started*
the job (BUSY, or the VALIDATION DONE flag of the previous ticket cleared), it reports
VALIDATION DONE.  The result says which of three things happened:

* ``PRINTED`` -- validation done was seen (a later fault does not undo it);
* ``NOT_PRINTED`` -- nothing was sent (busy, fault, no answer), or the job stopped before
  the validation number (paper out, jam, head up, chassis open, failure mid-print);
* ``UNKNOWN`` -- we cannot tell (comms lost mid-job, the port vanished mid-job, printer
  reset mid-job, timeout).  The controller must then treat the validation number as void
  and settle by handpay, never by a reprint with a new number, so the cash-out is never
  paid twice.

Faults become :class:`~devices.host.DeviceEvent` s: paper low is a warning; paper out, head
up, jam, chassis open, hardware failures, comm loss are tilts; busy means wait.

A port that vanishes (EIO, the cable pulled: :mod:`devices.polling`) raises ``comm_error``
at once and ends a job in progress as ``UNKNOWN`` (or ``PRINTED`` if validation done was
already seen) without waiting for the print timeout.  Status requests (the monitoring
thread's polls) then reopen the port on a back-off; once it is back the first status
clears ``comm_error`` and the layout is defined again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial

from devices.comm_health import CommHealth
from devices.errors import PrinterLayoutError, StatusFormatError
from devices.host import DeviceEventKind, DeviceEventSink, PrintOutcome, report_event
from devices.polling import PolledDriver, PortOptions, SerialPoller
from devices.tcl.commands import (
    CLEAR_ERRORS,
    DELETE_ALL_REGIONS,
    ENQ,
    print_command,
)
from devices.tcl.layout import CASHOUT_LAYOUT, Layout, cashout_texts, checked_fields
from devices.tcl.status import PrinterStatus, StatusFlag, parse_status
from devices.ticket import TicketData

log = logging.getLogger("devices.tcl")

_FAULT_FLAGS: tuple[tuple[DeviceEventKind, StatusFlag], ...] = (
    (DeviceEventKind.PAPER_LOW, StatusFlag.PAPER_LOW),
    (DeviceEventKind.PAPER_OUT, StatusFlag.PAPER_OUT),
    (DeviceEventKind.HEAD_UP, StatusFlag.HEAD_UP),
    (DeviceEventKind.PAPER_JAM, StatusFlag.PAPER_JAM),
    (DeviceEventKind.CHASSIS_OPEN, StatusFlag.CHASSIS_OPEN),
)


@dataclass(frozen=True, slots=True)
class PrintResult:
    """Result of :meth:`TicketPrinter.print_ticket`."""

    outcome: PrintOutcome
    validation_number: str
    detail: str
    status: PrinterStatus | None = None

    @property
    def printed(self) -> bool:
        """True only when the printer reported the validation number done."""
        return self.outcome is PrintOutcome.PRINTED


@dataclass(frozen=True, slots=True)
class PrinterConfig:
    """Driver settings.  Times are seconds."""

    device_name: str = "printer"
    baudrate: int = 9600
    parity: str = serial.PARITY_NONE
    layout: Layout = CASHOUT_LAYOUT
    poll_interval: float = 0.1
    response_timeout: float = 0.3
    max_retries: int = 2
    comm_error_threshold: int = 3
    busy_timeout: float = 10.0  # wait this long for BUSY to clear before printing
    start_timeout: float = 5.0  # the job must visibly start within this
    print_timeout: float = 60.0  # the whole job, from the print command


def _fault_kinds(status: PrinterStatus) -> dict[DeviceEventKind, str]:
    kinds = {kind: kind.value.replace("_", " ") for kind, flag in _FAULT_FLAGS if status.has(flag)}
    if status.failure:
        kinds[DeviceEventKind.PRINTER_FAILURE] = status.describe()
    return kinds


class TicketPrinter(PolledDriver):
    """One TCL printer on ``port``; events go to ``events`` (the controller).

    :meth:`start` polls the status every ``poll_interval`` seconds in a thread between
    print jobs, so faults and paper low are reported while idle; it does not open the port.
    """

    def __init__(
        self, port: str, events: DeviceEventSink, config: PrinterConfig | None = None
    ) -> None:
        self.config = cfg = config or PrinterConfig()
        options = PortOptions(
            baudrate=cfg.baudrate,
            parity=cfg.parity,
            wait_first=True,  # open() has just read the status
            reported=(PrinterLayoutError,),
        )
        super().__init__(
            SerialPoller(
                port,
                self._poll,
                cfg,
                protocol="tcl",
                log=log,
                options=options,
                on_lost=self._port_lost,
            )
        )
        self._events = events
        self._lock = self._poller.lock
        self._buf = bytearray()
        self._comm = CommHealth(
            self.config.comm_error_threshold, self._emit, f"failed status requests on {self.port}"
        )
        self._layout_defined = False
        self._active: dict[DeviceEventKind, str] = {}
        self._last_status: PrinterStatus | None = None
        self.bad_responses = 0
        self.resets_seen = 0  # statuses with RESET since this driver was made

    # ------------------------------------------------------------------ lifecycle

    def open(self) -> None:
        """Open the port, read the status and define the layout (raises
        :class:`PrinterLayoutError` if the printer refuses it)."""
        with self._lock:
            self._poller.open()
            if self.status() is not None and not self._layout_defined:
                self.define_layout()

    def _poll(self) -> None:
        """One poll of the monitoring thread; a refused layout is already an event."""
        with self._lock:
            status = self.status()
            if status is not None and not self._layout_defined:
                self.define_layout()

    def _port_lost(self, detail: str) -> None:
        """The port vanished: tilt now; the layout is defined again when it is back."""
        self._buf.clear()
        self._layout_defined = False
        self._comm.port_lost(detail)

    # ------------------------------------------------------------------ properties

    @property
    def last_status(self) -> PrinterStatus | None:
        """The last status read, None before any."""
        return self._last_status

    @property
    def active_faults(self) -> frozenset[DeviceEventKind]:
        """Fault and warning kinds currently reported."""
        return frozenset(self._active)

    # ------------------------------------------------------------------ wire

    def _emit(self, kind: DeviceEventKind, detail: str, *, active: bool = True) -> None:
        report_event(self._events, self.config.device_name, kind, detail, log=log, active=active)

    def _send(self, data: bytes) -> bool:
        return self._poller.write(data)

    def _discard_input(self) -> None:
        stale = bytes(self._buf) + self._poller.drain()
        self._buf.clear()
        if stale:
            self.bad_responses += 1
            log.warning(
                "%s: discarded %d unexpected bytes: %r", self.config.device_name, len(stale), stale
            )

    def _read_status(self) -> PrinterStatus | None:
        """Read one ``*S|...|*`` response within ``response_timeout``."""
        name = self.config.device_name
        deadline = time.monotonic() + self.config.response_timeout
        while time.monotonic() < deadline:
            chunk = self._poller.read_some()
            if chunk is None:
                return None
            if not chunk:
                continue
            self._buf += chunk
            start = self._buf.find(b"*S|")
            if start < 0:
                continue
            end = self._buf.find(b"*", start + 1)
            if end < 0:
                continue
            if start:
                self.bad_responses += 1
                log.warning("%s: noise before status: %r", name, bytes(self._buf[:start]))
            raw = bytes(self._buf[start : end + 1])
            del self._buf[: end + 1]
            try:
                return parse_status(raw)
            except StatusFormatError as exc:
                self.bad_responses += 1
                log.warning("%s: bad status response: %s", name, exc)
                return None
        self.bad_responses += 1
        log.warning(
            "%s: no status within %.0f ms%s",
            name,
            self.config.response_timeout * 1000,
            f" (partial: {bytes(self._buf)!r})" if self._buf else "",
        )
        self._buf.clear()
        return None

    # ------------------------------------------------------------------ status

    def status(self) -> PrinterStatus | None:
        """Ask the status (ENQ), retrying garbled answers; report fault changes as events.
        None when no answer came, or while a lost port cannot be reopened yet."""
        with self._lock:
            if self._poller.lost and not self._poller.recover():
                return None
            assert self._poller.is_open, "open() first"
            status = self._comm.exchange(
                1 + self.config.max_retries, self._request_status, self._read_status
            )
            if status is not None:
                self._process(status)
            return status

    def _request_status(self) -> bool:
        self._discard_input()
        return self._send(ENQ)

    def _process(self, status: PrinterStatus) -> None:
        self._last_status = status
        now = _fault_kinds(status)
        for kind, detail in now.items():
            if kind not in self._active:
                self._emit(kind, detail)
        for kind in [k for k in self._active if k not in now]:
            self._emit(kind, "cleared", active=False)
        self._active = now
        if status.has(StatusFlag.RESET):
            self.resets_seen += 1
            self._emit(DeviceEventKind.PRINTER_RESET, "printer reset: layout will be redefined")
            self._layout_defined = False
            self._send(CLEAR_ERRORS)

    # ------------------------------------------------------------------ layout

    def define_layout(self) -> None:
        """Define every region and the template in RAM, then check the printer took them."""
        with self._lock:
            layout = self.config.layout
            self._send(CLEAR_ERRORS)
            self._send(DELETE_ALL_REGIONS)
            for region in layout.regions:
                self._send(region.command())
            self._send(layout.template.command())
            status = self.status()
            if status is None:
                raise PrinterLayoutError("no status after defining the layout")
            if status.has(StatusFlag.DATA_ERROR) or status.has(StatusFlag.COMMAND_ERROR):
                self._emit(DeviceEventKind.LAYOUT_REJECTED, f"printer flags {status.describe()}")
                self._send(CLEAR_ERRORS)
                raise PrinterLayoutError(f"layout refused: {status.describe()}")
            self._layout_defined = True
            log.info("%s: layout %r defined", self.config.device_name, layout.template.template_id)

    # ------------------------------------------------------------------ printing

    def print_ticket(
        self, ticket: TicketData, on_sent: Callable[[], None] | None = None
    ) -> PrintResult:
        """Print one cash-out ticket and wait for the outcome (blocking, up to
        ``print_timeout`` seconds).  Invalid ticket text raises TicketDataError before
        anything is sent.  ``on_sent`` is called once the print command is written."""
        fields = checked_fields(self.config.layout, cashout_texts(ticket))
        command = print_command(self.config.layout.template.template_id, fields)
        vn = ticket.validation_number
        with self._lock:
            before = self._ready_status(vn)
            if isinstance(before, PrintResult):
                return before
            if not self._send(command):
                return PrintResult(PrintOutcome.NOT_PRINTED, vn, "print command not sent", before)
            if on_sent is not None:
                on_sent()
            log.info("%s: printing ticket %s", self.config.device_name, vn)
            return self._follow_job(vn, before)

    def job_after_restart(self, vn: str) -> PrintResult:
        """How the job of ticket ``vn``, whose print command went out before the
        process driving this printer restarted, ended, as the printer's status tells it
        (TCL status byte 5: VALIDATION DONE is cleared when a job is accepted and set
        once its validation number is printed; RESET after the printer's own power-up):

        * no answer, or a RESET seen since this driver was made (the printer restarted
          too: its flags say nothing of the job) -> ``UNKNOWN``;
        * BUSY -> the job is still in the printer: followed to its outcome;
        * idle with VALIDATION DONE -> ``PRINTED`` (no job was accepted after it);
        * idle without it -> ``NOT_PRINTED`` (the job stopped before its number)."""
        with self._lock:
            status = self.status() if self._poller.is_open else None
            if status is None:
                return PrintResult(
                    PrintOutcome.UNKNOWN, vn, "printer not answering after a restart"
                )
            if self.resets_seen or status.has(StatusFlag.RESET):
                return PrintResult(
                    PrintOutcome.UNKNOWN, vn, "the printer restarted too: it cannot tell", status
                )
            if status.busy:
                return self._follow_job(vn, status)
            if status.validation_done:
                return PrintResult(PrintOutcome.PRINTED, vn, "printed before the restart", status)
            return PrintResult(
                PrintOutcome.NOT_PRINTED, vn, "stopped before the validation number", status
            )

    def _ready_status(self, vn: str) -> PrinterStatus | PrintResult:
        """Wait until the printer can take a job; a PrintResult (not printed) if it cannot."""
        cfg = self.config
        deadline = time.monotonic() + cfg.busy_timeout
        while True:
            status = self.status()
            if status is None:
                return PrintResult(PrintOutcome.NOT_PRINTED, vn, "printer not answering")
            if not self._layout_defined:
                try:
                    self.define_layout()
                except PrinterLayoutError as exc:
                    return PrintResult(PrintOutcome.NOT_PRINTED, vn, str(exc), status)
                continue
            tilts = [k for k in _fault_kinds(status) if k is not DeviceEventKind.PAPER_LOW]
            if tilts:
                detail = "printer fault: " + ", ".join(k.value for k in tilts)
                return PrintResult(PrintOutcome.NOT_PRINTED, vn, detail, status)
            if not status.busy:
                if status.has(StatusFlag.DATA_ERROR) or status.has(StatusFlag.COMMAND_ERROR):
                    self._send(CLEAR_ERRORS)
                    continue
                return status
            if time.monotonic() >= deadline:
                return PrintResult(PrintOutcome.NOT_PRINTED, vn, "printer busy", status)
            time.sleep(cfg.poll_interval)

    def _follow_job(self, vn: str, before: PrinterStatus) -> PrintResult:
        cfg = self.config
        sent = time.monotonic()
        started = printed = False
        last: PrinterStatus | None = None
        while time.monotonic() - sent < cfg.print_timeout:
            time.sleep(cfg.poll_interval)
            status = self.status()
            if status is None:
                if self._poller.lost:
                    if printed:
                        return PrintResult(
                            PrintOutcome.PRINTED, vn, "printed; then the port was lost", last
                        )
                    return PrintResult(PrintOutcome.UNKNOWN, vn, "port lost during the job", last)
                continue
            last = status
            if status.has(StatusFlag.RESET):
                if printed:
                    return PrintResult(
                        PrintOutcome.PRINTED, vn, "printed, then printer reset", status
                    )
                return PrintResult(PrintOutcome.UNKNOWN, vn, "printer reset during the job", status)
            if not started and (
                status.has(StatusFlag.DATA_ERROR) or status.has(StatusFlag.COMMAND_ERROR)
            ):
                self._send(CLEAR_ERRORS)
                return PrintResult(
                    PrintOutcome.NOT_PRINTED,
                    vn,
                    f"print command refused: {status.describe()}",
                    status,
                )
            if status.busy or (before.validation_done and not status.validation_done):
                started = True
            if started and status.validation_done:
                if not printed:
                    log.info("%s: validation number %s printed", cfg.device_name, vn)
                printed = True
            tilts = [k for k in _fault_kinds(status) if k is not DeviceEventKind.PAPER_LOW]
            if printed and (not status.busy or tilts):
                detail = "printed" if not tilts else "printed; then " + ", ".join(tilts)
                return PrintResult(PrintOutcome.PRINTED, vn, detail, status)
            if tilts:
                return PrintResult(
                    PrintOutcome.NOT_PRINTED,
                    vn,
                    "stopped before the validation number: " + ", ".join(tilts),
                    status,
                )
            if started and not status.busy:
                return PrintResult(
                    PrintOutcome.NOT_PRINTED, vn, "job ended without validation done", status
                )
            if not started and time.monotonic() - sent > cfg.start_timeout:
                if not before.validation_done and status.validation_done:
                    return PrintResult(PrintOutcome.PRINTED, vn, "printed (job not seen)", status)
                return PrintResult(PrintOutcome.UNKNOWN, vn, "job never seen to start", status)
        if printed:
            return PrintResult(PrintOutcome.PRINTED, vn, "printed; completion not seen", last)
        return PrintResult(PrintOutcome.UNKNOWN, vn, "no outcome within the print timeout", last)
