"""A station's peripherals: its bill validator and its ticket printer, each the real
driver on its port (a real serial port, or ``"sim"``: the protocol simulator of
:mod:`devices.sim` on a pseudo-terminal, which the real driver opens), joined to the
game service through the station's :class:`~kiosk.station.port.StationPort`.  The lone
cabinet's devices and a table station's are this one class::

    devices = StationDevices(config, link)        # ports from the configuration
    devices = StationDevices.of_cabinet(config, link)   # the lone cabinet's: a job journal
    devices.start()        # simulators, then drivers; the printer tells the service "ready"
    ...
    devices.insert_bill(2000)                     # demo mode only (a simulated validator)
    ...
    devices.close()        # before the service closes

The validator accepts only the configuration's ``accepted_bills`` (its denomination
table) and is enabled only while the station may take money; the printer prints the
service's orders and reports each outcome (:mod:`kiosk.station.notes`,
:mod:`kiosk.station.printer`).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

from devices.id003 import USD_ASSIGNMENT, ValidatorConfig
from devices.tcl import PrinterConfig
from kiosk.config import CabinetConfig
from kiosk.station.notes import StationValidator
from kiosk.station.port import StationPort
from kiosk.station.printer import JOURNAL_FILE, StationPrinter

log = logging.getLogger(__name__)


class StationDevices:
    """The validator and the printer of one station (see the module).

    ``validator_port`` / ``printer_port`` default to the configuration's (``None`` in
    neither: no such device); ``validator_config`` / ``printer_config`` tune the drivers
    (tests use short poll intervals); ``prefix``: the validator's transactions are named
    after the station (over the link); ``printer_journal``: the printer's job journal
    (one file per printer), which lets a ticket cut off by a restart be decided from the
    printer's status (:mod:`kiosk.station.printer`)."""

    def __init__(
        self,
        config: CabinetConfig,
        link: StationPort,
        *,
        validator_port: str | None = None,
        printer_port: str | None = None,
        validator_config: ValidatorConfig | None = None,
        printer_config: PrinterConfig | None = None,
        sim_seed: int | None = None,
        prefix: bool = False,
        printer_journal: Path | None = None,
    ) -> None:
        self.config = config
        self.link = link
        known = {d.cents for d in USD_ASSIGNMENT.denominations}
        unknown = sorted(set(config.accepted_bills) - known)
        if unknown:
            log.warning("validator: no escrow code for %s cents: those notes are refused", unknown)
        table = USD_ASSIGNMENT.only(b for b in config.accepted_bills if b in known)
        tuned = replace(validator_config or ValidatorConfig(), denominations=table)
        port = validator_port or config.validator_port
        self.validator: StationValidator | None = (
            StationValidator(link, port, tuned, prefix=prefix, sim_seed=sim_seed) if port else None
        )
        port = printer_port or config.printer_port
        self.printer: StationPrinter | None = (
            StationPrinter(link, port, printer_config, sim_seed=sim_seed, journal=printer_journal)
            if port
            else None
        )

    @classmethod
    def of_cabinet(
        cls,
        config: CabinetConfig,
        link: StationPort,
        *,
        validator_config: ValidatorConfig | None = None,
        printer_config: PrinterConfig | None = None,
    ) -> StationDevices:
        """The lone cabinet's devices: its printer keeps its job journal beside the ledger
        (``config.db_path``'s folder), so a ticket cut off by a power cut is decided from
        the printer's status at the next power-up (printed: issued; never sent: the
        credits back) rather than voided and paid by hand."""
        return cls(
            config,
            link,
            validator_config=validator_config,
            printer_config=printer_config,
            printer_journal=config.db_path.parent / JOURNAL_FILE,
        )

    def start(self) -> StationDevices:
        """Start the simulators and the drivers; returns self."""
        if self.validator is not None:
            self.validator.start()
        if self.printer is not None:
            self.printer.start()
        log.info(
            "devices started: validator %s, printer %s",
            self.validator.port if self.validator else "none",
            self.printer.port if self.printer else "none",
        )
        return self

    def close(self) -> None:
        """Stop the drivers and the simulators (call before the service closes)."""
        for device in (self.printer, self.validator):
            if device is not None:
                try:
                    device.close()
                except Exception:
                    log.exception("closing %s", device)

    def __enter__(self) -> StationDevices:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- demo mode ---------------------------------------------------------------------
    @property
    def simulated(self) -> bool:
        """True when the validator is simulated (the demo keys can insert notes)."""
        return self.validator is not None and self.validator.sim is not None

    def insert_bill(self, cents: int) -> bool:
        """Put a note into the simulated validator (False when it is not simulated)."""
        return self.validator is not None and self.validator.insert_bill(cents)

    def insert_ticket(self, barcode: str) -> bool:
        """Put a ticket with ``barcode`` into the simulated validator."""
        return self.validator is not None and self.validator.insert_ticket(barcode)

    def printed_barcodes(self) -> list[str]:
        """Validation numbers of the tickets the simulated printer printed, oldest first
        (what a patron would carry to the validator)."""
        return self.printer.printed() if self.printer is not None else []

    @property
    def idle(self) -> bool:
        """No ticket being printed or waiting to be reported."""
        return self.printer is None or self.printer.idle
