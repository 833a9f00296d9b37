"""Game recall shows each decision's exact value against its best alternative, on the
operator's recall page and on the player's recall screen; rounds stored without values
show nothing more."""

from __future__ import annotations

import re

import pytest
from support.cabinet import insert_note
from support.operator_screens import OperatorScreens

from engine.uth.round import Phase
from kiosk.game import round_values
from kiosk.game.commands import (
    Deal,
    Decide,
    PlaceChip,
)
from kiosk.game.snapshot import MachinePhase
from kiosk.game.vocabulary import SEAT
from kiosk.ui.scenes.recall import ACTIONS, PHASES

VALUE = re.compile(
    r"(Play [4321]×|Check|Fold): (\d+\.\d\d Ante better than (Play [4321]×|Check|Fold)"
    r"|\d+\.\d\d Ante worse than (Play [4321]×|Check|Fold) \(optimal\)|as good as .+)$"
)


def play_round(s: OperatorScreens, choose) -> None:
    """Deal one round and decide each spot by ``choose(legal)`` once its values are ready."""
    m = s.cabinet
    m.station.execute(PlaceChip("ante", 500))
    m.station.execute(Deal())
    while m.station.snapshot().phase == MachinePhase.IN_ROUND:
        legal = m.station.snapshot().legal
        values = m.table.decision_values(SEAT)
        if values is not None:
            phase = (
                Phase.PREFLOP
                if "play_4x" in legal
                else Phase.FLOP
                if "play_2x" in legal
                else Phase.RIVER
            )
            values.get(phase, 60)  # the player took their time
        m.station.execute(Decide(choose(legal)))


@pytest.fixture
def played(tmp_path, monkeypatch):
    monkeypatch.setenv("UTH_DECISION_VALUES", "1")
    s = OperatorScreens(tmp_path)
    round_values.valuer_for(s.snap.paytable)  # the optimal analysis, loaded once
    insert_note(s.cabinet, 10000)
    play_round(s, lambda legal: legal[-1])  # check, check, fold
    play_round(s, lambda legal: legal[0])  # Play 4x
    yield s
    s.close()


def expected_lines(s: OperatorScreens) -> list[tuple[str, str]]:
    """(phase, value text in English) of every decision the ledger holds, newest first."""
    out = []
    for r in s.cabinet.table.recall(station=SEAT, last=2):
        for d in r.decisions:
            assert d.ev is not None and d.best is not None
            text = d.value_text()
            assert text is not None
            for plain, shown in (
                ("Play 4x", "Play 4×"),
                ("Play 3x", "Play 3×"),
                ("Play 2x", "Play 2×"),
                ("Play 1x", "Play 1×"),
            ):
                text = text.replace(plain, shown)
            out.append((PHASES[d.phase.value], text))
    return out


def test_the_operator_recall_page_shows_every_decisions_value(played):
    s = played
    s.login("246810", door=False)
    s.touch("page_recall")
    drawn = s.drawn().split("\n")
    want = expected_lines(s)
    assert len(want) == 4  # fold round: 3 decisions; 4x round: 1
    for phase, text in want:
        assert f"{phase}  ·  {text}" in drawn, (phase, text, drawn)
        assert VALUE.match(text), text
    newest = s.cabinet.table.recall(station=SEAT, last=1)[0].decisions[0]
    assert newest.action == "play_4x" and want[0][1].startswith(f"{ACTIONS['play_4x']}: ")
    s.shot("/tmp/shots/recall_values_operator_800x480.png")


def test_the_players_recall_screen_shows_the_values_once_settled(played):
    s = played
    s.app.go("recall")
    s.frame()
    rec = s.scene
    assert rec.name == "recall" and len(rec.rounds) == 2
    s.feed()  # the newest round: one decision, Play 4x
    (first,) = [text for _phase, text in expected_lines(s)[:1]]
    assert first in s.drawn().split("\n")
    s.touch("older")  # the fold round: three decisions, each with its value
    drawn = s.drawn().split("\n")
    lines = [line for line in drawn if VALUE.match(line)]
    assert [line for _p, line in expected_lines(s)[1:]] == lines
    assert any(line.startswith("Fold: ") for line in lines)
    s.shot("/tmp/shots/recall_values_player_800x480.png")
    s.touch("step_back")  # stepping back through the cards hides the values
    assert not any(VALUE.match(line) for line in s.drawn().split("\n"))


def test_rounds_without_values_show_nothing_more(tmp_path):
    s = OperatorScreens(tmp_path)  # decision values off (the test default)
    try:
        insert_note(s.cabinet, 10000)
        play_round(s, lambda legal: legal[-1])
        assert all(d.ev is None for d in s.cabinet.table.recall(station=SEAT, last=1)[0].decisions)
        s.login("246810", door=False)
        s.touch("page_recall")
        drawn = s.drawn()
        assert "Round 1" in drawn and "Ante better" not in drawn and "Ante worse" not in drawn
        assert not any(VALUE.match(line) for line in drawn.split("\n"))
        s.app.go("recall")
        s.frame()
        assert not any(VALUE.match(line) for line in s.drawn().split("\n"))
        assert "After the river: Fold" in s.drawn()
    finally:
        s.close()
