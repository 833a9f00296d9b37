"""The SAS line on a real UART: 19,200 baud, 8 data bits, the wakeup bit as the parity
bit, 1 stop bit.

Linux sets the parity bit to a fixed value with ``CMSPAR`` ("stick" parity): with
``PARENB | CMSPAR`` the bit is 0 (space), with ``PARENB | CMSPAR | PARODD`` it is 1
(mark).  The line is kept in space parity; a byte that must carry the wakeup bit (a
host's address byte, a machine's chirp) is sent after switching to mark parity, the
output is drained (``tcdrain``), and the line goes back to space parity.  On receive, in
space parity, a byte whose 9th bit is 1 is a parity error; with ``INPCK | PARMRK`` (and
``IGNPAR``, ``ISTRIP`` clear) the kernel marks it ``FF 00 b`` and doubles a real ``FF``,
which :class:`devices.sas.marks.MarkDecoder` reads back.  pyserial opens the port
(``parity=N``: it knows no stick parity), then ``termios`` adds these flags.

:func:`open_line` opens either kind: a pseudo-terminal slave gets the test transport
(:class:`devices.sas.line.PtyLine`), anything else a :class:`UartLine`.
"""

from __future__ import annotations

import os
import termios
from dataclasses import dataclass, field

import serial

from devices.sas.line import LineClosed, PtyLine, WakeupLine
from devices.sas.marks import Item, MarkDecoder
from devices.serialport import is_pty

BAUD = 19_200
#: ``termios.CMSPAR`` (stick parity), which Python's termios does not name.
CMSPAR = getattr(termios, "CMSPAR", 0o10000000000)
#: Seconds one character takes on the line (start, 8 data, wakeup, stop: 11 bits).
CHAR_S = 11 / BAUD


def _flags(fd: int, *, mark: bool) -> list:
    attrs = termios.tcgetattr(fd)
    attrs[2] |= termios.PARENB | CMSPAR
    if mark:
        attrs[2] |= termios.PARODD
    else:
        attrs[2] &= ~termios.PARODD
    attrs[0] |= termios.INPCK | termios.PARMRK
    attrs[0] &= ~(termios.IGNPAR | termios.ISTRIP | termios.IXON | termios.IXOFF)
    return attrs


class UartLine:
    """A UART (``/dev/ttyS*``, ``/dev/ttyUSB*``, ``/dev/serial/by-id/...``) as a
    :class:`~devices.sas.line.WakeupLine`."""

    def __init__(self, path: str, baudrate: int = BAUD) -> None:
        self.name = path
        self.serial = serial.Serial(
            path,
            baudrate=baudrate,
            bytesize=serial.EIGHTBITS,
            parity=serial.PARITY_NONE,
            stopbits=serial.STOPBITS_ONE,
            timeout=0,
            write_timeout=1.0,
        )
        self._fd = self.serial.fileno()
        self._decoder = MarkDecoder()
        self._space = _flags(self._fd, mark=False)
        self._mark = _flags(self._fd, mark=True)
        try:
            termios.tcsetattr(self._fd, termios.TCSANOW, self._space)
        except termios.error:  # a pty may refuse parity: keep the marking flags at least
            self._space[2] &= ~(termios.PARENB | CMSPAR)
            self._mark = self._space
            termios.tcsetattr(self._fd, termios.TCSANOW, self._space)

    def fileno(self) -> int:
        return self._fd

    def send(self, data: bytes, wakeup_first: bool = False) -> None:
        try:
            if wakeup_first and data:
                termios.tcsetattr(self._fd, termios.TCSADRAIN, self._mark)
                os.write(self._fd, data[:1])
                termios.tcdrain(self._fd)
                termios.tcsetattr(self._fd, termios.TCSANOW, self._space)
                data = data[1:]
            if data:
                self.serial.write(data)
        except (OSError, termios.error, serial.SerialException) as exc:
            raise LineClosed(5, f"{self.name}: {exc}") from None

    def receive(self, timeout: float) -> list[Item]:
        import select

        try:
            ready, _, _ = select.select([self._fd], [], [], max(0.0, timeout))
            if not ready:
                return []
            data = os.read(self._fd, 4096)
        except BlockingIOError:
            return []
        except (OSError, ValueError) as exc:
            raise LineClosed(5, f"{self.name}: {exc}") from None
        if not data:
            raise LineClosed(5, f"{self.name}: the port vanished")
        return self._decoder.feed(data)

    def close(self) -> None:
        try:
            self.serial.close()
        except (OSError, serial.SerialException):
            pass


