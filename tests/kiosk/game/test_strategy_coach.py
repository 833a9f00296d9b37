"""The strategy coach: an operator option, off by default, recorded with the operator and
restored at power-up; its tip names the costliest decision of the settled round that was
not optimal, from the exact values in the ledger."""

from __future__ import annotations

import pytest
from support.cabinet import insert_note

from engine.rng import SeededRandomSource
from engine.uth.round import Action, Phase
from kiosk.config import load_config
from kiosk.game import round_values
from kiosk.game.coach import tip_of
from kiosk.game.commands import (
    ClearBets,
    Deal,
    Decide,
    OperatorLogin,
    OperatorLogout,
    PlaceChip,
    SetStrategyCoach,
)
from kiosk.game.errors import NotAuthorised
from kiosk.game.snapshot import MachinePhase
from kiosk.game.vocabulary import SEAT
from kiosk.wiring.lone_cabinet import LoneCabinet


def play(m: LoneCabinet, choose) -> None:
    """One $5 round, each decision by ``choose(legal)`` once its exact values are ready."""
    m.station.execute(PlaceChip("ante", 500))
    m.station.execute(Deal())
    while m.station.snapshot().phase == MachinePhase.IN_ROUND:
        legal = m.station.snapshot().legal
        phase = (
            Phase.PREFLOP
            if Action.PLAY_4X in legal
            else Phase.FLOP
            if Action.PLAY_2X in legal
            else Phase.RIVER
        )
        values = m.table.decision_values(SEAT)
        assert values is not None
        values.get(phase, 60)  # the player took their time
        m.station.execute(Decide(choose(legal)))


@pytest.fixture
def config(tmp_path, monkeypatch):
    monkeypatch.setenv("UTH_DECISION_VALUES", "1")
    return load_config(db_path=tmp_path / "uth.db")


def set_coach(m: LoneCabinet, on: bool, pin: str = "2222") -> None:
    m.station.execute(OperatorLogin(pin))
    try:
        m.station.execute(SetStrategyCoach(on))
    finally:
        m.station.execute(OperatorLogout())


def test_the_coach_is_off_by_default_set_by_a_technician_and_restored(config):
    m = LoneCabinet.open(config, rng=SeededRandomSource(5))
    try:
        assert m.station.snapshot().coach is False
        m.station.execute(OperatorLogin("1111"))  # an attendant may not
        with pytest.raises(NotAuthorised):
            m.station.execute(SetStrategyCoach(True))
        m.station.execute(OperatorLogout())
        set_coach(m, True)
        assert m.station.snapshot().coach is True
        (ev,) = m.station.ledger_events(("coach_changed",))
        assert ev.detail == {"operator": "technician", "on": True}
        set_coach(m, True)  # already on: nothing more recorded
        assert len(m.station.ledger_events(("coach_changed",))) == 1
    finally:
        m.close()
    m = LoneCabinet.open(config, rng=SeededRandomSource(5))
    try:
        assert m.station.snapshot().coach is True
        set_coach(m, False)
    finally:
        m.close()
    m = LoneCabinet.open(config, rng=SeededRandomSource(5))
    try:
        assert m.station.snapshot().coach is False
    finally:
        m.close()


def test_the_tip_names_the_costliest_decision_not_optimal(config):
    m = LoneCabinet.open(config, rng=SeededRandomSource(5))
    try:
        round_values.valuer_for(m.station.snapshot().paytable)
        insert_note(m, 10000)
        insert_note(m, 10000)
        set_coach(m, True)
        tips = []
        for _ in range(6):
            play(m, lambda legal: legal[-1])  # always check, then fold
            snap = m.station.snapshot()
            record = m.table.recall(1, station=SEAT)[0]
            losses = [d.loss for d in record.decisions]
            assert all(x is not None for x in losses)
            if max(losses) > 0:
                worst = record.decisions[losses.index(max(losses))]
                assert snap.coach_tip is not None and snap.coach_tip.round_id == record.id
                assert (snap.coach_tip.action, snap.coach_tip.best) == (worst.action, worst.best)
                assert snap.coach_tip.loss == max(losses)
                tips.append(snap.coach_tip)
            else:
                assert snap.coach_tip is None
        assert tips  # six rounds of check-check-fold: some decision was not optimal
        m.station.execute(PlaceChip("ante", 500))  # the next bet: the tip is gone with the result
        assert m.station.snapshot().coach_tip is None
        m.station.execute(ClearBets())
        set_coach(m, False)
        play(m, lambda legal: legal[-1])
        assert m.station.snapshot().coach_tip is None  # off: no tip
    finally:
        m.close()


def test_an_optimal_round_has_no_tip(config):
    m = LoneCabinet.open(config, rng=SeededRandomSource(8))
    try:
        round_values.valuer_for(m.station.snapshot().paytable)
        insert_note(m, 10000)
        insert_note(m, 10000)
        set_coach(m, True)

        def optimal(legal):
            values = m.table.decision_values(SEAT)
            phase = (
                Phase.PREFLOP
                if Action.PLAY_4X in legal
                else Phase.FLOP
                if Action.PLAY_2X in legal
                else Phase.RIVER
            )
            return values.get(phase, 60).best

        play(m, optimal)
        record = m.table.recall(1, station=SEAT)[0]
        assert all(d.loss == 0 for d in record.decisions)
        assert tip_of(record) is None and m.station.snapshot().coach_tip is None
    finally:
        m.close()


def test_a_round_without_values_has_no_tip(tmp_path):
    m = LoneCabinet.open(
        load_config(db_path=tmp_path / "uth.db"), rng=SeededRandomSource(5)
    )  # values off
    try:
        insert_note(m, 10000)
        insert_note(m, 10000)
        set_coach(m, True)
        m.station.execute(PlaceChip("ante", 500))
        m.station.execute(Deal())
        while m.station.snapshot().phase == MachinePhase.IN_ROUND:
            m.station.execute(Decide(m.station.snapshot().legal[-1]))
        assert (
            tip_of(m.table.recall(1, station=SEAT)[0]) is None
            and m.station.snapshot().coach_tip is None
        )
    finally:
        m.close()
