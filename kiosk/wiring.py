"""The one composition root: the cabinet built from its configuration, and torn down.

    config -> Machine.open(config, rng=)   (the game service with its one local station)
           -> startup_check(machine, demo=config.demo)  (the program against its manifest)
           -> StationDevices(config, machine.link).start()  (validator and printer)
           -> start_slot_system(machine.table)  (the casino's SAS link, when configured)
           -> TournamentContext(config.db_path) -> App(...)

:func:`run_cabinet` is ``uth kiosk``: it builds the cabinet, runs the screens until the
window closes (or SIGTERM, or the demo's scripted player has played its rounds), and
tears everything down in the reverse order, whatever happened (the ledger records an
orderly power down).

It first says which SDL video driver it got, and refuses the drivers that show nothing
(:data:`HEADLESS_DRIVERS`: SDL falls back to ``offscreen`` when there is no display)
unless they are asked for: ``ScreenOptions(headless=True)`` or ``UTH_HEADLESS=1`` in the
environment (tests and benchmarks).
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from dataclasses import dataclass

import pygame

from engine.rng import SeededRandomSource
from kiosk.config import CabinetConfig
from kiosk.integrity.startup import startup_check
from kiosk.machine.controller import Machine
from kiosk.sas.game_port import TablePort
from kiosk.sas.service import SasService, serve_port
from kiosk.station.devices import StationDevices
from kiosk.table.table import Table
from kiosk.tournament.context import TournamentContext
from kiosk.ui import memory, sdl_hints
from kiosk.ui.app import App
from kiosk.ui.autoplay import ScriptedPlayer
from kiosk.ui.demo import DemoSimulators

log = logging.getLogger(__name__)

#: SDL video drivers that draw into memory only: a cabinet on one shows a black screen.
HEADLESS_DRIVERS = frozenset({"offscreen", "dummy"})
#: The environment variable that asks for a headless driver on purpose.
HEADLESS_ENV = "UTH_HEADLESS"
#: The exit code when the screens cannot be shown.
NO_DISPLAY = 3


@dataclass(frozen=True)
class ScreenOptions:
    """How the screens run: ``size`` ``None`` is fullscreen at the display's size;
    ``seed`` makes the shuffles reproducible (testing only, never on a real cabinet)."""

    size: tuple[int, int] | None = None
    language: str = "en"
    sound: bool = True
    demo_keys: bool = True  # the demo keys work when the devices are simulated
    seed: int | None = None
    headless: bool = False  # run on an invisible SDL driver on purpose (also $UTH_HEADLESS=1)
    autoplay_rounds: int | None = None  # demo: a scripted player plays this many rounds, then the kiosk ends


def video_driver(options: ScreenOptions) -> str | None:
    """Start SDL's video and return the driver it picked, or ``None`` (with the reason
    on stderr) when it picked one that shows nothing and headless was not asked for."""
    sdl_hints.prefer_native_framebuffer()  # no OpenGL probe: ~115 MB less on X11
    memory.bound_heap()
    try:
        pygame.display.init()
    except pygame.error as exc:
        print(f"error: no video driver: {exc}", file=sys.stderr)
        return None
    driver = pygame.display.get_driver()
    asked = options.headless or os.environ.get(HEADLESS_ENV, "") == "1"
    log.info("video driver: %s", driver)
    if driver in HEADLESS_DRIVERS and not asked:
        print(f"error: SDL picked the {driver!r} video driver, which shows nothing (no display?). "
              f"Set DISPLAY or WAYLAND_DISPLAY, or SDL_VIDEODRIVER (e.g. kmsdrm); "
              f"to run headless on purpose set {HEADLESS_ENV}=1.", file=sys.stderr)
        pygame.display.quit()
        return None
    return driver


def run_cabinet(config: CabinetConfig, options: ScreenOptions, *, fps: int = 60,
                max_frames: int | None = None) -> int:
    """Build the cabinet, run its screens (``max_frames`` ``None``: until the window
    closes), tear it down; returns the exit code (:data:`NO_DISPLAY` when there is no
    display to show them on)."""
    if video_driver(options) is None:
        return NO_DISPLAY
    config.db_path.parent.mkdir(parents=True, exist_ok=True)
    rng = SeededRandomSource(options.seed) if options.seed is not None else None
    machine = Machine.open(config, rng=rng)
    startup_check(machine, demo=config.demo)  # the program against its manifest: tilt or warn
    devices = StationDevices(config, machine.link)
    slot_system = start_slot_system(machine.table)
    tournament = TournamentContext(config.db_path)
    friends_network(tournament, config)
    try:
        devices.start()
        demo = devices.simulated and options.demo_keys
        pygame.init()
        app = App(machine, options.size, fullscreen=options.size is None, demo=demo,
                  payout=DemoSimulators(devices) if demo else None, language=options.language,
                  sound=options.sound, casino_name=config.casino_name, machine_number=config.machine_number,
                  tournament=tournament)
        player = None
        if options.autoplay_rounds is not None:
            if not demo:
                print("error: --autoplay needs the demo's simulated devices", file=sys.stderr)
                return 2
            player = ScriptedPlayer(options.autoplay_rounds, options.seed)
        previous = signal.signal(signal.SIGTERM, lambda _signum, _frame: app.stop())
        try:
            return app.run(fps=fps, max_frames=max_frames, player=player)
        finally:
            signal.signal(signal.SIGTERM, previous)
    finally:
        if slot_system is not None:
            slot_system.stop()
        devices.close()
        machine.close()
        tournament.close()
        pygame.quit()


def start_slot_system(table: Table) -> SasService | None:
    """The link to the casino's slot system when the configuration names its port
    (``sas_port``): every station of ``table`` at its address from ``sas_address``, the
    system's validation and redemption as configured; None without one."""
    config = table.config
    if config.sas_port is None or table.ledger is None:
        return None
    table.use_slot_system(config.sas_system_validation, config.sas_ticket_redemption)
    return serve_port(TablePort(table), config.db_path, config.sas_port, config.sas_address)


def friends_network(tournament: TournamentContext, config: CabinetConfig) -> None:
    """The friends games' network settings of the configuration, on the tournament."""
    tournament.friends_bind = config.friends_bind
    tournament.friends_port = config.friends_port
    tournament.friends_hosts = list(config.friends_hosts)
    tournament.friends_link_host_pairing = config.friends_link_host_pairing
    tournament.friends_link_port = config.friends_link_port
    tournament.friends_link_pairing = config.friends_link_pairing
    tournament.friends_link_hosts = list(config.friends_link_hosts)