def open_line(path: str) -> WakeupLine:
    """The line at ``path``: the pty test transport on a pseudo-terminal slave, else the
    UART.  Raises ``OSError`` (or ``serial.SerialException``) when it cannot be opened."""
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        pty = is_pty(fd)
    finally:
        os.close(fd)
    if pty:
        return PtyLine.open(path)
    return UartLine(path)


@dataclass
class ProbeReport:
    """What ``uth sas probe`` found on a port: each check with its verdict."""

    port: str
    checks: list[tuple[str, bool, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(ok for _, ok, _ in self.checks)

    def add(self, what: str, ok: bool, detail: str) -> None:
        self.checks.append((what, ok, detail))


def probe(path: str, loopback: bool = False) -> ProbeReport:
    """Check that the UART at ``path`` can carry the wakeup bit: 19,200 baud is taken,
    ``CMSPAR``, ``INPCK`` and ``PARMRK`` stick in both parities, and a plain ``FF`` comes
    back doubled by the kernel.  With ``loopback`` (TX wired to RX) a byte sent with the
    wakeup bit must come back marked and one without it plain."""
    report = ProbeReport(path)
    try:
        line = UartLine(path)
    except (OSError, serial.SerialException, termios.error) as exc:
        report.add("open at 19,200 8-N-1", False, str(exc))
        return report
    fd = line.fileno()
    try:
        report.add("open at 19,200 8-N-1", True, path)
        pty = is_pty(fd)
        for name, wanted in (("space", line._space), ("mark", line._mark)):
            try:
                termios.tcsetattr(fd, termios.TCSANOW, wanted)
            except termios.error as exc:
                why = " (a pseudo-terminal has no UART: the kernel refuses parity)" if pty else ""
                report.add(f"{name} parity", False, f"tcsetattr refused: {exc}{why}")
                continue
            got = termios.tcgetattr(fd)
            stick = bool(got[2] & CMSPAR)
            parenb = bool(got[2] & termios.PARENB)
            odd = bool(got[2] & termios.PARODD) == (name == "mark")
            marking = bool(got[0] & termios.PARMRK) and bool(got[0] & termios.INPCK)
            detail = (
                f"CMSPAR {stick}, PARENB {parenb}, PARODD as asked {odd}, INPCK+PARMRK {marking}"
            )
            if pty and not parenb:
                detail += " (a pseudo-terminal drops PARENB: it has no UART)"
            report.add(f"{name} parity", stick and odd and marking and parenb, detail)
        termios.tcsetattr(fd, termios.TCSANOW, line._space)
        got = termios.tcgetattr(fd)
        marking = bool(got[0] & termios.PARMRK) and bool(got[0] & termios.INPCK)
        report.add("parity marking (INPCK + PARMRK)", marking, "set" if marking else "refused")
        report.add("baud rate", termios.tcgetattr(fd)[4] == termios.B19200, "19,200")
        if loopback:
            line.receive(0.05)
            line.send(b"\x05", wakeup_first=True)
            line.send(b"\x06\xff")
            back: list[Item] = []
            for _ in range(20):
                back += line.receive(0.05)
                if len(back) >= 3:
                    break
            want = [(0x05, True), (0x06, False), (0xFF, False)]
            report.add("loopback wakeup bit", back == want, f"sent {want}, read {back}")
    except (OSError, termios.error) as exc:
        report.add("termios", False, str(exc))
    finally:
        line.close()
    return report
