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


class SurfaceCache:
    """Surfaces by key, the least recently used dropped once ``limit`` bytes are exceeded.

    ``limit`` is in bytes of pixel data; one surface larger than the limit is still
    returned to its caller but is not kept."""

    def __init__(self, limit: int, name: str = "") -> None:
        self.limit = int(limit)
        self.name = name
        self._items: OrderedDict[Hashable, pygame.Surface] = OrderedDict()
        self._sizes: dict[Hashable, int] = {}
        self.bytes = 0
        self.made = 0  # surfaces made through :meth:`get_or_make`
        self.evicted = 0

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._items

    def get(self, key: Hashable) -> pygame.Surface | None:
        surf = self._items.get(key)
        if surf is not None:
            self._items.move_to_end(key)
        return surf

    def put(self, key: Hashable, surface: pygame.Surface) -> pygame.Surface:
        """Keep ``surface`` under ``key`` (replacing any); returns ``surface``."""
        if key in self._items:
            self._drop(key)
        size = surface_bytes(surface)
        if size > self.limit:
            return surface
        self._items[key] = surface
        self._sizes[key] = size
        self.bytes += size
        while self.bytes > self.limit and self._items:
            oldest = next(iter(self._items))
            self._drop(oldest)
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
        self._sizes.clear()
        self.bytes = 0

    def _drop(self, key: Hashable) -> None:
        self._items.pop(key)
        self.bytes -= self._sizes.pop(key)

    def stats(self) -> dict[str, int]:
        """Entries, bytes held, the limit, surfaces made and evicted (for the benchmark)."""
        return {"entries": len(self._items), "bytes": self.bytes, "limit": self.limit,
                "made": self.made, "evicted": self.evicted}
