"""The PIN pad's lock: :data:`MAX_FAILURES` wrong PINs in a row lock it for
:data:`LOCK_DURATION`.

The count and the lock are rebuilt at power-up from the recorded events
(a right PIN: ``operator_login``, ``ram_clear_witnessed``; a wrong one:
``operator_login_failed``; ``operator_lockout``), so a power cycle neither resets the count
nor lifts the lock.  Times are the cabinet clock's (UTC).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from kiosk.ledger.records import EventRecord

#: Wrong PINs in a row that lock the PIN pad.
MAX_FAILURES = 5
#: How long the PIN pad stays locked.
LOCK_DURATION = timedelta(minutes=15)
#: The event kinds the lock is rebuilt from.
LOCK_EVENTS = (
    "operator_login",
    "ram_clear_witnessed",
    "operator_login_failed",
    "operator_lockout",
)


def parse_stamp(stamp: str) -> datetime:
    """A ledger time stamp (``2025-03-01T12:00:00.123Z``) as an aware datetime."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


class PinLockout:
    """Consecutive wrong PINs and the lock they set.  Invariant: ``failures`` is below
    :data:`MAX_FAILURES`; a lock sets ``until`` and restarts the count."""

    def __init__(self) -> None:
        self.failures = 0
        self.until: datetime | None = None

    def restore(self, events: Iterable[EventRecord]) -> None:
        """Rebuild from the last :data:`LOCK_EVENTS` events, oldest first."""
        self.failures, self.until = 0, None
        for ev in events:
            if ev.kind in ("operator_login", "ram_clear_witnessed"):
                self.failures = 0
            elif ev.kind == "operator_login_failed":
                self.failures = min(self.failures + 1, MAX_FAILURES - 1)
            elif ev.kind == "operator_lockout":
                self.failures = 0
                self.until = parse_stamp(ev.at) + LOCK_DURATION

    def locked_until(self, now: datetime) -> datetime | None:
        """When the lock ends, while it holds at ``now``; else None."""
        if self.until is not None and now >= self.until:
            self.until = None
        return self.until

    def failed(self, now: datetime) -> bool:
        """Count a wrong PIN at ``now``; True when it locks the PIN pad."""
        self.failures += 1
        if self.failures < MAX_FAILURES:
            return False
        self.failures, self.until = 0, now + LOCK_DURATION
        return True

    def succeeded(self) -> None:
        """A right PIN: the count starts again."""
        self.failures = 0
