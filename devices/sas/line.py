"""The SAS line as (byte, wakeup) pairs: the :class:`WakeupLine` protocol and the
pseudo-terminal transport.

Both the machine's responder and the technician's host talk through a
:class:`WakeupLine`; :mod:`devices.sas.uart` implements it on a real UART,
:class:`PtyLine` on one end of a pseudo-terminal.  A pty carries 8-bit bytes only, so the
wakeup bit travels in the marked encoding of :mod:`devices.sas.marks` (``FF 00 b`` for a
byte with the wakeup bit, ``FF FF`` for a plain ``FF``), the same bytes Linux gives the
reader of a UART in space parity with ``INPCK | PARMRK``.  Either end of the pty may be
the machine: the framing is the same both ways.

Threading: one thread reads a line, any thread may send (a send is one ``write``).
"""

from __future__ import annotations

import errno
import os
import select
import time
import tty
from typing import Protocol

from devices.sas.marks import Item, MarkDecoder, encode_message


class LineClosed(OSError):
    """The other end went away (the pty was closed, the UART vanished)."""


class WakeupLine(Protocol):
    """A serial line that carries the SAS wakeup bit."""

    name: str

    def send(self, data: bytes, wakeup_first: bool = False) -> None:
        """Send ``data`` in one go, the wakeup bit on its first byte when
        ``wakeup_first`` (a host's address byte, a machine's chirp)."""
        ...

    def receive(self, timeout: float) -> list[Item]:
        """Wait up to ``timeout`` seconds for bytes; return what came, as (byte, wakeup)
        pairs (empty when nothing did).  Raises :class:`LineClosed` when the line is gone."""
        ...

    def fileno(self) -> int: ...

    def close(self) -> None: ...


class PtyLine:
    """One end of a pseudo-terminal (a master descriptor, or a slave path opened raw) as
    a :class:`WakeupLine` in the marked encoding."""

    def __init__(self, fd: int, name: str = "pty", *, owned: bool = True) -> None:
        self.name = name
        self._fd = fd
        self._owned = owned
        self._decoder = MarkDecoder()
        os.set_blocking(fd, False)

    @classmethod
    def open(cls, path: str) -> PtyLine:
        """Open the pty slave at ``path`` raw (no echo, no translation)."""
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        try:
            tty.setraw(fd)
        except BaseException:
            os.close(fd)
            raise
        return cls(fd, path)

    def fileno(self) -> int:
        return self._fd

    def send(self, data: bytes, wakeup_first: bool = False) -> None:
        self.write_raw(encode_message(data, wakeup_first))

    def write_raw(self, raw: bytes) -> None:
        """Write already-encoded bytes (whole: a short write is continued)."""
        view = memoryview(raw)
        deadline = time.monotonic() + 1.0
        while view:
            try:
                n = os.write(self._fd, view)
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise LineClosed(errno.EIO, f"{self.name}: nobody reads the line") from None
                select.select([], [self._fd], [], 0.01)
                continue
            except OSError as exc:
                raise LineClosed(exc.errno, f"{self.name}: {exc.strerror}") from None
            view = view[n:]

    def receive(self, timeout: float) -> list[Item]:
        try:
            ready, _, _ = select.select([self._fd], [], [], max(0.0, timeout))
        except (OSError, ValueError) as exc:
            raise LineClosed(errno.EBADF, f"{self.name}: {exc}") from None
        if not ready:
            return []
        try:
            data = os.read(self._fd, 4096)
        except BlockingIOError:
            return []
        except OSError as exc:
            if exc.errno == errno.EIO:  # the other end is closed (for now)
                raise LineClosed(exc.errno, f"{self.name}: the other end is closed") from None
            raise LineClosed(exc.errno, f"{self.name}: {exc.strerror}") from None
        if not data:
            raise LineClosed(errno.EIO, f"{self.name}: end of file")
        return self._decoder.feed(data)

    def close(self) -> None:
        if self._owned and self._fd >= 0:
            try:
                os.close(self._fd)
            except OSError:
                pass
        self._fd = -1


class PtyPair:
    """A pseudo-terminal for the test transport: ``port`` is the slave path a machine (or a
    host) opens like a serial port; :attr:`line` is the master end.  The slave stays open
    while the pair lives, so the path survives the other side closing and reopening it."""

    def __init__(self) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        tty.setraw(self._master)
        self.port: str = os.ttyname(self._slave)
        self.line = PtyLine(self._master, f"master of {self.port}", owned=False)

    def close(self) -> None:
        """Close both ends: the other side's next read fails (the cable is pulled)."""
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self._master = self._slave = -1

    def __enter__(self) -> PtyPair:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
