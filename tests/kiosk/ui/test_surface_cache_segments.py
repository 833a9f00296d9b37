"""The surface caches keep what is drawn again: a stream of one-off surfaces (an amount
counting up) passes through without pushing out the surfaces used more than once, and a
card's turning frames of the back are shared by every card."""

from __future__ import annotations

import pygame

from kiosk.ui.cards import CardRenderer
from kiosk.ui.surfcache import SurfaceCache, surface_bytes
from kiosk.ui.text import TextCache


def test_one_off_surfaces_do_not_push_out_those_used_again():
    one = pygame.Surface((100, 100), pygame.SRCALPHA)
    cache = SurfaceCache(10 * surface_bytes(one))
    for k in "abcd":
        cache.put(k, one.copy())
        assert cache.get(k) is not None  # drawn again: kept
    for i in range(100):  # one-off surfaces, each used once
        cache.put(i, one.copy())
        assert cache.bytes <= cache.limit
    assert all(k in cache for k in "abcd")
    assert len(cache) == 10 and cache.evicted == 94


def test_protected_surfaces_still_give_way_when_all_are_used_again():
    one = pygame.Surface((100, 100), pygame.SRCALPHA)
    cache = SurfaceCache(4 * surface_bytes(one))
    for i in range(12):
        cache.put(i, one.copy())
        cache.get(i)
        assert cache.bytes <= cache.limit and len(cache) <= 4
    assert {8, 9, 10, 11} == {i for i in range(12) if i in cache}
    cache.clear()
    assert len(cache) == 0 and cache.bytes == 0


def test_the_backs_turning_frames_are_shared_by_every_card():
    pygame.font.init()
    cards = CardRenderer(TextCache())
    early = [cards.flipping(c, 120, False, 0.2) for c in (0, 17, 51)]
    assert early[0] is early[1] is early[2]  # still the back: one frame for all cards
    late = [cards.flipping(c, 120, False, 0.8) for c in (0, 17)]
    assert late[0] is not late[1]  # the faces differ
    assert late[0].get_size() == late[1].get_size()
