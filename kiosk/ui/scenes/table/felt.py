"""The table's unchanging layer: felt, spots, card outlines, printed pays, the rails.

Painted once per look (screen size, language, paytable, limits, the cabinet's name and
number) and kept; everything else is drawn over a copy of it.
"""

from __future__ import annotations

from typing import Any

import pygame

from engine.hands.categories import HandCategory
from engine.uth.paytable import Paytable
from kiosk.game.snapshot import MachineSnapshot
from kiosk.ui import i18n, theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, category_name, pgettext
from kiosk.ui.scenes.chrome import draw_top_background, meter_frame
from kiosk.ui.scenes.table.geometry import (
    BAR_Y,
    CARD_H,
    CARD_W,
    DEALER_Y,
    LABEL_AT,
    METER_PLAQUE,
    NAME_W,
    NAME_X,
    PAYS_TOP,
    PAYS_TOP_UNDER_METER,
    PAYS_W,
    PAYS_X,
    PLAYER_Y,
    SLOTS,
    SPOT_LABELS,
    SPOTS,
    slot_pos,
)
from kiosk.ui.scenes.table.meters import meters

#: The height of one printed pay line, design units (a little less under the
#: progressive meter's plaque).
PAY_ROW_H = 24
PAY_ROW_H_UNDER_METER = 22


def pay_rows(paytable: Paytable) -> dict[tuple[str, HandCategory | None], float]:
    """The design y (top) of each printed pays line: ``("blind" | "trips", category)``,
    and of each table's title (category ``None``), top to bottom; under the progressive
    meter's plaque when the paytable has a progressive."""
    out: dict[tuple[str, HandCategory | None], float] = {}
    meter = paytable.progressive is not None
    y = PAYS_TOP_UNDER_METER if meter else PAYS_TOP
    step = PAY_ROW_H_UNDER_METER if meter else PAY_ROW_H
    for table, lines in (("blind", paytable.blind.lines()), ("trips", paytable.trips.lines())):
        out[(table, None)] = y
        y += 30
        for cat in lines:
            out[(table, cat)] = y
            y += step
        y += 12
    return out


def pay_words(pay: Any) -> str:
    """A pay as printed: "500 to 1"."""
    return pgettext("pay", "{n} to {d}").format(n=pay.numerator, d=pay.denominator)


def pay_name_width(host: SceneHost, paytable: Paytable) -> float:
    """The design width a printed line's hand name may take: the column less its widest
    pay and a gap."""
    lay = host.layout
    pays = [*paytable.blind.lines().values(), *paytable.trips.lines().values()]
    widest = max((host.text.size(pay_words(p), lay.px(17), True)[0] for p in pays), default=0)
    return PAYS_W - 6 - widest / lay.scale - 10


def pay_line_band(host: SceneHost, snap: MachineSnapshot, table: str,
                  category: HandCategory) -> pygame.Rect | None:
    """The screen rectangle of one printed pay line's band: a row's height, centred on the
    glyphs of its hand and its pay as :class:`FeltLayer` prints them (so a highlight there
    holds that line whole and no part of its neighbours); None for a line not printed."""
    y = pay_rows(snap.paytable).get((table, category))
    if y is None:
        return None
    ui, lay = host.painter, host.layout
    name = ui.fit(category_name(category), 17, pay_name_width(host, snap.paytable), max_lines=1)
    top, bottom = [], []
    for line, px, bold in ((name.lines[0], name.px, False), ("1", lay.px(17), True)):
        rect = pygame.Rect(lay.pos(PAYS_X + 6, y), host.text.size(line, px, bold))
        _x, ink_y, _w, ink_h = ui.ink_rect(line, px, bold, rect)
        top.append(ink_y)
        bottom.append(ink_y + ink_h)
    step = lay.px(PAY_ROW_H)
    band = pygame.Rect(lay.pos(PAYS_X - 2, 0)[0], 0, lay.px(PAYS_W + 8), step - 1)
    band.centery = (min(top) + max(bottom)) // 2
    return band


def same_format(a: pygame.Surface, b: pygame.Surface) -> bool:
    """Whether ``a`` and ``b`` store their pixels alike (a blit between them converts nothing)."""
    return (a.get_bitsize(), a.get_masks(), a.get_flags() & pygame.SRCALPHA) == (
        b.get_bitsize(), b.get_masks(), b.get_flags() & pygame.SRCALPHA)


