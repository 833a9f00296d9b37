"""Playing cards drawn once per (card, size, deck style) and then only blitted.

Suits are drawn as vector shapes (supersampled 4x, then smoothed once), so no font
needs suit symbols.  The 4-colour deck makes diamonds blue and clubs green.

Faces and the frames of a card turning over are kept in caches bounded by bytes
(:class:`kiosk.ui.surfcache.SurfaceCache`), sized to what screens show, not to a whole
deck: at 1920x1080 a round on the table shows about 1.1 MB of faces, the attract screen
1 MB, a recall page 0.6 MB, while the 52 faces of the table's size would take 5.5 MB.
The least recently drawn are made again when needed (about 3 ms a face).
"""

from __future__ import annotations

import math

import pygame

from engine.cards import rank_of, suit_of
from kiosk.ui.i18n import RANK_LETTERS
from kiosk.ui.surfcache import SurfaceCache
from kiosk.ui.text import TextCache

#: Card faces, backs and shadows kept, bytes of pixels (at 1920x1080, the faces of the
#: screen shown and of the one before it, several times over).
FACE_CACHE_BYTES = 3 * 1024 * 1024
#: Frames of cards turning over kept, bytes (the frames of the cards turning now).
FLIP_CACHE_BYTES = 1024 * 1024

RED = (206, 24, 36)
BLACK_INK = (22, 22, 26)
BLUE_INK = (22, 86, 200)
GREEN_INK = (18, 130, 50)
FACE = (252, 250, 244)
EDGE = (150, 150, 150)
BACK_A = (140, 18, 30)
BACK_B = (96, 8, 18)
BACK_LINE = (226, 186, 96)
CARD_RATIO = 1.4  # height / width
#: Ranks whose index is underlined: turned round, each would read as the other.
UNDERLINED = frozenset({"6", "9"})


def suit_colour(suit: int, four_colour: bool) -> tuple[int, int, int]:
    if four_colour:
        return (GREEN_INK, BLUE_INK, RED, BLACK_INK)[suit]
    return (BLACK_INK, RED, RED, BLACK_INK)[suit]


def _heart_points(
    cx: float, cy: float, size: float, flip: bool = False
) -> list[tuple[float, float]]:
    pts = []
    for i in range(64):
        t = 2 * math.pi * i / 64
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        y = -y if not flip else y
        pts.append((cx + x * size / 34, cy + (y + (2 if not flip else -2)) * size / 34))
    return pts


