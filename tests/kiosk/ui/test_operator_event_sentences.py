"""The event log's sentences for the strategy coach and the paytable export name the
person and what they did (never the raw event kind)."""

from kiosk.ledger.records import EventRecord
from kiosk.ui.i18n import money, set_language
from kiosk.ui.scenes.operator.event_text import sentence


def event(kind: str, detail: dict) -> EventRecord:
    return EventRecord(1, "2026-12-01T10:00:00", kind, 0, None, None, detail, "0" * 64)


def test_coach_and_export_events_read_as_sentences():
    set_language("en")
    assert sentence(event("coach_changed", {"operator": "Ann", "on": True}), money) == (
        "Ann turned the strategy coach on."
    )
    assert sentence(event("coach_changed", {"operator": "Ann", "on": False}), money) == (
        "Ann turned the strategy coach off."
    )
    exported = event(
        "paytable_exported",
        {"operator": "Bo", "name": "Standard", "version": "1", "folder": "/media/usb0"},
    )
    assert sentence(exported, money) == "Bo exported the paytable Standard 1 to /media/usb0."
