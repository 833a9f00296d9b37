"""systemd's notify protocol (``sd_notify``) in a few lines, no dependency.

``Type=notify`` services send ``READY=1`` once up and, with ``WatchdogSec=``, a
``WATCHDOG=1`` at least every half of ``$WATCHDOG_USEC`` -- from the main loop, so a hung
frame gets the kiosk restarted.  Outside systemd (no ``$NOTIFY_SOCKET``) every call is a
no-op.
"""

from __future__ import annotations

import os
import socket
import time


def notify(message: str) -> bool:
    """Send ``message`` (e.g. ``"READY=1"``) to ``$NOTIFY_SOCKET``; False when there is none."""
    addr = os.environ.get("NOTIFY_SOCKET")
    if not addr:
        return False
    if addr.startswith("@"):  # abstract namespace
        addr = "\0" + addr[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as s:
            s.connect(addr)
            s.sendall(message.encode())
        return True
    except OSError:
        return False


class Watchdog:
    """Pings systemd's watchdog from the main loop at half the configured interval."""

    def __init__(self, clock=time.monotonic) -> None:
        usec = os.environ.get("WATCHDOG_USEC", "")
        pid = os.environ.get("WATCHDOG_PID", "")
        self.interval = int(usec) / 2e6 if usec.isdigit() and (not pid or pid == str(os.getpid())) else 0.0
        self.clock = clock
        self._last = 0.0

    @property
    def enabled(self) -> bool:
        return self.interval > 0

    def ping(self) -> None:
        if not self.interval:
            return
        now = self.clock()
        if now - self._last >= self.interval:
            self._last = now
            notify("WATCHDOG=1")


def ready(status: str = "") -> None:
    notify("READY=1" + (f"\nSTATUS={status}" if status else ""))


def stopping() -> None:
    notify("STOPPING=1")