def draw_suit(suit: int, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
    """A suit symbol ``size`` pixels square, antialiased, on a transparent surface."""
    ss = 4
    n = max(4, size) * ss
    surf = pygame.Surface((n, n), pygame.SRCALPHA)
    c = (*colour, 255)
    cx, cy = n / 2, n / 2
    if suit == 2:  # hearts
        pygame.draw.polygon(surf, c, _heart_points(cx, cy, n * 0.98))
    elif suit == 1:  # diamonds
        w = n * 0.38
        pygame.draw.polygon(surf, c, [(cx, n * 0.02), (cx + w, cy), (cx, n * 0.98), (cx - w, cy)])
    elif suit == 3:  # spades
        pygame.draw.polygon(surf, c, _heart_points(cx, cy - n * 0.08, n * 0.86, flip=True))
        pygame.draw.polygon(
            surf, c, [(cx, cy + n * 0.05), (cx + n * 0.17, n * 0.98), (cx - n * 0.17, n * 0.98)]
        )
    else:  # clubs
        r = n * 0.205
        pygame.draw.circle(surf, c, (cx, n * 0.27), r)
        pygame.draw.circle(surf, c, (cx - n * 0.23, n * 0.56), r)
        pygame.draw.circle(surf, c, (cx + n * 0.23, n * 0.56), r)
        pygame.draw.circle(surf, c, (cx, n * 0.5), r * 0.6)
        pygame.draw.polygon(
            surf, c, [(cx, cy), (cx + n * 0.16, n * 0.98), (cx - n * 0.16, n * 0.98)]
        )
    return pygame.transform.smoothscale(surf, (max(4, size), max(4, size)))


class CardRenderer:
    """Face and back surfaces of cards ``width`` pixels wide, cached."""

    def __init__(
        self,
        text: TextCache,
        face_bytes: int = FACE_CACHE_BYTES,
        flip_bytes: int = FLIP_CACHE_BYTES,
    ) -> None:
        self.text = text
        self.faces = SurfaceCache(face_bytes, "card faces")  # faces, backs and shadows
        self.flips = SurfaceCache(flip_bytes, "card flips")
        self._suits = SurfaceCache(2 * 1024 * 1024, "suits")

    @staticmethod
    def height(width: int) -> int:
        return round(width * CARD_RATIO)

    def suit(self, suit: int, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
        return self._suits.get_or_make((suit, size, colour), lambda: draw_suit(suit, size, colour))

    def _blank(self, width: int) -> tuple[pygame.Surface, pygame.Rect]:
        h = self.height(width)
        surf = pygame.Surface((width, h), pygame.SRCALPHA)
        rect = surf.get_rect()
        radius = max(3, width // 12)
        pygame.draw.rect(surf, EDGE, rect, border_radius=radius)
        pygame.draw.rect(surf, FACE, rect.inflate(-2, -2), border_radius=radius - 1)
        return surf, rect

    def index(self, card: int, width: int, colour: tuple[int, int, int]) -> pygame.Surface:
        """A corner index: the rank over the suit, the 6 and the 9 underlined (as printed
        cards do, so that a card turned round never reads as the other)."""
        rank, suit = rank_of(card), suit_of(card)
        letter = RANK_LETTERS[rank]
        corner_px = max(8, round(width * (0.30 if letter != "10" else 0.27)))
        label = self.text.render(letter, corner_px, colour, bold=True, lang="en", keep=False)
        small = self.suit(suit, max(6, round(width * 0.2)), colour)
        top = -corner_px * 0.12  # the font's line box has room above the digits
        ink_up, ink_down = self.text.ink(letter, corner_px, True, "en")
        baseline = top + self.text.baseline(letter, corner_px, True, "en")
        rule = max(1, round(corner_px / 12)) if letter in UNDERLINED else 0
        pip_y = (
            max(label.get_height() * 0.82, baseline + ink_down + 3 * rule)
            if rule
            else label.get_height() * 0.82
        )
        w = max(label.get_width(), small.get_width())
        surf = pygame.Surface((w + 1, round(pip_y) + small.get_height() + 1), pygame.SRCALPHA)
        surf.blit(label, ((w - label.get_width()) // 2, top))
        if rule:
            y = round(baseline + ink_down + rule)
            glyph = self.text.size(letter, corner_px, True, "en")[0]
            pygame.draw.rect(
                surf, colour, pygame.Rect((w - glyph) // 2 + 1, y, max(2, glyph - 2), rule)
            )
        surf.blit(small, ((w - small.get_width()) // 2, pip_y))
        del ink_up
        return surf

    @staticmethod
    def court_panel(width: int, index_w: int) -> pygame.Rect | None:
        """Where a court card's framed picture goes on a face ``width`` pixels wide:
        between the two corner indices (``index_w`` pixels wide each, with the margin),
        never over them; None on a card too small for one (its indices say it all)."""
        h = CardRenderer.height(width)
        pad = max(2, width // 14)
        side = pad + index_w + max(2, width // 24)
        if width - 2 * side < width // 4:
            return None
        inner = pygame.Rect(side, 0, width - 2 * side, round(h * 0.62))
        inner.centery = h // 2
        return inner

    def face(self, card: int, width: int, four_colour: bool = False) -> pygame.Surface:
        key = ("face", card, width, four_colour)
        s = self.faces.get(key)
        if s is not None:
            return s
        surf, rect = self._blank(width)
        rank, suit = rank_of(card), suit_of(card)
        colour = suit_colour(suit, four_colour)
        letter = RANK_LETTERS[rank]
        h = rect.height
        pad = max(2, width // 14)
        corner = self.index(card, width, colour)
        surf.blit(corner, (pad, pad))
        surf.blit(
            pygame.transform.rotate(corner, 180),
            (width - pad - corner.get_width(), h - pad - corner.get_height()),
        )
        inner = self.court_panel(width, corner.get_width()) if 9 <= rank <= 11 else None
        if inner is not None:  # J, Q, K: a framed court panel between the indices
            radius = max(2, width // 25)
            pygame.draw.rect(surf, (250, 236, 200), inner, border_radius=radius)
            pygame.draw.rect(surf, colour, inner, max(1, width // 45), border_radius=radius)
            big_px = round(width * 0.42)
            while big_px > 6 and self.text.size(letter, big_px, True, "en")[0] > inner.width * 0.86:
                big_px -= 1
            big = self.text.render(letter, big_px, colour, bold=True, lang="en", keep=False)
            surf.blit(
                big, big.get_rect(center=(inner.centerx, inner.centery - inner.height * 0.12))
            )
            pip = self.suit(suit, min(round(width * 0.2), round(inner.width * 0.6)), colour)
            surf.blit(pip, pip.get_rect(center=(inner.centerx, inner.bottom - inner.height * 0.22)))
        elif not 9 <= rank <= 11:
            big_size = round(width * (0.58 if rank == 12 else 0.46))
            pip = self.suit(suit, big_size, colour)
            surf.blit(pip, pip.get_rect(center=(width // 2 + width // 40, h // 2 + h // 40)))
        return self.faces.put(key, surf.convert_alpha() if pygame.display.get_surface() else surf)

    def back(self, width: int) -> pygame.Surface:
        s = self.faces.get(("back", width))
        if s is not None:
            return s
        h = self.height(width)
        surf = pygame.Surface((width, h), pygame.SRCALPHA)
        rect = surf.get_rect()
        radius = max(3, width // 12)
        pygame.draw.rect(surf, (240, 240, 240), rect, border_radius=radius)
        inner = rect.inflate(-max(4, width // 10), -max(4, width // 10))
        pygame.draw.rect(surf, BACK_A, inner, border_radius=max(2, radius - 2))
        pattern = pygame.Surface(inner.size, pygame.SRCALPHA)
        step = max(6, width // 8)
        for x in range(-inner.height, inner.width + inner.height, step):
            pygame.draw.line(
                pattern,
                (*BACK_B, 255),
                (x, 0),
                (x + inner.height, inner.height),
                max(1, width // 40),
            )
            pygame.draw.line(
                pattern,
                (*BACK_B, 255),
                (x + inner.height, 0),
                (x, inner.height),
                max(1, width // 40),
            )
        surf.blit(pattern, inner)
        pygame.draw.rect(
            surf, BACK_LINE, inner, max(1, width // 40), border_radius=max(2, radius - 2)
        )
        emblem = pygame.Rect(0, 0, width // 2, width // 2)
        emblem.center = rect.center
        pygame.draw.ellipse(surf, BACK_B, emblem)
        pygame.draw.ellipse(surf, BACK_LINE, emblem, max(1, width // 40))
        mark = self.suit(3, width // 4, BACK_LINE)
        surf.blit(mark, mark.get_rect(center=emblem.center))
        return self.faces.put(
            ("back", width), surf.convert_alpha() if pygame.display.get_surface() else surf
        )

    def shadow(self, width: int) -> pygame.Surface:
        s = self.faces.get(("shadow", width))
        if s is None:
            h = self.height(width)
            s = pygame.Surface((width + 8, h + 8), pygame.SRCALPHA)
            for i, a in enumerate((18, 26, 34)):
                pygame.draw.rect(
                    s,
                    (0, 0, 0, a),
                    pygame.Rect(i * 2, i * 2, width + 8 - i * 4, h + 8 - i * 4),
                    border_radius=max(3, width // 10),
                )
            self.faces.put(("shadow", width), s)
        return s

    def flipping(self, card: int | None, width: int, four_colour: bool, t: float) -> pygame.Surface:
        """The card part-way through turning over: ``t`` 0 (back) .. 1 (face).

        Frames are quantised to 12 steps and cached, so a flip costs blits only."""
        step = max(0, min(12, round(t * 12)))
        key = (card if step >= 6 else None, width, four_colour, step)  # the back's frames: any card
        s = self.flips.get(key)
        if s is None:
            src = (
                self.face(card, width, four_colour)
                if step >= 6 and card is not None
                else self.back(width)
            )
            squeeze = abs(math.cos(math.pi * step / 12))
            w = max(1, round(width * squeeze))
            s = self.flips.put(key, pygame.transform.scale(src, (w, src.get_height())))
        return s
