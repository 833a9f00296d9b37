"""The player's preferences: deck colours, animation speed, sound and language."""

from __future__ import annotations

from collections.abc import Hashable

import pygame

from engine.cards import parse_cards
from kiosk.ui import i18n, theme
from kiosk.ui.i18n import N_, _
from kiosk.ui.prefs import SPEED_ORDER
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import draw_top_bar, top_buttons, top_command
from kiosk.ui.widgets import Button

SPEED_NAMES = {"slow": N_("Slow"), "normal": N_("Normal"), "fast": N_("Fast")}
PREVIEW = parse_cards("Ad Kc Qh Js")
ROWS = {"deck": 120, "speed": 240, "sound": 360, "language": 480}


class SettingsScene(Scene):
    name = "settings"

    def buttons(self) -> list[Button]:
        p = self.app.prefs
        sel = lambda on: "selected" if on else "dark"  # noqa: E731
        out = top_buttons("settings")
        y = ROWS["deck"]
        out += [Button("deck2", (330, y, 220, 90), _("2 colours"), "set_deck", False, style=sel(not p.four_colour)),
                Button("deck4", (560, y, 220, 90), _("4 colours"), "set_deck", True, style=sel(p.four_colour))]
        y = ROWS["speed"]
        for i, s in enumerate(SPEED_ORDER):
            out.append(Button(f"speed_{s}", (330 + i * 230, y, 220, 90), _(SPEED_NAMES[s]), "set_speed", s,
                              style=sel(p.speed == s)))
        y = ROWS["sound"]
        out += [Button("sound_on", (330, y, 220, 90), _("On"), "set_sound", True, style=sel(p.sound)),
                Button("sound_off", (560, y, 220, 90), _("Off"), "set_sound", False, style=sel(not p.sound))]
        y = ROWS["language"]
        for i, lang in enumerate(i18n.LANGUAGES):
            out.append(Button(f"lang_{lang}", (330 + i * 230, y, 220, 90), i18n.native_name(lang), "set_language",
                              lang, style=sel(i18n.language() == lang)))
        out.append(Button("back", (490, 622, 300, 90), _("BACK TO TABLE"), "back", style="primary", hint="Esc"))
        return out

    def on_command(self, name: str, arg: object = None) -> bool:
        p = self.app.prefs
        if name in ("back", "settings"):
            self.app.go("table")
        elif name == "set_deck":
            p.four_colour = bool(arg)
        elif name == "set_speed":
            p.speed = str(arg)
        elif name == "set_sound":
            p.sound = bool(arg)
            if p.sound:
                self.app.sounds_play("chip")
        elif name == "set_language":
            i18n.set_language(str(arg))
        else:
            return top_command(self.app, name)
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


