"""The dealer display fed by the table host: ``uth table display --host ADDR``.

:class:`DisplayFeed` is the display's end of the host's display link (its own pairing,
``uth table pair --display``; TLS with the host's certificate pinned, as a station's):
the host sends ``{"table": ...}``, the :class:`TableSnapshot` of the whole table (no
seat's cards before settlement), after every change.  Countdowns are sent when they
start; :meth:`DisplayFeed.view` counts them down since the view arrived.
:func:`run_display` paints it with :class:`~kiosk.ui.dealer_display.DealerDisplay` in a
window until the window closes or the process is told to stop.
"""

from __future__ import annotations

import dataclasses
import logging
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pygame

from kiosk.link.client import LinkClient
from kiosk.link.events import Inbound, LinkEvent
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import Snapshot
from kiosk.link.pairing import StationPairing
from kiosk.service.display import TableSnapshot
from kiosk.service.wire import from_json
from kiosk.ui.dealer_display import DealerDisplay
from kiosk.ui.screen_options import NO_DISPLAY, ScreenOptions, video_driver

log = logging.getLogger(__name__)


class DisplayFeed:
    """The table as the host's display link shows it (thread-safe)."""

    def __init__(
        self, pairing: StationPairing, host: str, port: int, limits: LinkLimits | None = None
    ) -> None:
        self.link = LinkClient(pairing, host, port, self._on_message, self._on_event, limits)
        self._cond = threading.Condition()
        self._view: TableSnapshot | None = None
        self._at = 0.0
        self.connected = False
        self.received = 0

    def start(self) -> None:
        self.link.start()

    def stop(self) -> None:
        self.link.stop()

    def _on_message(self, inbound: Inbound) -> None:
        body = inbound.body
        if not isinstance(body, Snapshot) or "table" not in body.state:
            return
        try:
            view = from_json(TableSnapshot, body.state["table"])
        except ValueError as exc:
            log.error("table view refused: %s", exc)
            return
        with self._cond:
            self._view, self._at = view, time.monotonic()
            self.received += 1
            self._cond.notify_all()

    def _on_event(self, event: LinkEvent) -> None:
        with self._cond:
            if event.kind in ("connected", "disconnected"):
                self.connected = event.kind == "connected"
            self._cond.notify_all()

    def view(self) -> TableSnapshot | None:
        """The table now: the last view received, its countdowns running (None before
        the first)."""
        with self._cond:
            view, gone = self._view, time.monotonic() - self._at
        if view is None:
            return None
        return dataclasses.replace(
            view,
            betting_seconds=_less(view.betting_seconds, gone),
            decision_seconds=_less(view.decision_seconds, gone),
        )

    def wait_for(
        self, predicate: Callable[[TableSnapshot], bool], timeout: float
    ) -> TableSnapshot | None:
        """Block until a view satisfies ``predicate`` (returned) or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._view is None or not predicate(self._view):
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return self._view


def _less(seconds: float | None, gone: float) -> float | None:
    return None if seconds is None else max(0.0, seconds - gone)


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
