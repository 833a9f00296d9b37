"""An on-screen keyboard for a short text such as a file name: digits, small letters,
``-``, ``_`` and ``.``, delete, Cancel and Done, every key a full-size touch target; a
real keyboard types into it too.

:class:`TextKeyboard` holds the text being typed.  Its buttons carry a
:class:`~kiosk.ui.scenes.intents.TypeKey` or an :class:`~kiosk.ui.scenes.intents.Edit`;
the scene that shows it passes them on (:meth:`TextKeyboard.on_intent`) with its keys
(:meth:`TextKeyboard.key`), and reads :attr:`TextKeyboard.result` once
:attr:`TextKeyboard.open` is False.
Button ids are ``osk_<character>``, ``osk_delete``, ``osk_cancel`` and ``osk_done``.
Geometry is in design units (:mod:`kiosk.ui.layout`).
"""

from __future__ import annotations

import pygame

from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _
from kiosk.ui.scenes.intents import Edit, TypeKey
from kiosk.ui.widgets import Button

ROWS = ("1234567890", "qwertyuiop", "asdfghjkl-", "zxcvbnm_.")
#: Every character the keyboard types.
CHARACTERS = frozenset("".join(ROWS))
KEY_W, KEY_H, KEY_GAP = 100, 86, 8
TOP = 200
BOX = (40, 40, 1200, 650)

#: A real keyboard's keys that press one of the screen's: Enter Done, Esc Cancel,
#: Backspace Delete.
KEYS: dict[str, Edit] = {"return": Edit.DONE, "escape": Edit.CANCEL, "backspace": Edit.DELETE}


class TextKeyboard:
    """A text of at most ``limit`` characters from :data:`CHARACTERS`, titled ``title``
    (already translated).  ``open`` is False once Done (``result`` the text, never
    empty) or Cancel (``result`` None) was pressed."""

    def __init__(self, text: str, title: str, limit: int = 64) -> None:
        self.limit = limit
        self.text = "".join(c for c in text if c in CHARACTERS)[:limit]
        self.title = title
        self.open = True
        self.result: str | None = None

    def type(self, ch: str) -> None:
        """Add ``ch`` (a key's character, or a real keyboard's: capitals become small)."""
        ch = ch.lower()
        if ch in CHARACTERS and len(self.text) < self.limit:
            self.text += ch

    def buttons(self) -> list[Button]:
        out = []
        for r, row in enumerate(ROWS):
            width = len(row) * (KEY_W + KEY_GAP) - KEY_GAP + (220 if r == 3 else 0)
            x = 640 - width / 2
            y = TOP + r * (KEY_H + 6)
            for ch in row:
                out.append(Button(f"osk_{ch}", (x, y, KEY_W, KEY_H), ch, TypeKey(ch), style="dark", size=32))
                x += KEY_W + KEY_GAP
            if r == 3:
                out.append(Button("osk_delete", (x, y, 212, KEY_H), "← " + _("Delete"), Edit.DELETE,
                                  style="plain", size=24))
        y = TOP + 4 * (KEY_H + 6)
        out += [Button("osk_cancel", (300, y, 300, KEY_H), _("CANCEL"), Edit.CANCEL, style="plain", hint="Esc",
                       size=26),
                Button("osk_done", (680, y, 300, KEY_H), _("DONE"), Edit.DONE, style="primary", hint="Enter",
                       size=30, enabled=bool(self.text))]
        return out

    def on_intent(self, intent: object) -> bool:
        """A key of the screen's keyboard; True when it was one."""
        match intent:
            case TypeKey(ch=ch):
                self.type(ch)
            case Edit.DELETE:
                self.text = self.text[:-1]
            case Edit.CANCEL:
                self.open, self.result = False, None
            case Edit.DONE:
                if self.text:
                    self.open, self.result = False, self.text
            case _:
                return False
        return True

    def key(self, key: Key) -> bool:
        """A real keyboard: characters type, Backspace deletes, Enter is Done, Esc
        Cancel.  Every key is taken while the keyboard is open."""
        edit = KEYS.get(key.name)
        if edit is not None:
            self.on_intent(edit)
        elif len(key.text) == 1:
            self.type(key.text)
        return True

    def draw(self, app: SceneHost, surface: pygame.Surface) -> None:
        ui, lay = app.painter, app.layout
        ui.shade(surface, 170)
        box = lay.rect(*BOX)
        ui.box(surface, box, (24, 30, 38), 250, radius=20, border=theme.GOLD, border_w=3)
        ui.fitted(surface, self.title, 30, theme.GOLD, 900, bold=True, topleft=(70, 58))
        field = lay.rect(100, 110, 1080, 70)
        ui.box(surface, field, theme.METER_BG, 240, radius=12, border=theme.GOLD_DARK)
        ui.fitted(surface, self.text + "_", 34, theme.WHITE, 960, bold=True, midleft=(120, 145))
        ui.fitted(surface, f"{len(self.text)}/{self.limit}", 20, theme.MUTED, 90, midright=(1170, 145))
