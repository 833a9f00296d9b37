"""The strategy coach on the table: with the operator's option on, one line under the
result names the round's costliest decision that was not optimal, once the settlement
show is over; nothing when every decision was optimal, nor with the option off."""

from __future__ import annotations

import pytest
from test_ui import WIN, Kiosk, start_round

from kiosk.game import round_values
from kiosk.game.commands import (
    OperatorLogin,
    OperatorLogout,
    SetStrategyCoach,
)
from kiosk.ui import i18n

TIP = "Tip: "


class Recorder:
    """Every string the app draws, frame after frame."""

    def __init__(self, k: Kiosk) -> None:
        self.texts: list[str] = []
        render = k.app.text.render

        def recording(s: str, px: int, *args, **kw):
            self.texts.append(s)
            return render(s, px, *args, **kw)

        k.app.text.render = recording  # type: ignore[method-assign]


@pytest.fixture
def coached(tmp_path, monkeypatch):
    monkeypatch.setenv("UTH_DECISION_VALUES", "1")
    made: list[Kiosk] = []

    def make(coach: bool, size=(800, 480)) -> Kiosk:
        k = Kiosk(tmp_path / f"k{len(made)}", size, WIN, WIN)
        made.append(k)
        round_values.valuer_for(k.snap.paytable)
        if coach:
            k.cabinet.station.execute(OperatorLogin("2222"))
            k.cabinet.station.execute(SetStrategyCoach(True))
            k.cabinet.station.execute(OperatorLogout())
        return k

    yield make
    for k in made:
        k.close()
    i18n.set_language("en")


def play_aces(k: Kiosk, first: str) -> list[str]:
    """Pocket aces: ``first`` before the flop (then Play 2x on the flop); what was drawn
    during the round and its result."""
    rec = Recorder(k)
    start_round(k)
    k.settle()
    k.touch(f"act_{first}")
    k.settle()
    while k.snap.phase == "in_round":
        ids = {b.id for b in k.scene.buttons()}
        k.touch("act_play_2x" if "act_play_2x" in ids else "act_play_1x")
        k.settle()
    k.settle()
    k.run(0.2)
    return rec.texts


def tips(texts: list[str]) -> list[str]:
    return [t for t in texts if t.startswith(TIP)]


@pytest.mark.heavy
def test_a_decision_not_optimal_is_named_under_the_result(coached):
    k = coached(True)
    drawn = play_aces(k, "check")  # aces: 4x is optimal, a check costs
    tip = k.snap.coach_tip
    assert tip is not None and tip.action == "check" and tip.best == "play_4x"
    want = f"Tip: Play 4× was worth {float(tip.loss):.2f} Ante more than Check"
    assert want in " ".join(drawn), drawn
    k.app.screenshot("/tmp/shots/coach_tip_800x480.png")


def test_nothing_is_shown_when_every_decision_was_optimal(coached):
    k = coached(True)
    drawn = play_aces(k, "play_4x")
    assert k.snap.coach and k.snap.coach_tip is None
    assert tips(drawn) == []
    assert any("PAID" in t for t in drawn)  # the result itself was drawn


def test_nothing_is_shown_with_the_coach_off(coached):
    k = coached(False)
    drawn = play_aces(k, "check")
    assert not k.snap.coach and k.snap.coach_tip is None
    assert tips(drawn) == []
