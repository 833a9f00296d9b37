"""Notes and tickets in, two-phase: the acceptance is committed before STACK, the credit
comes from that record exactly once, and an escrow a power cut left open is settled by
the validator's next report after the restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from support.cabinet import cash_out, credits, insert_note, opened

from devices.host import DeviceEventKind, make_event
from kiosk.config import load_config
from kiosk.game import write_probe
from kiosk.game.commands import ClearTilt, OperatorLogin, SetDoor
from kiosk.game.vocabulary import LEDGER_WRITE_TILT, SEAT
from kiosk.ledger.ledger import balance
from kiosk.service import money_in
from kiosk.station.paperless import PaperlessPrinter
from kiosk.wiring.cabinet import ticket
from kiosk.wiring.lone_cabinet import LoneCabinet

UNMATCHED = "device:validator:vend_unmatched"


def TicketPayout() -> PaperlessPrinter:
    """Prints the cash-out's ticket at once and reports it printed."""
    return PaperlessPrinter()


@pytest.fixture
def config(tmp_path: Path):
    return load_config(db_path=tmp_path / "uth.db")


def restarted(m: LoneCabinet, config, **kw) -> LoneCabinet:
    """A power cut: the ledger is dropped without a power-down record, then reopened."""
    assert m.table.ledger is not None
    m.table.ledger.close()
    return opened(config, **kw)


def vend_unmatched(detail: str = "VEND VALID with no escrow the host accepted"):
    return make_event("validator", DeviceEventKind.VEND_UNMATCHED, detail)


def kinds(m: LoneCabinet, txn: str) -> list[str]:
    return [e.kind for e in m.table.ledger.events() if e.txn == txn]


def books_balance(m: LoneCabinet) -> None:
    report = m.table.read(lambda a: a.verify(replay=True))
    assert report is not None and report.ok, report and report.problem
    assert balance(report.meters)["balanced"]


def test_the_acceptance_is_committed_before_stack_and_credited_from_it_once(config):
    m = opened(config)
    assert m.notes.escrow_decision(2000, "tx1")
    accepted = m.table.ledger.events(("escrow_accepted",))[-1]
    assert (accepted.txn, accepted.amount, accepted.detail) == (
        "tx1",
        2000,
        {"item": "bill", "denomination": 2000},
    )
    assert accepted.at and credits(m) == 0
    m.notes.bill_credited(2000, "tx1")
    m.notes.bill_credited(2000, "tx1")  # the validator repeats VEND VALID
    assert credits(m) == 2000 and kinds(m, "tx1") == ["escrow_accepted", "bill_in"]
    books_balance(m)
    m.close()


@pytest.mark.parametrize(
    "report", ["vend_valid", "stacked_without_vend_valid", "power_up_bill_in_stacker"]
)
def test_a_note_cut_after_acceptance_is_credited_once_when_the_validator_says_stacked(
    config, report
):
    m = opened(config)
    assert m.notes.escrow_decision(5000, "tx1")  # STACK sent, then the power went
    m = restarted(m, config)
    if report == "vend_valid":
        m.table.device_report(SEAT, vend_unmatched())
        m.table.device_report(SEAT, vend_unmatched())  # repeated until ACKed: not again
    elif report == "stacked_without_vend_valid":
        m.table.device_report(SEAT, vend_unmatched("STACKED without VEND VALID"))
    else:
        m.table.device_report(
            SEAT,
            make_event("validator", DeviceEventKind.POWER_UP_BILL_IN_STACKER, "note in stacker"),
        )
    assert credits(m) == 5000 and kinds(m, "tx1") == ["escrow_accepted", "bill_in"]
    assert m.station.snapshot().tilts == ()
    m = restarted(m, config)
    m.table.device_report(SEAT, vend_unmatched())  # our ACK was lost again: the note is credited
    assert credits(m) == 5000 and m.station.snapshot().tilts == ()
    books_balance(m)
    m.close()


@pytest.mark.parametrize("report", ["escrow_again", "power_up_bill_in_acceptor"])
def test_a_note_cut_before_stack_goes_back_and_is_not_credited(config, report):
    m = opened(config)
    assert m.notes.escrow_decision(2000, "tx1")
    m = restarted(m, config)
    if report == "escrow_again":  # the validator still holds it: a new cycle
        assert m.notes.escrow_decision(2000, "tx2")
        m.notes.bill_credited(2000, "tx2")
        assert credits(m) == 2000
    else:
        m.table.device_report(
            SEAT,
            make_event("validator", DeviceEventKind.POWER_UP_BILL_IN_ACCEPTOR, "note in acceptor"),
        )
        assert credits(m) == 0
    assert kinds(m, "tx1")[0] == "escrow_accepted" and "escrow_aborted" in kinds(m, "tx1")
    assert "bill_in" not in kinds(m, "tx1")
    books_balance(m)
    m.close()


