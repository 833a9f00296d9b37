"""The SAS line: CRC, BCD, the wakeup bit as marks, the pty transport, the UART settings
on a pseudo-terminal, and the message lengths."""

from __future__ import annotations

import os
import random
import termios
import time

import pytest

from devices.sas.bcd import BcdError, bcd_digits, from_bcd, to_bcd
from devices.sas.crc import crc16, crc_bytes, crc_ok
from devices.sas.frames import (
    REQUEST_LENGTHS,
    answer_kind,
    expected_length,
    general_poll,
    long_poll,
)
from devices.sas.line import LineClosed, PtyLine, PtyPair
from devices.sas.marks import MarkDecoder, encode
from devices.sas.uart import CMSPAR, UartLine, open_line, probe
from kiosk.integrity.digest import crc16_kermit


def test_crc_is_kermit_and_agrees_with_the_rom_signature_crc():
    assert crc16(b"123456789") == 0x2189
    rng = random.Random(1)
    for _ in range(50):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
        seed = rng.randrange(0x10000)
        assert crc16(data, seed) == crc16_kermit(data, seed)
    message = b"\x01\x21\x00\x00"
    assert crc_ok(message + crc_bytes(message))
    assert not crc_ok(message + bytes(b ^ 1 for b in crc_bytes(message)))


def test_bcd_keeps_the_low_digits_and_refuses_hex_nibbles():
    assert to_bcd(1234, 4) == b"\x00\x00\x12\x34"
    assert to_bcd(123456789, 4) == b"\x23\x45\x67\x89"  # a meter rolls over
    assert from_bcd(b"\x00\x99\x01") == 9901
    assert bcd_digits(b"\x01\x02") == "0102"
    with pytest.raises(BcdError):
        from_bcd(b"\x1a")
    with pytest.raises(ValueError):
        to_bcd(-1, 2)


def test_marks_round_trip_whatever_the_reads_cut():
    rng = random.Random(7)
    items = [(rng.choice((0x00, 0xFF, rng.randrange(256))), rng.random() < 0.2) for _ in range(2000)]
    raw = encode(items)
    decoder, got, i = MarkDecoder(), [], 0
    while i < len(raw):
        step = rng.randrange(1, 5)
        got += decoder.feed(raw[i : i + step])
        i += step
    assert got == items
    assert not decoder.pending
    assert MarkDecoder().feed(b"\xff\x41") == [(0xFF, False), (0x41, False)]  # never stalls


def test_pty_transport_carries_the_wakeup_bit_both_ways():
    with PtyPair() as pair:
        far = PtyLine.open(pair.port)
        try:
            pair.line.send(b"\x01\x1a", wakeup_first=True)
            got = []
            while len(got) < 2:
                got += far.receive(1.0)
            assert got == [(0x01, True), (0x1A, False)]
            far.send(b"\xff\x05\xff")
            back = []
            while len(back) < 3:
                back += pair.line.receive(1.0)
            assert back == [(0xFF, False), (0x05, False), (0xFF, False)]
        finally:
            far.close()


def test_a_closed_pty_is_a_closed_line():
    pair = PtyPair()
    far = PtyLine.open(pair.port)
    pair.close()
    with pytest.raises(LineClosed):
        for _ in range(20):
            far.receive(0.05)
    far.close()


def test_the_uart_settings_on_a_pty_mark_and_double_ff_as_on_a_uart():
    """The receive side of the real-UART settings: INPCK + PARMRK on the slave, so the
    kernel's line discipline doubles a plain FF, which the decoder reads back as one."""
    with PtyPair() as pair:
        line = UartLine(pair.port)
        try:
            attrs = termios.tcgetattr(line.fileno())
            assert attrs[0] & termios.PARMRK and attrs[0] & termios.INPCK
            assert not attrs[0] & (termios.IGNPAR | termios.ISTRIP)
            pair.line.write_raw(b"\x01\xff\x02")
            got = []
            deadline = time.monotonic() + 2
            while len(got) < 3 and time.monotonic() < deadline:
                got += line.receive(0.2)
            assert got == [(0x01, False), (0xFF, False), (0x02, False)]
        finally:
            line.close()


def test_the_uart_stick_parity_on_a_pty_where_the_kernel_allows_it():
    """Mark and space parity (PARENB | CMSPAR, PARODD for mark) set on the pty slave and
    the wakeup send path driven through them."""
    with PtyPair() as pair:
        fd = os.open(pair.port, os.O_RDWR | os.O_NOCTTY)
        try:
            attrs = termios.tcgetattr(fd)
            attrs[2] |= termios.PARENB | CMSPAR | termios.PARODD
            try:
                termios.tcsetattr(fd, termios.TCSANOW, attrs)
            except termios.error as exc:
                pytest.skip(f"this kernel refuses parity on a pseudo-terminal ({exc}): it has no UART")
            got = termios.tcgetattr(fd)
            if not got[2] & termios.PARENB:
                pytest.skip("this kernel drops PARENB on a pseudo-terminal: it has no UART")
        finally:
            os.close(fd)
        line = UartLine(pair.port)
        try:
            line.send(b"\x01\x1a", wakeup_first=True)
            raw = b""
            while len(raw) < 2:
                raw += os.read(pair.line.fileno(), 10)
            assert raw == b"\x01\x1a"  # a pty carries no parity bit: only the bytes arrive
        finally:
            line.close()


def test_probe_says_a_pty_cannot_carry_the_wakeup_bit():
    with PtyPair() as pair:
        report = probe(pair.port)
    assert not report.ok
    names = [what for what, _, _ in report.checks]
    assert "parity marking (INPCK + PARMRK)" in names
    assert dict((w, ok) for w, ok, _ in report.checks)["parity marking (INPCK + PARMRK)"]


def test_open_line_gives_the_pty_transport_on_a_pty():
    with PtyPair() as pair:
        line = open_line(pair.port)
        assert isinstance(line, PtyLine)
        line.close()
    with pytest.raises(OSError):
        open_line("/nonexistent/tty")


def test_message_lengths_and_answer_kinds():
    assert general_poll(5) == b"\x85"
    assert long_poll(1, 0x1A) == b"\x01\x1a"  # type R: no CRC
    s = long_poll(1, 0x01)
    assert len(s) == REQUEST_LENGTHS[0x01] and crc_ok(s)
    v = long_poll(1, 0x2F, b"\x00\x00\x0c")
    assert v[2] == 3 and expected_length(v, REQUEST_LENGTHS) == len(v)
    assert expected_length(b"\x01\x2f", REQUEST_LENGTHS) is None  # the length byte is to come
    assert expected_length(b"\x01\xee", REQUEST_LENGTHS) is None  # unknown
    assert answer_kind(3, b"\x03") == "ack"
    assert answer_kind(3, b"\x83") == "nack"
    assert answer_kind(3, b"\x03\x00") == "busy"
    assert answer_kind(3, long_poll(3, 0x1A, b"\x00" * 4, crc=True)) == "data"
    assert answer_kind(3, b"\x03\x1a\x00") == "bad"
    with pytest.raises(ValueError):
        general_poll(128)
