"""How the screens run (:class:`ScreenOptions`) and the SDL video driver they start on
(:func:`video_driver`): the cabinet's, a station's and the dealer display's windows use
the same options and refuse a driver that shows nothing unless headless was asked for."""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass

import pygame

from kiosk.ui import memory, sdl_hints

log = logging.getLogger(__name__)

#: SDL video drivers that draw into memory only: a cabinet on one shows a black screen.
HEADLESS_DRIVERS = frozenset({"offscreen", "dummy"})
#: The environment variable that asks for a headless driver on purpose.
HEADLESS_ENV = "UTH_HEADLESS"
#: The exit code when the screens cannot be shown.
NO_DISPLAY = 3


@dataclass(frozen=True)
class ScreenOptions:
    """How the screens run: ``size`` ``None`` is fullscreen at the display's size;
    ``seed`` makes the shuffles reproducible (testing only, never on a real cabinet)."""

    size: tuple[int, int] | None = None
    language: str = "en"
    sound: bool = True
    demo_keys: bool = True  # the demo keys work when the devices are simulated
    seed: int | None = None
    headless: bool = False  # run on an invisible SDL driver on purpose (also $UTH_HEADLESS=1)
    autoplay_rounds: int | None = None  # demo: a scripted player plays this many rounds, then the kiosk ends


def video_driver(options: ScreenOptions) -> str | None:
    """Start SDL's video and return the driver it picked, or ``None`` (with the reason
    on stderr) when it picked one that shows nothing and headless was not asked for."""
    sdl_hints.prefer_native_framebuffer()  # no OpenGL probe: ~115 MB less on X11
    memory.bound_heap()
    try:
        pygame.display.init()
    except pygame.error as exc:
        print(f"error: no video driver: {exc}", file=sys.stderr)
        return None
    driver = pygame.display.get_driver()
    asked = options.headless or os.environ.get(HEADLESS_ENV, "") == "1"
    log.info("video driver: %s", driver)
    if driver in HEADLESS_DRIVERS and not asked:
        print(f"error: SDL picked the {driver!r} video driver, which shows nothing (no display?). "
              f"Set DISPLAY or WAYLAND_DISPLAY, or SDL_VIDEODRIVER (e.g. kmsdrm); "
              f"to run headless on purpose set {HEADLESS_ENV}=1.", file=sys.stderr)
        pygame.display.quit()
        return None
    return driver
