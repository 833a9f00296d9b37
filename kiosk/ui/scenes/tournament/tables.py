"""Choose your table (seed 000): seed 003's game, the five named tables and Custom, each
with its description and its blind levels; Next takes the chosen table to the setup.
How to play and Records are a touch away."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import pygame

from kiosk.tournament.settings import TABLE_ORDER
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.intents import Nav
from kiosk.ui.scenes.tournament.common import (
    IDLE_OTHER,
    idle_for,
    language_button,
    table_name,
    title_bar,
)
from kiosk.ui.scenes.tournament.table_sheet import draw_sheet
from kiosk.ui.widgets import Button

LIST_X, LIST_Y, LIST_W, ROW_H, GAP = 16, 104, 234, 86, 6
SHEET = (530, 116, 724, 490)


@dataclass(frozen=True)
class PickTable:
    """Choose the table ``key`` (one of :data:`kiosk.tournament.settings.TABLE_ORDER`)."""

    key: str


@dataclass(frozen=True)
class StepTable:
    """Choose the next (``step`` 1) or previous (-1) table, wrapping round."""

    step: int


class Open(Enum):
    """The pages a touch away."""

    GUIDE = "tournament_guide"
    RECORDS = "tournament_records"


#: Keys: Enter Next, Esc back, ↑ ← / ↓ → the previous / next table.
KEYS: dict[str, Nav | StepTable] = {
    "return": Nav.NEXT,
    "escape": Nav.BACK,
    "up": StepTable(-1),
    "left": StepTable(-1),
    "down": StepTable(1),
    "right": StepTable(1),
}


class TournamentTablesScene(Scene):
    name = "tournament_tables"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.chosen = TABLE_ORDER[0]
        self.back_to = "attract"

    def enter(self, **kwargs: Any) -> None:
        self.chosen = self.app.tournament.settings.table_key()
        prev = self.app.previous
        self.back_to = prev if prev in ("tournament_setup", "tournament_results") else "attract"

    def buttons(self) -> list[Button]:
        out = [language_button(1120, 4, 150)]
        for i, key in enumerate(TABLE_ORDER):
            col, row = divmod(i, 4)
            out.append(Button(f"table_{key}", (LIST_X + col * (LIST_W + GAP), LIST_Y + row * (ROW_H + GAP),
                                               LIST_W, ROW_H), table_name(key), PickTable(key),
                              style="selected" if key == self.chosen else "dark", size=24))
        y = 626
        out += [Button("back", (16, y, 200, 86), _("BACK"), Nav.BACK, style="dark", hint="Esc", size=26),
                Button("guide", (226, y, 260, 86), _("HOW TO PLAY"), Open.GUIDE, style="plain", size=24),
                Button("records", (496, y, 240, 86), _("RECORDS"), Open.RECORDS, style="plain", size=24),
                Button("next", (1010, y, 254, 86), _("NEXT"), Nav.NEXT, style="primary", hint="Enter", size=30)]
        return out

    def on_key(self, key: Key) -> bool:
        intent = KEYS.get(key.name)
        return intent is not None and self.on_intent(intent)

    def on_intent(self, intent: object) -> bool:
        ctx = self.app.tournament
        match intent:
            case PickTable(key=key):
                self.chosen = key
            case StepTable(step=step):
                i = TABLE_ORDER.index(self.chosen) + step
                self.chosen = TABLE_ORDER[i % len(TABLE_ORDER)]
            case Nav.NEXT:
                ctx.settings = ctx.settings.for_table(self.chosen)
                self.app.go("tournament_setup")
            case Nav.BACK:
                self.app.go(self.back_to)
            case Open():
                self.app.go(intent.value)
            case _:
                return False
        return True

    def update(self, dt: float) -> None:
        if idle_for(self.app) > IDLE_OTHER:
            self.app.go("attract")

    def look(self) -> Hashable:
        return ()  # what it shows changes with the input alone

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(self.app.felt, (0, 0))
        title_bar(self.app, surface, _("Choose your table"), _("Tap a table, then Next."), width=1080)
        x, y, w, h = SHEET
        box = lay.rect(x - 16, y - 12, w + 30, h + 18)
        ui.box(surface, box, (0, 0, 0), 140, radius=18, border=theme.GOLD_DARK)
        draw_sheet(self.app, surface, self.chosen, self.app.tournament.settings, SHEET)
        ui.paragraph(surface, _("Chips are points only: no money."), 17, theme.MUTED, LIST_X + 4, 490, 480)
        self.draw_buttons(surface)
