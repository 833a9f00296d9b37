"""Raw pygame events in, the program's :mod:`kiosk.ui.events` out -- the only place.

Keyboard shortcuts are a table (:data:`kiosk.ui.shortcuts.SHORTCUTS`) so that the help screen can list
them and tests can check every listed key does something.  A press of a finger or the
mouse's left button is a :class:`~kiosk.ui.events.Touch`; moving while pressed, a
:class:`~kiosk.ui.events.Drag`.  A key press becomes one :class:`~kiosk.ui.events.Key`: a
scene that takes text (a PIN) reads it as typed; when the scene does not consume it and
the key is a shortcut, the app hands the scene the matching
:class:`~kiosk.ui.events.Command` (``Key.command``).
"""

from __future__ import annotations

from collections.abc import Iterable

import pygame

from kiosk.ui.events import Command, Drag, InputEvent, Key, Quit, Touch
from kiosk.ui.shortcuts import BILL_KEYS, EXIT_COMMAND, SHORTCUTS

__all__ = ["BILL_KEYS", "SHORTCUTS", "translate", "translate_all"]

#: pygame's key names that the program spells otherwise (the keypad's Enter is Return).
KEY_ALIASES: dict[str, str] = {"enter": "return"}
#: The key of the exit chord (:data:`kiosk.ui.shortcuts.EXIT_CHORD`: Ctrl+Shift+Q).
EXIT_KEY = "q"

def translate(event: pygame.event.Event, size: tuple[int, int]) -> list[InputEvent]:
    """Translate one pygame event; ``size`` is the window size (for finger positions,
    which pygame reports normalised to 0..1)."""
    t = event.type
    if t == pygame.QUIT:
        return [Quit()]
    if t == pygame.MOUSEBUTTONDOWN and event.button == 1 and not getattr(event, "touch", False):
        return [Touch((int(event.pos[0]), int(event.pos[1])))]
    if t == pygame.FINGERDOWN:
        return [Touch((int(event.x * size[0]), int(event.y * size[1])))]
    if t == pygame.MOUSEMOTION and event.buttons[0] and not getattr(event, "touch", False):
        return [Drag((int(event.pos[0]), int(event.pos[1])))]
    if t == pygame.FINGERMOTION:
        return [Drag((int(event.x * size[0]), int(event.y * size[1])))]
    if t == pygame.KEYDOWN:
        name = pygame.key.name(event.key).lower()
        if name.startswith("[") and name.endswith("]"):  # keypad digits: "[1]"
            name = name[1:-1]
        name = KEY_ALIASES.get(name, name)
        shift = bool(event.mod & pygame.KMOD_SHIFT)
        if name == EXIT_KEY and shift and event.mod & pygame.KMOD_CTRL:
            return [Command(EXIT_COMMAND)]  # EXIT_CHORD
        if event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            return []
        return [Key(name, getattr(event, "unicode", "") or "", shift)]
    return []


def translate_all(events: Iterable[pygame.event.Event], size: tuple[int, int]) -> list[InputEvent]:
    out: list[InputEvent] = []
    for e in events:
        out.extend(translate(e, size))
    return out
