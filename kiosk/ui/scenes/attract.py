"""Attract mode: the title, a fanned royal flush that turns over card by card, the top
pays, and the languages.  A touch (or credits arriving) opens the table.  Beside the fan,
a panel for each game, headed by its name: this cabinet's Ultimate Texas Hold'em (RULES,
PAYS) and the No-limit Hold'em tournament (TOURNAMENT: its setup, TABLES: choose your
table, HOW TO PLAY: its guide)."""

from __future__ import annotations

import math
from enum import Enum
from typing import Any

import pygame

from engine.cards import make_card
from kiosk.game.snapshot import MachinePhase
from kiosk.ui import i18n, theme
from kiosk.ui.frames import DisplayList
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, pgettext
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import TITLE
from kiosk.ui.scenes.intents import ChooseLanguage, TopBar
from kiosk.ui.widgets import Button

FAN = [make_card(r, 3) for r in (8, 9, 10, 11, 12)]  # T J Q K A of spades
CARD_W = 120
#: The panels beside the fan (design x, y, w, h), each headed by the game it is for:
#: this cabinet's Ultimate Texas Hold'em (rules, pays) and the No-limit Hold'em
#: tournament (its tables, its guide, its setup).
GAME_PANEL = (8, 152, 326, 168)
TOURNAMENT_PANEL = (946, 152, 326, 256)


class Go(Enum):
    """Open another screen: the value is the scene's name."""

    TABLE = "table"
    RULES = "help"
    PAYS = "paytable"
    RECALL = "recall"
    SETTINGS = "settings"
    TABLES = "tournament_tables"
    GUIDE = "tournament_guide"
    TOURNAMENT = "tournament_setup"


#: Shortcut command name -> request: Space, Enter, A and S open the table; H, Y, G and E
#: their screens; L the next language.
COMMANDS: dict[str, Go | TopBar] = {
    "deal": Go.TABLE,
    "chip": Go.TABLE,
    "help": Go.RULES,
    "paytable": Go.PAYS,
    "recall": Go.RECALL,
    "settings": Go.SETTINGS,
    "language": TopBar.LANGUAGE,
}


