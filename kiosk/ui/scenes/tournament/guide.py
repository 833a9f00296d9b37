"""How to play the tournament, page by page: seed 000's rules and seed 003's guide
(:mod:`kiosk.ui.scenes.tournament.guide_text`), the hand rankings with example cards,
the levels of every table, and a page for each table (its description and levels).

Opened from the table list (How to play), from the setup screen (About this table: that
table's page) and from the game's menu; BACK returns to the screen it came from.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pygame

from engine.cards import parse_cards
from kiosk.tournament.settings import TABLE_ORDER
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, category_name
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.intents import Nav
from kiosk.ui.scenes.tournament.common import (
    IDLE_OTHER,
    deck_four,
    idle_for,
    language_button,
    title_bar,
)
from kiosk.ui.scenes.tournament.guide_text import GLANCE, KICKERS, TEXT_PAGES
from kiosk.ui.scenes.tournament.rankings import RANKINGS
from kiosk.ui.scenes.tournament.table_sheet import draw_glance, draw_sheet
from kiosk.ui.widgets import Button

BOX: tuple[float, float, float, float] = (40, 100, 1200, 512)
RULES = 7  # text pages before the hand rankings
#: Every page: ("text", index into TEXT_PAGES), ("rankings", 0), ("glance", 0) or ("table", key).
PAGES: tuple[tuple[str, Any], ...] = (
    *(("text", i) for i in range(RULES)),
    ("rankings", 0),
    *(("text", i) for i in range(RULES, len(TEXT_PAGES))),
    ("glance", 0),
    *(("table", key) for key in TABLE_ORDER),
)
BACKS = ("attract", "tournament_tables", "tournament_setup", "tournament", "tournament_rankings",
         "tournament_results")


def table_page(key: str) -> int:
    """The page number of table ``key``."""
    return PAGES.index(("table", key))


#: Keys: ← / → the previous / next page, Esc and Enter back.
KEYS: dict[str, Nav] = {"left": Nav.PREV, "right": Nav.NEXT, "escape": Nav.BACK, "return": Nav.BACK}


class TournamentGuideScene(Scene):
    name = "tournament_guide"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.page = 0
        self.back_to = "attract"

    def enter(self, **kwargs: Any) -> None:
        table = kwargs.get("table")
        self.page = table_page(str(table)) if table in TABLE_ORDER else int(kwargs.get("page", 0))
        prev = self.app.previous
        if prev != self.name:
            self.back_to = prev if prev in BACKS else "attract"

    def buttons(self) -> list[Button]:
        last = len(PAGES) - 1
        return [language_button(1120, 4, 150),
                Button("prev", (40, 626, 240, 86), _("PREVIOUS"), Nav.PREV, style="plain", enabled=self.page > 0,
                       hint="←", size=26),
                Button("back", (470, 626, 340, 86), _("BACK"), Nav.BACK, style="primary", hint="Esc", size=28),
                Button("next", (1000, 626, 240, 86), _("NEXT"), Nav.NEXT, style="plain", enabled=self.page < last,
                       hint="→", size=26)]

    def on_key(self, key: Key) -> bool:
        intent = KEYS.get(key.name)
        return intent is not None and self.on_intent(intent)

    def on_intent(self, intent: object) -> bool:
        match intent:
            case Nav.NEXT:
                self.page = min(len(PAGES) - 1, self.page + 1)
            case Nav.PREV:
                self.page = max(0, self.page - 1)
            case Nav.BACK:
                self.app.go(self.back_to)
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

    # -- drawing ----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(self.app.felt, (0, 0))
        title_bar(self.app, surface, _("How to play"), _("Page {n} of {total}").format(
            n=self.page + 1, total=len(PAGES)), width=1080)
        box = lay.rect(*BOX)
        ui.box(surface, box, (0, 0, 0), 140, radius=18, border=theme.GOLD_DARK)
        kind, which = PAGES[self.page]
        x, y, w, h = BOX
        if kind == "text":
            title, paras = TEXT_PAGES[which]
            self._draw_text(surface, _(title), [_(p) for p in paras])
        elif kind == "rankings":
            self._draw_rankings(surface)
        elif kind == "glance":
            ui.fitted(surface, _("The tables at a glance"), 32, theme.GOLD, w - 60, bold=True,
                      topleft=(x + 30, y + 10))
            bottom = ui.paragraph(surface, _(GLANCE), 18, theme.CREAM, x + 30, y + 54, w - 60, line_gap=1.15)
            draw_glance(self.app, surface, (x + 36, bottom + 4, w - 72, y + h - bottom - 14))
        else:
            draw_sheet(self.app, surface, str(which), self.app.tournament.settings,
                       (x + 30, y + 14, w - 60, h - 28))
        self.draw_buttons(surface)

    def _draw_text(self, surface: pygame.Surface, title: str, paras: list[str]) -> None:
        ui = self.ui
        x, y, w, h = BOX
        ui.fitted(surface, title, 34, theme.GOLD, w - 60, bold=True, topleft=(x + 30, y + 12))
        room = h - 80
        size = 24.0
        while size > 15 and sum(ui.paragraph_height(p, size, w - 60) + size * 0.4 for p in paras) > room:
            size -= 1
        ty = y + 66
        for p in paras:
            ty = ui.paragraph(surface, p, size, theme.CREAM, x + 30, ty, w - 60) + size * 0.4

    def _draw_rankings(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        x0, y0, w, _h = BOX
        ui.fitted(surface, _("Which hand beats which"), 32, theme.GOLD, w - 60, bold=True, topleft=(x0 + 30, y0 + 10))
        cw = 40
        px = lay.px(cw)
        four = deck_four(self.app)
        for i, (cat, example, _text) in enumerate(RANKINGS):
            col, row = divmod(i, 5)
            x, y = x0 + 30 + col * 580, y0 + 58 + row * 68
            ui.fitted(surface, f"{i + 1}. " + category_name(cat), 22, theme.CREAM, 300, midleft=(x, y + 28))
            for j, c in enumerate(parse_cards(example)):
                surface.blit(self.app.cards.face(c, px, four), lay.pos(x + 310 + j * (cw + 4), y))
        ui.paragraph(surface, _(KICKERS), 18, theme.MUTED, x0 + 30, y0 + 404, w - 60, line_gap=1.2)
