"""Keeping the C heap from holding on to freed pixels (glibc only; elsewhere a no-op).

SDL allocates every surface's pixels with ``malloc``.  glibc serves a large request
(a full-screen layer at 1920x1080 is 8 MB) with its own ``mmap`` and unmaps it when
freed -- but each such free also raises its threshold for the next ones, so later large
temporaries (a copy of the felt, a supersampled chip, a gradient) come from the heap,
and the freed holes between live surfaces are never given back to the system.  Measured
on the kiosk at 1920x1080: about 75 MB resident after ten tournaments that
``malloc_trim`` hands straight back.

:func:`bound_heap` pins the threshold so every surface of 128 KB or more is mapped and
unmapped on its own, and keeps threads to two shared heaps; :func:`release_free_memory` returns the heap's free pages at a
quiet moment (the attract screen, the end of a tournament).
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache

#: ``mallopt`` parameters (glibc's malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
#: Allocations from this size on are mapped on their own, bytes.
MMAP_THRESHOLD = 128 * 1024
#: Free memory at the top of the heap above this is returned at once, bytes.
TRIM_THRESHOLD = 1024 * 1024
#: Heaps shared by all threads (glibc's default, eight per core, lets each device and
#: tournament thread keep its own heap with its own free holes).
ARENA_MAX = 2


@cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.mallopt  # noqa: B018 (only glibc has mallopt and malloc_trim)
        libc.malloc_trim  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc


def bound_heap() -> bool:
    """Pin glibc's mmap and trim thresholds and its number of heaps (call once at
    start-up, before any thread starts); False elsewhere."""
    libc = _libc()
    if libc is None:
        return False
    ok = [libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD), libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD),
          libc.mallopt(M_ARENA_MAX, ARENA_MAX)]
    return all(x == 1 for x in ok)


def release_free_memory() -> bool:
    """Give the heap's free pages back to the system (a few milliseconds at most)."""
    libc = _libc()
    return bool(libc is not None and libc.malloc_trim(0))
