"""Card faces as a player reads them: a court card's picture never covers its corner
index, and the 6 and the 9 are underlined so that a card turned round never reads as
the other."""

from __future__ import annotations

import pygame
import pytest

from engine.cards import parse_cards
from kiosk.ui.cards import CardRenderer, suit_colour
from kiosk.ui.text import TextCache

#: Card widths the screens use, pixels (the tournament's seats at 800x480 to the table
#: at 1920x1080).
WIDTHS = (26, 42, 58, 92, 138)


@pytest.fixture(scope="module")
def cards():
    pygame.font.init()
    return CardRenderer(TextCache())


def inked(surface: pygame.Surface, rect: pygame.Rect, colour) -> int:
    """How many pixels of ``rect`` are close to ``colour``."""
    n = 0
    for x in range(rect.left, rect.right):
        for y in range(rect.top, rect.bottom):
            c = surface.get_at((x, y))
            if c.a > 200 and sum(abs(a - b) for a, b in zip(c[:3], colour, strict=True)) < 90:
                n += 1
    return n


@pytest.mark.parametrize("width", WIDTHS)
def test_a_court_cards_picture_leaves_both_indices_clear(cards, width):
    for card in parse_cards("Jh Qd Kc Ks"):
        index = cards.index(card, width, (0, 0, 0))
        pad = max(2, width // 14)
        h = cards.height(width)
        top_left = pygame.Rect((pad, pad), index.get_size())
        bottom_right = pygame.Rect((width - pad - index.get_width(), h - pad - index.get_height()), index.get_size())
        panel = cards.court_panel(width, index.get_width())
        if width < 40:
            assert panel is None  # a tiny card shows its indices only
            continue
        assert panel is not None and panel.width >= width // 4
        assert not panel.colliderect(top_left) and not panel.colliderect(bottom_right), (card, width, panel)


@pytest.mark.parametrize("width", WIDTHS[1:])
def test_six_and_nine_are_underlined_and_eight_is_not(cards, width):
    for text, underlined in (("6s", True), ("9h", True), ("8c", False), ("Ts", False)):
        (card,) = parse_cards(text)
        colour = suit_colour(card % 4, False)
        index = cards.index(card, width, colour)
        letter = text[0] if text[0] != "T" else "10"
        px = max(8, round(width * (0.30 if letter != "10" else 0.27)))
        top = -px * 0.12
        baseline = top + cards.text.baseline(letter, px, True, "en")
        _up, down = cards.text.ink(letter, px, True, "en")
        band = pygame.Rect(0, round(baseline + down) + 1, index.get_width(), max(1, round(px / 12)) + 1)
        band = band.clip(index.get_rect())
        assert (inked(index, band, colour) >= band.width // 2) == underlined, (text, width)
