"""JCM ID-003 bill validator driver over pyserial.

The driver is the ID-003 *host*: it polls the validator with STATUS REQUEST and reacts to
what it reports.  One note (or TITO ticket) goes through an *escrow cycle*::

    IDLING -> ACCEPTING -> ESCROW(code) --host decides--> STACK-1 -> STACKING
           -> VEND VALID --host ACKs--> STACKED -> IDLING
                                   \\-> RETURN -> RETURNING -> IDLING

Each cycle (:mod:`devices.id003.escrow`) gets a ``transaction_id``; the controller (a
:class:`~devices.host.ValidatorHost`) is asked once per cycle and credited at most once per
cycle, at the first VEND VALID, however many times the validator repeats VEND VALID because
our ACK was lost.  A VEND VALID whose credit the controller could not record is not ACKed:
the note waits in VEND VALID until it is.

Communication is "send, read one frame, retry" (:mod:`devices.id003.link`);
``comm_error_threshold`` consecutive failures raise a ``comm_error`` event that is cleared
by the next good exchange.  Nothing on the wire can crash the poll loop.

A port that vanishes (EIO, the cable pulled: :mod:`devices.polling`) raises ``comm_error``
at once and ends an escrow cycle not yet credited with ``escrow_aborted("port_lost")``;
the polls then reopen the port on a back-off, and once it is back the unit is reset and
configured again and the first good exchange clears ``comm_error``.

Threading: :meth:`BillValidator.start` runs the poll loop in a thread
(:class:`~devices.polling.SerialPoller`) and every host callback is made from that thread.
Tests and tools may instead call :meth:`poll_once`.
"""

from __future__ import annotations

import logging

import serial

from devices.comm_health import CommHealth
from devices.host import DeviceEventKind, ValidatorHost, report_event
from devices.id003.codes import (
    BAR_INHIBIT_TICKETS,
    BARCODE_TYPE_I2OF5,
    Command,
    Status,
    failure_text,
    reject_reason,
    status_name,
)
from devices.id003.config import ValidatorConfig
from devices.id003.escrow import EscrowCycles
from devices.id003.frame import Frame
from devices.id003.link import CommStats, Id003Link
from devices.polling import PolledDriver, PortOptions, SerialPoller

log = logging.getLogger("devices.id003")

_FAULT_KINDS: dict[Status, DeviceEventKind] = {
    Status.STACKER_FULL: DeviceEventKind.STACKER_FULL,
    Status.STACKER_OPEN: DeviceEventKind.STACKER_OPEN,
    Status.JAM_IN_ACCEPTOR: DeviceEventKind.ACCEPTOR_JAM,
    Status.JAM_IN_STACKER: DeviceEventKind.STACKER_JAM,
    Status.PAUSE: DeviceEventKind.PAUSE,
    Status.CHEATED: DeviceEventKind.CHEATED,
    Status.FAILURE: DeviceEventKind.FAILURE,
}

_POWER_UP_KINDS: dict[Status, DeviceEventKind] = {
    Status.POWER_UP: DeviceEventKind.POWER_UP,
    Status.POWER_UP_BILL_IN_ACCEPTOR: DeviceEventKind.POWER_UP_BILL_IN_ACCEPTOR,
    Status.POWER_UP_BILL_IN_STACKER: DeviceEventKind.POWER_UP_BILL_IN_STACKER,
}


