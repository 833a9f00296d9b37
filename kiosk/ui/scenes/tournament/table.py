"""The tournament table: one scene over a seat port
(:class:`~kiosk.tournament.seat_port.SeatPort`), wherever the game runs.

``tournament`` is the cabinet's own game (:class:`~kiosk.friends.seat.local.LocalSeat`:
computer players, and friends when the cabinet hosts; around it
:class:`~kiosk.ui.scenes.tournament.table_home.HomeTable`: its felt, menu and pages);
``tournament_remote`` a seat in a game another cabinet hosts
(:class:`~kiosk.friends.seat.link.LinkSeat` over the friends link; around it
:class:`~kiosk.ui.scenes.tournament.table_joined.JoinedTable`: the lobby, leaving, a lost
host, the standings).

The scene owns what is the same at both ends: the decisions and the raise panel (Min,
½ pot, ¾ pot, Pot, All in, a slider that follows a finger or the mouse, − / + by one big
blind, amounts rounded to the small blind, the button reading All in at the whole
stack), the keys (F fold, C or K check or call, R or B raise, ↑ ↓ or ← → change the
amount, Enter raises (the panel closed: the next hand), Space the next hand, Esc back;
at the cabinet's own table also H the hand history, Y the hand rankings, M the menu), a
pop-up over the table, the passing notes, and the still frame: the picture is drawn
again only when something shown changes (the port's version, the amount, a press, the
language...); otherwise the scene reports no damage at all.  Buttons and keys ask for
typed intents (:mod:`~kiosk.ui.scenes.tournament.table_intents`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Protocol

import pygame

from engine.holdem.actions import Action
from kiosk.tournament.seat_port import SeatPort
from kiosk.ui import i18n
from kiosk.ui.events import Drag, InputEvent, Key, Touch
from kiosk.ui.host import SceneHost
from kiosk.ui.raise_range import RaiseRange
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.intents import TopBar
from kiosk.ui.scenes.tournament.raise_panel import on_slider, slider_amount
from kiosk.ui.scenes.tournament.table_home import HomeTable
from kiosk.ui.scenes.tournament.table_intents import (
    COMMANDS,
    KEYS,
    POPUP_PASS_KEYS,
    TOP,
    Chrome,
    Move,
    Preset,
)
from kiosk.ui.scenes.tournament.table_joined import JoinedTable
from kiosk.ui.widgets import Button


class TableSide(Protocol):
    """What surrounds the table at one end of the port: its port, its life cycle, its
    buttons, pop-ups, pages and picture."""

    back_popup: str
    keys: dict[str, Chrome]

    def port(self) -> SeatPort | None: ...

    @property
    def lost(self) -> bool: ...

    def enter(self) -> None: ...

    def leave(self) -> None: ...

    def update(self, dt: float) -> None: ...

    def refused(self) -> None: ...

    def next_hand(self) -> None: ...

    def on_intent(self, intent: Chrome) -> bool: ...

    def buttons(self) -> list[Button]: ...

    def look(self) -> Hashable: ...

    def draw(self, surface: pygame.Surface) -> None: ...


class TournamentTableScene(Scene):
    """The cabinet's own game (see the module's text)."""

    name = "tournament"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.panel = False  # the raise panel is open
        self.sliding = (
            False  # a finger or the mouse pressed the slider and has not pressed elsewhere
        )
        self.amount = 0  # the chips chosen on the panel (a round total)
        self.popup: str | None = None  # "menu" | "abandon" | "leave"
        self.note: tuple[Callable[[], str], float] | None = (
            None  # (the words, made when drawn; until)
        )
        self.dirty: list[pygame.Rect] | None = None
        self._sig: tuple[Any, ...] | None = None
        self._decision: tuple[int, int] | None = None  # the decision the amount was chosen for
        self.side: TableSide = self.make_side()

    def make_side(self) -> TableSide:
        return HomeTable(self)

    @property
    def port(self) -> SeatPort | None:
        return self.side.port()

    @property
    def lost(self) -> bool:
        """The game's host is out of reach (the table shown is stale)."""
        return self.side.lost

    def raise_range(self) -> RaiseRange | None:
        """What this seat may bet or raise to now (``None``: not its turn, or no raise)."""
        port = self.port
        return RaiseRange.offered(port.legal()) if port is not None else None

    # -- life cycle -----------------------------------------------------------------------------
    def enter(self, **kwargs: Any) -> None:
        self.popup = None
        self.panel = False
        self.sliding = False
        self.invalidate()
        self.side.enter()

    def leave(self) -> None:
        self.side.leave()

    def invalidate(self) -> None:
        self._sig = None

    def update(self, dt: float) -> None:
        self.side.update(dt)
        port = self.port
        if port is None or self.app.scene is not self:
            return
        rr = self.raise_range()
        view = port.view()
        decision = view.decision if rr is not None and view is not None else None
        if rr is None or decision != self._decision:
            self.panel = False  # the table moved on: the decision is no longer this one
            self.sliding = False
        if rr is not None and decision != self._decision:  # a new decision: start from the minimum
            self.amount = rr.min_to
        self._decision = decision
        if self.note is not None and self.app.now > self.note[1]:
            self.note = None

    def show_note(self, words: Callable[[], str], seconds: float = 3.5) -> None:
        """Show a passing note for ``seconds``; ``words`` makes its text in the language of
        the moment it is drawn."""
        self.note = (words, self.app.now + seconds)

    def note_text(self) -> str | None:
        """The passing note as drawn now (``None``: no note)."""
        return self.note[0]() if self.note is not None else None

    # -- input ----------------------------------------------------------------------------------
    def handle(self, event: InputEvent) -> bool:
        if isinstance(event, Drag):  # the slider follows a press that began on it
            if self.sliding and self.panel and self.popup is None:
                self._slide(event.pos[0])
                return True
            return False
        if isinstance(event, Touch):
            self.sliding = False
            if self.panel and self.popup is None and on_slider(self.layout, event.pos):
                self.sliding = True
                self._slide(event.pos[0])
                return True
        return super().handle(event)

    def _slide(self, x: int) -> None:
        """Choose the amount under screen x on the slider (its ends past either side)."""
        rr = self.raise_range()
        if rr is not None:
            self.amount = slider_amount(self.layout, rr, x)

    def on_touch(self, pos: tuple[int, int]) -> bool:
        return self.popup is not None  # a pop-up takes every touch

    def on_key(self, key: Key) -> bool:
        name = key.name
        intent = KEYS.get(name) or self.side.keys.get(name)
        if self.popup is not None:  # Esc (or M, the menu's key) closes it; it keeps the rest
            if intent is Move.BACK or intent is Chrome.MENU:
                self.popup = None
                return True
            return name not in POPUP_PASS_KEYS and not name.isdigit()
        if intent is Move.CONFIRM_RAISE and not self.panel:
            intent = Move.NEXT_HAND  # Enter with the panel closed: the next hand
        return intent is not None and self.on_intent(intent)

    def on_command(self, name: str, arg: object = None) -> bool:
        """The cabinet's own shortcuts (:data:`kiosk.ui.shortcuts.SHORTCUTS`) that reach
        the table: the language, the sound."""
        shortcut = COMMANDS.get(name)
        return shortcut is not None and self.side.on_intent(shortcut)

    def on_intent(self, intent: object) -> bool:
        if isinstance(intent, TopBar):  # the top bar's language; its other pages are the UTH table's
            chrome = TOP.get(intent)
            return chrome is not None and self.side.on_intent(chrome)
        if isinstance(intent, Chrome):
            return self.side.on_intent(intent)
        if self.popup is not None:
            return True
        if isinstance(intent, Preset):
            rr = self.raise_range()
            if rr is not None:
                self.amount = rr.preset(intent.key)
            return True
        if isinstance(intent, Move):
            self._move(intent)
            return True
        return False

    def _move(self, move: Move) -> None:
        port = self.port
        la = port.legal() if port is not None else None
        rr = RaiseRange.offered(la)
        match move:
            case Move.NEXT_HAND:
                self.side.next_hand()
            case Move.BACK | Move.CANCEL_RAISE:
                if self.panel:
                    self.panel = self.sliding = False
                elif move is Move.BACK:
                    self.popup = self.side.back_popup
            case Move.FOLD if la is not None and la.can_fold:
                self._act(Action.fold())
            case Move.CHECK_OR_CALL if la is not None:
                self._act(Action.check() if la.can_check else Action.call())
            case Move.RAISE if la is not None and rr is None:
                if not la.can_check and la.call_amount >= la.stack:
                    self._act(Action.call())  # calling is all in: nothing more to choose
            case Move.RAISE if rr is not None and not self.panel:
                self.panel = True
                self.amount = rr.clamp(self.amount or rr.min_to)
            case Move.RAISE | Move.CONFIRM_RAISE if rr is not None and self.panel:
                self._act(rr.action(self.amount))
            case Move.MORE | Move.LESS if rr is not None and self.panel:
                self.amount = rr.nudge(self.amount, 1 if move is Move.MORE else -1)

    def _act(self, action: Action) -> None:
        port = self.port
        if port is None:
            return
        try:
            port.act(action)
        except ValueError:  # IllegalActionError (nothing changed)
            self.side.refused()
            return
        self.panel = self.sliding = False

    # -- buttons and drawing --------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        return self.side.buttons()

    def _signature(self) -> tuple[Any, ...]:
        port = self.port
        return (
            port.version() if port is not None else None,
            i18n.generation(),
            self.popup,
            self.panel,
            self.amount,
            self.pressed_id(),
            self.note_text(),
            self.layout.size,
            self.side.look(),
        )

    def draw(self, surface: pygame.Surface) -> None:
        sig = self._signature()
        if sig == self._sig:
            self.dirty = []
            return
        self._sig = sig
        self.dirty = None
        self.side.draw(surface)


class JoinedTableScene(TournamentTableScene):
    """A seat in a game another cabinet hosts (see the module's text): the same scene
    over the friends link."""

    name = "tournament_remote"

    def make_side(self) -> TableSide:
        return JoinedTable(self)
