"""The tournament table's seats: each opponent's panel (name, stack, last move, cards,
the dealer and blind markers) and the bets in front of the seats."""

from __future__ import annotations

import pygame

from engine.hands.categories import hand_class
from kiosk.tournament.seat_port import Phase, SeatRow, TableView
from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, category_name
from kiosk.ui.layout import Layout
from kiosk.ui.scenes.tournament.common import chips, place_name
from kiosk.ui.scenes.tournament.table_facts import (
    markers,
    move_text,
    name_of,
    shown_strength,
    won_text,
)
from kiosk.ui.scenes.tournament.table_layout import MINI_W, MY_BET, PANEL_H, PANEL_W, RAIL_Y, SLOTS
from kiosk.ui.widgets import Painter


class SeatPainter:
    """Draws the seats for one host, from the seat port's view (both ends)."""

    def __init__(self, host: SceneHost) -> None:
        self.app = host

    @property
    def ui(self) -> Painter:
        return self.app.painter

    @property
    def layout(self) -> Layout:
        return self.app.layout

    def draw_seat(
        self,
        surface: pygame.Surface,
        v: TableView,
        row: SeatRow,
        slot: str,
        four_colour: bool = False,
    ) -> None:
        ui, lay = self.ui, self.layout
        (cx, cy), (bx, by) = SLOTS[slot]
        seat = row.seat
        playing = v.phase is not Phase.WAITING
        over = v.phase is Phase.HAND_OVER
        x, y = cx - PANEL_W / 2, cy - PANEL_H / 2
        r = lay.rect(x, y, PANEL_W, PANEL_H)
        out = row.place is not None and row.place != 1 and (not playing or not row.dealt or over)
        folded = row.folded
        acting = v.to_act == seat and not over
        result = won_text(v, seat)
        border = theme.WIN if acting or result else theme.GOLD_DARK
        alpha = 150 if (folded or out) else 225
        ui.box(
            surface,
            r,
            theme.METER_BG,
            alpha,
            radius=14,
            border=border,
            border_w=4 if acting or result else 2,
        )
        ink = theme.MUTED if folded or out else theme.WHITE
        text_w = PANEL_W - 2 * MINI_W - 30
        ui.fitted(surface, name_of(v, seat), 22, ink, text_w, bold=True, topleft=(x + 12, y + 8))
        ui.fitted(
            surface,
            chips(row.chips),
            25,
            theme.METER_TEXT if not out else theme.MUTED,
            text_w,
            bold=True,
            topleft=(x + 12, y + 38),
        )
        # status line
        strength = shown_strength(v, seat) if over else None
        if out:
            line, colour = _("Out · {place}").format(place=place_name(row.place or 0)), theme.MUTED
        elif result is not None:
            line, colour = result, theme.WIN
        elif row.away and not acting:
            line, colour = _("Computer playing"), theme.MUTED
        elif acting:
            line, colour = _("Thinking…"), theme.WIN
        else:
            line, colour = ("" if strength is not None else move_text(row)), theme.CREAM
        if line:
            ui.fitted(
                surface,
                line,
                18,
                colour,
                PANEL_W - 2 * MINI_W - 24,
                bold=True,
                topleft=(x + 12, y + 72),
            )
        # cards: backs while in the hand, faces when shown
        shown = row.cards if seat != v.you else ()
        if playing and row.dealt and (not folded or shown):
            w = lay.px(MINI_W)
            for i in range(2):
                cr = lay.rect(
                    x + PANEL_W - 2 * MINI_W - 14 + i * (MINI_W + 4),
                    y + 10,
                    MINI_W,
                    self.app.cards.height(w) / lay.scale,
                )
                img = (
                    self.app.cards.face(shown[i], w, four_colour)
                    if shown
                    else self.app.cards.back(w)
                )
                surface.blit(img, cr)
            if shown and strength is not None:
                tag = category_name(hand_class(strength)[0])
                tr_ = lay.rect(x + PANEL_W - 2 * MINI_W - 18, y + PANEL_H - 22, 2 * MINI_W + 12, 26)
                ui.box(surface, tr_, (0, 0, 0), 210, radius=8)
                ui.fitted(
                    surface,
                    tag,
                    16,
                    theme.WIN if result else theme.CREAM,
                    2 * MINI_W + 6,
                    bold=True,
                    center=(x + PANEL_W - MINI_W - 12, y + PANEL_H - 9),
                )
        self.draw_badges(surface, markers(v, row), x + PANEL_W - 6, y - 6)
        # the bet in front of the seat
        if v.phase is Phase.PLAY and row.bet > 0:
            self.draw_bet(surface, row.bet, bx, by)

    def draw_badges(self, surface: pygame.Surface, badges: list[str], x: float, y: float) -> None:
        """Small round markers (D, SB, BB) from design ``(x, y)`` leftwards."""
        ui, lay = self.ui, self.layout
        size = lay.px(34)
        for b in reversed(badges):
            colour = theme.CREAM if b == "D" else theme.BLUE
            face = ui.chip_face((size, size), colour, b)
            surface.blit(face, face.get_rect(center=lay.pos(x, y)))
            x -= 38

    def draw_bet(self, surface: pygame.Surface, amount: int, x: float, y: float) -> None:
        ui, lay = self.ui, self.layout
        size = lay.px(40)
        face = ui.chip_face((size, size), (200, 36, 36), "")
        label = self.app.text.render(chips(amount), lay.px(20), theme.WHITE, bold=True)
        total_w = size + lay.px(6) + label.get_width()
        cx, cy = lay.pos(x, y)
        left = cx - total_w // 2
        box = pygame.Rect(
            left - lay.px(6), cy - size // 2 - lay.px(2), total_w + lay.px(14), size + lay.px(4)
        )
        ui.box(surface, box, (0, 0, 0), 120, radius=12)
        surface.blit(face, (left, cy - size // 2))
        surface.blit(label, label.get_rect(midleft=(left + size + lay.px(6), cy)))

    def draw_my_bet(self, surface: pygame.Surface, v: TableView) -> None:
        """This seat's bet in front of it and its markers, above the rail."""
        if v.you >= len(v.seats):
            return
        me = v.seats[v.you]
        if v.phase is Phase.PLAY and me.bet > 0:
            self.draw_bet(surface, me.bet, *MY_BET)
        badges = markers(v, me)
        if badges:
            self.draw_badges(surface, badges, 420, RAIL_Y - 22)
