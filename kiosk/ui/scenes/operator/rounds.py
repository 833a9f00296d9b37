"""The game recall page: the last :data:`RECALL` rounds (the regulators' norm: the last
game and the nine before it), as many to a screen as fit, OLDER / NEWER to page through
them.  Each round takes two lines (when, the outcome in an attendant's words, what it
paid back and its net; the stakes and the cards, drawn as small cards with their suits),
then one line per decision stored with its exact value ("Play 1×: 0.21 Ante better than
Fold").  The player's History screen steps through a round card by card.

The rounds come through the operator port (:class:`~kiosk.station.operator_port.
RecalledRound`: this station's finished rounds); where the menu has the ledger of its
own (a lone cabinet) its records are read instead, with the round in play and each
decision's value, which the port does not carry."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from engine.cards import rank_of, suit_of
from kiosk.station.operator_port import Capability, RecalledRound
from kiosk.ui import theme
from kiosk.ui.cards import draw_suit, suit_colour
from kiosk.ui.i18n import N_, RANK_LETTERS, _
from kiosk.ui.round_words import RESULT_WORDS, net_text, paid_text
from kiosk.ui.scenes.intents import Nav
from kiosk.ui.scenes.operator.page import BOTTOM, LEFT, ROW_H, ROW_Y, TOP, WIDTH, Desk, Page
from kiosk.ui.scenes.operator.status import waiting
from kiosk.ui.scenes.recall import OUTCOMES, PHASES, value_line
from kiosk.ui.widgets import Button

#: Rounds the page recalls.
RECALL = 10
MINI_W = 42  # a recalled card's width, design units
ROUND_H = 74
#: Whose cards a round shows, left to right.
HANDS = (N_("Player"), N_("Board"), N_("Dealer"))


def round_height(r: Any) -> float:
    """Design units a round takes on the page (its two lines and its decisions' lines)."""
    return ROUND_H + 26 * sum(1 for d in r.decisions if value_line(d) is not None) + 12


def pages(rounds: list[Any]) -> list[tuple[int, int]]:
    """(first, end) indices of the rounds on each screen, newest first."""
    out, start, y = [], 0, 0.0
    for i, r in enumerate(rounds):
        h = round_height(r)
        if i > start and y + h > BOTTOM - TOP - 30:
            out.append((start, i))
            start, y = i, 0.0
        y += h
    if start < len(rounds):
        out.append((start, len(rounds)))
    return out


@dataclass(frozen=True)
class RoundLine:
    """A round of the port's recall as the page reads a round (a finished round; no
    decision values)."""

    round: RecalledRound
    state = "settled"
    outcome = None
    settled_at = None
    decisions = ()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.round, name)

    @property
    def net(self) -> int:
        return self.round.returned - self.round.staked

    @property
    def result(self) -> str:
        return "won" if self.net > 0 else "lost" if self.net < 0 else "pushed"


