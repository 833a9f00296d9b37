"""The pays: Ante and Play, the Blind and Trips tables, the dealer's qualifying hand, the
limits, and the theoretical return of the paytable's proven record; with a progressive,
a second page of its lines (a share of the meter or a fixed amount), the meter now and
what each meter line would pay now."""

from __future__ import annotations

import time
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import pygame

from engine.maths.progressive import ProgressiveFigures
from engine.uth.paytable import Paytable
from engine.uth.progressive import WHOLE_BP, Award, Progressive
from kiosk.game.paytables.rtp_record import cabinet_key, known_rtp
from kiosk.ui import theme
from kiosk.ui.i18n import _, category_name, pgettext
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import draw_top_bar, fmt, top_buttons, top_intent
from kiosk.ui.scenes.intents import TOP_COMMANDS, Nav, TopBar
from kiosk.ui.widgets import Button

#: Figures known by paytable SHA-256 and key file; a table not known is asked again
#: after :data:`RECHECK_S` seconds (its record may be computing at power-up).
_known: dict[tuple[str, str], tuple[float, dict[str, float]]] = {}
RECHECK_S = 1.0


def rtp_figures(paytable: Paytable, key_path: Path | None = None) -> dict[str, float]:
    """The RTP percentages of ``paytable``'s proven record
    (:func:`kiosk.game.paytables.rtp_record.known_rtp`, checked with the cabinet key at
    ``key_path`` when given), keyed as :data:`kiosk.game.paytables.rtp_record.FIGURES`; {} when
    it has none."""
    memo = (paytable.sha256, str(key_path))
    now = time.monotonic()
    seen = _known.get(memo)
    if seen is not None and (seen[1] or now - seen[0] < RECHECK_S):
        return seen[1]
    key = cabinet_key(key_path) if key_path is not None else None
    record = known_rtp(paytable, key)
    figures = record.percent() if record is not None else {}
    _known[memo] = (now, figures)
    return figures


def pay_text(pay: Any) -> str:
    return pgettext("pay", "{n} to {d}").format(n=pay.numerator, d=pay.denominator)


def award_text(award: Award, money: Any) -> str:
    """A progressive line's award in words: "100% of the meter", or its fixed amount."""
    if award.meter_bp is not None:
        return _("{pct} of the meter").format(pct=f"{award.meter_bp / 100:g}%")
    return str(money(award.cents or 0))


def award_now(award: Award, meter: int | None) -> int | None:
    """What a meter line would pay now (cents, rounded down as the service pays it), None
    for a fixed line or a meter not known."""
    if award.meter_bp is None or meter is None:
        return None
    return meter * award.meter_bp // WHOLE_BP


def return_words(table: Progressive, meter: int | None, money: Any) -> str:
    """The bet's theoretical return at the meter now (the engine's exact figures), and
    the meter from which it returns more than the wager when the ceiling allows it; ""
    while the meter is not known."""
    if meter is None:
        return ""
    figures = ProgressiveFigures.of(table)
    pct = f"{float(figures.return_at(meter)) * 100:.2f}%"
    even = figures.break_even
    if even <= table.ceiling:
        return _("Theoretical return at this meter: {pct}; more than the wager back from a meter of {amount}.").format(
            pct=pct, amount=money(int(even) + 1))
    return _("Theoretical return at this meter: {pct}.").format(pct=pct)


#: Shortcut command name -> request: Esc and Y go back; the arrows turn the page.
COMMANDS: dict[str, Nav | TopBar] = {
    **TOP_COMMANDS, "back": Nav.BACK, "paytable": Nav.BACK, "chip_next": Nav.NEXT, "chip_prev": Nav.PREV,
}

#: A pay line's height, and the room kept between a hand's name and its pay, design units.
ROW_H, ROW_GAP = 40, 14


