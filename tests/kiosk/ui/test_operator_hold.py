"""The operator's hold page: per bet the actual hold against the decisions' and the
optimal theoretical hold, with intervals and the flag, the figures of ``uth audit hold``;
and the strategy coach's switch."""

from __future__ import annotations

import json

import numpy as np
import pytest
from support.cabinet import insert_note
from support.operator_screens import OperatorScreens

from engine.maths.hold import hold_report
from engine.uth.round import Action, Phase
from kiosk.cli import main as cli
from kiosk.game import round_values
from kiosk.game.commands import (
    Deal,
    Decide,
    PlaceChip,
)
from kiosk.game.paytables import rtp_record
from kiosk.game.paytables.hold import PaytableHold
from kiosk.game.paytables.rtp_record import RtpRecordError
from kiosk.game.snapshot import MachinePhase
from kiosk.game.vocabulary import SEAT
from kiosk.ui.scenes.operator.hold import UNPROVEN, percent, verdict

MIN_PX = 12


def play(s: OperatorScreens, rounds: int) -> None:
    m = s.cabinet
    for i in range(rounds):
        m.station.execute(PlaceChip("ante", 500))
        if i % 2:
            m.station.execute(PlaceChip("trips", 500))
        m.station.execute(Deal())
        while m.station.snapshot().phase == MachinePhase.IN_ROUND:
            legal = m.station.snapshot().legal
            values = m.table.decision_values(SEAT)
            if values is not None:
                phase = (
                    Phase.PREFLOP
                    if Action.PLAY_4X in legal
                    else Phase.FLOP
                    if Action.PLAY_2X in legal
                    else Phase.RIVER
                )
                values.get(phase, 60)
            m.station.execute(Decide(legal[-1] if i % 3 else legal[0]))


@pytest.fixture
def screens(tmp_path, monkeypatch, standard_optimal_par):
    _report, cache = standard_optimal_par
    monkeypatch.setenv("UTH_PAR_CACHE", str(cache))
    monkeypatch.setenv("UTH_DECISION_VALUES", "1")
    made: list[OperatorScreens] = []

    def make(size=(800, 480)) -> OperatorScreens:
        folder = tmp_path / f"s{len(made)}"
        folder.mkdir()
        s = OperatorScreens(folder, size=size)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def test_the_hold_page_shows_each_bet_as_the_audit_command_does(screens, capsys):
    s = screens()
    round_values.valuer_for(s.snap.paytable)
    insert_note(s.cabinet, 10000)
    insert_note(s.cabinet, 10000)
    play(s, 6)
    s.login("246810", door=False)  # an attendant reads it
    s.touch("page_hold")
    drawn = s.drawn().split("\n")
    assert cli(["audit", "hold", "--db", str(s.config.db_path), "--json"]) == 0
    (doc,) = json.loads(capsys.readouterr().out)
    assert doc["rounds"] == 6
    assert "Standard 1.0: 6 settled rounds" in drawn
    for name in (
        "Ante",
        "Blind",
        "Play",
        "Trips",
        "Main game",
        "Actual hold",
        "Interval (99%)",
        "Decisions made",
    ):
        assert name in drawn, name
    for row in doc["bets"]:
        assert percent(row["optimal_hold"]) in drawn
        if row["rounds"]:
            assert percent(row["actual_hold"]) in drawn, row
            lo, hi = row["actual_interval_99"]
            assert f"{percent(lo)} … {percent(hi)}" in drawn
    main = next(r for r in doc["bets"] if r["bet"] == "main")
    assert main["decisions_hold"] is not None and percent(main["decisions_hold"]) in drawn
    assert "0.526%" in drawn  # the standard table's optimal main-game hold
    assert "No flag is raised below 10,000 rounds." in drawn
    hints = {b.hint for b in s.scene.buttons()}
    assert [(t, px) for t, px in s.texts if px < MIN_PX and t not in hints] == []
    assert not s.buttons()["coach"].enabled  # the coach is a technician's
    s.shot("/tmp/shots/hold_800x480.png")


def test_a_technician_turns_the_strategy_coach_on_and_off(screens):
    s = screens()
    s.login("135790", door=False)
    s.touch("page_hold")
    assert "No rounds played yet." in s.drawn()
    assert "STRATEGY COACH: OFF" in s.drawn() and not s.snap.coach
    s.touch("coach")
    assert s.snap.coach and s.scene.result == ("Strategy coach turned on.", True)
    assert "STRATEGY COACH: ON" in s.drawn()
    (ev,) = s.cabinet.station.ledger_events(("coach_changed",))
    assert ev.detail == {"operator": "Ted Jones", "on": True}
    s.touch("coach")
    assert not s.snap.coach and s.scene.result == ("Strategy coach turned off.", True)


