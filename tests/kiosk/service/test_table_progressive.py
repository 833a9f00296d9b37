"""The progressive at the table's game service, standalone (one meter for every station;
a lone cabinet is a table of one): the wager taken with the Ante at the deal, the meter
and the reserve in the ledger, every contribution, award, reset and breakage written in
the round's settling transaction, an award over the jackpot limit hand-paid, and power
cuts at the deal and at settlement that lose and double nothing.

The meter is checked after every round against the ledger's events, added up here
(resets + contributions - awards on the meter - breakage), and against the test's own
count of what each wager feeds it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.decks import DeckSource, deck_with
from support.progressive_table import (
    RESET,
    TO_METER,
    TO_RESERVE,
    WAGER,
    open_table,
    put_in_force,
    write_paytable,
)
from support.table_money import credit

from engine.rng import SeededRandomSource
from engine.uth.round import Action
from kiosk.game.commands import (
    Deal,
    Decide,
    OperatorLogin,
    PlaceChip,
    RamClear,
    RamClearRequest,
    RamClearWitness,
    SetDoor,
)
from kiosk.game.error_codes import BetRule, ErrorCode
from kiosk.game.errors import BetOutOfLimits, InsufficientCredits
from kiosk.game.vocabulary import JACKPOT_TILT
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.meters import balance
from kiosk.service.progressive import levels
from kiosk.service.table import Table
from kiosk.service.wire import snapshot_from_json, to_json


@pytest.fixture
def paytable(tmp_path: Path) -> Path:
    return write_paytable(tmp_path)


def place(table: Table, stations, progressive=True) -> None:
    for n in stations:
        table.execute(n, PlaceChip("ante", 500))
        if progressive:
            table.execute(n, PlaceChip("progressive", WAGER))
        table.execute(n, Deal())


def finish(table: Table, stations) -> None:
    for action in (Action.CHECK, Action.CHECK, Action.FOLD):
        for n in stations:
            table.execute(n, Decide(action))


def total(ledger: Ledger, kind: EventKind, **match) -> int:
    return sum(
        e.amount
        for e in ledger.events((kind,))
        if all(e.detail.get(k) == v for k, v in match.items())
    )


def check_identity(ledger: Ledger) -> tuple[int, int]:
    """The meter and the reserve added up from the ledger's events, equal to the levels
    its meters hold; the books balance and the ledger verifies."""
    resets = total(ledger, EventKind.PROGRESSIVE_RESET)
    contributions = total(ledger, EventKind.PROGRESSIVE_CONTRIBUTION)
    on_meter = total(ledger, EventKind.PROGRESSIVE_AWARD, on_meter=True) + total(
        ledger, EventKind.PROGRESSIVE_JACKPOT, on_meter=True
    )
    breakage = total(ledger, EventKind.PROGRESSIVE_BREAKAGE)
    meter = resets + contributions - on_meter - breakage
    reserve = total(ledger, EventKind.PROGRESSIVE_RESERVE) - total(
        ledger, EventKind.PROGRESSIVE_RESERVE_DRAWN
    )
    assert total(ledger, EventKind.PROGRESSIVE_HIT) == on_meter + breakage
    assert levels(ledger) == (meter, reserve)
    assert balance(ledger.meters)["balanced"]
    report = Ledger.verify(ledger)
    assert report.ok, report.problem
    return meter, reserve


def wagers_in(ledger: Ledger) -> int:
    return len(ledger.events((EventKind.PROGRESSIVE_WAGER,)))


@pytest.mark.parametrize("stations", [(1,), tuple(range(1, 8))])
def test_every_wager_feeds_the_meter_and_the_ledger_adds_up_after_every_round(
    tmp_path, paytable, stations
):
    table = open_table(tmp_path, stations, SeededRandomSource(21))
    put_in_force(table, paytable)
    (seeded,) = table.ledger.events((EventKind.PROGRESSIVE_RESET,))
    assert seeded.amount == RESET and seeded.detail["reason"] == "in_force"
    assert check_identity(table.ledger) == (RESET, 0)
    for n in stations:
        credit(table, n, 10000)
    expect_meter, expect_reserve = RESET, 0
    for r in range(3):
        before = {n: table.credits(n) for n in stations}
        place(table, stations)
        for n in stations:  # taken at the deal: Ante, Blind and the progressive
            assert table.credits(n) == before[n] - 1000 - WAGER
            snap = table.snapshot(n)
            assert {s.seat: s.progressive for s in snap.seats} == {s: WAGER for s in stations}
            assert snap.progressive_meter == expect_meter
            assert snapshot_from_json(to_json(snap)) == snap  # the wire carries both
        assert wagers_in(table.ledger) == len(stations) * (r + 1)
        finish(table, stations)
        rows = {row.seat: row for row in table.recall(len(stations))}
        first = min(row.id for row in rows.values())
        for n in stations:  # the row's credits, then the seat's progressive award
            award = sum(
                e.amount
                for e in table.ledger.events((EventKind.PROGRESSIVE_AWARD,), station=n)
                if e.round_id is not None and e.round_id >= first
            )
            assert rows[n].credits_before == before[n] - WAGER
            assert table.credits(n) == rows[n].credits_after + award
        expect_meter += len(stations) * TO_METER
        expect_reserve += len(stations) * TO_RESERVE
        assert not table.ledger.events((EventKind.PROGRESSIVE_HIT,))
        assert check_identity(table.ledger) == (expect_meter, expect_reserve)
    assert table.ledger.meters["progressive_wagered"] == 3 * len(stations) * WAGER
    assert table.ledger.meters["progressive_wagers"] == 3 * len(stations)
    table.close()


def test_a_royal_flush_pays_the_meter_and_resets_it_from_the_reserve(tmp_path, paytable):
    rng = DeckSource()
    table = open_table(tmp_path, (1, 2), rng)
    put_in_force(table, paytable)
    credit(table, 1, 10000)
    credit(table, 2, 10000)
    place(table, (1, 2))  # a round of nothing first: the reserve grows
    finish(table, (1, 2))
    meter, reserve = check_identity(table.ledger)
    assert (meter, reserve) == (RESET + 2 * TO_METER, 2 * TO_RESERVE)
    rng.stack(deck_with({1: "As Ks", 2: "7d 7c"}, flop="Qs Js Ts"))
    before = {n: table.credits(n) for n in (1, 2)}
    place(table, (1, 2))
    finish(table, (1, 2))
    top = meter + 2 * TO_METER  # the round's contributions, then the royal takes it all
    (award,) = [
        e for e in table.ledger.events((EventKind.PROGRESSIVE_AWARD,)) if e.detail["on_meter"]
    ]
    assert award.station == 1 and award.amount == top and award.detail["hand"] == "royal_flush"
    (hit,) = table.ledger.events((EventKind.PROGRESSIVE_HIT,))
    assert hit.amount == top and hit.round_id == award.round_id  # seat 1's row is the first
    resets = table.ledger.events((EventKind.PROGRESSIVE_RESET,))
    assert [e.detail["reason"] for e in resets] == ["in_force", "award"]
    (drawn,) = table.ledger.events((EventKind.PROGRESSIVE_RESERVE_DRAWN,))
    assert drawn.amount == 4 * TO_RESERVE  # the whole reserve, the rest from the operator
    assert drawn.detail["from_operator"] == RESET - 4 * TO_RESERVE
    assert check_identity(table.ledger) == (RESET, 0)
    # seat 1 won the round's royal too (folded at the river: its main bets lost); the
    # progressive award is on its credits
    assert table.credits(1) == before[1] - 1000 - WAGER + top
    assert table.credits(2) >= before[2] - 1000 - WAGER
    table.close()


def test_two_straight_flushes_share_the_line_and_the_odd_cent_is_breakage(tmp_path, paytable):
    rng = DeckSource()
    table = open_table(tmp_path, (1, 2, 3), rng)
    put_in_force(table, paytable)
    for n in (1, 2, 3):
        credit(table, n, 10000)
    place(table, (1, 3))  # a shuffled round first, seat 2 without the progressive
    table.execute(2, PlaceChip("ante", 500))
    table.execute(2, Deal())
    finish(table, (1, 2, 3))
    assert not table.ledger.events((EventKind.PROGRESSIVE_HIT,))
    assert wagers_in(table.ledger) == 2
    rng.stack(deck_with({1: "Js Ts", 2: "6s 5s", 3: "9h 9d"}, flop="9s 8s 7s"))
    place(table, (1, 2, 3))
    finish(table, (1, 2, 3))
    meter_at = RESET + 5 * TO_METER  # two wagers, then three
    line = meter_at * 1000 // 10000
    share, odd = divmod(line, 2)
    assert odd == 1  # the test's figures leave a cent over
    won = {e.station: e for e in table.ledger.events((EventKind.PROGRESSIVE_AWARD,))}
    assert {n: (e.amount, e.detail["hand"]) for n, e in won.items() if e.detail["on_meter"]} == {
        1: (share, "straight_flush"),
        2: (share, "straight_flush"),
    }
    assert won[3].amount == 900 and not won[3].detail["on_meter"]  # trips: fixed
    (breakage,) = table.ledger.events((EventKind.PROGRESSIVE_BREAKAGE,))
    assert breakage.amount == odd
    (hit,) = table.ledger.events((EventKind.PROGRESSIVE_HIT,))
    assert hit.amount == line and hit.detail["breakage"] == odd
    assert check_identity(table.ledger) == (meter_at - line, 5 * TO_RESERVE)
    assert table.ledger.meters["progressive_paid"] == 2 * share + 900
    table.close()


def test_an_award_over_the_jackpot_limit_is_hand_paid(tmp_path, paytable):
    rng = DeckSource()
    table = open_table(tmp_path, (1,), rng, jackpot_limit_cents=50_000)
    put_in_force(table, paytable)
    credit(table, 1, 10000)
    rng.stack(deck_with({1: "Ah Kh"}, flop="Qh Jh Th"))
    place(table, (1,))
    before = table.credits(1)
    finish(table, (1,))
    (jackpot,) = table.ledger.events((EventKind.PROGRESSIVE_JACKPOT,))
    assert jackpot.amount == RESET + TO_METER and jackpot.station == 1
    assert not table.ledger.events((EventKind.PROGRESSIVE_AWARD,))
    snap = table.snapshot(1)
    assert JACKPOT_TILT in snap.tilts and snap.jackpot == jackpot.amount
    assert table.credits(1) == before  # folded at the river; the award is paid by hand
    assert table.ledger.meters["jackpot"] == jackpot.amount
    assert table.ledger.meters["jackpot_count"] == 1
    assert check_identity(table.ledger) == (RESET, 0)
    table.close()


def test_a_table_without_a_progressive_refuses_the_spot(tmp_path):
    table = open_table(tmp_path, (1,), SeededRandomSource(3))
    credit(table, 1, 2000)
    table.execute(1, PlaceChip("ante", 500))
    with pytest.raises(BetOutOfLimits):
        table.execute(1, PlaceChip("progressive", WAGER))
    assert table.snapshot(1).pending.progressive == 0
    table.close()


def test_the_progressive_needs_an_ante_its_exact_wager_and_the_credits(tmp_path, paytable):
    table = open_table(tmp_path, (1,), SeededRandomSource(3))
    put_in_force(table, paytable)
    credit(table, 1, 2000)
    with pytest.raises(BetOutOfLimits) as refused:
        table.execute(1, PlaceChip("progressive", WAGER))
    assert refused.value.params["rule"] == BetRule.NO_ANTE
    table.execute(1, PlaceChip("ante", 500))
    with pytest.raises(BetOutOfLimits):
        table.execute(1, PlaceChip("progressive", WAGER + 100))
    table.execute(1, PlaceChip("progressive", WAGER))
    with pytest.raises(BetOutOfLimits):  # placed once: a second chip is not the wager
        table.execute(1, PlaceChip("progressive", WAGER))
    assert table.snapshot(1).pending.progressive == WAGER
    table.execute(1, PlaceChip("ante", 100))
    with pytest.raises(InsufficientCredits) as short:  # 3 x 700 + 100 > 2000 credits
        table.execute(1, PlaceChip("ante", 100))
    assert short.value.code == ErrorCode.INSUFFICIENT_CREDITS
    table.close()


# -- power cuts ----------------------------------------------------------------------------
ROYAL = {1: "As Ks", 2: "Qh Qd"}  # seat 1 a royal flush, seat 2 three queens
FLOP = "Qs Js Ts"
CUTS = {  # where the power goes: (kind of the event just written, how many; None: after)
    "wager": (EventKind.PROGRESSIVE_WAGER, 2),  # inside the deal's transaction
    "dealt": None,  # the deal committed, nothing decided
    "contribution": (EventKind.PROGRESSIVE_CONTRIBUTION, 1),  # inside settlement
    "award": (EventKind.PROGRESSIVE_AWARD, 1),
    "reset": (EventKind.PROGRESSIVE_RESET, 1),
    "settled": None,  # settlement committed
}


def play_out(table: Table) -> None:
    """Every seat's decisions until the round is settled: check, then fold at the river."""
    for _ in range(10):
        if not table.snapshot(1).round_open:
            return
        for n in table.stations:
            offers = {o.action for o in table.snapshot(n).offers}
            if Action.FOLD in offers:
                table.execute(n, Decide(Action.FOLD))
            elif Action.CHECK in offers:
                table.execute(n, Decide(Action.CHECK))
    raise AssertionError("the round did not settle")


