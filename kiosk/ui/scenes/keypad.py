"""The operator screens' numeric keypad: twelve buttons in a 3 x 4 grid.

Digit keys send ``("digit", "<d>")``; CLEAR sends ``"clear"``; the enter key sends
``"enter"``.  Button ids are ``key_<d>``, ``key_clear`` and ``key_enter``.  Geometry is
in design units (see :mod:`kiosk.ui.layout`).
"""

from __future__ import annotations

from kiosk.ui.i18n import _
from kiosk.ui.widgets import Button

KEYPAD = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "enter")


def keypad_buttons(origin: tuple[int, int], pitch: tuple[int, int], key: tuple[int, int],
                   enter_label: str, enter_style: str, text_size: int) -> list[Button]:
    """The keypad with its top-left key at ``origin``, keys of size ``key`` every
    ``pitch``; ``enter_label`` (already translated) and ``enter_style`` for the enter key,
    ``text_size`` for the word keys."""
    out = []
    for i, k in enumerate(KEYPAD):
        col, row = i % 3, i // 3
        label = {"clear": _("CLEAR"), "enter": enter_label}.get(k, k)
        cmd = k if k in ("clear", "enter") else "digit"
        style = enter_style if k == "enter" else "plain"
        rect = (origin[0] + col * pitch[0], origin[1] + row * pitch[1], *key)
        out.append(Button(f"key_{k}", rect, label, cmd, k, style=style,
                          size=34 if len(label) == 1 else text_size))
    return out
