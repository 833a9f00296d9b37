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
  logged with its traceback; the loop never dies.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, Self

import serial

from devices.serialport import open_serial

#: serial read timeout (seconds) of every driver's port
READ_SLICE = 0.01

#: how long (seconds) :meth:`SerialPoller.stop` waits for the thread to end
_JOIN_TIMEOUT = 5.0


@dataclass(frozen=True, slots=True)
class PortOptions:
    """How a driver's port is opened and its thread polls.

    ``baudrate`` and ``parity`` are the line settings; ``wait_first`` makes the thread wait
    one interval before its first poll (for a driver whose ``open`` already talked to the
    device); ``reported`` are the exception types the loop ignores.
    """

    baudrate: int = 9600
    parity: str = serial.PARITY_EVEN
    wait_first: bool = False
    reported: tuple[type[Exception], ...] = ()


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
    The port is opened by :meth:`open` only; :meth:`start` does not open it.
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
    ) -> None:
        self.path = path
        self.name = config.device_name
        self.interval = config.poll_interval
        self.lock = threading.RLock()
        self._poll = poll
        self._thread_name = f"{protocol}-{self.name}"
        self._log = log
        self._options = options
        self._serial: serial.Serial | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    # ------------------------------------------------------------------ port

    @property
    def is_open(self) -> bool:
        """True while the port is open."""
        return self._serial is not None

    def open(self) -> bool:
        """Open the port and drop any stale input; True if it was closed before."""
        with self.lock:
            if self._serial is not None:
                return False
            options = self._options
            self._serial = open_serial(
                self.path, baudrate=options.baudrate, parity=options.parity, timeout=READ_SLICE
            )
            self._serial.reset_input_buffer()
            return True

    def close(self) -> None:
        """Stop the thread and close the port."""
        self.stop()
        with self.lock:
            if self._serial is not None:
                self._serial.close()
                self._serial = None

    def write(self, data: bytes) -> bool:
        """Send ``data`` and flush; False (logged) if the port refused it."""
        port = self._port()
        try:
            port.write(data)
            port.flush()
        except (serial.SerialException, OSError) as exc:
            self._log.warning("%s: write failed: %s", self.name, exc)
            return False
        return True

    def read_some(self) -> bytes | None:
        """What arrives within one read slice (maybe nothing); None (logged) on a read error."""
        port = self._port()
        try:
            return bytes(port.read(max(1, port.in_waiting)))
        except (serial.SerialException, OSError) as exc:
            self._log.warning("%s: read failed: %s", self.name, exc)
            return None

    def drain(self) -> bytes:
        """Every byte already waiting in the input buffer, without waiting for more."""
        port = self._port()
        waiting = port.in_waiting
        return bytes(port.read(waiting)) if waiting else b""

    def _port(self) -> serial.Serial:
        assert self._serial is not None, "open() first"
        return self._serial

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
