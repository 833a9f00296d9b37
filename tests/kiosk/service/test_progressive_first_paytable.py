"""The first paytable of a new ledger may carry a progressive: the ledger's first
transaction records the paytable and seeds the meter at its reset (``progressive_reset``,
reason ``in_force``, all of it the operator's: the reserve is empty), and the table offers
the bet from the first round."""

from __future__ import annotations

from support.progressive_table import RESET, WAGER, open_table, write_paytable
from support.table_money import credit

from engine.rng import SeededRandomSource
from engine.uth.round import Action
from kiosk.config import ProgressiveLink
from kiosk.game.commands import Deal, Decide, PlaceChip
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.service.progressive import levels


def test_a_new_ledger_with_a_progressive_paytable_seeds_the_meter_and_offers_the_bet(tmp_path):
    path = write_paytable(tmp_path)
    table = open_table(tmp_path, (1,), SeededRandomSource(9), paytable=path)
    ledger = table.ledger
    assert ledger is not None and table.paytable.progressive is not None
    created, seeded = ledger.events()[:2]
    assert created.kind == EventKind.LEDGER_CREATED
    assert seeded.kind == EventKind.PROGRESSIVE_RESET and seeded.amount == RESET
    assert seeded.at == created.at  # written in the ledger's first transaction
    assert seeded.detail["reason"] == "in_force" and seeded.detail["from_operator"] == RESET
    assert seeded.detail["paytable"] == table.paytable.sha256 == created.detail["paytable"]
    assert not ledger.events((EventKind.PROGRESSIVE_RESERVE_DRAWN,))
    assert levels(ledger) == (RESET, 0)
    assert table.snapshot(1).progressive_meter == RESET
    assert Ledger.verify(ledger).ok

    credit(table, 1, 10_000)
    table.execute(1, PlaceChip("ante", 500))
    table.execute(1, PlaceChip("progressive", WAGER))
    table.execute(1, Deal())
    (wager,) = ledger.events((EventKind.PROGRESSIVE_WAGER,))
    assert wager.amount == WAGER
    for action in (Action.CHECK, Action.CHECK, Action.FOLD):
        if table.snapshot(1).round_open:
            table.execute(1, Decide(action))
    assert not table.snapshot(1).round_open
    assert levels(ledger).meter >= RESET + 15  # the wager's contribution, or an award's reset
    report = Ledger.verify(ledger)
    assert report.ok, report.problem
    table.close()

    meter = levels(ledger).meter
    again = open_table(tmp_path, (1,), SeededRandomSource(9), paytable=path)  # not seeded again
    resets = again.ledger.events((EventKind.PROGRESSIVE_RESET,))
    assert [e.detail["reason"] for e in resets].count("in_force") == 1
    assert again.snapshot(1).progressive_meter == levels(again.ledger).meter == meter
    again.close()


def test_a_linked_cabinets_new_ledger_seeds_no_meter_of_its_own(tmp_path):
    """Linked, the meter is the casino controller's: the first paytable's progressive
    is recorded, and no meter of the ledger's is seeded for it."""
    path = write_paytable(tmp_path)
    table = open_table(
        tmp_path,
        (1,),
        SeededRandomSource(9),
        paytable=path,
        sas_port=str(tmp_path / "line"),
        progressive_link=ProgressiveLink(group=3, level=1),
    )
    assert table.paytable.progressive is not None
    assert not table.ledger.events((EventKind.PROGRESSIVE_RESET,))
    assert levels(table.ledger) == (0, 0)
    assert table.snapshot(1).progressive_meter is None  # nothing heard from the controller
    table.close()
