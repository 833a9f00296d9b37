"""Identify the device on a serial port: a TCL printer or an ID-003 validator.

TCL is tried first (a single ENQ byte, which an ID-003 validator ignores because it waits
for its 0xFC sync byte), then ID-003 (a STATUS REQUEST and a VERSION REQUEST frame).
Nothing is reset, configured or printed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import serial

from devices.errors import StatusFormatError
from devices.id003.codes import Command, status_name
from devices.id003.frame import Frame, FrameDecoder, encode_frame
from devices.serialport import open_serial
from devices.tcl.commands import ENQ
from devices.tcl.status import parse_status


@dataclass(frozen=True, slots=True)
class ProbeResult:
    """What answered: ``protocol`` is ``"ID-003"`` or ``"TCL"``."""

    protocol: str
    model: str
    version: str
    state: str


def _read_until(port: serial.Serial, done, timeout: float) -> bytes:
    deadline = time.monotonic() + timeout
    data = bytearray()
    while time.monotonic() < deadline:
        data += port.read(max(1, port.in_waiting))
        if done(bytes(data)):
            break
    return bytes(data)


def probe_tcl(path: str, timeout: float = 0.5, baudrate: int = 9600) -> ProbeResult | None:
    """Send ENQ; a ``*S|...|*`` answer identifies a TCL printer."""
    with open_serial(path, baudrate=baudrate, parity=serial.PARITY_NONE, timeout=0.01) as port:
        port.reset_input_buffer()
        port.write(ENQ)

        def done(data: bytes) -> bool:
            start = data.find(b"*S|")
            return start >= 0 and data.find(b"*", start + 1) > 0

        data = _read_until(port, done, timeout)
    start = data.find(b"*S|")
    if start < 0:
        return None
    try:
        status = parse_status(data[start : data.find(b"*", start + 1) + 1])
    except StatusFormatError:
        return None
    state = "busy" if status.busy else "ready"
    return ProbeResult(
        "TCL", "TCL ticket printer", status.firmware, f"{state}: {status.describe()}"
    )


def _id003_exchange(port: serial.Serial, command: int, timeout: float) -> Frame | None:
    port.reset_input_buffer()
    port.write(encode_frame(command))
    decoder = FrameDecoder()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for item in decoder.feed(port.read(max(1, port.in_waiting))):
            if isinstance(item, Frame):
                return item
    return None


def probe_id003(path: str, timeout: float = 0.5) -> ProbeResult | None:
    """Send STATUS REQUEST then VERSION REQUEST; a framed answer identifies ID-003."""
    with open_serial(path, parity=serial.PARITY_EVEN, timeout=0.01) as port:
        status = _id003_exchange(port, Command.STATUS_REQUEST, timeout)
        if status is None:
            return None
        version = _id003_exchange(port, Command.VERSION_REQUEST, timeout)
    text = "unknown"
    if version is not None and version.command == Command.VERSION_REQUEST:
        text = version.data.decode("ascii", errors="replace").strip()
    return ProbeResult("ID-003", "JCM ID-003 bill validator", text, status_name(status.command))


def probe(path: str, timeout: float = 0.5) -> ProbeResult | None:
    """Identify the device on ``path``, or None if neither protocol answers."""
    return probe_tcl(path, timeout) or probe_id003(path, timeout)
