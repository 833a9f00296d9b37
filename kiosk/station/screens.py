"""The station's window: the cabinet's screens over a :class:`StationController`.

    uth kiosk --station 2 --host 10.0.0.2 --port 7300 --window 800x480

:func:`run_station` connects to the host with the station's pairing, waits for the
host's first snapshot, and runs the cabinet's :class:`~kiosk.ui.app.App` on the
controller until the window closes.  The operator menu is the host's: on a station the
key switch (and the demo's corner sequence, and a touch with the door open) shows
:class:`OperatorNote` ("Operator menu: use the table host") until the key turns back
or the note is touched.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from kiosk.config import CabinetConfig
from kiosk.link.pairing import StationPairing
from kiosk.station.controller import StationController
from kiosk.station.notes import StationValidator
from kiosk.table.remote import RemoteTable
from kiosk.ui import theme
from kiosk.ui.app import App
from kiosk.ui.i18n import N_, _
from kiosk.ui.layout import DESIGN_H, DESIGN_W
from kiosk.ui.scenes.base import Scene
from kiosk.wiring import NO_DISPLAY, ScreenOptions, video_driver

#: The operator menu at a station.
OPERATOR_NOTE = N_("Operator menu: use the table host")


class OperatorNote(Scene):
    """What the operator key shows at a station: the menu is the table host's."""

    name = "operator"
    player = False

    def enter(self, **kwargs: Any) -> None:
        self.back = self.app.previous if self.app.previous != "operator" else "table"

    def _leave(self) -> bool:
        self.app.go(self.back)
        return True

    def on_touch(self, pos: tuple[int, int]) -> bool:
        return self._leave()

    def on_command(self, name: str, arg: object = None) -> bool:
        return self._leave() if name in ("key_switch", "back", "close_popup") else False

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(self.app.felt, (0, 0))
        self.ui.fitted(
            surface,
            _(OPERATOR_NOTE),
            40,
            theme.GOLD,
            DESIGN_W - 160,
            bold=True,
            center=(DESIGN_W / 2, DESIGN_H / 2),
        )


def station_app(
    controller: StationController, options: ScreenOptions, config: CabinetConfig
) -> App:
    """The cabinet's screens over ``controller`` (pygame's display started)."""
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
    app.scenes["operator"] = OperatorNote(app)
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


def run_station(config: CabinetConfig, options: ScreenOptions, run: StationRun) -> int:
    """Connect, run the station's screens, disconnect; returns the exit code."""
    pairing = StationPairing.load(run.folder)
    if video_driver(options) is None:
        return NO_DISPLAY
    remote = RemoteTable(pairing, run.host, run.port)
    validator = StationValidator(remote, run.validator) if run.validator else None
    insert = validator.insert_bill if validator is not None and validator.sim else None
    controller = StationController(remote, config, insert_bill=insert)
    if validator is not None:
        validator.start()
    try:
        if not controller.start(run.connect_s):
            print(f"error: no answer from the table host at {run.host}:{run.port}", file=sys.stderr)
            return 1
        app = station_app(controller, options, config)
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
        controller.stop()
        pygame.quit()