def test_a_vend_valid_with_no_accepted_escrow_tilts_with_transaction_and_amount(config):
    m = opened(config)
    m.station.execute(SetDoor(True))
    assert not m.notes.escrow_decision(2000, "tx9")  # refused: the door is open
    m.notes.escrow_aborted("tx9", "refused")
    m.station.execute(SetDoor(False))
    m.table.device_report(SEAT, vend_unmatched())  # the validator stacked it anyway
    assert credits(m) == 0
    tilt = {t.code: t.message for t in m.station.snapshot().tilts}[UNMATCHED]
    assert "tx9" in tilt and "$20.00" in tilt
    recorded = m.table.ledger.events(("tilt",))[-1]
    assert recorded.amount == 2000 and recorded.detail["txn"] == "tx9"
    m = restarted(m, config)  # a one-shot money tilt stands until an attendant clears it
    assert UNMATCHED in {t.code for t in m.station.snapshot().tilts}
    m.station.execute(OperatorLogin("1111"))
    m.station.execute(ClearTilt(UNMATCHED))
    m = restarted(m, config)
    assert m.station.snapshot().tilts == ()
    books_balance(m)
    m.close()


def test_a_failed_acceptance_write_returns_the_note_and_tilts(config, monkeypatch):
    m = opened(config)

    def full(escrow):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(money_in, "escrow_detail", full)
    assert not m.notes.escrow_decision(2000, "tx1")
    assert LEDGER_WRITE_TILT in {t.code for t in m.station.snapshot().tilts}
    assert not m.station.snapshot().playable and credits(m) == 0
    monkeypatch.undo()
    assert not m.notes.escrow_decision(2000, "tx2")  # tilted: returned
    m.close()


def test_the_ledger_is_probed_before_the_validator_takes_notes(config, monkeypatch):
    m = opened(config)
    assert m.table.ledger_can_record(SEAT)
    assert write_probe.write_problem(m.table.ledger, min_free_bytes=1 << 62) is not None
    monkeypatch.setattr("kiosk.service.money_in.write_problem", lambda ledger: "the disk is full")
    assert not m.table.ledger_can_record(SEAT)
    tilt = {t.code: t.message for t in m.station.snapshot().tilts}[LEDGER_WRITE_TILT]
    assert "the disk is full" in tilt
    m.close()


def test_a_locked_ledger_fails_the_probe(config):
    m = opened(config)
    assert m.table.ledger is not None
    m.table.ledger.conn.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(config.db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        assert "lock" in (write_probe.write_problem(m.table.ledger) or "")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert write_probe.write_problem(m.table.ledger) is None
    m.close()


def test_a_ticket_cut_mid_redemption_is_redeemed_once_or_stays_valid(config):
    printer = TicketPayout()
    m = opened(config, printer=printer)
    insert_note(m, 2000)
    cash_out(m, printer)  # prints a ticket for $20.00
    (printed,) = m.table.ledger.tickets()
    vn = printed.validation
    assert m.notes.ticket_escrow(vn, "t1") == 2000  # "redeeming ticket vn for 2000" committed
    accepted = m.table.ledger.events(("escrow_accepted",))[-1]
    assert accepted.detail == {"item": "ticket", "validation": vn} and accepted.amount == 2000
    m = restarted(m, config, printer=TicketPayout())
    assert m.notes.ticket_escrow(vn, "t2") == 2000  # still in escrow after the cut: returned, valid
    m.notes.escrow_aborted("t2", "returned")  # the patron takes it back
    assert ticket(m, vn).status == "issued" and credits(m) == 0
    assert m.notes.ticket_escrow(vn, "t3") == 2000
    m = restarted(m, config, printer=TicketPayout())
    m.table.device_report(SEAT, vend_unmatched())  # VEND VALID for it after the restart
    m.table.device_report(SEAT, vend_unmatched())
    assert ticket(m, vn).status == "redeemed" and credits(m) == 2000
    assert m.table.ledger.meters["tickets_in_count"] == 1 and m.station.snapshot().tilts == ()
    books_balance(m)
    m.close()


def test_a_lost_port_mid_stack_waits_for_the_validators_report(config):
    m = opened(config)
    assert m.notes.escrow_decision(1000, "tx1")
    m.notes.escrow_aborted("tx1", "port_lost")
    assert "escrow_aborted" not in kinds(m, "tx1")
    m.table.device_report(SEAT, vend_unmatched())  # back: it reports VEND VALID for the note
    assert credits(m) == 1000 and kinds(m, "tx1") == ["escrow_accepted", "bill_in"]
    m.close()


def test_a_fault_after_stack_leaves_the_note_in_doubt_with_a_tilt(config):
    m = opened(config)
    assert m.notes.escrow_decision(1000, "tx1")
    m.notes.escrow_aborted("tx1", "stacker_jam")
    assert credits(m) == 0 and "escrow_in_doubt" in kinds(m, "tx1")
    tilt = {t.code: t.message for t in m.station.snapshot().tilts}["escrow"]
    assert "tx1" in tilt and "$10.00" in tilt
    m = restarted(m, config)
    assert "escrow" in {t.code for t in m.station.snapshot().tilts}
    books_balance(m)
    m.close()


def test_an_orphan_goes_back_when_the_validator_offers_a_new_escrow_even_refused(config):
    m = opened(config)
    assert m.notes.escrow_decision(1000, "tx1")
    m.notes.escrow_aborted("tx1", "port_lost")  # where the note is: unknown for now
    m.station.execute(SetDoor(True))
    assert not m.notes.escrow_decision(1000, "tx2")  # the same note, in escrow again: refused
    m.notes.escrow_aborted("tx2", "refused")
    m.station.execute(SetDoor(False))
    assert "escrow_aborted" in kinds(m, "tx1")
    m.table.device_report(SEAT, vend_unmatched())  # a later VEND VALID matches nothing accepted
    assert credits(m) == 0 and UNMATCHED in {t.code for t in m.station.snapshot().tilts}
    books_balance(m)
    m.close()
