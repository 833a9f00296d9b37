"""The game recall page: the last rounds, two lines each (when, outcome and payout; the
stakes and the cards), then one line per decision stored with its exact value ("Play 1×:
0.21 Ante better than Fold"); as many rounds as fit.  The player's History screen steps
through a round card by card."""

from __future__ import annotations

import pygame

from engine.cards import format_cards
from kiosk.ui import theme
from kiosk.ui.i18n import _
from kiosk.ui.scenes.operator.page import BOTTOM, LEFT, TOP, WIDTH, Page
from kiosk.ui.scenes.recall import OUTCOMES, PHASES, value_line

SHOWN = 6


class RoundsPage(Page):
    id = "recall"

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        ui, money = desk.ui, desk.money
        y = TOP + 4
        rounds = desk.cached(("recall",), lambda: desk.machine.recall(SHOWN))
        if not rounds:
            ui.fitted(surface, _("No rounds played yet."), 24, theme.MUTED, WIDTH, topleft=(LEFT, y))
        for r in rounds:
            worth = [(d, line) for d in r.decisions if (line := value_line(d)) is not None]
            if y + 66 + 26 * len(worth) > BOTTOM:
                break
            when = (r.settled_at or r.started_at)[:19].replace("T", " ")
            outcome = _(OUTCOMES[r.outcome]) if r.outcome in OUTCOMES else _("Round in progress")
            head = f"{_('Round {id}').format(id=r.id)}   {when}   {outcome}"
            ui.fitted(surface, head, 22, theme.WHITE, WIDTH - 300, bold=True, topleft=(LEFT, y))
            ui.fitted(surface, _("Paid {amount}").format(amount=money(r.paid + r.jackpot)), 22, theme.WIN, 290,
                      bold=True, topright=(LEFT + WIDTH, y))
            bets = (f"{_('Ante')} {money(r.ante)}  {_('Blind')} {money(r.blind)}  {_('Play')} {money(r.play)}  "
                    f"{_('Trips')} {money(r.trips)}")
            cards = f"{format_cards(r.player_hole)}  |  {format_cards(r.board)}  |  {format_cards(r.dealer_hole)}"
            ui.fitted(surface, bets, 20, theme.CREAM, WIDTH * 0.55, topleft=(LEFT, y + 32))
            ui.fitted(surface, cards, 20, theme.MUTED, WIDTH * 0.43, topright=(LEFT + WIDTH, y + 32))
            y += 66
            for d, line in worth:
                colour = theme.MUTED if d.action == d.best else theme.PUSH
                ui.fitted(surface, f"{_(PHASES[d.phase.value])}  ·  {line}", 20, colour, WIDTH - 24,
                          topleft=(LEFT + 24, y))
                y += 26
            y += 12
