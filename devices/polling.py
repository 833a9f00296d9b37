"""One serial port and the thread that polls the device on it.

Every driver is a :class:`PolledDriver` around one :class:`SerialPoller` and keeps only its
protocol.  The poller owns:

* the pyserial port, opened 8 data bits, 1 stop bit, with the driver's baud rate and parity
  and a short read timeout (reads return at once when bytes arrive, else after
  :data:`READ_SLICE` seconds); drivers loop on their own deadlines;
* one reentrant lock, held by the driver around each exchange so that the polling thread
  and callers on other threads never interleave on the wire;
* the polling thread, its stop event and its interval (seconds);
* the exception policy: the poll function may raise; an exception of a type in
  ``reported`` was already turned into an event by the driver and is ignored, any other is
  logged with its traceback; the loop never dies;
* the port's disappearance: an OS error on a read, a write or a buffer query (EIO, the
  device node gone) closes the port, is logged once and reported to the driver's
  ``on_lost``; :meth:`SerialPoller.recover` then reopens it on the back-off of
  :mod:`devices.port_loss`.  While the port is lost, reads and writes fail at once without
  touching the OS and without logging.
"""

from __future__ import annotations

import logging
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, Self

import serial

from devices.port_loss import PortLoss, ReopenPolicy
from devices.serialport import open_serial

#: serial read timeout (seconds) of every driver's port
READ_SLICE = 0.01

#: what pyserial and the OS raise when a port fails (``termios.error`` is no OSError)
PORT_ERRORS: tuple[type[Exception], ...] = (serial.SerialException, OSError, termios.error)

#: how long (seconds) :meth:`SerialPoller.stop` waits for the thread to end
_JOIN_TIMEOUT = 5.0


@dataclass(frozen=True, slots=True)
class PortOptions:
    """How a driver's port is opened and its thread polls.

    ``baudrate`` and ``parity`` are the line settings; ``wait_first`` makes the thread wait
    one interval before its first poll (for a driver whose ``open`` already talked to the
    device); ``reported`` are the exception types the loop ignores; ``reopen`` is the
    back-off of reopen attempts after the port was lost.
    """

    baudrate: int = 9600
    parity: str = serial.PARITY_EVEN
    wait_first: bool = False
    reported: tuple[type[Exception], ...] = ()
    reopen: ReopenPolicy = ReopenPolicy()


class PollingConfig(Protocol):
    """The settings every driver's configuration has."""

    @property
    def device_name(self) -> str:
        """Name of the device in events, log lines and the thread's name."""
        ...

    @property
    def poll_interval(self) -> float:
        """Seconds between two polls of the thread."""
        ...


