"""The raise panel, shared by the host cabinet's table and the table of a game joined on
another cabinet: the presets (Min, ½ pot, ¾ pot, Pot, All in), − and +, Cancel, the
confirmation, and the slider with its knob (a press on it and a drag choose the amount).

Amounts are tournament chips (points), round totals ("raise *to*"), chosen through a
:class:`~kiosk.ui.raise_range.RaiseRange`.  Positions are design units
(:mod:`~kiosk.ui.scenes.tournament.table_layout`).
"""

from __future__ import annotations

import pygame

from kiosk.ui import theme
from kiosk.ui.i18n import _
from kiosk.ui.layout import Layout
from kiosk.ui.raise_range import PresetKey, RaiseRange
from kiosk.ui.scenes.tournament.common import chips
from kiosk.ui.scenes.tournament.table_intents import Move, Preset
from kiosk.ui.scenes.tournament.table_layout import RIGHT_X, ROW1, ROW2, ROW_H, SLIDER
from kiosk.ui.widgets import Button, Painter

#: Screen pixels (at design scale) at each end of the slider beyond its track.
SLIDER_END = 40


def raise_buttons(rr: RaiseRange, chosen: int) -> list[Button]:
    """The raise panel: presets, − and +, CANCEL, and the confirmation of ``chosen``."""
    out = []
    amount = rr.clamp(chosen)
    presets = [
        (PresetKey.MIN, _("MIN")),
        (PresetKey.HALF, _("½ POT")),
        (PresetKey.THREE_QUARTERS, _("¾ POT")),
        (PresetKey.POT, _("POT")),
        (PresetKey.ALL_IN, _("ALL IN")),
    ]
    x, w = RIGHT_X + 12, 128
    for key, label in presets:
        value = rr.preset(key)
        out.append(
            Button(
                f"preset_{key.value}",
                (x, ROW2, w, ROW_H),
                label,
                Preset(key),
                style="selected" if value == amount else "dark",
                size=22,
                sublabel=chips(value),
            )
        )
        x += w + 6
    out.append(
        Button(
            "cancel_raise",
            (x, ROW2, 1268 - x, ROW_H),
            _("CANCEL"),
            Move.CANCEL_RAISE,
            style="plain",
            hint="Esc",
            size=24,
        )
    )
    out.append(
        Button(
            "minus",
            (RIGHT_X + 12, ROW1, 86, ROW_H),
            "−",
            Move.LESS,
            style="dark",
            size=40,
            hint="↓",
            enabled=amount > rr.min_to,
        )
    )
    out.append(
        Button(
            "plus",
            (SLIDER[0] + SLIDER[2] + 8, ROW1, 86, ROW_H),
            "+",
            Move.MORE,
            style="dark",
            size=40,
            hint="↑",
            enabled=amount < rr.max_to,
        )
    )
    if amount >= rr.max_to:
        label, sub = _("ALL IN"), chips(amount)
    else:
        label = _("BET") if rr.legal.can_bet else _("RAISE TO")
        sub = chips(amount)
    cx = SLIDER[0] + SLIDER[2] + 8 + 86 + 8
    out.append(
        Button(
            "confirm_raise",
            (cx, ROW1, 1268 - cx, ROW_H),
            label,
            Move.CONFIRM_RAISE,
            style="primary",
            hint="Enter",
            size=28,
            sublabel=sub,
        )
    )
    return out


def on_slider(lay: Layout, pos: tuple[int, int]) -> bool:
    """Whether screen ``pos`` is on the slider."""
    return bool(lay.rect(*SLIDER).collidepoint(pos))


def slider_amount(lay: Layout, rr: RaiseRange, x: int) -> int:
    """The amount under screen ``x`` on the slider (its ends past either side)."""
    inner = lay.rect(*SLIDER).inflate(-lay.px(SLIDER_END), 0)
    return rr.at((x - inner.x) / max(1, inner.width))


def draw_slider(
    ui: Painter, lay: Layout, surface: pygame.Surface, rr: RaiseRange, amount: int
) -> None:
    """The slider's track, filled up to ``amount``, its knob and the two ends' amounts."""
    r = lay.rect(*SLIDER)
    ui.box(surface, r, theme.METER_BG, 230, radius=14, border=theme.GOLD_DARK)
    inner = r.inflate(-lay.px(SLIDER_END), 0)
    track = pygame.Rect(inner.x, r.centery - lay.px(5), inner.width, lay.px(10))
    pygame.draw.rect(surface, (70, 78, 86), track, border_radius=lay.px(5))
    f = rr.fraction(rr.clamp(amount))
    filled = track.copy()
    filled.width = max(1, round(track.width * f))
    pygame.draw.rect(surface, theme.GOLD, filled, border_radius=lay.px(5))
    knob = (track.x + round(track.width * f), r.centery)
    pygame.draw.circle(surface, theme.CREAM, knob, lay.px(20))
    pygame.draw.circle(surface, theme.GOLD_DARK, knob, lay.px(20), max(1, lay.px(3)))
    ui.fitted(
        surface, chips(rr.min_to), 16, theme.MUTED, 120, topleft=(SLIDER[0] + 20, SLIDER[1] + 4)
    )
    ui.fitted(
        surface,
        chips(rr.max_to),
        16,
        theme.MUTED,
        120,
        topright=(SLIDER[0] + SLIDER[2] - 20, SLIDER[1] + 4),
    )
