"""While play is suspended (the door open, a tilt) the table under the overlay asks for
nothing: no "Place your bets", no lit REBET & DEAL."""

from __future__ import annotations

from test_ui import WIN, start_round


def test_the_door_tilt_leaves_nothing_lit_or_asking_under_the_overlay(kiosks):
    k = kiosks(WIN)
    start_round(k)
    k.key("p")
    k.settle()
    assert k.button("deal").enabled and k.button("deal").label == "REBET & DEAL"
    table = k.app.scenes["table"]
    assert "bets" in table.prompt()[0]
    k.key("f9")  # the door opens
    assert k.app.tilted
    assert table.prompt()[0] == "Play is suspended. Your credits are safe."
    lit = [b.id for b in table.buttons() if b.enabled and not b.id.startswith("top_")]
    assert lit == []
    k.key("f9")  # closed again: the table asks for bets again
    assert not k.app.tilted and k.button("deal").enabled and "bets" in table.prompt()[0]
