"""A serial port that vanished: when to try reopening it, and which failures to log.

A port is *lost* when the OS fails a read, a write or a buffer query on it (EIO after the
USB cable is pulled, the device node removed, a pseudo-terminal whose master closed).  The
poller then closes it and retries opening it on a back-off: the first attempt
``ReopenPolicy.first`` seconds after the loss, each later one after twice the previous
interval, never more than ``ReopenPolicy.longest`` seconds apart.

Logging stays bounded however long the port stays away: the loss is one line, a failed
reopen is worth a line only when its reason differs from the last one logged, the reopen
is one line.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ReopenPolicy:
    """Back-off of reopen attempts, in seconds (``0 < first <= longest``)."""

    first: float = 0.5
    longest: float = 1.0

    def __post_init__(self) -> None:
        if not 0 < self.first <= self.longest:
            raise ValueError(f"reopen back-off needs 0 < first <= longest, got {self}")


class PortLoss:
    """One absence of a port, from the failure that closed it until it is reopened.

    ``reason`` says what failed (``"read failed: [Errno 5] Input/output error"``);
    ``since`` and every ``now`` are :func:`time.monotonic` seconds.
    """

    def __init__(self, reason: str, policy: ReopenPolicy, since: float) -> None:
        self.reason = reason
        self.since = since
        self.attempts = 0
        self._policy = policy
        self._interval = policy.first
        self._next_attempt = since + policy.first
        self._last_logged: str | None = None

    def due(self, now: float) -> bool:
        """True once the next reopen attempt may be made."""
        return now >= self._next_attempt

    def failed(self, error: str, now: float) -> bool:
        """A reopen attempt failed with ``error``: schedule the next one.  True when the
        error differs from the last one logged (it deserves one log line)."""
        self.attempts += 1
        self._interval = min(self._interval * 2, self._policy.longest)
        self._next_attempt = now + self._interval
        if error == self._last_logged:
            return False
        self._last_logged = error
        return True

    def absent_for(self, now: float) -> float:
        """Seconds since the port was lost."""
        return now - self.since
