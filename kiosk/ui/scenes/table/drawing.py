"""Drawing what moves or changes on the table: chips on the spots, the cards, the hand
names and the result, the meters' values, the prompt line and the pop-ups.

Everything draws through a :class:`kiosk.ui.widgets.DamageSurface`, which records the
rectangles it touched for the compositor.  Amounts are cents.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from engine.hands.evaluator import evaluate
from engine.uth.round import RoundSettled, SeatResult
from engine.uth.settlement import Outcome
from kiosk.game.snapshot import MachineSnapshot, ProgressiveHit
from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, category_name, hand_name
from kiosk.ui.round_words import net_text, paid_text, why
from kiosk.ui.scenes.chrome import fmt, meter_value
from kiosk.ui.scenes.table.animation import DealAnimation, ease
from kiosk.ui.scenes.table.chips import draw_stack
from kiosk.ui.scenes.table.felt import pay_line_band
from kiosk.ui.scenes.table.geometry import (
    CARD_H,
    CARD_W,
    DEALER_Y,
    FLIP,
    HIT_BANNER,
    METER_PLAQUE,
    NAME_W,
    NAME_X,
    PLAYER_Y,
    SHOE,
    SPOTS,
    TAG_AT,
    slot_pos,
)
from kiosk.ui.scenes.table.meters import meters
from kiosk.ui.scenes.table.settle import STAKE_OFFSET, WIN_OFFSET, SettlementShow
from kiosk.ui.widgets import DamageSurface

Colour = tuple[int, int, int]


def draw_spots(host: SceneHost, surface: DamageSurface, amounts: dict[str, int], seat: SeatResult | None,
               chips: Sequence[int], blink_ante: bool, show: SettlementShow | None = None,
               clock: float = 0.0) -> None:
    """Chip stacks on each spot, the Ante ringed while it waits for a chip (``blink_ante``),
    and each spot's net (+$5.00) / PUSH / LOSE once the result shows (``seat``); with the result,
    ``show`` says which stakes were swept and which winnings landed at ``clock``."""
    ui, lay = host.painter, host.layout
    for spot, (x, y, r) in SPOTS.items():
        amount = amounts.get(spot, 0)
        if spot == "progressive":  # one fixed wager: its chip, no tag (the meter pays it)
            draw_stack(host, surface, chips, amount, x, y + 4, tag=False)
            continue
        if blink_ante and spot == "ante" and amount == 0:
            surface.circle(theme.WIN, lay.pos(x, y), lay.px(r + 3), max(2, lay.px(4)))
        if seat is not None and show is not None:
            stake, won = show.on_spot(spot, clock)
            draw_stack(host, surface, chips, stake, x + STAKE_OFFSET[0] * bool(won), y + STAKE_OFFSET[1])
            draw_stack(host, surface, chips, won, x + WIN_OFFSET[0], y + WIN_OFFSET[1], tag=False)
        elif amount > 0:
            draw_stack(host, surface, chips, amount, x, y + 6)
        if seat is not None:
            stake = getattr(seat, spot)
            back = getattr(seat, f"{spot}_return")
            if stake:
                if back > stake:
                    text, colour = net_text(back - stake, lambda c: fmt(host, c)), theme.WIN
                elif back == stake:
                    text, colour = _("PUSH"), theme.PUSH
                else:
                    text, colour = _("LOSE"), theme.LOSE
                anchor, tx, ty = TAG_AT[spot]
                size = host.text.size(text, lay.px(17), bold=True)
                box = pygame.Rect((0, 0), size).inflate(lay.px(14), lay.px(4))
                setattr(box, anchor, lay.pos(tx, ty))
                ui.box(surface, box, (0, 0, 0), 200, radius=10)
                ui.label(surface, text, 17, colour, bold=True, center=lay.to_design(box.center))


def progressive_words(host: SceneHost, meter: int | None) -> str:
    """The progressive meter as shown: the amount, "—" while a linked meter is not known."""
    return "—" if meter is None else fmt(host, meter)


def draw_progressive_meter(host: SceneHost, surface: DamageSurface, meter: int | None,
                           growing: bool = False) -> None:
    """The progressive meter's amount on its plaque (cents; None: not known yet),
    brighter while it counts up (``growing``)."""
    x, y, w, h = METER_PLAQUE
    colour = theme.WIN if growing else theme.METER_TEXT
    host.painter.fitted(surface, progressive_words(host, meter), 30, colour, w - 24, bold=True,
                        max_lines=1, midright=(x + w - 12, y + h - 19))


def _tag(host: SceneHost, surface: DamageSurface, spot: str, text: str, colour: Colour) -> None:
    """A spot's result tag (+$5.00, PUSH, LOSE) where :data:`TAG_AT` puts it."""
    ui, lay = host.painter, host.layout
    anchor, tx, ty = TAG_AT[spot]
    size = host.text.size(text, lay.px(17), bold=True)
    box = pygame.Rect((0, 0), size).inflate(lay.px(14), lay.px(4))
    setattr(box, anchor, lay.pos(tx, ty))
    ui.box(surface, box, (0, 0, 0), 200, radius=10)
    ui.label(surface, text, 17, colour, bold=True, center=lay.to_design(box.center))


