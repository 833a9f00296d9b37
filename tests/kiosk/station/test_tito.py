"""TITO on one cabinet, end to end: the Machine with the real ID-003 and TCL drivers over
the protocol simulators on real pseudo-terminals (:mod:`kiosk.station.devices`).

Bills go in through the ID-003 handshake, rounds are played through the Machine, the
cash-out ticket is printed by the TCL driver, and the printed barcode goes back into the
validator.  Faults: paper out mid-job, printer reset mid-job, power cuts before and
during printing, redeemed / altered / unknown / expired tickets.  Every test ends with
the ledger verified, the meters balanced and ``uth audit verify`` passing.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.cabinet import cash_out, redeem_ticket
from support.cabinet import credits as credits_at
from support.fast_devices import never
from support.tito_helpers import FAST_PRINTER, Clock, balanced, cabinets, play_rounds, wait_for

from devices.tcl import PrintOutcome
from kiosk.cli import main as uth
from kiosk.game.commands import (
    HandpayReset,
    OperatorLogin,
    OperatorLogout,
)
from kiosk.game.errors import TicketRefused
from kiosk.game.snapshot import MachinePhase
from kiosk.wiring.cabinet import ticket as ticket_record

BILLS = (100, 500, 1000, 2000, 5000, 10000)


@pytest.fixture
def cabinet(tmp_path):
    yield from cabinets(tmp_path)


def rejections(m, reason: str | None = None) -> list:
    return [
        e
        for e in m.table.ledger.events(("ticket_rejected",))
        if reason in (None, e.detail["reason"])
    ]


def audit_verify(capsys, config) -> str:
    code = uth(["audit", "verify", "--db", str(config.db_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def test_demo_session_bills_play_cash_out_and_reinsert_the_ticket(cabinet, capsys):
    clock = Clock()
    cab = cabinet(clock=clock)
    m = cab.parts
    # -- bills: each denomination once, through escrow / stack / VEND VALID -----------------
    cab.vsim.drop_acks(1)  # the first VEND VALID is repeated: still credited once
    for cents in BILLS:
        cab.insert_bill(cents)
    meters = m.table.ledger.meters
    assert credits_at(m) == sum(BILLS) == 18600
    assert meters["bills_in"] == 18600 and meters["bills_in_count"] == 6
    assert all(meters[f"bill.{c}"] == 1 for c in BILLS)
    assert wait_for(lambda: len(cab.vsim.cashbox) == 6) and cab.vsim.vend_valid_reports >= 7
    # -- play a few rounds --------------------------------------------------------------------
    play_rounds(m, 3)
    assert m.table.ledger.meters["games_played"] == 3
    credits = credits_at(m)
    assert credits > 0
    # -- cash out: a ticket printed by the TCL driver on the simulator --------------------
    cab.cash_out()
    assert credits_at(m) == 0 and m.station.snapshot().cashout is None
    assert (
        m.table.ledger.meters["tickets_out"] == credits
        and m.table.ledger.meters["tickets_out_count"] == 1
    )
    (paper,) = cab.psim.printed
    vn = paper.text(paper.barcode_region)
    ticket = ticket_record(m, vn)
    assert ticket is not None and ticket.status == "issued" and ticket.amount == credits
    assert ticket.sequence == 1 and ticket.expires_on == "2025-04-13"  # 30 days, inclusive
    assert paper.text(":") == f"${credits // 100:,}.{credits % 100:02d}"
    assert paper.text("8") == "TICKET # 0001" and paper.text(";") == "VOID AFTER 04/13/2025"
    assert paper.text("<") == f"MACHINE # {cab.config.machine_number}"
    assert cab.devices.printer.last_result().outcome is PrintOutcome.PRINTED
    # -- the ticket goes back in: redeemed once ----------------------------------------------
    cab.insert_ticket(vn)
    assert credits_at(m) == credits
    assert (
        m.table.ledger.meters["tickets_in"] == credits
        and m.table.ledger.meters["tickets_in_count"] == 1
    )
    assert ticket_record(m, vn).status == "redeemed"
    # -- again: returned, and logged ---------------------------------------------------------
    cab.insert_ticket(vn)
    assert credits_at(m) == credits and m.table.ledger.meters["tickets_in_count"] == 1
    assert cab.vsim.returned[-1].barcode == vn
    (again,) = rejections(m, "redeemed")
    assert again.detail["validation"] == vn and again.txn
    # -- altered (one digit changed) and unknown tickets: returned, logged --------------------
    altered = vn[:-1] + str((int(vn[-1]) + 1) % 10)
    cab.insert_ticket(altered)
    cab.insert_ticket("000000000000000042")
    assert [e.detail["validation"] for e in rejections(m, "unknown")] == [
        altered,
        "000000000000000042",
    ]
    assert credits_at(m) == credits
    # an altered amount (a ticket offered for more than it was issued for) is refused too
    with pytest.raises(TicketRefused, match="not a \\$") as err:
        redeem_ticket(m, credits + 100, vn)
    assert err.value.code == "ticket_redeemed"
    # -- a second ticket, expired by the time it comes back ----------------------------------
    cab.cash_out()
    second = cab.psim.printed[-1].text(cab.psim.printed[-1].barcode_region)
    assert ticket_record(m, second).sequence == 2 and credits_at(m) == 0
    clock.advance(days=31)
    cab.insert_ticket(second)
    assert credits_at(m) == 0 and ticket_record(m, second).status == "issued"
    assert [e.detail["validation"] for e in rejections(m, "expired")] == [second]
    # an issued ticket offered for another amount is "altered"
    with pytest.raises(TicketRefused) as err:
        redeem_ticket(m, 100, second)
    assert err.value.code == "ticket_altered" and err.value.params["amount"] == credits
    # -- the books ---------------------------------------------------------------------------
    bal = balanced(m)
    meters = m.table.ledger.meters
    assert bal["credits_in"] == 18600 + credits
    assert meters["tickets_out"] == 2 * credits and meters["tickets_out_count"] == 2
    assert bal["payout_pending"] == 0 and bal["credits"] == 0
    cab.close()
    assert "2 tickets verified" in audit_verify(capsys, cab.config)


def test_paper_out_during_cash_out_keeps_the_credits_and_tilts(cabinet, capsys):
    cab = cabinet()
    m = cab.parts
    cab.insert_bill(2000)
    cab.psim.fail_next_print("paper_out", after_polls=1)
    cab.cash_out()
    snap = m.station.snapshot()
    assert credits_at(m) == 2000 and snap.cashout is None and snap.phase == MachinePhase.BETTING
    assert "device:printer:paper_out" in {t.code for t in snap.tilts}
    (void,) = m.table.ledger.tickets()
    assert void.status == "void" and void.void_reason.startswith("not printed")
    assert cab.psim.aborted and not cab.psim.printed
    assert (
        m.table.ledger.meters["cashout_failed"] == 2000
        and m.table.ledger.meters["tickets_out"] == 0
    )
    # the void number is refused by the machine, and logged
    assert m.notes.ticket_escrow(void.validation, "t-void") is None
    # the attendant loads paper: the printer clears the tilt itself
    cab.psim.clear_fault("paper_out")
    assert wait_for(lambda: not m.station.snapshot().tilts)
    cab.cash_out()
    printed = m.table.ledger.tickets(status="issued")
    assert credits_at(m) == 0 and [t.sequence for t in printed] == [2]
    assert printed[0].validation != void.validation
    cab.insert_ticket(void.validation)  # even if it had come out, a void number is returned
    assert credits_at(m) == 0
    assert [e.detail["reason"] for e in rejections(m)] == ["play_disabled", "void"]
    balanced(m)
    cab.close()
    audit_verify(capsys, cab.config)


def test_printer_reset_mid_job_voids_the_number_and_hands_pay(cabinet, capsys):
    cab = cabinet()
    m = cab.parts
    cab.insert_bill(5000)
    cab.psim.validation_polls = 10**6  # the job starts and stays before the validation number
    cash_out(m)
    assert wait_for(lambda: cab.psim.job is not None)
    cab.psim.power_cycle()
    assert wait_for(cab.settled)
    snap = m.station.snapshot()
    assert snap.phase == MachinePhase.CASHOUT and snap.cashout.method == "handpay"
    assert cab.devices.printer.last_result().outcome is PrintOutcome.UNKNOWN
    (ticket,) = m.table.ledger.tickets()
    assert ticket.status == "void" and "could not confirm" in ticket.void_reason
    m.station.execute(OperatorLogin("1111"))
    m.station.execute(HandpayReset())
    m.station.execute(OperatorLogout())
    meters = m.table.ledger.meters
    assert (meters["handpay"], meters["tickets_out"], credits_at(m)) == (5000, 0, 0)
    balanced(m)
    cab.close()
    audit_verify(capsys, cab.config)


def test_power_cut_mid_print_becomes_a_handpay_never_paid_twice(cabinet, capsys):
    # the printer reports the validation number done but never the end of the job, and
    # the power goes before the driver gives up: the ticket is out, the ledger never heard
    quick = replace(FAST_PRINTER, print_timeout=1.5)
    cab = cabinet(printer_config=quick)
    m = cab.parts
    cab.insert_bill(10000)
    cab.psim.complete_polls = 10**6
    req = cash_out(m)
    assert wait_for(lambda: cab.psim.printed)
    paper = cab.psim.printed[-1]
    vn = paper.text(paper.barcode_region)
    assert ticket_record(m, vn).status == "pending"
    m.table.ledger.close()  # power cut: nothing more reaches the disk
    cab.devices.close()
    cab.closed = True
    # power back: the pending ticket is voided and the cash-out becomes a handpay
    cab2 = cabinet()
    m2 = cab2.parts
    snap = m2.station.snapshot()
    assert snap.phase == MachinePhase.CASHOUT and snap.cashout.method == "handpay"
    assert snap.cashout.transaction_id == req.transaction_id and snap.cashout.amount == 10000
    ticket = ticket_record(m2, vn)
    assert ticket.status == "void" and "power lost" in ticket.void_reason
    assert not cab2.psim.printed  # nothing reprinted
    m2.station.execute(OperatorLogin("1111"))
    m2.station.execute(HandpayReset())
    m2.station.execute(OperatorLogout())
    # the ticket the patron took away is refused: paid once, by hand
    cab2.insert_ticket(vn)
    assert credits_at(m2) == 0 and [e.detail["reason"] for e in rejections(m2)] == ["void"]
    meters = m2.table.ledger.meters
    assert meters["handpay"] == 10000 and meters["tickets_out"] == 0
    assert meters["tickets_in"] == 0 and meters["cashout_started"] == 10000
    bal = balanced(m2)
    assert bal["credits_out"] == 10000 and bal["payout_pending"] == 0
    cab2.close()
    audit_verify(capsys, cab2.config)


def test_power_cut_before_the_printer_takes_the_job_becomes_a_handpay(cabinet, capsys):
    # the cash-out and its ticket are one transaction: at power-up the cabinet cannot
    # tell whether the printer had started, so the number is voided and an attendant pays
    cab = cabinet()
    m = cab.parts
    cab.insert_bill(2000)
    cab.devices.printer.close()  # the printer's thread is gone: the job is never taken
    req = cash_out(m)
    (pending,) = m.table.ledger.tickets()
    assert pending.status == "pending" and pending.cashout_txn == req.transaction_id
    m.table.ledger.close()  # power cut
    cab.devices.close()
    cab.closed = True
    cab2 = cabinet()
    m2 = cab2.parts
    snap = m2.station.snapshot()
    assert snap.cashout is not None and snap.cashout.method == "handpay"
    (ticket,) = m2.table.ledger.tickets()
    assert ticket.status == "void" and "power lost" in ticket.void_reason
    assert never(lambda: cab2.psim.printed, within=1.0)  # never printed after the cut
    m2.station.execute(OperatorLogin("1111"))
    m2.station.execute(HandpayReset())
    m2.station.execute(OperatorLogout())
    assert m2.table.ledger.meters["handpay"] == 2000 and credits_at(m2) == 0
    balanced(m2)
    cab2.close()
    audit_verify(capsys, cab2.config)
