"""Chip stacks: an amount (cents) made of the table's chip denominations, drawn as a
stack with its total on a tag.  Used for the bets on the spots and the chips swept to
and from them at settlement."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.scenes.chrome import fmt
from kiosk.ui.widgets import Canvas

#: The most chips drawn in one stack (larger amounts show their largest chips).
MAX_CHIPS = 10
#: Chip diameter and the rise of each chip in a stack, design units.
CHIP_D = 62
CHIP_RISE = 5


def stack_of(amount: int, chips: Sequence[int]) -> list[int]:
    """The chips (cents each, bottom first: largest) that make ``amount``, greedily
    from the largest denomination; a remainder no chip makes is left out; at most
    :data:`MAX_CHIPS` chips."""
    out: list[int] = []
    rest = amount
    for c in sorted((c for c in chips if c > 0), reverse=True):
        n, rest = divmod(rest, c)
        out.extend([c] * n)
    if not out and amount > 0 and chips:
        out = [min(chips)]  # an amount below every chip still shows one chip
    return out[:MAX_CHIPS]


def draw_stack(host: SceneHost, surface: Canvas, chips: Sequence[int], amount: int, x: float, y: float,
               *, tag: bool = True) -> None:
    """The stack for ``amount`` cents centred on design ``(x, y)`` (its bottom chip),
    with the total on a tag under it when ``tag``."""
    if amount <= 0:
        return
    lay, ui = host.layout, host.painter
    order = list(chips)
    size = lay.px(CHIP_D)
    stack = stack_of(amount, order)
    for k, c in enumerate(stack):
        i = order.index(c) if c in order else 0
        face = ui.chip_face((size, size), theme.chip_colour(c, i), fmt(host, c, compact=True)
                            if k == len(stack) - 1 else "")
        surface.blit(face, face.get_rect(center=lay.pos(x, y - k * CHIP_RISE)))
    if tag:
        words = fmt(host, amount, compact=True)
        box = pygame.Rect((0, 0), host.text.size(words, lay.px(16), True)).inflate(lay.px(12), lay.px(2))
        box.center = lay.pos(x, y + CHIP_D * 0.5 + 4)
        ui.box(surface, box, (0, 0, 0), 190, radius=8)
        ui.label(surface, words, 16, theme.CREAM, bold=True, center=(x, y + CHIP_D * 0.5 + 4))
