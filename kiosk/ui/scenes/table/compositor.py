"""Two-layer drawing with dirty rectangles.

The *base* (the static layer plus everything that is not moving) is painted as a
display list (:class:`Recorder`): when its signature changes, the new list is compared
with the last one and only the rectangles of the operations that differ are repainted,
from the static layer up, and shown.  Every frame restores the base under last frame's
moving things and draws them again.  :attr:`Compositor.dirty` lists the changed
rectangles (``None``: the whole screen); :attr:`Compositor.base_area` is the pixel area
of the base repainted by the last frame.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from typing import Any

import pygame
from pygame.typing import Point, RectLike

from kiosk.ui.widgets import DamageSurface

Paint = Callable[[DamageSurface], None]
Colour = tuple[int, int, int]

#: A recorded drawing operation: (kind, arguments, rectangle it may touch).
Op = tuple[str, tuple[Any, ...], pygame.Rect]

#: Changed rectangles whose union covers more than this share of the screen are
#: repainted as one rectangle.
MERGE_SHARE = 0.5


class Recorder:
    """A drawing target that records ``blit``, ``rect`` and ``circle`` calls instead of
    drawing them, with the rectangle each may touch (clipped to the surface)."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.bounds = pygame.Rect((0, 0), size)
        self.ops: list[Op] = []

    @property
    def rects(self) -> list[pygame.Rect]:
        return [op[2] for op in self.ops]

    def blit(
        self,
        source: pygame.Surface,
        dest: Point | RectLike = (0, 0),
        area: RectLike | None = None,
        special_flags: int = 0,
    ) -> pygame.Rect:
        if isinstance(dest, pygame.Rect):
            place: tuple[Any, ...] = tuple(dest)
        else:
            place = tuple(dest)  # type: ignore[arg-type]
        x, y = int(place[0]), int(place[1])
        box = None if area is None else tuple(pygame.Rect(area))
        if box is None:
            size = source.get_size()
        else:
            want = pygame.Rect(box)
            clipped = want.clip(source.get_rect())
            x, y = x + clipped.x - want.x, y + clipped.y - want.y
            size = clipped.size
        r = pygame.Rect(x, y, *size).clip(self.bounds)
        self.ops.append(("blit", (source, place, box, special_flags), r))
        return r

    def rect(
        self, colour: Colour, rect: RectLike, width: int = 0, border_radius: int = 0
    ) -> pygame.Rect:
        box = pygame.Rect(rect)
        box.normalize()
        r = box.clip(self.bounds)
        self.ops.append(("rect", (tuple(colour), tuple(box), width, border_radius), r))
        return r

    def circle(self, colour: Colour, centre: Point, radius: float, width: int = 0) -> pygame.Rect:
        cx, cy = centre[0], centre[1]
        reach = int(radius) + 2
        r = pygame.Rect(int(cx) - reach, int(cy) - reach, 2 * reach + 1, 2 * reach + 1).clip(
            self.bounds
        )
        self.ops.append(("circle", (tuple(colour), (cx, cy), radius, width), r))
        return r

    def get_size(self) -> tuple[int, int]:
        return self.size

    def get_width(self) -> int:
        return self.size[0]

    def get_height(self) -> int:
        return self.size[1]

    def get_rect(self, **kwargs: Any) -> pygame.Rect:
        return (
            pygame.Rect((0, 0), self.size).move_to(**kwargs)
            if kwargs
            else pygame.Rect((0, 0), self.size)
        )


def _key(op: Op) -> Hashable:
    """What makes two operations draw the same pixels (a source surface by identity)."""
    kind, args, rect = op
    if kind == "blit":
        return (kind, id(args[0]), args[1], args[2], args[3], tuple(rect))
    return (kind, args, tuple(rect))


def replay(target: pygame.Surface, op: Op) -> None:
    """Draw one recorded operation on ``target``."""
    kind, args, _rect = op
    if kind == "blit":
        source, dest, area, flags = args
        target.blit(source, dest, area, flags)
    elif kind == "rect":
        colour, box, width, radius = args
        pygame.draw.rect(target, colour, box, width, border_radius=radius)
    else:
        colour, centre, radius, width = args
        pygame.draw.circle(target, colour, centre, radius, width)


