"""Tournament over: your place, the final standings and your own numbers (hands played
and won, biggest pot, best hand, VPIP, play time); Play again, Records, Export (the game's
hands, to a USB stick when one is mounted), Back to title."""

from __future__ import annotations

from collections.abc import Hashable
from enum import Enum
from typing import Any

import pygame

from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, count, hand_name
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.tournament.common import (
    IDLE_OTHER,
    chips,
    idle_for,
    percent,
    place_name,
    play_time,
    seat_name,
    strength_name,
    table_name,
    title_bar,
)
from kiosk.ui.scenes.tournament.hands_export import Message, export_game_hands
from kiosk.ui.widgets import Button


class Finish(Enum):
    """What follows a finished game."""

    AGAIN = "again"  # the same table again
    RECORDS = "records"
    EXPORT_HANDS = "export_hands"  # this game's hands to removable media
    TITLE = "title"


#: Keys: Enter and Space play again, Esc back to the title.
KEYS: dict[str, Finish] = {"return": Finish.AGAIN, "space": Finish.AGAIN, "escape": Finish.TITLE}


class TournamentResultsScene(Scene):
    name = "tournament_results"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.message: Message | None = None  # where the last export went

    def enter(self, **kwargs: Any) -> None:
        self.message = None

    def buttons(self) -> list[Button]:
        y, w = 626, 300
        s = self.app.tournament.session
        can_export = s is not None and s.recorded and s.is_over and self.app.tournament.store is not None
        return [
            Button("again", (16, y, w, 86), _("PLAY AGAIN"), Finish.AGAIN, style="primary", hint="Enter", size=30),
            Button("records", (332, y, w, 86), _("RECORDS"), Finish.RECORDS, style="plain", size=30),
            Button("export_hands", (648, y, w, 86), _("EXPORT HANDS"), Finish.EXPORT_HANDS, style="plain", size=26,
                   enabled=can_export),
            Button("title", (964, y, w, 86), _("BACK TO TITLE"), Finish.TITLE, style="dark", hint="Esc", size=28),
        ]

    def on_key(self, key: Key) -> bool:
        intent = KEYS.get(key.name)
        return intent is not None and self.on_intent(intent)

    def on_intent(self, intent: object) -> bool:
        ctx = self.app.tournament
        match intent:
            case Finish.AGAIN:
                if ctx.session is not None:  # the same table again, the finished game's setup
                    ctx.settings = ctx.session.settings()
                ctx.new_game()
                self.app.go("tournament")
            case Finish.RECORDS:
                self.app.go("tournament_records")
            case Finish.EXPORT_HANDS:
                if ctx.session is not None:
                    self.message = export_game_hands(self.app, ctx.session.game_id)
            case Finish.TITLE:
                self.app.go("attract")
            case _:
                return False
        return True

    def update(self, dt: float) -> None:
        self.app.tournament.pump_friends(dt)
        if idle_for(self.app) > IDLE_OTHER:
            self.app.tournament.leave_friends()
            self.app.go("attract")

    def look(self) -> Hashable:
        # a hosted friends game in play (pumped each frame) may change what it reads
        return None if self.app.tournament.hosted() is not None else ()

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(self.app.felt, (0, 0))
        s = self.app.tournament.session
        title_bar(self.app, surface, _("TOURNAMENT OVER"), _("Chips are points only: no money."), slim=True)
        if s is None or not s.is_over:
            self.draw_buttons(surface)
            return
        t = s.t
        me = s.human_seat
        place = t.places.get(me, t.n_seats)
        if place == 1:
            head, colour = _("You won the tournament!"), theme.WIN
        else:
            head, colour = _("You came {place} of {players}").format(place=place_name(place), players=t.n_seats), \
                theme.WHITE
        ui.fitted(surface, head, 50, colour, 1200, bold=True, center=(640, 112))
        if self.message is not None:  # where the export went, in place of the table's line
            ui.fitted(surface, self.message[0], 20, self.message[1], 1200, center=(640, 154))
        else:
            ui.fitted(surface, table_name(t.config.table) + "  ·  " + count("{n} hand", "{n} hands", t.hand_number), 20,
                      theme.MUTED, 1200, center=(640, 154))
        # standings
        box = lay.rect(16, 178, 600, 432)
        ui.box(surface, box, (0, 0, 0), 140, radius=18, border=theme.GOLD_DARK)
        ui.fitted(surface, _("Final standings"), 24, theme.GOLD, 560, bold=True, topleft=(36, 190))
        y = 232
        for seat, p, _chips in t.standings():
            p = t.places.get(seat, p or 1)
            mine = seat == me
            row = lay.rect(28, y - 4, 576, 56)
            if mine:
                ui.box(surface, row, theme.GOLD_DARK, 110, radius=10)
            ui.fitted(surface, place_name(p), 26, theme.WIN if p == 1 else theme.CREAM, 90, bold=True,
                      topleft=(40, y + 6))
            ui.fitted(surface, seat_name(s, seat), 26, theme.WHITE, 250, bold=mine, topleft=(150, y + 6))
            spec = t.config.seats[seat]
            if spec.kind != "human":
                ui.fitted(surface, strength_name(spec.difficulty), 19, theme.MUTED, 180, topright=(590, y + 12))
            y += 62
        # your numbers
        box = lay.rect(640, 178, 624, 432)
        ui.box(surface, box, (0, 0, 0), 140, radius=18, border=theme.GOLD_DARK)
        ui.fitted(surface, _("Your numbers"), 24, theme.GOLD, 580, bold=True, topleft=(660, 190))
        st = t.stats[me]
        summary = s.summary
        duration = summary.duration_s if summary is not None else s.state.play_time_s
        rows = [
            (_("Hands played"), chips(st.hands_played)),
            (_("Hands won"), chips(st.hands_won)),
            (_("Biggest pot"), chips(st.biggest_pot) if st.biggest_pot else "—"),
            (_("Best hand"), hand_name(st.best_hand) if st.best_hand is not None else "—"),
            (_("VPIP"), percent(st.vpip)),
            (_("Play time"), play_time(duration)),
        ]
        y = 240
        for label, value in rows:
            ui.fitted(surface, label, 22, theme.CREAM, 250, topleft=(664, y))
            ui.fitted(surface, value, 24, theme.WHITE, 330, bold=True, topright=(1240, y - 2))
            y += 56
        ui.fitted(surface, _("VPIP: how often you put chips in by choice before the flop."), 16, theme.MUTED, 580,
                  topleft=(664, 578))
        self.draw_buttons(surface)
