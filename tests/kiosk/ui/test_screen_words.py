"""Words a person stops at on the screens: one name for the dealer's hand in French (la
Banque, never "CROUPIER" beside it), the hold report and the Deep Stack table in French
words, and the demo tag in the player's language (デモ on a Japanese screen, not DEMO)."""

from __future__ import annotations

import pytest
from support.cabinet_screens import CabinetScreens

from kiosk.ui import i18n
from kiosk.ui.i18n import _


@pytest.fixture
def french():
    i18n.set_language("fr")
    yield
    i18n.set_language("en")


def test_french_names_the_dealers_hand_la_banque_everywhere(french):
    for msgid in (
        "DEALER",
        "Dealer",
        "Dealer won",
        "Dealer wins · {net}",
        "Dealer qualifies",
        "Dealer does not qualify",
        "Ante and Play pay 1 to 1 when you beat the dealer.",
    ):
        text = _(msgid)
        assert "banque" in text.lower() and "croupier" not in text.lower(), (msgid, text)


def test_french_says_hold_and_deep_stack_in_french(french):
    for msgid in (
        "Hold report",
        "Actual hold",
        "The actual hold is within its 99.9% band.",
        "Deep Stack",
    ):
        text = _(msgid)
        assert text != msgid and "hold" not in text.lower() and "deep" not in text.lower(), (
            msgid,
            text,
        )


def test_the_demo_tag_is_in_the_players_language(tmp_path):
    cab = CabinetScreens(tmp_path / "cab", (800, 480), shots="words")
    try:
        assert cab.app.model.demo
        cab.app.go("table")
        cab.run(0.1)
        assert "DEMO" in cab.drawn_words().split(" | ")
        i18n.set_language("ja")
        words = cab.drawn_words().split(" | ")
        assert "デモ" in words and "DEMO" not in words, words
    finally:
        cab.close()
        i18n.set_language("en")
