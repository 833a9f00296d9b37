"""The station operator menu's requests to the table host, off the screen's thread.

:class:`OperatorLink` sends one operator message at a time over the station's
:class:`~kiosk.station.remote.RemoteTable` (only over its TLS link) and waits for the
host's answer on a worker thread; :meth:`OperatorLink.poll`, called by the screen each
frame, hands the answer (None when none came within ``timeout`` seconds, or the host
cannot be reached) to the callback given with the request, on the screen's thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from kiosk.link.messages import Body, OperatorReply, OperatorSession
from kiosk.station.remote import RemoteTable

Answer = OperatorSession | OperatorReply | None


class OperatorLink:
    """One operator request in flight at a time (thread-safe)."""

    def __init__(self, remote: RemoteTable, timeout: float = 5.0) -> None:
        self.remote = remote
        self.timeout = timeout
        self._lock = threading.Lock()
        self._busy = False
        self._done: list[tuple[Callable[[Answer], None], Answer]] = []

    @property
    def station(self) -> int:
        return self.remote.station

    @property
    def busy(self) -> bool:
        """A request waits for the host's answer."""
        with self._lock:
            return self._busy

    def submit(self, make: Callable[[int], Body], done: Callable[[Answer], None]) -> bool:
        """Send ``make(ref)`` and later call ``done(answer)`` from :meth:`poll`; False
        (nothing sent) while another request is in flight."""
        with self._lock:
            if self._busy:
                return False
            self._busy = True
        worker = threading.Thread(
            target=self._run, args=(make, done), name="station-operator", daemon=True
        )
        worker.start()
        return True

    def _run(self, make: Callable[[int], Body], done: Callable[[Answer], None]) -> None:
        answer: Answer = None
        try:
            if self.remote.connected:
                answer = self.remote.operator_request(make, self.timeout)
        finally:
            with self._lock:
                self._done.append((done, answer))
                self._busy = False

    def poll(self) -> None:
        """Hand the answers that arrived to their callbacks (the screen's thread)."""
        with self._lock:
            done, self._done = self._done, []
        for callback, answer in done:
            callback(answer)

    def wait(self, timeout: float) -> bool:
        """Block until no request is in flight or ``timeout`` seconds pass (tests); True
        when none is."""
        deadline = time.monotonic() + timeout
        while self.busy and time.monotonic() < deadline:
            time.sleep(0.005)
        return not self.busy
