"""CRC-16/KERMIT, the ID-003 frame check.

Polynomial 0x1021 processed LSB-first (reflected constant 0x8408), initial value 0, no final
XOR.  ID-003 sends it low byte first, computed over SYNC, LNG, CMD and DATA.
"""

from __future__ import annotations


def _make_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
        table.append(crc)
    return tuple(table)


_TABLE = _make_table()


def crc16_kermit(data: bytes) -> int:
    """Return the CRC-16/KERMIT of ``data`` as an int 0..0xFFFF."""
    crc = 0
    for byte in data:
        crc = (crc >> 8) ^ _TABLE[(crc ^ byte) & 0xFF]
    return crc


def crc_bytes(data: bytes) -> bytes:
    """The two CRC bytes to append to ``data``: low byte first."""
    crc = crc16_kermit(data)
    return bytes((crc & 0xFF, crc >> 8))
