"""Pictures drawn from shapes: the players' icons and the speaker of the sound button.

An icon is a disc of one colour with a suit on it; the local player chooses one of
:data:`kiosk.tournament.settings.ICON_COUNT` on the setup screen.  Surfaces are cached
per size in pixels.
"""

from __future__ import annotations

import pygame

from kiosk.tournament.settings import ICON_COUNT
from kiosk.ui import theme
from kiosk.ui.cards import draw_suit

#: (disc colour, suit, suit colour) of each icon; suits 0 clubs, 1 diamonds, 2 hearts, 3 spades.
ICONS: tuple[tuple[tuple[int, int, int], int, tuple[int, int, int]], ...] = (
    (theme.GOLD, 3, theme.INK),
    (theme.CREAM, 2, theme.RED),
    (theme.BLUE, 1, theme.WHITE),
    ((30, 140, 60), 0, theme.WHITE),
    (theme.RED_DARK, 3, theme.GOLD),
    ((120, 50, 160), 2, theme.WHITE),
    ((230, 170, 40), 1, theme.RED_DARK),
    ((40, 48, 56), 0, theme.CREAM),
)
assert len(ICONS) == ICON_COUNT

_icons: dict[tuple[int, int], pygame.Surface] = {}
_speakers: dict[tuple[int, bool], pygame.Surface] = {}


def icon_surface(index: int, size: int) -> pygame.Surface:
    """Icon ``index`` as a disc ``size`` pixels across (transparent corners)."""
    key = (index % ICON_COUNT, max(8, size))
    got = _icons.get(key)
    if got is None:
        disc, suit, ink = ICONS[key[0]]
        n = key[1]
        ss = 3
        big = pygame.Surface((n * ss, n * ss), pygame.SRCALPHA)
        c = n * ss / 2
        pygame.draw.circle(big, disc, (c, c), c - ss)
        pygame.draw.circle(big, theme.GOLD_DARK, (c, c), c - ss, 2 * ss)
        got = pygame.transform.smoothscale(big, (n, n))
        sym = draw_suit(suit, round(n * 0.52), ink)
        got.blit(sym, sym.get_rect(center=(n / 2, n / 2)))
        _icons[key] = got
    return got


def speaker_surface(size: int, on: bool) -> pygame.Surface:
    """A speaker ``size`` pixels square: with sound waves when ``on``, crossed out when off."""
    key = (max(8, size), on)
    got = _speakers.get(key)
    if got is None:
        n = key[0]
        ss = 3
        m = n * ss
        big = pygame.Surface((m, m), pygame.SRCALPHA)
        ink = (*theme.CREAM, 255)
        body = [(m * 0.12, m * 0.38), (m * 0.3, m * 0.38), (m * 0.52, m * 0.18), (m * 0.52, m * 0.82),
                (m * 0.3, m * 0.62), (m * 0.12, m * 0.62)]
        pygame.draw.polygon(big, ink, body)
        w = max(2, round(m * 0.06))
        if on:
            for r in (0.16, 0.3):
                rect = pygame.Rect(0, 0, m * r * 2, m * r * 2)
                rect.center = (round(m * 0.52), round(m * 0.5))
                pygame.draw.arc(big, ink, rect, -0.9, 0.9, w)
        else:
            pygame.draw.line(big, (*theme.LOSE, 255), (m * 0.62, m * 0.34), (m * 0.9, m * 0.66), w)
            pygame.draw.line(big, (*theme.LOSE, 255), (m * 0.62, m * 0.66), (m * 0.9, m * 0.34), w)
        got = pygame.transform.smoothscale(big, (n, n))
        _speakers[key] = got
    return got
