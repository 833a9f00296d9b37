"""Around the cabinet's own tournament table (the game in this process, over
:class:`~kiosk.friends.seat.local.LocalSeat`): its events (sounds, passing notes), its
top bar and menu (AI speed, equity assist, deck, language, sound, how to play, save and
leave, abandon), its pages (history, hand rankings, the guide, the results), the
equity assist, and what only this game says about whose turn it is; the table itself is
painted from the seat port's view, as at a joined seat
(:mod:`~kiosk.ui.scenes.tournament.table_paint`).

A game hosted for friends (:class:`kiosk.friends.cabinet.CabinetHost`) is pumped even
under the menu; Next hand is the cabinet's vote; a friend's clock shows beside whose
turn it is.  Leaving the table for anything but its own pages (history, rankings,
guide, results) is the host leaving: the friends' game waits for it, and coming back
picks it up.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pygame

from engine.holdem.equity import pot_odds
from kiosk.friends.seat.local import LocalSeat
from kiosk.tournament.seat_port import TableView
from kiosk.tournament.session import TournamentSession
from kiosk.tournament.settings import SPEEDS, seat_icon
from kiosk.ui import i18n, theme
from kiosk.ui.i18n import _
from kiosk.ui.raise_range import RaiseRange
from kiosk.ui.scenes.tournament.common import (
    IDLE_TABLE,
    chips,
    idle_for,
    percent,
    place_name,
    seat_name,
)
from kiosk.ui.scenes.tournament.raise_panel import raise_buttons
from kiosk.ui.scenes.tournament.table_controls import (
    abandon_buttons,
    menu_buttons,
    top_buttons,
)
from kiosk.ui.scenes.tournament.table_facts import Colour, status
from kiosk.ui.scenes.tournament.table_intents import Chrome, Move, TableScreen, decision_buttons
from kiosk.ui.scenes.tournament.table_layout import ROW2, ROW_H
from kiosk.ui.scenes.tournament.table_paint import TableLook, TablePainter
from kiosk.ui.widgets import Button

#: The table's own pages: going to one is not the host leaving a hosted game.
PAGES = {
    Chrome.HISTORY: "tournament_history",
    Chrome.RANKINGS: "tournament_rankings",
    Chrome.GUIDE: "tournament_guide",
    Chrome.RESULTS: "tournament_results",
}
#: Keys of the cabinet's table besides the decisions' (:data:`table_intents.KEYS`).
KEYS = {"h": Chrome.HISTORY, "g": Chrome.HISTORY, "y": Chrome.RANKINGS, "m": Chrome.MENU}


class HomeTable:
    """The cabinet's own game at ``scene`` (see the module's text)."""

    back_popup = "menu"  # Esc with the raise panel closed
    keys = KEYS

    def __init__(self, scene: TableScreen) -> None:
        self.scene = scene
        self.app = scene.app
        self.painter = TablePainter(scene.app)
        self.visiting = False  # going to one of the table's own pages
        self._port: LocalSeat | None = None

    @property
    def session(self) -> TournamentSession | None:
        return self.app.tournament.session

    def port(self) -> LocalSeat | None:
        s = self.session
        if s is None:
            return None
        if self._port is None or self._port.session is not s:
            self._port = LocalSeat(s, lambda: self.app.tournament.hosted(s))
        return self._port

    @property
    def lost(self) -> bool:
        return False

    def go(self, name: str) -> None:
        """Open one of the table's own pages (the hosted game goes on being pumped)."""
        self.visiting = True
        self.app.go(name)

    def enter(self) -> None:
        self.visiting = False
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
        if hosted is not None and not self.visiting and not hosted.game.over:
            hosted.leave()

    def update(self, dt: float) -> None:
        s, port = self.session, self.port()
        if s is None or port is None:
            return
        if self.scene.popup is None or self.app.tournament.hosted(s) is not None:
            port.advance(dt)
        for ev in s.pop_events():
            self._on_event(s, ev)
        if s.is_over and s.recorded and s.state.fast_forward:  # played out: straight to the results
            self.go("tournament_results")
            return
        if idle_for(self.app) > IDLE_TABLE and (s.my_turn or s.hand_over or s.is_over):
            self.app.go("attract")

    def _on_event(self, s: TournamentSession, ev: Any) -> None:
        note = self.scene.show_note
        if ev.kind == "hand":
            self.app.sounds_play("deal")
        elif ev.kind == "board":
            self.app.sounds_play("flip")
        elif ev.kind == "action" and type(ev.data).__name__ in ("Called", "BetMade", "Raised"):
            self.app.sounds_play("chip")
        elif ev.kind == "blinds_up":
            small, big = ev.data.small, ev.data.big
            note(
                lambda: _("The blinds go up: {small}/{big}").format(
                    small=chips(small), big=chips(big)
                )
            )
        elif ev.kind == "out":
            seat, place = ev.seat, ev.data
            if seat == s.human_seat:
                note(
                    lambda: _("You are out in {place} place.").format(place=place_name(place)), 6.0
                )
            else:
                note(
                    lambda: _("{name} is out in {place} place.").format(
                        name=seat_name(s, seat), place=place_name(place)
                    )
                )
        elif ev.kind == "hand_over":
            res = s.t.last_result
            if res is not None and res.won[s.human_seat] > 0:
                self.app.sounds_play("win")

    def refused(self) -> None:
        """The rules refused a decision here (nothing changed)."""
        self.scene.show_note(lambda: _("That is not possible right now."))

    def next_hand(self) -> None:
        s, port = self.session, self.port()
        if s is not None and s.is_over:
            self.go("tournament_results")
        elif port is not None:
            port.next_hand()

    def on_intent(self, intent: Chrome) -> bool:
        s = self.session
        if s is None:
            return False
        scene = self.scene
        match intent:
            case Chrome.SOUND:
                self.app.prefs.sound = not self.app.prefs.sound
            case Chrome.LANGUAGE:
                i18n.set_language(i18n.next_language())
            case Chrome.HISTORY | Chrome.RANKINGS | Chrome.GUIDE | Chrome.RESULTS:
                scene.popup = None
                self.go(PAGES[intent])
            case Chrome.MENU:
                scene.popup = None if scene.popup else "menu"
                scene.panel = False
            case Chrome.CLOSE:
                scene.popup = None
            case Chrome.SPEED:
                s.set_ai_speed(SPEEDS[(SPEEDS.index(s.ai_speed) + 1) % len(SPEEDS)])
            case Chrome.EQUITY:
                s.set_equity_assist(not s.equity_assist)
            case Chrome.DECK:
                s.set_four_colour(not s.four_colour)
            case Chrome.SAVE_AND_LEAVE:
                s.save()
                scene.popup = None
                self.app.go("attract")
            case Chrome.ABANDON:
                scene.popup = "abandon"
            case Chrome.CONFIRM_ABANDON:
                s.abandon()
                self.app.tournament.close_friends()
                self.app.tournament.session = None
                scene.popup = None
                self.app.go("attract")
            case _:
                return False
        return True

    # -- buttons --------------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        """The pop-up's, else the top bar's and the rail's: Next hand, the results, or the
        decisions (the raise panel's while it is open)."""
        s, scene = self.session, self.scene
        if s is None:
            return []
        if scene.popup == "menu":
            return menu_buttons(s, self.app.prefs.sound)
        if scene.popup == "abandon":
            return abandon_buttons()
        out = top_buttons()
        if s.is_over or s.playing_out:
            if s.is_over:
                out.append(
                    Button(
                        "results",
                        (910, ROW2, 354, ROW_H),
                        _("SEE THE RESULTS"),
                        Chrome.RESULTS,
                        style="primary",
                        hint="Space",
                        size=28,
                    )
                )
            return out
        if s.hand_over:
            label = _("SEE THE RESULTS") if s.human_out else _("NEXT HAND")
            out.append(
                Button(
                    "next",
                    (910, ROW2, 354, ROW_H),
                    label,
                    Move.NEXT_HAND,
                    style="primary",
                    hint="Space",
                    size=30,
                )
            )
            return out
        la = s.legal() if s.my_turn else None
        if la is None:
            return out
        rr = RaiseRange.offered(la)
        if scene.panel and rr is not None:
            return out + raise_buttons(rr, scene.amount)
        return out + decision_buttons(la, rr)

    # -- drawing -----------------------------------------------------------------------------------
    def look(self) -> Hashable:
        """What the picture shows besides the port's version and the scene's state."""
        s = self.session
        eq = s.equity() if s is not None else (None, False)
        return id(s), self.app.prefs.sound, eq[1], eq[0].equity if eq[0] else None

    def draw(self, surface: pygame.Surface) -> None:
        s, scene, port = self.session, self.scene, self.port()
        if s is None or port is None:
            surface.blit(self.painter.felt.surface(), (0, 0))
            return
        v = port.table()
        look = TableLook(
            status=self._status(s, v),
            note=scene.note_text(),
            lines=self._lines(s),
            four_colour=s.four_colour,
            icon=seat_icon(s.t.config.seats[s.human_seat]),
        )
        y = self.painter.draw(surface, v, look, s.legal(), scene.panel, scene.amount)
        if y is not None:
            self._draw_assist(surface, s, y)
        if scene.popup:
            self.painter.rail.draw_popup(surface, scene.popup)
        scene.draw_buttons(surface)
        if scene.popup is None:
            self.painter.rail.draw_speaker(surface, self.app.prefs.sound)

    @staticmethod
    def _status(s: TournamentSession, v: TableView) -> str:
        """The line about whose turn it is, with what only the cabinet's own game says."""
        if s.store_error:
            return _("This game cannot be saved right now.")
        if s.is_over:
            return _("The tournament is over.")
        if s.playing_out:
            return _("You are out. Finishing the tournament…")
        if s.hand_over and s.human_out:
            return ""
        return status(v)

    @staticmethod
    def _lines(s: TournamentSession) -> list[tuple[str, Colour]] | None:
        """Above the buttons at the end of the game or while it is played out."""
        if s.is_over:
            if s.t.champion == s.human_seat:
                return [(_("You won the tournament!"), theme.WIN)]
            place = s.t.places.get(s.human_seat, 0)
            return [
                (
                    _("You came {place} of {players}").format(
                        place=place_name(place), players=s.t.n_seats
                    ),
                    theme.WIN,
                )
            ]
        if s.playing_out:
            return [(_("You are out. Finishing the tournament…"), theme.CREAM)]
        return None

    def _draw_assist(self, surface: pygame.Surface, s: TournamentSession, y: float) -> None:
        """The equity assist under this seat's hand: its equity and the pot odds."""
        if not s.equity_assist:
            return
        ui = self.app.painter
        x, tw = 224, 212
        v = s.view()
        cards = v.hole_cards if v is not None else ()
        eq, computing = s.equity()
        if cards and not s.hand_over:
            text = (
                _("Equity {pct}").format(pct=percent(eq.equity))
                if eq is not None
                else _("Equity …")
                if computing
                else ""
            )
            if text:
                ui.fitted(surface, text, 22, theme.WIN, tw, bold=True, topleft=(x, y))
                y += 32
        la = s.legal()
        if la is not None and la.call_amount > 0:
            ui.fitted(
                surface,
                _("Pot odds {pct}").format(pct=percent(pot_odds(la.call_amount, la.pot))),
                18,
                theme.CREAM,
                tw,
                topleft=(x, y),
            )
