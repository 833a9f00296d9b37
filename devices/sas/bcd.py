"""Packed binary-coded decimal: two digits a byte, most significant first."""

from __future__ import annotations


class BcdError(ValueError):
    """Bytes that are not packed BCD (a nibble above 9)."""


def to_bcd(value: int, size: int) -> bytes:
    """``value`` (>= 0) as ``size`` bytes of BCD, keeping its lowest ``2 * size`` digits
    (a meter rolls over, as SAS meters do)."""
    if value < 0:
        raise ValueError(f"BCD holds no negative number ({value})")
    digits = f"{value % 10 ** (2 * size):0{2 * size}d}"
    return bytes.fromhex(digits)


def from_bcd(data: bytes | bytearray) -> int:
    """The number in packed BCD ``data``; raises :class:`BcdError` on a nibble above 9."""
    text = bytes(data).hex()
    if text and not text.isdigit():
        raise BcdError(f"not BCD: {text}")
    return int(text) if text else 0


def bcd_digits(data: bytes | bytearray) -> str:
    """The decimal digits of ``data`` as text, leading zeros kept; :class:`BcdError` on a
    nibble above 9."""
    text = bytes(data).hex()
    if not text.isdigit():
        raise BcdError(f"not BCD: {text}")
    return text
