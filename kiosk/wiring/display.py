"""The dealer display's process: its window fed by the host's display link
(:class:`kiosk.station.display_link.DisplayFeed`), painted by
:class:`kiosk.ui.dealer_display.DealerDisplay`.
"""

from __future__ import annotations

import signal
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import pygame

from kiosk.link.pairing import StationPairing
from kiosk.station.display_link import DisplayFeed
from kiosk.ui.dealer_display import DealerDisplay
from kiosk.ui.screen_options import NO_DISPLAY, ScreenOptions, video_driver


@dataclass(frozen=True)
class DisplayRun:
    """Where the display connects and how long it runs (``frames`` None: until the
    window closes; ``screenshot``: a file saved at the end)."""

    host: str
    port: int
    folder: Path
    fps: int = 30
    frames: int | None = None
    screenshot: Path | None = None
    connect_s: float = 15.0


def run_display(options: ScreenOptions, run: DisplayRun) -> int:
    """Open the dealer display's window fed by the host; returns the exit code."""
    pairing = StationPairing.load(run.folder)
    if video_driver(options) is None:
        return NO_DISPLAY
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_a: stop.set())
    feed = DisplayFeed(pairing, run.host, run.port)
    feed.start()
    try:
        if feed.wait_for(lambda _v: True, run.connect_s) is None:
            print(f"error: no answer from the table host at {run.host}:{run.port}", file=sys.stderr)
            return 1
        pygame.font.init()
        pygame.display.set_caption("Ultimate Texas Hold'em: dealer display")
        fullscreen = options.size is None
        screen = pygame.display.set_mode(
            options.size or (0, 0), pygame.FULLSCREEN if fullscreen else 0
        )
        painter = DealerDisplay(screen.get_size())
        clock = pygame.time.Clock()
        frames = 0
        while not stop.is_set() and (run.frames is None or frames < run.frames):
            if any(e.type == pygame.QUIT for e in pygame.event.get()):
                break
            view = feed.view()
            if view is not None:
                painter.draw(screen, view)
            pygame.display.flip()
            frames += 1
            clock.tick(run.fps)
        if run.screenshot is not None:
            run.screenshot.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(screen, str(run.screenshot))
        return 0
    finally:
        feed.stop()
        pygame.quit()
