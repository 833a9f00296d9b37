"""The cabinet's peripherals joined to the controller: bill validator and ticket printer.

Each device runs on the port :mod:`kiosk.config` names: a real serial port
(``/dev/serial/by-id/...``), or ``"sim"``, in which case the protocol simulator of
:mod:`devices.sim` is started on a pseudo-terminal and the *real* driver opens it, so a
demo cabinet goes through the same ID-003 handshake and TCL print job as a real one::

    devices = CabinetDevices(config)
    machine = Machine.open(config, payout=devices.payout)   # may resume a cash-out
    devices.start(machine)        # drivers on their ports, the printing thread
    ...
    devices.validator_sim.insert_bill(2000)                 # demo mode only
    ...
    devices.close()               # before machine.close()

The validator driver calls the machine from its poll thread, the printer driver from its
monitor thread and the ticket payout from its own thread; the machine serialises them
with its lock.  The validator is enabled only while the machine can take money (no tilt,
door closed, no payout in progress, and the ledger can record): it follows the
machine's snapshots.

A port that cannot be opened is reported to the machine as a ``comm_error`` tilt of that
device (the cabinet stays up for the attendant); it is not retried until restart.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from devices.host import EventKind, ValidatorHost, make_event
from devices.id003 import USD_ASSIGNMENT, BillValidator, ValidatorConfig
from devices.sim import Id003Simulator, TclSimulator
from devices.tcl import PrinterConfig, TicketPrinter
from kiosk.config import SIMULATED_PORT, CabinetConfig
from kiosk.hardware.ticket_payout import TicketPayout
from kiosk.machine.snapshot import MachineSnapshot

log = logging.getLogger(__name__)


class DevicesHost(ValidatorHost, Protocol):
    """What the devices need of the controller: the validator's host callbacks, device
    events, and its snapshots (to enable the validator only while it takes money)."""

    def snapshot(self) -> MachineSnapshot: ...

    def subscribe(self, callback: Callable[[MachineSnapshot], None]) -> Callable[[], None]: ...

    def ledger_can_record(self) -> bool:
        """Probe the ledger (False, with a tilt, when it cannot record)."""
        ...


class CabinetDevices:
    """The validator and the printer of one cabinet, with their simulators in demo mode.

    ``validator_config`` / ``printer_config`` tune the drivers (tests use short poll
    intervals); the device names are always ``validator`` and ``printer``.
    """

    def __init__(
        self,
        config: CabinetConfig,
        *,
        validator_config: ValidatorConfig | None = None,
        printer_config: PrinterConfig | None = None,
        sim_seed: int | None = None,
    ) -> None:
        self.config = config
        known = {d.cents for d in USD_ASSIGNMENT.denominations}
        unknown = sorted(set(config.accepted_bills) - known)
        if unknown:
            log.warning("validator: no escrow code for %s cents: those notes are refused", unknown)
        table = USD_ASSIGNMENT.only(b for b in config.accepted_bills if b in known)
        self.validator_config = replace(
            validator_config or ValidatorConfig(), device_name="validator", denominations=table
        )
        self.printer_config = replace(printer_config or PrinterConfig(), device_name="printer")
        self.validator_sim: Id003Simulator | None = None
        self.printer_sim: TclSimulator | None = None
        if config.validator_port == SIMULATED_PORT:
            self.validator_sim = Id003Simulator(seed=sim_seed)
        if config.printer_port == SIMULATED_PORT:
            self.printer_sim = TclSimulator(seed=sim_seed)
        self.payout = TicketPayout(config)
        self.validator: BillValidator | None = None
        self.printer: TicketPrinter | None = None
        self.machine: DevicesHost | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._accepting = False  # the validator was last told to accept
        self._probing = False

    # -- ports ---------------------------------------------------------------------------
    @property
    def validator_port(self) -> str:
        sim = self.validator_sim
        return sim.port if sim is not None else self.config.validator_port

    @property
    def printer_port(self) -> str:
        sim = self.printer_sim
        return sim.port if sim is not None else self.config.printer_port

    @property
    def simulated(self) -> bool:
        """True when the validator is simulated (the demo keys can insert bills)."""
        return self.validator_sim is not None

    # -- life cycle ------------------------------------------------------------------------
    def start(self, machine: DevicesHost) -> CabinetDevices:
        """Start the simulators, then the drivers on their ports with ``machine`` as their
        host, then the printing thread; returns self."""
        self.machine = machine
        for sim in (self.validator_sim, self.printer_sim):
            if sim is not None:
                sim.start()
        self.validator = BillValidator(self.validator_port, machine, self.validator_config)
        try:
            self.validator.start()
        except Exception as exc:  # no such port, permission denied...
            self._unavailable("validator", self.validator_port, exc)
            self.validator = None
        printer = TicketPrinter(self.printer_port, machine, self.printer_config)
        try:
            printer.open()
            printer.start()
        except Exception as exc:
            self._unavailable("printer", self.printer_port, exc)
        self.printer = printer
        self.payout.attach(printer)
        self.payout.run()
        self._unsubscribe = machine.subscribe(self._follow)
        self._follow(machine.snapshot())
        log.info(
            "devices started: validator %s, printer %s", self.validator_port, self.printer_port
        )
        return self

    def _unavailable(self, device: str, port: str, exc: Exception) -> None:
        log.error("%s: cannot open %s: %s", device, port, exc)
        if self.machine is None:
            return
        try:
            self.machine.device_event(
                make_event(device, EventKind.COMM_ERROR, f"cannot open {port}: {exc}")
            )
        except Exception:
            log.exception("%s: the machine refused the event", device)

    def _follow(self, snap: MachineSnapshot) -> None:
        """Enable the validator only while the machine can take money (called under the
        machine's lock: it only sets the driver's flag, never waits on the device).

        Before it is enabled (at start-up, after a tilt clears) the ledger is probed: a
        ledger that cannot record keeps it inhibited, with the machine's
        ``ledger_write`` tilt."""
        validator, machine = self.validator, self.machine
        if validator is None or self._probing:
            return
        accept = snap.playable and snap.cashout is None
        if accept and not self._accepting and machine is not None:
            self._probing = True  # the probe's own notice comes back here
            try:
                accept = machine.ledger_can_record()
            finally:
                self._probing = False
        self._accepting = accept
        if accept:
            validator.enable()
        else:
            validator.disable()

    def close(self, timeout: float = 5.0) -> None:
        """Stop everything (the printing thread first finishes a job in hand, up to
        ``timeout`` seconds).  Call before closing the machine."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.payout.close(timeout)
        for driver in (self.validator, self.printer):
            if driver is not None:
                try:
                    driver.close()
                except Exception:
                    log.exception("closing %s", driver)
        for sim in (self.validator_sim, self.printer_sim):
            if sim is not None:
                sim.stop()

    def __enter__(self) -> CabinetDevices:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- demo mode ---------------------------------------------------------------------------
    def insert_bill(self, cents: int) -> bool:
        """Put a note into the simulated validator (False when it is not simulated)."""
        if self.validator_sim is None:
            return False
        self.validator_sim.insert_bill(cents)
        return True

    def insert_ticket(self, barcode: str) -> bool:
        """Put a ticket with ``barcode`` into the simulated validator."""
        if self.validator_sim is None:
            return False
        self.validator_sim.insert_ticket(barcode)
        return True

    def printed_barcodes(self) -> list[str]:
        """Validation numbers of the tickets the simulated printer printed, oldest first
        (the barcode region's text: what a patron would carry to the validator)."""
        sim = self.printer_sim
        if sim is None:
            return []
        with sim.lock:
            tickets = list(sim.printed)
        return [t.text(t.barcode_region) for t in tickets if t.barcode_region]