class PaytableScene(Scene):
    name = "paytable"
    #: The page shown: 0 the main game, 1 the progressive (when the paytable has one).
    page = 0

    def enter(self, **kwargs: Any) -> None:
        self.page = 0

    def _pay_rows(self, surface: pygame.Surface, lines: dict[Any, Any], x: float, y: float, w: float) -> None:
        """A table's lines, the hand's name left and its pay right, in ``w`` design units:
        the pay keeps its width, the name takes the rest (shrunk, or on two lines)."""
        ui, lay = self.ui, self.layout
        pays = {cat: pay_text(pay) for cat, pay in lines.items()}
        pay_fits = {cat: ui.fit(text, 25, w * 0.45, bold=True, max_lines=1) for cat, text in pays.items()}
        pay_w = max((f.width for f in pay_fits.values()), default=0) / lay.scale
        for cat, fit in pay_fits.items():
            name_w = w - pay_w - ROW_GAP
            ui.fitted(surface, category_name(cat), 25, theme.CREAM, name_w, max_h=ROW_H - 2,
                      midleft=(x, y + ROW_H / 2 - 4))
            ui.draw_fit(surface, fit, theme.WHITE, bold=True, midright=(x + w, y + ROW_H / 2 - 4))
            y += ROW_H

    def buttons(self) -> list[Button]:
        out = top_buttons("paytable") + [
            Button("back", (490, 622, 300, 90), _("BACK TO TABLE"), Nav.BACK, style="primary", hint="Esc")]
        if self.snap.paytable.progressive is not None:
            label, turn = (_("MAIN PAYS"), Nav.PREV) if self.page else (_("PROGRESSIVE"), Nav.NEXT)
            out.append(Button("page", (40, 622, 300, 90), label, turn, style="plain", size=28))
        return out

    def on_command(self, name: str, arg: object = None) -> bool:
        intent = COMMANDS.get(name)
        return intent is not None and self.on_intent(intent)

    def on_intent(self, intent: object) -> bool:
        match intent:
            case Nav.BACK | TopBar.PAYTABLE:
                self.app.go("table")
            case Nav.NEXT | Nav.PREV:
                shown = self.snap.paytable.progressive is not None
                self.page = int(shown and intent is Nav.NEXT)
            case TopBar():
                return top_intent(self.app, intent)
            case _:
                return False
        return True

    def look(self) -> Hashable:
        rtp = rtp_figures(self.snap.paytable, self.app.model.controller.config.key_path)
        return (tuple(sorted(rtp.items())), self.page)  # the return, once proven; the page

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(self.app.felt, (0, 0))
        draw_top_bar(self.app, surface, "paytable")
        pt = self.snap.paytable
        if self.page and pt.progressive is not None:
            self._progressive(surface, pt.progressive, self.snap.progressive_meter)
            self.draw_buttons(surface)
            return
        for title, lines, x in ((_("BLIND PAYS"), pt.blind.lines(), 40), (_("TRIPS PAYS"), pt.trips.lines(), 452)):
            box = lay.rect(x, 112, 388, 380)
            ui.box(surface, box, (0, 0, 0), 120, radius=16, border=theme.GOLD_DARK)
            ui.fitted(surface, title, 30, theme.GOLD, 360, bold=True, center=(x + 194, 142))
            self._pay_rows(surface, lines, x + 20, 178, 348)
        x = 864
        box = lay.rect(x, 112, 376, 380)
        ui.box(surface, box, (0, 0, 0), 120, radius=16, border=theme.GOLD_DARK)
        ui.fitted(surface, _("ANTE AND PLAY"), 30, theme.GOLD, 350, bold=True, center=(x + 188, 142))
        ui.column(surface, [
            _("Ante and Play pay 1 to 1 when you beat the dealer."),
            _("If the dealer does not qualify (less than a pair), the Ante is returned, win or lose (unless you fold)."),
            _("The Blind pays only on a straight or better; it pushes on a smaller winning hand."),
            _("Ties push every main bet."),
        ], 22, theme.CREAM, x + 20, 172, 340, 308, gap=6)
        # limits and return
        lim = self.snap.limits
        cur = pt.currency
        del cur
        limits = _("Ante {ante_min} to {ante_max}; Trips {trips_min} to {trips_max}.").format(
            ante_min=fmt(self.app, lim.ante_min, True), ante_max=fmt(self.app, lim.ante_max, True),
            trips_min=fmt(self.app, lim.trips_min, True), trips_max=fmt(self.app, lim.trips_max, True))
        ui.fitted(surface, _("Table limits") + ": " + limits, 24, theme.CREAM, 1200, center=(640, 520))
        rtp = rtp_figures(pt, self.app.model.controller.config.key_path)
        if rtp:
            parts = [_("Main bets {pct}").format(pct=f"{rtp['main_total']:.2f}%"),
                     _("Trips {pct}").format(pct=f"{rtp['trips']:.2f}%")]
            ui.fitted(surface, _("Theoretical return with perfect play") + ": " + ", ".join(parts), 22,
                      theme.MUTED, 1200, center=(640, 560))
        ui.fitted(surface, _("Malfunction voids all pays and play."), 20, theme.MUTED, 1200, center=(640, 596))
        self.draw_buttons(surface)

    def _progressive(self, surface: pygame.Surface, table: Progressive, meter: int | None) -> None:
        """The progressive's page: its wager, the meter now, and each line's award with
        what a meter line would pay now."""
        ui, lay = self.ui, self.layout

        def money(cents: int) -> str:
            return fmt(self.app, cents)

        ui.box(surface, lay.rect(40, 112, 1200, 424), (0, 0, 0), 120, radius=16, border=theme.GOLD_DARK)
        ui.fitted(surface, _("PROGRESSIVE"), 30, theme.GOLD, 560, bold=True, max_lines=1, midleft=(70, 146))
        now = "—" if meter is None else money(meter)
        ui.fitted(surface, _("Meter now: {amount}").format(amount=now), 30, theme.WIN, 560, bold=True,
                  max_lines=1, midright=(1210, 146))
        ui.fitted(surface, _("A {wager} bet placed with the Ante, paid on your two cards and the flop.").format(
            wager=money(table.wager)), 22, theme.CREAM, 1140, max_lines=1, midleft=(70, 186))
        y = 214.0
        ui.fitted(surface, _("PAYS"), 20, theme.MUTED, 360, bold=True, max_lines=1, midleft=(70, y + 12))
        ui.fitted(surface, _("PAYS NOW"), 20, theme.MUTED, 300, bold=True, max_lines=1, midright=(1210, y + 12))
        y += 28
        for cat, award in table.awards.lines().items():
            middle = y + ROW_H / 2 - 4
            ui.fitted(surface, category_name(cat), 25, theme.CREAM, 400, max_lines=1, midleft=(70, middle))
            ui.fitted(surface, award_text(award, money), 25, theme.WHITE, 420, bold=True, max_lines=1,
                      midleft=(490, middle))
            pays = award_now(award, meter)
            if pays is not None:
                ui.fitted(surface, money(pays), 25, theme.WIN, 300, bold=True, max_lines=1,
                          midright=(1210, middle))
            y += ROW_H
        split = (_("Seats with the same meter hand in one round share its award.") if table.split == "share"
                 else _("Seats with the same meter hand in one round are paid in seat order."))
        ui.fitted(surface, split, 22, theme.CREAM, 1200, max_lines=1, center=(640, 556))
        returned = return_words(table, meter, money)
        if returned:
            ui.fitted(surface, returned, 20, theme.MUTED, 1200, max_lines=1, center=(640, 590))
