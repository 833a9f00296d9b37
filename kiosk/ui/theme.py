"""Colours and the felt.  A casino table: green felt, gold print, dark rails."""

from __future__ import annotations

import numpy as np
import pygame

FELT_CENTRE = (18, 122, 70)
FELT_EDGE = (5, 58, 33)
GOLD = (228, 190, 96)
GOLD_DARK = (150, 115, 40)
CREAM = (250, 244, 226)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
INK = (20, 24, 28)
RAIL = (22, 26, 30)
RAIL_EDGE = (70, 60, 40)
PANEL = (12, 40, 26)
METER_BG = (8, 14, 12)
METER_TEXT = (255, 214, 92)
MUTED = (170, 190, 178)
RED = (200, 40, 40)
RED_DARK = (120, 16, 20)
BLUE = (40, 96, 190)
WIN = (255, 220, 80)
LOSE = (230, 120, 110)
PUSH = (190, 210, 230)

BUTTON_STYLES: dict[str, tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]] = {
    # name: (top colour, bottom colour, text colour)
    "primary": ((255, 208, 90), (214, 150, 30), INK),
    "play": ((72, 186, 96), (22, 120, 52), WHITE),
    "check": ((70, 130, 220), (30, 76, 160), WHITE),
    "fold": ((214, 70, 64), (140, 28, 28), WHITE),
    "plain": ((70, 78, 86), (36, 42, 48), WHITE),
    "dark": ((44, 52, 58), (22, 26, 30), CREAM),
    "selected": ((255, 236, 170), (230, 190, 90), INK),
    # not lit: it cannot act now, and a touch tells why (DEAL with a bet it cannot deal)
    "unlit": ((78, 74, 62), (52, 50, 44), (196, 188, 160)),
}
DISABLED = ((58, 62, 64), (40, 44, 46), (120, 124, 126))

#: Chip colours by denomination in cents (casino convention), else by position.
CHIP_COLOURS: dict[int, tuple[int, int, int]] = {
    100: (236, 236, 236),
    500: (200, 36, 36),
    1000: (40, 90, 200),
    2500: (30, 140, 60),
    10000: (30, 30, 30),
    50000: (120, 50, 160),
    100000: (230, 170, 40),
}
CHIP_FALLBACK = [(236, 236, 236), (200, 36, 36), (30, 140, 60), (30, 30, 30), (120, 50, 160), (230, 170, 40)]


def chip_colour(cents: int, index: int) -> tuple[int, int, int]:
    return CHIP_COLOURS.get(cents, CHIP_FALLBACK[index % len(CHIP_FALLBACK)])


def felt(size: tuple[int, int]) -> pygame.Surface:
    """The felt background: a radial gradient with a faint weave (the same pixels each time).

    The gradient is computed at a quarter of the size and smoothed up (cheap at 1920x1080),
    then a small tile of noise is added for the cloth's texture."""
    w, h = size
    sw, sh = max(8, w // 4), max(8, h // 4)
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    cx, cy = sw / 2, sh * 0.42
    d = np.sqrt(((xs - cx) / (sw * 0.62)) ** 2 + ((ys - cy) / (sh * 0.75)) ** 2)
    t = np.clip(d, 0, 1) ** 1.6
    small = np.empty((sw, sh, 3), np.uint8)
    for i in range(3):
        small[:, :, i] = np.clip(FELT_CENTRE[i] * (1 - t) + FELT_EDGE[i] * t, 0, 255).T.astype(np.uint8)
    source = pygame.surfarray.make_surface(small)
    if pygame.display.get_surface() is not None:
        source = source.convert()  # scaled up in the display's format: no whole-screen copy
    out = pygame.transform.smoothscale(source, (w, h))
    rng = np.random.default_rng(7)
    tile = rng.integers(0, 5, (128, 128, 3), dtype=np.uint8)
    tile[:, :, 1:] = tile[:, :, :1]  # grey noise
    noise = pygame.surfarray.make_surface(tile)
    for y in range(0, h, 128):
        for x in range(0, w, 128):
            out.blit(noise, (x, y), special_flags=pygame.BLEND_RGB_ADD)
    return out


def vertical_gradient(size: tuple[int, int], top: tuple[int, int, int], bottom: tuple[int, int, int]) -> pygame.Surface:
    w, h = size
    surf = pygame.Surface((1, max(1, h)))
    for y in range(max(1, h)):
        t = y / max(1, h - 1)
        surf.set_at((0, y), [round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True)])
    return pygame.transform.scale(surf, (max(1, w), max(1, h)))
