"""The wakeup (9th) bit carried in a byte stream.

A 16550-style UART has no 9th data bit, so the SAS wakeup bit travels as the parity bit:
the receiver runs in *space* parity (``PARENB | CMSPAR``, ``PARODD`` clear) with parity
checking and marking on (``INPCK | PARMRK``, ``IGNPAR`` and ``ISTRIP`` clear).  A byte
whose 9th bit is 1 then fails the parity check and Linux hands the reader three bytes,
``FF 00 b``; a plain ``FF`` is doubled, ``FF FF``; every other byte is itself.

The pseudo-terminal test transport uses exactly this encoding in both directions (a pty
carries no parity), so one decoder reads a real UART and a pty alike:

=================  ======================
(byte, wakeup)     bytes on the pty
=================  ======================
(b, False), b<FF   b
(FF, False)        FF FF
(b, True)          FF 00 b
=================  ======================

An outside host speaks the test transport by writing its address byte as ``FF 00 addr``
and doubling any ``FF`` it sends, and by reading the machine's answer through the same
rule (the machine sets the wakeup bit only when it chirps).
"""

from __future__ import annotations

from collections.abc import Iterable

MARK = 0xFF
#: A received ``FF 00 00`` is what a UART reports for a break or a framing error.
BREAK = (0x00, True)

Item = tuple[int, bool]


def encode(items: Iterable[Item]) -> bytes:
    """The bytes that carry ``items`` ((byte, wakeup) pairs)."""
    out = bytearray()
    for byte, wakeup in items:
        if wakeup:
            out += bytes((MARK, 0x00, byte))
        elif byte == MARK:
            out += bytes((MARK, MARK))
        else:
            out.append(byte)
    return bytes(out)


def encode_message(data: bytes, wakeup_first: bool) -> bytes:
    """``data`` with the wakeup bit set on its first byte only when ``wakeup_first``."""
    return encode((b, wakeup_first and i == 0) for i, b in enumerate(data))


class MarkDecoder:
    """Turns the marked byte stream back into (byte, wakeup) pairs, across reads.

    An ``FF`` followed by anything but ``FF`` or ``00`` (which Linux never produces) is
    taken as two plain bytes, so a corrupted stream never stalls the decoder."""

    def __init__(self) -> None:
        self._state = 0  # 0: plain, 1: after FF, 2: after FF 00

    def feed(self, data: bytes) -> list[Item]:
        out: list[Item] = []
        for byte in data:
            if self._state == 0:
                if byte == MARK:
                    self._state = 1
                else:
                    out.append((byte, False))
            elif self._state == 1:
                if byte == MARK:
                    out.append((MARK, False))
                    self._state = 0
                elif byte == 0x00:
                    self._state = 2
                else:
                    out += [(MARK, False), (byte, False)]
                    self._state = 0
            else:
                out.append((byte, True))
                self._state = 0
        return out

    @property
    def pending(self) -> bool:
        """Whether a marked byte has started but not ended."""
        return self._state != 0
