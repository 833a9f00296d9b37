"""The lone cabinet built from its configuration, and torn down.

    config -> Machine.open(config, rng=)   (the game service with its one local station)
           -> startup_check(machine.table, SEAT, demo=config.demo)  (the program against its manifest)
           -> rtp_gate(machine.table, config).start()  (the paytable's return proven first)
           -> StationDevices.of_cabinet(config, machine.link).start()  (validator, printer)
           -> start_slot_system(machine.table, own_process=True)  (the casino's SAS link, when
              configured: a child process, whose port calls this process answers)
           -> start_door(config, machine.door)  (the slot door switch, when configured)
           -> TournamentContext(config.db_path) -> App(...)

:func:`run_cabinet` is ``uth kiosk``: it builds the cabinet, runs the screens until the
window closes (or SIGTERM, or the demo's scripted player has played its rounds), and
tears everything down in the reverse order, whatever happened (the ledger records an
orderly power down).

It first says which SDL video driver it got, and refuses the drivers that show nothing
(:data:`kiosk.ui.screen_options.HEADLESS_DRIVERS`: SDL falls back to ``offscreen`` when
there is no display) unless they are asked for: ``ScreenOptions(headless=True)`` or
``UTH_HEADLESS=1`` in the environment (tests and benchmarks).
"""

from __future__ import annotations

import logging
import signal
import sys
from collections.abc import Callable

import pygame

from engine.rng import SeededRandomSource
from kiosk.cabinet import Machine
from kiosk.config import CabinetConfig
from kiosk.friends.context import TournamentContext
from kiosk.integrity.startup import startup_check
from kiosk.machine.errors import PlayDisabled
from kiosk.machine.rtp_record import rtp_gate
from kiosk.machine.state import SEAT
from kiosk.sas.start import start_slot_system
from kiosk.station.devices import StationDevices
from kiosk.station.operator_local import LEDGER_PAGES, LocalOperator, TableOperations
from kiosk.ui.app import App
from kiosk.ui.autoplay import ScriptedPlayer
from kiosk.ui.demo import DemoSimulators
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.operator import OperatorScene
from kiosk.ui.screen_options import NO_DISPLAY, ScreenOptions, video_driver
from kiosk.wiring.door import start_door

log = logging.getLogger(__name__)


def operator_menu(machine: Machine) -> Callable[[App], Scene]:
    """The cabinet's operator menu: the one menu over the in-process operator port of its
    station, with the ledger's own pages (:data:`LEDGER_PAGES`) and their reads."""
    port = LocalOperator(machine.table, SEAT, extra=LEDGER_PAGES)
    operations = TableOperations(machine.table, SEAT, machine.station)
    return lambda app: OperatorScene(app, port, operations)


def run_cabinet(config: CabinetConfig, options: ScreenOptions, *, fps: int = 60,
                max_frames: int | None = None) -> int:
    """Build the cabinet, run its screens (``max_frames`` ``None``: until the window
    closes), tear it down; returns the exit code (:data:`NO_DISPLAY` when there is no
    display to show them on)."""
    if video_driver(options) is None:
        return NO_DISPLAY
    config.db_path.parent.mkdir(parents=True, exist_ok=True)
    rng = SeededRandomSource(options.seed) if options.seed is not None else None
    machine = Machine.open(config, rng=rng, printer_decides=True)  # the devices' printer
    try:
        startup_check(machine.table, SEAT, demo=config.demo)  # the program against its manifest: tilt or warn
    except PlayDisabled as exc:  # no ledger to record it: the ledger's tilt stops play and says why
        log.error("program check not recorded as a tilt: %s", exc)
    rtp_gate(machine.table, config).start()  # play waits for the paytable's proven return
    devices = StationDevices.of_cabinet(config, machine.link)
    slot_system = start_slot_system(machine.table, own_process=True)
    tournament = TournamentContext(config.db_path)
    friends_network(tournament, config)
    door = None
    try:
        devices.start()
        door = start_door(config, machine.door)
        demo = devices.simulated and options.demo_keys
        pygame.init()
        app = App(machine, options.size, fullscreen=options.size is None, demo=demo,
                  payout=DemoSimulators(devices) if demo else None, language=options.language,
                  sound=options.sound, casino_name=config.casino_name, machine_number=config.machine_number,
                  tournament=tournament, operator_scene=operator_menu(machine))
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
        if door is not None:
            door.stop()
        if slot_system is not None:
            slot_system.stop()
        devices.close()
        machine.close()
        tournament.close()
        pygame.quit()


def friends_network(tournament: TournamentContext, config: CabinetConfig) -> None:
    """The friends games' network settings of the configuration, on the tournament."""
    tournament.friends_bind = config.friends_bind
    tournament.friends_port = config.friends_port
    tournament.friends_hosts = list(config.friends_hosts)
    tournament.friends_link_host_pairing = config.friends_link_host_pairing
    tournament.friends_link_port = config.friends_link_port
    tournament.friends_link_pairing = config.friends_link_pairing
    tournament.friends_link_hosts = list(config.friends_link_hosts)
