"""A player station of a shared table built and run: ``uth kiosk --station N``.

    pairing folder -> RemoteTable(pairing, host, port, witness=HeadWitness(...))
                   -> StationValidator / StationPrinter (its devices, over the link)
                   -> StationController(remote, config) -> station_app(...) (the screens)

:func:`run_station` connects, runs the screens until the window closes, and tears
everything down in the reverse order.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass
from pathlib import Path

import pygame

from kiosk.config import CabinetConfig
from kiosk.game.commands import SetDoor
from kiosk.link.pairing import WITNESS_FILE, StationPairing
from kiosk.station.controller import StationController
from kiosk.station.notes import StationValidator
from kiosk.station.operator_link import OperatorLink
from kiosk.station.operator_remote import RemoteOperator
from kiosk.station.printer import JOURNAL_FILE, StationPrinter
from kiosk.station.remote import RemoteTable
from kiosk.station.witness import HeadWitness
from kiosk.ui.screen_options import NO_DISPLAY, ScreenOptions, video_driver
from kiosk.ui.station.screens import station_app
from kiosk.wiring.door import start_door

log = logging.getLogger(__name__)

#: The station printer's job journal in the station's pairing folder.


@dataclass(frozen=True)
class StationRun:
    """Where a station connects and how long it runs (``frames`` None: until the window
    closes; ``screenshot``: a file saved at the end, for tests)."""

    host: str
    port: int
    folder: Path
    fps: int = 60
    frames: int | None = None
    screenshot: Path | None = None
    connect_s: float = 15.0
    validator: str | None = None  # the bill validator's port ("sim": simulated)
    printer: str | None = None  # the ticket printer's port ("sim": simulated)


def run_station(config: CabinetConfig, options: ScreenOptions, run: StationRun) -> int:
    """A player station of a shared table (``uth kiosk --station N``): its link to the
    host (the host's ledger head witnessed in the pairing folder), its validator and
    printer, its controller and screens; connect, run, disconnect; returns the exit code."""
    pairing = StationPairing.load(run.folder)
    if video_driver(options) is None:
        return NO_DISPLAY
    witness = HeadWitness(Path(run.folder) / WITNESS_FILE)  # keeps the host's ledger head
    remote = RemoteTable(pairing, run.host, run.port, witness=witness)
    validator = StationValidator(remote, run.validator) if run.validator else None
    insert = validator.insert_bill if validator is not None and validator.sim else None
    real_validator = validator is not None and validator.sim is None
    controller = StationController(
        remote, config, insert_bill=insert, demo_notes=not real_validator
    )
    if validator is not None:
        validator.start()
    journal = Path(run.folder) / JOURNAL_FILE  # the printer's last job, across restarts
    printer = StationPrinter(remote, run.printer, journal=journal).start() if run.printer else None
    door = None
    try:
        if not controller.start(run.connect_s):
            print(f"error: no answer from the table host at {run.host}:{run.port}", file=sys.stderr)
            return 1
        door = start_door(config, lambda open: controller.execute(SetDoor(open)))
        app = station_app(controller, RemoteOperator(OperatorLink(remote)), options, config)
        try:
            code = app.run(fps=run.fps, max_frames=run.frames)
            if run.screenshot is not None:
                app.screenshot(run.screenshot)
            return code
        finally:
            app.close()
    finally:
        if door is not None:
            door.stop()
        if validator is not None:
            validator.close()
        if printer is not None:
            printer.close()
        controller.stop()
        pygame.quit()
