"""The station port's in-process adapter behaves as the remote one: the chips are kept at
the station until Deal, refused at once (by the controller over the port, a rebet by
the port) with the service's own errors and codes, and
placed at the service as one wager with Deal (checked again there); a power cut before
Deal takes nothing and the rebet after it is the ledger's; the recall is a future, done
when it is returned.  The game service on a real ledger file, the lone station in
process."""

from __future__ import annotations

import pytest
from support.table_money import credit

from engine.uth.paytable import Limits
from engine.uth.round import Action
from kiosk.config import load_config
from kiosk.game.commands import (
    CashOut,
    ClearBets,
    Deal,
    Decide,
    PlaceChip,
    RepeatBets,
    SetDoor,
)
from kiosk.game.errors import MachineError, PlayDisabled, WrongState
from kiosk.game.vocabulary import Bets
from kiosk.service.table import Table
from kiosk.station.controller import StationController
from kiosk.station.local import LocalTable
from kiosk.station.remote import RemoteTable


@pytest.fixture
def db(tmp_path):
    return tmp_path / "var" / "uth.db"


def _open(db) -> tuple[Table, LocalTable]:
    table = Table.open(load_config(db_path=db, decision_values=False), (1,))
    link = LocalTable(table, 1)
    link.start()
    return table, link


def _refusal(call) -> MachineError:
    with pytest.raises(MachineError) as info:
        call()
    return info.value


def _play_out(table: Table) -> None:
    """Check to the river, then fold: the round settles."""
    while table.snapshot(1).round_open:
        offered = {o.action for o in table.snapshot(1).offers}
        table.execute(1, Decide(Action.CHECK if Action.CHECK in offered else Action.FOLD))


def test_neither_adapter_says_where_the_service_runs():
    for adapter in (LocalTable, RemoteTable):
        assert not hasattr(adapter, "in_process")
    assert LocalTable.recall_kept_elsewhere is False and RemoteTable.recall_kept_elsewhere


def test_chips_are_kept_at_the_station_until_deal_then_wagered_at_the_service(db):
    table, link = _open(db)
    try:
        credit(table, 1, 5000)
        assert isinstance(link.limits, Limits) and link.limits == table.limits
        link.execute(PlaceChip("trips", 500))
        link.execute(PlaceChip("ante", 500))
        assert link.pending == Bets(ante=500, trips=500)
        assert table.snapshot(1).pending == Bets()  # nothing placed at the service yet
        assert table.credits(1) == 5000
        link.execute(Deal())
        assert link.pending == Bets()
        snap = table.snapshot(1)
        assert snap.round_open and snap.in_round and table.credits(1) == 5000 - 1500
    finally:
        link.stop()
        table.close()


def test_a_chip_is_refused_at_the_station_as_at_the_service(db):
    table, link = _open(db)
    controller = StationController(link, table.config)
    try:
        credit(table, 1, 2500)
        chip = PlaceChip("ante", 1000)  # $30 needed, $25 on the meter
        at_station, at_service = (
            _refusal(lambda: controller.execute(chip)),
            _refusal(lambda: table.execute(1, chip)),
        )
        assert type(at_station) is type(at_service) and at_station.params == at_service.params
        table.execute(1, SetDoor(True))
        chip = PlaceChip("ante", 500)
        at_station, at_service = (
            _refusal(lambda: controller.execute(chip)),
            _refusal(lambda: table.execute(1, chip)),
        )
        assert isinstance(at_station, PlayDisabled) and at_station.code == at_service.code
        assert at_station.reason == at_service.reason and link.pending == Bets()
        table.execute(1, SetDoor(False))
        controller.execute(chip)
        controller.execute(Deal())
        at_station, at_service = (
            _refusal(lambda: controller.execute(chip)),
            _refusal(lambda: table.execute(1, chip)),
        )
        assert isinstance(at_station, WrongState) and at_station.code == at_service.code
        assert at_station.code == "round_in_progress" and link.pending == Bets()
        at_station = _refusal(lambda: controller.execute(RepeatBets()))  # the adapter's
        assert at_station.code == "round_in_progress"
    finally:
        link.stop()
        table.close()


def test_a_deal_the_service_refuses_leaves_the_chips_at_the_station(db):
    table, link = _open(db)
    try:
        credit(table, 1, 5000)
        link.execute(PlaceChip("ante", 500))
        table.execute(1, SetDoor(True))  # the door opens after the chip was placed
        refused = _refusal(lambda: link.execute(Deal()))
        assert isinstance(refused, PlayDisabled) and refused.code == "door_open"
        assert link.pending == Bets(ante=500) and not table.snapshot(1).round_open
        assert table.snapshot(1).pending == Bets()  # the service took its copy back
        table.execute(1, SetDoor(False))
        link.execute(ClearBets())
        assert link.pending == Bets()
    finally:
        link.stop()
        table.close()


def test_a_power_cut_before_deal_takes_nothing_and_the_rebet_is_the_ledgers(db):
    table, link = _open(db)
    credit(table, 1, 10_000)
    link.execute(PlaceChip("ante", 500))
    link.execute(PlaceChip("trips", 100))
    link.execute(Deal())
    _play_out(table)
    after_round = table.credits(1)
    link.execute(PlaceChip("ante", 1000))  # placed, not dealt: the power goes
    assert table.ledger is not None
    table.ledger.close()
    link.stop()
    table, link = _open(db)
    try:
        assert table.credits(1) == after_round  # nothing was taken for the chip
        assert link.pending == Bets()
        link.execute(RepeatBets())  # the ledger's last wager, not the chip before the cut
        assert link.pending == Bets(ante=500, trips=100)
    finally:
        link.stop()
        table.close()


def test_the_recall_is_a_future_done_when_returned(db):
    table, link = _open(db)
    try:
        credit(table, 1, 5000)
        link.execute(PlaceChip("ante", 500))
        link.execute(Deal())
        _play_out(table)
        asked = link.recall_rounds(3, 2.0)
        assert asked.done()
        (played,) = asked.result()
        assert played.seat == 1 and played.state == "settled" and played.deck
    finally:
        link.stop()
        table.close()


def test_a_cash_out_takes_the_chips_back_as_at_the_service(db):
    table, link = _open(db)
    try:
        credit(table, 1, 5000)
        link.execute(PlaceChip("ante", 500))
        assert link.pending == Bets(ante=500)
        link.execute(CashOut())
        assert link.pending == Bets() and table.snapshot(1).payout_pending == 5000
    finally:
        link.stop()
        table.close()
