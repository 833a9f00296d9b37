"""The tournament table's rail: the local player's cards and numbers, the line about
what is happening (or the raise slider), and the pop-ups' panels."""

from __future__ import annotations

import pygame

from engine.holdem.equity import pot_odds
from kiosk.tournament.session import TournamentSession
from kiosk.tournament.settings import seat_icon
from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import N_, PersonMessage, _, hand_name
from kiosk.ui.layout import Layout
from kiosk.ui.raise_range import RaiseRange
from kiosk.ui.scenes.tournament.common import chips, percent, place_name, seat_name
from kiosk.ui.scenes.tournament.icons import icon_surface, speaker_surface
from kiosk.ui.scenes.tournament.raise_panel import draw_slider
from kiosk.ui.scenes.tournament.table_controls import SPEAKER
from kiosk.ui.scenes.tournament.table_facts import status, strength_of, winning_cards
from kiosk.ui.scenes.tournament.table_layout import MY_CARD_W, RIGHT_X, ROW1
from kiosk.ui.widgets import Painter

#: The winner of a pot, about the player at this cabinet or another.
WINS_WITH = PersonMessage(N_("You win {amount} with {hand}"), N_("{name} wins {amount} with {hand}"))
WINS = PersonMessage(N_("You win {amount}"), N_("{name} wins {amount}"))

