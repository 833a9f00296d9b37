"""The table's operator menu from the stations: a real :class:`Table` on a SQLite file,
the real TLS link on loopback, :class:`RemoteTable` stations sending the operator's
messages and the host's :class:`OperatorService` answering them."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest
from support.operator_screens import PEOPLE, cabinet_config
from support.signed_paytables import ship_none, signed
from support.table_money import credit

from devices.host import DeviceEventKind, make_event
from engine.rng import SeededRandomSource
from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from engine.uth.round import Action
from kiosk.cli import main as cli
from kiosk.game import commands as cmd
from kiosk.game.errors import PlayDisabled
from kiosk.game.rules.lockout import LOCK_EVENTS, MAX_FAILURES, RESTORE_EVENTS, PinLockout
from kiosk.game.rules.operators import LOCKOUT_TILT
from kiosk.link import auth
from kiosk.link.certs import certificate_pem
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import (
    OperatorAction,
    OperatorLogin,
    OperatorLogout,
    OperatorQuery,
    OperatorReply,
    OperatorSession,
)
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.station.remote import RemoteTable
from kiosk.tablehost.operator_service import SESSION_IDLE_S, OperatorService
from kiosk.tablehost.service import TableHost

FAST = LinkLimits(
    auth_timeout_s=2.0, ping_s=2.0, heartbeat_s=0.05, backoff_min_s=0.02, backoff_max_s=0.2
)
ANN, TED, _CY = PEOPLE  # attendant, technician, manager: (name, role, pin)
WRONG = "111222"
JAM = "device:validator:acceptor_jam"


class Rig:
    """A host with three stations, each connected over the link."""

    def __init__(self, folder: Path, stations=(1, 2, 3)) -> None:
        self.config = cabinet_config(folder)
        self.now = [0.0]  # the sessions' clock (monotonic seconds)
        self.table = Table.open(
            self.config,
            stations,
            rng=SeededRandomSource(5),
            timing=TableTiming(60, 60),
            ticks=lambda: self.now[0],
        )
        self.pairing = HostPairing(folder / "host")
        self.host = TableHost(self.table, self.pairing, limits=FAST, tick_s=0.05)
        port = self.host.start()
        self.remotes: dict[int, RemoteTable] = {}
        for n in stations:
            key = auth.new_station_key()
            self.pairing.add(f"station-{n}", n, key)
            pem = certificate_pem(self.pairing.identity.certificate_der())
            pairing = StationPairing(f"station-{n}", n, key, self.pairing.fingerprint, pem)
            self.remotes[n] = RemoteTable(pairing, "127.0.0.1", port, limits=FAST)
            self.remotes[n].start()
        for remote in self.remotes.values():
            assert remote.wait_for(lambda s: True, 10) is not None

    def close(self) -> None:
        for remote in self.remotes.values():
            remote.stop()
        self.host.stop()
        self.table.close()

    def door(self, station: int, open: bool) -> None:
        """The station's door switch, over its link; waits until the host has it."""
        self.remotes[station].execute(cmd.SetDoor(open))
        assert until(lambda: self.table.statuses()[station - 1].door_open == open)

    def login(self, station: int, pin: str) -> OperatorSession:
        got = self.remotes[station].operator_request(lambda r: OperatorLogin(ref=r, pin=pin), 10)
        assert isinstance(got, OperatorSession)
        return got

    def ask(self, station: int, page: str, of: int | None = None) -> OperatorReply:
        got = self.remotes[station].operator_request(
            lambda r: OperatorQuery(ref=r, page=page, station=of), 10
        )
        assert isinstance(got, OperatorReply)
        return got

    def act(self, station: int, action: str, at: int, **kw) -> OperatorReply:
        got = self.remotes[station].operator_request(
            lambda r: OperatorAction(ref=r, action=action, station=at, **kw), 10
        )
        assert isinstance(got, OperatorReply)
        return got

    def events(self, *kinds: str):
        return self.table.ledger.events(kinds)


