"""A ticket the validator hands back says why on the screen: an unknown number, one
already paid; on the attract screen the table opens to say it."""

from __future__ import annotations

import time

import pytest
from support.cabinet import cash_out
from test_ui import Kiosk

from kiosk.ui import i18n


@pytest.fixture
def kiosk(tmp_path):
    k = Kiosk(tmp_path / "k", (800, 480))
    yield k
    k.close()
    i18n.set_language("en")


def note_within(k: Kiosk, seconds: float = 5.0) -> str:
    """Step frames until a note shows (deadline ``seconds``); its text."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        k.run(0.05)
        n = k.app.model.current_note()
        if n is not None:
            return n.text
    raise AssertionError("no message on screen")


def test_an_unknown_ticket_is_refused_with_a_message_on_the_table(kiosk):
    k = kiosk
    assert k.scene.name == "attract"
    assert k.cabinet.notes.ticket_escrow("999999999999999999", "t-unknown") is None
    assert note_within(k) == "This ticket is not valid on this machine."
    assert k.scene.name == "table"
    assert k.snap.credits == 0


def test_a_ticket_already_paid_says_so(kiosk):
    k = kiosk
    k.app.go("table")
    k.key("4", "4")  # $20
    cash_out(k.cabinet, k.payout.devices)
    deadline = time.monotonic() + 10
    while not k.payout.printed and time.monotonic() < deadline:
        k.run(0.1)
    ticket = k.payout.printed[-1]
    amount = k.cabinet.notes.ticket_escrow(ticket.barcode, "t1")
    assert amount == 2000
    k.cabinet.notes.ticket_credited(ticket.barcode, amount, "t1")
    k.run(0.05)
    k.app.model.note = None
    assert k.cabinet.notes.ticket_escrow(ticket.barcode, "t2") is None
    assert note_within(k) == "This ticket has already been paid."
    assert k.snap.credits == 2000
