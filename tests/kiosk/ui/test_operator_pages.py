"""The operator menu's reading pages, driven through the app's input events: meters
named and grouped, the event log in words, the hand pay with its voided ticket, the full
paytable SHA-256, all readable at 800x480."""

from __future__ import annotations

import re

import pytest
from support.cabinet import cash_out, insert_note
from support.operator_screens import OperatorScreens

from devices.tcl import PrintOutcome
from kiosk.station.paperless import PaperlessPrinter

#: The smallest text an operator page may draw at 800x480, pixels.
MIN_PX = 12


def JammedPrinter() -> PaperlessPrinter:
    """A printer that jams: the ticket is ordered, then voided (the printer cannot tell
    whether it printed), and the cash-out becomes a hand pay."""
    return PaperlessPrinter(PrintOutcome.UNKNOWN, "printer jammed")

@pytest.fixture
def screens(tmp_path):
    made: list[OperatorScreens] = []

    def make(**kw) -> OperatorScreens:
        folder = tmp_path / f"s{len(made)}"
        folder.mkdir()
        s = OperatorScreens(folder, **kw)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def page_texts(s: OperatorScreens) -> list[tuple[str, int]]:
    """What the page drew (not the title bar, nor the keyboard hints in button corners)."""
    skip = {s.scene.title()} | {b.hint for b in s.scene.buttons()}
    return [(t, px) for t, px in s.texts if t not in skip]


def test_meters_are_named_grouped_and_bills_in_numeric_order(screens):
    s = screens()
    for cents in (10000, 500, 2000, 500):
        insert_note(s.cabinet, cents)
    s.login("246810", door=False)
    s.touch("page_meters")
    drawn = [t for t, _px in page_texts(s)]
    for raw in ("coin_in", "games_played", "bill.500", "bills_in_count", "handpay_count"):
        assert all(raw not in t for t in drawn), raw
    for group in ("Money in", "Money out", "Games", "Bills by denomination", "Tickets", "Hand pays"):
        assert group in drawn, group
    order = [drawn.index(d) for d in ("$5", "$20", "$100")]
    assert order == sorted(order)  # numeric order, not text order
    assert "$10.00  (2)" in drawn  # two $5 bills
    assert min(px for _t, px in page_texts(s)) >= MIN_PX


def test_the_event_log_is_in_words_with_money_and_names(screens):
    s = screens()
    insert_note(s.cabinet, 2000)
    s.login("246810", door=True)
    s.touch("page_events")
    drawn = s.drawn()
    assert "Bill of $20.00 stacked." in drawn
    assert "Ann Smith logged in as attendant." in drawn
    assert "Main door opened." in drawn
    assert "=" not in drawn and "clean_shutdown" not in drawn and "bill_in" not in drawn
    assert min(px for _t, px in page_texts(s)) >= MIN_PX


def test_the_hand_pay_page_shows_the_voided_ticket_masked_below_manager(screens):
    s = screens(printer=JammedPrinter())
    insert_note(s.cabinet, 5000)
    cash_out(s.cabinet, s.printer)
    number = s.cabinet.table.ledger.last_event("ticket_void").detail["validation"]
    assert len(number) == 18
    s.login("246810", door=False)  # attendant
    s.touch("page_handpay")
    drawn = s.drawn()
    assert "Voided ticket" in drawn and "*" * 14 + number[-4:] in drawn
    assert number not in drawn
    assert "$50.00" in drawn
    s.touch("logout")
    s.login("975310", door=False)  # manager: the whole number
    s.touch("page_handpay")
    assert number in s.drawn()
    s.touch("handpay")
    assert s.scene.result == ("Hand pay recorded.", True)
    assert s.snap.cashout is None
    assert "Voided ticket" not in s.drawn()
    assert "Hand pay of $50.00 paid by Cy Young." in s.drawn()


def test_the_full_paytable_sha256_is_on_the_machine_page(screens):
    s = screens()
    s.login("135790", door=False)
    s.touch("page_machine")
    digest = s.snap.paytable.sha256
    hex_runs = "".join(re.sub(r"[^0-9a-f]", "", t) for t in s.drawn().split("\n") if re.fullmatch(r"[0-9a-f ]+", t))
    assert digest in hex_runs and len(digest) == 64


def test_the_release_keys_fingerprint_is_on_the_machine_page(screens):
    from kiosk.integrity.signing import release_fingerprint

    s = screens()
    s.login("135790", door=False)
    s.touch("page_machine")
    shown = [re.sub(r"[^0-9a-f]", "", t) for t in s.drawn().split("\n")]
    assert release_fingerprint()[:32] in shown


@pytest.mark.parametrize("page", ["meters", "events", "handpay", "tilts", "machine", "export", "limits", "paytable",
                                  "recall", "audit", "devices"])
def test_every_page_is_readable_at_800x480(screens, page):
    s = screens(printer=JammedPrinter())
    insert_note(s.cabinet, 2000)
    cash_out(s.cabinet, s.printer)
    s.login("975310", door=True)
    s.touch(f"page_{page}")
    small = [(t, px) for t, px in page_texts(s) if px < MIN_PX and t.strip()]
    assert small == []
