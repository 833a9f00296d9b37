"""The station's window: the cabinet's screens over a station's controller (a
:class:`~kiosk.ui.model.Controller`: :class:`kiosk.station.controller.StationController`).

    uth kiosk --station 2 --host 10.0.0.2 --port 7300 --window 800x480

:func:`kiosk.wiring.station.run_station` connects to the host with the station's pairing, waits
for the host's first snapshot, and runs :func:`station_app` (the cabinet's
:class:`~kiosk.ui.app.App`) on the controller until the window closes.  The operator menu is the host's: on a station the
key switch (and the demo's corner sequence, and a touch with the door open) opens
:class:`~kiosk.ui.scenes.operator.scene.OperatorScene` (the cabinet's one menu) over the
station's operator port: a PIN and then the table's pages and actions answered by the host.
"""

from __future__ import annotations

import pygame

from kiosk.config import CabinetConfig
from kiosk.station.operator_port import OperatorPort
from kiosk.ui.app import App
from kiosk.ui.model import Controller
from kiosk.ui.scenes.operator.scene import OperatorScene
from kiosk.ui.screen_options import ScreenOptions


def station_app(
    controller: Controller,
    operator: OperatorPort,
    options: ScreenOptions,
    config: CabinetConfig,
) -> App:
    """The cabinet's screens over ``controller``, the operator menu over the operator port
    ``operator`` (the host's answers; pygame's display started)."""
    pygame.init()
    app = App(
        controller,
        options.size,
        fullscreen=options.size is None,
        demo=options.demo_keys,
        language=options.language,
        sound=options.sound,
        casino_name=config.casino_name,
        machine_number=config.machine_number,
        operator_scene=lambda app: OperatorScene(app, operator),
    )
    app.station = operator.station  # named in the player's language on each screen
    return app
