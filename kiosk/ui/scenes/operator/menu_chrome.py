"""What the operator menu (:mod:`kiosk.ui.scenes.operator.scene`, at a cabinet and at a
station) draws around its pages: the title bar, LOG OUT (or CANCEL), the grid of pages
(four a row; a page the port does not offer is shown disabled), and the result line.
Geometry is in design units (1280 x 720).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pygame

from kiosk.ui import theme
from kiosk.ui.i18n import _
from kiosk.ui.layout import Layout
from kiosk.ui.scenes.operator.intents import Intent
from kiosk.ui.widgets import Button, Painter


@dataclass(frozen=True)
class Grid:
    """The menu's page buttons: ``columns`` a row from ``top``, each ``size``, one every
    ``pitch``."""

    columns: int
    top: float
    size: tuple[float, float]
    pitch: tuple[float, float]


#: The menu's grid.
GRID = Grid(4, 120, (290, 110), (302, 124))


def logout_button(logged_in: bool) -> Button:
    """LOG OUT (someone is logged in) or CANCEL, at the title bar's right end."""
    label = _("LOG OUT") if logged_in else _("CANCEL")
    return Button("logout", (1064, 6, 200, 86), label, Intent.LOGOUT, style="fold", size=24)


def page_buttons(pages: Iterable[tuple[str, str, bool]]) -> list[Button]:
    """A button ``page_<id>`` per ``(id, title translated, enabled)``, in the order given,
    on the menu's grid."""
    found = list(pages)
    grid = GRID
    (w, h), (px, py) = grid.size, grid.pitch
    return [
        Button(
            f"page_{pid}",
            (40 + (i % grid.columns) * px, grid.top + (i // grid.columns) * py, w, h),
            title,
            Intent.OPEN,
            pid,
            style="dark",
            enabled=enabled,
            size=28,
        )
        for i, (pid, title, enabled) in enumerate(found)
    ]


def draw_title_bar(ui: Painter, layout: Layout, surface: pygame.Surface, title: str) -> None:
    """The menu's background and its title bar with ``title``."""
    surface.fill((16, 20, 26))
    bar = pygame.Rect(0, 0, layout.size[0], layout.rect(0, 0, 10, 98).bottom)
    surface.fill((40, 30, 12), bar)
    ui.fitted(surface, title, 32, theme.GOLD, 1000, bold=True, midleft=(24, 48))


def draw_result(ui: Painter, surface: pygame.Surface, result: tuple[str, bool] | None) -> None:
    """The last action's result (``(text, ok)``) under the page, if any."""
    if result is not None:
        text, ok = result
        ui.fitted(surface, text, 22, theme.WIN if ok else theme.LOSE, 1220, midleft=(40, 604))
