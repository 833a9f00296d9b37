"""A fresh cabinet (its own home, a cold PAR cache) tells the player the standard table's
return on the Pays page from its first attract screen: the paytable's proven record."""

from __future__ import annotations

from support.cabinet_screens import CabinetScreens


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
