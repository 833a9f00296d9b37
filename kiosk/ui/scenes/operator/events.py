"""The event log page: the ledger's events in words, newest first, a screenful at a time."""

from __future__ import annotations

import pygame

from kiosk.ui import theme
from kiosk.ui.i18n import _
from kiosk.ui.scenes.intents import Nav
from kiosk.ui.scenes.operator.event_text import sentence
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, WIDTH, Page
from kiosk.ui.widgets import Button

#: Events on one screen.
PER_PAGE = 11
LINE_H = 43


class EventsPage(Page):
    id = "events"
    offset = 0  # how many of the newest events are scrolled past

    def open(self) -> None:
        self.offset = 0

    def buttons(self) -> list[Button]:
        return [Button("older", (240, ROW_Y, 200, ROW_H), _("OLDER"), Nav.OLDER, style="plain"),
                Button("newer", (450, ROW_Y, 200, ROW_H), _("NEWER"), Nav.NEWER, style="plain",
                       enabled=self.offset > 0)]

    def on_intent(self, intent: object) -> bool:
        match intent:
            case Nav.OLDER:
                self.offset += PER_PAGE
            case Nav.NEWER:
                self.offset = max(0, self.offset - PER_PAGE)
            case _:
                return False
        return True

    def lines(self) -> list[tuple[str, str]]:
        """``(when, sentence)`` of the events on screen, newest first."""
        desk = self.desk
        want = PER_PAGE + self.offset
        evs = desk.cached(("events", want), lambda: desk.operations.ledger_events(last=want))
        evs = evs[: max(0, len(evs) - self.offset)][-PER_PAGE:]
        return [(ev.at.replace("T", " ")[:19], sentence(ev, desk.money)) for ev in reversed(evs)]

    def draw(self, surface: pygame.Surface) -> None:
        ui = self.desk.ui
        lines = self.lines()
        if not lines:
            ui.fitted(surface, _("No events."), 24, theme.MUTED, WIDTH, topleft=(LEFT, TOP + 10))
        y = TOP + 4
        for i, (when, text) in enumerate(lines):
            if i % 2:
                band = self.desk.layout.rect(LEFT - 8, y - 6, WIDTH + 16, LINE_H)
                surface.fill((24, 30, 38), band)
            ui.fitted(surface, when, 20, theme.MUTED, 230, topleft=(LEFT, y))
            ui.fitted(surface, text, 22, theme.CREAM, WIDTH - 240, topleft=(LEFT + 240, y - 1))
            y += LINE_H
