"""SAS messages on the line: how long each one is, how it is built and checked.

A host message starts with the machine's address with the wakeup bit set:

* general poll: ``addr | 0x80``, one byte; the machine answers one exception byte;
* type R long poll: ``addr cmd`` (no CRC); the answer is ``addr cmd data CRC``;
* type S / M long poll: ``addr cmd [length] data CRC``; the answer is the data form, or
  an ACK (``addr``) or NACK (``addr | 0x80``) of one byte;
* type G (global broadcast): address 0, like type S; nobody answers.

A machine that cannot answer now sends ``addr 00`` (busy).  Multi-byte numbers are BCD
(most significant first) or binary (least significant first); the CRC covers every byte
before it (:mod:`devices.sas.crc`).

:data:`REQUEST_LENGTHS` and :data:`RESPONSE_LENGTHS` give a message's whole length
(address to CRC) by command: an ``int``, or :data:`VARIABLE` when a length byte at index
2 counts the bytes between it and the CRC.  A command in neither table ends after 5 ms
of silence (:data:`INTER_BYTE_S`).
"""

from __future__ import annotations

from devices.sas.crc import crc_bytes, crc_ok

#: The machine starts its answer within this many seconds of the end of a poll.
ANSWER_START_S = 0.020
#: No more than this between two bytes of one message.
INTER_BYTE_S = 0.005
#: A machine polled by nobody for this long chirps (its address with the wakeup bit) ...
CHIRP_AFTER_S = 5.0
#: ... every this many seconds.
CHIRP_EVERY_S = 0.200
#: A message whose length is in its third byte.
VARIABLE = -1
#: The highest machine address (0 is the broadcast / nobody).
MAX_ADDRESS = 127
GENERAL_POLL_BIT = 0x80
NACK_BIT = 0x80
#: The first data byte of a real-time event message (``addr FF code data CRC``).
EVENT_COMMAND = 0xFF

_R = 2  # address and command, no CRC
#: Whole length of each long poll the host sends (address .. CRC).
REQUEST_LENGTHS: dict[int, int] = {
    # type R: read
    **dict.fromkeys(
        (
            0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B,
            0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x2A, 0x2B, 0x2C, 0x3D, 0x46, 0x48, 0x49, 0x4A,
            0x4F, 0x51, 0x54, 0x55, 0x56, 0x57, 0x70, 0x7E, 0x84, 0x85, 0x87, 0xB1, 0xB2,
            0xB3,
            *range(0x31, 0x3D), *range(0x3E, 0x46),
        ),
        _R,
    ),
    # type S: enable / disable, no data
    **dict.fromkeys((0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0A, 0x0B, 0x94), 4),
    0x08: 9,  # bill denominations (4 binary) and action flag
    0x09: 7,  # game number (2 BCD), enable flag
    0x0E: 5,  # real-time event reporting flag
    0x21: 6,  # ROM signature seed (2 binary)
    0x2E: 6,  # game delay (2 binary)
    0x4C: 10,  # validation ID (3 binary), sequence number (3 binary)
    0x4D: 5,  # function code
    0x50: 5,  # validation type
    0x52: 6,  # game number (2 BCD)
    0x53: 6,
    0x58: 13,  # validation system ID (1 BCD), validation number (8 BCD)
    0x74: 8,  # AFT lock code, condition, timeout (2 BCD)
    0x7F: 11,  # date (4 BCD MMDDYYYY), time (3 BCD HHMMSS)
    0x80: 11,  # single-level progressive broadcast: group, level, amount (5 BCD)
    0x8A: 9,  # legacy bonus: amount (4 BCD), tax status
    0xA0: 6,  # game number (2 BCD)
    0xA4: 6,
    0xA8: 5,
    # variable: a length byte follows the command
    **dict.fromkeys((0x2F, 0x6E, 0x6F, 0x71, 0x72, 0x73, 0x75, 0x76, 0x7B, 0x7C, 0x7D,
                     0x86, 0xAF, 0xB0, 0xB5), VARIABLE),
}  # fmt: skip

