"""The tournament table's rail: the local player's cards and numbers, the line about
what is happening (or the raise slider), and the pop-ups' panels."""

from __future__ import annotations

import pygame

from engine.holdem.views import LegalActions
from kiosk.tournament.seat_port import Phase, TableView
from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, hand_name
from kiosk.ui.layout import Layout
from kiosk.ui.raise_range import RaiseRange
from kiosk.ui.scenes.tournament.common import chips, place_name
from kiosk.ui.scenes.tournament.icons import icon_surface, speaker_surface
from kiosk.ui.scenes.tournament.raise_panel import draw_slider
from kiosk.ui.scenes.tournament.table_controls import SPEAKER
from kiosk.ui.scenes.tournament.table_facts import (
    Colour,
    hand_over,
    my_strength,
    result_lines,
    shown_strength,
    winning_cards,
)
from kiosk.ui.scenes.tournament.table_layout import MY_CARD_W, RIGHT_X, ROW1
from kiosk.ui.widgets import Painter


class RailPainter:
    """Draws the rail for one host, from the seat port's view (both ends)."""

    def __init__(self, host: SceneHost) -> None:
        self.app = host

    @property
    def ui(self) -> Painter:
        return self.app.painter

    @property
    def layout(self) -> Layout:
        return self.app.layout

    def draw_me(
        self, surface: pygame.Surface, v: TableView, icon: int = 0, four_colour: bool = False
    ) -> float | None:
        """This seat: cards, icon, stack, hand.  Returns the design y below them where
        more lines may go (``None``: it is out or folded, nothing more to say)."""
        ui, lay = self.ui, self.layout
        me = v.seats[v.you] if v.you < len(v.seats) else None
        w = lay.px(MY_CARD_W)
        cards = v.cards
        folded = me is not None and me.folded
        best: set[int] = set()
        if hand_over(v) and v.outcome is not None and v.outcome.won[v.you] > 0:
            best = winning_cards(v)
        for i in range(2):
            r = lay.rect(
                18 + i * (MY_CARD_W + 8), ROW1, MY_CARD_W, self.app.cards.height(w) / lay.scale
            )
            if i < len(cards):
                surface.blit(self.app.cards.shadow(w), (r.x + lay.px(2), r.y + lay.px(4)))
                surface.blit(self.app.cards.face(cards[i], w, four_colour), r)
                if folded:
                    ui.box(surface, r, (0, 0, 0), 130, radius=8)
                elif cards[i] in best:
                    pygame.draw.rect(
                        surface,
                        theme.WIN,
                        r.inflate(lay.px(6), lay.px(6)),
                        max(2, lay.px(4)),
                        border_radius=lay.px(10),
                    )
            else:
                pygame.draw.rect(
                    surface, (80, 90, 84), r, max(1, lay.px(2)), border_radius=lay.px(8)
                )
        x, tw = 224, 212
        out = me is not None and me.place is not None and me.place != 1
        acting = v.your_turn
        surface.blit(icon_surface(icon, lay.px(28)), lay.pos(x, ROW1))
        ui.fitted(
            surface,
            _("You"),
            22,
            theme.WIN if acting else theme.WHITE,
            tw - 34,
            bold=True,
            topleft=(x + 34, ROW1 - 2),
        )
        ui.fitted(
            surface,
            chips(me.chips if me is not None else 0),
            30,
            theme.METER_TEXT,
            tw,
            bold=True,
            topleft=(x, ROW1 + 24),
        )
        y = ROW1 + 64
        if out and me is not None:
            ui.fitted(
                surface,
                _("Out · {place}").format(place=place_name(me.place or 0)),
                21,
                theme.LOSE,
                tw,
                bold=True,
                topleft=(x, y),
            )
            strength = shown_strength(v, v.you) if v.phase is Phase.HAND_OVER else None
            if strength is not None:
                ui.fitted(
                    surface,
                    hand_name(strength),
                    19,
                    theme.CREAM,
                    tw,
                    bold=True,
                    topleft=(x, y + 30),
                )
            return None
        if folded:
            ui.fitted(surface, _("You folded"), 20, theme.MUTED, tw, bold=True, topleft=(x, y))
            return None
        strength = my_strength(v)
        if strength is not None:
            ui.fitted(surface, hand_name(strength), 19, theme.WHITE, tw, bold=True, topleft=(x, y))
            y += 30
        elif cards:
            ui.fitted(surface, _("Your cards"), 19, theme.MUTED, tw, topleft=(x, y))
            y += 30
        return y

    def draw_right(
        self,
        surface: pygame.Surface,
        v: TableView,
        legal: LegalActions | None,
        panel: bool,
        amount: int,
        status_line: str,
        lines: list[tuple[str, Colour]] | None = None,
    ) -> None:
        """Above the buttons: what is happening (``status_line``, unless the end has its
        own ``lines``), the result of the hand; the slider while the raise panel is open
        (``panel``; ``amount`` the chips chosen)."""
        ui = self.ui
        rr = RaiseRange.offered(legal) if panel else None
        if rr is not None:
            self.draw_slider(surface, rr, amount)
            return
        if lines is None:
            lines = []
            if hand_over(v):
                lines += result_lines(v)
            elif v.your_turn:
                if legal is None:
                    pass
                elif legal.can_check:
                    lines.append(
                        (_("Your turn: check or bet."), theme.CREAM)
                        if legal.can_bet
                        else (_("Your turn."), theme.CREAM)
                    )
                else:
                    lines.append(
                        (
                            _("{amount} to call.").format(amount=chips(legal.call_amount)),
                            theme.CREAM,
                        )
                    )
            else:
                lines.append((status_line, theme.MUTED))
        y = ROW1 + 6
        for text, colour in lines[:3]:
            ui.fitted(
                surface,
                text,
                22 if len(lines) < 3 else 19,
                colour,
                1268 - RIGHT_X - 14,
                bold=True,
                topleft=(RIGHT_X + 12, y),
            )
            y += 30 if len(lines) < 3 else 27

    def draw_slider(self, surface: pygame.Surface, rr: RaiseRange, amount: int) -> None:
        draw_slider(self.ui, self.layout, surface, rr, amount)

    def draw_speaker(self, surface: pygame.Surface, on: bool) -> None:
        """The speaker's picture over its button (sound ``on`` or off)."""
        lay = self.layout
        r = lay.rect(*SPEAKER)
        img = speaker_surface(lay.px(54), on)
        surface.blit(img, img.get_rect(center=(r.centerx, r.centery - lay.px(2))))

    def draw_popup(self, surface: pygame.Surface, popup: str) -> None:
        """The menu's or the abandon confirmation's panel (buttons drawn after)."""
        ui, lay = self.ui, self.layout
        ui.shade(surface, 160)
        if popup == "menu":
            box = lay.rect(240, 112, 800, 500)
            ui.box(surface, box, theme.PANEL, 245, radius=20, border=theme.GOLD, border_w=3)
            ui.fitted(surface, _("Menu"), 34, theme.GOLD, 700, bold=True, center=(640, 156))
        else:
            box = lay.rect(300, 180, 680, 380)
            ui.box(surface, box, theme.PANEL, 245, radius=20, border=theme.GOLD, border_w=3)
            ui.fitted(
                surface, _("Abandon this game?"), 36, theme.GOLD, 620, bold=True, center=(640, 250)
            )
            ui.paragraph(
                surface,
                _("It is deleted and not recorded in your records."),
                24,
                theme.CREAM,
                340,
                300,
                600,
            )