class RailPainter:
    """Draws the rail for one host."""

    def __init__(self, host: SceneHost) -> None:
        self.app = host

    @property
    def ui(self) -> Painter:
        return self.app.painter

    @property
    def layout(self) -> Layout:
        return self.app.layout

    def draw_me(self, surface: pygame.Surface, s: TournamentSession) -> None:
        """The local player: cards, stack, hand, equity and pot odds."""
        ui, lay = self.ui, self.layout
        t = s.t
        h = t.hand
        seat = s.human_seat
        v = s.view()
        w = lay.px(MY_CARD_W)
        cards = v.hole_cards if v is not None else ()
        folded = h is not None and h.dealt_in[seat] and h.folded[seat]
        best: set[int] = set()
        if s.hand_over and s.t.last_result is not None and s.t.last_result.won[seat] > 0:
            best = winning_cards(s)
        for i in range(2):
            r = lay.rect(18 + i * (MY_CARD_W + 8), ROW1, MY_CARD_W, self.app.cards.height(w) / lay.scale)
            if i < len(cards):
                surface.blit(self.app.cards.shadow(w), (r.x + lay.px(2), r.y + lay.px(4)))
                surface.blit(self.app.cards.face(cards[i], w, s.four_colour), r)
                if folded:
                    ui.box(surface, r, (0, 0, 0), 130, radius=8)
                elif cards[i] in best:
                    pygame.draw.rect(surface, theme.WIN, r.inflate(lay.px(6), lay.px(6)), max(2, lay.px(4)),
                                     border_radius=lay.px(10))
            else:
                pygame.draw.rect(surface, (80, 90, 84), r, max(1, lay.px(2)), border_radius=lay.px(8))
        x, tw = 224, 212
        out = seat in t.places and t.places[seat] != 1
        acting = s.my_turn
        icon = icon_surface(seat_icon(t.config.seats[seat]), lay.px(28))
        surface.blit(icon, lay.pos(x, ROW1))
        ui.fitted(surface, _("You"), 22, theme.WIN if acting else theme.WHITE, tw - 34, bold=True,
                  topleft=(x + 34, ROW1 - 2))
        ui.fitted(surface, chips(t.stacks_now[seat]), 30, theme.METER_TEXT, tw, bold=True, topleft=(x, ROW1 + 24))
        y = ROW1 + 64
        if out:
            ui.fitted(surface, _("Out · {place}").format(place=place_name(t.places[seat])), 21, theme.LOSE, tw,
                      bold=True, topleft=(x, y))
            strength = strength_of(s, seat) if s.hand_over else None
            if strength is not None:
                ui.fitted(surface, hand_name(strength), 19, theme.CREAM, tw, bold=True, topleft=(x, y + 30))
            return
        if folded:
            ui.fitted(surface, _("You folded"), 20, theme.MUTED, tw, bold=True, topleft=(x, y))
            return
        strength = s.hand_name_strength()
        if strength is not None:
            ui.fitted(surface, hand_name(strength), 19, theme.WHITE, tw, bold=True, topleft=(x, y))
            y += 30
        elif cards:
            ui.fitted(surface, _("Your cards"), 19, theme.MUTED, tw, topleft=(x, y))
            y += 30
        eq, computing = s.equity()
        if s.equity_assist and cards and not s.hand_over:
            text = (_("Equity {pct}").format(pct=percent(eq.equity)) if eq is not None
                    else _("Equity …") if computing else "")
            if text:
                ui.fitted(surface, text, 22, theme.WIN, tw, bold=True, topleft=(x, y))
                y += 32
        la = s.legal()
        if la is not None and la.call_amount > 0 and s.equity_assist:
            ui.fitted(surface, _("Pot odds {pct}").format(pct=percent(pot_odds(la.call_amount, la.pot))), 18,
                      theme.CREAM, tw, topleft=(x, y))

    def draw_right(self, surface: pygame.Surface, s: TournamentSession, panel: bool, amount: int) -> None:
        """Above the buttons: what is happening, the result of the hand; the slider while
        the raise panel is open (``panel``; ``amount`` the chips chosen)."""
        ui = self.ui
        rr = RaiseRange.offered(s.legal()) if panel else None
        if rr is not None:
            self.draw_slider(surface, rr, amount)
            return
        lines: list[tuple[str, tuple[int, int, int]]] = []
        if s.is_over:
            champ = s.t.champion
            if champ == s.human_seat:
                lines.append((_("You won the tournament!"), theme.WIN))
            else:
                place = s.t.places.get(s.human_seat, 0)
                lines.append((_("You came {place} of {players}").format(place=place_name(place),
                                                                         players=s.t.n_seats), theme.WIN))
        elif s.playing_out:
            lines.append((_("You are out. Finishing the tournament…"), theme.CREAM))
        elif s.hand_over and s.t.last_result is not None:
            lines += self.result_lines(s)
        elif s.my_turn:
            la = s.legal()
            if la is not None:
                if la.can_check:
                    lines.append((_("Your turn: check or bet."), theme.CREAM) if la.can_bet else
                                 (_("Your turn."), theme.CREAM))
                else:
                    lines.append((_("{amount} to call.").format(amount=chips(la.call_amount)), theme.CREAM))
        else:
            lines.append((status(s), theme.MUTED))
        y = ROW1 + 6
        for text, colour in lines[:3]:
            ui.fitted(surface, text, 22 if len(lines) < 3 else 19, colour, 1268 - RIGHT_X - 14, bold=True,
                      topleft=(RIGHT_X + 12, y))
            y += 30 if len(lines) < 3 else 27

    def result_lines(self, s: TournamentSession) -> list[tuple[str, tuple[int, int, int]]]:
        res = s.t.last_result
        assert res is not None
        strengths = {x.seat: x.strength for x in res.shown}
        out = []
        totals: dict[int, int] = {}
        for p in res.pots:
            for w, share in zip(p.winners, p.shares, strict=False):
                totals[w] = totals.get(w, 0) + share
        for seat, amount in sorted(totals.items(), key=lambda kv: -kv[1]):
            name = seat_name(s, seat)
            colour = theme.WIN if seat == s.human_seat else theme.CREAM
            you = seat == s.human_seat
            if seat in strengths:
                out.append((WINS_WITH.format(is_you=you, name=name, amount=chips(amount),
                                             hand=hand_name(strengths[seat])), colour))
            else:
                out.append((WINS.format(is_you=you, name=name, amount=chips(amount)), colour))
        return out

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
            ui.fitted(surface, _("Abandon this game?"), 36, theme.GOLD, 620, bold=True, center=(640, 250))
            ui.paragraph(surface, _("It is deleted and not recorded in your records."), 24, theme.CREAM, 340, 300,
                         600)
