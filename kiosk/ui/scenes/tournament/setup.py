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
from dataclasses import dataclass, replace
from enum import Enum
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
from kiosk.ui.scenes.intents import Nav, TopBar
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


class Setup(Enum):
    """The setup screen's pages, pop-ups and questions."""

    ABOUT = "about"  # the chosen table's page of the guide
    CHOOSE_TABLE = "choose_table"
    NAME = "name"  # type the name
    ICON = "icon"  # the next icon
    INVITE = "invite"
    JOIN = "join"
    CANCEL = "cancel"  # answer no to the question shown
    ENTER = "enter"  # Enter: the question's yes, else continue the saved game, else start


@dataclass(frozen=True)
class Players:
    """Play with ``n`` players (2..6), the human included."""

    n: int


@dataclass(frozen=True)
class Strength:
    """The next strength for the computer player in seat ``seat`` (0-based)."""

    seat: int


@dataclass(frozen=True)
class StartingChips:
    chips: int


@dataclass(frozen=True)
class StartingBlinds:
    """Start at blind level ``level`` (:data:`engine.holdem.blinds.BLIND_LEVELS`)."""

    level: int


@dataclass(frozen=True)
class BlindIncrease:
    """Raise the blinds every ``hands`` hands (``None``: never)."""

    hands: int | None


@dataclass(frozen=True)
class AiSpeed:
    speed: str


@dataclass(frozen=True)
class EquityAssist:
    on: bool


@dataclass(frozen=True)
class FourColours:
    on: bool


@dataclass(frozen=True)
class Continue:
    """Continue the saved game (``confirmed``: it is this name's, do not ask)."""

    confirmed: bool = False


@dataclass(frozen=True)
class Start:
    """Start a new game (``confirmed``: replacing the saved one, do not ask)."""

    confirmed: bool = False


