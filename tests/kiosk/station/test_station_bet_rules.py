"""A station's instant bet checks are the host's own rules: the station refuses what the
host refuses, with the same error and code, and a forged chip (``True`` as cents) is
refused at the remote table as it is at the host.  Over a real TLS link to a real host
on a SQLite ledger."""

from __future__ import annotations

import pytest
from support.station_floor import FAST, pair_station
from support.table_money import credit

from kiosk.config import load_config
from kiosk.game.commands import Deal, PlaceChip, RepeatBets
from kiosk.game.errors import BetOutOfLimits, InsufficientCredits, MachineError, WrongState
from kiosk.link.pairing import HostPairing
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.station.controller import StationController
from kiosk.station.remote import RemoteTable
from kiosk.tablehost.service import TableHost


@pytest.fixture
def station(tmp_path):
    config = load_config(db_path=tmp_path / "var" / "uth.db")
    table = Table.open(config, (1,), timing=TableTiming(60, 60))
    pairing = HostPairing(tmp_path / "host")
    host = TableHost(table, pairing, limits=FAST, tick_s=0.05)
    port = host.start()
    remote = RemoteTable(pair_station(pairing, 1), "127.0.0.1", port, limits=FAST)
    remote.start()
    assert remote.wait_for(lambda s: True, 10) is not None
    controller = StationController(remote, config)
    try:
        yield table, remote, controller
    finally:
        remote.stop()
        host.stop()
        table.close()


def _refusal(call) -> MachineError:
    with pytest.raises(MachineError) as info:
        call()
    return info.value


def test_the_station_refuses_the_ante_the_host_refuses_with_the_same_reason(station):
    table, remote, controller = station
    credit(table, 1, 2500)
    assert remote.wait_for(lambda s: s.credits == 2500, 10)
    chip = PlaceChip("ante", 1000)  # Ante + Blind + 1x Play: $30 needed, $25 on the meter
    at_station = _refusal(lambda: controller.execute(chip))
    at_host = _refusal(lambda: table.execute(1, chip))
    assert isinstance(at_station, InsufficientCredits) and type(at_host) is type(at_station)
    assert at_station.reason == at_host.reason and at_station.params == at_host.params
    assert at_station.params["needed"] == 3000
    # a chip the host takes, the station takes too
    controller.execute(PlaceChip("ante", 500))
    assert remote.pending.ante == 500


def test_a_rebet_with_no_previous_bet_has_the_cabinets_code(station):
    table, remote, controller = station
    credit(table, 1, 5000)
    assert remote.wait_for(lambda s: s.credits == 5000, 10)
    at_station = _refusal(lambda: controller.execute(RepeatBets()))
    at_host = _refusal(lambda: table.execute(1, RepeatBets()))
    assert isinstance(at_station, WrongState) and at_station.code == at_host.code == "no_previous_bet"


def test_a_deal_without_an_ante_is_refused_by_the_same_rule(station):
    table, remote, controller = station
    credit(table, 1, 5000)
    assert remote.wait_for(lambda s: s.credits == 5000, 10)
    at_remote = _refusal(lambda: remote.execute(Deal()))
    at_host = _refusal(lambda: table.execute(1, Deal()))
    assert isinstance(at_remote, BetOutOfLimits) and type(at_host) is BetOutOfLimits
    assert at_remote.params == at_host.params == {"rule": "no_ante"}


@pytest.mark.parametrize("cents", [True, 0, -500, 2.5, "500"])
def test_a_forged_chip_is_refused_at_the_remote_table_as_at_the_host(station, cents):
    table, remote, _controller = station
    credit(table, 1, 5000)
    assert remote.wait_for(lambda s: s.credits == 5000, 10)
    chip = PlaceChip("ante", cents)
    at_remote = _refusal(lambda: remote.execute(chip))
    at_host = _refusal(lambda: table.execute(1, chip))
    assert type(at_remote) is type(at_host) and at_remote.reason == at_host.reason
    assert remote.pending.ante == 0
