"""The program's own input events.  Scenes handle these, never raw pygame events.

Coordinates are screen pixels; scenes hit-test them against the rectangles they drew.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.ui.shortcuts import SHORTCUTS


@dataclass(frozen=True)
class Touch:
    """A finger or mouse press at ``pos`` (screen pixels)."""

    pos: tuple[int, int]


@dataclass(frozen=True)
class Drag:
    """A finger or the mouse moving while pressed, now at ``pos`` (screen pixels); it
    follows the :class:`Touch` that pressed it (a slider follows it)."""

    pos: tuple[int, int]


@dataclass(frozen=True)
class Key:
    """A key press: ``name`` is pygame's key name (``"space"``, ``"f12"``, ``"a"``),
    ``text`` the character it types (``""`` for none)."""

    name: str
    text: str = ""
    shift: bool = False

    @property
    def command(self) -> Command | None:
        """The shortcut this key stands for (see :data:`kiosk.ui.shortcuts.SHORTCUTS`)."""
        entry = SHORTCUTS.get(self.name)
        return Command(*entry) if entry else None


@dataclass(frozen=True)
class Command:
    """A named intent from a keyboard shortcut or a button (``"deal"``, ``"bill"``...).

    ``arg`` carries the value when there is one (the bill in cents, the action...)."""

    name: str
    arg: object = None


@dataclass(frozen=True)
class Quit:
    """The window was closed or the service is stopping."""


InputEvent = Touch | Drag | Key | Command | Quit
