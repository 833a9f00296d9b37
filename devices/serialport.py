"""Open a serial port (a real UART or a pseudo-terminal) the way each protocol wants."""

from __future__ import annotations

import errno
import os
import termios

import serial

#: Linux major numbers of Unix98 pseudo-terminal slaves (/dev/pts/N).
_PTY_SLAVE_MAJORS = range(136, 144)


def is_pty(fd: int) -> bool:
    """True if ``fd`` is a pseudo-terminal slave."""
    try:
        return os.major(os.fstat(fd).st_rdev) in _PTY_SLAVE_MAJORS
    except OSError:
        return False


class TolerantSerial(serial.Serial):
    """``serial.Serial`` that accepts a pseudo-terminal refusing parity.

    A pty has no UART, so parity means nothing on it; some kernels silently drop PARENB,
    others answer EINVAL when parity is the only change (e.g. on the second open of the same
    pty).  On a pty, and only there, the settings are then applied without parity.
    """

    def _reconfigure_port(self, force_update: bool = False) -> None:
        try:
            super()._reconfigure_port(force_update)
        except termios.error as exc:
            if exc.args[0] != errno.EINVAL or self.fd is None or not is_pty(self.fd):
                raise
            wanted = self.parity
            self._parity = serial.PARITY_NONE
            try:
                super()._reconfigure_port(force_update)
            finally:
                self._parity = wanted


def open_serial(
    port: str,
    *,
    baudrate: int = 9600,
    parity: str = serial.PARITY_EVEN,
    timeout: float = 0.1,
) -> serial.Serial:
    """Open ``port`` 8 data bits, 1 stop bit, the given baud rate and parity.

    ``timeout`` (seconds) is the read timeout; drivers set it once and loop on their own
    deadlines (changing it later reconfigures the port).
    """
    return TolerantSerial(
        port,
        baudrate=baudrate,
        bytesize=serial.EIGHTBITS,
        parity=parity,
        stopbits=serial.STOPBITS_ONE,
        timeout=timeout,
        write_timeout=1.0,
        xonxoff=False,
        rtscts=False,
        dsrdtr=False,
    )
