"""Tournament setup (seed 000): the chosen table (About this table, ‹ Choose another
table), players, your name and icon, each computer player's strength, starting chips,
starting blinds, blind increase, and your preferences -- AI speed, equity assist, deck.
The defaults are seed 003's game: you against Ike, Max, Rosa, Jules and Nina with 1,500
chips, blinds 10/20 going up every 5 hands.  Changing the chips, blinds or blind
increase away from the table's makes it Custom.  A saved game can be continued from here
(asking whose it is when it is another name's), or replaced (with a question).  Invite
a friend to play opens the invitation (:mod:`kiosk.ui.scenes.tournament.invite`); Join a
game takes a seat in a game another cabinet hosts (:mod:`kiosk.ui.scenes.tournament.join`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import Any

import pygame

from engine.holdem.blinds import BLIND_LEVELS, STARTING_LEVELS
from engine.holdem.bots import Difficulty
from kiosk.tournament.settings import (
    CHIP_CHOICES,
    DEFAULT_NAME,
    ICON_COUNT,
    INCREASE_CHOICES,
    SPEEDS,
    TournamentSettings,
)
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
    player_name,
    strength_name,
    table_name,
    top_background,
)
from kiosk.ui.scenes.tournament.icons import icon_surface
from kiosk.ui.scenes.tournament.keyboard import NameKeyboard
from kiosk.ui.scenes.tournament.table_sheet import numbers_text, table_values
from kiosk.ui.widgets import Button

ROW_Y = (97, 186, 275, 364, 453, 542)
BOTTOM_Y = 631
ROW_H = 86
LABEL_W = 230
X0 = 256
ICON_X = 752
STRENGTHS = tuple(d.value for d in Difficulty)


class TournamentSetupScene(Scene):
    name = "tournament_setup"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.confirm_new = False
        self.saved: dict[str, Any] | None = None
        self.whose = False  # asking whose the saved game is
        self.keyboard: NameKeyboard | None = None

    @property
    def settings(self) -> TournamentSettings:
        return self.app.tournament.settings

    def _set(self, **changes: Any) -> None:
        ctx = self.app.tournament
        ctx.settings = ctx.settings.with_values(**changes)

    def _pref(self, **changes: Any) -> None:
        ctx = self.app.tournament
        ctx.settings = replace(ctx.settings, **changes)

    def enter(self, **kwargs: Any) -> None:
        self.confirm_new = False
        self.whose = False
        self.keyboard = None
        self.saved = self.app.tournament.saved_info()

    @property
    def saved_name(self) -> str | None:
        return str(self.saved.get("name") or DEFAULT_NAME) if self.saved is not None else None

    # -- buttons ------------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        if self.keyboard is not None:
            return self.keyboard.buttons()
        return self._main_buttons()

    def _main_buttons(self) -> list[Button]:
        if self.confirm_new:
            return [Button("confirm_new", (350, 430, 280, 96), _("START NEW"), "start", True, style="fold", size=28),
                    Button("cancel_new", (650, 430, 280, 96), _("CANCEL"), "cancel", style="plain", hint="Esc",
                           size=28)]
        if self.whose:
            who = player_name(self.saved_name or DEFAULT_NAME)
            return [Button("confirm_whose", (320, 430, 380, 96), _("CONTINUE AS {name}").format(name=who),
                           "continue", True, style="play", size=26),
                    Button("cancel_whose", (720, 430, 240, 96), _("CANCEL"), "cancel", style="plain", hint="Esc",
                           size=28)]
        s = self.settings
        sel = lambda on: "selected" if on else "dark"  # noqa: E731
        out = [Button("about", (556, 4, 262, 86), _("About this table"), "about", style="dark", size=21),
               Button("choose_table", (824, 4, 290, 86), "‹ " + _("Choose another table"), "choose_table",
                      style="dark", size=21),
               language_button(1120, 4, 154)]
        y = ROW_Y[0]
        for i, n in enumerate(range(2, 7)):
            out.append(Button(f"players_{n}", (X0 + i * 98, y, 90, ROW_H), str(n), "players", n,
                              style=sel(s.players == n), size=34))
        out.append(Button("icon", (ICON_X, y, 96, ROW_H), "", "icon", style="dark"))
        out.append(Button("name", (ICON_X + 104, y, 1274 - ICON_X - 104, ROW_H), player_name(s.human_name), "name",
                          style="dark", size=28, sublabel=_("Tap to type your name")))
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
            out.append(Button(f"speed_{speed}", (X0 + i * 126, y, 120, ROW_H), _(SPEED_NAMES[speed]), "speed",
                              speed, style=sel(s.ai_speed == speed), size=22))
        out.append(Button("equity_on", (768, y, 96, ROW_H), _("On"), "equity", True,
                          style=sel(s.equity_assist), size=22))
        out.append(Button("equity_off", (868, y, 96, ROW_H), _("Off"), "equity", False,
                          style=sel(not s.equity_assist), size=22))
        out.append(Button("deck_2", (1072, y, 99, ROW_H), _("2 colours"), "deck", False,
                          style=sel(not s.four_colour), size=20))
        out.append(Button("deck_4", (1175, y, 99, ROW_H), _("4 colours"), "deck", True,
                          style=sel(s.four_colour), size=20))
        by = BOTTOM_Y
        if self.saved is not None:
            out.append(Button("back", (16, by, 190, 86), _("BACK"), "back", style="dark", hint="Esc", size=26))
            out.append(Button("invite", (410, by, 200, 86), _("Invite a friend to play"), "invite", style="dark",
                              size=20))
            out.append(Button("join", (620, by, 180, 86), _("Join a game"), "join", style="dark", size=20))
            out.append(Button("continue", (810, by, 220, 86), _("CONTINUE"), "continue", style="play", size=28,
                              sublabel=_("Hand {n}").format(n=self.saved["hand"])))
            out.append(Button("start", (1040, by, 230, 86), _("NEW GAME"), "start", style="primary", size=28,
                              hint="Enter"))
        else:
            out.append(Button("back", (16, by, 200, 86), _("BACK"), "back", style="dark", hint="Esc", size=26))
            out.append(Button("invite", (426, by, 240, 86), _("Invite a friend to play"), "invite", style="dark",
                              size=22))
            out.append(Button("join", (676, by, 204, 86), _("Join a game"), "join", style="dark", size=22))
            out.append(Button("start", (890, by, 380, 86), _("START GAME"), "start", style="primary", size=32,
                              hint="Enter"))
        return out

    # -- input ----------------------------------------------------------------------------------
    def on_key(self, key: Key) -> bool:
        if self.keyboard is not None:
            self.keyboard.key(key)
            self._keyboard_closed()
            return True
        if key.name == "return":
            if self.whose:
                return self.on_command("continue", True)
            return self.on_command("continue" if self.saved is not None and not self.confirm_new else "start",
                                   True if self.confirm_new else None)
        if key.name == "escape":
            return self.on_command("cancel" if self.confirm_new or self.whose else "back")
        if key.name in ("up", "down"):
            n = self.settings.players + (1 if key.name == "up" else -1)
            return self.on_command("players", max(2, min(6, n)))
        return False

    def _keyboard_closed(self) -> None:
        kb = self.keyboard
        if kb is not None and not kb.open:
            if kb.result is not None:
                self._pref(human_name=kb.result)
                self.saved = self.app.tournament.saved_info()
            self.keyboard = None

    def on_command(self, name: str, arg: object = None) -> bool:
        if self.keyboard is not None:
            self.keyboard.command(name, arg)
            self._keyboard_closed()
            return True
        s = self.settings
        if (self.confirm_new or self.whose) and name not in ("start", "continue", "cancel", "language",
                                                              "set_language"):
            return True
        if name == "back":
            self.app.go("attract")
        elif name == "about":
            self.app.go("tournament_guide", table=s.table_key())
        elif name == "choose_table":
            self.app.go("tournament_tables")
        elif name == "name":
            self.keyboard = NameKeyboard("" if s.human_name == DEFAULT_NAME else s.human_name)
        elif name == "icon":
            self._pref(human_icon=(s.human_icon + 1) % ICON_COUNT)
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
            self._pref(ai_speed=str(arg))
        elif name == "equity":
            self._pref(equity_assist=bool(arg))
        elif name == "deck":
            self._pref(four_colour=bool(arg))
        elif name == "invite":
            self.app.go("tournament_invite")
        elif name == "join":
            self.app.go("tournament_join")
        elif name == "continue":
            self._continue(confirmed=arg is True)
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
            self.whose = False
        else:
            return False
        return True

    def _continue(self, confirmed: bool) -> None:
        """Continue the saved game; first ask whose it is when it is another name's."""
        if self.saved is None:
            return
        if self.saved_name != self.settings.human_name and not confirmed:
            self.whose = True
            return
        self.whose = False
        if self.app.tournament.resume() is not None:
            self.app.go("tournament")
        else:
            self.saved = None

    def update(self, dt: float) -> None:
        if idle_for(self.app) > IDLE_OTHER:
            self.app.go("attract")

    def look(self) -> Hashable:
        return ()  # what it shows changes with the input alone

    # -- drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        s = self.settings
        surface.blit(self.app.felt, (0, 0))
        top_background(self.app, surface)
        key = s.table_key()
        ui.fitted(surface, table_name(key), 32, theme.GOLD, 520, bold=True, topleft=(22, 8))
        ui.fitted(surface, numbers_text(*table_values(key, s)), 17, theme.CREAM, 520, topleft=(24, 56))
        labels = (_("Players"), _("Computer players"), _("Starting chips"), _("Starting blinds"),
                  _("Blind increase"), _("AI speed"))
        for label, y in zip(labels, ROW_Y, strict=True):
            ui.fitted(surface, label, 24, theme.GOLD, LABEL_W - 10, bold=True, midleft=(22, y + ROW_H / 2))
        mid = ROW_Y[5] + ROW_H / 2
        ui.fitted(surface, _("Equity assist"), 20, theme.GOLD, 126, bold=True, midright=(762, mid))
        ui.fitted(surface, _("Deck"), 20, theme.GOLD, 100, bold=True, midright=(1066, mid))
        if self.saved is not None:
            ui.fitted(surface, _("Paused."), 24, theme.WIN, 186, bold=True, topleft=(216, BOTTOM_Y + 8))
            ui.fitted(surface, _("Saved game of {name}").format(name=player_name(self.saved_name or DEFAULT_NAME)),
                      17, theme.CREAM, 186, topleft=(216, BOTTOM_Y + 44))
        else:
            ui.fitted(surface, _("Chips are points only: no money."), 17, theme.MUTED, 190, max_h=60, max_lines=3,
                      topleft=(228, BOTTOM_Y + 14))
        if self.confirm_new:
            self._draw_question(surface, _("Start a new tournament?"), _(
                "The one you were playing ends, and everyone starts again with {chips} chips.").format(
                chips=chips(s.starting_chips)))
        elif self.whose:
            who = player_name(self.saved_name or DEFAULT_NAME)
            self._draw_question(surface, _("Whose game is this?"), _(
                "The saved game is {name}'s. Continue it only if you are {name}.").format(name=who))
        self.draw_buttons(surface, self._main_buttons())
        if not (self.confirm_new or self.whose):
            icon = lay.rect(ICON_X, ROW_Y[0], 96, ROW_H - 3)
            img = icon_surface(s.human_icon, lay.px(70))
            surface.blit(img, img.get_rect(center=icon.center))
        if self.keyboard is not None:
            self.keyboard.draw(self.app, surface)
            self.draw_buttons(surface)

    def _draw_question(self, surface: pygame.Surface, title: str, text: str) -> None:
        ui, lay = self.ui, self.layout
        ui.shade(surface, 160)
        box = lay.rect(300, 180, 680, 380)
        ui.box(surface, box, theme.PANEL, 245, radius=20, border=theme.GOLD, border_w=3)
        ui.fitted(surface, title, 36, theme.GOLD, 620, bold=True, center=(640, 250))
        ui.paragraph(surface, text, 24, theme.CREAM, 340, 300, 600)
