"""A least-recently-used cache of pygame surfaces bounded by the bytes of their pixels.

Every drawn-once-then-blitted surface (text, buttons, card faces) is kept in one of
these, so the memory the screens hold stays under a known figure however many
languages, sizes and amounts pass through them: a count limit alone lets a few
full-width panels at 1920x1080 cost as much as thousands of small labels.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable

import pygame


def surface_bytes(surface: pygame.Surface) -> int:
    """Bytes of pixel memory held by ``surface`` (its pitch times its height)."""
    return surface.get_pitch() * surface.get_height()


#: The share of a cache's bytes kept for surfaces used more than once.
PROTECTED_SHARE = 0.75


class SurfaceCache:
    """Surfaces by key, dropped once ``limit`` bytes are exceeded (segmented LRU).

    A surface starts on probation; used again, it moves to the protected segment (up to
    :data:`PROTECTED_SHARE` of the bytes; past that its least recently used go back on
    probation).  The least recently used surface on probation goes first, so a stream of
    one-off surfaces (an amount counting up) cannot push out the labels every frame
    draws.  ``limit`` is in bytes of pixel data; one surface larger than the limit is
    still returned to its caller but is not kept."""

    def __init__(self, limit: int, name: str = "") -> None:
        self.limit = int(limit)
        self.name = name
        self._items: OrderedDict[Hashable, pygame.Surface] = OrderedDict()  # on probation
        self._hot: OrderedDict[Hashable, pygame.Surface] = OrderedDict()  # protected
        self._sizes: dict[Hashable, int] = {}
        self.bytes = 0
        self._hot_bytes = 0
        self.made = 0  # surfaces made through :meth:`get_or_make`
        self.evicted = 0

    def __len__(self) -> int:
        return len(self._items) + len(self._hot)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._items or key in self._hot

    def get(self, key: Hashable) -> pygame.Surface | None:
        surf = self._hot.get(key)
        if surf is not None:
            self._hot.move_to_end(key)
            return surf
        surf = self._items.pop(key, None)
        if surf is not None:
            self._hot[key] = surf
            self._hot_bytes += self._sizes[key]
            while self._hot_bytes > PROTECTED_SHARE * self.limit and len(self._hot) > 1:
                old, demoted = self._hot.popitem(last=False)
                self._hot_bytes -= self._sizes[old]
                self._items[old] = demoted
        return surf

    def put(self, key: Hashable, surface: pygame.Surface) -> pygame.Surface:
        """Keep ``surface`` under ``key`` (replacing any); returns ``surface``."""
        if key in self:
            self._drop(key)
        size = surface_bytes(surface)
        if size > self.limit:
            return surface
        self._items[key] = surface
        self._sizes[key] = size
        self.bytes += size
        while self.bytes > self.limit and len(self):
            self._drop(next(iter(self._items)) if self._items else next(iter(self._hot)))
            self.evicted += 1
        return surface

    def get_or_make(self, key: Hashable, make: Callable[[], pygame.Surface]) -> pygame.Surface:
        surf = self.get(key)
        if surf is None:
            self.made += 1
            surf = self.put(key, make())
        return surf

    def clear(self) -> None:
        self._items.clear()
        self._hot.clear()
        self._sizes.clear()
        self.bytes = 0
        self._hot_bytes = 0

    def _drop(self, key: Hashable) -> None:
        size = self._sizes.pop(key)
        if key in self._hot:
            self._hot.pop(key)
            self._hot_bytes -= size
        else:
            self._items.pop(key)
        self.bytes -= size

    def stats(self) -> dict[str, int]:
        """Entries, bytes held, the limit, surfaces made and evicted (for the benchmark)."""
        return {
            "entries": len(self),
            "bytes": self.bytes,
            "limit": self.limit,
            "made": self.made,
            "evicted": self.evicted,
        }