def until(condition, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture
def rig(tmp_path):
    made = Rig(tmp_path)
    yield made
    made.close()


def test_a_right_pin_logs_the_person_in_at_that_station_and_is_recorded(rig):
    got = rig.login(2, TED[2])
    assert (got.accepted, got.name, got.role) == (True, TED[0], "technician")
    assert rig.host.operators.operator(2) == (TED[0], "technician")
    assert rig.host.operators.operator(1) is None  # a session is one station's
    (login,) = rig.events("operator_login")
    assert login.station == 2
    assert login.detail["operator"] == TED[0] and login.detail["role"] == "technician"
    assert rig.ask(1, "status").code == "operator_required"  # station 1 has no session
    bye = rig.remotes[2].operator_request(lambda r: OperatorLogout(ref=r), 10)
    assert isinstance(bye, OperatorReply) and bye.ok
    assert rig.events("operator_logout")[-1].detail["operator"] == TED[0]
    assert rig.ask(2, "status").code == "operator_required"


def test_a_wrong_pin_is_refused_counted_recorded_and_never_logged(rig, caplog):
    caplog.set_level(logging.DEBUG)
    got = rig.login(3, WRONG)
    assert not got.accepted and got.role is None and got.code == "wrong_pin"
    assert rig.login(3, "").code == "wrong_pin"
    failed = rig.events("operator_login_failed")
    assert [(e.station, e.detail["failures"]) for e in failed] == [(3, 1), (3, 2)]
    assert rig.host.operators.lockout.failures == 2
    assert rig.login(3, ANN[2]).accepted  # a right PIN starts the count again
    assert rig.host.operators.lockout.failures == 0
    rows = rig.table.ledger.events(())
    assert all(WRONG not in str(e.detail) and ANN[2] not in str(e.detail) for e in rows)
    assert all(WRONG not in r.getMessage() and ANN[2] not in r.getMessage() for r in caplog.records)
    assert WRONG not in repr(OperatorLogin(ref=1, pin=WRONG))


def test_wrong_pins_at_any_station_lock_every_station_and_the_lock_survives_a_restart(rig):
    for i in range(MAX_FAILURES):
        got = rig.login(1 + i % 2, WRONG)  # stations 1 and 2 in turn: one count
        assert got.code == "wrong_pin"
    (lock,) = rig.events("operator_lockout")
    assert lock.station == 1 and lock.detail["failures"] == MAX_FAILURES
    assert LOCKOUT_TILT in rig.table.tilt_texts(1)  # the station it was typed at
    assert rig.table.tilt_texts(2) == {} and rig.table.tilt_texts(3) == {}
    refused = rig.login(3, ANN[2])
    assert (
        not refused.accepted and refused.code == "pin_locked" and "locked until" in refused.detail
    )
    assert rig.events("operator_login") == []
    again = PinLockout()  # a restarted host rebuilds the lock from the ledger
    again.restore(rig.table.ledger.events(LOCK_EVENTS, last=RESTORE_EVENTS), ["x"])
    assert again.locked_until(rig.table.clock()) is not None


def test_the_status_page_shows_another_stations_tilt_devices_and_links(rig):
    rig.table.device_report(
        3, make_event("validator", DeviceEventKind.ACCEPTOR_JAM, "note jammed in the acceptor")
    )
    rig.remotes[1].stop()
    assert rig.login(2, ANN[2]).accepted
    page = rig.ask(2, "status")
    assert page.ok
    by = {s["station"]: s for s in page.data["stations"]}
    assert sorted(by) == [1, 2, 3]
    assert by[3]["tilts"] == [{"code": JAM, "text": "note jammed in the acceptor"}]
    assert by[3]["devices"] == [
        {"device": "validator", "kind": "acceptor_jam", "text": "note jammed in the acceptor"}
    ]
    assert by[2]["tilts"] == [] and by[2]["connected"] is True
    assert by[1]["connected"] is False
    assert page.data["stopped"] is False and page.data["limits"]["ante_min"] > 0
    # the jam stops station 3 only
    assert not rig.table.snapshot(2).tilts and rig.table.snapshot(3).tilts == (JAM,)


def test_an_attendant_clears_a_tilt_and_resets_a_handpay_at_another_station(rig):
    rig.table.device_report(
        3, make_event("validator", DeviceEventKind.CHEATED, "string on the note")
    )
    code = "device:validator:cheated"
    assert rig.login(1, ANN[2]).accepted
    done = rig.act(1, "clear_tilt", 3, code=code)
    assert done.ok and code not in rig.table.tilt_texts(3)
    assert rig.act(1, "clear_tilt", 3, code=code).code == "no_tilt"  # once
    credit(rig.table, 2, 2000)
    rig.table.execute(2, cmd.CashOut())
    assert rig.table.statuses()[1].payout_pending == 2000
    assert rig.act(1, "handpay_reset", 2).ok
    assert rig.table.statuses()[1].payout_pending == 0
    actions = rig.events("operator_action")
    assert [(a.station, a.detail["action"]) for a in actions] == [
        (3, "clear_tilt"),
        (2, "handpay_reset"),
    ]
    for a in actions:
        assert (a.detail["operator"], a.detail["role"], a.detail["at_station"]) == (
            ANN[0],
            "attendant",
            1,
        )
    assert rig.events("handpay")[-1].station == 2
    assert rig.table.ledger.verify(replay=True).ok  # the operator's events replay


def test_roles_are_enforced_and_limits_need_the_door_no_round_and_zero_credits(rig):
    assert rig.login(2, ANN[2]).accepted
    refused = rig.act(2, "set_limits", 2, ante_max=2000)
    assert not refused.ok and refused.code == "role_required"
    assert rig.events("limits_changed") == []
    assert rig.login(2, TED[2]).accepted  # the next login ends the attendant's session
    shut = rig.act(2, "set_limits", 2, ante_max=2000)
    assert shut.code == "door_closed" and "zero credits" in shut.detail
    rig.door(3, True)  # another station's door is not this one's
    assert rig.act(2, "set_limits", 2, ante_max=2000).code == "door_closed"
    rig.door(3, False)
    rig.door(2, True)
    credit(rig.table, 3, 500)
    busy = rig.act(2, "set_limits", 2, ante_max=2000)
    assert busy.code == "credits_on_meter" and "station 3" in busy.detail
    rig.table.execute(3, cmd.CashOut())
    rig.table.execute(3, cmd.HandpayReset(), at=2)  # paid by the technician at station 2
    done = rig.act(2, "set_limits", 2, ante_max=2000)
    assert done.ok and rig.table.limits.ante_max == 2000
    assert done.data["limits"]["ante_max"] == 2000
    (change,) = rig.events("operator_action")
    assert change.detail["operator"] == TED[0] and change.detail["new"]["ante_max"] == 2000
    assert change.station == 2 and change.detail["old"]["ante_max"] != 2000
    assert rig.remotes[1].wait_for(
        lambda s: getattr(rig.remotes[1].limits, "ante_max", 0) == 2000, 10
    )


def test_meters_and_recall_pages_are_the_stations_own(rig):
    credit(rig.table, 1, 1000)
    assert rig.login(2, ANN[2]).accepted
    meters = rig.ask(2, "meters", 1)
    assert meters.ok and meters.data["station"] == 1
    assert meters.data["meters"]["credits"] == 1000 and meters.data["table"]["credits"] == 1000
    assert rig.ask(2, "meters").data["meters"]["credits"] == 0  # its own station by default
    recall = rig.ask(2, "recall", 1)
    assert recall.ok and recall.data == {"station": 1, "rounds": []}


def test_limits_wait_for_the_round_and_recall_shows_the_stations_rounds(rig):
    credit(rig.table, 1, 5000)
    rig.table.execute(1, cmd.PlaceChip("ante", 500))
    rig.table.execute(1, cmd.Deal())  # the only station with credits: the round opens
    assert rig.table.snapshot(1).round_open
    rig.table.execute(2, cmd.SetDoor(True))
    assert rig.login(2, TED[2]).accepted
    busy = rig.act(2, "set_limits", 2, ante_max=2000)
    assert busy.code == "round_in_progress" and "between rounds" in busy.detail
    status = rig.ask(2, "status")
    assert status.data["round_open"] is True
    assert [s["in_round"] for s in status.data["stations"]] == [True, False, False]
    for action in (Action.CHECK, Action.CHECK, Action.FOLD):
        rig.table.execute(1, cmd.Decide(action))
    assert not rig.table.snapshot(1).round_open
    recall = rig.ask(2, "recall", 1)
    (played,) = recall.data["rounds"]
    assert played["seat"] == 1 and played["ante"] == 500 and played["state"] == "settled"
    assert len(played["player_hole"]) == 2 and len(played["dealer_hole"]) == 2
    assert rig.ask(2, "recall", 3).data["rounds"] == []  # only that seat's


def test_a_session_ends_after_it_stands_idle(rig):
    service = OperatorService(rig.table)
    assert service.handle(2, OperatorLogin(ref=1, pin=ANN[2])).accepted
    assert service.handle(2, OperatorQuery(ref=2, page="status")).ok
    rig.now[0] += SESSION_IDLE_S + 1
    late = service.handle(2, OperatorQuery(ref=3, page="status"))
    assert not late.ok and late.code == "operator_required"
    assert rig.events("operator_logout")[-1].detail["reason"] == "idle"


def test_a_stations_door_reaches_the_host_stops_that_station_and_is_said_again_after_a_restart(
    rig,
):
    credit(rig.table, 2, 5000)
    rig.door(2, True)
    assert [(e.station, e.kind) for e in rig.events("door_open", "door_closed")] == [
        (2, "door_open")
    ]
    with pytest.raises(PlayDisabled) as stopped:
        rig.table.execute(2, cmd.PlaceChip("ante", 500))
    assert stopped.value.code == "door_open"
    assert rig.table.snapshot(1).seats[1].tilted  # the others see station 2 stopped
    credit(rig.table, 1, 5000)  # and play on
    rig.table.execute(1, cmd.PlaceChip("ante", 500))
    rig.remotes[2].execute(cmd.SetDoor(True))  # the same state again: nothing recorded
    rig.door(2, False)
    rig.table.execute(2, cmd.PlaceChip("ante", 500))
    # the host restarts (the links start afresh, what was queued is dropped) while the
    # door is opened: the station says its door again once connected
    port = rig.host.port
    rig.host.stop()
    assert until(lambda: not rig.remotes[2].connected)
    rig.remotes[2].execute(cmd.SetDoor(True))
    rig.host = TableHost(rig.table, rig.pairing, port=port, limits=FAST, tick_s=0.05)
    rig.host.start()
    assert until(lambda: rig.table.statuses()[1].door_open)
    assert rig.remotes[2].resets >= 1
    kinds = [e.kind for e in rig.events("door_open", "door_closed")]
    assert kinds == ["door_open", "door_closed", "door_open"]
    assert not rig.table.statuses()[0].door_open and not rig.table.statuses()[2].door_open


def test_an_operator_session_ends_when_the_stations_link_disconnects(rig):
    assert rig.login(2, TED[2]).accepted and rig.login(3, ANN[2]).accepted
    rig.remotes[2].stop()
    assert until(lambda: rig.host.operators.operator(2) is None)
    (bye,) = rig.events("operator_logout")
    assert (bye.station, bye.detail["reason"], bye.detail["operator"]) == (
        2,
        "disconnected",
        TED[0],
    )
    assert rig.host.operators.operator(3) == (ANN[0], "attendant")  # the others stay
    assert rig.ask(3, "status").ok


def test_a_paytable_change_at_a_station_is_proven_recorded_sent_to_every_station_and_replays(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("UTH_PAR_CACHE", str(tmp_path / "par"))
    ship_none(monkeypatch)  # tables proven by this key alone
    rig = Rig(tmp_path)
    try:
        old = rig.table.paytable
        new = signed(rig.table.ledger.key, PAYTABLE_DIR / "trips-50-40-30-9-7-4-3.toml")
        unproven = load_paytable(PAYTABLE_DIR / "trips-50-40-20-7-6-5-3.toml")
        assert rig.login(2, ANN[2]).accepted
        assert rig.act(2, "set_paytable", 2, sha256=new.sha256).code == "role_required"
        assert rig.login(2, TED[2]).accepted
        page = rig.ask(2, "paytables")
        assert page.ok and page.data["in_force"] == old.sha256
        by = {p["sha256"]: p for p in page.data["paytables"]}
        assert by[old.sha256]["in_force"] is True
        assert by[new.sha256]["proven"] is True and by[new.sha256]["rtp"]["trips"] == 96.5
        assert by[unproven.sha256]["rtp"] == {} and by[unproven.sha256]["proven"] is False
        shut = rig.act(2, "set_paytable", 2, sha256=new.sha256)
        assert shut.code == "door_closed" and "zero credits" in shut.detail
        rig.door(2, True)
        assert rig.act(2, "set_paytable", 2, sha256=unproven.sha256).code == "rtp_unknown"
        assert rig.act(2, "set_paytable", 2, sha256="0" * 64).code == "no_paytable"
        credit(rig.table, 3, 500)
        busy = rig.act(2, "set_paytable", 2, sha256=new.sha256)
        assert busy.code == "credits_on_meter" and "station 3" in busy.detail
        assert rig.events("paytable_changed") == [] and rig.table.paytable == old
        rig.table.execute(3, cmd.CashOut())
        rig.table.execute(3, cmd.HandpayReset(), at=2)  # paid by the technician at station 2
        done = rig.act(2, "set_paytable", 2, sha256=new.sha256)
        assert done.ok and done.data["paytable"]["sha256"] == new.sha256
        assert rig.table.paytable.sha256 == new.sha256
        (change,) = rig.events("paytable_changed")
        assert change.station == 2 and change.detail["operator"] == TED[0]
        assert change.detail["old"]["sha256"] == old.sha256
        assert change.detail["new"]["sha256"] == new.sha256
        assert change.detail["new"]["toml"] == rig.table.ledger.paytable_text(new.sha256)
        (act,) = rig.events("operator_action")
        assert (act.detail["old"], act.detail["new"]) == (old.sha256, new.sha256)
        for remote in rig.remotes.values():  # every station gets the new paytable
            assert until(lambda r=remote: getattr(r.paytable, "sha256", "") == new.sha256)
            assert remote.limits == new.limits
        assert rig.act(2, "set_paytable", 2, sha256=new.sha256).code == "same_paytable"
        # a round under the new paytable, then the whole ledger replays
        rig.door(2, False)
        credit(rig.table, 1, 5000)
        rig.table.execute(1, cmd.PlaceChip("trips", 500))
        rig.table.execute(1, cmd.PlaceChip("ante", 500))
        rig.table.execute(1, cmd.Deal())
        for action in (Action.CHECK, Action.CHECK, Action.FOLD):
            rig.table.execute(1, cmd.Decide(action))
        (played,) = rig.table.recall(1, station=1)
        assert played.state == "settled" and played.paytable_sha256 == new.sha256
    finally:
        rig.close()
    assert cli(["audit", "verify", "--replay", "--config", str(tmp_path / "cabinet.toml")]) == 0
    again = Table.open(rig.config, (1, 2, 3))  # the change survives a restart
    try:
        assert again.paytable.sha256 == new.sha256 and again.limits == new.limits
    finally:
        again.close()
