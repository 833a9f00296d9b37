"""The kiosk's main loop: one current scene, the tilt overlay, frame pacing, watchdog.

Tests and the benchmark drive :class:`App` without a real screen or input device::

    app = App(controller, (800, 480))   # a station's controller (kiosk.ui.model.Controller)
    app.feed(Command("bill", 2000))   # or Touch((x, y)), Key("space")
    app.step(1 / 60)                  # update and draw one frame
    app.screenshot("table.png")

:meth:`App.run` is the same thing in a loop, fed by pygame's real events through
:func:`kiosk.ui.input.translate` and pinging systemd's watchdog every frame.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any

import pygame

from kiosk.friends.context import TournamentContext
from kiosk.game.commands import SetDoor
from kiosk.game.snapshot import MachinePhase
from kiosk.ui import i18n, memory, sdl_hints, sdnotify, theme
from kiosk.ui.autoplay import ScriptedPlayer
from kiosk.ui.cards import CardRenderer
from kiosk.ui.demo import DemoDevices, DemoSimulators, DemoTicketPayout
from kiosk.ui.events import Command, InputEvent, Key, Quit, Touch
from kiosk.ui.frames import Layered, Still
from kiosk.ui.input import translate_all
from kiosk.ui.layout import DESIGN_H, DESIGN_W, Layout
from kiosk.ui.model import Controller, Model
from kiosk.ui.prefs import Preferences
from kiosk.ui.scenes.attract import AttractScene
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.cashout import CashoutScene
from kiosk.ui.scenes.chrome import RamClearNotice, TiltOverlay
from kiosk.ui.scenes.help import HelpScene
from kiosk.ui.scenes.operator.intents import Intent
from kiosk.ui.scenes.operator.scene import OperatorScene
from kiosk.ui.scenes.paytable import PaytableScene
from kiosk.ui.scenes.recall import RecallScene
from kiosk.ui.scenes.scene_map import Scenes
from kiosk.ui.scenes.settings import SettingsScene
from kiosk.ui.scenes.table.compositor import merge
from kiosk.ui.scenes.table.scene import TableScene
from kiosk.ui.shortcuts import DEMO_ONLY_COMMANDS, EXIT_COMMAND
from kiosk.ui.sound import Sounds
from kiosk.ui.text import TextCache
from kiosk.ui.widgets import Painter

#: Seconds without a touch, at zero credits, before the attract screen comes back.
ATTRACT_AFTER = 60.0
#: Hidden operator sequence (demo mode only, never on an installed cabinet): touch these
#: corners in order within this many seconds.
CORNER_SEQUENCE = ("tl", "tr", "br", "bl")
CORNER_WINDOW = 6.0
#: The corner squares (design units) belong to the hidden sequence: touches there never
#: reach the scene, so the sequence cannot press a button on its way.
CORNER_SIZE = 40


class Global(Enum):
    """The app's own commands, whatever the scene (:meth:`App._global`)."""

    OPERATOR_KEY = "operator_key"  # the key switch (F12 in demo mode)
    DOOR = "door"  # the main door switch, simulated (F9 in demo mode)
    BILL = "bill"  # a demo bill (arg: its cents)
    TICKET = "ticket"  # the last printed ticket, put back in (demo)
    LANGUAGE = "language"  # the next language, when the player's scene does not take it


