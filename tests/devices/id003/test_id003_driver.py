"""The ID-003 driver against the simulator over a real pty: every state and fault."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.fast_devices import FAST_VALIDATOR, TICKET_BARCODE, poll_until, wait_for

from devices.host import DeviceEventKind
from devices.id003 import BillValidator, Command, Status, ValidatorConfig
from devices.id003.frame import encode_frame
from devices.sim import Bill, Id003Simulator, RecordingHost, Ticket


def events(host: RecordingHost, kind: DeviceEventKind, active: bool = True) -> list:
    return [e for e in host.events if e.kind is kind and e.active == active]


def settled(sim: Id003Simulator, items: int) -> bool:
    """All ``items`` inserted notes/tickets ended in the cashbox or back with the patron."""
    with sim.lock:
        return (
            len(sim.cashbox) + len(sim.returned) == items
            and not sim.queue
            and sim.state in (Status.IDLING, Status.DISABLED)
        )


# ------------------------------------------------------------------ start-up and notes


def test_startup_resets_configures_and_enables(
    sim: Id003Simulator, validator: BillValidator, host: RecordingHost
) -> None:
    sent = [(f.command, f.data) for f in sim.received]
    assert (Command.RESET, b"") in sent
    assert (Command.SET_DENOMINATIONS, b"\x82\xff") in sent  # $1 $5 $10 $20 $50 $100
    assert (Command.SET_BARCODE_FUNCTION, b"\x01\x12") in sent  # I2of5, 18 digits
    assert (Command.SET_BAR_INHIBIT, b"\xfc") in sent  # notes and tickets
    assert (Command.SET_INHIBIT, b"\x00") in sent
    assert not sim.inhibited and sim.state is Status.IDLING
    [power_up] = events(host, DeviceEventKind.POWER_UP)
    assert not power_up.tilt
    assert validator.version() == sim.version


def test_note_is_stacked_and_credited_once(
    sim: Id003Simulator, validator: BillValidator, host: RecordingHost
) -> None:
    sim.insert_bill(2000)
    assert wait_for(lambda: host.credits and settled(sim, 1))
    [(kind, cents, tid)] = host.credits
    assert (kind, cents) == ("bill", 2000)
    assert host.escrows == [("bill", 2000, tid)]
    assert sim.cashbox == [Bill(2000)] and not host.aborts


def test_every_default_denomination(
    sim: Id003Simulator, validator: BillValidator, host: RecordingHost
) -> None:
    for dollars in (1, 5, 10, 20, 50, 100):
        sim.insert_bill(dollars * 100)
    assert wait_for(lambda: settled(sim, 6))
    assert sorted(c for _, c, _ in host.credits) == [100, 500, 1000, 2000, 5000, 10000]
    assert len({tid for _, _, tid in host.credits}) == 6


def test_lost_ack_repeats_vend_valid_but_credits_once(
    sim: Id003Simulator, validator: BillValidator, host: RecordingHost
) -> None:
    sim.drop_acks(3)
    sim.insert_bill(10000)
    assert wait_for(lambda: settled(sim, 1))
    assert sim.acks_ignored == 3 and sim.vend_valid_reports >= 4
    assert [(k, c) for k, c, _ in host.credits] == [("bill", 10000)]
    assert sim.cashbox == [Bill(10000)]


def test_note_returned_when_host_says_no(
    sim: Id003Simulator, validator: BillValidator, host: RecordingHost
) -> None:
    host.accept_bills = False
    sim.insert_bill(500)
    assert wait_for(lambda: host.aborts and settled(sim, 1))
    [(_, cents, tid)] = host.escrows
    assert cents == 500 and host.aborts == [(tid, "refused")]
    assert sim.returned == [Bill(500)] and not sim.cashbox and not host.credits


def test_inhibited_denomination_is_rejected_by_the_validator(
    sim: Id003Simulator, validator: BillValidator, host: RecordingHost
) -> None:
    sim.insert_bill(200)  # $2: the unit knows it, the default table inhibits it
    assert wait_for(lambda: settled(sim, 1))
    [rejected] = events(host, DeviceEventKind.REJECTED)
    assert rejected.code == 0x79 and not rejected.tilt and "inhibit" in rejected.detail
    assert not host.escrows and not host.credits and sim.returned == [Bill(200)]


@pytest.mark.parametrize(
    ("code", "text"), [(0x71, "insertion"), (0x72, "magnetic"), (0x7D, "length")]
)
def test_rejection_reason_becomes_a_non_tilt_event(
    sim: Id003Simulator, validator: BillValidator, host: RecordingHost, code: int, text: str
) -> None:
    sim.insert_bill(2000, reject_reason=code)
    assert wait_for(lambda: settled(sim, 1))
    [rejected] = events(host, DeviceEventKind.REJECTED)
    assert rejected.code == code and text in rejected.detail and not rejected.tilt
    assert not host.credits


def test_unknown_escrow_code_is_returned(
    manual: BillValidator, sim: Id003Simulator, host: RecordingHost
) -> None:
    sim.script([encode_frame(Status.ESCROW, b"\x6a")])  # a code no table knows
    manual.poll_once()
    [event] = events(host, DeviceEventKind.UNKNOWN_DENOMINATION)
    assert event.code == 0x6A and not event.tilt
    assert sim.received[-1].command == Command.RETURN
    assert not host.escrows and not host.credits


def test_disable_and_enable(
    sim: Id003Simulator, validator: BillValidator, host: RecordingHost
) -> None:
    validator.disable()
    assert wait_for(lambda: sim.state is Status.DISABLED and sim.inhibited)
    sim.insert_bill(2000)
    assert wait_for(lambda: settled(sim, 1))
    assert events(host, DeviceEventKind.REJECTED)[0].code == 0x79 and not host.credits
    validator.enable()
    assert wait_for(lambda: sim.state is Status.IDLING)
    sim.insert_bill(2000)
    assert wait_for(lambda: host.credits and settled(sim, 2))


# ------------------------------------------------------------------ tickets


def test_ticket_redeemed_and_credited(
    sim: Id003Simulator, validator: BillValidator, host: RecordingHost
) -> None:
    sim.insert_ticket(TICKET_BARCODE)
    assert wait_for(lambda: host.credits and settled(sim, 1))
    [(kind, cents, tid)] = host.credits
    assert (kind, cents) == ("ticket", 2550)
    assert host.escrows == [("ticket", TICKET_BARCODE, tid)]
    assert sim.cashbox == [Ticket(TICKET_BARCODE)]


def test_unknown_ticket_is_returned(
    sim: Id003Simulator, validator: BillValidator, host: RecordingHost
) -> None:
    sim.insert_ticket("999999999999999999")
    assert wait_for(lambda: host.aborts and settled(sim, 1))
    [(_, barcode, tid)] = host.escrows
    assert barcode == "999999999999999999" and host.aborts == [(tid, "refused")]
    assert sim.returned == [Ticket("999999999999999999")] and not host.credits


def test_ticket_is_redeemed_only_once(
    sim: Id003Simulator, validator: BillValidator, host: RecordingHost
) -> None:
    sim.insert_ticket(TICKET_BARCODE)
    sim.insert_ticket(TICKET_BARCODE)
    assert wait_for(lambda: settled(sim, 2))
    assert [(k, c) for k, c, _ in host.credits] == [("ticket", 2550)]
    assert sim.cashbox == [Ticket(TICKET_BARCODE)] and sim.returned == [Ticket(TICKET_BARCODE)]


def test_malformed_ticket_is_returned_without_asking_the_host(
    sim: Id003Simulator, validator: BillValidator, host: RecordingHost
) -> None:
    sim.insert_ticket("12345ABCDE12345678")
    assert wait_for(lambda: settled(sim, 1))
    [event] = events(host, DeviceEventKind.TICKET_MALFORMED)
    assert not event.tilt and not host.escrows and not host.credits


def test_tickets_can_be_refused_by_configuration(sim: Id003Simulator, host: RecordingHost) -> None:
    v = BillValidator(sim.port, host, ValidatorConfig(poll_interval=0.02, accept_tickets=False))
    v.enable()
    v.start()
    try:
        assert wait_for(lambda: v.ready and sim.state is Status.IDLING)
        assert sim.settings[Command.SET_BAR_INHIBIT] == b"\xfe"
        sim.insert_ticket(TICKET_BARCODE)
        assert wait_for(lambda: settled(sim, 1))
        assert events(host, DeviceEventKind.REJECTED)[0].code == 0x79 and not host.escrows
    finally:
        v.close()


# ------------------------------------------------------------------ faults

FAULTS = [
    ("stacker_full", DeviceEventKind.STACKER_FULL, True),
    ("stacker_open", DeviceEventKind.STACKER_OPEN, True),
    ("jam_acceptor", DeviceEventKind.ACCEPTOR_JAM, True),
    ("jam_stacker", DeviceEventKind.STACKER_JAM, True),
    ("cheated", DeviceEventKind.CHEATED, True),
    ("failure", DeviceEventKind.FAILURE, True),
    ("pause", DeviceEventKind.PAUSE, False),
]


@pytest.mark.parametrize(("fault", "kind", "tilt"), FAULTS, ids=[f[0] for f in FAULTS])
def test_fault_raises_and_clears_an_event(
    sim: Id003Simulator,
    validator: BillValidator,
    host: RecordingHost,
    fault: str,
    kind: DeviceEventKind,
    tilt: bool,
) -> None:
    sim.set_fault(fault)
    assert wait_for(lambda: events(host, kind))
    [raised] = events(host, kind)
    assert raised.tilt is tilt and raised.device == "validator"
    assert kind in validator.active_faults and not validator.ready
    sim.clear_fault(fault)
    assert wait_for(lambda: events(host, kind, active=False) and validator.ready)
    assert len(events(host, kind)) == 1  # reported once, not at every poll


def test_failure_code_is_reported(
    sim: Id003Simulator, validator: BillValidator, host: RecordingHost
) -> None:
    sim.set_fault("failure", code=0xA6)
    assert wait_for(lambda: events(host, DeviceEventKind.FAILURE))
    [failure] = events(host, DeviceEventKind.FAILURE)
    assert failure.code == 0xA6 and "transport motor" in failure.detail and failure.tilt


def test_stacker_jam_while_stacking_never_credits(
    manual: BillValidator, sim: Id003Simulator, host: RecordingHost
) -> None:
    sim.on_state(Status.STACKING, lambda: sim.set_fault("jam_stacker"))
    sim.insert_bill(5000)
    assert poll_until(manual, lambda: events(host, DeviceEventKind.STACKER_JAM))
    [(_, _, tid)] = host.escrows
    assert host.aborts == [(tid, "stacker_jam")]
    sim.clear_fault("jam_stacker")  # the attendant pushes the note into the box
    assert poll_until(manual, lambda: events(host, DeviceEventKind.STACKER_JAM, active=False))
    assert sim.cashbox == [Bill(5000)] and not host.credits


# ------------------------------------------------------------------ power up and resets


@pytest.mark.parametrize(
    ("where", "kind", "tilt"),
    [
        ("acceptor", DeviceEventKind.POWER_UP_BILL_IN_ACCEPTOR, False),
        ("stacker", DeviceEventKind.POWER_UP_BILL_IN_STACKER, True),
    ],
)
def test_power_up_with_a_note_inside(
    sim: Id003Simulator, host: RecordingHost, where: str, kind: DeviceEventKind, tilt: bool
) -> None:
    sim.power_cycle(where, Bill(2000))
    v = BillValidator(sim.port, host, FAST_VALIDATOR)
    v.open()
    try:
        assert poll_until(v, lambda: v.ready)
        [event] = events(host, kind)
        assert event.tilt is tilt
        if where == "acceptor":
            assert sim.returned == [Bill(2000)] and not sim.cashbox
        else:
            assert sim.cashbox == [Bill(2000)] and not sim.returned
        assert not host.credits and not host.escrows
    finally:
        v.close()


def test_reset_while_accepting_returns_the_note(
    manual: BillValidator, sim: Id003Simulator, host: RecordingHost
) -> None:
    sim.on_state(Status.ACCEPTING, sim.reset_now)
    sim.insert_bill(1000)
    assert poll_until(manual, lambda: sim.returned and manual.ready and sim.state is Status.IDLING)
    assert events(host, DeviceEventKind.POWER_UP_BILL_IN_ACCEPTOR)
    assert sim.returned == [Bill(1000)] and not host.credits


def test_reset_while_stacking_is_a_tilt_and_no_credit(
    manual: BillValidator, sim: Id003Simulator, host: RecordingHost
) -> None:
    sim.on_state(Status.STACKING, sim.reset_now)
    sim.insert_bill(1000)
    assert poll_until(manual, lambda: sim.cashbox and manual.ready and sim.state is Status.IDLING)
    [event] = events(host, DeviceEventKind.POWER_UP_BILL_IN_STACKER)
    [(_, _, tid)] = host.escrows
    assert event.tilt and host.aborts == [(tid, "power_up_bill_in_stacker")]
    assert sim.cashbox == [Bill(1000)] and not host.credits


def test_reset_after_credit_with_lost_ack_does_not_credit_again(
    manual: BillValidator, sim: Id003Simulator, host: RecordingHost
) -> None:
    sim.drop_acks(5)
    sim.insert_bill(2000)
    assert poll_until(manual, lambda: host.credits)
    sim.reset_now()  # the note is in the stacker, VEND VALID never acknowledged
    assert poll_until(manual, lambda: manual.ready and sim.state is Status.IDLING)
    assert len(host.credits) == 1 and sim.cashbox == [Bill(2000)]
    assert not events(host, DeviceEventKind.POWER_UP_BILL_IN_STACKER)  # already credited: no tilt
    assert not host.aborts


def test_vend_valid_without_accepted_escrow_is_a_tilt_not_a_credit(
    manual: BillValidator, sim: Id003Simulator, host: RecordingHost
) -> None:
    sim.script([encode_frame(Status.VEND_VALID)] * 3)
    for _ in range(3):
        manual.poll_once()
    assert not host.credits
    assert len(events(host, DeviceEventKind.VEND_UNMATCHED)) == 1
    assert events(host, DeviceEventKind.VEND_UNMATCHED)[0].tilt
    assert [f.command for f in sim.received[-3:]].count(Command.ACK) >= 1


# ------------------------------------------------------------------ communication errors


@pytest.mark.parametrize(
    "inject", ["corrupt_next_crc", "send_garbage", "send_partial", "send_noise_first"]
)
def test_garbled_response_is_logged_retried_and_recovered(
    manual: BillValidator,
    sim: Id003Simulator,
    host: RecordingHost,
    warnings_of,
    inject: str,
) -> None:
    sim.on_state(Status.ESCROW, lambda: getattr(sim, inject)(1))  # damage the ESCROW answer
    sim.insert_bill(2000)
    assert poll_until(manual, lambda: settled(sim, 1))
    assert len(warnings_of("devices.id003")) >= 1
    assert [(k, c) for k, c, _ in host.credits] == [("bill", 2000)]
    assert len(host.escrows) == 1 and not events(host, DeviceEventKind.COMM_ERROR)


def test_garbled_ack_to_stack_command_stacks_and_credits_once(
    manual: BillValidator, sim: Id003Simulator, host: RecordingHost
) -> None:
    # damage the ESCROW answer, then the ACK to STACK-1
    sim.on_state(Status.ESCROW, lambda: sim.corrupt_next_crc(2))
    sim.insert_bill(2000)
    assert poll_until(manual, lambda: settled(sim, 1))
    assert len(host.credits) == 1 and len(host.escrows) == 1 and sim.cashbox == [Bill(2000)]


def test_garbled_vend_valid_is_retried_not_lost(
    manual: BillValidator, sim: Id003Simulator, host: RecordingHost
) -> None:
    sim.on_state(Status.VEND_VALID, lambda: sim.corrupt_next_crc(1))
    sim.insert_bill(500)
    assert poll_until(manual, lambda: settled(sim, 1))
    assert [(k, c) for k, c, _ in host.credits] == [("bill", 500)]


def test_validator_reporting_communication_error_is_retried(
    manual: BillValidator, sim: Id003Simulator, host: RecordingHost, warnings_of
) -> None:
    sim.reply_comm_error(1)
    manual.poll_once()
    assert manual.stats.device_comm_errors == 1
    assert any("communication error" in r.getMessage() for r in warnings_of("devices.id003"))
    sim.insert_bill(100)
    assert poll_until(manual, lambda: settled(sim, 1)) and len(host.credits) == 1


def test_silence_raises_comm_error_then_clears_it(sim: Id003Simulator, host: RecordingHost) -> None:
    config = replace(FAST_VALIDATOR, response_timeout=0.1, comm_error_threshold=3)
    v = BillValidator(sim.port, host, config)
    v.enable()
    v.start()
    try:
        assert wait_for(lambda: v.ready)
        sim.go_silent(1500)
        assert wait_for(lambda: events(host, DeviceEventKind.COMM_ERROR))
        assert events(host, DeviceEventKind.COMM_ERROR)[0].tilt
        assert wait_for(lambda: events(host, DeviceEventKind.COMM_ERROR, active=False))
        assert v.stats.timeouts >= 3
        sim.insert_bill(2000)
        assert wait_for(lambda: host.credits and settled(sim, 1))
    finally:
        v.close()


def test_host_callback_exception_is_safe(sim: Id003Simulator, host: RecordingHost) -> None:
    class Exploding(RecordingHost):
        def escrow_decision(self, denomination_cents: int, transaction_id: str) -> bool:
            raise RuntimeError("ledger down")

    bad = Exploding()
    v = BillValidator(sim.port, bad, FAST_VALIDATOR)
    v.enable()
    v.start()
    try:
        assert wait_for(lambda: v.ready)
        sim.insert_bill(2000)
        assert wait_for(lambda: settled(sim, 1))
        assert sim.returned == [Bill(2000)] and not bad.credits
        assert [e.kind for e in bad.events if e.tilt] == [DeviceEventKind.HOST_ERROR]
    finally:
        v.close()
