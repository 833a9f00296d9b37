"""The progressive at a table of stations over the link (real TLS sockets on loopback):
each station's wager goes with its Bet, and a station cut mid-round, holding the round's
royal flush, loses nothing of it: its seat times out, the round settles at the host
with the station's award on its credits, once, and the station started again shows
them."""

from __future__ import annotations

from pathlib import Path

from support.decks import DeckSource, deck_with
from support.progressive_table import (
    RESET,
    TO_METER,
    TO_RESERVE,
    WAGER,
    put_in_force,
    write_paytable,
)
from support.station_floor import FAST, pair_station
from support.table_money import credit

from engine.uth.round import Action
from kiosk.config import load_config
from kiosk.game.commands import Deal, Decide, PlaceChip
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.link.pairing import HostPairing
from kiosk.service.progressive import levels
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.station.remote import RemoteTable
from kiosk.tablehost.service import TableHost

SEATS = (1, 2, 3)


def test_a_station_cut_mid_round_keeps_its_progressive_award(tmp_path: Path) -> None:
    deck = DeckSource()
    config = load_config(db_path=tmp_path / "var" / "uth.db")
    table = Table.open(config, SEATS, rng=deck, timing=TableTiming(30, 1.0))
    put_in_force(table, write_paytable(tmp_path))
    for n in SEATS:
        credit(table, n, 10_000)
    pairing = HostPairing(tmp_path / "host")
    host = TableHost(table, pairing, limits=FAST, tick_s=0.05)
    port = host.start()
    pairs = {n: pair_station(pairing, n) for n in SEATS}
    remotes = {n: RemoteTable(pairs[n], "127.0.0.1", port, limits=FAST) for n in SEATS}
    try:
        for remote in remotes.values():
            remote.start()
            assert remote.wait_for(lambda s: s.progressive_wager == WAGER, 10) is not None
        deck.stack(deck_with({2: "As Ks"}, flop="Qs Js Ts"))
        for remote in remotes.values():  # the wager goes with each station's Bet
            remote.execute(PlaceChip("ante", 500))
            remote.execute(PlaceChip("progressive", WAGER))
            remote.execute(Deal())
        for remote in remotes.values():
            assert remote.wait_for(lambda s: s.round_open, 10) is not None
        assert len(table.ledger.events((EventKind.PROGRESSIVE_WAGER,))) == 3

        remotes[2].stop()  # station 2 is cut: its seat's decisions time out
        for action in (Action.CHECK, Action.CHECK, Action.FOLD):
            for n in (1, 3):
                remotes[n].execute(Decide(action))
        settled = remotes[1].wait_for(lambda s: not s.round_open, 20)
        assert settled is not None
        top = RESET + 3 * TO_METER  # the round's contributions, then the royal takes it all
        (award,) = [
            e for e in table.ledger.events((EventKind.PROGRESSIVE_AWARD,)) if e.detail["on_meter"]
        ]
        assert award.station == 2 and award.amount == top
        assert any(e.station == 2 for e in table.ledger.events((EventKind.DECISION_TIMED_OUT,)))
        meter, reserve = levels(table.ledger)
        assert (meter, reserve) == (RESET, 0)  # reset from the reserve and the operator
        assert 3 * TO_RESERVE <= RESET

        again = RemoteTable(pairs[2], "127.0.0.1", port, limits=FAST)  # station 2 restarted
        remotes[2] = again
        again.start()
        shown = again.wait_for(lambda s: not s.round_open and s.credits > 0, 10)
        assert shown is not None and shown.credits == table.credits(2)
        assert table.credits(2) == 10_000 - 1000 - WAGER + top  # its main bets lost by timeout
        assert len(table.ledger.events((EventKind.PROGRESSIVE_AWARD,), station=2)) == 1
        report = Ledger.verify(table.ledger)
        assert report.ok, report.problem
    finally:
        for remote in remotes.values():
            remote.stop()
        host.stop()
        table.close()