class AttractScene(Scene):
    """Drawn as a display list: a frame repaints what moved (the fan, the pulsing line),
    at most :attr:`frame_interval` apart."""

    name = "attract"
    #: The fan bobs and the line pulses slowly: 10 frames a second show them smoothly.
    frame_interval = 1 / 10

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.t = 0.0
        self._fan: dict[tuple, list[tuple[pygame.Surface, pygame.Surface, tuple[int, int]]]] = {}
        self.frames = DisplayList()
        self._tops: tuple[Any, Any, Any] | None = None

    def enter(self, **kwargs: Any) -> None:
        self.frames.invalidate()
        self.t = 0.0
        self.app.prefs.reset()
        if self.app.model.snap.credits <= 0:
            i18n.set_language(self.app.default_language)

    def buttons(self) -> list[Button]:
        out = []
        x = 640 - (4 * 220 + 3 * 14) / 2
        for lang in i18n.LANGUAGES:
            style = "selected" if lang == i18n.language() else "dark"
            out.append(Button(f"lang_{lang}", (x, 612, 220, 90), i18n.native_name(lang), ChooseLanguage(lang),
                              style=style, size=30))
            x += 234
        # this cabinet's game: its rules and pays
        left, right = GAME_PANEL[0] + 10, TOURNAMENT_PANEL[0] + 10
        out.append(Button("rules", (left, 204, 149, 86), _("RULES"), Go.RULES, style="dark", size=24))
        out.append(Button("pays", (left + 157, 204, 149, 86), _("PAYS"), Go.PAYS, style="dark", size=24))
        # tournament mode (free play, points only): kiosk/ui/scenes/tournament/
        out.append(Button("tournament_tables", (right, 204, 149, 86), _("TABLES"), Go.TABLES,
                          style="dark", size=22))
        out.append(Button("tournament_guide", (right + 157, 204, 149, 86), _("HOW TO PLAY"), Go.GUIDE,
                          style="dark", size=22))
        out.append(Button("tournament", (right, 298, 306, 100), _("TOURNAMENT"), Go.TOURNAMENT, style="primary",
                          sublabel=_("Free play · points only"), size=34))
        return out

    def on_touch(self, pos: tuple[int, int]) -> bool:
        self.app.go("table")
        return True

    def on_command(self, name: str, arg: object = None) -> bool:
        intent = COMMANDS.get(name)
        return intent is not None and self.on_intent(intent)

    def on_intent(self, intent: object) -> bool:
        match intent:
            case ChooseLanguage(language=language):
                i18n.set_language(language)
            case TopBar.LANGUAGE:
                i18n.set_language(i18n.next_language())
            case Go():
                self.app.go(intent.value)
            case _:
                return False
        return True

    def update(self, dt: float) -> None:
        self.t += dt
        if self.snap.credits > 0 and self.snap.phase is not MachinePhase.CASHOUT:
            self.app.go("table")

    def _fan_surfaces(self, four: bool) -> list[tuple[pygame.Surface, pygame.Surface, tuple[int, int]]]:
        lay = self.layout
        key = (lay.size, four)
        got = self._fan.get(key)
        if got is None:
            w = lay.px(CARD_W)
            got = []
            for i, card in enumerate(FAN):
                angle = (2 - i) * 9
                face = pygame.transform.rotozoom(self.app.cards.face(card, w, four), angle, 1)
                back = pygame.transform.rotozoom(self.app.cards.back(w), angle, 1)
                cx = 640 + (i - 2) * 92
                cy = 300 + abs(i - 2) ** 1.6 * 12
                got.append((face, back, (cx, cy)))
            self._fan[key] = got
        return got

    def invalidate(self) -> None:
        self.frames.invalidate()

    def _top_pays(self, pays: Any) -> tuple[Any, Any]:
        """The paytable's top Blind and Trips pays (worked out once per paytable)."""
        if self._tops is None or self._tops[0] is not pays:
            blind = max(p.ratio for p in pays.blind.lines().values())
            trips = max(p.ratio for p in pays.trips.lines().values())
            self._tops = (pays, blind, trips)
        return self._tops[1], self._tops[2]

    def draw(self, surface: pygame.Surface) -> None:
        recording = self.app.painter.log is not None  # the text tests read every frame's text
        key = None if recording else (i18n.generation(), self.layout.size, self.app.casino_name,
                                      self.pressed_id(), id(self.app.felt))
        self.dirty = self.frames.draw(surface, self.paint, self.paint_still, key)

    def paint_still(self, surface: pygame.Surface) -> None:
        """What does not move: the felt, the titles, the panels and the buttons (painted
        first: nothing that moves lies over them)."""
        ui, lay = self.ui, self.layout
        surface.blit(self.app.felt, (0, 0))
        ui.fitted(surface, _(TITLE), 64, theme.GOLD, 1180, bold=True, center=(640, 84))
        casino = self.app.casino_name
        if casino:
            ui.fitted(surface, casino, 26, theme.CREAM, 1000, center=(640, 140))
        for (x, y, w, h), heading in ((GAME_PANEL, _(TITLE)), (TOURNAMENT_PANEL, _("No-limit Hold'em tournament"))):
            ui.box(surface, lay.rect(x, y, w, h), (0, 0, 0), 110, radius=16, border=theme.GOLD_DARK)
            ui.fitted(surface, heading, 21, theme.GOLD, w - 20, bold=True, max_h=42, center=(x + w / 2, y + 26))
        self.draw_buttons(surface)

    def paint(self, surface: pygame.Surface) -> None:
        """What moves, over :meth:`paint_still` (on a recorder: :class:`DisplayList`
        repaints what changed)."""
        ui, lay = self.ui, self.layout
        # the fan: one card at a time turns face up, then all turn back
        cycle = self.t % 8.0
        for i, (face, back, (cx, cy)) in enumerate(self._fan_surfaces(self.app.prefs.four_colour)):
            up = cycle > 0.6 + i * 0.45 and cycle < 6.5
            bob = math.sin(self.t * 2 + i * 0.8) * 5
            img = face if up else back
            surface.blit(img, img.get_rect(center=lay.pos(cx, cy + bob)))
        pulse = 0.5 + 0.5 * math.sin(self.t * 3.2)
        colour = tuple(round(a + (b - a) * pulse) for a, b in zip(theme.CREAM, theme.WIN, strict=True))
        ui.fitted(surface, _("TOUCH THE SCREEN TO PLAY"), 44, colour, 1100, bold=True, tinted=True,
                  center=(640, 470))
        top_blind, top_trips = self._top_pays(self.snap.paytable)
        fmt_pay = lambda r: pgettext("pay", "{n} to {d}").format(n=r.numerator, d=r.denominator)  # noqa: E731
        lines = [
            _("Royal flush pays {pay} on the Blind").format(pay=fmt_pay(top_blind)),
            _("Trips pays up to {pay}").format(pay=fmt_pay(top_trips)),
            _("Insert bills to play."),
        ]
        ui.fitted(surface, lines[int(self.t / 3.0) % len(lines)], 30, theme.CREAM, 1100, center=(640, 540))
