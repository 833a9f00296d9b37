"""The one composition root: the cabinet built from its configuration, and torn down.

    config -> CabinetDevices(config) -> Machine.open(config, rng=, payout=devices.payout)
           -> devices.start(machine) -> TournamentContext(config.db_path) -> App(...)

:func:`run_cabinet` is ``uth kiosk``: it builds the cabinet, runs the screens until the
window closes, and tears everything down in the reverse order, whatever happened.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from engine.rng import SeededRandomSource
from kiosk.config import CabinetConfig
from kiosk.hardware.runtime import CabinetDevices
from kiosk.machine.controller import Machine
from kiosk.tournament.context import TournamentContext
from kiosk.ui.app import App
from kiosk.ui.demo import DemoSimulators


@dataclass(frozen=True)
class ScreenOptions:
    """How the screens run: ``size`` ``None`` is fullscreen at the display's size;
    ``seed`` makes the shuffles reproducible (testing only, never on a real cabinet)."""

    size: tuple[int, int] | None = None
    language: str = "en"
    sound: bool = True
    demo_keys: bool = True  # the demo keys work when the devices are simulated
    seed: int | None = None


def run_cabinet(config: CabinetConfig, options: ScreenOptions, *, fps: int = 60,
                max_frames: int | None = None) -> int:
    """Build the cabinet, run its screens (``max_frames`` ``None``: until the window
    closes), tear it down; returns the exit code."""
    config.db_path.parent.mkdir(parents=True, exist_ok=True)
    rng = SeededRandomSource(options.seed) if options.seed is not None else None
    devices = CabinetDevices(config)
    machine = Machine.open(config, rng=rng, payout=devices.payout)
    tournament = TournamentContext(config.db_path)
    try:
        devices.start(machine)
        demo = devices.simulated and options.demo_keys
        pygame.init()
        app = App(machine, options.size, fullscreen=options.size is None, demo=demo,
                  payout=DemoSimulators(devices) if demo else None, language=options.language,
                  sound=options.sound, casino_name=config.casino_name, machine_number=config.machine_number,
                  tournament=tournament)
        return app.run(fps=fps, max_frames=max_frames)
    finally:
        devices.close()
        machine.close()
        tournament.close()
        pygame.quit()
