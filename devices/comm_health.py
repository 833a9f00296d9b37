"""Communication health of one serial link, shared by the drivers.

Counts consecutive failed exchanges (bad CRC, garbage, partial frames, silence).  At
``threshold`` failures in a row it reports a ``comm_error`` event once (a tilt); the
first good exchange after that reports it cleared.  A port that vanished (the OS failed
it) is a failure that reports ``comm_error`` at once, whatever the count.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from devices.host import DeviceEventKind

#: ``emit(kind, detail, active=...)``, as the drivers' own event helper.
Emit = Callable[..., None]

T = TypeVar("T")


class CommHealth:
    """Consecutive failures of one link; ``lost`` while ``comm_error`` stands."""

    def __init__(self, threshold: int, emit: Emit, what: str) -> None:
        self.threshold = threshold
        self._emit = emit
        self._what = what  # e.g. "failed exchanges with /dev/ttyUSB0"
        self.consecutive_failures = 0
        self.lost = False

    def failure(self) -> None:
        """One failed exchange; raises ``comm_error`` at the threshold."""
        self.consecutive_failures += 1
        if not self.lost and self.consecutive_failures >= self.threshold:
            self.lost = True
            self._emit(
                DeviceEventKind.COMM_ERROR, f"{self.consecutive_failures} consecutive {self._what}"
            )

    def port_lost(self, detail: str) -> None:
        """The port itself failed (``detail`` says how): one failure that raises
        ``comm_error`` now, not at the threshold."""
        self.consecutive_failures = max(self.consecutive_failures + 1, self.threshold)
        if not self.lost:
            self.lost = True
            self._emit(DeviceEventKind.COMM_ERROR, detail)

    def success(self) -> None:
        """One good exchange; clears ``comm_error`` if it was raised."""
        self.consecutive_failures = 0
        if self.lost:
            self.lost = False
            self._emit(DeviceEventKind.COMM_ERROR, "communication restored", active=False)

    def exchange(
        self,
        attempts: int,
        send: Callable[[], bool],
        receive: Callable[[], T | None],
        on_retry: Callable[[int], None] | None = None,
    ) -> T | None:
        """Up to ``attempts`` times: ``send`` (False = not sent), then ``receive`` (None =
        no usable answer).  Each failed attempt counts as a failure, the first answer as a
        success and is returned; None when every attempt failed.  ``on_retry(attempt)`` is
        called before each attempt after the first (``attempt`` counts from 1)."""
        for attempt in range(attempts):
            if attempt and on_retry is not None:
                on_retry(attempt)
            if send():
                answer = receive()
                if answer is not None:
                    self.success()
                    return answer
            self.failure()
        return None