def changed_rects(old: list[Op], new: list[Op]) -> list[pygame.Rect] | None:
    """The rectangles where the picture of ``new`` may differ from that of ``old``; ``None``
    when the operations both lists share are drawn in another order (repaint it all)."""
    old_keys = [_key(op) for op in old]
    new_keys = [_key(op) for op in new]
    common = Counter(old_keys) & Counter(new_keys)
    left = common.copy()
    kept_old = []
    out: list[pygame.Rect] = []
    for key, op in zip(old_keys, old, strict=True):
        if left[key] > 0:
            left[key] -= 1
            kept_old.append(key)
        elif op[2].w and op[2].h:
            out.append(op[2])
    left = common.copy()
    kept_new = []
    for key, op in zip(new_keys, new, strict=True):
        if left[key] > 0:
            left[key] -= 1
            kept_new.append(key)
        elif op[2].w and op[2].h:
            out.append(op[2])
    if kept_old != kept_new:
        return None
    return merge(out)


def merge(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """``rects`` with every overlapping pair joined into their union, until none overlap."""
    out: list[pygame.Rect] = []
    for r in rects:
        r = r.copy()
        while True:
            i = r.collidelist(out)
            if i < 0:
                break
            r.union_ip(out.pop(i))
        out.append(r)
    return out


class Compositor:
    """Owns the base layer, its display list and the rectangles drawn last frame."""

    def __init__(self) -> None:
        self.dirty: list[pygame.Rect] | None = None
        self.base_area = 0
        self._prev_rects: list[pygame.Rect] | None = None
        self._base: pygame.Surface | None = None
        self._base_sig: Hashable = None
        self._drawn_static: pygame.Surface | None = None
        self._ops: list[Op] = []

    def invalidate(self) -> None:
        """Repaint the whole screen next frame (after an overlay, on entering the scene)."""
        self._prev_rects = None
        self._base_sig = None
        self._ops = []
        self._drawn_static = None

    def release(self) -> None:
        """Let the base layer go (the scene is left): made again, whole, on the next frame."""
        self.invalidate()
        self._base = None

    def _repaint_base(self, static: pygame.Surface, paint_base: Paint) -> list[pygame.Rect] | None:
        """Bring the base up to date; the rectangles repainted (``None``: all of it)."""
        base = self._base
        assert base is not None
        recorder = Recorder(base.get_size())
        paint_base(recorder)  # type: ignore[arg-type]
        ops = recorder.ops
        regions = None if self._drawn_static is not static else changed_rects(self._ops, ops)
        screen = base.get_rect()
        if (
            regions is not None
            and sum(r.w * r.h for r in regions) > MERGE_SHARE * screen.w * screen.h
        ):
            whole = screen.unionall(regions)
            regions = None if whole == screen else [whole]
        for r in regions if regions is not None else [screen]:
            base.set_clip(r)
            base.blit(static, r, r)
            for op in ops:
                if op[2].colliderect(r):
                    replay(base, op)
        base.set_clip(None)
        self._ops = ops
        self._drawn_static = static
        return regions

    def compose(
        self,
        surface: pygame.Surface,
        static: pygame.Surface,
        signature: Hashable,
        paint_base: Paint,
        paint_moving: Paint,
    ) -> None:
        """Draw one frame on ``surface``: the parts of the base that ``paint_base`` changed
        since last painted (checked when ``signature`` or ``static`` changed), then
        ``paint_moving`` on top."""
        prev = self._prev_rects
        if self._base is None or self._base.get_size() != surface.get_size():
            self._base = static.copy()
            self._drawn_static = None
        base = self._base
        regions: list[pygame.Rect] | None = []
        if signature != self._base_sig or self._drawn_static is not static:
            regions = self._repaint_base(static, paint_base)
            self._base_sig = signature
        full = prev is None or regions is None
        if full:
            surface.blit(base, (0, 0))
            self.base_area = (
                base.get_width() * base.get_height()
                if regions is None
                else sum(r.w * r.h for r in regions)
            )
        else:
            assert regions is not None
            for r in merge((prev or []) + regions):
                surface.blit(base, r, r)
            self.base_area = sum(r.w * r.h for r in regions)
        moving = DamageSurface(surface)
        paint_moving(moving)
        self.dirty = None if full else (prev or []) + (regions or []) + moving.rects
        self._prev_rects = moving.rects
