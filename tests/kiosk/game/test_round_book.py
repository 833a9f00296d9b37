"""The round's ledger life shared by the cabinet and the table: one round for any set of
seats on a real SQLite ledger, and the cabinet and a table of one station writing the
same round rows from the same seed and clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.cabinet import insert_note
from support.table_money import credit

from engine.rng import SeededRandomSource
from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from engine.uth.round import Action, Phase
from kiosk.config import load_config
from kiosk.game.commands import Deal, Decide, PlaceChip
from kiosk.game.errors import InsufficientCredits, WrongState
from kiosk.game.round_book import RoundBook, affordable, checked_action, reopen
from kiosk.game.vocabulary import Bets
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.service.table import Table
from kiosk.service.timing import ManualClock
from kiosk.wiring.lone_cabinet import LoneCabinet

TABLE = load_paytable(PAYTABLE_DIR / "standard.toml")
STAMP = "2025-01-01T00:00:00.000Z"
PLAYED = (Action.CHECK, Action.CHECK, Action.PLAY_1X)


@pytest.fixture
def ledger(tmp_path: Path):
    led = Ledger.create(
        tmp_path / "uth.db", paytable=TABLE, machine_number="0042", marker=tmp_path / "m"
    )
    for station in (1, 3):
        led.event(EventKind.BILL_IN, amount=10000, txn=f"bill-{station}", station=station)
    yield led
    led.close()


def credits_of(ledger: Ledger, station: int) -> int:
    return ledger.station_meters.get(station, {}).get("credits", 0)


def test_one_deal_commits_every_seat_and_reopens_to_the_same_round(ledger):
    book = RoundBook(SeededRandomSource(3), 10**9, lambda seat, message: None)
    bets = {1: Bets(500, 100), 3: Bets(1000, 0)}
    dealt = book.deal(ledger, TABLE, bets, {1: 10000, 3: 10000}, STAMP)
    rows = ledger.open_rounds
    assert [r["seat"] for r in rows] == [1, 3]
    assert dealt.row_ids == {1: rows[0]["id"], 3: rows[1]["id"]}
    assert {r["commitment"] for r in rows} == {dealt.commitment}
    assert (credits_of(ledger, 1), credits_of(ledger, 3)) == (10000 - 1100, 10000 - 2000)
    done = book.decide(ledger, dealt.round, 3, Action.PLAY_4X, STAMP)
    assert dealt.round.view(3).play == 0, "the round given is left as it was"
    assert done.round.view(3).play == 4000 and not done.settled
    again = reopen(ledger)
    assert again is not None
    assert (again.row_ids, again.commitment, again.bets) == (dealt.row_ids, dealt.commitment, bets)
    assert again.round.deck == dealt.round.deck
    assert again.round.view(3).play == 4000 and again.round.legal_actions(3) == ()
    assert again.round.legal_actions(1) == done.round.legal_actions(1)


def test_the_last_decision_settles_every_seat_with_its_jackpots_in_one_transaction(ledger):
    tilts: list[tuple[int, str, bool]] = []

    def tilt(seat: int, message: str) -> None:
        tilts.append((seat, message, ledger.conn.in_transaction))

    book = RoundBook(SeededRandomSource(5), 1, tilt)  # every return is a jackpot
    dealt = book.deal(ledger, TABLE, {1: Bets(500), 3: Bets(500)}, {1: 10000, 3: 10000}, STAMP)
    rnd = book.decide(ledger, dealt.round, 3, Action.PLAY_4X, STAMP).round
    for action in PLAYED:
        done = book.decide(ledger, rnd, 1, action, STAMP)
        rnd = done.round
    assert done.settled and rnd.phase is Phase.SETTLED
    assert ledger.open_rounds == []
    recalled = {r.seat: r for r in ledger.recall(2)}
    assert set(recalled) == {1, 3} and {r.state for r in recalled.values()} == {"settled"}
    returned = {s: rnd.outcome().seat(s).returned for s in (1, 3)}  # type: ignore[union-attr]
    assert done.jackpots and done.jackpots == {s: c for s, c in returned.items() if c}
    assert [(s, within) for s, _m, within in tilts] == [(s, True) for s in done.jackpots]
    for seat, rec in recalled.items():
        assert rec.jackpot == returned[seat] and rec.paid == 0
    report = ledger.verify(replay=True)
    assert report.ok, report.problem


def test_voiding_gives_every_seat_its_stake_back(ledger):
    book = RoundBook(SeededRandomSource(8), 10**9, lambda seat, message: None)
    dealt = book.deal(ledger, TABLE, {1: Bets(500, 100), 3: Bets(500)}, {1: 10000, 3: 10000}, STAMP)
    rnd = book.decide(ledger, dealt.round, 1, Action.PLAY_3X, STAMP).round
    with ledger.transaction():
        assert book.void(ledger, rnd, STAMP) == dealt.first_id
    assert ledger.open_rounds == [] and reopen(ledger) is None
    assert (credits_of(ledger, 1), credits_of(ledger, 3)) == (10000, 10000)
    assert book.void(ledger, rnd, STAMP) is None


def test_a_decision_is_checked_before_anything_changes(ledger):
    book = RoundBook(SeededRandomSource(2), 10**9, lambda seat, message: None)
    rnd = book.deal(ledger, TABLE, {1: Bets(500)}, {1: 10000}, STAMP).round
    with pytest.raises(WrongState, match="unknown action"):
        checked_action(rnd, 1, "double", affordable(rnd, 1, 10000))
    with pytest.raises(WrongState) as illegal:
        checked_action(rnd, 1, Action.PLAY_2X, affordable(rnd, 1, 10000))
    assert illegal.value.code == "action_not_allowed"
    offered = {o.action: o.play for o in affordable(rnd, 1, 1999)}
    assert offered == {Action.PLAY_3X: 1500, Action.CHECK: 0}  # Play 4x is 2000 cents
    with pytest.raises(InsufficientCredits):
        checked_action(rnd, 1, "play_4x", affordable(rnd, 1, 1999))
    assert checked_action(rnd, 1, "play_4x", affordable(rnd, 1, 2000)) is Action.PLAY_4X


def test_the_cabinet_and_a_table_of_one_write_the_same_round(tmp_path):
    def rounds(folder: str, play) -> list[dict]:
        config = load_config(db_path=tmp_path / folder / "uth.db", decision_values=False)
        clock = ManualClock()
        play(config, clock)
        led = Ledger.open(config.db_path, readonly=True)
        try:
            assert led.verify(replay=True).ok
            return [
                {k: v for k, v in r.items() if k != "mac"} for r in led.round_rows("ORDER BY id")
            ]
        finally:
            led.close()

    commands = [PlaceChip("ante", 500), Deal()]
    commands += [Decide(a) for a in PLAYED]

    def cabinet(config, clock) -> None:
        m = LoneCabinet.open(config, rng=SeededRandomSource(11), clock=clock)
        insert_note(m, 10000)
        for c in commands:
            m.station.execute(c)
        m.close()

    def table(config, clock) -> None:
        t = Table.open(config, (1,), rng=SeededRandomSource(11), clock=clock)
        credit(t, 1, 10000)
        for c in commands:
            t.execute(1, c)
        t.close()

    alone, at_table = rounds("cabinet", cabinet), rounds("table", table)
    assert len(alone) == 1 and alone[0]["state"] == "settled"
    assert alone == at_table


def test_a_cabinet_refuses_an_open_round_of_other_seats(tmp_path):
    config = load_config(db_path=tmp_path / "uth.db", decision_values=False)
    table = Table.open(config, (1, 2), rng=SeededRandomSource(4), clock=ManualClock())
    for station in (1, 2):
        credit(table, station, 5000)
    for station in (1, 2):
        table.execute(station, PlaceChip("ante", 500))
        table.execute(station, Deal())
    assert len(table.ledger.open_rounds) == 2
    table.close()
    m = LoneCabinet.open(config, rng=SeededRandomSource(4))
    tilts = m.station.snapshot().tilts
    m.close()
    assert m.table.ledger is None
    assert any("dealt to seats [1, 2], not seat 1 alone" in t.message for t in tilts)
