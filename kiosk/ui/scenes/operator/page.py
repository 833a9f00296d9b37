"""What an operator page is, and what it may use of the menu that shows it.

A page owns its own state (a draft, a selection, a scroll offset) and draws into the
page area, between the title bar and the bottom row of buttons.  It reaches the cabinet
only through the :class:`Desk` it is given: the operator port (the table's pages, in
typed records, answered through :meth:`Desk.request`), the snapshot, the station's
commands and the ledger's reads (:class:`~kiosk.station.operator_port.LocalOperations`,
at the ledger's own machine only), the painter, and the result line under the page.
Geometry is in design units (1280 x 720, :mod:`kiosk.ui.layout`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Protocol, TypeVar

import pygame

from kiosk.game.commands import Command
from kiosk.game.snapshot import MachineSnapshot
from kiosk.station.operator_port import Done, LocalOperations, OperatorPort, Refused
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.layout import Layout
from kiosk.ui.scenes.intents import Nav
from kiosk.ui.widgets import Button, Painter

T = TypeVar("T")

#: The page area: below the title bar, above the result line and the bottom buttons.
TOP, BOTTOM, LEFT, WIDTH = 112, 590, 40, 1200
#: The bottom row of buttons (y, height); MENU sits at x 16, page buttons from x 240.
ROW_Y, ROW_H = 622, 90
#: The smallest text size on a page, design units (12.5 px at 800 x 480).
SMALL = 20
#: A real keyboard's Esc: a dialog's CANCEL, or back from a page's view.
KEYS: dict[str, Nav] = {"escape": Nav.BACK}


def escape(key: Key) -> bool:
    """Whether ``key`` is Esc (:data:`KEYS`)."""
    return KEYS.get(key.name) is Nav.BACK


class Desk(Protocol):
    """The operator menu, as its pages see it."""

    @property
    def app(self) -> SceneHost: ...

    @property
    def ui(self) -> Painter: ...

    @property
    def layout(self) -> Layout: ...

    @property
    def snap(self) -> MachineSnapshot: ...

    @property
    def port(self) -> OperatorPort:
        """The menu's way to the table (typed records, answered through :meth:`request`)."""
        ...

    @property
    def operations(self) -> LocalOperations:
        """The ledger's reads and the station's commands, in process (the ledger's own
        machine only: a page that uses them is offered there only)."""
        ...

    def request(
        self,
        ask: Callable[[Done[T]], bool],
        keep: Callable[[T], None],
        done_text: str | None = None,
        *,
        acts: bool = False,
    ) -> bool:
        """Ask the port (``ask(done)``): the record goes to ``keep`` (``done_text`` to the
        result line), a refusal or no answer to the result line; ``acts``: it changes
        the table (an action answered with ``done_text`` does too); False when busy."""
        ...

    def refused(self, answer: Refused) -> str:
        """The port's refusal in words (the same rule as :meth:`refusal`)."""
        ...

    @property
    def role(self) -> str | None: ...

    def send(self, command: Command) -> Any:
        """Execute ``command`` on the controller; ``None`` when it was refused (the
        reason is then :meth:`refusal`)."""

    def refusal(self) -> str:
        """The last refusal, in words, with the controller's reason."""

    def report(self, text: str, ok: bool) -> None:
        """Show ``text`` on the result line (``ok``: in the success colour)."""

    def cached(self, key: tuple[Any, ...], load: Callable[[], T]) -> T:
        """``load()`` once per snapshot version and ``key``, not once per frame."""

    def money(self, cents: int, compact: bool = False) -> str:
        """``cents`` in the table's currency and the current language."""


class Page:
    """One page of the operator menu.  Subclasses set ``id`` and override what they use."""

    id = ""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def open(self) -> None:
        """The page is shown again from the menu: start from what is in force."""

    def buttons(self) -> list[Button]:
        """The page's touch targets (the MENU button is the menu's)."""
        return []

    def modal(self) -> bool:
        """True while the page shows a dialog that takes every touch and key."""
        return False

    def on_intent(self, intent: object) -> bool:
        """A button's intent (the page's own, :mod:`kiosk.ui.scenes.operator.intents`, or
        one the menu passes on: the keypad's, REFRESH); True when the page used it."""
        return False

    def on_key(self, key: Key) -> bool:
        """A key; True when the page used it (typing, a dialog's Esc)."""
        return False

    def update(self, dt: float) -> None:
        """``dt`` seconds passed while the page is shown (a page that refreshes)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the page area."""

    def look(self) -> Hashable:
        """What the page shows besides the snapshot and the input (see
        :meth:`kiosk.ui.scenes.base.Scene.look`; None: it may change every frame).  A page
        changes with them alone unless it says otherwise."""
        return ()


def rows(desk: Desk, surface: pygame.Surface, lines: list[tuple[str, str]], *, x: float = LEFT,
         y: float = TOP + 8, width: float = WIDTH, size: float = 22, gap: float = 1.55,
         label_share: float = 0.5) -> float:
    """``(label, value)`` lines, the label on the left and the value on the right of
    ``width``; returns the design y below the last line."""
    ui = desk.ui
    for label, value in lines:
        ui.fitted(surface, label, size, theme.CREAM, width * label_share - 10, topleft=(x, y))
        ui.fitted(surface, value, size, theme.WHITE, width * (1 - label_share), bold=True,
                  topright=(x + width, y))
        y += size * gap
    return y


def heading(desk: Desk, surface: pygame.Surface, text: str, x: float, y: float, width: float,
            size: float = 24) -> float:
    """A gold heading with a rule under it; returns the design y below it."""
    desk.ui.fitted(surface, text, size, theme.GOLD, width, bold=True, topleft=(x, y))
    lay = desk.layout
    rule = lay.rect(x, y + size * 1.3, width, 2)
    surface.fill(theme.GOLD_DARK, rule)
    return y + size * 1.6
