"""The tournament table's felt and what lies in the middle of it: the board and the pots."""

from __future__ import annotations

import pygame

from kiosk.tournament.seat_port import Phase, TableView
from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _
from kiosk.ui.layout import Layout
from kiosk.ui.scenes.tournament.common import chips, top_background
from kiosk.ui.scenes.tournament.table_facts import hand_over, winning_cards
from kiosk.ui.scenes.tournament.table_layout import BOARD_W, BOARD_Y, OVAL, RAIL_Y
from kiosk.ui.widgets import Painter


class TableFelt:
    """The static layer (cached) and the board, for one host: the same at both ends."""

    def __init__(self, host: SceneHost) -> None:
        self.app = host
        self._static: pygame.Surface | None = None
        self._static_key: tuple[int, ...] | tuple[tuple[int, int]] = ()

    @property
    def ui(self) -> Painter:
        return self.app.painter

    @property
    def layout(self) -> Layout:
        return self.app.layout

    def surface(self) -> pygame.Surface:
        """The felt, the rail and the top bar's background (cached per screen size)."""
        lay = self.layout
        key = (lay.size,)
        if self._static is not None and self._static_key == key:
            return self._static
        surf = self.app.felt.copy()
        ui = self.ui
        oval = lay.rect(*OVAL)
        rail = oval.inflate(lay.px(34), lay.px(34))
        pygame.draw.ellipse(surf, theme.RAIL, rail)
        pygame.draw.ellipse(surf, theme.RAIL_EDGE, rail, max(1, lay.px(3)))
        felt = pygame.Surface(oval.size, pygame.SRCALPHA)
        pygame.draw.ellipse(felt, (*theme.FELT_CENTRE, 255), felt.get_rect())
        inner = felt.get_rect().inflate(-lay.px(60), -lay.px(60))
        pygame.draw.ellipse(felt, (255, 255, 255, 22), inner, max(1, lay.px(2)))
        surf.blit(felt, oval)
        bar = lay.rect(0, RAIL_Y, 1280, 720 - RAIL_Y)
        bar.x, bar.width = 0, lay.size[0]
        bar.height = lay.size[1] - bar.y
        ui.box(surf, bar, theme.RAIL, 240, radius=0)
        pygame.draw.line(surf, theme.GOLD_DARK, (0, bar.y), (lay.size[0], bar.y), max(1, lay.px(2)))
        top_background(self.app, surf)
        self._static = surf.convert() if pygame.display.get_surface() else surf
        self._static_key = key
        return self._static

    def draw_centre(self, surface: pygame.Surface, v: TableView, four_colour: bool = False) -> None:
        """The board (the winners' cards lit at a showdown) and the pots under it."""
        ui, lay = self.ui, self.layout
        if v.phase is Phase.WAITING:
            return
        w = lay.px(BOARD_W)
        ch = self.app.cards.height(w)
        x0 = 640 - (5 * BOARD_W + 4 * 10) / 2
        winners_cards = winning_cards(v)
        for i in range(5):
            r = lay.rect(x0 + i * (BOARD_W + 10), BOARD_Y, BOARD_W, ch / lay.scale)
            if i < len(v.board):
                card = v.board[i]
                surface.blit(self.app.cards.shadow(w), (r.x + lay.px(2), r.y + lay.px(4)))
                surface.blit(self.app.cards.face(card, w, four_colour), r)
                if winners_cards and card not in winners_cards:
                    ui.box(surface, r, (0, 0, 0), 100, radius=8)
            else:
                pygame.draw.rect(
                    surface, (60, 160, 104), r, max(1, lay.px(2)), border_radius=lay.px(8)
                )
        y = BOARD_Y + ch / lay.scale + 14
        if hand_over(v) and v.outcome is not None:  # the pots that were won, not an empty pot
            total = sum(v.outcome.pots)
            ui.fitted(
                surface,
                _("Pot {amount}").format(amount=chips(total)),
                24,
                theme.WHITE,
                420,
                bold=True,
                midtop=(640, y),
            )
            return
        total = sum(v.pots)
        ui.fitted(
            surface,
            _("Pot {amount}").format(amount=chips(total)),
            24,
            theme.WHITE,
            420,
            bold=True,
            midtop=(640, y),
        )
        pots = v.middle
        if len(pots) > 1:
            parts = [_("Main {amount}").format(amount=chips(pots[0]))]
            parts += [_("Side {amount}").format(amount=chips(p)) for p in pots[1:]]
            ui.fitted(surface, "  ·  ".join(parts), 18, theme.CREAM, 460, midtop=(640, y + 30))
