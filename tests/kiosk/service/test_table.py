"""The table host: one round for several stations on one ledger, driven through the
typed commands on a real SQLite file, with an injected clock."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from support.table_money import credit

from engine.rng import SeededRandomSource
from engine.uth.round import Action, Phase
from engine.uth.settlement import Outcome
from kiosk.config import CabinetConfig, load_config
from kiosk.game.commands import (
    CashOut,
    ClearTilt,
    Deal,
    Decide,
    HandpayReset,
    OperatorLogin,
    PlaceChip,
    SetDoor,
    SetLimits,
)
from kiosk.game.errors import NotAuthorised, PlayDisabled, WrongState
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.meters import balance
from kiosk.service.device_commands import Pass
from kiosk.service.table import Table
from kiosk.service.timing import ManualClock, TableTiming

#: The demo configuration's attendant and technician PINs.
ATTENDANT, TECHNICIAN = "1111", "2222"


@pytest.fixture
def config(tmp_path: Path) -> CabinetConfig:
    return load_config(db_path=tmp_path / "var" / "uth.db")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def open_table(config, clock, stations=(1, 2, 3), seed=7) -> Table:
    return Table.open(config, stations, rng=SeededRandomSource(seed), clock=clock)


def fund(table: Table, *stations: int, cents: int = 5000) -> None:
    for n in stations:
        credit(table, n, cents)


def bet(table: Table, station: int, ante: int = 500) -> None:
    table.execute(station, PlaceChip("ante", ante))


def seats_dealt(table: Table) -> list[int]:
    return [s.seat for s in table.snapshot(1).seats if s.in_round]


def test_the_window_closes_when_every_station_with_credits_is_done(config, clock):
    table = open_table(config, clock)
    fund(table, 1, 2)  # station 3 has no credits: the window does not wait for it
    assert table.snapshot(1).betting_seconds is None  # no window before the first chip
    bet(table, 1)
    assert table.snapshot(2).betting_seconds == 20.0
    table.execute(1, Deal())
    assert not table.snapshot(1).round_open  # station 2 is still betting
    clock.advance(5)
    assert table.snapshot(3).betting_seconds == 15.0
    bet(table, 2, 1000)
    table.execute(2, Deal())
    snap = table.snapshot(1)
    assert snap.round_open and snap.phase is Phase.PREFLOP and seats_dealt(table) == [1, 2]
    assert snap.betting_seconds is None and snap.decision_seconds == 20.0
    assert len(snap.hole) == 2 and table.snapshot(3).hole == ()  # station 3 sits out
    rows = table.ledger.open_rounds
    assert [r["seat"] for r in rows] == [1, 2] and len({r["commitment"] for r in rows}) == 1
    assert table.credits(1) == 5000 - 1000 and table.credits(2) == 5000 - 2000
    table.close()


def test_pass_sits_out_and_an_expired_window_deals_the_complete_antes(config, clock):
    table = open_table(config, clock)
    fund(table, 1, 2, 3)
    bet(table, 1)
    table.execute(2, Pass())
    assert not table.snapshot(1).round_open  # station 3 has credits and has not answered
    bet(table, 3)  # placed, Deal not pressed: still played when the time is up
    clock.advance(19.9)
    table.tick()
    assert not table.snapshot(1).round_open
    clock.advance(0.1)
    table.tick()
    assert seats_dealt(table) == [1, 3] and table.credits(2) == 5000
    table.close()


def play_to_flop(table: Table, clock: ManualClock) -> None:
    fund(table, 1, 2)
    bet(table, 1)
    bet(table, 2)
    table.execute(1, Deal())
    table.execute(2, Deal())


def test_decisions_in_parallel_and_the_timer_checks_then_folds(config, clock):
    table = open_table(config, clock, stations=(1, 2))
    play_to_flop(table, clock)
    table.execute(1, Decide(Action.CHECK))
    status = {s.seat: s for s in table.snapshot(2).seats}
    assert status[1].decided and not status[2].decided  # other seats' status, public
    clock.advance(20)
    table.tick()
    snap = table.snapshot(2)
    assert snap.phase is Phase.FLOP and snap.decision_seconds == 20.0  # timer restarted
    assert snap.timed_out is not None and snap.timed_out.action is Action.CHECK
    assert snap.timed_out.phase is Phase.PREFLOP and table.snapshot(1).timed_out is None
    table.execute(2, Decide(Action.CHECK))
    table.execute(1, Decide(Action.CHECK))
    assert table.snapshot(1).phase is Phase.RIVER
    table.execute(1, Decide(Action.PLAY_1X))
    clock.advance(20)
    table.tick()  # station 2 folds on the river: the round is settled
    one, two = table.snapshot(1), table.snapshot(2)
    assert not one.round_open and one.phase is Phase.SETTLED and len(one.dealer) == 2
    assert two.result is not None and two.result.outcome == Outcome.FOLD
    assert two.timed_out is not None and two.timed_out.action is Action.FOLD
    ledger = table.ledger
    rows = ledger.recall(2)
    assert {r.seat for r in rows} == {1, 2} and {r.state for r in rows} == {"settled"}
    assert len({r.settled_at for r in rows}) == 1  # one transaction settled every seat
    assert {r.seat: r.outcome for r in rows}[2] == "fold"
    timeouts = ledger.events(("decision_timed_out",))
    assert [(e.station, e.detail["phase"]) for e in timeouts] == [(2, "preflop"), (2, "river")]
    assert table.credits(2) == 5000 - 1000
    report = ledger.verify(replay=True)
    assert report.ok, report.problem
    for n in (1, 2):
        assert balance(ledger.station_meter_readings(n))["balanced"]
    table.close()


def test_a_station_tilt_stops_that_station_only(config, clock):
    table = open_table(config, clock, stations=(1, 2))
    play_to_flop(table, clock)
    table.tilt(2, "device:printer:paper_out", "printer out of paper")
    with pytest.raises(PlayDisabled):
        table.execute(2, Decide(Action.CHECK))
    assert table.snapshot(2).offers == () and table.snapshot(1).offers
    table.execute(1, Decide(Action.CHECK))
    clock.advance(20)
    table.tick()  # the tilted seat times out
    assert table.snapshot(1).phase is Phase.FLOP
    assert {s.seat: s.tilted for s in table.snapshot(1).seats} == {1: False, 2: True}
    table.execute(2, OperatorLogin(ATTENDANT))  # an attendant at that station clears it
    table.execute(2, ClearTilt("device:printer:paper_out"))
    table.execute(2, Decide(Action.CHECK))
    table.table_tilt("ledger", "the ledger cannot record")
    with pytest.raises(PlayDisabled):
        table.execute(1, Decide(Action.CHECK))  # a host tilt stops the table
    table.close()


def test_a_table_of_one_has_no_betting_countdown(config, clock):
    table = open_table(config, clock, stations=(1,))
    fund(table, 1)
    bet(table, 1)
    assert table.snapshot(1).betting_seconds is None
    clock.advance(3600)
    table.tick()
    assert not table.snapshot(1).round_open  # nothing is dealt until Deal is pressed
    table.execute(1, Deal())
    assert table.snapshot(1).round_open and seats_dealt(table) == [1]
    table.close()


def test_a_host_cut_resumes_the_round_and_restarts_the_timer(config, clock):
    table = open_table(config, clock, stations=(1, 2))
    play_to_flop(table, clock)
    table.execute(1, Decide(Action.PLAY_4X))
    before = {n: table.snapshot(n) for n in (1, 2)}
    clock.advance(19)  # station 2 has one second left when the host is cut
    table.ledger.close()  # a cut: no power-down record
    clock.advance(3600)
    again = open_table(config, clock, stations=(1, 2), seed=99)
    for n in (1, 2):
        snap = again.snapshot(n)
        assert snap.round_open and snap.hole == before[n].hole and snap.phase is Phase.PREFLOP
        assert snap.credits == before[n].credits
    assert {s.seat: s.play for s in again.snapshot(1).seats} == {1: 2000, 2: 0}
    assert again.snapshot(2).decision_seconds == 20.0  # the full timer again
    clock.advance(19)
    again.tick()
    assert again.snapshot(2).timed_out is None and Action.CHECK in {
        o.action for o in again.snapshot(2).offers
    }
    again.execute(2, Decide(Action.CHECK))
    assert again.snapshot(2).phase is Phase.FLOP  # seat 1 made its Play: only seat 2 decides
    resumed = again.ledger.last_event("round_resumed")
    assert resumed is not None
    again.close()


def test_limits_change_only_with_every_station_at_zero_and_no_round(config, clock):
    table = open_table(config, clock, stations=(1, 2))
    table.execute(1, SetDoor(True))
    table.execute(1, OperatorLogin(TECHNICIAN))  # a technician at station 1, door open
    fund(table, 2)
    with pytest.raises(WrongState) as refused:
        table.execute(1, SetLimits(ante_max=1000))
    assert refused.value.code == "credits_on_meter" and refused.value.params["station"] == 2
    bet(table, 2)
    table.execute(2, Deal())
    table.execute(2, Decide(Action.CHECK))
    with pytest.raises(WrongState) as refused:
        table.execute(1, SetLimits(ante_max=1000))
    assert refused.value.code == "round_in_progress"
    for _ in range(3):
        clock.advance(20)
        table.tick()
    assert not table.snapshot(2).round_open
    payout = table.execute(2, CashOut())
    with pytest.raises(WrongState) as refused:
        table.execute(1, SetLimits(ante_max=1000))
    assert refused.value.code == "payout_in_progress"
    with pytest.raises(NotAuthorised):  # an attendant pays a handpay, and is recorded
        table.execute(2, HandpayReset())
    table.execute(2, HandpayReset(), at=1)  # the technician logged in at station 1
    assert table.credits(2) == 0 and payout is not None
    table.execute(1, SetLimits(ante_max=1000))
    assert table.limits.ante_max == 1000
    table.close()
    reopened = open_table(config, clock, stations=(1, 2))
    assert reopened.limits.ante_max == 1000
    assert Ledger.verify(reopened.ledger).ok
    reopened.close()


def test_the_timers_are_configurable(config, clock):
    timing = TableTiming(betting_seconds=5, decision_seconds=8)
    table = Table.open(config, (1, 2), rng=SeededRandomSource(1), clock=clock, timing=timing)
    fund(table, 1, 2)
    bet(table, 1)
    assert table.snapshot(1).betting_seconds == 5.0
    clock.advance(5)
    table.tick()
    assert seats_dealt(table) == [1] and table.snapshot(1).decision_seconds == 8.0
    with pytest.raises(ValueError):
        TableTiming(betting_seconds=0)
    table.close()


def test_the_seats_of_a_round_close_together_and_stay_one_round(config, clock):
    table = open_table(config, clock, stations=(1, 2))
    play_to_flop(table, clock)
    ledger = table.ledger
    first, second = (r["id"] for r in ledger.open_rounds)
    with pytest.raises(Exception, match="close together"):
        ledger.update_rounds({first: {"state": "voided"}})
    with pytest.raises(Exception, match="close together"):
        ledger.update_rounds({second: {"state": "settled"}})
    assert [r["state"] for r in ledger.open_rounds] == ["open", "open"]
    table.ledger.close()
    conn = sqlite3.connect(config.db_path)
    conn.execute("DROP TRIGGER rounds_frozen")
    conn.execute("UPDATE rounds SET commitment = 'x' || commitment WHERE id = ?", (second,))
    conn.commit()
    conn.close()
    check = Ledger.open(config.db_path, readonly=True)
    report = check.verify()
    check.close()
    assert not report.ok


def test_power_up_verifies_from_a_checkpoint_taken_mid_round(config, clock):
    table = open_table(config, clock, stations=(1, 2, 3))
    table.ledger.checkpoint_every = 4
    fund(table, 1, 2, 3)
    for n in (1, 2, 3):
        bet(table, n)
        table.execute(n, Deal())
    table.execute(2, Decide(Action.CHECK))
    table.execute(3, Decide(Action.CHECK))
    cp = table.ledger.last_event("checkpoint")
    assert cp is not None and set(cp.detail["stations"]) == {"1", "2", "3"}
    table.ledger.close()  # cut
    again = open_table(config, clock, stations=(1, 2, 3))
    assert again.ledger.verify_power_up().ok and again.snapshot(1).round_open
    assert [s.decided for s in again.snapshot(1).seats] == [False, True, True]
    again.execute(1, Decide(Action.CHECK))
    assert again.snapshot(1).phase is Phase.FLOP
    again.close()


def test_the_display_and_the_operator_menu_read_the_whole_table(config, clock):
    table = open_table(config, clock, stations=(1, 2, 3))
    heard: list[int] = []
    unsubscribe = table.subscribe(lambda: heard.append(1))
    play_to_flop(table, clock)
    assert heard  # every operation is heard of
    shown = table.display()
    assert shown.round_open and shown.dealer == () and shown.board == ()
    assert [s.seat for s in shown.seats if s.in_round] == [1, 2] and shown.decision_seconds == 20
    table.execute(1, Decide(Action.PLAY_4X))
    table.execute(2, Decide(Action.PLAY_4X))
    shown = table.display()
    assert not shown.round_open and len(shown.dealer) == 2 and len(shown.board) == 5
    assert [r.seat for r in shown.results] == [1, 2]
    statuses = {s.station: s for s in table.statuses()}
    assert statuses[3].credits == 0 and statuses[1].credits == table.credits(1)
    assert [r.seat for r in table.recall(10, station=2)] == [2]
    assert table.meter_readings(2)["coin_in"] == 1000 + 2000
    assert table.meter_readings()["coin_in"] == 2 * 3000
    unsubscribe()
    count = len(heard)
    table.tick()
    assert len(heard) == count
    table.close()