class SerialPoller:
    """The port at ``path`` and a thread calling ``poll`` every ``config.poll_interval``
    seconds.

    ``config.device_name`` prefixes log lines; the thread is named ``protocol-device_name``.
    The port is opened by :meth:`open` (and, once lost, by :meth:`recover`); :meth:`start`
    does not open it.  ``on_lost(detail)`` is called, with the lock held, each time the
    port is lost; ``detail`` names the port and the error.
    """

    def __init__(
        self,
        path: str,
        poll: Callable[[], object],
        config: PollingConfig,
        *,
        protocol: str,
        log: logging.Logger,
        options: PortOptions = PortOptions(),
        on_lost: Callable[[str], None] | None = None,
    ) -> None:
        self.path = path
        self.name = config.device_name
        self.interval = config.poll_interval
        self.lock = threading.RLock()
        self._poll = poll
        self._thread_name = f"{protocol}-{self.name}"
        self._log = log
        self._options = options
        self._on_lost = on_lost
        self._serial: serial.Serial | None = None
        self._loss: PortLoss | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    # ------------------------------------------------------------------ port

    @property
    def is_open(self) -> bool:
        """True while the port is open."""
        return self._serial is not None

    @property
    def lost(self) -> bool:
        """True from the failure that closed the port until it is open again."""
        return self._loss is not None

    def open(self) -> bool:
        """Open the port and drop any stale input; True if it was closed before.  Raises
        what pyserial raises when the port cannot be opened."""
        with self.lock:
            if self._serial is not None:
                return False
            self._serial = self._open_port()
            self._loss = None
            return True

    def recover(self) -> bool:
        """Reopen a lost port once its back-off has elapsed; True when the port is open.

        Never raises: a failed attempt schedules the next one (logged only when its reason
        changes).  A port never opened, or closed by :meth:`close`, stays closed.
        """
        with self.lock:
            if self._serial is not None:
                return True
            loss, now = self._loss, time.monotonic()
            if loss is None or not loss.due(now):
                return False
            try:
                self._serial = self._open_port()
            except PORT_ERRORS as exc:
                if loss.failed(str(exc), now):
                    self._log.info("%s: %s not back yet: %s", self.name, self.path, exc)
                return False
            self._loss = None
            self._log.warning(
                "%s: port %s reopened after %.1f s (%d failed attempts)",
                self.name,
                self.path,
                loss.absent_for(now),
                loss.attempts,
            )
            return True

    def close(self) -> None:
        """Stop the thread and close the port (a lost port is no longer reopened)."""
        self.stop()
        with self.lock:
            self._loss = None
            if self._serial is not None:
                _close_quietly(self._serial)
                self._serial = None

    def write(self, data: bytes) -> bool:
        """Send ``data`` and flush; False if the port refused it (a write timeout is
        logged, any other failure loses the port)."""
        with self.lock:
            port = self._live_port()
            if port is None:
                return False
            try:
                port.write(data)
                port.flush()
            except serial.SerialTimeoutException as exc:
                self._log.warning("%s: write failed: %s", self.name, exc)
                return False
            except PORT_ERRORS as exc:
                self._lose("write", exc)
                return False
            return True

    def read_some(self) -> bytes | None:
        """What arrives within one read slice (maybe nothing); None when the port failed
        (it is then lost) or is lost."""
        with self.lock:
            port = self._live_port()
            if port is None:
                return None
            try:
                return bytes(port.read(max(1, port.in_waiting)))
            except PORT_ERRORS as exc:
                self._lose("read", exc)
                return None

    def drain(self) -> bytes:
        """Every byte already waiting in the input buffer, without waiting for more
        (nothing when the port failed or is lost)."""
        with self.lock:
            port = self._live_port()
            if port is None:
                return b""
            try:
                waiting = port.in_waiting
                return bytes(port.read(waiting)) if waiting else b""
            except PORT_ERRORS as exc:
                self._lose("drain", exc)
                return b""

    def _open_port(self) -> serial.Serial:
        options = self._options
        port = open_serial(
            self.path, baudrate=options.baudrate, parity=options.parity, timeout=READ_SLICE
        )
        try:
            port.reset_input_buffer()
        except PORT_ERRORS:
            _close_quietly(port)
            raise
        return port

    def _live_port(self) -> serial.Serial | None:
        """The open port; None while it is lost."""
        if self._serial is None:
            assert self._loss is not None, "open() first"
        return self._serial

    def _lose(self, what: str, exc: Exception) -> None:
        """The port failed: close it, log once, tell the driver, start the back-off."""
        port, self._serial = self._serial, None
        if port is not None:
            _close_quietly(port)
        reason = f"{what} failed: {exc}"
        self._loss = PortLoss(reason, self._options.reopen, time.monotonic())
        self._log.warning(
            "%s: port %s lost (%s); closed, reopening after %.1f s, then every %.1f s at most",
            self.name,
            self.path,
            reason,
            self._options.reopen.first,
            self._options.reopen.longest,
        )
        if self._on_lost is not None:
            self._on_lost(f"port {self.path} lost: {reason}")

    # ------------------------------------------------------------------ thread

    @property
    def running(self) -> bool:
        """True while the polling thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Start the polling thread (nothing happens if it already runs)."""
        if self.running:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=self._thread_name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the polling thread (the port stays open).  Safe from the thread itself."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=_JOIN_TIMEOUT)
        self._thread = None

    def _run(self) -> None:
        if self._options.wait_first and self._stop.wait(self.interval):
            return
        while not self._stop.is_set():
            try:
                self._poll()
            except self._options.reported:
                pass
            except Exception:  # never let the poll loop die
                self._log.exception("%s: unexpected error in poll loop", self.name)
            self._stop.wait(self.interval)


class PolledDriver:
    """Base class of the drivers: open, close, start, stop and ``with`` over one poller.

    The base holds only ``self.port`` (the port's path) and ``self._poller``, through which
    subclasses reach the lock and the wire; the poller's ``poll`` is the subclass's
    :meth:`_poll`.  Subclasses extend :meth:`open` to talk to the device once the port is
    open, and :meth:`start` where polling needs an open port.
    """

    def __init__(self, poller: SerialPoller) -> None:
        self.port = poller.path
        self._poller = poller

    def _poll(self) -> None:
        """One poll of the thread."""
        raise NotImplementedError

    def open(self) -> None:
        """Open the serial port."""
        self._poller.open()

    def close(self) -> None:
        """Stop polling and close the port."""
        self._poller.close()

    def start(self) -> None:
        """Poll every poll interval in a thread."""
        self._poller.start()

    def stop(self) -> None:
        """Stop the polling thread (the port stays open)."""
        self._poller.stop()

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _close_quietly(port: serial.Serial) -> None:
    try:
        port.close()
    except PORT_ERRORS:
        pass
