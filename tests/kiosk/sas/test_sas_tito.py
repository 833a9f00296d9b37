"""TITO through the casino's host: cash-outs validated by the host (57 / 58), tickets
from other machines redeemed here (67 / 70 / 71 / 68), and their faults.  The game side
is the game service itself on a real ledger file (:mod:`tests.support.sas_game`), its
devices' reports sent as a station sends them; the host is the project's, over the pty
transport."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from devices.sas.bcd import to_bcd
from devices.sas.host import decode
from devices.sas.session import TicketBook
from kiosk.game.errors import TicketRefused
from kiosk.sas import link as link_module
from tests.support.sas_floor import Floor, open_floor, poll_until
from tests.support.sas_rig import wait_for


@pytest.fixture
def floor(tmp_path: Path) -> Iterator[Floor]:
    f = open_floor(tmp_path / "a.db", TicketBook(tmp_path / "book.json"))
    yield f
    f.stop()


def test_a_cash_out_is_printed_with_the_hosts_validation_number(floor):
    g = floor.game
    g.insert_bill(1, 5000)
    g.cash_out(1)
    poll_until(floor, 0x57)  # the session read 57 and sent 58
    floor.settle()
    printed = g.tickets_printed()
    assert len(printed) == 1 and printed[0][1] == 5000
    number = printed[0][0]
    assert number in floor.session.book.tickets and number.startswith("01")
    assert floor.session.book.state(number) == "validated"  # not redeemable before printed
    poll_until(floor, 0x3D)  # the host reads the ticket's 4D record
    read = next(x for x in floor.session.exchanges if x.sent[1] == 0x4D)
    rec = decode(0x4D, read.answer)
    assert rec["validation"] == number[2:] and rec["system_id"] == 1 and rec["amount"] == 5000
    assert floor.session.book.state(number) == "issued"


def test_a_58_after_the_printer_reported_done_changes_nothing(floor):
    g = floor.game
    g.insert_bill(1, 2000)
    g.cash_out(1)
    poll_until(floor, 0x57)
    floor.settle()
    assert len(g.tickets_printed()) == 1
    late = to_bcd(2, 1) + bytes.fromhex("1234567890123456")
    answer = floor.host.long_poll(1, 0x58, late)
    assert decode(0x58, answer.answer)["status"] == 0x80  # not in a cash-out
    floor.settle()
    assert g.tickets_printed() == [(g.tickets_printed()[0][0], 2000)]
    assert decode(0x57, floor.host.long_poll(1, 0x57).answer)["cashout_type"] == 0x80


def test_a_denied_or_unanswered_validation_becomes_a_handpay(floor, monkeypatch):
    g = floor.game
    g.insert_bill(1, 3000)
    g.cash_out(1)
    floor.settle()
    deny = b"\x00" + bytes(8)
    assert decode(0x58, floor.host.long_poll(1, 0x58, deny).answer)["status"] == 0x00
    floor.settle()
    assert g.pending_payout_method(1) == "handpay" and g.tickets_printed() == []
    monkeypatch.setattr(link_module, "VALIDATION_TIMEOUT_S", 0.3)
    g.attendant_pays(1)
    g.insert_bill(1, 1000)
    g.cash_out(1)
    assert wait_for(lambda: g.pending_payout_method(1) == "handpay", 5)  # nobody answered
    g.attendant_pays(1)
    assert g.meters(1).get("handpay") == 4000


def test_a_ticket_from_the_floor_is_redeemed_once(floor):
    g = floor.game
    number = floor.session.book.issue(2500)
    escrow = g.insert_ticket(1, number)
    poll_until(floor, 0x67)  # 70 read, 71 sent: authorised
    floor.settle()
    assert g.escrow_state(1, escrow) == "authorised"
    assert g.meters(1).get("credits", 0) == 0  # not before the stacker
    status = decode(0x71, floor.host.long_poll(1, 0x71, b"\xff").answer)
    assert status["status"] == 0x40  # pending
    assert g.validator_stacked(1, escrow)
    assert not g.validator_stacked(1, escrow)  # the stacker's report again: nothing more
    poll_until(floor, 0x68)
    assert decode(0x71, floor.session.exchanges[-1].answer)["status"] == 0x00
    assert g.meters(1)["credits"] == 2500 and g.meters(1)["tickets_in"] == 2500
    assert g.table.meter_readings(1)["system_tickets_in"] == 2500


def test_a_duplicated_71_is_answered_and_never_redeemed_twice(floor):
    g = floor.game
    number = floor.session.book.issue(700)
    escrow = g.insert_ticket(1, number)
    poll_until(floor, 0x67)
    redeem = floor.session.exchanges[-1].sent
    floor.host.acknowledge()
    for _ in range(3):  # the host sends the same redeem again, each time acknowledged
        again = floor.host.send_poll(1, redeem)
        assert decode(0x71, again.answer)["status"] in (0x40, 0x00)
        floor.host.acknowledge()
    floor.settle()
    assert g.redemptions(escrow) == 1
    g.validator_stacked(1, escrow)
    floor.settle()
    again = floor.host.send_poll(1, redeem)
    assert decode(0x71, again.answer)["status"] == 0x00
    assert g.meters(1)["credits"] == 700


def test_a_ticket_the_host_refuses_is_returned_and_credits_nothing(floor):
    g = floor.game
    escrow = g.insert_ticket(1, "019999999999999999")  # not in the host's book
    poll_until(floor, 0x67)
    assert decode(0x71, floor.session.exchanges[-1].answer)["status"] == 0x80
    poll_until(floor, 0x68)
    assert g.escrow_state(1, escrow) == "returned"
    assert g.meters(1).get("credits", 0) == 0


def test_a_power_cut_between_redeem_and_stacker_credits_once(tmp_path):
    book = TicketBook(tmp_path / "book.json")
    f = open_floor(tmp_path / "a.db", book)
    number = book.issue(1500)
    escrow = f.game.insert_ticket(1, number)
    poll_until(f, 0x67)
    f.settle()
    f.stop(orderly=False)  # the power goes after "redeem", before the stacker
    again = open_floor(tmp_path / "a.db", TicketBook(tmp_path / "book.json"))
    try:
        g = again.game
        assert g.escrow_state(1, escrow) == "authorised"
        assert g.meters(1).get("credits", 0) == 0
        g._tickets[escrow] = number
        assert g.validator_stacked(1, escrow)  # the validator's report at power-up
        poll_until(again, 0x68)
        assert decode(0x71, again.session.exchanges[-1].answer)["status"] == 0x00
        assert g.meters(1)["credits"] == 1500
        assert g.redemptions(escrow) == 1  # recorded once, across the restart
    finally:
        again.stop()
    third = open_floor(tmp_path / "a.db", TicketBook(tmp_path / "book.json"))
    try:
        third.game._tickets[escrow] = number
        assert not third.game.validator_stacked(1, escrow)
        assert third.game.meters(1)["credits"] == 1500
    finally:
        third.stop()


def test_a_ticket_printed_by_one_machine_is_redeemed_at_another_through_the_host(tmp_path):
    book_path = tmp_path / "book.json"
    a = open_floor(tmp_path / "a.db", TicketBook(book_path))
    b = open_floor(tmp_path / "b.db", TicketBook(book_path), address=9)
    try:
        a.game.insert_bill(1, 4000)
        a.game.cash_out(1)
        poll_until(a, 0x57)
        poll_until(a, 0x3D)  # printed: the host reads its 4D record and honours it
        number, amount = a.game.tickets_printed()[0]
        b.session.book = TicketBook(book_path)  # the host's book, as the other line sees it
        escrow = b.game.insert_ticket(1, number)
        poll_until(b, 0x67)
        b.settle()  # the host's answer recorded
        assert b.game.validator_stacked(1, escrow)
        poll_until(b, 0x68)
        assert b.game.meters(1)["credits"] == amount == 4000
        # the same ticket again: refused by the host at the machine that printed it, and
        # by the machine that redeemed it before the host is asked; nothing credited
        second = a.game.insert_ticket(1, number)
        poll_until(a, 0x67)
        poll_until(a, 0x68)
        assert a.game.escrow_state(1, second) == "returned"
        with pytest.raises(TicketRefused):
            b.game.insert_ticket(1, number)
        assert b.game.meters(1)["credits"] == 4000
        assert a.game.meters(1).get("credits", 0) == 0
    finally:
        a.stop()
        b.stop()


def test_a_seven_station_table_answers_at_seven_addresses(tmp_path):
    f = open_floor(tmp_path / "t.db", TicketBook(), stations=7, address=11)
    try:
        assert f.service.addresses == {11 + i: 1 + i for i in range(7)}
        notes = {st: note for st, note in enumerate((100, 500, 1000, 2000, 5000, 10000, 500), 1)}
        for st in range(1, 8):
            f.game.insert_bill(st, notes[st])  # one note each: one bill exception each
        f.settle()
        for st in range(1, 8):
            addr = 10 + st
            assert decode(0x1A, f.host.long_poll(addr, 0x1A).answer)["credits"] == notes[st]
            assert f.host.general_poll(addr).code == 0x4F
        for st in range(1, 8):
            assert f.host.general_poll(10 + st).code == 0x00  # the other polls acknowledged them
    finally:
        f.stop()
