"""SAS progressive messages (80, 86, 84, 85, 87) and a machine's watch on the
broadcasts: the exact bytes, every malformed message refused with its reason, and
exception 53 once per loss of the controller's broadcasts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from devices.sas.crc import crc_bytes
from devices.sas.host import decode, describe_exception
from devices.sas.progressive import (
    MAX_AMOUNT_CENTS,
    Broadcast,
    BroadcastWatch,
    ProgressiveMessageError,
    Win,
    decode_wins,
    multiple_level_broadcast,
    multiple_wins_answer,
    parse_broadcast,
    single_level_broadcast,
    win_amount_answer,
)


def test_80_is_group_level_and_five_bcd_bytes_of_cents():
    message = single_level_broadcast(0, 7, 1, 123_456_789)
    body = bytes.fromhex("00 80 07 01 0123456789")
    assert message == body + crc_bytes(body)
    assert parse_broadcast(message) == (0, Broadcast(7, {1: 123_456_789}))


def test_86_carries_its_length_and_every_level_in_order():
    message = multiple_level_broadcast(3, 0x21, {2: 50_000, 1: 1_234_567})
    body = bytes.fromhex("03 86 0D 21 01 0001234567 02 0000050000")
    assert message == body + crc_bytes(body)
    assert parse_broadcast(message) == (3, Broadcast(0x21, {1: 1_234_567, 2: 50_000}))


@given(
    st.integers(1, 255),
    st.dictionaries(st.integers(1, 32), st.integers(0, MAX_AMOUNT_CENTS), min_size=1),
)
def test_every_broadcast_decodes_to_what_was_sent(group, levels):
    assert parse_broadcast(multiple_level_broadcast(0, group, levels)) == (
        0,
        Broadcast(group, levels),
    )


def _crc(body: bytes) -> bytes:
    return body + crc_bytes(body)


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        (single_level_broadcast(0, 1, 1, 100)[:-1] + b"\x00", "CRC"),
        (_crc(bytes.fromhex("00 80 00 01 0000000100")), "group is 1..255"),
        (_crc(bytes.fromhex("00 80 01 00 0000000100")), "level is 1..32"),
        (_crc(bytes.fromhex("00 80 01 21 0000000100")), "level is 1..32"),
        (_crc(bytes.fromhex("00 80 01 01 00000001AB")), "not BCD"),
        (_crc(bytes.fromhex("00 80 01 01 000000")), "80 is 11 bytes"),
        (_crc(bytes.fromhex("00 86 0D 01 01 0000000100 01 0000000200")), "given twice"),
        (_crc(bytes.fromhex("00 86 08 01 01 0000000100 02")), "whole number of levels"),
        (_crc(bytes.fromhex("00 86 07 01 01 00000001")), "length byte says 7"),
        (_crc(bytes.fromhex("00 86 01 01")), "07..C1"),
        (_crc(bytes.fromhex("00 1A 01 01")), "not a progressive broadcast"),
    ],
)
def test_a_malformed_broadcast_is_refused_with_its_reason(message, reason):
    with pytest.raises(ProgressiveMessageError, match=reason):
        parse_broadcast(message)


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        (lambda: single_level_broadcast(0, 1, 1, MAX_AMOUNT_CENTS + 1), "amount"),
        (lambda: single_level_broadcast(0, 1, 1, -1), "amount"),
        (lambda: single_level_broadcast(0, 1, 1, True), "amount"),
        (lambda: single_level_broadcast(0, 256, 1, 1), "group"),
        (lambda: multiple_level_broadcast(0, 1, {}), "1..32 levels"),
        (lambda: multiple_level_broadcast(0, 1, {n: 1 for n in range(1, 34)}), "1..32 levels"),
        (lambda: Win(1, 1, 1.5), "amount"),
        (lambda: multiple_wins_answer(1, 2, [Win(1, 1, 5)]), "a win of group 1 in 87 of group 2"),
        (lambda: win_amount_answer(1, 0x87, Win(1, 1, 5)), "84 or 85"),
    ],
)
def test_what_no_message_can_carry_is_refused_before_it_is_sent(call, reason):
    with pytest.raises(ProgressiveMessageError, match=reason):
        call()


def test_84_and_85_answer_one_win_and_the_host_reads_it():
    for command in (0x84, 0x85):
        answer = win_amount_answer(5, command, Win(9, 1, 250_000_000))
        body = bytes([5, command]) + bytes.fromhex("09 01 0250000000")
        assert answer == body + crc_bytes(body)
        assert decode(command, answer) == {"group": 9, "level": 1, "amount": 250_000_000}


def test_87_answers_every_waiting_hit_oldest_first_or_a_count_of_zero():
    hits = [Win(4, 2, 10_000), Win(4, 1, 99_999_99)]
    answer = multiple_wins_answer(1, 4, hits)
    assert answer[:5] == bytes.fromhex("01 87 0E 04 02")
    assert decode(0x87, answer) == {"group": 4, "wins": [(2, 10_000), (1, 9_999_999)]}
    assert decode_wins(0x87, answer[2:-2]) == hits
    empty = multiple_wins_answer(1, 4, [])
    assert empty[:5] == bytes.fromhex("01 87 02 04 00")
    assert decode(0x87, empty) == {"group": 4, "wins": []}


def test_a_win_answer_that_does_not_add_up_does_not_decode():
    answer = multiple_wins_answer(1, 4, [Win(4, 2, 10_000)])
    lying = answer[:2] + bytes([answer[2] + 6]) + answer[3:-2]
    with pytest.raises(ValueError, match="does not fit"):
        decode(0x87, lying + crc_bytes(lying))


def test_the_progressive_exceptions_have_names():
    assert describe_exception(0x53) == "no progressive information for 5 seconds"
    assert describe_exception(0x56) == "SAS progressive level hit"


def test_exception_53_once_per_loss_counted_from_power_up_and_from_the_last_broadcast():
    watch = BroadcastWatch(group=7, started=100.0)
    assert watch.lost(100.0) and not watch.check(104.9)  # nothing heard yet: not offered
    assert watch.check(105.0) and not watch.check(106.0)  # 5 s after power-up: 53 once
    assert not watch.heard(Broadcast(8, {1: 500}), 106.0)  # another group's: ignored
    assert watch.lost(106.0) and watch.levels == {}
    assert watch.heard(Broadcast(7, {1: 500, 2: 70}), 107.0)
    assert not watch.lost(111.9) and not watch.check(111.9)
    assert watch.heard(Broadcast(7, {1: 510}), 111.9)
    assert watch.levels == {1: 510, 2: 70}
    assert watch.lost(116.9) and watch.check(116.9) and not watch.check(130.0)
    watch.heard(Broadcast(7, {1: 520}), 131.0)  # back: the next loss raises 53 again
    assert not watch.check(135.0) and watch.check(136.0)
