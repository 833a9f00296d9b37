"""ID-003 CRC and framing, checked against public captures."""

from __future__ import annotations

import pytest

from devices.errors import CrcError, FrameLengthError
from devices.id003 import Command, Frame, FrameDecoder, crc16_kermit, decode_frame, encode_frame
from devices.id003.denominations import (
    DEFAULT_USD,
    USD_ASSIGNMENT,
    Denomination,
    DenominationTable,
    enabled_codes,
)
from devices.id003.frame import BadFrame, BadFrameReason

CAPTURES = [
    ("status request", Command.STATUS_REQUEST, b"", "FC 05 11 27 56"),
    ("reset", Command.RESET, b"", "FC 05 40 2B 15"),
    ("stack-1", Command.STACK_1, b"", "FC 05 41 A2 04"),
    ("return", Command.RETURN, b"", "FC 05 43 B0 27"),
    ("ack", Command.ACK, b"", "FC 05 50 AA 05"),
    ("inhibit", Command.SET_INHIBIT, b"\x01", "FC 06 C3 01 8D C7"),
    ("enable", Command.SET_INHIBIT, b"\x00", "FC 06 C3 00 04 D6"),
]


@pytest.mark.parametrize(
    ("name", "command", "data", "wire"), CAPTURES, ids=[c[0] for c in CAPTURES]
)
def test_public_captures_encode_and_decode(name: str, command: int, data: bytes, wire: str) -> None:
    raw = bytes.fromhex(wire)
    assert encode_frame(command, data) == raw
    assert decode_frame(raw) == Frame(command, data)


def test_crc_is_crc16_kermit_check_value() -> None:
    assert crc16_kermit(b"123456789") == 0x2189  # the catalogue check value of CRC-16/KERMIT
    assert crc16_kermit(b"") == 0


def test_decode_rejects_bad_crc_and_length() -> None:
    with pytest.raises(CrcError):
        decode_frame(bytes.fromhex("FC 05 11 27 57"))
    with pytest.raises(FrameLengthError):
        decode_frame(bytes.fromhex("FC 06 11 27 56"))
    with pytest.raises(FrameLengthError):
        decode_frame(bytes.fromhex("FC 05 11"))


def test_encode_rejects_oversized_frames() -> None:
    with pytest.raises(ValueError):
        encode_frame(0x13, bytes(251))
    with pytest.raises(ValueError):
        encode_frame(0x100)


def test_decoder_reassembles_frames_split_anywhere() -> None:
    stream = b"".join(bytes.fromhex(c[3]) for c in CAPTURES)
    for cut in range(1, len(stream)):
        decoder = FrameDecoder()
        items = decoder.feed(stream[:cut]) + decoder.feed(stream[cut:])
        assert [i for i in items if isinstance(i, Frame)] == [Frame(c[1], c[2]) for c in CAPTURES]
        assert not decoder.pending


def test_decoder_reports_noise_bad_crc_and_resyncs() -> None:
    good = encode_frame(0x13, b"\x65")
    bad = bytearray(good)
    bad[-1] ^= 0xFF
    items = FrameDecoder().feed(b"\x00\x01" + bytes(bad) + good)
    reasons = [i.reason for i in items if isinstance(i, BadFrame)]
    assert reasons[0] is BadFrameReason.NOISE
    assert BadFrameReason.BAD_CRC in reasons
    assert items[-1] == Frame(0x13, b"\x65")


def test_decoder_treats_impossible_length_as_noise() -> None:
    items = FrameDecoder().feed(b"\xfc\x02" + encode_frame(0x11))
    assert isinstance(items[0], BadFrame) and items[0].reason is BadFrameReason.BAD_LENGTH
    assert items[-1] == Frame(0x11)


def test_default_table_is_usd_1_5_10_20_50_100() -> None:
    assert [d.cents for d in DEFAULT_USD.denominations] == [100, 500, 1000, 2000, 5000, 10000]
    assert DEFAULT_USD.cents_for(0x65) == 2000
    assert DEFAULT_USD.cents_for(0x62) is None  # $2 not accepted by default
    assert USD_ASSIGNMENT.cents_for(0x62) == 200
    # enabled bits 0,2,3,4,5,6 -> 0x007D enabled -> inhibit mask 0xFF82, low byte first
    assert DEFAULT_USD.inhibit_mask() == b"\x82\xff"
    assert enabled_codes(DEFAULT_USD.inhibit_mask()) == {0x61, 0x63, 0x64, 0x65, 0x66, 0x67}


def test_denomination_table_is_configurable_and_validated() -> None:
    table = DenominationTable.from_mapping({0x61: 500, 0x62: 1000})  # e.g. a EUR assignment
    assert table.code_for(1000) == 0x62 and table.inhibit_mask() == b"\xfc\xff"
    assert USD_ASSIGNMENT.only([2000]).cents_for(0x65) == 2000
    with pytest.raises(ValueError):
        USD_ASSIGNMENT.only([300])
    with pytest.raises(ValueError):
        Denomination(0x50, 100)
    with pytest.raises(ValueError):
        Denomination(0x61, 1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        DenominationTable((Denomination(0x61, 100), Denomination(0x61, 200)))
