"""A note the validator hands back says why on the player's screen, the way a
returned ticket does: a note of no accepted denomination, and a note the validator
itself rejects; from the attract screen the table opens to say it."""

from __future__ import annotations

import pytest
from support.cabinet_screens import CabinetScreens

from devices.host import DeviceEventKind, make_event
from kiosk.game.vocabulary import SEAT

BILL_NOT_ACCEPTED = "This bill is not accepted."


@pytest.fixture
def cab(tmp_path):
    c = CabinetScreens(tmp_path / "cab", (800, 480), shots="note-refusals")
    yield c
    c.close()


def test_a_note_of_no_accepted_denomination_draws_a_sentence(cab):
    assert cab.scene.name == "attract"
    assert 700 not in cab.cabinet.config.accepted_bills
    assert cab.cabinet.notes.escrow_decision(700, "n-seven") is False  # returned to the player
    cab.cabinet.notes.escrow_aborted("n-seven", "returned")
    cab.until(lambda: BILL_NOT_ACCEPTED in cab.drawn_words(), timeout=5, what="the note's sentence")
    assert cab.scene.name == "table"
    assert cab.cabinet.station.snapshot().credits == 0


def test_a_note_the_validator_rejects_draws_a_sentence(cab):
    cab.app.go("table")
    cab.run(0.1)
    assert BILL_NOT_ACCEPTED not in cab.drawn_words()
    cab.cabinet.table.device_report(
        SEAT, make_event("validator", DeviceEventKind.REJECTED, "denomination error", code=0x76)
    )
    cab.until(lambda: BILL_NOT_ACCEPTED in cab.drawn_words(), timeout=5, what="the note's sentence")
