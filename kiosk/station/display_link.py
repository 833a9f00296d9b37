"""The dealer display's end of the table host's display link: its own pairing (``uth
table pair --display``), TLS with the host's certificate pinned as a station's; it reads
the table as the host sends it (:class:`~kiosk.service.display.TableSnapshot`, refused
with a log line when it does not parse) and counts its countdowns down since it arrived.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable

from kiosk.link.client import LinkClient
from kiosk.link.events import Inbound, LinkEvent
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import Snapshot
from kiosk.link.pairing import StationPairing
from kiosk.service.display import TableSnapshot
from kiosk.service.wire import from_json

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