#: The app's commands by name (a :class:`~kiosk.ui.events.Command`'s ``name``).
GLOBALS: dict[str, Global] = {g.value: g for g in Global}
#: The cabinet's switches (the operator key switch, the main door): they act over every
#: dialog and overlay.
SWITCHES = frozenset({Global.OPERATOR_KEY, Global.DOOR})
#: Window events after which the whole frame is shown again (another window's pixels
#: may be where this one was covered).
EXPOSED = frozenset(
    {pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED, pygame.WINDOWRESTORED, pygame.WINDOWSHOWN}
)
#: Seconds an idle screen (a frame that changed nothing) sleeps at most before looking
#: again (the controller's news, a dialog's flashing border); input wakes it within
#: :data:`WAIT_SLICE`.
IDLE_WAIT = 0.1
#: Seconds the main loop sleeps at a time while it waits for the next frame; input that
#: arrives meanwhile is taken when the slice ends (SDL's own wait looks for events every
#: millisecond, which costs an idle screen more than its frames).
WAIT_SLICE = 1 / 60
#: Seconds between frames, at least, while a dialog covers the scene (dimmed beneath
#: it, the scene's animation needs few frames; the dialog's border flashes at 2 Hz).
DIALOG_FRAME_INTERVAL = 0.25
#: A file the main loop writes its frames to when it ends (``bench/pi.py``): each
#: frame's start (``time.monotonic``), its seconds of update, draw and show, and the
#: drawing thread's CPU seconds in them.
FRAME_LOG_ENV = "UTH_FRAME_LOG"
#: Demo stand-ins for money going in (a bill, the last printed ticket).
MONEY_IN = frozenset({Global.BILL, Global.TICKET})
#: The player's screens that give way to the attract screen after :data:`ATTRACT_AFTER`
#: idle seconds between rounds.
IDLE_TO_ATTRACT = frozenset(
    {TableScene.name, PaytableScene.name, HelpScene.name, RecallScene.name, SettingsScene.name}
)

#: Every screen of the cabinet.  ``attract`` -> ``table`` (bets, decisions, results) with
#: ``paytable``, ``help``, ``recall`` and ``settings`` a touch away; ``cashout`` while a
#: payout runs; ``operator`` behind the key switch (the ``operator_key`` input, F12 in demo
#: mode), a touch while the main door is open, or in demo mode the hidden corner
#: sequence, and a PIN (on an installed cabinet the key switch only).  The Tournament button on the attract screen opens ``tournament_setup`` ->
#: ``tournament`` (the table; free play, chips are points) with ``tournament_history``,
#: ``tournament_rankings``, ``tournament_results`` and ``tournament_records``;
#: ``tournament_tables`` (choose your table), ``tournament_guide`` (how to play) and
#: ``tournament_invite`` (Invite a friend: the QR code and game code of a game hosted here),
#: ``tournament_join`` and ``tournament_remote`` (a seat in a game another cabinet hosts).
SCENES: tuple[type[Scene], ...] = (
    AttractScene,
    TableScene,
    PaytableScene,
    HelpScene,
    RecallScene,
    SettingsScene,
    CashoutScene,
    OperatorScene,
)
#: The tournament's scenes, by name: "module:class", imported and built when first shown
#: (the tournament's and the friends games' code stays out of a cabinet whose player
#: never opens it).
TOURNAMENT_SCENES: dict[str, str] = {
    "tournament_setup": "kiosk.ui.scenes.tournament.setup:TournamentSetupScene",
    "tournament": "kiosk.ui.scenes.tournament.table:TournamentTableScene",
    "tournament_history": "kiosk.ui.scenes.tournament.history:TournamentHistoryScene",
    "tournament_rankings": "kiosk.ui.scenes.tournament.rankings:TournamentRankingsScene",
    "tournament_results": "kiosk.ui.scenes.tournament.results:TournamentResultsScene",
    "tournament_records": "kiosk.ui.scenes.tournament.records:TournamentRecordsScene",
    "tournament_tables": "kiosk.ui.scenes.tournament.tables:TournamentTablesScene",
    "tournament_guide": "kiosk.ui.scenes.tournament.guide:TournamentGuideScene",
    "tournament_invite": "kiosk.ui.scenes.tournament.invite:TournamentInviteScene",
    "tournament_join": "kiosk.ui.scenes.tournament.join:TournamentJoinScene",
    "tournament_remote": "kiosk.ui.scenes.tournament.table:JoinedTableScene",
}


