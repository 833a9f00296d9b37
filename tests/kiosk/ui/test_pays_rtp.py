"""A fresh cabinet (its own home, a cold PAR cache) tells the player the standard table's
return on the Pays page from its first attract screen: the paytable's proven record.
While a table's record is computed at power-up the cabinet says so and asks to wait."""

from __future__ import annotations

from support.cabinet_screens import CabinetScreens

from kiosk.game.paytables.rtp_record import COMPUTING, RTP_GATE


def test_a_fresh_cabinets_pays_page_shows_the_return_of_the_standard_table(tmp_path):
    cab = CabinetScreens(tmp_path / "cab", shots="pays-rtp")
    try:
        assert cab.scene.name == "attract"
        cab.touch("pays")
        cab.until(lambda: cab.scene.name == "paytable", what="the Pays page")
        words = cab.drawn_words()
        assert "Theoretical return with perfect play: Main bets 99.47%, Trips 96.50%" in words, (
            words
        )
    finally:
        cab.close()


def test_while_the_return_is_computed_the_cabinet_says_so_and_asks_to_wait(tmp_path):
    cab = CabinetScreens(tmp_path / "cab", shots="pays-rtp")
    try:
        cab.cabinet.table.gate(RTP_GATE, COMPUTING)
        cab.run(0.1)
        seen: list[str] = []
        painter = cab.app.painter
        fitted = painter.fitted

        def spy(surface, text, *a, **k):
            seen.append(text)
            return fitted(surface, text, *a, **k)

        painter.fitted = spy
        try:
            cab.app.step(0.02)  # a whole frame, the overlay over the attract screen
        finally:
            del painter.fitted
        assert "PLEASE WAIT" in seen and "CALL ATTENDANT" not in seen, seen
        assert "The paytable's return to player is being computed." in seen, seen
        cab.cabinet.table.gate(RTP_GATE, None)
        cab.run(0.1)
        assert not cab.cabinet.station.snapshot().tilts
    finally:
        cab.close()
