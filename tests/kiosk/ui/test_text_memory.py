"""The screens' surface caches stay within their byte limits whatever passes through them."""

from __future__ import annotations

import pygame
import pytest
from test_ui import WIN, Kiosk, start_round

from kiosk.ui import i18n, memory, sdl_hints
from kiosk.ui.surfcache import SurfaceCache, surface_bytes
from kiosk.ui.text import TextCache


def test_surface_cache_drops_the_least_recently_used_past_its_bytes():
    one = pygame.Surface((100, 100), pygame.SRCALPHA)  # 40,000 bytes
    cache = SurfaceCache(3 * surface_bytes(one))
    for k in "abc":
        cache.put(k, one.copy())
    assert cache.get("a") is not None  # "a" is now the most recent
    cache.put("d", one.copy())
    assert "b" not in cache and {"a", "c", "d"} <= {k for k in "abcd" if k in cache}
    assert cache.bytes <= cache.limit and cache.evicted == 1
    cache.put("huge", pygame.Surface((400, 400), pygame.SRCALPHA))  # larger than the limit: not kept
    assert "huge" not in cache and len(cache) == 3


@pytest.mark.heavy
def test_text_and_fonts_stay_bounded():
    pygame.font.init()
    cache = TextCache(limit_bytes=2 * 1024 * 1024)
    for i in range(3000):
        cache.render(f"{i:,} credits", 20 + i % 60, (255, 255, 255))
        cache.fit(f"label {i}", 10 + i % 90, 200, None)
    assert cache.surfaces.bytes <= 2 * 1024 * 1024
    assert len(cache.fonts._fonts) <= cache.fonts.limit


def test_rounds_at_1920x1080_keep_every_cache_within_its_limit(tmp_path):
    k = Kiosk(tmp_path, (1920, 1080), WIN, WIN, WIN, language="fr")
    try:
        for _ in range(3):
            start_round(k)
            for key in ("k", "k", "f"):
                k.key(key)
                k.settle()
            k.run(1.5)
            i18n.set_language(i18n.next_language())
        app = k.app
        for c in (app.text.surfaces, app.painter.surfaces, app.cards.faces, app.cards.flips):
            assert c.bytes <= c.limit, c.stats()
        assert min(app.text.surfaces.bytes, app.painter.surfaces.bytes, app.cards.faces.bytes) > 0
    finally:
        k.close()


def test_display_and_heap_settings():
    env: dict[str, str] = {}
    assert sdl_hints.prefer_native_framebuffer(env) and env == {"SDL_FRAMEBUFFER_ACCELERATION": "0"}
    env["SDL_FRAMEBUFFER_ACCELERATION"] = "1"
    assert not sdl_hints.prefer_native_framebuffer(env) and env["SDL_FRAMEBUFFER_ACCELERATION"] == "1"
    assert isinstance(memory.bound_heap(), bool) and isinstance(memory.release_free_memory(), bool)