def cut_child(tmp_path: Path, cut: str) -> None:
    """In a forked child: open the table, play the stacked round, and die (no power-down
    record, nothing more committed) at ``cut``."""
    from kiosk.ledger import ledger as ledger_module

    where = CUTS[cut]
    if where is not None:
        kind, count = where
        real = ledger_module.Ledger.event
        seen = [0]

        def event(self, k, **kw):
            got = real(self, k, **kw)
            if k == kind:
                seen[0] += 1
                if seen[0] == count:
                    os._exit(0)  # the power goes inside the transaction
            return got

        ledger_module.Ledger.event = event  # type: ignore[method-assign]
    rng = DeckSource()
    rng.stack(deck_with(ROYAL, flop=FLOP))
    table = open_table(tmp_path, (1, 2), rng)
    place(table, (1, 2))
    if cut == "dealt":
        os._exit(0)
    play_out(table)
    os._exit(0 if cut == "settled" else 3)  # the cut above was never reached


@pytest.mark.parametrize("cut", list(CUTS))
def test_a_power_cut_at_every_phase_loses_and_doubles_nothing(tmp_path, paytable, cut):
    table = open_table(tmp_path, (1, 2), SeededRandomSource(5))
    put_in_force(table, paytable)
    credit(table, 1, 10000)
    credit(table, 2, 10000)
    table.close()
    pid = os.fork()
    if pid == 0:
        try:
            cut_child(tmp_path, cut)
        finally:
            os._exit(4)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    rng = DeckSource()
    again = open_table(tmp_path, (1, 2), rng)
    dealt = bool(again.ledger.open_rounds) or cut == "settled"
    assert wagers_in(again.ledger) == (2 if dealt else 0)
    assert not again.ledger.events((EventKind.PROGRESSIVE_CONTRIBUTION,)) or cut == "settled"
    if not dealt:  # the deal never happened: the same deck is dealt again
        assert again.credits(1) == again.credits(2) == 10000
        rng.stack(deck_with(ROYAL, flop=FLOP))
        place(again, (1, 2))
    play_out(again)
    assert wagers_in(again.ledger) == 2
    (royal,) = [
        e for e in again.ledger.events((EventKind.PROGRESSIVE_AWARD,)) if e.detail["on_meter"]
    ]
    (trips,) = [
        e for e in again.ledger.events((EventKind.PROGRESSIVE_AWARD,)) if not e.detail["on_meter"]
    ]
    assert (royal.station, royal.amount) == (1, RESET + 2 * TO_METER)
    assert (trips.station, trips.amount) == (2, 900)
    assert len(again.ledger.events((EventKind.PROGRESSIVE_RESET,))) == 2  # in force, award
    assert check_identity(again.ledger) == (RESET, 0)
    # both seats folded at the river: the main bets lost, the progressive paid once
    assert again.credits(1) == 10000 - 1000 - WAGER + RESET + 2 * TO_METER
    assert again.credits(2) == 10000 - 1000 - WAGER + 900
    assert len(again.recall(10)) == 2 and {r.state for r in again.recall(10)} == {"settled"}
    again.close()


def test_a_ram_clear_mid_round_refunds_the_progressive_wager_with_the_stakes(tmp_path, paytable):
    table = open_table(tmp_path, (1,), SeededRandomSource(8))
    put_in_force(table, paytable)
    credit(table, 1, 10000)
    place(table, (1,))
    assert table.credits(1) == 10000 - 1000 - WAGER
    table.execute(1, SetDoor(True))
    table.execute(1, OperatorLogin("3333"))  # the manager, countersigned by the attendant
    table.execute(1, RamClearWitness("1111"))
    table.execute(1, RamClear(str(table.execute(1, RamClearRequest()))))
    (refund,) = table.ledger.events((EventKind.PROGRESSIVE_REFUND,))
    assert refund.amount == WAGER and refund.station == 1
    clear = table.ledger.last_event(EventKind.RAM_CLEAR)
    assert clear is not None and clear.amount == 10000  # every cent back, then cleared
    assert table.credits(1) == 0
    assert not table.ledger.events((EventKind.PROGRESSIVE_CONTRIBUTION,))
    assert check_identity(table.ledger) == (RESET, 0)
    table.close()
