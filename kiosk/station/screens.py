"""The station's window: the cabinet's screens over a :class:`StationController`.

    uth kiosk --station 2 --host 10.0.0.2 --port 7300 --window 800x480

:func:`run_station` connects to the host with the station's pairing, waits for the
host's first snapshot, and runs the cabinet's :class:`~kiosk.ui.app.App` on the
controller until the window closes.  The operator menu is the host's: on a station the
key switch (and the demo's corner sequence, and a touch with the door open) opens
:class:`~kiosk.station.operator_scene.StationOperatorScene`, a PIN and then the table's
pages and actions answered by the host.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pygame

from kiosk.config import CabinetConfig
from kiosk.link.pairing import WITNESS_FILE, StationPairing
from kiosk.station.controller import StationController
from kiosk.station.notes import StationValidator
from kiosk.station.operator_link import OperatorLink
from kiosk.station.operator_scene import StationOperatorScene
from kiosk.station.printer import StationPrinter
from kiosk.table.remote import RemoteTable
from kiosk.table.witness import HeadWitness
from kiosk.ui.app import App
from kiosk.ui.i18n import _
from kiosk.wiring import NO_DISPLAY, ScreenOptions, video_driver


def station_app(
    controller: StationController,
    remote: RemoteTable,
    options: ScreenOptions,
    config: CabinetConfig,
) -> App:
    """The cabinet's screens over ``controller``, the operator menu over ``remote`` (its
    link to the host; pygame's display started)."""
    pygame.init()
    app = App(
        controller,
        options.size,
        fullscreen=options.size is None,
        demo=options.demo_keys,
        language=options.language,
        sound=options.sound,
        casino_name=config.casino_name,
        machine_number=f"{config.machine_number} · "
        + _("Station {n}").format(n=controller.station),
    )
    app.scenes["operator"] = StationOperatorScene(app, OperatorLink(remote))
    return app


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
    """Connect, run the station's screens, disconnect; returns the exit code."""
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
    printer = StationPrinter(remote, run.printer).start() if run.printer else None
    try:
        if not controller.start(run.connect_s):
            print(f"error: no answer from the table host at {run.host}:{run.port}", file=sys.stderr)
            return 1
        app = station_app(controller, remote, options, config)
        try:
            code = app.run(fps=run.fps, max_frames=run.frames)
            if run.screenshot is not None:
                app.screenshot(run.screenshot)
            return code
        finally:
            app.close()
    finally:
        if validator is not None:
            validator.close()
        if printer is not None:
            printer.close()
        controller.stop()
        pygame.quit()
