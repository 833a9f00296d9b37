"""The progressive linked through the casino's controller, at the table's game service:
the wager is taken once the controller's level is known, the deal records the level's
amount with each wager, and the round settles on the level the table last took: each
wager's contribution to the controller and each award on the level recorded at its
seat's station, the award paid (credited, or hand-paid at the jackpot limit) as
standalone, and the ledger's own meter never moved.  A power cut between the deal and
the settlement settles on the deal's amount when no broadcast was heard since."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from support.decks import DeckSource, deck_with
from support.signed_paytables import signed
from support.table_money import credit
from test_table_progressive import finish

from engine.rng import SeededRandomSource
from kiosk.config import ProgressiveLink, load_config
from kiosk.game.commands import Deal, OperatorLogin, PlaceChip, SetDoor, SetPaytable
from kiosk.game.errors import BetOutOfLimits
from kiosk.game.vocabulary import JACKPOT_TILT
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.meters import balance
from kiosk.ledger.schema import PROTECTIVE_TRIGGERS
from kiosk.service.device_commands import SystemProgressiveLevels
from kiosk.service.progressive import levels
from kiosk.service.table import Table
from kiosk.service.timing import ManualClock

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "paytables" / "progressive-example.toml"
GROUP, LEVEL = 7, 1
TECHNICIAN = "2222"


def open_linked(tmp_path: Path, stations, rng, **config) -> Table:
    cfg = load_config(
        db_path=tmp_path / "var" / "uth.db",
        sas_port=str(tmp_path / "sas-line"),
        progressive_link=ProgressiveLink(group=GROUP, level=LEVEL),
        **config,
    )
    table = Table.open(cfg, stations, rng=rng, clock=ManualClock())
    paytable = tmp_path / "progressive-example.toml"
    if not paytable.exists():
        shutil.copy(EXAMPLE, paytable)
    signed(table.ledger.key, paytable)
    if table.paytable.progressive is None:
        table.execute(1, SetDoor(True))
        table.execute(1, OperatorLogin(TECHNICIAN))
        table.execute(1, SetPaytable(str(paytable)))
        table.execute(1, SetDoor(False))
    return table


def broadcast(table: Table, cents: int) -> None:
    table.execute(1, SystemProgressiveLevels(GROUP, ((LEVEL, cents),), "test"))


def example(table: Table):
    found = table.paytable.progressive
    assert found is not None
    return found


def place(table: Table, stations) -> None:
    wager = example(table).wager
    for n in stations:
        table.execute(n, PlaceChip("ante", 500))
        table.execute(n, PlaceChip("progressive", wager))
        table.execute(n, Deal())


def events(ledger: Ledger, kind: EventKind, station: int | None = None):
    return list(ledger.events((kind,), station=station))


def test_no_wager_before_the_controllers_first_broadcast_and_no_ledger_meter(tmp_path):
    table = open_linked(tmp_path, (1,), SeededRandomSource(5))
    prog = example(table)
    assert levels(table.ledger) == (0, 0)  # the paytable put in force seeds no meter here
    assert not events(table.ledger, EventKind.PROGRESSIVE_RESET)
    credit(table, 1, 10_000)
    table.execute(1, PlaceChip("ante", 500))
    assert table.snapshot(1).progressive_wager == 0  # no spot on the felt yet
    with pytest.raises(BetOutOfLimits):
        table.execute(1, PlaceChip("progressive", prog.wager))
    broadcast(table, prog.reset + 12_345)
    assert table.snapshot(1).progressive_wager == prog.wager
    table.execute(1, PlaceChip("progressive", prog.wager))
    assert table.snapshot(1).progressive_meter == prog.reset + 12_345
    table.close()


@pytest.mark.parametrize("stations", [(1,), tuple(range(1, 8))])
def test_every_wager_feeds_the_controller_and_the_ledger_keeps_no_meter(tmp_path, stations):
    table = open_linked(tmp_path, stations, SeededRandomSource(21))
    prog = example(table)
    share = prog.wager * prog.contribution_bp // 10_000
    for n in stations:
        credit(table, n, 10_000)
    for r in range(3):
        shown = prog.reset + 1000 * r
        broadcast(table, shown)
        place(table, stations)
        for ev in events(table.ledger, EventKind.PROGRESSIVE_WAGER)[-len(stations) :]:
            assert ev.detail["linked"] == {"group": GROUP, "level": LEVEL, "meter": shown}
        finish(table, stations)
        for n in stations:
            fed = events(table.ledger, EventKind.PROGRESSIVE_LINK_CONTRIBUTION, station=n)
            assert [e.amount for e in fed] == [share] * (r + 1)
            assert table.meter_readings(n)["progressive_link_contributed"] == share * (r + 1)
    assert levels(table.ledger) == (0, 0)
    assert not events(table.ledger, EventKind.PROGRESSIVE_CONTRIBUTION)
    assert balance(table.ledger.meters)["balanced"]
    report = Ledger.verify(table.ledger)
    assert report.ok, report.problem
    table.close()


def test_a_royal_flush_is_paid_on_the_controllers_level_and_recorded_as_its_win(tmp_path):
    rng = DeckSource()
    table = open_linked(
        tmp_path, (1, 2), rng, jackpot_limit_cents=100_000_000, credit_limit_cents=200_000_000
    )
    prog = example(table)
    credit(table, 1, 10_000)
    credit(table, 2, 10_000)
    shown = prog.reset + 55_500
    broadcast(table, shown)
    rng.stack(deck_with({1: "7d 7c", 2: "As Ks"}, flop="Qs Js Ts"))
    place(table, (1, 2))
    later = shown + 4_400  # the controller's level grew (other machines) before the river
    broadcast(table, later)
    before = table.credits(2)
    finish(table, (1, 2))
    to_meter = 2 * prog.wager * prog.contribution_bp // 10_000
    (win,) = events(table.ledger, EventKind.PROGRESSIVE_LINK_WIN)
    assert win.station == 2 and win.detail["group"] == GROUP and win.detail["level"] == LEVEL
    assert win.amount == later + to_meter and win.detail["hand"] == "royal_flush"
    assert win.detail["hand_paid"] is False
    (award,) = [
        e for e in events(table.ledger, EventKind.PROGRESSIVE_AWARD) if e.detail["on_meter"]
    ]
    assert award.station == 2 and award.amount == win.amount
    assert award.detail["linked"] == {"group": GROUP, "level": LEVEL}
    assert table.credits(2) == before + award.amount  # folded at the river: the award only
    for n in (1, 2):  # every station of the table celebrates the hit of the level
        hit = table.snapshot(n).progressive_hit
        assert hit is not None and hit.cents == win.amount
        assert [(w.seat, w.hand.name, w.cents) for w in hit.wins] == [
            (2, "ROYAL_FLUSH", win.amount)
        ]
    assert table.meter_readings(2)["progressive_link_won"] == win.amount
    assert levels(table.ledger) == (0, 0)
    assert not events(table.ledger, EventKind.PROGRESSIVE_HIT)
    assert not events(table.ledger, EventKind.PROGRESSIVE_RESET)
    report = Ledger.verify(table.ledger)
    assert report.ok, report.problem
    table.close()


def test_a_win_at_the_jackpot_limit_is_hand_paid_and_says_so(tmp_path):
    rng = DeckSource()
    table = open_linked(tmp_path, (1,), rng, jackpot_limit_cents=50_000)
    prog = example(table)
    credit(table, 1, 10_000)
    broadcast(table, prog.reset)
    rng.stack(deck_with({1: "Ah Kh"}, flop="Qh Jh Th"))
    place(table, (1,))
    before = table.credits(1)
    finish(table, (1,))
    (win,) = events(table.ledger, EventKind.PROGRESSIVE_LINK_WIN)
    (jackpot,) = events(table.ledger, EventKind.PROGRESSIVE_JACKPOT)
    assert win.detail["hand_paid"] is True and jackpot.amount == win.amount
    assert JACKPOT_TILT in table.snapshot(1).tilts
    assert table.credits(1) == before
    table.close()


def test_a_power_cut_between_deal_and_river_settles_on_the_deals_level(tmp_path):
    """The cabinet's process killed after the deal (a real fork, the ledger's file on
    disk): at power-up no broadcast was heard yet, and the round resumed settles the
    royal flush on the level recorded with the wagers, once."""
    rng = DeckSource()
    table = open_linked(tmp_path, (1,), rng)
    prog = example(table)
    credit(table, 1, 10_000)
    shown = prog.reset + 777
    broadcast(table, shown)
    rng.stack(deck_with({1: "Ad Kd"}, flop="Qd Jd Td"))
    table.close()
    pid = os.fork()
    if pid == 0:  # the cabinet's process: deals, then dies without a word
        try:
            child = open_linked(
                tmp_path, (1,), rng, jackpot_limit_cents=100_000_000, credit_limit_cents=200_000_000
            )
            broadcast(child, shown)
            place(child, (1,))
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    table = open_linked(
        tmp_path,
        (1,),
        SeededRandomSource(1),
        jackpot_limit_cents=100_000_000,
        credit_limit_cents=200_000_000,
    )
    assert table.snapshot(1).progressive_meter is None  # nothing heard since the power-up
    finish(table, (1,))
    (win,) = events(table.ledger, EventKind.PROGRESSIVE_LINK_WIN)
    assert win.amount == shown + prog.wager * prog.contribution_bp // 10_000
    assert len(events(table.ledger, EventKind.PROGRESSIVE_AWARD)) == 1
    report = Ledger.verify(table.ledger)
    assert report.ok, report.problem
    table.close()


def test_a_linked_win_edited_behind_the_ledgers_back_is_caught(tmp_path):
    """A larger win written over the recorded one (its triggers dropped, the won meter
    lifted to match, as someone wanting the controller to pay more would) fails the
    ledger's verification."""
    rng = DeckSource()
    table = open_linked(
        tmp_path, (1,), rng, jackpot_limit_cents=100_000_000, credit_limit_cents=200_000_000
    )
    prog = example(table)
    credit(table, 1, 10_000)
    broadcast(table, prog.reset)
    rng.stack(deck_with({1: "Ac Kc"}, flop="Qc Jc Tc"))
    place(table, (1,))
    finish(table, (1,))
    (win,) = events(table.ledger, EventKind.PROGRESSIVE_LINK_WIN)
    db = table.config.db_path
    table.close()
    conn = sqlite3.connect(db)
    for name in PROTECTIVE_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    conn.execute("UPDATE events SET amount = amount + 100000 WHERE id = ?", (win.id,))
    conn.execute("UPDATE meters SET value = value + 100000 WHERE name = 'progressive_link_won'")
    conn.commit()
    conn.close()
    report = Ledger.open(db, readonly=True).verify()
    assert not report.ok
    assert f"events {win.id}: hash" in report.problem
