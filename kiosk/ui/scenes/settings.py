"""The player's preferences: deck colours, animation speed, sound and language.

Its buttons carry typed requests (:class:`SetDeck`, :class:`SetSpeed`, :class:`SetSound`,
a :class:`~kiosk.ui.scenes.intents.ChooseLanguage`, the top bar's, back)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import pygame

from engine.cards import parse_cards
from kiosk.ui import i18n, theme
from kiosk.ui.i18n import N_, _
from kiosk.ui.prefs import SPEED_ORDER
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import draw_top_bar, top_buttons, top_intent
from kiosk.ui.scenes.intents import TOP_COMMANDS, ChooseLanguage, Nav, TopBar
from kiosk.ui.widgets import Button

SPEED_NAMES = {"slow": N_("Slow"), "normal": N_("Normal"), "fast": N_("Fast")}
PREVIEW = parse_cards("Ad Kc Qh Js")
ROWS = {"deck": 120, "speed": 240, "sound": 360, "language": 480}


@dataclass(frozen=True)
class SetDeck:
    """Show four-colour cards (else two colours)."""

    four_colour: bool


@dataclass(frozen=True)
class SetSpeed:
    """Animate at ``speed`` (one of :data:`kiosk.ui.prefs.SPEED_ORDER`)."""

    speed: str


@dataclass(frozen=True)
class SetSound:
    """Sound on or off."""

    on: bool


SettingsIntent = SetDeck | SetSpeed | SetSound | ChooseLanguage | Nav | TopBar

#: Shortcut command name -> request: Esc and E (this screen's own key) go back.
COMMANDS: dict[str, SettingsIntent] = {**TOP_COMMANDS, "back": Nav.BACK, "settings": Nav.BACK}


class SettingsScene(Scene):
    name = "settings"

    def buttons(self) -> list[Button]:
        p = self.app.prefs
        sel = lambda on: "selected" if on else "dark"  # noqa: E731
        out = top_buttons("settings")
        y = ROWS["deck"]
        out += [Button("deck2", (330, y, 220, 90), _("2 colours"), SetDeck(False), style=sel(not p.four_colour)),
                Button("deck4", (560, y, 220, 90), _("4 colours"), SetDeck(True), style=sel(p.four_colour))]
        y = ROWS["speed"]
        for i, s in enumerate(SPEED_ORDER):
            out.append(Button(f"speed_{s}", (330 + i * 230, y, 220, 90), _(SPEED_NAMES[s]), SetSpeed(s),
                              style=sel(p.speed == s)))
        y = ROWS["sound"]
        out += [Button("sound_on", (330, y, 220, 90), _("On"), SetSound(True), style=sel(p.sound)),
                Button("sound_off", (560, y, 220, 90), _("Off"), SetSound(False), style=sel(not p.sound))]
        y = ROWS["language"]
        for i, lang in enumerate(i18n.LANGUAGES):
            out.append(Button(f"lang_{lang}", (330 + i * 230, y, 220, 90), i18n.native_name(lang), ChooseLanguage(lang),
                              style=sel(i18n.language() == lang)))
        out.append(Button("back", (490, 622, 300, 90), _("BACK TO TABLE"), Nav.BACK, style="primary", hint="Esc"))
        return out

    def on_command(self, name: str, arg: object = None) -> bool:
        intent = COMMANDS.get(name)
        return intent is not None and self.on_intent(intent)

    def on_intent(self, intent: object) -> bool:
        p = self.app.prefs
        match intent:
            case Nav.BACK | TopBar.SETTINGS:
                self.app.go("table")
            case SetDeck(four_colour=four):
                p.four_colour = four
            case SetSpeed(speed=speed):
                p.speed = speed
            case SetSound(on=on):
                p.sound = on
                if p.sound:
                    self.app.sounds_play("chip")
            case ChooseLanguage(language=language):
                i18n.set_language(language)
            case TopBar():
                return top_intent(self.app, intent)
            case _:
                return False
        return True

    def look(self) -> Hashable:
        p = self.app.prefs
        return p.four_colour, p.speed, p.sound

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(self.app.felt, (0, 0))
        draw_top_bar(self.app, surface, "settings")
        labels = {"deck": _("Deck"), "speed": _("Animation speed"), "sound": _("Sound"), "language": _("Language")}
        for key, y in ROWS.items():
            ui.fitted(surface, labels[key], 28, theme.GOLD, 280, bold=True, midleft=(40, y + 45))
        w = lay.px(64)
        for i, c in enumerate(PREVIEW):
            img = self.app.cards.face(c, w, self.app.prefs.four_colour)
            surface.blit(img, lay.pos(820 + i * 72, ROWS["deck"] - 2))
        self.draw_buttons(surface)


