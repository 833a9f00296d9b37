"""Requests that several screens share, as values: going back and paging (:class:`Nav`),
the player screens' top bar and its keys (:class:`TopBar`), a language chosen
(:class:`ChooseLanguage`), the keys of an on-screen keyboard (:class:`TypeKey`,
:class:`Edit`).

A scene's buttons carry these (or the scene's own intents) in ``Button.command``; the
cabinet's keyboard shortcuts (named :class:`kiosk.ui.events.Command`) reach a scene by
name and each scene turns them into the same values through a table of its own
(command name -> request), so a key and the button it stands for do one thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Nav(Enum):
    """Back, and moving through pages or a list."""

    BACK = "back"
    NEXT = "next"  # the next page
    PREV = "prev"  # the previous page
    NEWER = "newer"  # the newer round or hand
    OLDER = "older"
    UP = "up"  # scroll
    DOWN = "down"


class TopBar(Enum):
    """The player screens' top bar (:func:`kiosk.ui.scenes.chrome.top_buttons`) and the
    preferences its keys switch (D deck colours, U animation speed, V sound)."""

    LANGUAGE = "language"
    SETTINGS = "settings"
    RECALL = "recall"
    PAYTABLE = "paytable"
    HELP = "help"
    DECK = "deck"
    SPEED = "speed"
    SOUND = "sound"


@dataclass(frozen=True)
class ChooseLanguage:
    """Show the screens in ``language`` (a code of :data:`kiosk.ui.i18n.LANGUAGES`)."""

    language: str


@dataclass(frozen=True)
class TypeKey:
    """A key of an on-screen keyboard: type ``ch``."""

    ch: str


class Edit(Enum):
    """An on-screen keyboard's other keys."""

    SPACE = "space"
    DELETE = "delete"
    CANCEL = "cancel"
    DONE = "done"


#: The top bar's shortcut commands (:data:`kiosk.ui.shortcuts.SHORTCUTS`) by name.
TOP_COMMANDS: dict[str, TopBar] = {t.value: t for t in TopBar}
