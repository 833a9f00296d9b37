"""The table host on the link, in one process: a real :class:`Table` on a SQLite file, a
real TLS :class:`LinkServer` on loopback and :class:`RemoteTable` stations."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest
from support.fast_devices import wait_for
from support.table_money import credit

from devices.host import DeviceEventKind
from engine.rng import SeededRandomSource
from engine.uth.round import Action, Phase
from kiosk.config import load_config
from kiosk.game.commands import Deal, PlaceChip
from kiosk.game.commands import Decide as DecideCmd
from kiosk.game.errors import MachineError
from kiosk.ledger.meters import balance
from kiosk.link import auth
from kiosk.link.certs import certificate_pem
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import Bet, Decide, DeviceFault, Escrow, PassRound
from kiosk.link.outcomes import EscrowEnd
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.service.device_commands import AcceptEscrow
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.service.wire import snapshot_from_json, snapshot_state
from kiosk.station.autoplay import RandomPlayer
from kiosk.station.remote import RemoteTable
from kiosk.tablehost.service import TableHost

FAST = LinkLimits(
    auth_timeout_s=2.0, ping_s=2.0, heartbeat_s=0.05, backoff_min_s=0.02, backoff_max_s=0.2
)


class Rig:
    def __init__(self, tmp_path: Path, stations=(1, 2, 3), timing=None) -> None:
        config = load_config(db_path=tmp_path / "var" / "uth.db")
        self.table = Table.open(
            config, stations, rng=SeededRandomSource(3), timing=timing or TableTiming(60, 60)
        )
        self.pairing = HostPairing(tmp_path / "host")
        self.host = TableHost(self.table, self.pairing, limits=FAST, tick_s=0.05)
        self.port = self.host.start()
        self.remotes: dict[int, RemoteTable] = {}
        for n in stations:
            key = auth.new_station_key()
            self.pairing.add(f"station-{n}", n, key)
            pem = certificate_pem(self.pairing.identity.certificate_der())
            pairing = StationPairing(f"station-{n}", n, key, self.pairing.fingerprint, pem)
            remote = RemoteTable(pairing, "127.0.0.1", self.port, limits=FAST)
            remote.start()
            self.remotes[n] = remote
        for remote in self.remotes.values():
            assert remote.wait_for(lambda s: True, 10) is not None

    def close(self) -> None:
        for remote in self.remotes.values():
            remote.stop()
        self.host.stop()
        self.table.close()

    def fund_and_deal(self, *stations: int, ante: int = 500) -> None:
        for n in stations:
            remote = self.remotes[n]
            ack = remote.insert_note(10_000, 10)
            assert ack is not None and ack.accepted
            assert remote.wait_for(lambda s: s.credits >= 10_000, 10)
        for n in stations:
            self.remotes[n].execute(PlaceChip("ante", ante))
            self.remotes[n].execute(Deal())
        for n in stations:
            assert self.remotes[n].wait_for(lambda s: s.round_open and s.in_round, 10)


@pytest.fixture
def rig(tmp_path):
    made: list[Rig] = []

    def make(**kw) -> Rig:
        made.append(Rig(tmp_path, **kw))
        return made[-1]

    yield make
    for r in made:
        r.close()


def steady(snap):
    return dataclasses.replace(snap, betting_seconds=None, decision_seconds=None)


def test_each_station_sees_its_own_cards_exactly_as_the_host_has_them(rig):
    r = rig()
    r.fund_and_deal(1, 2)
    for n in (1, 2, 3):
        got = r.remotes[n].wait_for(lambda s: s.round_open, 10)
        assert steady(got) == steady(r.table.snapshot(n))
    one, two, three = (r.remotes[n].snapshot() for n in (1, 2, 3))
    assert len(one.hole) == 2 and len(two.hole) == 2 and set(one.hole).isdisjoint(two.hole)
    assert three.hole == () and not three.in_round and three.dealer == ()
    assert [s.seat for s in three.seats if s.in_round] == [1, 2]
    assert r.remotes[1].window == r.host.window() and r.remotes[1].limits.ante_min > 0


def test_a_decision_lands_once_and_late_or_replayed_ones_are_refused(rig):
    r = rig()
    r.fund_and_deal(1, 2)
    one = r.remotes[1]
    snap = one.snapshot()
    rid = snap.round_id
    one.execute(DecideCmd(Action.CHECK))
    assert one.wait_for(lambda s: any(x.seat == 1 and x.decided for x in s.seats), 10)
    rows_before = r.table.ledger.open_rounds
    one.link.send(
        Decide(round_id=rid, phase=Phase.PREFLOP, action=Action.PLAY_4X, last_seen=one._seen)
    )
    one.link.send(
        Decide(round_id=rid + 50, phase=Phase.PREFLOP, action=Action.CHECK, last_seen=one._seen)
    )
    two = r.remotes[2]
    two.link.send(
        Decide(
            round_id=two.snapshot().round_id, phase=Phase.PREFLOP, action=Action.CHECK, last_seen=0
        )
    )  # before the phase was shown
    assert one.wait_change(one.progress(), 0) >= 0
    for remote, want in (
        (one, {"decision.already-decided", "decision.not-open"}),
        (two, {"decision.stale"}),
    ):
        remote.wait_for(lambda s, remote=remote, want=want: len(remote.errors) >= len(want), 10)
        assert {e.code for e in remote.errors} == want
    assert r.table.ledger.open_rounds == rows_before  # nothing changed
    two.execute(DecideCmd(Action.CHECK))  # an up-to-date decision still lands
    assert two.wait_for(lambda s: s.phase is Phase.FLOP, 10)


def test_a_bet_for_another_window_is_refused_and_a_note_is_credited_once(rig):
    r = rig()
    one = r.remotes[1]
    one.link.send(Bet(round_id=one.window + 7, ante_cents=500))
    one.link.send(PassRound(round_id=one.window + 7))
    assert one.wait_for(lambda s: len(one.errors) == 2, 10)
    assert {e.code for e in one.errors} == {"window.wrong-round"}
    note = Escrow(txn="note-1", denomination_cents=2000, amount_cents=2000)
    one.link.send(note)
    one.link.send(note)  # the same escrow again
    one.link.send(Escrow(txn="ticket-1", ticket="123456789012"))
    assert one.wait_for(lambda s: "ticket-1" in one.acks, 10)
    assert one.acks["note-1"].accepted and not one.acks["ticket-1"].accepted
    assert r.table.credits(1) == 0  # accepted, not stacked yet: nothing credited
    for _ in range(2):  # the validator's report, then the same report again
        assert one.report_note("note-1", EscrowEnd.VEND_VALID, "", 10) is not None
    assert one.wait_for(lambda s: s.credits == 2000, 10)
    assert r.table.credits(1) == 2000
    seen = one.received
    one.resync()
    assert one.wait_for(lambda s: one.received > seen, 10)


def test_a_silent_seat_times_out_and_the_round_settles(rig):
    r = rig(timing=TableTiming(60, 0.4))
    r.fund_and_deal(1, 2)
    for phase in (Phase.PREFLOP, Phase.FLOP):
        r.remotes[1].wait_for(lambda s, p=phase: s.phase is p, 10)
        r.remotes[1].execute(DecideCmd(Action.CHECK))
    r.remotes[1].wait_for(lambda s: s.phase is Phase.RIVER, 10)
    r.remotes[1].execute(DecideCmd(Action.PLAY_1X))
    done = r.remotes[2].wait_for(lambda s: s.result is not None, 10)
    assert done.timed_out is not None and done.timed_out.action is Action.FOLD
    assert r.table.ledger.open_rounds == []


def test_seven_random_players_balance_their_books(rig):
    stations = tuple(range(1, 8))
    r = rig(stations=stations, timing=TableTiming(2, 2))
    players = [RandomPlayer(r.remotes[n], seed=n) for n in stations]
    threads = [threading.Thread(target=p.run, args=(4, 30.0)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(len(p.report.rounds) >= 4 for p in players)
    for n in stations:
        bal = balance(r.table.ledger.station_meter_readings(n))
        assert bal["balanced"] and bal["credits"] == 0
    assert r.table.ledger.open_rounds == []


def test_the_wire_form_rebuilds_a_settled_snapshot(tmp_path):
    table = Table.open(load_config(db_path=tmp_path / "uth.db"), (1, 2), rng=SeededRandomSource(9))
    for n in (1, 2):
        credit(table, n, 5000)
    for n in (1, 2):
        table.execute(n, PlaceChip("ante", 500))
        table.execute(n, Deal())
    for n in (1, 2):
        table.execute(n, DecideCmd(Action.PLAY_4X))
    snap = table.snapshot(1)
    assert snap.result is not None and len(snap.dealer) == 2
    state = snapshot_state(snap, 9)
    assert state["window"] == 9 and snapshot_from_json(state["snapshot"]) == snap
    broken = {**state["snapshot"], "credits": "5000"}
    with pytest.raises(ValueError):
        snapshot_from_json(broken)
    table.close()


def fault(kind: str, active: bool, detail: str = "from the test") -> DeviceFault:
    if kind not in set(DeviceEventKind):  # ill-typed: sent as it is, for the link to refuse
        return DeviceFault.model_construct(
            device="validator", kind=kind, detail=detail, active=active
        )
    return DeviceFault(device="validator", kind=DeviceEventKind(kind), detail=detail, active=active)


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")  # the ill-typed body
def test_a_station_device_fault_stops_that_station_only_until_it_ends(rig):
    r = rig()
    one, two = r.remotes[1], r.remotes[2]
    jam = "device:validator:acceptor_jam"
    one.link.send(fault("acceptor_jam", True, "a note is jammed"))
    assert one.wait_for(lambda s: jam in s.tilts, 10)
    assert jam not in r.table.snapshot(2).tilts and r.table.snapshot(2).tilts == ()
    seat1 = next(s for s in r.table.display().seats if s.seat == 1)
    assert seat1.tilted
    with pytest.raises(MachineError):  # a stopped station takes no note
        r.table.execute(1, AcceptEscrow("s1-9", 2000))
    ack = two.insert_note(2000, 10)  # the others play on
    assert ack is not None and ack.accepted
    one.link.send(fault("acceptor_jam", False))  # the jam is cleared at the device
    assert one.wait_for(lambda s: jam not in s.tilts, 10)
    one.link.send(fault("vend_unmatched", True))  # one-shot: an attendant clears it
    one.link.send(fault("vend_unmatched", False))
    one.link.send(fault("paper_low", True))  # not a tilt: recorded only
    one.link.send(fault("no_such_kind", True))  # refused by the host's link: never acted on
    assert wait_for(lambda: r.host.link.stats().refusals["malformed"] == 1, 10)
    assert r.table.snapshot(1).tilts == ("device:validator:vend_unmatched",)
    ledger = r.table.ledger
    assert ledger is not None
    told = [
        (e.kind, e.detail.get("code") or e.detail.get("kind"))
        for e in ledger.events(("tilt", "tilt_cleared", "device"), station=1)
    ]
    assert told == [
        ("tilt", jam),
        ("tilt_cleared", jam),
        ("tilt", "device:validator:vend_unmatched"),
        ("device", "paper_low"),
    ]
