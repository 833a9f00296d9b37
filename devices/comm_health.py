"""Communication health of one serial link, shared by the drivers.

Counts consecutive failed exchanges (bad CRC, garbage, partial frames, silence).  At
``threshold`` failures in a row it reports a ``comm_error`` event once (a tilt); the
first good exchange after that reports it cleared.
"""

from __future__ import annotations

from collections.abc import Callable

from devices.host import EventKind

#: ``emit(kind, detail, active=...)``, as the drivers' own event helper.
Emit = Callable[..., None]


class CommHealth:
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
                EventKind.COMM_ERROR, f"{self.consecutive_failures} consecutive {self._what}"
            )

    def success(self) -> None:
        """One good exchange; clears ``comm_error`` if it was raised."""
        self.consecutive_failures = 0
        if self.lost:
            self.lost = False
            self._emit(EventKind.COMM_ERROR, "communication restored", active=False)
