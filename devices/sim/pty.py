"""A device on the master side of a pseudo-terminal, served by a background thread."""

from __future__ import annotations

import errno
import logging
import os
import select
import threading
import time
import tty
from typing import Self

log = logging.getLogger("devices.sim")

#: seconds the thread waits while no driver holds the slave side open (reads fail then)
NO_READER_WAIT = 0.01


class PtyDevice:
    """Base class: subclasses implement :meth:`on_bytes` (and optionally :meth:`on_tick`).

    ``.port`` is the slave path the driver opens.  The slave descriptor stays open for the
    simulator's lifetime so the driver may close and reopen the port.  Use as a context
    manager, or call :meth:`start` / :meth:`stop`.

    :meth:`stop` is also the pulled cable: it closes the pty, so the driver's next read or
    write fails with EIO and the slave path disappears.  It may be called from the
    simulator's own thread (an ``on_state`` action, a scenario reacting to input).
    """

    #: how often (seconds) the thread wakes up when nothing arrives, for :meth:`on_tick`
    #: (None: only when bytes arrive or :meth:`stop` is called; an idle simulator then
    #: costs no CPU)
    tick: float | None = None

    def __init__(self) -> None:
        self._master, self._slave = os.openpty()
        self._wake_r, self._wake_w = os.pipe()  # stop() wakes the thread through it
        tty.setraw(self._slave)  # no echo, no CR/NL translation, until pyserial sets its own
        os.set_blocking(self._master, False)
        self.port: str = os.ttyname(self._slave)
        self.lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._silent_until = 0.0
        self._unplug_on_input = False
        self.bytes_in = 0
        self.bytes_out = 0

    def start(self) -> Self:
        """Start serving; returns self."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._run, name=f"sim-{type(self).__name__}", daemon=True
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close both ends of the pty (safe from the simulator thread)."""
        self._stop.set()
        try:
            os.write(self._wake_w, b"x")
        except OSError:  # stopped already
            pass
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5.0)
        self._thread = None
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._master = self._slave = self._wake_r = self._wake_w = -1

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def go_silent(self, milliseconds: float) -> None:
        """Ignore everything received (and answer nothing) for ``milliseconds``."""
        self._silent_until = time.monotonic() + milliseconds / 1000.0

    def unplug_on_next_input(self) -> None:
        """Close the pty (:meth:`stop`) when the driver next sends anything, without
        answering: the cable is pulled in the middle of an exchange."""
        self._unplug_on_input = True

    @property
    def silent(self) -> bool:
        """True while a :meth:`go_silent` period runs."""
        return time.monotonic() < self._silent_until

    def write(self, data: bytes) -> None:
        """Send ``data`` to the driver (dropped, with a log line, if the pty is full)."""
        if not data:
            return
        try:
            written = os.write(self._master, data)
            self.bytes_out += written
        except BlockingIOError:
            log.warning("%s: pty output full, dropped %d bytes", type(self).__name__, len(data))
        except OSError as exc:
            if exc.errno != errno.EBADF:
                log.warning("%s: write failed: %s", type(self).__name__, exc)

    def on_bytes(self, data: bytes) -> None:
        """Handle bytes from the driver (called on the simulator thread with ``lock`` held)."""
        raise NotImplementedError

    def on_tick(self) -> None:
        """Called on every wake-up with ``lock`` held; for time-driven behaviour."""

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self._master, self._wake_r], [], [], self.tick)
            except (OSError, ValueError):
                return
            data = b""
            if self._master in ready:
                try:
                    data = os.read(self._master, 4096)
                except BlockingIOError:
                    data = b""
                except OSError as exc:
                    if exc.errno == errno.EIO:  # no reader on the slave side at the moment
                        time.sleep(NO_READER_WAIT)
                        continue
                    return
            if data and self._unplug_on_input:
                self.stop()
                return
            with self.lock:
                try:
                    if data:
                        self.bytes_in += len(data)
                        if not self.silent:
                            self.on_bytes(data)
                    self.on_tick()
                except Exception:
                    log.exception("%s: simulator error", type(self).__name__)
