"""JCM ID-003 bill validator driver over pyserial.

The driver is the ID-003 *host*: it polls the validator with STATUS REQUEST and reacts to
what it reports.  One note (or TITO ticket) goes through an *escrow cycle*::

    IDLING -> ACCEPTING -> ESCROW(code) --host decides--> STACK-1 -> STACKING
           -> VEND VALID --host ACKs--> STACKED -> IDLING
                                   \\-> RETURN -> RETURNING -> IDLING

Each cycle gets a ``transaction_id``; the controller (a :class:`~devices.host.ValidatorHost`)
is asked once per cycle and credited at most once per cycle, at the first VEND VALID,
however many times the validator repeats VEND VALID because our ACK was lost.

Communication is "send, read one frame, retry": a response that is garbled (bad CRC, bad
length, noise, partial) or missing is logged and the command resent, up to
``max_retries`` times; ``comm_error_threshold`` consecutive failures raise a ``comm_error``
event that is cleared by the next good exchange.  Nothing on the wire can crash the poll loop.

Threading: :meth:`BillValidator.start` runs the poll loop in a thread and every host
callback is made from that thread.  Tests and tools may instead call :meth:`poll_once`.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import serial

from devices.comm_health import CommHealth
from devices.host import EventKind, ValidatorHost, report_event
from devices.id003.codes import (
    BAR_INHIBIT_TICKETS,
    BARCODE_TYPE_I2OF5,
    TICKET_ESCROW_CODE,
    Command,
    Status,
    failure_text,
    reject_reason,
    status_name,
)
from devices.id003.denominations import DEFAULT_USD, DenominationTable
from devices.id003.frame import BadFrame, BadFrameReason, Frame, FrameDecoder, encode_frame
from devices.serialport import open_serial

log = logging.getLogger("devices.id003")

T = TypeVar("T")

#: serial read timeout (seconds): reads return at once when bytes arrive, else after this
_READ_SLICE = 0.01

_FAULT_KINDS: dict[Status, EventKind] = {
    Status.STACKER_FULL: EventKind.STACKER_FULL,
    Status.STACKER_OPEN: EventKind.STACKER_OPEN,
    Status.JAM_IN_ACCEPTOR: EventKind.ACCEPTOR_JAM,
    Status.JAM_IN_STACKER: EventKind.STACKER_JAM,
    Status.PAUSE: EventKind.PAUSE,
    Status.CHEATED: EventKind.CHEATED,
    Status.FAILURE: EventKind.FAILURE,
}

_POWER_UP_KINDS: dict[Status, EventKind] = {
    Status.POWER_UP: EventKind.POWER_UP,
    Status.POWER_UP_BILL_IN_ACCEPTOR: EventKind.POWER_UP_BILL_IN_ACCEPTOR,
    Status.POWER_UP_BILL_IN_STACKER: EventKind.POWER_UP_BILL_IN_STACKER,
}


@dataclass(frozen=True, slots=True)
class ValidatorConfig:
    """Driver settings.  Times are seconds."""

    device_name: str = "validator"
    denominations: DenominationTable = DEFAULT_USD
    accept_tickets: bool = True
    ticket_digits: int = 18
    poll_interval: float = 0.1
    response_timeout: float = 0.2
    max_retries: int = 2
    comm_error_threshold: int = 5


@dataclass(frozen=True, slots=True)
class CommStats:
    """Counters of the exchanges so far (a snapshot)."""

    frames_ok: int = 0
    bad_frames: int = 0
    timeouts: int = 0
    stale_bytes: int = 0
    device_comm_errors: int = 0
    invalid_commands: int = 0


@dataclass(slots=True)
class _Cycle:
    """One escrow cycle (internal, mutable)."""

    transaction_id: str
    escrow_data: bytes
    kind: str  # "bill", "ticket", "unknown" or "unmatched"
    stack: bool
    cents: int = 0
    barcode: str = ""
    host_knows: bool = True  # the host was asked about it, so it must hear how it ends
    credited: bool = False
    returning: bool = False


class BillValidator:
    """ID-003 host driver for one validator on ``port``.

    ``host`` receives decisions requests, credits and events (see :mod:`devices.host`).
    The validator starts inhibited; call :meth:`enable` to accept notes.
    """

    def __init__(
        self, port: str, host: ValidatorHost, config: ValidatorConfig | None = None
    ) -> None:
        self.port = port
        self.config = config or ValidatorConfig()
        self._host = host
        self._serial: serial.Serial | None = None
        self._decoder = FrameDecoder()
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._stats = CommStats()
        self._comm = CommHealth(
            self.config.comm_error_threshold, self._emit, f"failed exchanges with {self.port}"
        )
        self._want_enabled = False
        self._needs_reset = True
        self._needs_config = True
        self._config_rejected = False
        self._last_status: int | None = None
        self._cycle: _Cycle | None = None
        self._active_faults: dict[EventKind, int | None] = {}

    # ------------------------------------------------------------------ lifecycle

    def open(self) -> None:
        """Open the serial port (9600 8E1).  The first poll resets and configures the unit."""
        with self._lock:
            if self._serial is None:
                self._serial = open_serial(
                    self.port, parity=serial.PARITY_EVEN, timeout=_READ_SLICE
                )
                self._serial.reset_input_buffer()
                self._needs_reset = True
                self._needs_config = True

    def close(self) -> None:
        """Stop polling and close the port."""
        self.stop()
        with self._lock:
            if self._serial is not None:
                self._serial.close()
                self._serial = None

    def start(self) -> None:
        """Open the port if needed and poll every ``poll_interval`` seconds in a thread."""
        self.open()
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, name=f"id003-{self.config.device_name}", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop the polling thread (the port stays open)."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5.0)
        self._thread = None

    def __enter__(self) -> BillValidator:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.poll_once()
            except Exception:  # never let the poll loop die
                log.exception("%s: unexpected error in poll loop", self.config.device_name)
            self._stop.wait(self.config.poll_interval)

    # ------------------------------------------------------------------ public API

    def enable(self) -> None:
        """Accept notes and tickets (sent as INHIBIT 0x00 at the next poll)."""
        self._want_enabled = True

    def disable(self) -> None:
        """Inhibit acceptance (sent as INHIBIT 0x01 at the next poll)."""
        self._want_enabled = False

    @property
    def last_status(self) -> Status | int | None:
        """The last status the validator reported (a :class:`Status`), None before any."""
        code = self._last_status
        if code is None:
            return None
        try:
            return Status(code)
        except ValueError:
            return code

    @property
    def ready(self) -> bool:
        """True once reset and configured, with no fault and comms up."""
        return not (
            self._needs_reset or self._needs_config or self._active_faults or self._comm.lost
        )

    @property
    def active_faults(self) -> frozenset[EventKind]:
        """Fault kinds currently reported by the validator."""
        return frozenset(self._active_faults)

    @property
    def stats(self) -> CommStats:
        """Snapshot of the communication counters."""
        return self._stats

    def version(self) -> str | None:
        """The validator's version string (VERSION REQUEST), None if it does not answer."""
        with self._lock:
            reply = self._transact(Command.VERSION_REQUEST)
        if reply is None or reply.command != Command.VERSION_REQUEST:
            return None
        return reply.data.decode("ascii", errors="replace").strip()

    def poll_once(self) -> Status | int | None:
        """Send one STATUS REQUEST and act on the answer; returns the status (None if none)."""
        with self._lock:
            self.open()
            frame = self._transact(Command.STATUS_REQUEST)
            if frame is None:
                return None
            self._handle_status(frame)
            return self.last_status

    # ------------------------------------------------------------------ wire

    def _bump(self, **fields: int) -> None:
        self._stats = replace(
            self._stats, **{k: getattr(self._stats, k) + v for k, v in fields.items()}
        )

    def _discard_input(self) -> None:
        assert self._serial is not None
        stale = self._decoder.reset()
        waiting = self._serial.in_waiting
        if waiting:
            stale += self._serial.read(waiting)
        if stale:
            self._bump(stale_bytes=len(stale))
            log.warning(
                "%s: discarded %d unexpected bytes: %s",
                self.config.device_name,
                len(stale),
                stale.hex(" "),
            )

    def _write(self, data: bytes) -> bool:
        assert self._serial is not None
        try:
            self._serial.write(data)
            self._serial.flush()
        except (serial.SerialException, OSError) as exc:
            log.warning("%s: write failed: %s", self.config.device_name, exc)
            return False
        return True

    def _read_frame(self, what: str) -> Frame | None:
        """Read one good frame within ``response_timeout``; log everything discarded."""
        assert self._serial is not None
        name = self.config.device_name
        deadline = time.monotonic() + self.config.response_timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                pending = self._decoder.reset()
                self._bump(timeouts=1)
                log.warning(
                    "%s: no valid response to %s within %.0f ms%s",
                    name,
                    what,
                    self.config.response_timeout * 1000,
                    f" (partial frame dropped: {pending.hex(' ')})" if pending else "",
                )
                return None
            try:
                chunk = self._serial.read(max(1, self._serial.in_waiting))
            except (serial.SerialException, OSError) as exc:
                log.warning("%s: read failed: %s", name, exc)
                return None
            if not chunk:
                continue
            garbled = False
            for item in self._decoder.feed(chunk):
                if isinstance(item, Frame):
                    self._bump(frames_ok=1)
                    return item
                assert isinstance(item, BadFrame)
                self._bump(bad_frames=1)
                log.warning(
                    "%s: bad frame (%s) in response to %s: %s",
                    name,
                    item.reason.value,
                    what,
                    item.raw.hex(" "),
                )
                garbled = garbled or item.reason is BadFrameReason.BAD_CRC
            if garbled and not self._decoder.pending:
                return None  # the response was destroyed; resend rather than wait

    def _transact(self, command: Command, data: bytes = b"") -> Frame | None:
        """Send ``command`` and return the validator's answer, retrying garbled exchanges."""
        request = encode_frame(command, data)
        what = command.name
        for attempt in range(1 + self.config.max_retries):
            if attempt:
                log.info(
                    "%s: resending %s (attempt %d)", self.config.device_name, what, attempt + 1
                )
            self._discard_input()
            if not self._write(request):
                self._comm.failure()
                continue
            reply = self._read_frame(what)
            if reply is None:
                self._comm.failure()
                continue
            if reply.command == Status.COMMUNICATION_ERROR:
                self._bump(device_comm_errors=1)
                log.warning(
                    "%s: validator reports a communication error for %s",
                    self.config.device_name,
                    what,
                )
                self._comm.failure()
                continue
            if reply.command == Status.INVALID_COMMAND:
                self._bump(invalid_commands=1)
                log.info(
                    "%s: validator answered INVALID COMMAND to %s", self.config.device_name, what
                )
            self._comm.success()
            return reply
        return None

    def _send_ack(self) -> None:
        """ACK a VEND VALID (the validator does not answer an ACK)."""
        self._discard_input()
        self._write(encode_frame(Command.ACK))

    # ------------------------------------------------------------------ host calls

    def _emit(
        self, kind: EventKind, detail: str, *, active: bool = True, code: int | None = None
    ) -> None:
        report_event(
            self._host, self.config.device_name, kind, detail, log=log, active=active, code=code
        )

    def _ask(self, fn: Callable[..., T], *args: Any, default: T) -> T:
        try:
            return fn(*args)
        except Exception as exc:
            log.exception("%s: host.%s raised", self.config.device_name, fn.__name__)
            self._emit(EventKind.HOST_ERROR, f"{fn.__name__} raised {exc!r}")
            return default

    # ------------------------------------------------------------------ status handling

    def _handle_status(self, frame: Frame) -> None:
        code, data = frame.command, frame.data
        previous, self._last_status = self._last_status, code
        entered = previous != code
        try:
            status = Status(code)
        except ValueError:
            log.warning("%s: unknown status 0x%02X %s", self.config.device_name, code, data.hex())
            return
        if status in _FAULT_KINDS:
            self._on_fault(status, data)
            return
        if status in _POWER_UP_KINDS:
            self._on_power_up(status, entered)
            return
        if status in (Status.ACK, Status.INVALID_COMMAND):
            log.warning(
                "%s: %s in answer to a status request", self.config.device_name, status.name
            )
            return
        self._clear_faults()
        if status in (Status.IDLING, Status.DISABLED, Status.INITIALIZE):
            self._on_idle(status)
        elif status is Status.ACCEPTING:
            self._close_cycle(self._end_reason())
        elif status is Status.ESCROW:
            self._on_escrow(data)
        elif status is Status.VEND_VALID:
            self._on_vend_valid()
        elif status is Status.STACKED:
            self._on_stacked()
        elif status is Status.REJECTING:
            if entered:
                reason = data[0] if data else None
                text = reject_reason(reason) if reason is not None else "no reason given"
                self._emit(EventKind.REJECTED, text, code=reason)
            self._close_cycle("rejected")
        elif status is Status.RETURNING:
            if self._cycle is not None:
                self._cycle.returning = True

    def _on_idle(self, status: Status) -> None:
        if status is not Status.INITIALIZE:
            self._close_cycle(self._end_reason())
        if self._needs_reset:
            self._reset()
        elif self._needs_config:
            self._configure()
        elif status is Status.IDLING and not self._want_enabled:
            self._set_inhibit(True)
        elif status is Status.DISABLED and self._want_enabled:
            self._set_inhibit(False)

    def _on_power_up(self, status: Status, entered: bool) -> None:
        kind = _POWER_UP_KINDS[status]
        cycle = self._cycle
        if entered:
            if kind is EventKind.POWER_UP_BILL_IN_STACKER and cycle is not None and cycle.credited:
                self._emit(
                    EventKind.POWER_UP,
                    f"power up with the note of {cycle.transaction_id} in the stacker "
                    "(already credited)",
                )
            else:
                where = {
                    EventKind.POWER_UP: "validator powered up",
                    EventKind.POWER_UP_BILL_IN_ACCEPTOR: "power up with a note in the acceptor "
                    "(it will be returned)",
                    EventKind.POWER_UP_BILL_IN_STACKER: "power up with a note in the stacker "
                    "(stacked without credit: reconcile with the pending escrow)",
                }[kind]
                self._emit(kind, where)
        self._close_cycle(kind.value)
        self._needs_reset = True
        self._needs_config = True
        self._reset()

    def _on_fault(self, status: Status, data: bytes) -> None:
        kind = _FAULT_KINDS[status]
        code = data[0] if data else None
        if kind not in self._active_faults:
            self._active_faults[kind] = code
            if status is Status.FAILURE:
                detail = failure_text(code) if code is not None else "failure"
            else:
                detail = status.name.lower().replace("_", " ")
            self._emit(kind, detail, code=code)
        if kind is not EventKind.PAUSE:
            self._close_cycle(kind.value)
        if status is Status.FAILURE:
            self._needs_reset = True

    def _clear_faults(self) -> None:
        for kind, code in list(self._active_faults.items()):
            del self._active_faults[kind]
            self._emit(kind, "cleared", active=False, code=code)

    # ------------------------------------------------------------------ reset / settings

    def _reset(self) -> None:
        reply = self._transact(Command.RESET)
        if reply is not None and reply.command == Status.ACK:
            self._needs_reset = False
            self._needs_config = True

    def _settings(self) -> list[tuple[Command, bytes]]:
        cfg = self.config
        bar_inhibit = 0xFC | (0 if cfg.accept_tickets else BAR_INHIBIT_TICKETS)
        return [
            (Command.SET_DENOMINATIONS, cfg.denominations.inhibit_mask()),
            (Command.SET_SECURITY, b"\x00\x00"),
            (Command.SET_BARCODE_FUNCTION, bytes((BARCODE_TYPE_I2OF5, cfg.ticket_digits))),
            (Command.SET_BAR_INHIBIT, bytes((bar_inhibit,))),
            (Command.SET_INHIBIT, b"\x00" if self._want_enabled else b"\x01"),
        ]

    def _configure(self) -> None:
        for command, data in self._settings():
            reply = self._transact(command, data)
            if reply is None:
                return  # comms trouble: try again at the next poll
            if reply.command != command or reply.data != data:
                if not self._config_rejected:
                    self._config_rejected = True
                    self._emit(
                        EventKind.CONFIG_REJECTED,
                        f"{command.name} {data.hex()} answered by "
                        f"{status_name(reply.command)} {reply.data.hex()}",
                    )
                return
        self._needs_config = False
        if self._config_rejected:
            self._config_rejected = False
            self._emit(EventKind.CONFIG_REJECTED, "settings accepted", active=False)
        log.info("%s: configured", self.config.device_name)

    def _set_inhibit(self, inhibit: bool) -> None:
        data = b"\x01" if inhibit else b"\x00"
        reply = self._transact(Command.SET_INHIBIT, data)
        if reply is not None and (reply.command, reply.data) != (Command.SET_INHIBIT, data):
            log.warning("%s: inhibit %s not echoed", self.config.device_name, data.hex())

    # ------------------------------------------------------------------ escrow cycle

    def _end_reason(self) -> str:
        cycle = self._cycle
        if cycle is None:
            return ""
        if not cycle.stack:
            return "refused"
        if cycle.returning:
            return "returned"
        return "ended_without_vend_valid"

    def _close_cycle(self, reason: str) -> None:
        cycle, self._cycle = self._cycle, None
        if cycle is None or cycle.credited or not cycle.host_knows:
            return
        log.info(
            "%s: escrow %s ended without credit: %s",
            self.config.device_name,
            cycle.transaction_id,
            reason,
        )
        self._ask(self._host.escrow_aborted, cycle.transaction_id, reason, default=None)

    def _on_escrow(self, data: bytes) -> None:
        cycle = self._cycle
        if cycle is not None and not cycle.credited and cycle.escrow_data == data:
            self._send_decision(cycle)  # the validator is still waiting: our command was lost
            return
        self._close_cycle("superseded")
        tid = str(uuid.uuid4())
        if data and data[0] == TICKET_ESCROW_CODE:
            cycle = self._ticket_cycle(tid, data)
        else:
            cycle = self._bill_cycle(tid, data)
        self._cycle = cycle
        self._send_decision(cycle)

    def _bill_cycle(self, tid: str, data: bytes) -> _Cycle:
        cents = self.config.denominations.cents_for(data[0]) if len(data) == 1 else None
        if cents is None:
            self._emit(
                EventKind.UNKNOWN_DENOMINATION,
                f"escrow data {data.hex() or '(none)'} not in the denomination table: returned",
                code=data[0] if data else None,
            )
            return _Cycle(tid, data, "unknown", stack=False, host_knows=False)
        decision = self._ask(self._host.escrow_decision, cents, tid, default=False)
        return _Cycle(tid, data, "bill", stack=decision is True, cents=cents)

    def _ticket_cycle(self, tid: str, data: bytes) -> _Cycle:
        digits = data[1:]
        if len(digits) != self.config.ticket_digits or not all(0x30 <= b <= 0x39 for b in digits):
            self._emit(
                EventKind.TICKET_MALFORMED,
                f"ticket barcode {digits!r} is not {self.config.ticket_digits} digits: returned",
            )
            return _Cycle(tid, data, "unknown", stack=False, host_knows=False)
        barcode = digits.decode("ascii")
        amount = self._ask(self._host.ticket_escrow, barcode, tid, default=None)
        valid = isinstance(amount, int) and not isinstance(amount, bool) and amount > 0
        if amount is not None and not valid:
            self._emit(EventKind.HOST_ERROR, f"ticket_escrow returned {amount!r}: ticket returned")
        return _Cycle(
            tid, data, "ticket", stack=valid, cents=amount if valid else 0, barcode=barcode
        )

    def _send_decision(self, cycle: _Cycle) -> None:
        command = Command.STACK_1 if cycle.stack else Command.RETURN
        reply = self._transact(command)
        if reply is None:
            log.warning(
                "%s: %s for %s not acknowledged; will resend while in escrow",
                self.config.device_name,
                command.name,
                cycle.transaction_id,
            )
        elif reply.command != Status.ACK:
            log.warning(
                "%s: %s answered by %s",
                self.config.device_name,
                command.name,
                status_name(reply.command),
            )

    def _on_vend_valid(self) -> None:
        cycle = self._cycle
        if cycle is not None and cycle.stack and not cycle.credited:
            cycle.credited = True  # before the call: an exception must not lead to a re-credit
            if cycle.kind == "ticket":
                self._ask(
                    self._host.ticket_credited,
                    cycle.barcode,
                    cycle.cents,
                    cycle.transaction_id,
                    default=None,
                )
            else:
                self._ask(self._host.bill_credited, cycle.cents, cycle.transaction_id, default=None)
            log.info(
                "%s: credited %d cents (%s %s)",
                self.config.device_name,
                cycle.cents,
                cycle.kind,
                cycle.transaction_id,
            )
        elif cycle is not None and cycle.credited:
            log.warning(
                "%s: VEND VALID repeated for %s (our ACK was lost): not credited again",
                self.config.device_name,
                cycle.transaction_id,
            )
        else:
            self._close_cycle("refused")
            self._emit(EventKind.VEND_UNMATCHED, "VEND VALID with no escrow the host accepted")
            self._cycle = _Cycle(
                str(uuid.uuid4()), b"", "unmatched", stack=True, host_knows=False, credited=True
            )
        self._send_ack()

    def _on_stacked(self) -> None:
        cycle = self._cycle
        if cycle is not None and cycle.stack and not cycle.credited:
            self._emit(
                EventKind.VEND_UNMATCHED,
                f"STACKED without VEND VALID for {cycle.transaction_id}: not credited",
            )
            self._close_cycle("stacked_without_vend_valid")
        else:
            self._close_cycle(self._end_reason())
