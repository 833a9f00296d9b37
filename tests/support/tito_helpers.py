"""Shared by the TITO and device-runtime tests: a cabinet booted on simulated devices.

Imported as ``support.tito_helpers`` (``tests/`` is on the import path; the test
folders are not packages).  The drivers run with short poll intervals; the simulators
move one state per poll, so scenarios do not depend on the machine's speed, and
:func:`wait_for` allows a generous time on a loaded machine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from support.cabinet import cash_out, opened
from support.fast_devices import FAST_PRINTER, FAST_VALIDATOR, wait_for  # noqa: F401 (re-exported)

from devices.id003 import Status
from devices.tcl import PrinterConfig
from engine.rng import SeededRandomSource
from engine.uth.round import Action
from kiosk.config import CabinetConfig, load_config
from kiosk.game.commands import (
    Deal,
    Decide,
    PlaceChip,
)
from kiosk.game.snapshot import MachinePhase
from kiosk.ledger.ledger import balance
from kiosk.station.devices import StationDevices
from kiosk.wiring.lone_cabinet import LoneCabinet


class Clock:
    """A settable clock for the machine (UTC)."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2025, 3, 14, 18, 30, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)  # distinct, increasing stamps
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)


@dataclass
class Cabinet:
    """One boot of the cabinet: its parts, its devices and their simulators."""

    config: CabinetConfig
    devices: StationDevices
    parts: LoneCabinet  # the cabinet's parts
    closed: bool = field(default=False)

    @property
    def vsim(self):
        assert self.devices.validator is not None and self.devices.validator.sim is not None
        return self.devices.validator.sim

    @property
    def psim(self):
        assert self.devices.printer is not None and self.devices.printer.sim is not None
        return self.devices.printer.sim

    @property
    def driver(self):
        """The validator's ID-003 driver (None when its port could not be opened)."""
        return self.devices.validator.driver if self.devices.validator is not None else None

    def snap(self):
        return self.parts.station.snapshot()

    def accepting(self) -> bool:
        """The validator is idle and enabled (a note inserted now is taken)."""
        v = self.driver
        return (
            v is not None and v.ready and not self.vsim.inhibited and v.last_status == Status.IDLING
        )

    def insert_bill(self, cents: int) -> None:
        assert wait_for(self.accepting), "validator not accepting"
        before = self.parts.table.ledger.meters.get("bills_in_count", 0)
        self.devices.insert_bill(cents)
        assert wait_for(
            lambda: self.parts.table.ledger.meters.get("bills_in_count", 0) == before + 1
        ), f"bill of {cents} not credited"

    def insert_ticket(self, barcode: str) -> None:
        """Insert a ticket and wait until the validator has stacked or returned it (the
        machine has answered the escrow and, for a stacked one, credited it by then)."""
        assert wait_for(self.accepting), "validator not accepting"
        returned, stacked = len(self.vsim.returned), len(self.vsim.cashbox)
        self.devices.insert_ticket(barcode)
        assert wait_for(
            lambda: len(self.vsim.returned) > returned or len(self.vsim.cashbox) > stacked
        ), f"ticket {barcode} neither stacked nor returned"

    def cash_out(self) -> None:
        """Cash out (once the printer has said whether it is ready) and wait until the
        ticket payout is settled (printed, failed or handpay)."""
        if self.devices.printer is not None:
            self.devices.printer.wait_told(5.0)
        cash_out(self.parts)
        assert wait_for(lambda: self.settled()), "the ticket payout never settled"

    def settled(self) -> bool:
        """No payout is being printed (settled: printed, failed, or a handpay)."""
        cashout = self.parts.station.snapshot().cashout
        return self.devices.idle and (cashout is None or cashout.method == "handpay")

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.devices.close()
            if self.parts.table.ledger is not None:
                self.parts.close()


def boot(
    config: CabinetConfig,
    *,
    clock: Clock | None = None,
    printer_config: PrinterConfig = FAST_PRINTER,
    start: bool = True,
    seed: int = 3,
) -> Cabinet:
    parts = opened(config, rng=SeededRandomSource(seed), clock=clock)
    devices = StationDevices(
        config,
        parts.link,
        validator_config=FAST_VALIDATOR,
        printer_config=printer_config,
        sim_seed=seed,
    )
    cab = Cabinet(config, devices, parts)
    if start:
        devices.start()
        assert wait_for(lambda: cab.driver is not None and cab.driver.ready), (
            "validator never became ready"
        )
    return cab


def cabinets(tmp_path: Path, **overrides: object) -> Iterator[Callable[..., Cabinet]]:
    """A fixture body: ``make(**boot_kw)`` boots on the same ledger; all closed after."""
    config = load_config(None, db_path=str(tmp_path / "uth.db"), **overrides)
    made: list[Cabinet] = []

    def make(**kw: object) -> Cabinet:
        cab = boot(config, **kw)  # type: ignore[arg-type]
        made.append(cab)
        return cab

    yield make
    for cab in made:
        cab.close()


def play_rounds(m: LoneCabinet, n: int, ante: int = 500) -> None:
    """Play ``n`` rounds, checking to the river and playing 1x (or folding)."""
    for _ in range(n):
        m.station.execute(PlaceChip("ante", ante))
        m.station.execute(Deal())
        while m.station.snapshot().phase == MachinePhase.IN_ROUND:
            legal = m.station.snapshot().legal
            m.station.execute(Decide(Action.PLAY_1X if Action.PLAY_1X in legal else Action.CHECK))


def balanced(m: LoneCabinet) -> dict:
    report = m.table.ledger.verify(replay=True)
    assert report.ok, report.problem
    bal = balance(report.meters)
    assert bal["balanced"], bal
    return bal
