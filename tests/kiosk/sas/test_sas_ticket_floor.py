"""Tickets across a floor of two machines on one casino system, over the pty transport:
a ticket is paid once on the whole floor, the machine's own tickets included, and the
host's book commits a redemption only at the machine's transfer complete (68)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from devices.sas.session import TicketBook
from kiosk.game.errors import TicketRefused
from tests.support.sas_floor import Floor, open_floor, poll_until


def poll_for(floor: Floor, code: int, tries: int = 20) -> bool:
    """General polls (each acted on by the host) until ``code`` came: whether it did."""
    try:
        poll_until(floor, code, tries, seconds=0.0)
    except AssertionError:
        return False
    return True


def cash_out_ticket(floor: Floor, cents: int) -> str:
    """A player at ``floor``'s station 1 cashes ``cents`` out to a ticket numbered by the
    host (57 / 58), printed and reported (3D, 4D): its number."""
    floor.game.insert_bill(1, cents)
    floor.game.cash_out(1)
    poll_until(floor, 0x57)
    poll_until(floor, 0x3D)
    number, amount = floor.game.tickets_printed()[-1]
    assert amount == cents
    return number


def test_a_machines_own_ticket_goes_through_the_host_and_a_copy_is_refused_elsewhere(tmp_path):
    book = tmp_path / "book.json"
    a = open_floor(tmp_path / "a.db", TicketBook(book))
    b = open_floor(tmp_path / "b.db", TicketBook(book), address=9)
    try:
        number = cash_out_ticket(a, 10_000)
        escrow = a.game.insert_ticket(1, number)  # back at the machine that printed it
        asked = poll_for(a, 0x67)  # the host is asked (70 / 71)
        a.settle()  # the host's answer recorded
        a.game.validator_stacked(1, escrow)
        poll_for(a, 0x68)
        assert a.game.meters(1)["credits"] == 10_000
        copy = b.game.insert_ticket(1, number)  # a copy of the same ticket at machine B
        poll_until(b, 0x67)
        refused = poll_for(b, 0x68, tries=5) and b.game.escrow_state(1, copy) == "returned"
        if not refused:
            b.settle()  # the host's answer recorded
            b.game.validator_stacked(1, copy)  # B was told to take it: it is stacked
        assert b.game.meters(1).get("credits", 0) == 0, "the ticket was paid twice"
        assert refused
        assert asked, "the machine's own ticket was redeemed without asking the host"
        assert a.session.book.state(number) == "redeemed"
    finally:
        a.stop()
        b.stop()


def test_a_ticket_a_machine_redeemed_is_refused_there_whatever_the_host_says(tmp_path):
    book_path = tmp_path / "book.json"
    a = open_floor(tmp_path / "a.db", TicketBook(book_path))
    try:
        number = a.session.book.issue(3_000)  # printed at another machine
        escrow = a.game.insert_ticket(1, number)
        poll_until(a, 0x67)
        a.settle()  # the host's answer recorded
        a.game.validator_stacked(1, escrow)
        poll_until(a, 0x68)
        assert a.game.meters(1)["credits"] == 3_000
        # a host that lost its record of the redemption says "valid" again: the machine's
        # own set of redeemed numbers refuses it before anything is asked
        a.session.book.tickets[number]["state"] = "issued"
        a.session.book._save()
        with pytest.raises(TicketRefused) as refused:
            a.game.insert_ticket(1, number)
        assert refused.value.code == "ticket_redeemed"
        poll_for(a, 0x68, tries=5)
        assert a.game.meters(1)["credits"] == 3_000
    finally:
        a.stop()


def test_a_power_cut_between_71_and_68_loses_no_ticket(tmp_path):
    book_path = tmp_path / "book.json"
    a = open_floor(tmp_path / "a.db", TicketBook(book_path))
    b = open_floor(tmp_path / "b.db", TicketBook(book_path), address=9)
    number = a.session.book.issue(2_500)
    now = [1_000.0]  # the host's clock, seconds (a redemption waits 120 s for its 68)
    a.session.book.clock = lambda: now[0]
    a.game.insert_ticket(1, number)
    a.settle()
    # the power goes at machine A once the host's 71 is answered, before the game
    # records it: the updater stops first, the poll thread answers 67, 70, 71
    link = a.service.link
    link._stop.set()
    link.shared.wake.set()
    assert link._thread is not None
    link._thread.join()
    seen: list[int] = []
    while 0x67 not in seen and len(seen) < 20:
        seen += [x.code for x in a.session.cycle()] or [0]
    assert a.session.exchanges[-1].sent[1] == 0x71
    a.stop(orderly=False)
    a = open_floor(tmp_path / "a.db", TicketBook(book_path))  # power back: no record of it
    try:
        assert not poll_for(a, 0x68, tries=5)
        now[0] += 121  # no 68 within the stated time: the ticket is redeemable again
        b.session.book = TicketBook(book_path)
        b.session.book.clock = lambda: now[0]
        later = b.game.insert_ticket(1, number)
        poll_until(b, 0x67)
        b.settle()  # the host's answer recorded
        b.game.validator_stacked(1, later)
        poll_for(b, 0x68)
        assert b.game.meters(1).get("credits", 0) == 2_500, "the ticket was lost"
        assert TicketBook(book_path).state(number) == "redeemed"
    finally:
        a.stop()
        b.stop()


def test_a_late_68_commits_the_redemption_its_machine_recorded(tmp_path: Path):
    book = TicketBook(tmp_path / "book.json")
    book.pending_s = 0.0  # the machine's 68 comes after the stated time
    a = open_floor(tmp_path / "a.db", book)
    try:
        number = book.issue(1_200)
        escrow = a.game.insert_ticket(1, number)
        poll_until(a, 0x67)
        time.sleep(0.05)
        a.settle()  # the host's answer recorded
        a.game.validator_stacked(1, escrow)
        poll_until(a, 0x68)
        assert a.game.meters(1)["credits"] == 1_200
        assert TicketBook(tmp_path / "book.json").state(number) == "redeemed"
    finally:
        a.stop()


def test_a_pending_ticket_is_redeemable_nowhere_else_and_a_refused_copy_frees_nothing(tmp_path):
    book_path = tmp_path / "book.json"
    a = open_floor(tmp_path / "a.db", TicketBook(book_path))
    b = open_floor(tmp_path / "b.db", TicketBook(book_path), address=9)
    try:
        number = a.session.book.issue(900)
        escrow = a.game.insert_ticket(1, number)
        poll_until(a, 0x67)  # 71 sent: pending for machine A until its 68
        b.session.book = TicketBook(book_path)
        early = b.game.insert_ticket(1, number)
        poll_until(b, 0x67)
        poll_until(b, 0x68)
        assert b.game.escrow_state(1, early) == "returned"  # marked pending in the system
        a.settle()  # the host's answer recorded
        a.game.validator_stacked(1, escrow)
        poll_until(a, 0x68)
        for _ in range(2):  # copies at B, refused each time: a refusal frees nothing
            b.session.book = TicketBook(book_path)
            try:
                copy = b.game.insert_ticket(1, number)
            except TicketRefused:  # refused by machine B itself: it redeemed that number
                continue
            poll_until(b, 0x67)
            if not (poll_for(b, 0x68, tries=10) and b.game.escrow_state(1, copy) == "returned"):
                b.settle()  # the host's answer recorded
                b.game.validator_stacked(1, copy)
        assert a.game.meters(1)["credits"] == 900
        assert b.game.meters(1).get("credits", 0) == 0, "a copy was paid"
    finally:
        a.stop()
        b.stop()
