"""ID-003 framing: ``SYNC(0xFC) LNG CMD DATA... CRC_L CRC_H``.

LNG is the length of the whole frame, sync and CRC included (5 for a frame with no data).
:func:`encode_frame` builds frames; :class:`FrameDecoder` turns an arbitrary byte stream
(noise, partial frames, bad CRCs included) into frames and reports of what it threw away.
It never raises on input.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from devices.errors import CrcError, FrameLengthError
from devices.id003.crc import crc16_kermit, crc_bytes

SYNC = 0xFC
MIN_FRAME_LEN = 5
#: Longest frame we accept.  The longest real ID-003 frames (version strings, 28-digit
#: barcodes) are well under this; a larger LNG byte is treated as noise.
MAX_FRAME_LEN = 100


@dataclass(frozen=True, slots=True)
class Frame:
    """A frame with a good CRC.  ``command`` is the CMD byte (a command or a status)."""

    command: int
    data: bytes = b""

    def encode(self) -> bytes:
        """The frame's bytes on the wire."""
        return encode_frame(self.command, self.data)


class BadFrameReason(StrEnum):
    """Why the decoder discarded bytes."""

    NOISE = "noise"  # bytes before a sync byte
    BAD_LENGTH = "bad_length"  # LNG outside MIN_FRAME_LEN..MAX_FRAME_LEN
    BAD_CRC = "bad_crc"


@dataclass(frozen=True, slots=True)
class BadFrame:
    """Bytes the decoder threw away, and why."""

    reason: BadFrameReason
    raw: bytes


def encode_frame(command: int, data: bytes = b"") -> bytes:
    """Build a frame for ``command`` with ``data``; raises ValueError if too long."""
    if not 0 <= command <= 0xFF:
        raise ValueError(f"command byte out of range: {command}")
    length = MIN_FRAME_LEN + len(data)
    if length > 0xFF:
        raise ValueError(f"frame too long: {length} bytes")
    body = bytes((SYNC, length, command)) + bytes(data)
    return body + crc_bytes(body)


def decode_frame(raw: bytes) -> Frame:
    """Decode exactly one whole frame; raises :class:`FrameLengthError` or :class:`CrcError`."""
    if len(raw) < MIN_FRAME_LEN or raw[0] != SYNC or raw[1] != len(raw):
        raise FrameLengthError(f"not a whole frame: {raw.hex(' ')}", raw)
    crc = crc16_kermit(raw[:-2])
    if raw[-2] != crc & 0xFF or raw[-1] != crc >> 8:
        raise CrcError(f"CRC mismatch in {raw.hex(' ')} (expected {crc:04x})", raw)
    return Frame(raw[2], bytes(raw[3:-2]))


class FrameDecoder:
    """Incremental, resynchronising decoder.

    ``feed`` returns, in stream order, every :class:`Frame` completed and every
    :class:`BadFrame` discarded.  Bytes of an incomplete frame stay buffered (see
    :attr:`pending`).  On a bad length or CRC the decoder drops only the sync byte and
    rescans, so a good frame hidden behind garbage is still found.
    """

    def __init__(self, max_frame_len: int = MAX_FRAME_LEN) -> None:
        self._buf = bytearray()
        self._max = max_frame_len

    @property
    def pending(self) -> bytes:
        """Bytes received that do not yet form a frame (a partial frame or trailing noise)."""
        return bytes(self._buf)

    def reset(self) -> bytes:
        """Forget buffered bytes; returns what was dropped."""
        dropped = bytes(self._buf)
        self._buf.clear()
        return dropped

    def feed(self, data: bytes) -> list[Frame | BadFrame]:
        """Add ``data`` to the stream; return frames and discards completed by it."""
        self._buf += data
        out: list[Frame | BadFrame] = []
        buf = self._buf
        while buf:
            sync_at = buf.find(SYNC)
            if sync_at < 0:
                out.append(BadFrame(BadFrameReason.NOISE, bytes(buf)))
                buf.clear()
                break
            if sync_at > 0:
                out.append(BadFrame(BadFrameReason.NOISE, bytes(buf[:sync_at])))
                del buf[:sync_at]
            if len(buf) < 2:
                break
            length = buf[1]
            if not MIN_FRAME_LEN <= length <= self._max:
                out.append(BadFrame(BadFrameReason.BAD_LENGTH, bytes(buf[:2])))
                del buf[:1]
                continue
            if len(buf) < length:
                break
            raw = bytes(buf[:length])
            try:
                frame = decode_frame(raw)
            except CrcError:
                out.append(BadFrame(BadFrameReason.BAD_CRC, raw))
                del buf[:1]
                continue
            out.append(frame)
            del buf[:length]
        return out