#: Whole length of each data answer the machine sends (address .. CRC); ACK, NACK and
#: busy answers are shorter and told apart by :func:`answer_kind`.
RESPONSE_LENGTHS: dict[int, int] = {
    0x0F: 2 + 6 * 4 + 2,
    0x19: 2 + 5 * 4 + 2,
    0x1A: 2 + 4 + 2,
    # group, level, amount (5 BCD), partial pay (2 BCD), reset id, 10 unused (SAS 6.02)
    0x1B: 2 + 1 + 1 + 5 + 2 + 1 + 10 + 2,
    0x1C: 2 + 8 * 4 + 2,
    0x1F: 2 + 2 + 3 + 1 + 1 + 1 + 2 + 6 + 4 + 2,
    0x21: 2 + 2 + 2,
    0x3D: 2 + 4 + 5 + 2,
    0x4D: 2 + 31 + 2,
    0x57: 2 + 1 + 5 + 2,
    0x58: 2 + 1 + 2,
    0x7E: 2 + 4 + 3 + 2,
    0xA0: 2 + 2 + 4 + 2 + 2,
    **dict.fromkeys((0x84, 0x85), 2 + 1 + 1 + 5 + 2),  # group, level, amount (5 BCD)
    **dict.fromkeys(
        (0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x20, 0x2A, 0x2B, 0x2C, 0x46),
        2 + 4 + 2,
    ),
    **dict.fromkeys((0x2F, 0x54, 0x6F, 0x70, 0x71, 0x7B, 0xAF), VARIABLE),
}

#: Data bytes of each real-time event (``addr FF code data CRC``) that carries any.
EVENT_DATA_LENGTHS: dict[int, int] = {
    0x4F: 6,  # bill accepted: country (1 BCD), denomination (1 BCD), meter (4 BCD)
    0x7E: 8,  # game start: wager (2 BCD), coin in (4 BCD), wager type, progressive group
    0x7F: 4,  # game end: win (4 BCD)
}


def general_poll(address: int) -> bytes:
    """The one-byte general poll of ``address`` (sent with the wakeup bit)."""
    check_address(address, allow_zero=True)
    return bytes((address | GENERAL_POLL_BIT,))


def long_poll(address: int, command: int, data: bytes = b"", *, crc: bool | None = None) -> bytes:
    """A long poll: ``addr cmd data`` and, unless it is a type R poll (``crc`` None: by
    the command's length), its CRC; a variable-length poll gets its length byte."""
    check_address(address, allow_zero=True)
    if REQUEST_LENGTHS.get(command) == VARIABLE:
        return with_length(address, command, data)
    body = bytes((address, command)) + data
    if crc is None:
        crc = REQUEST_LENGTHS.get(command) != _R
    return body + crc_bytes(body) if crc else body


def with_length(address: int, command: int, data: bytes) -> bytes:
    """A variable-length long poll or answer: ``addr cmd len data CRC``."""
    if len(data) > 255:
        raise ValueError(f"{len(data)} bytes do not fit one length byte")
    body = bytes((address, command, len(data))) + data
    return body + crc_bytes(body)


def with_crc(body: bytes) -> bytes:
    """``body`` followed by its CRC."""
    return body + crc_bytes(body)


def expected_length(message: bytes | bytearray, table: dict[int, int]) -> int | None:
    """The whole length of the message that starts with ``message`` (at least the
    address and command) by ``table``: None when the command is not in it, or when the
    length byte has not arrived yet (then at least 3 bytes are needed)."""
    if len(message) < 2:
        return None
    known = table.get(message[1])
    if known is None:
        return None
    if known != VARIABLE:
        return known
    if len(message) < 3:
        return None
    return 3 + message[2] + 2


def event_length(message: bytes | bytearray) -> int | None:
    """The whole length of a real-time event message ``addr FF code ...``."""
    if len(message) < 3:
        return None
    return 3 + EVENT_DATA_LENGTHS.get(message[2], 0) + 2


def answer_kind(address: int, message: bytes | bytearray) -> str:
    """What a machine's answer to a long poll is: ``"ack"``, ``"nack"``, ``"busy"``,
    ``"event"`` (a real-time event instead of the answer), ``"data"`` (a whole message
    with a good CRC), ``"bad"`` (anything else)."""
    if bytes(message) == bytes((address,)):
        return "ack"
    if bytes(message) == bytes((address | NACK_BIT,)):
        return "nack"
    if bytes(message) == bytes((address, 0x00)):
        return "busy"
    if len(message) >= 4 and message[0] == address and crc_ok(message):
        return "event" if message[1] == EVENT_COMMAND else "data"
    return "bad"


def check_address(address: int, *, allow_zero: bool = False) -> int:
    """``address`` if it is a machine address (1..127, or 0 when ``allow_zero``)."""
    low = 0 if allow_zero else 1
    if not isinstance(address, int) or not low <= address <= MAX_ADDRESS:
        raise ValueError(f"a SAS address is {low}..{MAX_ADDRESS}, not {address!r}")
    return address
