"""The lone cabinet built from its configuration, and torn down.

    config -> LoneCabinet.open(config, rng=)   (the game service with its one local station)
           -> startup_check(cabinet.table, SEAT, demo=config.demo)  (the program against its manifest)
           -> rtp_gate(cabinet.table, config).start()  (the paytable's return proven first)
           -> StationDevices.of_cabinet(config, cabinet.link).start()  (validator, printer)
           -> start_slot_system(cabinet.table, own_process=True)  (the casino's SAS link, when
              configured: a child process, whose port calls this process answers)
           -> start_door(config, SetDoor at cabinet.station)  (the slot door switch, when configured)
           -> TournamentContext(config.db_path) -> cabinet_app(cabinet, ...)  (the screens
              over the station's controller, the operator menu over its operator port)

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
from typing import Any

import pygame

from engine.rng import SeededRandomSource
from kiosk.config import CabinetConfig
from kiosk.friends.context import TournamentContext
from kiosk.game.commands import SetDoor
from kiosk.game.errors import PlayDisabled
from kiosk.game.paytables.rtp_record import rtp_gate
from kiosk.game.vocabulary import SEAT
from kiosk.integrity.startup import startup_check
from kiosk.ledger.records import TicketRecord
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
from kiosk.wiring.lone_cabinet import LoneCabinet

log = logging.getLogger(__name__)


def operator_menu(cabinet: LoneCabinet) -> Callable[[App], Scene]:
    """The cabinet's operator menu: the one menu over the in-process operator port of its
    station, with the ledger's own pages (:data:`LEDGER_PAGES`) and their reads."""
    port = LocalOperator(cabinet.table, SEAT, extra=LEDGER_PAGES)
    operations = TableOperations(cabinet.table, SEAT, cabinet.station)
    return lambda app: OperatorScene(app, port, operations)


def run_cabinet(
    config: CabinetConfig, options: ScreenOptions, *, fps: int = 60, max_frames: int | None = None
) -> int:
    """Build the cabinet, run its screens (``max_frames`` ``None``: until the window
    closes), tear it down; returns the exit code (:data:`NO_DISPLAY` when there is no
    display to show them on)."""
    if video_driver(options) is None:
        return NO_DISPLAY
    config.db_path.parent.mkdir(parents=True, exist_ok=True)
    rng = SeededRandomSource(options.seed) if options.seed is not None else None
    cabinet = LoneCabinet.open(config, rng=rng)  # the devices' printer prints its tickets
    try:
        startup_check(
            cabinet.table, SEAT, demo=config.demo
        )  # the program against its manifest: tilt or warn
    except PlayDisabled as exc:  # no ledger to record it: the ledger's tilt stops play and says why
        log.error("program check not recorded as a tilt: %s", exc)
    rtp_gate(cabinet.table, config).start()  # play waits for the paytable's proven return
    devices = StationDevices.of_cabinet(config, cabinet.link)
    slot_system = start_slot_system(cabinet.table, own_process=True)
    tournament = TournamentContext(config.db_path)
    friends_network(tournament, config)
    door = None
    try:
        devices.start()
        door = start_door(config, lambda open: cabinet.station.execute(SetDoor(open)))
        demo = devices.simulated and options.demo_keys
        pygame.init()
        payout = DemoSimulators(devices, lambda v: ticket(cabinet, v)) if demo else None
        app = cabinet_app(
            cabinet,
            options.size,
            fullscreen=options.size is None,
            demo=demo,
            payout=payout,
            language=options.language,
            sound=options.sound,
            casino_name=config.casino_name,
            machine_number=config.machine_number,
            tournament=tournament,
        )
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
        cabinet.close()
        tournament.close()
        pygame.quit()


def cabinet_app(cabinet: LoneCabinet, size: tuple[int, int] | None, **options: Any) -> App:
    """The screens of ``cabinet`` at ``size``: over its station's controller, the
    operator menu over its operator port (:func:`operator_menu`); ``options`` are
    :class:`App`'s."""
    return App(cabinet.station, size, operator_scene=operator_menu(cabinet), **options)


def ticket(cabinet: LoneCabinet, validation: str) -> TicketRecord | None:
    """The ledger's record of the ticket ``validation`` printed at ``cabinet`` (any
    status), None when unknown or no ledger is open."""
    ledger = cabinet.table.ledger
    return None if ledger is None else cabinet.table.read(lambda _audit: ledger.ticket(validation))


def friends_network(tournament: TournamentContext, config: CabinetConfig) -> None:
    """The friends games' network settings of the configuration, on the tournament."""
    tournament.friends_bind = config.friends_bind
    tournament.friends_port = config.friends_port
    tournament.friends_hosts = list(config.friends_hosts)
    tournament.friends_link_host_pairing = config.friends_link_host_pairing
    tournament.friends_link_port = config.friends_link_port
    tournament.friends_link_pairing = config.friends_link_pairing
    tournament.friends_link_hosts = list(config.friends_link_hosts)