def draw_progressive_result(host: SceneHost, surface: DamageSurface, snap: MachineSnapshot) -> None:
    """The progressive's result on its spot once the round's result shows: what it won
    (hand-paid: JACKPOT), else LOSE."""
    award = snap.progressive_award
    if not snap.progressive:
        return
    if award is None:
        _tag(host, surface, "progressive", _("LOSE"), theme.LOSE)
    elif award.hand_paid:
        _tag(host, surface, "progressive", _("JACKPOT"), theme.WIN)
    else:
        _tag(host, surface, "progressive", net_text(award.cents, lambda c: fmt(host, c)), theme.WIN)


def hit_words(host: SceneHost, hit: ProgressiveHit, here: bool) -> tuple[str, str]:
    """The hit banner's two lines: the headline, and each win (hand and amount)."""
    wins = " · ".join(
        f"{category_name(w.hand)} {fmt(host, w.cents)}" if here
        else _("Seat {n}: {hand} {amount}").format(n=w.seat, hand=category_name(w.hand),
                                                  amount=fmt(host, w.cents))
        for w in hit.wins
    )
    head = _("YOU HIT THE PROGRESSIVE!") if here else _("PROGRESSIVE HIT AT THE TABLE!")
    return head, wins


def draw_hit_banner(host: SceneHost, surface: DamageSurface, hit: ProgressiveHit, here: bool,
                    lit: bool) -> None:
    """The banner celebrating a hit of the progressive meter: louder (gold, blinking
    with ``lit``) at the station that won it."""
    ui, lay = host.painter, host.layout
    x, y, w, h = HIT_BANNER
    gold = here and lit
    ui.box(surface, lay.rect(*HIT_BANNER), theme.GOLD if gold else (0, 0, 0), 235, radius=14,
           border=theme.WIN if here else theme.GOLD, border_w=4 if here else 2)
    head, wins = hit_words(host, hit, here)
    ink = (20, 20, 20) if gold else theme.WIN
    ui.fitted(surface, head, 30 if here else 24, ink, w - 24, bold=True, max_lines=1, center=(x + w / 2, y + 26))
    ui.fitted(surface, wins, 22, (20, 20, 20) if gold else theme.CREAM, w - 24, bold=True, max_lines=1,
              center=(x + w / 2, y + h - 22))


def draw_pay_lines(host: SceneHost, surface: DamageSurface, snap: MachineSnapshot, seat: SeatResult) -> None:
    """Ring the printed Blind and Trips pay lines that paid ``seat``."""
    lay = host.layout
    hits = []
    if seat.blind_return > seat.blind:
        hits.append(("blind", seat.category))
    if seat.trips and seat.trips_return > 0:
        hits.append(("trips", seat.category))
    for table, category in hits:
        band = pay_line_band(host, snap, table, category)
        if band is not None:
            host.painter.box(surface, band, theme.WIN, 70, radius=6)
            bar = pygame.Rect(band.left, band.top, max(2, lay.px(4)), band.height)
            surface.rect(theme.WIN, bar, border_radius=max(1, lay.px(2)))


