"""The tournament table: you at the bottom, the computer players around the felt, the
board and the pots in the middle; your cards, your hand, your equity and your buttons
on the rail.

Everything shown comes from the :class:`kiosk.tournament.session.TournamentSession`;
the scene adds the raise panel (Min, ½ pot, ¾ pot, Pot, All in, a slider and − / + by one
big blind, amounts rounded to the small blind, the button reading All in at the whole
stack), the menu and the notes.  Keys: F fold, C (or K) check or call, R (or B) raise,
↑ ↓ (or ← →) change the amount, Enter raises, Esc goes back, Space deals the next hand;
H the hand history, Y the hand rankings, M the menu.

The frame is drawn again only when something shown changes (the session's version, the
amount, a press, the language...); otherwise the scene reports no damage at all.

A game hosted for friends (:class:`kiosk.friends.cabinet.CabinetHost`) is pumped instead
of updated (the friends' moves, their clocks, the computer players), menu or not; Next
hand is the cabinet's vote; a friend's clock shows beside whose turn it is.  Leaving the
table for anything but its own pages (history, rankings, guide, results) is the host
leaving: the friends' game waits for it, and coming back picks it up.

The scene keeps the input and the state of the screen (panel, amount, pop-up, note);
``table_layout`` (where), ``table_facts`` (what the session says), ``table_controls``
(the buttons), ``table_felt``, ``table_seats`` and ``table_rail`` (drawing) do the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from engine.errors import IllegalActionError
from kiosk.tournament.session import TournamentSession
from kiosk.tournament.settings import SPEEDS
from kiosk.ui import i18n, theme
from kiosk.ui.events import Drag, InputEvent, Key, Touch
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, count
from kiosk.ui.raise_range import RaiseRange
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.tournament.common import (
    IDLE_TABLE,
    blinds_text,
    chips,
    idle_for,
    place_name,
    seat_name,
)
from kiosk.ui.scenes.tournament.table_controls import TOP_TEXT_W, table_buttons
from kiosk.ui.scenes.tournament.table_facts import status
from kiosk.ui.scenes.tournament.table_felt import TableFelt
from kiosk.ui.scenes.tournament.table_layout import SLIDER, seat_slots
from kiosk.ui.scenes.tournament.table_rail import RailPainter
from kiosk.ui.scenes.tournament.table_seats import SeatPainter
from kiosk.ui.widgets import Button


class TournamentTableScene(Scene):
    name = "tournament"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.panel = False  # the raise panel is open
        self.sliding = False  # a finger or the mouse pressed the slider and has not pressed elsewhere
        self.amount = 0
        self.popup: str | None = None  # "menu" | "abandon"
        self.note: tuple[Callable[[], str], float] | None = None  # (the words, made when drawn; until)
        self._sig: tuple[Any, ...] | None = None
        self.felt = TableFelt(app)
        self.seats = SeatPainter(app)
        self.rail = RailPainter(app)
        self.dirty: list[pygame.Rect] | None = None
        self._range_key: tuple[int, int] | None = None
        self._visiting = False  # going to one of the table's own pages

    def _go(self, name: str) -> None:
        """Open one of the table's own pages (the hosted game goes on being pumped)."""
        self._visiting = True
        self.app.go(name)

    @property
    def session(self) -> TournamentSession | None:
        return self.app.tournament.session

    def enter(self, **kwargs: Any) -> None:
        self.popup = None
        self.panel = False
        self.invalidate()
        self._visiting = False
        s = self.session
        if s is None:
            self.app.go("tournament_setup")
            return
        hosted = self.app.tournament.hosted(s)
        if hosted is not None:
            hosted.back()
        s.pop_events()

    def leave(self) -> None:
        hosted = self.app.tournament.hosted()
        if hosted is not None and not self._visiting and not hosted.game.over:
            hosted.leave()

    def invalidate(self) -> None:
        self._sig = None

    def update(self, dt: float) -> None:
        s = self.session
        if s is None:
            return
        hosted = self.app.tournament.hosted(s)
        if hosted is not None:
            hosted.pump(dt)
        elif self.popup is None:
            s.update(dt)
        for ev in s.pop_events():
            self._on_event(s, ev)
        if s.is_over and s.recorded and s.state.fast_forward:  # played out: straight to the results
            self._go("tournament_results")
            return
        if not s.my_turn:
            self.panel = False
        rr = RaiseRange.offered(s.legal())
        turn = (s.t.hand_number, len(s.t.hand.history)) if rr is not None and s.t.hand is not None else None
        if rr is not None and turn != self._range_key:  # a new decision: start from the minimum
            self.amount = rr.min_to
        self._range_key = turn
        if self.note is not None and self.app.now > self.note[1]:
            self.note = None
        if idle_for(self.app) > IDLE_TABLE and (s.my_turn or s.hand_over or s.is_over):
            self.app.go("attract")

    def _on_event(self, s: TournamentSession, ev: Any) -> None:
        if ev.kind == "hand":
            self.app.sounds_play("deal")
        elif ev.kind == "board":
            self.app.sounds_play("flip")
        elif ev.kind == "action" and type(ev.data).__name__ in ("Called", "BetMade", "Raised"):
            self.app.sounds_play("chip")
        elif ev.kind == "blinds_up":
            small, big = ev.data.small, ev.data.big
            self._note(lambda: _("The blinds go up: {small}/{big}").format(small=chips(small), big=chips(big)))
        elif ev.kind == "out":
            seat, place = ev.seat, ev.data
            if seat == s.human_seat:
                self._note(lambda: _("You are out in {place} place.").format(place=place_name(place)), 6.0)
            else:
                self._note(lambda: _("{name} is out in {place} place.").format(name=seat_name(s, seat),
                                                                                place=place_name(place)))
        elif ev.kind == "hand_over":
            res = s.t.last_result
            if res is not None and res.won[s.human_seat] > 0:
                self.app.sounds_play("win")

    def _note(self, words: Callable[[], str], seconds: float = 3.5) -> None:
        """Show a passing note for ``seconds``; ``words`` makes its text in the language of
        the moment it is drawn."""
        self.note = (words, self.app.now + seconds)

    def note_text(self) -> str | None:
        """The passing note as drawn now (``None``: no note)."""
        return self.note[0]() if self.note is not None else None

    def handle(self, event: InputEvent) -> bool:
        if isinstance(event, Drag):  # the slider follows a press that began on it
            if self.sliding and self.panel and self.popup is None:
                self._slide(event.pos[0])
                return True
            return False
        if isinstance(event, Touch):
            self.sliding = False
            if self.panel and self.popup is None and self.layout.rect(*SLIDER).collidepoint(event.pos):
                self.sliding = True
                self._slide(event.pos[0])
                return True
        return super().handle(event)

    def _slide(self, x: int) -> None:
        """Choose the amount under screen x on the slider (its ends past either side)."""
        s = self.session
        rr = RaiseRange.offered(s.legal()) if s is not None else None
        if rr is not None:
            inner = self.layout.rect(*SLIDER).inflate(-self.layout.px(40), 0)
            self.amount = rr.at((x - inner.x) / max(1, inner.width))

    def on_touch(self, pos: tuple[int, int]) -> bool:
        if self.popup is not None:
            return True
        return False

    def on_key(self, key: Key) -> bool:
        name = key.name
        if self.popup is not None:
            if name == "escape":
                self.popup = None
                return True
            if name in ("m",):
                self.popup = None
                return True
            return name not in ("l", "f12", "f9") and not name.isdigit()
        table = {
            "f": "fold", "c": "call", "k": "call", "r": "raise", "b": "raise",
            "up": "plus", "right": "plus", "down": "minus", "left": "minus",
            "return": "enter", "space": "next", "escape": "back",
            "h": "history", "g": "history", "y": "rankings", "m": "menu",
        }
        cmd = table.get(name)
        if cmd is None:
            return False
        return self.on_command(cmd)

    def on_command(self, name: str, arg: object = None) -> bool:
        s = self.session
        if s is None:
            return False
        if name == "language":
            i18n.set_language(i18n.next_language())
            return True
        if name == "set_language":
            i18n.set_language(str(arg))
            return True
        if self.popup is not None:
            return self._popup_command(s, name, arg)
        if name == "sound":
            self.app.prefs.sound = not self.app.prefs.sound
        elif name == "history":
            self._go("tournament_history")
        elif name == "rankings":
            self._go("tournament_rankings")
        elif name == "menu":
            self.popup = "menu"
            self.panel = False
        elif name == "back":
            if self.panel:
                self.panel = False
            else:
                self.popup = "menu"
        elif name == "next" or (name == "enter" and not self.panel):
            hosted = self.app.tournament.hosted(s)
            if s.is_over:
                self._go("tournament_results")
            elif hosted is not None:
                hosted.next_hand()
            elif s.hand_over:
                s.next_hand()
        elif name == "fold":
            self._act(s, "fold")
        elif name == "call":
            self._act(s, "call")
        elif name == "raise":
            if not s.my_turn:
                return True
            rr = RaiseRange.offered(s.legal())
            if rr is None:
                la = s.legal()
                if la is not None and not la.can_check and la.call_amount >= la.stack:
                    self._act(s, "call")  # calling is all in: nothing more to choose
                return True
            if self.panel:
                self._act(s, "bet", self.amount)
            else:
                self.panel = True
                self.amount = rr.clamp(self.amount or rr.min_to)
        elif name in ("plus", "minus"):
            rr = RaiseRange.offered(s.legal()) if self.panel else None
            if rr is not None:
                self.amount = rr.nudge(self.amount, 1 if name == "plus" else -1)
        elif name == "enter":
            if self.panel:
                self._act(s, "bet", self.amount)
        elif name == "preset":
            rr = RaiseRange.offered(s.legal())
            if rr is not None:
                self.amount = rr.preset(str(arg))
        elif name == "confirm_raise":
            self._act(s, "bet", self.amount)
        elif name == "results":
            self._go("tournament_results")
        else:
            return False
        return True

    def _act(self, s: TournamentSession, what: str, amount: int = 0) -> None:
        if not s.my_turn:
            return
        la = s.legal()
        try:
            if what == "fold":
                if la is None or not la.can_fold:
                    return
                s.fold()
            elif what == "call":
                s.check_or_call()
            else:
                rr = RaiseRange.offered(la)
                if rr is None:
                    raise IllegalActionError("you cannot bet or raise now")
                s.act(rr.action(amount))
        except ValueError:  # IllegalActionError (nothing changed)
            self._note(lambda: _("That is not possible right now."))
            return
        self.panel = False

    def _popup_command(self, s: TournamentSession, name: str, arg: object) -> bool:
        if name in ("back", "resume", "menu"):
            self.popup = None
        elif name == "speed":
            s.set_ai_speed(SPEEDS[(SPEEDS.index(s.ai_speed) + 1) % len(SPEEDS)])
        elif name == "equity":
            s.set_equity_assist(not s.equity_assist)
        elif name == "deck":
            s.set_four_colour(not s.four_colour)
        elif name == "guide":
            self.popup = None
            self._go("tournament_guide")
        elif name == "sound":
            self.app.prefs.sound = not self.app.prefs.sound
            self.invalidate()
        elif name == "leave":
            s.save()
            self.popup = None
            self.app.go("attract")
        elif name == "abandon":
            self.popup = "abandon"
        elif name == "confirm_abandon":
            s.abandon()
            self.app.tournament.close_friends()
            self.app.tournament.session = None
            self.popup = None
            self.app.go("attract")
        elif name == "rankings":
            self.popup = None
            self._go("tournament_rankings")
        return True

    # -- buttons --------------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        s = self.session
        if s is None:
            return []
        return table_buttons(s, self.popup, self.panel, self.amount, self.app.prefs.sound)

    # -- drawing -----------------------------------------------------------------------------------
    def _signature(self) -> tuple[Any, ...]:
        s = self.session
        eq = s.equity() if s is not None else (None, False)
        return (s.version if s else None, id(s), i18n.generation(), self.popup, self.panel, self.amount,
                self.app.prefs.sound,
                self.pressed_id(), self.note_text(), self.layout.size, eq[1],
                eq[0].equity if eq[0] else None, self._clock())

    def _clock(self) -> int | None:
        """Whole seconds left for a friend's move in a hosted game (``None``: no clock)."""
        hosted = self.app.tournament.hosted()
        left = hosted.game.turn_left() if hosted is not None else None
        return round(left) if left is not None else None

    def draw(self, surface: pygame.Surface) -> None:
        sig = self._signature()
        if sig == self._sig:
            self.dirty = []
            return
        self._sig = sig
        self.dirty = None
        s = self.session
        surface.blit(self.felt.surface(), (0, 0))
        if s is None:
            return
        self._draw_top(surface, s)
        self.felt.draw_centre(surface, s)
        for seat, slot in seat_slots(s).items():
            self.seats.draw_seat(surface, s, seat, slot)
        self.seats.draw_my_bet(surface, s)
        self.rail.draw_me(surface, s)
        self.rail.draw_right(surface, s, self.panel, self.amount)
        if self.popup:
            self.rail.draw_popup(surface, self.popup)
        self.draw_buttons(surface)
        if self.popup is None:
            self.rail.draw_speaker(surface, self.app.prefs.sound)

    def _draw_top(self, surface: pygame.Surface, s: TournamentSession) -> None:
        ui = self.ui
        t = s.t
        number = t.hand_number
        h = t.hand
        small, big = (h.small_blind, h.big_blind) if h is not None else (t.blinds.small, t.blinds.big)
        parts = [_("Hand {n}").format(n=number), blinds_text(small, big)]
        left = t.hands_to_next_level
        if left is not None and not s.hand_over:
            parts.append(_("Blinds go up after this hand") if left == 1 else
                         count("Next level in {n} hand", "Next level in {n} hands", left))
        ui.fitted(surface, "  ·  ".join(parts), 28, theme.GOLD, TOP_TEXT_W, bold=True, topleft=(22, 12))
        note = self.note_text()
        if note is not None:
            ui.fitted(surface, note, 21, theme.WIN, TOP_TEXT_W, bold=True, topleft=(24, 54))
        else:
            line = status(s)
            clock = self._clock()
            if clock is not None:
                line += "  " + _("{n} s").format(n=clock)
            ui.fitted(surface, line, 21, theme.CREAM, TOP_TEXT_W, topleft=(24, 54))