class App:
    """The screens of one cabinet over ``controller``, its station's controller
    (:class:`kiosk.ui.model.Controller`: a :class:`kiosk.station.controller.StationController`,
    a lone cabinet's or a table station's).

    ``casino_name`` and ``machine_number`` are shown on the screens (the configuration's);
    ``operator_scene`` builds the operator menu over its operator port (the wiring's: the
    in-process port at a cabinet, the table host's at a station; without it the menu
    has no port and offers no page); ``tournament`` is the cabinet's tournament (default: one with no database, whose games
    are neither saved nor recorded); ``payout`` the demo keys' way to the (simulated)
    devices when ``demo`` is on."""

    def __init__(
        self,
        controller: Controller,
        size: tuple[int, int] | None = (1280, 720),
        *,
        fullscreen: bool = False,
        demo: bool = True,
        payout: DemoTicketPayout | DemoSimulators | None = None,
        language: str = i18n.DEFAULT_LANGUAGE,
        sound: bool = True,
        start: str = "attract",
        title: str = "Ultimate Texas Hold'em",
        casino_name: str = "",
        machine_number: str = "",
        tournament: TournamentContext | None = None,
        operator_scene: Callable[[App], Scene] | None = None,
        installed: bool | None = None,
    ) -> None:
        sdl_hints.prefer_native_framebuffer()  # before the display starts: no OpenGL probe
        memory.bound_heap()
        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if fullscreen else 0
        if fullscreen and not size:
            size = (0, 0)
        pygame.display.set_caption(title)
        self.screen = pygame.display.set_mode(size or (1280, 720), flags)
        if fullscreen:
            pygame.mouse.set_visible(False)
        self.layout = Layout(self.screen.get_size())
        self.now = 0.0
        self.last_input = 0.0
        self.frames = 0
        self.running = True
        self.dirty: list[pygame.Rect] | None = None
        self.casino_name = casino_name
        self.machine_number = machine_number
        self.station = 0  # a station's number at a shared table (0: a lone cabinet)
        self.tournament = tournament if tournament is not None else TournamentContext(None)
        i18n.set_language(language)
        self.default_language = language
        self.text = TextCache()
        self._language = i18n.generation()
        self.cards = CardRenderer(self.text)
        self.painter = Painter(self.layout, self.text)
        self.prefs = Preferences()
        self.sounds = Sounds(enabled=sound)
        self.model = Model(controller, clock=lambda: self.now)
        if payout is not None:
            payout.clock = lambda: self.now
        self.demo = DemoDevices(self.model, payout) if demo else None
        self.demo_mode = demo
        #: An installed cabinet (default: the station's configuration says so): only the
        #: key switch opens the operator menu, never a touch (the corners, the open door).
        self.installed = bool(controller.config.installed if installed is None else installed)
        self.watchdog = sdnotify.Watchdog()
        self._corners: list[tuple[str, float]] = []
        self._felt: pygame.Surface | None = None
        builders: dict[str, Callable[[App], Scene] | str] = {cls.name: cls for cls in SCENES}
        builders.update(TOURNAMENT_SCENES)
        if operator_scene is not None:  # the one menu, over the port the wiring gives it
            builders[OperatorScene.name] = operator_scene
        self.scenes = Scenes(self, builders)
        for cls in SCENES:  # the cabinet's own scenes are built at once, as they always were
            self.scenes[cls.name]
        #: Each scene as the frames draw it (only when what it shows changed), made with
        #: the scene.
        self.stills: dict[str, Still] = {}
        self.inputs = 0  # input events fed so far: each may change what a scene shows
        self.scene: Scene = self.scenes[start]
        self.previous = start
        self.scene.enter()
        self.tilt_overlay = TiltOverlay(self)
        self.notice = RamClearNotice(self)
        self.layered = Layered()  # the scene under a dialog, while one shows

    # -- kit shared by scenes ---------------------------------------------------------
    @property
    def felt(self) -> pygame.Surface:
        if self._felt is None:
            self._felt = theme.felt(self.layout.size)
        return self._felt

    @property
    def shown(self) -> Still:
        """The current scene as the frames draw it."""
        still = self.stills.get(self.scene.name)
        if still is None:
            still = Still(self.scene, self._shown_state, lambda: self.painter.log is not None)
            self.stills[self.scene.name] = still
        return still

    def _shown_state(self) -> tuple[Any, ...]:
        """What every scene shows besides its own look (:meth:`Scene.look`)."""
        model = self.model
        return (
            model.version,
            id(model.note),
            i18n.generation(),
            self.layout.size,
            self.scene.pressed_id(),
            self.inputs,
        )

    def sounds_play(self, name: str) -> None:
        self.sounds.play(name, self.prefs.sound)

    def go(self, name: str, **kwargs: Any) -> None:
        """Make scene ``name`` current."""
        if self.scene.name != name:
            self.scene.leave()
            self.scene.invalidate()  # repainted whole when next entered: its last frame's ops let go
            self.forget_words()  # a screen's words go with it: the next one's are made as it draws
            self.previous = self.scene.name
            self.scene = self.scenes[name]
            if not self.scene.draws_felt:
                self._felt = None  # made again (the same pixels) by the next scene that draws it
            memory.release_free_memory()  # hand the last scene's freed heap back
        self.scene.enter(**kwargs)
        self.shown.invalidate()

    def forget_words(self) -> None:
        """Let the drawn text and widgets go (made again as the screens draw them)."""
        self.text.surfaces.clear()
        self.painter.surfaces.clear()

    @property
    def tilted(self) -> bool:
        s = self.model.snap
        return bool(s.tilts) or bool(s.door_open)

    # -- input ------------------------------------------------------------------------
    def feed(self, event: InputEvent) -> None:
        """Dispatch one input event (a touch, a key, a button of the cabinet).

        A dialog is modal: while the RAM-clear notice or a scene's dialog
        (:meth:`Scene.modal`) shows, or a tilt suspends play on a player screen, nothing
        behind it acts; only the cabinet's key switch and door switch (:data:`SWITCHES`)
        still work, and the dialog's own controls.  Otherwise global keys come first, then
        the current scene."""
        self.last_input = self.now
        self.inputs += 1
        if isinstance(event, Quit):
            self.running = False
            return
        if isinstance(event, Command) and event.name == EXIT_COMMAND:
            if self.demo_mode:  # an installed cabinet is stopped by its service manager
                self.running = False
            return
        command = (
            event.command
            if isinstance(event, Key)
            else event
            if isinstance(event, Command)
            else None
        )
        if (
            isinstance(event, Key)
            and not self.demo_mode
            and command
            and command.name in DEMO_ONLY_COMMANDS
        ):
            return  # the keyboard stands in for the key and door switches in demo mode only
        player = self.scene.player
        touch_opens = not self.installed  # an installed cabinet: the key switch only
        if isinstance(event, Touch) and player and self.model.snap.door_open and touch_opens:
            self.go("operator", via="door")  # the attendant's screen, behind the door
            return
        dialog = (player and self.notice.showing) or self.scene.modal()
        demo = self.demo_mode or self.model.demo
        if isinstance(event, Touch) and demo and touch_opens and not dialog:
            # the corners open the menu wherever the screens say DEMO (its PINs are the
            # demo's), also with the demo keys off (``--no-demo``)
            seq = self._corner_sequence(event.pos)
            if seq is not None:
                if seq:
                    self.go("operator", via="corners")
                return
        if dialog or self._player_blocked():
            if command is not None and GLOBALS.get(command.name) in SWITCHES:
                self._global(command)
            elif self._player_blocked():
                pass  # play is suspended: the tilt overlay takes everything
            elif player and self.notice.showing:
                self.notice.handle(event)
            else:
                self.scene.handle(event)
            return
        if isinstance(event, Key):
            if self.scene.handle(event):
                return
            if command is None:
                return
            event = command
        what = GLOBALS.get(event.name) if isinstance(event, Command) else None
        if isinstance(event, Command) and what in SWITCHES:
            self._global(event)
            return
        if isinstance(event, Command) and what in MONEY_IN:
            if player:  # a demo bill or ticket goes in on the player's screens only
                self._global(event)
            return
        if isinstance(event, Command) and what is Global.LANGUAGE and player:
            if not self.scene.handle(event):
                i18n.set_language(i18n.next_language())
            return
        self.scene.handle(event)

    def _player_blocked(self) -> bool:
        return self.tilted and self.scene.player

    def _global(self, cmd: Command) -> None:
        match GLOBALS.get(cmd.name):
            case Global.OPERATOR_KEY:
                if isinstance(self.scene, OperatorScene):
                    self.scene.on_intent(Intent.KEY_SWITCH)
                else:
                    self.go(OperatorScene.name, via="key")
            case Global.DOOR if self.demo_mode:
                self.model.send(SetDoor(not self.model.snap.door_open))
            case Global.BILL if self.demo is not None:
                if self.demo.insert_bill(int(str(cmd.arg))):
                    self.sounds_play("bill")
            case Global.TICKET if self.demo is not None:
                if self.demo.insert_ticket():
                    self.sounds_play("bill")

    def _corner_sequence(self, pos: tuple[int, int]) -> bool | None:
        """None when ``pos`` is not in a corner; True when it completes the sequence."""
        x, y = self.layout.to_design(pos)
        c = CORNER_SIZE
        corner = ("t" if y < c else "b" if y > DESIGN_H - c else "") + (
            "l" if x < c else "r" if x > DESIGN_W - c else ""
        )
        if len(corner) != 2:
            return None
        self._corners = [(k, t) for k, t in self._corners if self.now - t <= CORNER_WINDOW]
        self._corners.append((corner, self.now))
        seq = tuple(k for k, _t in self._corners[-len(CORNER_SEQUENCE) :])
        if seq == CORNER_SEQUENCE:
            self._corners.clear()
            return True
        return False

    # -- frames -------------------------------------------------------------------------
    def step(self, dt: float, draw: bool = True) -> None:
        """Advance ``dt`` seconds: pick up controller changes, update and draw a frame."""
        self.now += dt
        self.frames += 1
        if self._language != i18n.generation():  # the last language's drawn words go
            self._language = i18n.generation()
            self.forget_words()
        self.model.refresh()
        if self.model.poll_refusals() and self.scene.name == AttractScene.name:
            self.go("table")  # a returned ticket says why where the player's messages show
        if self.demo is not None:
            if self.demo.poll() is not None:
                self.sounds_play("cashout")
        self._auto_navigate()
        self.scene.update(dt)
        if draw:
            dialog = self._dialog()
            if dialog is not None:
                self.dirty = self.layered.draw(
                    self.screen, self.shown, dialog, record=self.painter.log is not None
                )
                return
            if self.layered.active:  # the dialog went: the scene draws on the screen again
                self.layered.release()
                self.painter.forget_shade()
                self.shown.invalidate()
            self.shown.draw(self.screen)
            self.dirty = self.shown.dirty

    def _dialog(self) -> TiltOverlay | RamClearNotice | None:
        """What shows over the current scene (None: nothing)."""
        if self.scene.player and self.tilted:
            return self.tilt_overlay
        if self.scene.player and self.notice.showing:
            return self.notice
        return None

    def frame_wait(self, fps: int) -> float:
        """Seconds until the next frame is due: the frame cap while the screen changes
        (at most every :attr:`Scene.frame_interval`, :data:`DIALOG_FRAME_INTERVAL` under a
        dialog), up to :data:`IDLE_WAIT` when the last
        frame changed nothing."""
        if self.dirty is not None and not self.dirty:
            return IDLE_WAIT
        if self.layered.active:
            return max(1.0 / fps, DIALOG_FRAME_INTERVAL)
        return max(1.0 / fps, self.scene.frame_interval)

    def present(self) -> None:
        """Show the frame: only the changed rectangles when the scene knows them (the
        overlapping ones joined, one copy to the display each), nothing when none changed."""
        if self.dirty is None:
            pygame.display.flip()
        elif self.dirty:
            pygame.display.update(merge(self.dirty))

    def _auto_navigate(self) -> None:
        s = self.model.snap
        if not self.scene.player:
            return
        if s.cashout is not None and self.scene.name != CashoutScene.name:
            self.go("cashout")
        elif (
            self.scene.name in IDLE_TO_ATTRACT
            and s.phase is MachinePhase.IDLE
            and self.now - self.last_input > ATTRACT_AFTER
        ):
            self.go("attract")

    def warm_up(self) -> None:
        """Build the caches the table needs (its layer, every card face) ahead of the first
        deal, so the first touch does not stall a frame."""
        table = self.scenes.get("table")
        if isinstance(table, TableScene):
            table.warm_up()

    def screenshot(self, path: str | Path) -> Path:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.screen, str(p))
        return p

    def stop(self) -> None:
        """End the main loop after the current frame (SIGTERM, the technician's chord)."""
        self.running = False

    def run(
        self, fps: int = 60, max_frames: int | None = None, player: ScriptedPlayer | None = None
    ) -> int:
        """The main loop until the window closes, :meth:`stop` is called, ``max_frames``
        frames have run or the scripted ``player`` has played its rounds; returns the
        exit code."""
        clock = pygame.time.Clock()
        self.step(0)
        self.present()
        sdnotify.ready("attract screen up")
        self.warm_up()
        started = pygame.time.get_ticks()
        log_path = os.environ.get(FRAME_LOG_ENV)
        frames: list[tuple[float, float, float]] = []
        try:
            while self.running and (max_frames is None or self.frames < max_frames):
                events = self._wait_events(started, fps, paced=player is not None)
                started = pygame.time.get_ticks()
                t0, c0 = time.monotonic(), time.thread_time()
                dt = clock.tick() / 1000.0
                exposed = any(e.type in EXPOSED for e in events)
                for ev in translate_all(events, self.layout.size):
                    self.feed(ev)
                if player is not None:
                    scripted = player.next_input(self.scene.name, self.model.snap)
                    if scripted is not None:
                        self.feed(scripted)
                    if player.done:
                        self.running = False
                self.step(min(dt, 0.1))
                if exposed:  # uncovered or restored: show the whole frame, not its changes
                    self.dirty = None
                self.present()
                self.watchdog.ping()
                if log_path:
                    frames.append((t0, time.monotonic() - t0, time.thread_time() - c0))
        finally:
            sdnotify.stopping()
            if log_path:
                rounds = player.settled if player is not None else 0
                with open(log_path, "w", encoding="utf-8") as f:
                    json.dump({"frames": frames, "rounds": rounds}, f)
        return 0

    def _wait_events(self, since: int, fps: int, paced: bool = False) -> list[pygame.event.Event]:
        """Sleep until the next frame is due (:meth:`frame_wait` after the last frame's
        start, ``since`` in SDL ticks; ``paced``: the frame cap, for a scripted player
        counting frames), or less when input arrives (within :data:`WAIT_SLICE`); the
        events waiting."""
        wait = 1.0 / fps if paced else self.frame_wait(fps)
        while True:
            events = pygame.event.get()
            remaining = wait - (pygame.time.get_ticks() - since) / 1000
            if events or remaining <= 0:
                return events
            time.sleep(min(WAIT_SLICE, remaining))

    def close(self) -> None:
        self.model.close()
        pygame.display.quit()