class RoundsPage(Page):
    id = "recall"
    screen = 0  # which screen of rounds is shown (0: the newest)

    def __init__(self, desk: Desk) -> None:
        super().__init__(desk)
        self.recalled: tuple[RecalledRound, ...] | None = None
        self._asked = False  # the port took the request (it takes one at a time)

    def keep(self, rounds: tuple[RecalledRound, ...]) -> None:
        self.recalled = rounds

    def ledger(self) -> bool:
        """The menu has the ledger of its own (its records say more than the port's)."""
        return self.desk.port.offers(Capability.EVENTS)

    def open(self) -> None:
        self.screen, self.recalled = 0, None
        self._asked = self.ledger()  # the menu's own ledger is read, not asked
        self._ask()

    def _ask(self) -> None:
        if not self._asked:
            port = self.desk.port
            self._asked = self.desk.request(lambda done: port.recall(port.station, done), self.keep)

    def update(self, dt: float) -> None:
        self._ask()  # the port was busy when the page opened: asked once it is free

    def rounds(self) -> list[Any]:
        desk = self.desk
        if not self.ledger():
            return [RoundLine(r) for r in self.recalled or ()]
        return list(desk.cached(("recall", RECALL), lambda: desk.operations.recall(RECALL)))

    def look(self) -> Any:
        return (self.recalled,)  # the port's answer (the ledger's rounds: the snapshot's)

    def buttons(self) -> list[Button]:
        n = len(pages(self.rounds()))
        return [Button("older", (240, ROW_Y, 200, ROW_H), _("OLDER"), Nav.OLDER, style="plain",
                       enabled=self.screen + 1 < n),
                Button("newer", (450, ROW_Y, 200, ROW_H), _("NEWER"), Nav.NEWER, style="plain",
                       enabled=self.screen > 0)]

    def on_intent(self, intent: object) -> bool:
        match intent:
            case Nav.OLDER:
                self.screen = min(self.screen + 1, max(0, len(pages(self.rounds())) - 1))
            case Nav.NEWER:
                self.screen = max(0, self.screen - 1)
            case _:
                return False
        return True

    def shown(self) -> list[Any]:
        """The rounds on the screen now, newest first."""
        rounds = self.rounds()
        screens = pages(rounds)
        if not screens:
            return []
        first, end = screens[min(self.screen, len(screens) - 1)]
        return rounds[first:end]

    def _cards(self, surface: pygame.Surface, cards: tuple[int, ...], x: float, y: float) -> float:
        """Each card as its rank and its suit's symbol in the suit's colour ("9♣"), on a
        light chip so red and black read on the dark page; returns the x after them."""
        app, lay, ui = self.desk.app, self.desk.layout, self.desk.ui
        four = app.prefs.four_colour
        for c in cards:
            ink = suit_colour(suit_of(c), four)
            chip = lay.rect(x, y, MINI_W, 26)
            pygame.draw.rect(surface, theme.CREAM, chip, border_radius=lay.px(4))
            ui.label(surface, RANK_LETTERS[rank_of(c)], 19, ink, bold=True, midleft=(x + 3, y + 13))
            mark = draw_suit(suit_of(c), lay.px(15), ink)
            surface.blit(mark, mark.get_rect(midright=lay.pos(x + MINI_W - 3, y + 13)))
            x += MINI_W + 4
        return x + 10

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        ui, money = desk.ui, desk.money
        y = TOP + 4
        rounds = self.rounds()
        if not self.ledger() and self.recalled is None:
            waiting(self, surface)
            return
        if not rounds:
            ui.fitted(surface, _("No rounds played yet."), 24, theme.MUTED, WIDTH, topleft=(LEFT, y))
            return
        shown = self.shown()
        if shown:  # the rounds' own numbers, in the order they are shown (newest first)
            ui.fitted(surface, _("Rounds {first} to {last} of the last {n}").format(
                first=shown[0].id, last=shown[-1].id, n=len(rounds)), 18, theme.MUTED, WIDTH - 9 * (MINI_W + 4) - 20,
                topleft=(LEFT, BOTTOM - 24))
            legend = "  ·  ".join(_(hand) for hand in HANDS)  # whose cards, left to right
            ui.fitted(surface, legend, 18, theme.MUTED, 9 * (MINI_W + 4), topright=(LEFT + WIDTH, BOTTOM - 24))
        for r in shown:
            when = (r.settled_at or r.started_at)[:19].replace("T", " ")
            outcome = (_(RESULT_WORDS[r.result]) if r.state == "settled" else
                       _(OUTCOMES[r.outcome]) if r.outcome in OUTCOMES else _("Round in progress"))
            head = f"{_('Round {id}').format(id=r.id)}   {when}   {outcome}"
            ui.fitted(surface, head, 22, theme.WHITE, WIDTH - 400, bold=True, topleft=(LEFT, y))
            result = _("{paid} · {net}").format(paid=paid_text(r.paid + r.jackpot, money),
                                               net=net_text(r.net, money))
            ui.fitted(surface, result, 22, theme.WIN if r.net > 0 else theme.CREAM, 390, bold=True,
                      topright=(LEFT + WIDTH, y))
            bets = (f"{_('Ante')} {money(r.ante)}  {_('Blind')} {money(r.blind)}  {_('Play')} {money(r.play)}  "
                    f"{_('Trips')} {money(r.trips)}")
            ui.fitted(surface, bets, 20, theme.CREAM, WIDTH - 9 * (MINI_W + 4) - 40, topleft=(LEFT, y + 34))
            x: float = LEFT + WIDTH - 9 * (MINI_W + 4) - 20
            for cards in (r.player_hole, r.board, r.dealer_hole):
                x = self._cards(surface, tuple(cards), x, y + 30)
            y += ROUND_H
            for d in r.decisions:
                line = value_line(d)
                if line is None:
                    continue
                colour = theme.MUTED if d.action == d.best else theme.PUSH
                ui.fitted(surface, f"{_(PHASES[d.phase.value])}  ·  {line}", 20, colour, WIDTH - 24,
                          topleft=(LEFT + 24, y))
                y += 26
            y += 12
