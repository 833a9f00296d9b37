"""Buttons, panels, chips and meters: drawn once per look, then blitted.

A :class:`Button` is a plain record (design rectangle, label, style, what it does); scenes
make their buttons afresh from the snapshot each frame, and :class:`Painter` keeps the
surfaces, keyed by everything that changes how they look.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Protocol

import pygame
from pygame.typing import Point, RectLike

from kiosk.ui import theme
from kiosk.ui.layout import Layout
from kiosk.ui.text import TextCache

Colour = tuple[int, int, int]


class Canvas(Protocol):
    """Something to draw on: a :class:`pygame.Surface` or a :class:`DamageSurface`."""

    def blit(self, source: pygame.Surface, dest: Point | RectLike = (0, 0), area: RectLike | None = None,
             special_flags: int = 0) -> pygame.Rect: ...

    def get_size(self) -> tuple[int, int]: ...


@dataclass(frozen=True)
class Button:
    """A touch target.  ``rect`` in design units; ``label`` already translated.

    ``command`` is a command name (a ``str``, with ``arg``) or a request record that the
    scene handles by its type."""

    id: str
    rect: tuple[float, float, float, float]
    label: str
    command: object
    arg: object = None
    style: str = "plain"
    enabled: bool = True
    sublabel: str = ""
    hint: str = ""  # keyboard shortcut shown in a corner
    size: int = 30  # label size, design units
    round: bool = False  # a round button (chips)
    colour: tuple[int, int, int] | None = None  # a chip's colour


class Painter:
    """Cached drawing of widgets for one :class:`Layout`."""

    def __init__(self, layout: Layout, text: TextCache) -> None:
        self.layout = layout
        self.text = text
        self._cache: dict[tuple, pygame.Surface] = {}

    def _get(self, key: tuple, make) -> pygame.Surface:
        s = self._cache.get(key)
        if s is None:
            s = make()
            if pygame.display.get_surface() is not None:
                s = s.convert_alpha()
            if len(self._cache) > 1500:
                self._cache.clear()
            self._cache[key] = s
        return s

    # -- primitives -----------------------------------------------------------------
    def panel(self, size: tuple[int, int], colour=(0, 0, 0), alpha: int = 150, radius: int = 18,
              border: tuple[int, int, int] | None = None, border_w: int = 2) -> pygame.Surface:
        key = ("panel", size, colour, alpha, radius, border, border_w)

        def make() -> pygame.Surface:
            s = pygame.Surface(size, pygame.SRCALPHA)
            r = self.layout.px(radius)
            pygame.draw.rect(s, (*colour, alpha), s.get_rect(), border_radius=r)
            if border:
                pygame.draw.rect(s, border, s.get_rect(), max(1, self.layout.px(border_w)), border_radius=r)
            return s

        return self._get(key, make)

    def gradient_box(self, size: tuple[int, int], top, bottom, radius: int, border=None, border_w: int = 2,
                     gloss: bool = True) -> pygame.Surface:
        key = ("gbox", size, top, bottom, radius, border, border_w, gloss)

        def make() -> pygame.Surface:
            w, h = size
            s = pygame.Surface(size, pygame.SRCALPHA)
            r = min(self.layout.px(radius), h // 2, w // 2)
            mask = pygame.Surface(size, pygame.SRCALPHA)
            pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=r)
            grad = theme.vertical_gradient(size, top, bottom).convert_alpha()
            grad.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
            s.blit(grad, (0, 0))
            if gloss:  # a soft top highlight fading downwards
                hl = pygame.Surface((w, max(1, h // 2)), pygame.SRCALPHA)
                for y in range(hl.get_height()):
                    a = round(34 * (1 - y / max(1, hl.get_height())))
                    pygame.draw.line(hl, (255, 255, 255, a), (0, y), (w, y))
                hl.blit(mask.subsurface((0, 0, w, hl.get_height())), (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
                s.blit(hl, (0, 0))
            if border:
                pygame.draw.rect(s, border, s.get_rect(), max(1, self.layout.px(border_w)), border_radius=r)
            return s

        return self._get(key, make)

    # -- buttons --------------------------------------------------------------------
    def button(self, b: Button, pressed: bool = False) -> tuple[pygame.Surface, pygame.Rect]:
        rect = self.layout.rect(*b.rect)
        key = ("button", b.label, b.sublabel, b.hint, rect.size, b.style, b.enabled, pressed, b.size, b.round,
               b.colour)
        return self._get(key, lambda: self._make_button(b, rect.size, pressed)), rect

    def _make_button(self, b: Button, size: tuple[int, int], pressed: bool) -> pygame.Surface:
        w, h = size
        top, bottom, ink = theme.BUTTON_STYLES.get(b.style, theme.BUTTON_STYLES["plain"])
        if not b.enabled:
            top, bottom, ink = theme.DISABLED
        if pressed:
            top, bottom = bottom, top
        s = pygame.Surface(size, pygame.SRCALPHA)
        if b.round:
            return self._make_round(b, size, top, ink)
        shadow = self.panel((w, h), (0, 0, 0), 90, radius=16)
        s.blit(shadow, (0, self.layout.px(3)))
        box = self.gradient_box((w, h - self.layout.px(3)), top, bottom, 16,
                                border=(255, 255, 255) if b.style == "selected" else (0, 0, 0), border_w=2)
        s.blit(box, (0, self.layout.px(3) if pressed else 0))
        px = self.layout.px(b.size)
        avail = w - self.layout.px(16)
        if b.sublabel:
            sub_px = self.layout.px(max(14, b.size * 0.62))
            lab = self.text.render(b.label, self.text.fit_px(b.label, px, avail, True), ink, bold=True)
            sub = self.text.render(b.sublabel, self.text.fit_px(b.sublabel, sub_px, avail), ink)
            total = lab.get_height() + sub.get_height() * 0.85
            y0 = (h - total) / 2
            s.blit(lab, lab.get_rect(midtop=(w / 2, y0)))
            s.blit(sub, sub.get_rect(midtop=(w / 2, y0 + lab.get_height() * 0.88)))
        else:
            one = self.text.fit_px(b.label, px, avail, True)
            lines = [b.label] if one >= px * 0.72 else self.text.wrap(b.label, px, avail, bold=True)
            px = one if len(lines) == 1 else px
            if len(lines) > 2:
                px = self.text.fit_px(b.label, px, avail * 2, True)
                lines = self.text.wrap(b.label, px, avail, bold=True)[:2]
            surfs = [self.text.render(line, self.text.fit_px(line, px, avail, True), ink, bold=True) for line in lines]
            total = sum(x.get_height() for x in surfs) * 0.9
            y = (h - total) / 2 - (0 if not pressed else -self.layout.px(2))
            for x in surfs:
                s.blit(x, x.get_rect(midtop=(w / 2, y)))
                y += x.get_height() * 0.9
        if b.hint:
            hint = self.text.render(b.hint, self.layout.px(15), (*ink,) if b.enabled else ink, lang="en")
            hint.set_alpha(150)
            s.blit(hint, (w - hint.get_width() - self.layout.px(8), h - hint.get_height() - self.layout.px(6)))
        return s

    def _make_round(self, b: Button, size, colour, ink) -> pygame.Surface:
        return self.chip_face(size, b.colour or colour, b.label, selected=b.style == "selected", enabled=b.enabled)

    def chip_face(self, size: tuple[int, int], colour, label: str, selected: bool = False,
                  enabled: bool = True) -> pygame.Surface:
        key = ("chip", size, colour, label, selected, enabled)

        def make() -> pygame.Surface:
            w, h = size
            d = min(w, h)
            ss = 3
            big = pygame.Surface((d * ss, d * ss), pygame.SRCALPHA)
            c = (d * ss) / 2
            R = c - ss
            base = colour if enabled else (90, 94, 96)
            light = (255, 255, 255) if sum(base) < 600 else (60, 60, 60)
            pygame.draw.circle(big, (0, 0, 0, 110), (c, c + 2 * ss), R)
            pygame.draw.circle(big, base, (c, c), R)
            # edge spots
            for i in range(8):
                a = i * math.pi / 4 + math.pi / 8
                x, y = c + math.cos(a) * R * 0.84, c + math.sin(a) * R * 0.84
                pygame.draw.circle(big, (*light, 230), (x, y), R * 0.12)
            pygame.draw.circle(big, (*light, 200), (c, c), R * 0.66, max(1, ss * 2))
            pygame.draw.circle(big, base, (c, c), R * 0.6)
            if selected:
                pygame.draw.circle(big, theme.WIN, (c, c), R, ss * 5)
            chip = pygame.transform.smoothscale(big, (d, d))
            ink = (255, 255, 255) if sum(base) < 600 else theme.INK
            px = self.text.fit_px(label, round(d * 0.3), round(d * 0.58), True)
            lab = self.text.render(label, px, ink, bold=True)
            chip.blit(lab, lab.get_rect(center=(d / 2, d / 2)))
            out = pygame.Surface(size, pygame.SRCALPHA)
            out.blit(chip, chip.get_rect(center=(w / 2, h / 2)))
            return out

        return self._get(key, make)

    def draw_buttons(self, surface: Canvas, buttons: list[Button], pressed_id: str | None = None) -> None:
        for b in buttons:
            s, r = self.button(b, pressed=b.id == pressed_id)
            surface.blit(s, r)

    @staticmethod
    def hit(layout: Layout, buttons: list[Button], pos: tuple[int, int]) -> Button | None:
        for b in reversed(buttons):
            if layout.rect(*b.rect).collidepoint(pos):
                return b
        return None

    # -- text helpers ---------------------------------------------------------------
    def label(self, surface: Canvas, text: str, size: float, colour, *, bold: bool = False,
              **anchor: tuple[float, float]) -> pygame.Rect:
        """Blit cached text anchored at a design point: ``label(s, "Hi", 24, WHITE, center=(640, 40))``."""
        (where, (x, y)), = anchor.items()
        surf = self.text.render(text, self.layout.px(size), colour, bold=bold)
        rect = surf.get_rect(**{where: self.layout.pos(x, y)})
        surface.blit(surf, rect)
        return rect

    def fitted(self, surface: Canvas, text: str, size: float, colour, max_w: float, *, bold: bool = False,
               **anchor: tuple[float, float]) -> pygame.Rect:
        """Like :meth:`label`, shrunk to fit ``max_w`` design units."""
        px = self.text.fit_px(text, self.layout.px(size), self.layout.px(max_w), bold)
        (where, (x, y)), = anchor.items()
        surf = self.text.render(text, px, colour, bold=bold)
        rect = surf.get_rect(**{where: self.layout.pos(x, y)})
        surface.blit(surf, rect)
        return rect

    def paragraph(self, surface: Canvas, text: str, size: float, colour, x: float, y: float, w: float,
                  *, bold: bool = False, line_gap: float = 1.25) -> float:
        """Wrapped text from design ``(x, y)`` in ``w`` units wide; returns the design y below it."""
        px = self.layout.px(size)
        lines = self.text.wrap(text, px, self.layout.px(w), bold)
        for line in lines:
            if line:
                surf = self.text.render(line, px, colour, bold=bold)
                surface.blit(surf, self.layout.pos(x, y))
            y += size * line_gap
        return y

    def paragraph_height(self, text: str, size: float, w: float, *, bold: bool = False, line_gap: float = 1.25) -> float:
        lines = self.text.wrap(text, self.layout.px(size), self.layout.px(w), bold)
        return len(lines) * size * line_gap


class DamageSurface:
    """A drawing target that remembers where it was drawn on (dirty rectangles).

    Scenes that redraw only what changed draw through this: ``blit`` and the ``rect`` /
    ``circle`` helpers record the rectangles they touch; the next frame restores the
    background under them instead of repainting the whole screen (a full-screen blit at
    1920x1080 costs more than everything else in a frame, and evicts the CPU caches)."""

    def __init__(self, real: pygame.Surface) -> None:
        self.real = real
        self.rects: list[pygame.Rect] = []

    def blit(self, source: pygame.Surface, dest: Point | RectLike = (0, 0), area: RectLike | None = None,
             special_flags: int = 0) -> pygame.Rect:
        r = self.real.blit(source, dest, area, special_flags)
        self.rects.append(r)
        return r

    def get_size(self) -> tuple[int, int]:
        return self.real.get_size()

    def rect(self, colour: Colour, rect: RectLike, width: int = 0, border_radius: int = 0) -> pygame.Rect:
        r = pygame.draw.rect(self.real, colour, rect, width, border_radius=border_radius)
        self.rects.append(r)
        return r

    def circle(self, colour: Colour, centre: Point, radius: float, width: int = 0) -> pygame.Rect:
        r = pygame.draw.circle(self.real, colour, centre, radius, width)
        self.rects.append(r)
        return r

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)
