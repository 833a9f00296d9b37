"""Every decision a player makes is stored with its exact value and the optimal one's,
computed beside the round: the commit itself stays fast."""

from __future__ import annotations

import json
import time

import pytest
from support.cabinet import insert_note

from engine.maths.decision_values import DecisionValuer
from engine.maths.par import main_analysis
from engine.rng import SeededRandomSource
from engine.uth.round import Action, Phase
from kiosk.config import load_config
from kiosk.game import round_values
from kiosk.game.commands import Deal, Decide, PlaceChip
from kiosk.game.round_values import VALUE_WAIT_S
from kiosk.game.snapshot import MachinePhase
from kiosk.game.vocabulary import SEAT
from kiosk.ledger.records import parse_decisions
from kiosk.wiring.lone_cabinet import LoneCabinet


@pytest.fixture
def machine(tmp_path):
    config = load_config(db_path=tmp_path / "uth.db", decision_values=True)
    m = LoneCabinet.open(config, rng=SeededRandomSource(11))
    insert_note(m, 10000)
    yield m
    m.close()


def play_round(m: LoneCabinet, choose) -> list[float]:
    """Deal and decide by ``choose(legal)``; the seconds each decision took."""
    m.station.execute(PlaceChip("ante", 500))
    m.station.execute(Deal())
    times = []
    while m.station.snapshot().phase == MachinePhase.IN_ROUND:
        values = m.table.decision_values(SEAT)
        assert values is not None
        values.get(_phase(m), 60)  # ready: the player took their time
        t0 = time.perf_counter()
        m.station.execute(Decide(choose(m.station.snapshot().legal)))
        times.append(time.perf_counter() - t0)
    return times


def _phase(m: LoneCabinet) -> Phase:
    legal = set(m.station.snapshot().legal)
    if Action.PLAY_4X in legal:
        return Phase.PREFLOP
    return Phase.FLOP if Action.PLAY_2X in legal else Phase.RIVER


@pytest.mark.heavy
def test_each_decision_is_stored_with_its_exact_value_and_the_optimal_ones(machine):
    times = []
    for _ in range(3):
        times += play_round(machine, lambda legal: legal[-1])  # check, check, fold
    records = machine.table.ledger.recall(3)
    valuer = round_values.valuer_for(machine.station.snapshot().paytable)
    assert isinstance(valuer, DecisionValuer)
    for r in records:
        assert [d.phase for d in r.decisions] == [Phase.PREFLOP, Phase.FLOP, Phase.RIVER]
        hole, board = r.deck[0:3:2], r.deck[4:9]
        for d in r.decisions:
            expected = valuer.at(d.phase, hole, board)
            assert d.ev == expected.value(d.action) and d.best == expected.best
            assert d.best_ev == expected.best_value and d.loss >= 0
    assert records[0].decisions[2].ev == -2  # a fold
    # values ready: no decision sat out the wait for them (VALUE_WAIT_S each)
    assert max(times) < VALUE_WAIT_S / 2, times


def test_rows_without_values_still_read():
    old = json.dumps([["preflop", "check", 0, "t1"], {"type": "decision", "seat": 1,
                      "phase": "flop", "action": "check", "play": 0, "at": "t2"}])
    a, b = parse_decisions(old, 1)
    assert a.ev is None and b.best is None and b.loss is None


def test_a_valuer_uses_the_optimal_analysis_of_the_table_in_force(machine):
    table = machine.station.snapshot().paytable
    valuer = round_values.valuer_for(table)
    assert valuer is round_values.valuer_for(table)
    assert valuer.analysis.params_key == main_analysis(table, "optimal").params_key


def test_a_cabinet_configured_without_decision_values_records_none(tmp_path):
    config = load_config(db_path=tmp_path / "uth.db", decision_values=False)
    m = LoneCabinet.open(config, rng=SeededRandomSource(11))
    try:
        insert_note(m, 10000)
        m.station.execute(PlaceChip("ante", 500))
        m.station.execute(Deal())
        while m.station.snapshot().phase == MachinePhase.IN_ROUND:
            m.station.execute(Decide(m.station.snapshot().legal[-1]))
        (record,) = m.table.ledger.recall(1)
        assert len(record.decisions) == 3
        assert all(d.ev is None and d.best is None for d in record.decisions)
    finally:
        m.close()