class BillValidator(PolledDriver):
    """ID-003 host driver for one validator on ``port``.

    ``host`` receives decisions requests, credits and events (see :mod:`devices.host`).
    The validator starts inhibited; call :meth:`enable` to accept notes.
    """

    def __init__(
        self, port: str, host: ValidatorHost, config: ValidatorConfig | None = None
    ) -> None:
        self.config = cfg = config or ValidatorConfig()
        options = PortOptions(parity=serial.PARITY_EVEN)
        super().__init__(
            SerialPoller(
                port,
                self._poll,
                cfg,
                protocol="id003",
                log=log,
                options=options,
                on_lost=self._port_lost,
            )
        )
        self._host = host
        health = CommHealth(cfg.comm_error_threshold, self._emit, f"failed exchanges with {port}")
        self._link = Id003Link(self._poller, health, cfg, log)
        self._want_enabled = False
        self._needs_reset = True
        self._needs_config = True
        self._config_rejected = False
        self._last_status: int | None = None
        self._escrow = EscrowCycles(host, self._emit, self._send_decision, cfg, log)
        self._active_faults: dict[DeviceEventKind, int | None] = {}

    # ------------------------------------------------------------------ lifecycle

    def open(self) -> None:
        """Open the serial port (9600 8E1).  The first poll resets and configures the unit."""
        with self._poller.lock:
            if self._poller.open():
                self._needs_reset = True
                self._needs_config = True

    def start(self) -> None:
        """Open the port if needed and poll every ``poll_interval`` seconds in a thread."""
        self.open()
        super().start()

    def _poll(self) -> None:
        self.poll_once()

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
            self._needs_reset or self._needs_config or self._active_faults or self._link.lost
        )

    @property
    def active_faults(self) -> frozenset[DeviceEventKind]:
        """Fault kinds currently reported by the validator."""
        return frozenset(self._active_faults)

    @property
    def stats(self) -> CommStats:
        """Snapshot of the communication counters."""
        return self._link.stats

    def version(self) -> str | None:
        """The validator's version string (VERSION REQUEST), None if it does not answer."""
        with self._poller.lock:
            reply = self._link.transact(Command.VERSION_REQUEST)
        if reply is None or reply.command != Command.VERSION_REQUEST:
            return None
        return reply.data.decode("ascii", errors="replace").strip()

    def poll_once(self) -> Status | int | None:
        """Send one STATUS REQUEST and act on the answer; returns the status (None if none,
        or while a lost port cannot be reopened yet)."""
        with self._poller.lock:
            if self._poller.lost and not self._poller.recover():
                return None
            self.open()
            frame = self._link.transact(Command.STATUS_REQUEST)
            if frame is None:
                return None
            self._handle_status(frame)
            return self.last_status

    # ------------------------------------------------------------------ host calls

    def _emit(
        self, kind: DeviceEventKind, detail: str, *, active: bool = True, code: int | None = None
    ) -> None:
        report_event(
            self._host, self.config.device_name, kind, detail, log=log, active=active, code=code
        )

    def _port_lost(self, detail: str) -> None:
        """The port vanished: tilt now, abort the escrow in flight, start over when back."""
        self._link.port_lost(detail)
        self._escrow.interrupted("port_lost")
        self._last_status = None
        self._needs_reset = True
        self._needs_config = True

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
            self._escrow.finish()
        elif status is Status.ESCROW:
            self._escrow.escrow(data)
        elif status is Status.VEND_VALID:
            self._on_vend_valid()
        elif status is Status.STACKED:
            self._escrow.stacked()
        elif status is Status.REJECTING:
            if entered:
                reason = data[0] if data else None
                text = reject_reason(reason) if reason is not None else "no reason given"
                self._emit(DeviceEventKind.REJECTED, text, code=reason)
            self._escrow.close("rejected")
        elif status is Status.RETURNING:
            self._escrow.returning()

    def _on_idle(self, status: Status) -> None:
        if status is not Status.INITIALIZE:
            self._escrow.finish()
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
        credited = self._escrow.credited_transaction
        if entered:
            if kind is DeviceEventKind.POWER_UP_BILL_IN_STACKER and credited is not None:
                self._emit(
                    DeviceEventKind.POWER_UP,
                    f"power up with the note of {credited} in the stacker (already credited)",
                )
            else:
                where = {
                    DeviceEventKind.POWER_UP: "validator powered up",
                    DeviceEventKind.POWER_UP_BILL_IN_ACCEPTOR: "power up with a note in the acceptor "
                    "(it will be returned)",
                    DeviceEventKind.POWER_UP_BILL_IN_STACKER: "power up with a note in the stacker "
                    "(stacked without credit: reconcile with the pending escrow)",
                }[kind]
                self._emit(kind, where)
        self._escrow.close(kind.value)
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
        if kind is not DeviceEventKind.PAUSE:
            self._escrow.close(kind.value)
        if status is Status.FAILURE:
            self._needs_reset = True

    def _clear_faults(self) -> None:
        for kind, code in list(self._active_faults.items()):
            del self._active_faults[kind]
            self._emit(kind, "cleared", active=False, code=code)

    # ------------------------------------------------------------------ reset / settings

    def _reset(self) -> None:
        reply = self._link.transact(Command.RESET)
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
            reply = self._link.transact(command, data)
            if reply is None:
                return  # comms trouble: try again at the next poll
            if reply.command != command or reply.data != data:
                if not self._config_rejected:
                    self._config_rejected = True
                    self._emit(
                        DeviceEventKind.CONFIG_REJECTED,
                        f"{command.name} {data.hex()} answered by "
                        f"{status_name(reply.command)} {reply.data.hex()}",
                    )
                return
        self._needs_config = False
        if self._config_rejected:
            self._config_rejected = False
            self._emit(DeviceEventKind.CONFIG_REJECTED, "settings accepted", active=False)
        log.info("%s: configured", self.config.device_name)

    def _set_inhibit(self, inhibit: bool) -> None:
        data = b"\x01" if inhibit else b"\x00"
        reply = self._link.transact(Command.SET_INHIBIT, data)
        if reply is not None and (reply.command, reply.data) != (Command.SET_INHIBIT, data):
            log.warning("%s: inhibit %s not echoed", self.config.device_name, data.hex())

    # ------------------------------------------------------------------ escrow cycle

    def _send_decision(self, stack: bool, transaction_id: str) -> None:
        command = Command.STACK_1 if stack else Command.RETURN
        reply = self._link.transact(command)
        if reply is None:
            log.warning(
                "%s: %s for %s not acknowledged; will resend while in escrow",
                self.config.device_name,
                command.name,
                transaction_id,
            )
        elif reply.command != Status.ACK:
            log.warning(
                "%s: %s answered by %s",
                self.config.device_name,
                command.name,
                status_name(reply.command),
            )

    def _on_vend_valid(self) -> None:
        if self._escrow.vend_valid():
            self._link.send_ack()
