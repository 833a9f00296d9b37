"""TCL printer status: the answer to ENQ (0x05) or ``^S|^``.

Wire format (FutureLogic GEN2/GEN5 style)::

    *S|<unit address>|<firmware>|<f1>|<f2>|<f3>|<f4>|<f5>|P<template>|*

``f1``..``f5`` are single bytes with bit 6 (0x40) always set and flags in bits 0..5, so
they are printable; a flag byte may equal ``|`` (0x7C) but never ``*`` (0x2A), which is why
the response is parsed by position, not split on ``|``.  ``<template>`` is the id of the last
template printed (a space before the first).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntFlag

from devices.errors import StatusFormatError


class StatusFlag(IntFlag):
    """The five status bytes as one 40-bit flag set (byte n at bits 8*(n-1)..)."""

    NONE = 0
    # status byte 1
    VOLTAGE_ERROR = 0x01
    HEAD_ERROR = 0x02
    PAPER_OUT = 0x04
    HEAD_UP = 0x08  # platen up
    SYSTEM_ERROR = 0x10
    BUSY = 0x20
    # status byte 2
    JOB_MEMORY_OVERFLOW = 0x01 << 8
    BUFFER_OVERFLOW = 0x02 << 8
    LIBRARY_LOAD_ERROR = 0x04 << 8
    DATA_ERROR = 0x08 << 8  # print region / template data error
    LIBRARY_REF_ERROR = 0x10 << 8
    TEMPERATURE_ERROR = 0x20 << 8
    # status byte 3
    MISSING_SUPPLY_INDEX = 0x01 << 16
    OFFLINE = 0x02 << 16
    FLASH_ERROR = 0x04 << 16
    PAPER_IN_CHUTE = 0x08 << 16
    LIBRARIES_CORRUPT = 0x10 << 16
    COMMAND_ERROR = 0x20 << 16
    # status byte 4
    PAPER_LOW = 0x01 << 24
    PAPER_JAM = 0x02 << 24
    CUTTER_ERROR = 0x04 << 24
    JOURNAL_MODE = 0x08 << 24
    # status byte 5
    RESET = 0x01 << 32  # powered up / reset since flags were last cleared
    BARCODE_ACCESSED = 0x02 << 32
    CHASSIS_OPEN = 0x04 << 32
    XOFF = 0x08 << 32
    TOP_OF_FORM = 0x10 << 32
    VALIDATION_DONE = 0x20 << 32  # the validation number of the last ticket is printed


#: Flags that mean the printer cannot print until serviced.
FAILURE_FLAGS = (
    StatusFlag.VOLTAGE_ERROR
    | StatusFlag.HEAD_ERROR
    | StatusFlag.SYSTEM_ERROR
    | StatusFlag.TEMPERATURE_ERROR
    | StatusFlag.FLASH_ERROR
    | StatusFlag.LIBRARIES_CORRUPT
    | StatusFlag.CUTTER_ERROR
)


@dataclass(frozen=True, slots=True)
class PrinterStatus:
    """One decoded status response."""

    unit_address: str
    firmware: str
    flags: StatusFlag
    template: str = " "

    def has(self, flag: StatusFlag) -> bool:
        """True if every bit of ``flag`` is set."""
        return self.flags & flag == flag

    @property
    def busy(self) -> bool:
        return self.has(StatusFlag.BUSY)

    @property
    def validation_done(self) -> bool:
        return self.has(StatusFlag.VALIDATION_DONE)

    @property
    def failure(self) -> bool:
        """Any hardware failure flag (head, voltage, temperature, system, cutter...)."""
        return bool(self.flags & FAILURE_FLAGS)

    def describe(self) -> str:
        """Names of the set flags, e.g. ``BUSY|PAPER_LOW``, or ``OK``."""
        names = [f.name for f in StatusFlag if f and f.name and self.flags & f]
        return "|".join(names) or "OK"


def format_status(status: PrinterStatus) -> bytes:
    """The wire bytes of ``status`` (used by the simulator)."""
    flag_bytes = [0x40 | ((int(status.flags) >> (8 * i)) & 0x3F) for i in range(5)]
    head = f"*S|{status.unit_address}|{status.firmware}|".encode("ascii")
    body = b"|".join(bytes((b,)) for b in flag_bytes)
    return head + body + f"|P{status.template}|*".encode("ascii")


def parse_status(raw: bytes) -> PrinterStatus:
    """Decode one whole status response; raises :class:`StatusFormatError`."""
    if not raw.startswith(b"*S|") or not raw.endswith(b"|*"):
        raise StatusFormatError(f"not a status response: {raw!r}", raw)
    addr_end = raw.find(b"|", 3)
    fw_end = raw.find(b"|", addr_end + 1) if addr_end > 0 else -1
    if fw_end < 0:
        raise StatusFormatError(f"status response truncated: {raw!r}", raw)
    flags_at = fw_end + 1
    tail = raw[flags_at + 9 :]
    flag_bytes = raw[flags_at : flags_at + 9 : 2]
    separators = raw[flags_at + 1 : flags_at + 9 : 2]
    if len(flag_bytes) != 5 or separators != b"||||" or not tail.startswith(b"|P"):
        raise StatusFormatError(f"malformed status flags: {raw!r}", raw)
    if any(b & 0xC0 != 0x40 for b in flag_bytes):
        raise StatusFormatError(f"status flag byte without bit 6: {raw!r}", raw)
    template = tail[2:-2]
    try:
        address = raw[3:addr_end].decode("ascii")
        firmware = raw[addr_end + 1 : fw_end].decode("ascii")
        template_text = template.decode("ascii")
    except UnicodeDecodeError:
        raise StatusFormatError(f"non-ASCII status text: {raw!r}", raw) from None
    if b"|" in template or b"*" in template:
        raise StatusFormatError(f"malformed template field: {raw!r}", raw)
    value = 0
    for i, b in enumerate(flag_bytes):
        value |= (b & 0x3F) << (8 * i)
    return PrinterStatus(address, firmware, StatusFlag(value), template_text)