SetupIntent = (
    Setup | Nav | TopBar | Players | Strength | StartingChips | StartingBlinds | BlindIncrease | AiSpeed
    | EquityAssist | FourColours | Continue | Start
)
#: Keys the screen reads itself: Enter, Esc (no; else back), ↑ ↓ one player more or fewer.
KEYS: dict[str, SetupIntent] = {"return": Setup.ENTER, "escape": Nav.BACK, "up": Nav.UP, "down": Nav.DOWN}
#: What a question (start anew? whose game?) lets through: its answers and the language.
ANSWERS = (Setup.CANCEL, TopBar.LANGUAGE)


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
            return [Button("confirm_new", (350, 430, 280, 96), _("START NEW"), Start(True), style="fold", size=28),
                    Button("cancel_new", (650, 430, 280, 96), _("CANCEL"), Setup.CANCEL, style="plain", hint="Esc",
                           size=28)]
        if self.whose:
            who = player_name(self.saved_name or DEFAULT_NAME)
            return [Button("confirm_whose", (320, 430, 380, 96), _("CONTINUE AS {name}").format(name=who),
                           Continue(True), style="play", size=26),
                    Button("cancel_whose", (720, 430, 240, 96), _("CANCEL"), Setup.CANCEL, style="plain", hint="Esc",
                           size=28)]
        s = self.settings
        sel = lambda on: "selected" if on else "dark"  # noqa: E731
        out = [Button("about", (556, 4, 262, 86), _("About this table"), Setup.ABOUT, style="dark", size=21),
               Button("choose_table", (824, 4, 290, 86), "‹ " + _("Choose another table"), Setup.CHOOSE_TABLE,
                      style="dark", size=21),
               language_button(1120, 4, 154)]
        y = ROW_Y[0]
        for i, n in enumerate(range(2, 7)):
            out.append(Button(f"players_{n}", (X0 + i * 98, y, 90, ROW_H), str(n), Players(n),
                              style=sel(s.players == n), size=34))
        out.append(Button("icon", (ICON_X, y, 96, ROW_H), "", Setup.ICON, style="dark"))
        out.append(Button("name", (ICON_X + 104, y, 1274 - ICON_X - 104, ROW_H), player_name(s.human_name), Setup.NAME,
                          style="dark", size=28, sublabel=_("Tap to type your name")))
        y = ROW_Y[1]
        w = 196
        for i, name in enumerate(s.bot_names):
            out.append(Button(f"seat_{i + 1}", (X0 + i * (w + 8), y, w, ROW_H), name, Strength(i),
                              sublabel=strength_name(s.strengths[i]),
                              style={"easy": "check", "normal": "dark", "hard": "fold"}[s.strengths[i]], size=26))
        y = ROW_Y[2]
        for i, c in enumerate(CHIP_CHOICES):
            out.append(Button(f"chips_{c}", (X0 + i * 170, y, 162, ROW_H), chips(c), StartingChips(c),
                              style=sel(s.starting_chips == c), size=28))
        y = ROW_Y[3]
        for i, level in enumerate(STARTING_LEVELS):
            b = BLIND_LEVELS[level]
            out.append(Button(f"blinds_{level}", (X0 + i * 170, y, 162, ROW_H), f"{chips(b.small)}/{chips(b.big)}",
                              StartingBlinds(level), style=sel(s.starting_level == level), size=28))
        y = ROW_Y[4]
        for i, per in enumerate(INCREASE_CHOICES):
            label = _("Never") if per is None else _("Every {n} hands").format(n=per)
            out.append(Button(f"increase_{per or 0}", (X0 + i * 212, y, 204, ROW_H), label, BlindIncrease(per),
                              style=sel(s.hands_per_level == per), size=24))
        y = ROW_Y[5]
        for i, speed in enumerate(SPEEDS):
            out.append(Button(f"speed_{speed}", (X0 + i * 126, y, 120, ROW_H), _(SPEED_NAMES[speed]), AiSpeed(speed),
                              style=sel(s.ai_speed == speed), size=22))
        out.append(Button("equity_on", (768, y, 96, ROW_H), _("On"), EquityAssist(True),
                          style=sel(s.equity_assist), size=22))
        out.append(Button("equity_off", (868, y, 96, ROW_H), _("Off"), EquityAssist(False),
                          style=sel(not s.equity_assist), size=22))
        out.append(Button("deck_2", (1072, y, 99, ROW_H), _("2 colours"), FourColours(False),
                          style=sel(not s.four_colour), size=20))
        out.append(Button("deck_4", (1175, y, 99, ROW_H), _("4 colours"), FourColours(True),
                          style=sel(s.four_colour), size=20))
        by = BOTTOM_Y
        if self.saved is not None:
            out.append(Button("back", (16, by, 190, 86), _("BACK"), Nav.BACK, style="dark", hint="Esc", size=26))
            out.append(Button("invite", (410, by, 200, 86), _("Invite a friend to play"), Setup.INVITE, style="dark",
                              size=20))
            out.append(Button("join", (620, by, 180, 86), _("Join a game"), Setup.JOIN, style="dark", size=20))
            out.append(Button("continue", (810, by, 220, 86), _("CONTINUE"), Continue(), style="play", size=28,
                              sublabel=_("Hand {n}").format(n=self.saved["hand"])))
            out.append(Button("start", (1040, by, 230, 86), _("NEW GAME"), Start(), style="primary", size=28,
                              hint="Enter"))
        else:
            out.append(Button("back", (16, by, 200, 86), _("BACK"), Nav.BACK, style="dark", hint="Esc", size=26))
            out.append(Button("invite", (426, by, 240, 86), _("Invite a friend to play"), Setup.INVITE, style="dark",
                              size=22))
            out.append(Button("join", (676, by, 204, 86), _("Join a game"), Setup.JOIN, style="dark", size=22))
            out.append(Button("start", (890, by, 380, 86), _("START GAME"), Start(), style="primary", size=32,
                              hint="Enter"))
        return out

    # -- input ----------------------------------------------------------------------------------
    def on_key(self, key: Key) -> bool:
        if self.keyboard is not None:
            self.keyboard.key(key)
            self._keyboard_closed()
            return True
        intent = KEYS.get(key.name)
        return intent is not None and self.on_intent(self._key_intent(intent))

    def _key_intent(self, intent: SetupIntent) -> SetupIntent:
        """What a key asks for now: Enter answers yes to the question shown, else
        continues the saved game, else starts; Esc answers no, else goes back; ↑ ↓ one
        player more or fewer (2 to 6)."""
        asking = self.confirm_new or self.whose
        match intent:
            case Setup.ENTER if self.whose:
                return Continue(True)
            case Setup.ENTER if self.saved is not None and not self.confirm_new:
                return Continue()
            case Setup.ENTER:
                return Start(self.confirm_new)
            case Nav.BACK if asking:
                return Setup.CANCEL
            case Nav.UP | Nav.DOWN:
                n = self.settings.players + (1 if intent is Nav.UP else -1)
                return Players(max(2, min(6, n)))
        return intent

    def _keyboard_closed(self) -> None:
        kb = self.keyboard
        if kb is not None and not kb.open:
            if kb.result is not None:
                self._pref(human_name=kb.result)
                self.saved = self.app.tournament.saved_info()
            self.keyboard = None

    def on_command(self, name: str, arg: object = None) -> bool:
        """The cabinet's shortcuts: none is the setup's (the keyboard, open, takes them)."""
        return self.keyboard is not None

    def on_intent(self, intent: object) -> bool:
        if self.keyboard is not None:
            self.keyboard.on_intent(intent)
            self._keyboard_closed()
            return True
        s = self.settings
        if (self.confirm_new or self.whose) and not (isinstance(intent, Start | Continue) or intent in ANSWERS):
            return True
        match intent:
            case Nav.BACK:
                self.app.go("attract")
            case Setup.ABOUT:
                self.app.go("tournament_guide", table=s.table_key())
            case Setup.CHOOSE_TABLE:
                self.app.go("tournament_tables")
            case Setup.NAME:
                self.keyboard = NameKeyboard("" if s.human_name == DEFAULT_NAME else s.human_name)
            case Setup.ICON:
                self._pref(human_icon=(s.human_icon + 1) % ICON_COUNT)
            case Players(n=n):
                self._set(players=n)
            case Strength(seat=i):
                nxt = STRENGTHS[(STRENGTHS.index(s.strengths[i]) + 1) % len(STRENGTHS)]
                self.app.tournament.settings = s.with_strength(i, nxt)
            case StartingChips(chips=c):
                self._set(starting_chips=c)
            case StartingBlinds(level=level):
                self._set(starting_level=level)
            case BlindIncrease(hands=hands):
                self._set(hands_per_level=hands)
            case AiSpeed(speed=speed):
                self._pref(ai_speed=speed)
            case EquityAssist(on=on):
                self._pref(equity_assist=on)
            case FourColours(on=on):
                self._pref(four_colour=on)
            case Setup.INVITE:
                self.app.go("tournament_invite")
            case Setup.JOIN:
                self.app.go("tournament_join")
            case Continue(confirmed=confirmed):
                self._continue(confirmed=confirmed)
            case Start(confirmed=confirmed):
                self._start(confirmed)
            case Setup.CANCEL:
                self.confirm_new = False
                self.whose = False
            case _:
                return False
        return True

    def _start(self, confirmed: bool) -> None:
        """A new game (over a saved one: ask first, unless ``confirmed``)."""
        if self.saved is not None and not confirmed:
            self.confirm_new = True
            return
        self.confirm_new = False
        ctx = self.app.tournament
        if ctx.session is not None and not ctx.session.recorded:
            ctx.session.abandon()
        ctx.new_game()
        self.app.go("tournament")

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
