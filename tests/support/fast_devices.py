"""Driver settings for tests over simulated devices, a patient wait, a poll-by-poll drive,
a device path the test can make vanish, and a host that timestamps events.

Shared by tests/devices and tests/kiosk (``from support.fast_devices import ...``: the
folder of the root conftest.py is on the import path).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from devices.host import DeviceEvent, DeviceEventKind
from devices.id003 import BillValidator, ValidatorConfig
from devices.sim import RecordingHost
from devices.tcl import PrinterConfig

FAST_VALIDATOR = ValidatorConfig(poll_interval=0.02, response_timeout=0.4, comm_error_threshold=5)
FAST_PRINTER = PrinterConfig(
    poll_interval=0.02,
    response_timeout=0.25,
    busy_timeout=5.0,
    start_timeout=3.0,
    print_timeout=10.0,
)

#: an 18-digit ticket barcode the recording host redeems in the device tests
TICKET_BARCODE = "001234567890123456"


def wait_for(
    predicate: Callable[[], object], timeout: float = 15.0, interval: float = 0.01
) -> bool:
    """Poll ``predicate`` until true or ``timeout`` seconds pass; returns its last truth."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())


def never(event: Callable[[], object], within: float, interval: float = 0.005) -> bool:
    """Watch for ``event`` for ``within`` seconds: False as soon as it happens, True when
    it never came.  The "nothing happens later" check: it fails at the first sign of the
    event instead of sleeping and looking once."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if event():
            return False
        time.sleep(interval)
    return not event()


def poll_until(
    validator: BillValidator, predicate: Callable[[], object], max_polls: int = 60
) -> bool:
    """Drive a validator that is not started, one poll at a time, until ``predicate``."""
    for _ in range(max_polls):
        if predicate():
            return True
        validator.poll_once()
    return bool(predicate())


class PortLink:
    """A device path the test controls, like ``/dev/serial/by-id/...``: a symlink to a
    simulator's pty.  :meth:`point` re-points it atomically, :meth:`remove` makes the
    device node vanish."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __str__(self) -> str:
        return str(self.path)

    def point(self, target: str) -> None:
        """Make the path lead to ``target`` (a pty slave)."""
        fresh = self.path.with_name(self.path.name + ".new")
        fresh.unlink(missing_ok=True)
        os.symlink(target, fresh)
        os.replace(fresh, self.path)

    def remove(self) -> None:
        """The device node is gone: opening the path fails."""
        self.path.unlink(missing_ok=True)


@dataclass
class TimedHost(RecordingHost):
    """A :class:`RecordingHost` that also notes when (``time.monotonic()``) each event
    and each abort arrived."""

    event_times: list[tuple[float, DeviceEvent]] = field(default_factory=list)
    abort_times: list[tuple[float, str]] = field(default_factory=list)
    _times_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def device_event(self, event: DeviceEvent) -> None:
        super().device_event(event)
        with self._times_lock:
            self.event_times.append((time.monotonic(), event))

    def escrow_aborted(self, transaction_id: str, reason: str) -> None:
        super().escrow_aborted(transaction_id, reason)
        with self._times_lock:
            self.abort_times.append((time.monotonic(), reason))

    def first(
        self, kind: DeviceEventKind, *, active: bool = True, after: float = 0.0
    ) -> float | None:
        """When the first ``kind`` event with this ``active`` arrived after ``after``."""
        with self._times_lock:
            for at, event in self.event_times:
                if at >= after and event.kind is kind and event.active == active:
                    return at
        return None
