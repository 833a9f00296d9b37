"""``uth autoplay`` strategies choose among the legal, affordable decisions."""

from __future__ import annotations

import pytest
from support.cabinet import insert_note, place

from engine.rng import SeededRandomSource
from engine.uth.round import Action, Phase
from kiosk.commands.autoplay import Session, affordable_choice, load_strategy
from kiosk.config import load_config
from kiosk.game.snapshot import MachinePhase
from kiosk.wiring.lone_cabinet import LoneCabinet


def test_simple_strategy_with_credits_for_3x_but_not_4x_plays_3x(tmp_path):
    """With $26 on the meter and a $5 Ante, 3x ($15) is affordable after the deal and 4x
    ($20) is not: where the simple strategy raises 4x, the session plays 3x."""
    simple = load_strategy("simple")
    preflop: list[Action] = []

    def watched(view):
        action = simple(view)
        if view.phase == Phase.PREFLOP:
            preflop.append(action)
        return action

    wanted_4x = 0
    for seed in range(60):
        config = load_config(db_path=tmp_path / f"{seed}.db")
        cab = LoneCabinet.open(config, rng=SeededRandomSource(seed))
        for cents in (2000, 500, 100):
            insert_note(cab, cents)
        place(cab, ("ante", 500))
        snap = cab.station.snapshot()
        assert Action.PLAY_3X in snap.legal and Action.PLAY_4X not in snap.legal
        Session(cab, watched, ante=500, trips=0, bill=2000, pin=None).finish_round()
        if preflop[-1] == Action.PLAY_4X:  # "simple chose play_4x, not legal here" before
            wanted_4x += 1
            assert cab.table.ledger.last_settled().play == 1500
        cab.close()
        if wanted_4x >= 2:
            break
    assert wanted_4x >= 2


@pytest.mark.parametrize(
    ("choice", "legal", "expected"),
    [
        (Action.PLAY_4X, (Action.PLAY_4X, Action.PLAY_3X, Action.CHECK), Action.PLAY_4X),
        (Action.PLAY_4X, (Action.PLAY_3X, Action.CHECK), Action.PLAY_3X),
        (Action.PLAY_4X, (Action.CHECK,), Action.CHECK),
        (Action.PLAY_3X, (Action.CHECK,), Action.CHECK),
        (Action.PLAY_2X, (Action.CHECK,), Action.CHECK),
        (Action.PLAY_1X, (Action.FOLD,), Action.FOLD),
    ],
)
def test_the_best_legal_affordable_action_below_the_choice(choice, legal, expected):
    assert affordable_choice(choice, legal) == expected


def test_every_strategy_plays_rounds_on_little_credit(tmp_path):
    cab = LoneCabinet.open(load_config(db_path=tmp_path / "uth.db"), rng=SeededRandomSource(8))
    for name in ("simple", "cautious", "plain", "random"):
        session = Session(cab, load_strategy(name, 1), ante=500, trips=100, bill=500, pin=None)
        for _ in range(5):
            session.play_round()
        assert session.report.rounds == 5
    assert cab.station.snapshot().phase == MachinePhase.RESULT
    cab.close()
