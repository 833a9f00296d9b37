"""Tournament setup (seed 000): players, each computer player's strength, starting chips,
starting blinds, blind increase, AI speed and equity assist.  The defaults are seed 003's
game: you against Ike, Max, Rosa, Jules and Nina with 1,500 chips, blinds 10/20 going up
every 5 hands.  A saved game can be continued from here, or replaced (with a question).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pygame

from engine.holdem.blinds import BLIND_LEVELS, STARTING_LEVELS
from engine.holdem.bots import Difficulty
from kiosk.tournament.settings import CHIP_CHOICES, INCREASE_CHOICES, SPEEDS, TournamentSettings
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.tournament.common import (
    IDLE_OTHER,
    SPEED_NAMES,
    chips,
    idle_for,
    language_button,
    strength_name,
    table_name,
    title_bar,
)
from kiosk.ui.widgets import Button

ROW_Y = (72, 164, 256, 348, 440, 532)
ROW_H = 86
LABEL_W = 230
X0 = 256
STRENGTHS = tuple(d.value for d in Difficulty)


class TournamentSetupScene(Scene):
    name = "tournament_setup"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.confirm_new = False
        self.saved: dict[str, Any] | None = None

    @property
    def settings(self) -> TournamentSettings:
        return self.app.tournament.settings

    def _set(self, **changes: Any) -> None:
        ctx = self.app.tournament
        ctx.settings = replace(ctx.settings, **changes)

    def enter(self, **kwargs: Any) -> None:
        self.confirm_new = False
        self.saved = self.app.tournament.saved_info()

    # -- buttons ------------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        s = self.settings
        if self.confirm_new:
            return [Button("confirm_new", (350, 430, 280, 96), _("START NEW"), "start", True, style="fold", size=28),
                    Button("cancel_new", (650, 430, 280, 96), _("CANCEL"), "cancel", style="plain", hint="Esc",
                           size=28)]
        sel = lambda on: "selected" if on else "dark"  # noqa: E731
        by = 626
        out = [Button("back", (16, by, 200, 86), _("BACK"), "back", style="dark", hint="Esc", size=26),
               language_button(226, by, 150)]
        y = ROW_Y[0]
        for i, n in enumerate(range(2, 7)):
            out.append(Button(f"players_{n}", (X0 + i * 104, y, 96, ROW_H), str(n), "players", n,
                              style=sel(s.players == n), size=34))
        y = ROW_Y[1]
        w = 196
        for i, name in enumerate(s.bot_names):
            out.append(Button(f"seat_{i + 1}", (X0 + i * (w + 8), y, w, ROW_H), name, "strength", i,
                              sublabel=strength_name(s.strengths[i]),
                              style={"easy": "check", "normal": "dark", "hard": "fold"}[s.strengths[i]], size=26))
        y = ROW_Y[2]
        for i, c in enumerate(CHIP_CHOICES):
            out.append(Button(f"chips_{c}", (X0 + i * 170, y, 162, ROW_H), chips(c), "chips", c,
                              style=sel(s.starting_chips == c), size=28))
        y = ROW_Y[3]
        for i, level in enumerate(STARTING_LEVELS):
            b = BLIND_LEVELS[level]
            out.append(Button(f"blinds_{level}", (X0 + i * 170, y, 162, ROW_H), f"{chips(b.small)}/{chips(b.big)}",
                              "blinds", level, style=sel(s.starting_level == level), size=28))
        y = ROW_Y[4]
        for i, per in enumerate(INCREASE_CHOICES):
            label = _("Never") if per is None else _("Every {n} hands").format(n=per)
            out.append(Button(f"increase_{per or 0}", (X0 + i * 212, y, 204, ROW_H), label, "increase", per,
                              style=sel(s.hands_per_level == per), size=24))
        y = ROW_Y[5]
        for i, speed in enumerate(SPEEDS):
            out.append(Button(f"speed_{speed}", (X0 + i * 150, y, 142, ROW_H), _(SPEED_NAMES[speed]), "speed",
                              speed, style=sel(s.ai_speed == speed), size=24))
        out.append(Button("equity_on", (1000, y, 132, ROW_H), _("On"), "equity", True,
                          style=sel(s.equity_assist), size=24))
        out.append(Button("equity_off", (1140, y, 132, ROW_H), _("Off"), "equity", False,
                          style=sel(not s.equity_assist), size=24))
        if self.saved is not None:
            out.append(Button("continue", (640, by, 300, 86), _("CONTINUE"), "continue", style="play", size=30,
                              sublabel=_("Hand {n}").format(n=self.saved["hand"])))
            out.append(Button("start", (950, by, 320, 86), _("NEW GAME"), "start", style="primary", size=30,
                              hint="Enter"))
        else:
            out.append(Button("start", (890, by, 380, 86), _("START GAME"), "start", style="primary", size=32,
                              hint="Enter"))
        return out

    # -- input ----------------------------------------------------------------------------------
    def on_key(self, key: Key) -> bool:
        if key.name == "return":
            return self.on_command("continue" if self.saved is not None and not self.confirm_new else "start",
                                   True if self.confirm_new else None)
        if key.name == "escape":
            return self.on_command("cancel" if self.confirm_new else "back")
        if key.name in ("up", "down"):
            n = self.settings.players + (1 if key.name == "up" else -1)
            return self.on_command("players", max(2, min(6, n)))
        return False

    def on_command(self, name: str, arg: object = None) -> bool:
        s = self.settings
        if self.confirm_new and name not in ("start", "cancel", "language", "set_language"):
            return True
        if name == "back":
            self.app.go("attract")
        elif name == "players":
            self._set(players=int(str(arg)))
        elif name == "strength":
            i = int(str(arg))
            nxt = STRENGTHS[(STRENGTHS.index(s.strengths[i]) + 1) % len(STRENGTHS)]
            self.app.tournament.settings = s.with_strength(i, nxt)
        elif name == "chips":
            self._set(starting_chips=int(str(arg)))
        elif name == "blinds":
            self._set(starting_level=int(str(arg)))
        elif name == "increase":
            self._set(hands_per_level=arg)
        elif name == "speed":
            self._set(ai_speed=str(arg))
        elif name == "equity":
            self._set(equity_assist=bool(arg))
        elif name == "continue":
            if self.app.tournament.resume() is not None:
                self.app.go("tournament")
            else:
                self.saved = None
        elif name == "start":
            if self.saved is not None and arg is not True:
                self.confirm_new = True
                return True
            self.confirm_new = False
            ctx = self.app.tournament
            if ctx.session is not None and not ctx.session.recorded:
                ctx.session.abandon()
            ctx.new_game()
            self.app.go("tournament")
        elif name == "cancel":
            self.confirm_new = False
        else:
            return False
        return True

    def update(self, dt: float) -> None:
        if idle_for(self.app) > IDLE_OTHER:
            self.app.go("attract")

    # -- drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        ui = self.ui
        surface.blit(self.app.felt, (0, 0))
        title_bar(self.app, surface, _("TOURNAMENT"), _("Touch a computer player to change its strength."),
                  slim=True)
        labels = (_("Players"), _("Computer players"), _("Starting chips"), _("Starting blinds"),
                  _("Blind increase"), _("AI speed"))
        for label, y in zip(labels, ROW_Y, strict=True):
            ui.fitted(surface, label, 24, theme.GOLD, LABEL_W - 10, bold=True, midleft=(22, y + ROW_H / 2))
        ui.fitted(surface, _("Equity assist"), 22, theme.GOLD, 180, bold=True,
                  midright=(990, ROW_Y[5] + ROW_H / 2))
        if self.saved is not None:
            ui.fitted(surface, _("Paused."), 24, theme.WIN, 245, bold=True, topleft=(390, 636))
            ui.paragraph(surface, _("Your tournament waits for you."), 17, theme.CREAM, 390, 668, 245,
                         line_gap=1.15)
        else:
            ui.fitted(surface, _("Table: {name}").format(name=table_name(self.settings.table_key())), 21, theme.GOLD,
                      480, bold=True, topleft=(392, 636))
            ui.fitted(surface, _("Chips are points only: no money."), 17, theme.MUTED, 480, topleft=(392, 672))
        if self.confirm_new:
            self._draw_confirm(surface)
        self.draw_buttons(surface)

    def _draw_confirm(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(ui.panel(lay.size, (0, 0, 0), 160, radius=0), (0, 0))
        box = lay.rect(300, 180, 680, 380)
        surface.blit(ui.panel(box.size, theme.PANEL, 245, radius=20, border=theme.GOLD, border_w=3), box)
        ui.fitted(surface, _("Start a new tournament?"), 36, theme.GOLD, 620, bold=True, center=(640, 250))
        ui.paragraph(surface, _("The one you were playing ends, and everyone starts again with {chips} chips.").format(
            chips=chips(self.settings.starting_chips)), 24, theme.CREAM, 340, 300, 600)
