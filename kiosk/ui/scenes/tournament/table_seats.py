"""The tournament table's seats: each opponent's panel (name, stack, last move, cards,
the dealer and blind markers) and the bets in front of the seats."""

from __future__ import annotations

import pygame

from engine.hands.categories import hand_class
from kiosk.tournament.session import TournamentSession
from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, category_name
from kiosk.ui.layout import Layout
from kiosk.ui.scenes.tournament.common import chips, place_name, seat_name, short_action
from kiosk.ui.scenes.tournament.table_facts import (
    last_actions,
    markers,
    result_for,
    shown_cards_of,
    strength_of,
)
from kiosk.ui.scenes.tournament.table_layout import MINI_W, MY_BET, PANEL_H, PANEL_W, RAIL_Y, SLOTS
from kiosk.ui.widgets import Painter


class SeatPainter:
    """Draws the seats for one host."""

    def __init__(self, host: SceneHost) -> None:
        self.app = host

    @property
    def ui(self) -> Painter:
        return self.app.painter

    @property
    def layout(self) -> Layout:
        return self.app.layout

    def draw_seat(self, surface: pygame.Surface, s: TournamentSession, seat: int, slot: str) -> None:
        ui, lay = self.ui, self.layout
        (cx, cy), (bx, by) = SLOTS[slot]
        t = s.t
        h = t.hand
        x, y = cx - PANEL_W / 2, cy - PANEL_H / 2
        r = lay.rect(x, y, PANEL_W, PANEL_H)
        out = seat in t.places and t.places[seat] != 1 and (h is None or not h.dealt_in[seat] or s.hand_over)
        folded = h is not None and h.dealt_in[seat] and h.folded[seat]
        acting = t.to_act == seat and not s.hand_over
        result = result_for(s, seat)
        border = theme.WIN if acting or (result and result[1]) else theme.GOLD_DARK
        alpha = 150 if (folded or out) else 225
        ui.box(surface, r, theme.METER_BG, alpha, radius=14, border=border, border_w=4 if acting or result else 2)
        ink = theme.MUTED if folded or out else theme.WHITE
        text_w = PANEL_W - 2 * MINI_W - 30
        name = seat_name(s, seat)
        ui.fitted(surface, name, 22, ink, text_w, bold=True, topleft=(x + 12, y + 8))
        stack = t.stacks_now[seat]
        ui.fitted(surface, chips(stack), 25, theme.METER_TEXT if not out else theme.MUTED, text_w, bold=True,
                  topleft=(x + 12, y + 38))
        # status line
        if out:
            line, colour = _("Out · {place}").format(place=place_name(t.places[seat])), theme.MUTED
        elif result is not None:
            line, colour = result[0], theme.WIN
        elif s.remote.is_away(seat) and not acting:
            line, colour = _("Computer playing"), theme.MUTED
        elif acting:
            line, colour = _("Thinking…"), theme.WIN
        else:
            last = last_actions(s).get(seat)
            line, colour = (short_action(s, last), theme.CREAM) if last is not None else ("", theme.CREAM)
            if s.hand_over and h is not None and seat in {x.seat for x in (s.t.last_result.shown if s.t.last_result
                                                                         else ())}:
                line = ""
        if line:
            ui.fitted(surface, line, 18, colour, PANEL_W - 2 * MINI_W - 24, bold=True, topleft=(x + 12, y + 72))
        # cards: backs while in the hand, faces when shown
        shown = shown_cards_of(s).get(seat)
        if h is not None and h.dealt_in[seat] and (not folded or shown):
            w = lay.px(MINI_W)
            for i in range(2):
                cr = lay.rect(x + PANEL_W - 2 * MINI_W - 14 + i * (MINI_W + 4), y + 10, MINI_W,
                              self.app.cards.height(w) / lay.scale)
                img = (self.app.cards.face(shown[i], w, s.four_colour) if shown
                       else self.app.cards.back(w))
                surface.blit(img, cr)
            if shown and s.hand_over:
                strength = strength_of(s, seat)
                if strength is not None:
                    cat = hand_class(strength)[0]
                    tag = category_name(cat)
                    tr_ = lay.rect(x + PANEL_W - 2 * MINI_W - 18, y + PANEL_H - 22, 2 * MINI_W + 12, 26)
                    ui.box(surface, tr_, (0, 0, 0), 210, radius=8)
                    ui.fitted(surface, tag, 16, theme.WIN if result else theme.CREAM, 2 * MINI_W + 6, bold=True,
                              center=(x + PANEL_W - MINI_W - 12, y + PANEL_H - 9))
        self.draw_badges(surface, markers(s, seat), x + PANEL_W - 6, y - 6)
        # the bet in front of the seat
        if h is not None and not s.hand_over and h.bets[seat] > 0:
            self.draw_bet(surface, h.bets[seat], bx, by)

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
        box = pygame.Rect(left - lay.px(6), cy - size // 2 - lay.px(2), total_w + lay.px(14), size + lay.px(4))
        ui.box(surface, box, (0, 0, 0), 120, radius=12)
        surface.blit(face, (left, cy - size // 2))
        surface.blit(label, label.get_rect(midleft=(left + size + lay.px(6), cy)))

    def draw_my_bet(self, surface: pygame.Surface, s: TournamentSession) -> None:
        h = s.t.hand
        seat = s.human_seat
        if h is not None and not s.hand_over and h.bets[seat] > 0:
            self.draw_bet(surface, h.bets[seat], *MY_BET)
        badges = markers(s, seat)
        if badges:
            self.draw_badges(surface, badges, 420, RAIL_Y - 22)
