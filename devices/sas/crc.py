"""CRC-16/KERMIT: the CCITT polynomial x^16+x^12+x^5+1 in its reflected form (0x8408),
seed 0, no final XOR; sent least significant byte first.  Check value of
``b"123456789"``: 0x2189."""

from __future__ import annotations

_POLY = 0x8408


def _table() -> tuple[int, ...]:
    out = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ _POLY if crc & 1 else crc >> 1
        out.append(crc)
    return tuple(out)


_TABLE = _table()


def crc16(data: bytes | bytearray, seed: int = 0) -> int:
    """The CRC of ``data`` continuing from ``seed`` (0..0xFFFF)."""
    crc = seed & 0xFFFF
    for byte in data:
        crc = (crc >> 8) ^ _TABLE[(crc ^ byte) & 0xFF]
    return crc


def crc_bytes(data: bytes | bytearray) -> bytes:
    """The two CRC bytes that follow ``data`` on the wire (least significant first)."""
    return crc16(data).to_bytes(2, "little")


def crc_ok(message: bytes | bytearray) -> bool:
    """Whether the last two bytes of ``message`` are the CRC of the rest."""
    return len(message) >= 3 and crc_bytes(message[:-2]) == bytes(message[-2:])