def test_the_hold_page_at_1920x1080(screens):
    s = screens(size=(1920, 1080))
    insert_note(s.cabinet, 10000)
    play(s, 3)
    s.login("135790", door=False)
    s.touch("page_hold")
    assert "Main game" in s.drawn()
    s.shot("/tmp/shots/hold_1920x1080.png")


def test_the_hold_report_explains_its_columns(screens):
    s = screens()
    insert_note(s.cabinet, 10000)
    play(s, 2)
    s.login("135790", door=False)
    s.touch("page_hold")
    drawn = s.drawn()
    assert "Main game" in drawn
    for word in ("Hold:", "Interval:", "Decisions made:", "Optimal:"):
        assert word in drawn, word


def not_shipped(monkeypatch) -> None:
    """The program ships no record of the table (as for a table of the casino's own)."""

    def none(table, root=None):
        raise RtpRecordError(f"{table.name} is not a shipped paytable")

    monkeypatch.setattr(rtp_record, "shipped_record", none)


def test_a_table_without_its_exact_rtp_and_a_flag_are_said(tmp_path, monkeypatch):
    monkeypatch.setenv("UTH_PAR_CACHE", str(tmp_path / "empty-cache"))  # the RTP is not known
    not_shipped(monkeypatch)
    s = OperatorScreens(tmp_path)
    try:
        insert_note(s.cabinet, 10000)
        play(s, 2)
        s.login("246810", door=False)
        s.touch("page_hold")
        drawn = s.drawn()
        assert "Standard 1.0: 2 settled rounds" in drawn
        assert "The exact RTP of this paytable is not known on this cabinet yet." in drawn
        # the actual hold is shown whatever the theory's state: the main game's row has
        # its rounds and actual hold, its optimal and decision figures are dashes
        (hold,) = s.cabinet.table.read(lambda a: a.hold())
        main = hold.report.row("main")
        assert not hold.rtp_known and main.rounds == 2 and main.handle == 2 * 1000 + sum(
            r.play for r in s.cabinet.table.recall(station=SEAT, last=2))
        assert "Main game" in drawn and "Actual hold" in drawn and percent(main.actual) in drawn
        assert percent(main.optimal) == "—" and main.decisions is None and not hold.flagged
    finally:
        s.close()
    n = 50
    stakes = {
        b: np.full(n, 500 if b in ("ante", "blind") else 0, np.int64)
        for b in ("ante", "blind", "play", "trips")
    }
    returns = {
        b: np.full(n, 1500 if b in ("ante", "blind") else 0, np.int64) for b in stakes
    }  # every round paid 2:1
    rtps = {"ante": 0.9, "blind": 0.9, "play": 0.9, "trips": 0.965, "main_total": 0.995}
    returns["ante"][::2] = 0  # some spread, still far above theory
    flagged = PaytableHold(s.snap.paytable, n, hold_report(stakes, returns, rtps, min_rounds=10))
    assert flagged.flagged
    assert (
        verdict(flagged)[0]
        == "FLAG: the actual hold left its 99.9% band (advantage play or a fault?)"
    )


def test_optimal_figures_not_signed_by_this_cabinet_are_said_to_be_unproven(screens, monkeypatch):
    """The shared PAR cache holds the figures of a table with no record, unsigned by
    this cabinet's key: the page shows them and says they are unproven."""
    not_shipped(monkeypatch)
    s = screens()
    insert_note(s.cabinet, 10000)
    play(s, 2)
    (hold,) = s.cabinet.table.read(lambda a: a.hold())
    assert "not proven on this cabinet" in hold.unproven
    s.login("246810", door=False)
    s.touch("page_hold")
    assert UNPROVEN in s.drawn()
    assert [(t, px) for t, px in s.texts if px < MIN_PX and t.strip()
            and t not in {b.hint for b in s.scene.buttons()}] == []


def test_a_fresh_cabinets_hold_page_and_paytable_page_give_the_same_proven_return(tmp_path):
    """A cold PAR cache: the hold page's optimal figures are proven (no "not proven yet"
    note) and the paytable page gives the same record's figures."""
    s = OperatorScreens(tmp_path)
    try:
        insert_note(s.cabinet, 10000)
        play(s, 2)
        s.login("975310", door=False)
        s.touch("page_hold")
        hold_page = s.drawn()
        (hold,) = s.cabinet.table.read(lambda a: a.hold())
        assert hold.rtp_known and hold.unproven == ""
        assert UNPROVEN not in hold_page and "not known" not in hold_page
        assert percent(hold.report.row("trips").optimal) in hold_page  # 3.50%
        s.touch("menu")
        s.touch("page_paytable")
        assert "Main game 99.474%  ·  Trips 96.502%" in s.drawn()
    finally:
        s.close()
