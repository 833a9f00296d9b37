"""What every scene shares: access to the host's kit, buttons, and input dispatch.

A button stands for a named command (``Button.command`` a ``str``, with ``Button.arg``:
:meth:`Scene.on_command`) or carries a request record the scene handles by type
(:meth:`Scene.on_intent`)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pygame

from kiosk.game.snapshot import MachineSnapshot
from kiosk.ui import i18n
from kiosk.ui.events import Command, InputEvent, Key, Touch
from kiosk.ui.host import SceneHost
from kiosk.ui.layout import Layout
from kiosk.ui.model import Model
from kiosk.ui.scenes.intents import TopBar
from kiosk.ui.widgets import Button, Canvas, Painter


class Scene:
    """A screen.  ``handle`` returns True when it used the event."""

    name = "scene"
    #: Player scenes show the tilt overlay and obey the player shortcuts.
    player = True
    #: Whether it draws the host's felt (:attr:`SceneHost.felt`); while a scene that
    #: does not is current, the host lets the felt go (8 MB at 1920x1080).
    draws_felt = True

    def __init__(self, app: SceneHost) -> None:
        self.app = app
        self.pressed: tuple[str, float] | None = None  # (button id, until)

    # kit ----------------------------------------------------------------------------
    @property
    def layout(self) -> Layout:
        return self.app.layout

    @property
    def ui(self) -> Painter:
        return self.app.painter

    @property
    def model(self) -> Model:
        return self.app.model

    @property
    def snap(self) -> MachineSnapshot:
        return self.app.model.snap

    # life cycle -----------------------------------------------------------------------
    def enter(self, **kwargs: Any) -> None:
        """Called when the scene becomes current."""

    def leave(self) -> None:
        """Called when another scene becomes current."""

    # the three verbs --------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        """The touch targets drawn now (hit-tested in reverse order)."""
        return []

    def modal(self) -> bool:
        """True while the scene shows a dialog: the host then gives every touch, key and
        button to :meth:`handle` alone (the dialog's own controls; the rest is ignored),
        except the cabinet's key switch and door switch."""
        return False

    def handle(self, event: InputEvent) -> bool:
        if isinstance(event, Touch):
            b = self.ui.hit(self.layout, self.buttons(), event.pos)
            if b is not None:
                if b.enabled:
                    self.pressed = (b.id, self.app.now + 0.15)
                    self.app.sounds_play("click")
                    if isinstance(b.command, str):
                        self.on_command(b.command, b.arg)
                    elif not self.on_intent(b.command) and b.command is TopBar.LANGUAGE:
                        i18n.set_language(i18n.next_language())  # as the L key does
                return True
            return self.on_touch(event.pos)
        if isinstance(event, Command):
            return self.on_command(event.name, event.arg)
        if isinstance(event, Key):
            return self.on_key(event)
        return False

    def on_touch(self, pos: tuple[int, int]) -> bool:
        return False

    def on_key(self, key: Key) -> bool:
        return False

    def on_command(self, name: str, arg: object = None) -> bool:
        return False

    def on_intent(self, intent: object) -> bool:
        """A button's request record; True when the scene handled it."""
        return False

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        pass

    # helpers --------------------------------------------------------------------------
    #: Rectangles changed by the last ``draw`` (None: the whole screen).
    dirty: list[pygame.Rect] | None = None
    #: Seconds between two frames while the scene animates, at least (0: the frame cap).
    frame_interval = 0.0

    #: Calls of :meth:`invalidate` so far (a scene drawn whole each time compares it).
    invalidations = 0

    def invalidate(self) -> None:
        """The next ``draw`` must repaint the whole screen (scenes that draw partially)."""
        self.invalidations += 1

    def look(self) -> Hashable:
        """What the picture shows besides the machine's snapshot, the language, the
        button pressed and the input fed (:class:`kiosk.ui.frames.Still`): the host draws
        the scene again only when one of them changes.  ``None`` (the default): the
        picture may change every frame (time, a thread's progress) or the scene keeps its
        own dirty rectangles; it is drawn every frame."""
        return None

    def pressed_id(self) -> str | None:
        if self.pressed and self.app.now < self.pressed[1]:
            return self.pressed[0]
        return None

    def draw_buttons(self, surface: Canvas, buttons: list[Button] | None = None) -> None:
        self.ui.draw_buttons(
            surface, self.buttons() if buttons is None else buttons, self.pressed_id()
        )
