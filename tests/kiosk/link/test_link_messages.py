"""The message layer: strict models, the envelope on the wire, every refusal typed."""

import json

import pytest

from devices.host import DeviceEventKind, PrintOutcome
from engine.uth.round import Action, Phase
from kiosk.link import (
    MAX_FRAME_BYTES,
    PROTOCOL_VERSION,
    Bet,
    CashOutRequest,
    Decide,
    DeviceFault,
    Escrow,
    EscrowAck,
    EscrowEnd,
    FrameTooLarge,
    MalformedFrame,
    MoneyOutcome,
    PassRound,
    PrinterReport,
    PrinterState,
    ResyncRequest,
    Snapshot,
    TestCreditsReport,
    UnknownType,
    ValidatorReport,
    WrongDirection,
    WrongVersion,
    decode,
    encode,
)

STATION_BODIES = [
    ResyncRequest(reason="reset"),
    Bet(round_id=4, ante_cents=500, trips_cents=100),
    Bet(round_id=4, ante_cents=500, progressive_cents=100),
    Decide(round_id=4, phase=Phase.PREFLOP, action=Action.PLAY_4X, last_seen=12),
    PassRound(round_id=4),
    CashOutRequest(),
    Escrow(txn="bv-17", denomination_cents=2000, amount_cents=2000),
    Escrow(txn="bv-18", ticket="123456789012345678"),
    DeviceFault(
        device="validator", kind=DeviceEventKind.STACKER_JAM, detail="stacker", active=True
    ),
    ValidatorReport(txn="bv-17", end=EscrowEnd.VEND_VALID),
    ValidatorReport(txn="bv-18", end=EscrowEnd.STACKED, reason="power_up", cents=2000),
    PrinterState(ready=True),
    PrinterReport(txn="cashout-1", outcome=PrintOutcome.PRINTED, validation="0" * 18),
    TestCreditsReport(txn="test-1", cents=5000),
]
HOST_BODIES = [
    Snapshot(state={"round": 4, "seats": [{"seat": 1, "credits": 1000}], "phase": None}),
    EscrowAck(txn="bv-17", accepted=True),
    EscrowAck(txn="bv-18", accepted=True, amount_cents=2500),
    EscrowAck(txn="bv-17", accepted=True, outcome=MoneyOutcome.CREDITED),
    EscrowAck(txn="bv-19", accepted=False, reason="jam", outcome=MoneyOutcome.IN_DOUBT),
]


def frame(**fields):
    base = {
        "v": PROTOCOL_VERSION,
        "type": "bet",
        "seq": 1,
        "ack": 0,
        "body": {"round_id": 1, "ante_cents": 5},
    }
    base.update(fields)
    return json.dumps(base)


@pytest.mark.parametrize("body", STATION_BODIES, ids=lambda b: b.type)
def test_every_station_body_survives_the_wire(body):
    envelope = decode(encode(body, 7, 3), "station")
    assert (envelope.seq, envelope.ack, envelope.body) == (7, 3, body)


@pytest.mark.parametrize("body", HOST_BODIES, ids=lambda b: b.type)
def test_every_host_body_survives_the_wire(body):
    assert decode(encode(body, 2, 9), "host").body == body


def test_the_wire_shape_is_the_documented_envelope():
    data = json.loads(encode(PassRound(round_id=3), 5, 4))
    body = {"round_id": 3}
    assert data == {"v": PROTOCOL_VERSION, "type": "pass", "seq": 5, "ack": 4, "body": body}


def test_oversized_frames_are_refused_before_parsing():
    huge = "x" * (MAX_FRAME_BYTES + 1)  # not even JSON: the size is checked first
    with pytest.raises(FrameTooLarge) as info:
        decode(huge, "station")
    assert info.value.size == MAX_FRAME_BYTES + 1


@pytest.mark.parametrize(
    "raw, error",
    [
        (frame(v=PROTOCOL_VERSION + 1), WrongVersion),
        (frame(v=PROTOCOL_VERSION - 1), WrongVersion),  # the text reports of version 1
        (frame(v=str(PROTOCOL_VERSION)), WrongVersion),
        (frame(v=True), WrongVersion),
        (frame(type="teleport"), UnknownType),
        ("{not json", MalformedFrame),
        ("[1, 2]", MalformedFrame),
        (b'{"v": 1}', MalformedFrame),
        (frame(body={"round_id": 1, "ante_cents": "5"}), MalformedFrame),
        (frame(body={"round_id": 1, "ante_cents": 5.0}), MalformedFrame),
        (frame(body={"round_id": 1, "ante_cents": True}), MalformedFrame),
        (frame(body={"round_id": 1, "ante_cents": -5}), MalformedFrame),
        (frame(body={"round_id": 1, "ante_cents": 5, "tip": 1}), MalformedFrame),
        (frame(body={"type": "bet", "round_id": 1, "ante_cents": 5}), MalformedFrame),
        (frame(seq=-1), MalformedFrame),
        (frame(extra=1), MalformedFrame),
        (frame(type="snapshot", body={"state": {}}), WrongDirection),
        (frame(type="pass", seq=0, body={"round_id": 1}), WrongDirection),
        (frame(type="challenge", seq=0, body={"nonce": "0" * 64}), WrongDirection),
    ],
)
def test_bad_frames_are_refused_by_type(raw, error):
    with pytest.raises(error):
        decode(raw, "station")


def test_a_host_cannot_send_station_bodies():
    with pytest.raises(WrongDirection):
        decode(encode(Bet(round_id=1, ante_cents=5), 1, 0), "host")


@pytest.mark.parametrize(
    "fields",
    [
        {"txn": "a", "amount_cents": 500},  # neither note nor ticket
        {"txn": "a", "denomination_cents": 500, "ticket": "123456", "amount_cents": 500},
        {"txn": "a", "denomination_cents": 500, "amount_cents": 400},
        {"txn": "a", "denomination_cents": 500},  # a note says its amount
        {"txn": "a", "ticket": "123456", "amount_cents": 700},  # a ticket's is the host's
    ],
)
def test_an_escrow_holds_one_instrument_at_its_value(fields):
    raw = frame(type="escrow", body=fields)
    with pytest.raises(MalformedFrame):
        decode(raw, "station")


@pytest.mark.parametrize("cents", [True, "100", 1.0, -100, None])
def test_a_bets_progressive_is_a_strict_whole_number_of_cents(cents):
    assert Bet(round_id=1, ante_cents=5).progressive_cents == 0  # none by default
    with pytest.raises(ValueError):
        Bet(round_id=1, ante_cents=5, progressive_cents=cents)
    raw = frame(type="bet", body={"round_id": 1, "ante_cents": 5, "progressive_cents": cents})
    with pytest.raises(MalformedFrame):
        decode(raw, "station")


def test_amounts_are_strict_integers_in_python_too():
    with pytest.raises(ValueError):
        Bet(round_id=1, ante_cents=5.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Decide(round_id=1, phase="flop", action="check", last_seen=0)  # type: ignore[arg-type]
