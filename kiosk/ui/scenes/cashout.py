"""Cash out: the payout in progress (printing a ticket, or a hand pay by an attendant),
then the ticket to take, then back to attract.  Drawn as a display list: a frame repaints
what changed (the flashing CALL ATTENDANT, the printing dots)."""

from __future__ import annotations

from typing import Any

import pygame

from kiosk.ui import theme
from kiosk.ui.frames import DisplayList
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import fmt, machine_words
from kiosk.ui.scenes.intents import Nav
from kiosk.ui.widgets import Button

THANKS_SECONDS = 6.0
#: Shortcut command name -> request: Esc, Space and Enter press DONE.
COMMANDS: dict[str, Nav] = {"back": Nav.BACK, "deal": Nav.BACK}


class CashoutScene(Scene):
    name = "cashout"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.amount = 0
        self.method = ""
        self.done_at: float | None = None
        self.ticket: Any = None
        self.frames = DisplayList()

    def enter(self, **kwargs: Any) -> None:
        c = self.snap.cashout
        self.amount = c.amount if c else 0
        self.method = c.method if c else ""
        self.done_at = None
        self.ticket = None
        self.frames.invalidate()

    def buttons(self) -> list[Button]:
        if self.done_at is not None:
            return [Button("done", (490, 610, 300, 90), _("DONE"), Nav.BACK, style="primary")]
        return []

    def on_command(self, name: str, arg: object = None) -> bool:
        intent = COMMANDS.get(name)
        return intent is not None and self.on_intent(intent)

    def on_intent(self, intent: object) -> bool:
        """DONE (after the payout; before it, nothing)."""
        if intent is not Nav.BACK:
            return False
        if self.done_at is not None:
            self.app.go("attract" if self.snap.credits <= 0 else "table")
        return True

    def on_touch(self, pos: tuple[int, int]) -> bool:
        return True

    def update(self, dt: float) -> None:
        c = self.snap.cashout
        if c is not None:
            self.amount, self.method = c.amount, c.method
            return
        if self.done_at is None:
            self.done_at = self.app.now
            demo = self.app.demo
            self.ticket = demo.last_ticket if demo is not None else None
            if self.method == "":
                self.app.go("table")
            return
        if self.snap.credits > 0 or self.app.now - self.done_at > THANKS_SECONDS:
            self.app.go("attract" if self.snap.credits <= 0 else "table")

    def invalidate(self) -> None:
        self.frames.invalidate()

    def draw(self, surface: pygame.Surface) -> None:
        self.dirty = self.frames.draw(surface, self.paint)

    def paint(self, surface: Any) -> None:
        """The whole picture (on a recorder: :class:`DisplayList` repaints what changed,
        the flashing CALL ATTENDANT, the printing dots)."""
        ui, lay = self.ui, self.layout
        surface.blit(self.app.felt, (0, 0))
        box = lay.rect(190, 60, 900, 530)
        ui.box(surface, box, (0, 0, 0), 170, radius=24, border=theme.GOLD, border_w=3)
        amount = fmt(self.app, self.amount)
        if self.done_at is None:
            if self.method == "handpay":
                ui.fitted(surface, _("HAND PAY"), 56, theme.GOLD, 820, bold=True, center=(640, 140))
                ui.fitted(surface, amount, 80, theme.WHITE, 820, bold=True, center=(640, 270))
                ui.fitted(surface, _("An attendant will pay you. Please wait."), 30, theme.CREAM, 820,
                          center=(640, 390))
                if int(self.app.now * 2) % 2 == 0:
                    ui.fitted(surface, _("CALL ATTENDANT"), 36, theme.WIN, 820, bold=True, center=(640, 470))
            else:
                ui.fitted(surface, _("CASHING OUT"), 56, theme.GOLD, 820, bold=True, center=(640, 140))
                ui.fitted(surface, amount, 80, theme.WHITE, 820, bold=True, center=(640, 270))
                dots = "." * (1 + int(self.app.now * 3) % 3)
                ui.fitted(surface, _("Printing your ticket") + dots, 32, theme.CREAM, 820, midleft=(420, 400))
        else:
            ui.fitted(surface, _("THANK YOU!"), 56, theme.GOLD, 820, bold=True, center=(640, 120))
            if self.method == "ticket":
                ui.fitted(surface, _("Please take your ticket."), 32, theme.CREAM, 820, center=(640, 180))
                self._draw_ticket(surface)
            else:
                ui.fitted(surface, _("You have been paid {amount}.").format(amount=amount), 32, theme.CREAM, 820,
                          center=(640, 300))
        self.draw_buttons(surface)

    def _draw_ticket(self, surface: Any) -> None:
        ui, lay = self.ui, self.layout
        r = lay.rect(340, 220, 600, 370 - 20)
        surface.rect((250, 248, 236), r, border_radius=lay.px(10))
        surface.rect(theme.GOLD_DARK, r, max(1, lay.px(2)), border_radius=lay.px(10))
        casino = self.app.casino_name
        ui.fitted(surface, casino, 22, theme.INK, 560, bold=True, center=(640, 246))
        ui.fitted(surface, _("CASH OUT TICKET"), 28, theme.INK, 560, bold=True, center=(640, 282))
        ui.fitted(surface, fmt(self.app, self.amount), 46, theme.INK, 560, bold=True, center=(640, 336))
        number = self.ticket.barcode if self.ticket is not None else ""
        if number:
            # a simple bar pattern from the digits (the printer prints the real ITF barcode)
            x = 640 - len(number) * 19.5 / 2
            for ch in number:
                d = int(ch)
                for k in range(3):
                    w = 2 + ((d >> k) & 1) * 3
                    surface.rect(theme.INK, lay.rect(x, 372, w, 80))
                    x += w + 3
            spaced = " ".join(number[i:i + 4] for i in range(0, len(number), 4))
            ui.fitted(surface, spaced, 22, theme.INK, 560, center=(640, 476))
        machine = machine_words(self.app)
        if machine:
            ui.fitted(surface, machine, 18, theme.INK, 560, center=(640, 510))
