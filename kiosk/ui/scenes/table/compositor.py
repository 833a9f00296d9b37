"""Two-layer drawing with dirty rectangles.

The *base* (the static layer plus everything that is not moving) is repainted only when
its signature changes; every other frame restores the base under last frame's moving
things and draws them again.  :attr:`Compositor.dirty` lists the changed rectangles
(``None``: the whole screen).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import pygame

from kiosk.ui.widgets import DamageSurface

Paint = Callable[[DamageSurface], None]


class Compositor:
    """Owns the base layer and the rectangles drawn last frame."""

    def __init__(self) -> None:
        self.dirty: list[pygame.Rect] | None = None
        self._prev_rects: list[pygame.Rect] | None = None
        self._base: pygame.Surface | None = None
        self._base_sig: Hashable = None
        self._drawn_static: pygame.Surface | None = None

    def invalidate(self) -> None:
        """Repaint the whole screen next frame (after an overlay, on entering the scene)."""
        self._prev_rects = None
        self._base_sig = None

    def compose(self, surface: pygame.Surface, static: pygame.Surface, signature: Hashable,
                paint_base: Paint, paint_moving: Paint) -> None:
        """Draw one frame on ``surface``: ``paint_base`` over a copy of ``static`` when
        ``signature`` (or ``static``) changed, then ``paint_moving`` on top."""
        prev = self._prev_rects
        if self._base is None or self._base.get_size() != surface.get_size():
            self._base = static.copy()
            changed = True
        else:
            changed = signature != self._base_sig or self._drawn_static is not static
        base = self._base
        if changed:
            base.blit(static, (0, 0))
            paint_base(DamageSurface(base))
            self._base_sig = signature
            self._drawn_static = static
            surface.blit(base, (0, 0))
            full = True
        else:
            full = prev is None
            if prev is None:
                surface.blit(base, (0, 0))
            else:
                for r in prev:
                    surface.blit(base, r, r)
        moving = DamageSurface(surface)
        paint_moving(moving)
        self.dirty = None if full else (prev or []) + moving.rects
        self._prev_rects = moving.rects
