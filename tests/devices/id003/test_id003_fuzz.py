"""Fuzzing the ID-003 side: random and mutated frames, to the parser and through the pty.

Invariants: nothing crashes; nothing is credited without a valid VEND VALID for an escrow
the host accepted; nothing is credited twice; every damaged frame is logged.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.fast_devices import FAST_VALIDATOR, TICKET_BARCODE, poll_until, wait_for

from devices.id003 import BillValidator, Frame, FrameDecoder, Status, decode_frame, encode_frame
from devices.id003.codes import TICKET_ESCROW_CODE
from devices.sim import Bill, Id003Simulator, RecordingHost, Ticket

CAPTURES = [
    "FC 05 11 27 56",
    "FC 05 40 2B 15",
    "FC 05 41 A2 04",
    "FC 05 43 B0 27",
    "FC 05 50 AA 05",
    "FC 06 C3 01 8D C7",
    "FC 06 C3 00 04 D6",
]
STATUS_FRAMES = [
    encode_frame(Status.VEND_VALID),
    encode_frame(Status.ESCROW, b"\x65"),
    encode_frame(Status.ESCROW, bytes((TICKET_ESCROW_CODE,)) + TICKET_BARCODE.encode()),
]

frames = st.builds(
    lambda cmd, data: encode_frame(cmd, data), st.integers(0, 255), st.binary(max_size=20)
)


@given(st.binary(max_size=400), st.lists(st.integers(1, 50), max_size=10))
@settings(max_examples=300, deadline=None)
def test_decoder_never_raises_and_only_yields_good_frames(data: bytes, cuts: list[int]) -> None:
    decoder = FrameDecoder()
    out = []
    pos = 0
    for cut in [*cuts, len(data)]:
        out += decoder.feed(data[pos : pos + cut])
        pos += cut
    out += decoder.feed(data[pos:])
    for item in out:
        if isinstance(item, Frame):
            assert decode_frame(item.encode()) == item
    assert len(decoder.pending) < 100


@given(
    st.lists(
        st.tuples(frames, st.binary(max_size=8).map(lambda b: b.replace(b"\xfc", b""))), max_size=12
    ),
    st.integers(1, 7),
)
@settings(max_examples=200, deadline=None)
def test_decoder_recovers_every_frame_from_noise_without_sync_bytes(
    pairs: list[tuple[bytes, bytes]], chunk: int
) -> None:
    stream = b"".join(noise + frame for frame, noise in pairs)
    decoder = FrameDecoder()
    got = []
    for i in range(0, len(stream), chunk):
        got += [x for x in decoder.feed(stream[i : i + chunk]) if isinstance(x, Frame)]
    assert [f.encode() for f in got] == [frame for frame, _ in pairs]


def test_every_single_byte_mutation_of_the_captures_is_rejected() -> None:
    for wire in [*CAPTURES, *(f.hex(" ") for f in STATUS_FRAMES)]:
        good = bytes.fromhex(wire)
        for pos in range(len(good)):
            for value in range(256):
                if value == good[pos]:
                    continue
                mutated = good[:pos] + bytes((value,)) + good[pos + 1 :]
                decoded = [x for x in FrameDecoder().feed(mutated) if isinstance(x, Frame)]
                assert decoded == [], (wire, pos, value)


def test_chaos_on_the_wire_no_crash_no_double_credit_every_bad_frame_logged(warnings_of) -> None:
    host = RecordingHost(tickets={TICKET_BARCODE: 2550, "111111111111111111": 100})
    inserted = [Bill(100), Bill(2000), Bill(500), Bill(10000), Bill(200), Bill(1000), Bill(5000)]
    inserted += [Ticket(TICKET_BARCODE), Ticket("222222222222222222"), Ticket("111111111111111111")]
    with Id003Simulator(seed=20260508) as sim:
        v = BillValidator(sim.port, host, replace(FAST_VALIDATOR, response_timeout=0.15))
        v.enable()
        v.start()
        try:
            assert wait_for(lambda: v.ready and sim.state is Status.IDLING)
            sim.set_chaos(0.25, seed=99)
            sim.drop_acks(2)
            for item in inserted:
                if isinstance(item, Bill):
                    sim.insert_bill(item.cents)
                else:
                    sim.insert_ticket(item.barcode)
            assert wait_for(
                lambda: (
                    len(sim.cashbox) + len(sim.returned) == len(inserted)
                    and sim.state is Status.IDLING
                ),
                timeout=60,
            )
            sim.set_chaos(0)
            start = len(sim.received)
            assert wait_for(lambda: len(sim.received) > start + 3)  # alive; trailing noise read
        finally:
            v.close()
        cashbox = Counter(
            x.cents if isinstance(x, Bill) else 2550 if x.barcode == TICKET_BARCODE else 100
            for x in sim.cashbox
        )
        credited = Counter(c for _, c, _ in host.credits)
        assert credited == cashbox  # every stacked item credited exactly once, nothing else
        assert len({tid for _, _, tid in host.credits}) == len(host.credits)
        assert Bill(200) in sim.returned and Ticket("222222222222222222") in sim.returned
        assert sim.injected >= 5
        assert len(warnings_of("devices.id003")) >= sim.injected


@pytest.mark.heavy
def test_random_and_mutated_status_frames_through_the_pty(warnings_of) -> None:
    """Random valid status frames (and damaged ones) scripted into the simulator's answers."""
    rng = random.Random(1234)
    statuses = list(Status)
    host = RecordingHost(tickets={TICKET_BARCODE: 2550})
    quick = replace(FAST_VALIDATOR, response_timeout=0.08)  # most scripted answers are bad
    with Id003Simulator(seed=5) as sim:
        v = BillValidator(sim.port, host, quick)
        v.enable()
        v.open()
        try:
            assert poll_until(v, lambda: v.ready)
            for _ in range(40):
                script, vend_valids, damaged = [], 0, 0
                for _ in range(rng.randrange(1, 10)):
                    choice = rng.random()
                    if choice < 0.3:
                        raw = rng.choice(STATUS_FRAMES)
                    elif choice < 0.8:
                        status = rng.choice(statuses)
                        raw = encode_frame(status, rng.randbytes(rng.choice((0, 0, 1, 2, 19))))
                    else:
                        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12)))
                    if rng.random() < 0.25:
                        pos = rng.randrange(len(raw))
                        raw = (
                            raw[:pos]
                            + bytes((raw[pos] ^ (1 << rng.randrange(8)),))
                            + raw[pos + 1 :]
                        )
                    good = [x for x in FrameDecoder().feed(raw) if isinstance(x, Frame)]
                    if good == [Frame(Status.VEND_VALID)]:
                        vend_valids += 1
                    if not good:
                        damaged += 1
                    script.append(raw)
                before_credits = len(host.credits)
                before_warnings = len(warnings_of("devices.id003"))
                sim.script(script)
                assert poll_until(v, lambda: sim.script_pending == 0, max_polls=40)
                v.poll_once()
                assert len(host.credits) - before_credits <= vend_valids
                assert len(warnings_of("devices.id003")) - before_warnings >= damaged
        finally:
            v.close()
    escrowed = {tid for _, _, tid in host.escrows}
    tids = [tid for _, _, tid in host.credits]
    assert len(tids) == len(set(tids)) and set(tids) <= escrowed