class FeltLayer:
    """The cached static layer for one host."""

    def __init__(self, host: SceneHost) -> None:
        self.host = host
        self._surface: pygame.Surface | None = None
        self._key: tuple[Any, ...] = ()

    def stale(self, snap: MachineSnapshot) -> bool:
        """Whether :meth:`surface` would paint the layer again for ``snap``."""
        return self._surface is None or self._look(snap) != self._key

    def _look(self, snap: MachineSnapshot) -> tuple[Any, ...]:
        host = self.host
        return (host.layout.size, i18n.generation(), snap.paytable.sha256, snap.limits, host.casino_name,
                host.machine_number, host.station, snap.progressive_wager > 0)

    def surface(self, snap: MachineSnapshot) -> pygame.Surface:
        """The layer for ``snap`` (repainted only when its look changed)."""
        key = self._look(snap)
        if self._surface is not None and key == self._key:
            return self._surface
        self._surface = None  # the old layer goes before the new one is painted
        surf = self._paint(snap)
        screen = pygame.display.get_surface()
        if screen is not None and not same_format(surf, screen):
            surf = surf.convert()  # a copy in the display's format (the felt's is already)
        self._surface = surf
        self._key = key
        return self._surface

    def _paint(self, snap: MachineSnapshot) -> pygame.Surface:
        host = self.host
        surf = theme.felt(host.layout.size)  # its own, painted on (the host's may be let go)
        ui, lay = host.painter, host.layout
        # betting spots
        for spot, (x, y, r) in SPOTS.items():
            if spot == "progressive" and not snap.progressive_wager:
                continue  # the table takes no progressive wager now
            c = lay.pos(x, y)
            pygame.draw.circle(surf, (8, 80, 44), c, lay.px(r))
            pygame.draw.circle(surf, theme.GOLD, c, lay.px(r), max(2, lay.px(4)))
            pygame.draw.circle(surf, theme.GOLD_DARK, c, lay.px(r - 9), max(1, lay.px(1.5)))
            anchor, lx, ly, lw = LABEL_AT[spot]
            fit = ui.fit(_(SPOT_LABELS[spot]), 19, lw, bold=True, max_lines=1)
            ui.draw_fit(surf, fit, theme.GOLD, bold=True, **{anchor: (lx, ly)})
        ui.label(surf, "=", 44, theme.GOLD, bold=True, center=(172, 330))
        # card outlines
        for slot in SLOTS:
            x, y = slot_pos(slot)
            rect = lay.rect(x, y, CARD_W, CARD_H)
            pygame.draw.rect(surf, (30, 120, 72), rect, max(1, lay.px(2)), border_radius=lay.px(8))
        ui.fitted(surf, _("DEALER"), 20, theme.GOLD, NAME_W, bold=True, topleft=(NAME_X, DEALER_Y + 4))
        ui.fitted(surf, _("YOUR HAND"), 20, theme.GOLD, NAME_W, bold=True, topleft=(NAME_X, PLAYER_Y + 4))
        # printed pays
        pt = snap.paytable
        titles = {"blind": _("BLIND PAYS"), "trips": _("TRIPS PAYS")}
        rows = pay_rows(snap.paytable)
        name_w = pay_name_width(host, pt)
        for (table, cat), y in rows.items():
            if cat is None:
                ui.fitted(surf, titles[table], 21, theme.GOLD, PAYS_W, bold=True, topleft=(PAYS_X, y))
                continue
            pay = (pt.blind if table == "blind" else pt.trips).lines()[cat]
            ui.fitted(surf, category_name(cat), 17, theme.CREAM, name_w, max_lines=1, topleft=(PAYS_X + 6, y))
            ui.label(surf, pay_words(pay), 17, theme.CREAM, bold=True, topright=(PAYS_X + PAYS_W, y))
        if pt.progressive is None:
            y = max(rows.values()) + 24 + 12
            ui.paragraph(surf, _("Dealer needs a pair or better to qualify. Ante and Play pay 1 to 1."), 16,
                         theme.MUTED, PAYS_X, y, PAYS_W)
        else:  # the progressive meter's plaque (its amount is drawn live over it)
            x, y, w, h = METER_PLAQUE
            ui.box(surf, lay.rect(*METER_PLAQUE), theme.METER_BG, 235, radius=10, border=theme.GOLD,
                   border_w=2)
            ui.fitted(surf, _("PROGRESSIVE"), 16, theme.GOLD, w - 24, bold=True, max_lines=1,
                      topleft=(x + 12, y + 4))
        # bottom rail
        bar = lay.rect(0, BAR_Y, 1280, 720 - BAR_Y)
        bar.x, bar.width = 0, lay.size[0]
        bar.height = lay.size[1] - bar.y
        ui.box(surf, bar, theme.RAIL, 240, radius=0)
        pygame.draw.line(surf, theme.GOLD_DARK, (0, bar.y), (lay.size[0], bar.y), max(1, lay.px(2)))
        draw_top_background(host, surf)
        for box, title in meters():
            meter_frame(host, surf, box, title)
        return surf
