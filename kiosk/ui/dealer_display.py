"""The dealer display: the big screen of a shared table.

It draws a :class:`kiosk.service.display.TableSnapshot` (what the whole table may show: no seat's
hole cards before settlement): the dealer's cards (backs until settlement), the board as
far as it is shown, the betting window's or the decision timer's countdown, and one
panel per station with its bets, its status (betting, ready, deciding, decided, folded,
stopped) and, once settled, its hand and what it was paid.  Amounts are cents.

:class:`DealerDisplay` only paints; whoever owns the window (``uth table display``, a
test) gives it snapshots and flips the screen.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import pygame

from engine.hands.evaluator import evaluate
from engine.uth.round import Phase, SeatResult
from kiosk.service.display import TableSnapshot
from kiosk.service.snapshot import SeatStatus
from kiosk.ui import theme
from kiosk.ui.cards import CardRenderer
from kiosk.ui.i18n import N_, _, category_name, hand_name, money
from kiosk.ui.layout import DESIGN_W, Layout
from kiosk.ui.meter_ticker import MeterTicker
from kiosk.ui.round_words import OUTCOME_WORDS, net_text, paid_text
from kiosk.ui.text import TextCache
from kiosk.ui.widgets import Painter

#: The seats a table can have.
SEATS = 7
CARD_W = 78  # design units
#: The widest a seat's panel gets (a table of few stations), design units.
PANEL_MAX_W = DESIGN_W / 5
#: The progressive meter's plaque, left of the dealer's cards (design rectangle).
METER_PLAQUE = (16, 24, 300, 150)
#: The banner of a new progressive hit (design rectangle) and how long it stays (s).
HIT_BANNER, HIT_S = (140, 220, 1000, 66), 10.0

PHASE_NAMES = {
    Phase.PREFLOP: N_("Pre-flop"),
    Phase.FLOP: N_("Flop"),
    Phase.RIVER: N_("River"),
}


def seat_state(seat: SeatStatus, snap: TableSnapshot) -> str:
    """What a seat is doing, in words (translated)."""
    if seat.tilted:
        return _("Stopped")
    if snap.round_open and seat.in_round:
        if seat.folded:
            return _("Folded")
        return _("Decided") if seat.decided else _("Deciding")
    if seat.in_round and snap.results:
        return _("Settled")
    if seat.ready:
        return _("Ready")
    betting = not snap.round_open and (snap.betting_seconds is not None or not snap.results)
    if seat.ante or (seat.seated and betting and not seat.passed):
        return _("Betting")  # a seated player's chips stay at the station until Deal
    if seat.seated:
        return _("Sitting out")
    return _("Open seat")


def countdown(snap: TableSnapshot) -> str:
    """The running timer in words, or "" when none runs."""
    if snap.stopped:
        return _("The table is stopped: call an attendant")
    if snap.betting_seconds is not None:
        return _("Bets close in {seconds} s").format(seconds=math.ceil(snap.betting_seconds))
    if snap.decision_seconds is not None:
        return _("Decide within {seconds} s").format(seconds=math.ceil(snap.decision_seconds))
    return ""


#: A settled seat's main-bet outcome in the attendant's words.
SEAT_OUTCOMES = {"WIN": OUTCOME_WORDS["win"], "LOSS": OUTCOME_WORDS["loss"], "PUSH": OUTCOME_WORDS["push"],
                 "FOLD": OUTCOME_WORDS["fold"]}


def _compact(cents: int) -> str:
    return money(cents, compact=True)


def dealer_words(snap: TableSnapshot) -> tuple[str, str] | None:
    """(the dealer's hand, whether it qualifies) once the dealer's cards and the whole
    board show; ``None`` before."""
    if len(snap.dealer) != 2 or len(snap.board) != 5:
        return None
    name = hand_name(evaluate((*snap.dealer, *snap.board)))
    if snap.dealer_qualifies is None:
        return name, ""
    return name, _("Dealer qualifies") if snap.dealer_qualifies else _("Dealer does not qualify")


class DealerDisplay:
    """Paints a :class:`TableSnapshot` on a surface of the layout's size."""

    def __init__(
        self,
        size: tuple[int, int],
        text: TextCache | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.layout = Layout(size)
        self.text = text or TextCache()
        self.painter = Painter(self.layout, self.text)
        self.cards = CardRenderer(self.text)
        self._felt: pygame.Surface | None = None
        self.clock = clock  # seconds: the progressive meter counts up on it
        self.meter = MeterTicker()
        self._hit: tuple[int | None, float] | None = None  # (round of the last hit seen, since)

    def draw(self, surface: pygame.Surface, snap: TableSnapshot) -> None:
        """Paint the whole display for ``snap``."""
        if self._felt is None or self._felt.get_size() != surface.get_size():
            self._felt = theme.felt(surface.get_size())
        surface.blit(self._felt, (0, 0))
        self._dealer(surface, snap)
        self._board(surface, snap)
        self._timer(surface, snap)
        self._progressive(surface, snap)
        results = {r.seat: r for r in snap.results}
        seats = snap.seats[:SEATS]
        width = min(PANEL_MAX_W, DESIGN_W / max(1, len(seats)))
        left = (DESIGN_W - width * len(seats)) / 2
        for index, seat in enumerate(seats):
            self._seat(surface, snap, seat, results.get(seat.seat), left + index * width, width)
        self._hit_banner(surface, snap)

    # -- the dealer and the board ----------------------------------------------------
    def _card_row(self, surface: pygame.Surface, cards: tuple[int, ...], slots: int,
                  centre_x: float, y: float, width: float) -> None:
        lay = self.layout
        w = lay.px(width)
        gap = lay.px(10)
        total = slots * w + (slots - 1) * gap
        left = lay.pos(centre_x, y)[0] - total // 2
        top = lay.pos(0, y)[1]
        for i in range(slots):
            x = left + i * (w + gap)
            if i < len(cards):
                face = surface.blit(self.cards.face(cards[i], w), (x, top))
                self.painter.mark(surface, face, "card")
            else:
                h = self.cards.height(w)
                outline = pygame.Rect(x, top, w, h)
                pygame.draw.rect(surface, theme.GOLD, outline, max(1, w // 40), border_radius=w // 12)

    def _dealer(self, surface: pygame.Surface, snap: TableSnapshot) -> None:
        ui = self.painter
        ui.label(surface, _("DEALER"), 22, theme.GOLD, bold=True, center=(DESIGN_W / 2 - 220, 40))
        if snap.dealer:
            self._card_row(surface, snap.dealer, 2, DESIGN_W / 2 - 220, 62, CARD_W)
            words = dealer_words(snap)
            if words is not None:
                name, qualifies = words
                ui.fitted(surface, name, 20, theme.WHITE, 400, bold=True, center=(DESIGN_W / 2 - 220, 188))
                ui.fitted(surface, qualifies, 16, theme.CREAM, 400, center=(DESIGN_W / 2 - 220, 210))
        elif snap.round_open:
            lay = self.layout
            w = lay.px(CARD_W)
            x, y = lay.pos(DESIGN_W / 2 - 220, 62)
            for i in (0, 1):
                back = self.cards.back(w)
                surface.blit(back, (x - w - lay.px(5) + i * (w + lay.px(10)), y))

    def _board(self, surface: pygame.Surface, snap: TableSnapshot) -> None:
        ui = self.painter
        title = _("BOARD")
        if snap.phase is not None and snap.round_open:
            title = f"{title} · {_(PHASE_NAMES[snap.phase])}"
        ui.label(surface, title, 22, theme.GOLD, bold=True, center=(DESIGN_W / 2 + 160, 40))
        self._card_row(surface, snap.board, 5, DESIGN_W / 2 + 160, 62, CARD_W)

    def _timer(self, surface: pygame.Surface, snap: TableSnapshot) -> None:
        text = countdown(snap)
        if text:
            colour = theme.LOSE if snap.stopped else theme.CREAM
            self.painter.fitted(surface, text, 30, colour, DESIGN_W - 80, bold=True,
                                center=(DESIGN_W / 2, 240))

    def _progressive(self, surface: pygame.Surface, snap: TableSnapshot) -> None:
        """The progressive meter, large, counting up when it grows ("—" while a linked
        meter is not known); nothing when the paytable has no progressive."""
        if not snap.has_progressive:
            return
        ui, lay = self.painter, self.layout
        x, y, w, h = METER_PLAQUE
        ui.box(surface, lay.rect(*METER_PLAQUE), theme.METER_BG, 235, radius=14, border=theme.GOLD,
               border_w=3)
        ui.fitted(surface, _("PROGRESSIVE"), 26, theme.GOLD, w - 24, bold=True, max_lines=1,
                  center=(x + w / 2, y + 30))
        shown, counting = self.meter.reading(snap.progressive_meter, self.clock())
        words = "—" if shown is None else money(shown)
        ui.fitted(surface, words, 52, theme.WIN if counting else theme.METER_TEXT, w - 20, bold=True,
                  max_lines=1, center=(x + w / 2, y + h - 52))

    def hit_shown(self, snap: TableSnapshot) -> bool:
        """A new hit of the progressive meter is being celebrated: for :data:`HIT_S`
        seconds after the display first saw it (one there when it started is old news)."""
        hit, now = snap.progressive_hit, self.clock()
        round_id = hit.round_id if hit is not None else None
        if self._hit is None:  # the first snapshot: its hit, if any, is old news
            self._hit = (round_id, now - HIT_S)
        elif self._hit[0] != round_id:
            self._hit = (round_id, now)
        return hit is not None and now - self._hit[1] < HIT_S

    def _hit_banner(self, surface: pygame.Surface, snap: TableSnapshot) -> None:
        shown, hit = self.hit_shown(snap), snap.progressive_hit
        if not shown or hit is None:
            return
        ui, lay = self.painter, self.layout
        x, y, w, h = HIT_BANNER
        ui.box(surface, lay.rect(*HIT_BANNER), theme.METER_BG, 240, radius=16, border=theme.WIN,
               border_w=4)
        ui.fitted(surface, _("PROGRESSIVE HIT AT THE TABLE!"), 28, theme.WIN, w - 40, bold=True,
                  max_lines=1, center=(x + w / 2, y + 20))
        wins = " · ".join(
            _("Seat {n}: {hand} {amount}").format(n=win.seat, hand=category_name(win.hand),
                                                  amount=money(win.cents))
            for win in hit.wins
        )
        ui.fitted(surface, wins, 22, theme.CREAM, w - 40, bold=True, max_lines=1,
                  center=(x + w / 2, y + h - 18))

    # -- the seats -------------------------------------------------------------------
    def _seat(self, surface: pygame.Surface, snap: TableSnapshot, seat: SeatStatus,
              result: SeatResult | None, left: float, width: float) -> None:
        ui, lay = self.painter, self.layout
        x = left + 6
        w = width - 12
        top, h = 290, 410
        border = theme.LOSE if seat.tilted else theme.GOLD if seat.in_round else None
        ui.box(surface, lay.rect(x, top, w, h), alpha=140, radius=14, border=border)
        cx = x + w / 2
        ui.fitted(surface, _("Seat {n}").format(n=seat.seat), 24, theme.GOLD, w - 12, bold=True,
                  center=(cx, top + 26))
        ui.fitted(surface, seat_state(seat, snap), 20, theme.CREAM, w - 12, center=(cx, top + 58))
        y = top + 96
        for name, cents in ((_("Ante"), seat.ante), (_("Blind"), seat.ante), (_("Trips"), seat.trips),
                            (_("Play"), seat.play), (_("Progressive"), seat.progressive)):
            if cents:
                ui.fitted(surface, f"{name} {money(cents, compact=True)}", 19, theme.CREAM, w - 12,
                          center=(cx, y))
                y += 30
        if result is not None:
            self._card_row(surface, result.hole, 2, cx, top + 212, min(60, (w - 30) / 2))
            ui.fitted(surface, hand_name(result.strength), 17, theme.CREAM, w - 12, max_h=44,
                      center=(cx, top + 330))
            paid, net = result.returned, result.net
            colour = theme.WIN if net > 0 else theme.PUSH if net == 0 else theme.LOSE
            ui.fitted(surface, _(SEAT_OUTCOMES[result.outcome.name]), 17, theme.CREAM, w - 12,
                      center=(cx, top + 356))
            ui.fitted(surface, net_text(net, _compact), 20, colour, w - 12, bold=True, center=(cx, top + 378))
            ui.fitted(surface, paid_text(paid, _compact), 16, theme.CREAM, w - 12, center=(cx, top + 398))