def draw_show(host: SceneHost, surface: DamageSurface, show: SettlementShow, chips: Sequence[int],
              clock: float, readings: tuple[int, int, int]) -> None:
    """What the settlement show moves this frame: stacks in flight, celebration coins
    and the hand's banner, and the credit and win meters while the win counts up."""
    for amount, (x, y) in show.moving(clock):
        draw_stack(host, surface, chips, amount, x, y, tag=False)
    if show.celebrating(clock) and show.seat is not None:
        ui, lay = host.painter, host.layout
        for size, (x, y) in show.coins(clock):
            d = lay.px(size)
            surface.blit(ui.chip_face((d, d), theme.GOLD, ""), lay.pos(x - size / 2, y - size / 2))
        flash = int(clock * 4) % 2 == 0
        box = lay.rect(400, 292, 520, 96)
        ui.box(surface, box, (0, 0, 0), 200, radius=18, border=theme.WIN if flash else theme.GOLD, border_w=4)
        size = (40, 52, 62)[show.level - 1]
        ui.fitted(surface, category_name(show.seat.category).upper(), size, theme.WIN, 490, bold=True,
                  center=(660, 340))
    if show.counting(clock):
        draw_meters(host, surface, readings, which=(0, 2))


def draw_cards(host: SceneHost, surface: DamageSurface, anim: DealAnimation, result: RoundSettled | None,
               moving: bool) -> None:
    """The cards settled in place (``moving=False``) or those in flight or turning;
    ``result`` (once shown) lifts and rings the player's best five, marks the dealer's
    and dims the rest."""
    lay = host.layout
    w = lay.px(CARD_W)
    cards = host.cards
    four = host.prefs.four_colour
    seat = result.seat(1) if result is not None and result.seats else None
    mine = set(seat.best_five) if seat is not None and seat.outcome != Outcome.FOLD else set()
    dealers = set(result.dealer_best_five) if result is not None else set()
    clock = anim.clock
    for sp in sorted(anim.sprites.values(), key=lambda s: s.t_deal):
        if clock < sp.t_deal or anim.settled(sp) == moving:
            continue
        tx, ty = slot_pos(sp.slot)
        if clock < sp.t_land:
            k = ease((clock - sp.t_deal) / max(1e-6, sp.t_land - sp.t_deal))
            x, y = SHOE[0] + (tx - SHOE[0]) * k, SHOE[1] + (ty - SHOE[1]) * k
        else:
            x, y = tx, ty
        if sp.t_flip is not None and sp.card is not None and clock >= sp.t_flip:
            t = (clock - sp.t_flip) / (FLIP * anim.scale())
            img = cards.face(sp.card, w, four) if t >= 1 else cards.flipping(sp.card, w, four, t)
        else:
            img = cards.back(w)
        pos = lay.pos(x, y)
        lift = lay.px(8) if result is not None and sp.card is not None and sp.card in mine else 0
        rect = img.get_rect(midtop=(pos[0] + w // 2, pos[1] - lift))
        surface.blit(cards.shadow(w), (rect.x + lay.px(2), rect.y + lay.px(4)))
        surface.blit(img, rect)
        if not moving:
            host.painter.mark(surface, rect, "card")
        if result is not None and sp.card is not None:
            full = pygame.Rect(pos[0], pos[1] - lift, w, lay.px(CARD_H))
            if sp.card in mine:
                surface.rect(theme.WIN, full.inflate(lay.px(6), lay.px(6)), max(2, lay.px(4)),
                             border_radius=lay.px(10))
            if sp.card in dealers and sp.slot[0] in "db":
                mark = full.inflate(-lay.px(24), 0)
                mark.height = max(2, lay.px(6))
                mark.y = full.bottom + lay.px(4)
                surface.rect(theme.PUSH, mark, border_radius=lay.px(3))
            if sp.card not in mine and sp.card not in dealers:
                dim = host.painter.panel(full.size, (0, 0, 0), 110, radius=8)
                surface.blit(dim, full)


def draw_names(host: SceneHost, surface: DamageSurface, anim: DealAnimation, snap: MachineSnapshot,
               result: RoundSettled | None) -> None:
    """The player's hand so far (five or more cards face up), and with the result the
    dealer's hand, whether the dealer qualifies, and the player's outcome."""
    ui = host.painter
    seat = result.seat(1) if result is not None and result.seats else None
    landed = [sp.card for sp in anim.sprites.values()
              if sp.card is not None and sp.slot[0] in "pb" and anim.face_up(sp)]
    name = ""
    if seat is not None:
        name = hand_name(seat.strength)
    elif len(landed) >= 5 and snap.hole:
        name = hand_name(evaluate(landed))
    if name:
        ui.fitted(surface, name, 26, theme.WHITE, NAME_W, bold=True, topleft=(NAME_X, PLAYER_Y + 34))
    if result is not None:
        ui.fitted(surface, hand_name(result.dealer_strength), 26, theme.WHITE, NAME_W, bold=True,
                  topleft=(NAME_X, DEALER_Y + 34))
        q = _("Dealer qualifies") if result.dealer_qualifies else _("Dealer does not qualify")
        reason = explain(result, seat) if seat is not None else ""
        if reason and not result.dealer_qualifies:
            q, reason = reason, ""  # the reason names the dealer not qualifying
        ui.fitted(surface, q, 19, theme.PUSH if result.dealer_qualifies else theme.WIN, NAME_W, max_h=64,
                  max_lines=3, topleft=(NAME_X, DEALER_Y + 72))
        if reason:
            ui.fitted(surface, reason, 17, theme.CREAM, NAME_W, max_h=44, topleft=(NAME_X, DEALER_Y + 100))
        if seat is not None:
            text, colour = outcome_text(host, seat)
            ui.fitted(surface, text, 30, colour, NAME_W, bold=True, topleft=(NAME_X, PLAYER_Y + 74))


def outcome_text(host: SceneHost, seat: SeatResult) -> tuple[str, Colour]:
    """The player's result in one line, and its colour: what the round paid back (the
    WIN meter's amount, cents) and the round's net ("+$525.00", "−$55.00", "Push"),
    in the words of :mod:`kiosk.ui.round_words`."""
    net, paid = seat.net, seat.returned

    def money(cents: int) -> str:
        return fmt(host, cents)

    signed = net_text(net, money)
    if seat.outcome == Outcome.FOLD:
        if paid > 0:
            return _("Folded · Trips pays {amount} · {net}").format(amount=money(paid), net=signed), theme.WIN
        return _("You folded · {net}").format(net=signed), theme.LOSE
    if net > 0:
        return _("{paid} · {net}").format(paid=paid_text(paid, money), net=signed), theme.WIN
    if net == 0:
        return _("PUSH · {amount} returned").format(amount=money(paid)), theme.PUSH
    if paid > 0:
        return _("{paid} · {net}").format(paid=paid_text(paid, money), net=signed), theme.PUSH
    return _("Dealer wins · {net}").format(net=signed), theme.LOSE


def explain(result: RoundSettled, seat: SeatResult) -> str:
    """Why the main bets went as they did when the hand names do not say it (a kicker,
    a dealer who did not qualify); "" otherwise."""
    return why(seat.strength, result.dealer_strength, seat.best_five, result.dealer_best_five,
               result.dealer_qualifies, seat.outcome == Outcome.FOLD, seat.blind_return > seat.blind)


def draw_meters(host: SceneHost, surface: DamageSurface, readings: tuple[int, int, int],
                which: tuple[int, ...] = (0, 1, 2)) -> None:
    """The values of the credit, bet and win meters (cents); ``which`` of them."""
    colours = (theme.METER_TEXT, theme.METER_TEXT, theme.WIN if readings[2] else theme.METER_TEXT)
    for i, ((rect, title), value) in enumerate(zip(meters(), readings, strict=True)):
        if i in which:
            meter_value(host, surface, rect, title, fmt(host, value), colours[i])


#: The prompt's height, design units: from above the meters to the buttons (at 622).
MESSAGE_H = 60


def draw_message(host: SceneHost, surface: DamageSurface, text: str, colour: Colour) -> None:
    """The prompt line on the rail, between the meters and the buttons (wrapped onto up
    to three lines, and smaller, when it does not fit on one)."""
    if text:
        host.painter.fitted(surface, text, 21, colour, 396, bold=True, max_h=MESSAGE_H, max_lines=3,
                            midleft=(866, 588))


def draw_popup(host: SceneHost, surface: DamageSurface, popup: str, credits: int) -> None:
    """The language picker's or the cash-out confirmation's panel (buttons drawn after)."""
    ui, lay = host.painter, host.layout
    ui.shade(surface, 150)
    box = lay.rect(330, 140, 620, 460)
    ui.box(surface, box, theme.PANEL, 245, radius=20, border=theme.GOLD, border_w=3)
    if popup == "language":
        ui.fitted(surface, _("Language"), 34, theme.GOLD, 560, bold=True, center=(640, 186))
    else:
        ui.fitted(surface, _("Cash out"), 36, theme.GOLD, 560, bold=True, center=(640, 200))
        ui.fitted(surface, fmt(host, credits), 60, theme.WHITE, 560, bold=True, center=(640, 290))
        ui.paragraph(surface, _("Your credits will be paid out. Please wait for your ticket."), 22,
                     theme.CREAM, 370, 340, 540)
