"""What a scene may use of the program that shows it: :class:`SceneHost`.

Scenes depend on this protocol, never on :class:`kiosk.ui.app.App`, so the app can list
its scenes without the scenes importing the app.  Everything here is owned by the host;
a scene reads it, and changes only the player's preferences and the current scene
(:meth:`SceneHost.go`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import pygame

from kiosk.friends.context import TournamentContext
from kiosk.ui.cards import CardRenderer
from kiosk.ui.demo import DemoDevices
from kiosk.ui.layout import Layout
from kiosk.ui.model import Model
from kiosk.ui.prefs import Preferences
from kiosk.ui.text import TextCache
from kiosk.ui.widgets import Painter


class CurrentScene(Protocol):
    """The part of the current scene that shared drawing code reads."""

    name: str

    def pressed_id(self) -> str | None: ...


class SceneHost(Protocol):
    """The app as a scene sees it.  Times are seconds on the app's clock (:attr:`now`)."""

    layout: Layout
    painter: Painter
    text: TextCache
    cards: CardRenderer
    prefs: Preferences
    model: Model
    demo: DemoDevices | None
    demo_mode: bool
    default_language: str
    casino_name: str  # shown in the top bar and on the attract screen ("" for none)
    machine_number: str  # the cabinet's number ("" for none)
    station: int  # a station's number at a shared table (0: a lone cabinet)
    tournament: TournamentContext
    now: float
    last_input: float  # :attr:`now` at the last input event
    previous: str  # the name of the scene shown before the current one

    @property
    def felt(self) -> pygame.Surface: ...

    @property
    def tilted(self) -> bool:
        """Play is suspended (a tilt or the door open): the overlay covers the screen."""
        ...

    @property
    def scene(self) -> CurrentScene: ...

    @property
    def scenes(self) -> Mapping[str, Any]: ...

    def go(self, name: str, **kwargs: Any) -> None:
        """Make the scene called ``name`` current (``kwargs`` go to its ``enter``)."""

    def sounds_play(self, name: str) -> None:
        """Play a sound effect if the player has sound on."""

    def forget_words(self) -> None:
        """Let the drawn text and widgets go (made again as the screens draw them)."""
