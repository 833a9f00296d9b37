"""Screen geometry: one design resolution (1280x720), scaled uniformly to the screen.

Scenes place everything in design units; :class:`Layout` turns them into pixels.  The
design is letter-boxed (centred) when the screen's aspect differs from 16:9; the felt
background still fills the whole screen.

Touch targets: a finger needs about 10 mm.  The smallest screen we support is a 7"
800x480 panel, about 133 pixels per inch, where the design scale is 0.625, so 10 mm is
52.4 px there and every touch target is at least :data:`MIN_TOUCH` = 86 design units
(53.75 px).  Larger screens only make targets larger.

Text: a label fitted to its box never shrinks below :data:`MIN_TEXT` = 16 design units
(10 px on the 7" panel, where a capital letter is then about 1.4 mm tall).
"""

from __future__ import annotations

import pygame

DESIGN_W, DESIGN_H = 1280, 720
#: Pixels per inch assumed for the smallest supported panel (7", 800x480).
ASSUMED_DPI = 133
#: Minimum finger target, millimetres.
MIN_TOUCH_MM = 10.0
#: Smallest touch target edge in design units (86 x 0.625 = 53.75 px >= 52.4 px at 133 dpi).
MIN_TOUCH = 86
#: Smallest size a fitted label shrinks to, design units (10 px at 800x480).
MIN_TEXT = 16


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> ``(1280, 720)``; raises ``ValueError`` on anything else."""
    w, sep, h = text.lower().partition("x")
    if not sep or not w.strip().isdigit() or not h.strip().isdigit():
        raise ValueError(f"size {text!r} is not WIDTHxHEIGHT, for example 1280x720")
    size = int(w), int(h)
    if size[0] < 320 or size[1] < 200:
        raise ValueError(f"size {text!r} is too small (at least 320x200)")
    return size


class Layout:
    """Design units -> screen pixels for one screen size."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = (int(size[0]), int(size[1]))
        w, h = self.size
        self.scale = min(w / DESIGN_W, h / DESIGN_H)
        self.ox = (w - DESIGN_W * self.scale) / 2
        self.oy = (h - DESIGN_H * self.scale) / 2

    @property
    def screen_rect(self) -> pygame.Rect:
        return pygame.Rect(0, 0, *self.size)

    def px(self, v: float) -> int:
        """A length in design units -> whole pixels (at least 1)."""
        return max(1, round(v * self.scale))

    def pos(self, x: float, y: float) -> tuple[int, int]:
        return round(self.ox + x * self.scale), round(self.oy + y * self.scale)

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        """A design rectangle -> a screen rectangle."""
        x0, y0 = self.pos(x, y)
        x1, y1 = self.pos(x + w, y + h)
        return pygame.Rect(x0, y0, x1 - x0, y1 - y0)

    def to_design(self, pos: tuple[int, int]) -> tuple[float, float]:
        return (pos[0] - self.ox) / self.scale, (pos[1] - self.oy) / self.scale

    def min_touch_px(self) -> float:
        """10 mm in pixels on the assumed 133 dpi panel (the worst case)."""
        return MIN_TOUCH_MM / 25.4 * ASSUMED_DPI

    def row(self, x: float, y: float, widths: list[float], h: float, gap: float) -> list[pygame.Rect]:
        """Rectangles side by side, left to right, starting at design ``(x, y)``."""
        out = []
        for w in widths:
            out.append(self.rect(x, y, w, h))
            x += w + gap
        return out

    def centred_row(self, cx: float, y: float, widths: list[float], h: float, gap: float) -> list[pygame.Rect]:
        total = sum(widths) + gap * (len(widths) - 1)
        return self.row(cx - total / 2, y, widths, h, gap)
