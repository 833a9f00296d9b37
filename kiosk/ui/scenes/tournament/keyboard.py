"""The on-screen keyboard for typing a name: digits, letters, space, delete, Cancel and
Done, every key a full-size touch target; a real keyboard types into it too.

:class:`NameKeyboard` holds the text being typed; the scene that shows it passes on its
buttons' requests (:class:`TypeKey`, :class:`Edit`: :meth:`NameKeyboard.on_intent`) and
its keys, and reads :attr:`NameKeyboard.result` once the player is done.
"""

from __future__ import annotations

import pygame

from kiosk.tournament.settings import NAME_MAX
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _
from kiosk.ui.scenes.intents import Edit, TypeKey
from kiosk.ui.widgets import Button

ROWS = ("1234567890", "QWERTYUIOP", "ASDFGHJKL-", "ZXCVBNM")
KEY_W, KEY_H, KEY_GAP = 100, 86, 8
TOP = 196
BOX = (40, 40, 1200, 650)


#: A real keyboard's keys that press one of the screen's: Enter Done, Esc Cancel,
#: Backspace Delete, Space.
KEYS: dict[str, Edit] = {"return": Edit.DONE, "escape": Edit.CANCEL, "backspace": Edit.DELETE, "space": Edit.SPACE}


class NameKeyboard:
    """A name being typed: at most :data:`NAME_MAX` characters.  ``open`` is False once
    the player pressed Done (``result`` the name, ``None`` when empty) or Cancel."""

    def __init__(self, text: str) -> None:
        self.text = text[:NAME_MAX]
        self.open = True
        self.result: str | None = None

    def type(self, ch: str, *, as_typed: bool = False) -> None:
        """Add ``ch``: as typed on a keyboard (``as_typed``: "QA" stays QA), else, from the
        screen's capital keys, a capital at the start of each word and small letters after."""
        if len(self.text) >= NAME_MAX or not ch.isprintable():
            return
        if as_typed:
            self.text += ch
            return
        self.text += ch.upper() if not self.text or self.text.endswith(" ") else ch.lower()

    def buttons(self) -> list[Button]:
        out = []
        for r, row in enumerate(ROWS):
            x = 640 - (len(row) * (KEY_W + KEY_GAP) - KEY_GAP) / 2 - (110 if r == 3 else 0)
            for ch in row:
                out.append(Button(f"key_{ch}", (x, TOP + r * (KEY_H + 6), KEY_W, KEY_H), ch, TypeKey(ch),
                                  style="dark", size=32))
                x += KEY_W + KEY_GAP
            if r == 3:
                out.append(Button("kb_delete", (x, TOP + r * (KEY_H + 6), 212, KEY_H), "← " + _("Delete"),
                                  Edit.DELETE, style="plain", size=24))
        y = TOP + 4 * (KEY_H + 6)
        out += [Button("kb_space", (100, y, 420, KEY_H), _("Space"), Edit.SPACE, style="dark", size=24),
                Button("kb_cancel", (540, y, 280, KEY_H), _("CANCEL"), Edit.CANCEL, style="plain", hint="Esc",
                       size=26),
                Button("kb_done", (840, y, 340, KEY_H), _("DONE"), Edit.DONE, style="primary", hint="Enter",
                       size=30, enabled=bool(self.text.strip()))]
        return out

    def on_intent(self, intent: object) -> bool:
        """A key of the screen's keyboard; True when it was one."""
        match intent:
            case TypeKey(ch=ch):
                self.type(ch)
            case Edit.SPACE:
                if self.text and not self.text.endswith(" "):
                    self.type(" ")
            case Edit.DELETE:
                self.text = self.text[:-1]
            case Edit.CANCEL:
                self.open = False
            case Edit.DONE:
                name = self.text.strip()
                if name:
                    self.result = name
                    self.open = False
            case _:
                return False
        return True

    def key(self, key: Key) -> bool:
        """A real keyboard: letters, digits and space type; Backspace deletes; Enter is
        Done, Esc Cancel.  Every key is taken while the keyboard is open."""
        edit = KEYS.get(key.name)
        if edit is not None:
            self.on_intent(edit)
        elif len(key.text) == 1 and (key.text.isalnum() or key.text in "-'."):
            self.type(key.text, as_typed=True)
        return True

    def draw(self, app: SceneHost, surface: pygame.Surface) -> None:
        ui, lay = app.painter, app.layout
        ui.shade(surface, 170)
        box = lay.rect(*BOX)
        ui.box(surface, box, theme.PANEL, 248, radius=20, border=theme.GOLD, border_w=3)
        ui.fitted(surface, _("Type your name"), 30, theme.GOLD, 520, bold=True, topleft=(70, 58))
        ui.fitted(surface, _("Your records and your saved game belong to this name."), 18, theme.MUTED, 600,
                  topright=(1210, 66))
        field = lay.rect(100, 110, 1080, 70)
        ui.box(surface, field, theme.METER_BG, 240, radius=12, border=theme.GOLD_DARK)
        ui.fitted(surface, self.text + "_", 36, theme.WHITE, 1040, bold=True, midleft=(120, 145))
        ui.fitted(surface, f"{len(self.text)}/{NAME_MAX}", 16, theme.MUTED, 80, midright=(1170, 145))
