"""The paytable and limits on the link: a real :class:`Table` on a SQLite file, its TLS
:class:`TableHost` on loopback, :class:`RemoteTable` stations that record which
snapshots carry the ``paytable`` and ``limits`` objects.  A snapshot carries them on a
(re)connect, a resync and a change only; a station keeps the last ones."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine.rng import SeededRandomSource
from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from kiosk.config import load_config
from kiosk.game.commands import Deal, OperatorLogin, PlaceChip, SetDoor, SetLimits
from kiosk.link import auth
from kiosk.link.certs import certificate_pem
from kiosk.link.events import Inbound
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import Snapshot
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.service.device_commands import Pass
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.station.remote import RemoteTable
from kiosk.tablehost.service import TableHost

FAST = LinkLimits(
    auth_timeout_s=2.0, ping_s=2.0, heartbeat_s=0.05, backoff_min_s=0.02, backoff_max_s=0.2
)
OTHER = PAYTABLE_DIR / "trips-50-40-20-7-6-5-3.toml"


class RecordingStation(RemoteTable):
    """A station that notes, for every snapshot, which of the two objects it carried."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.carried: list[tuple[bool, bool]] = []  # (paytable, limits) per snapshot

    def _on_message(self, inbound: Inbound) -> None:
        if isinstance(inbound.body, Snapshot):
            state = inbound.body.state
            self.carried.append(("paytable" in state, "limits" in state))
        super()._on_message(inbound)


class Floor:
    """A host with stations 1 and 2 on one port, restartable onto another ledger."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.pairing = HostPairing(tmp_path / "host")
        self.table, self.host = self._serve(tmp_path / "a" / "uth.db", None, 0)
        self.port = self.host.port
        self.stations: dict[int, RecordingStation] = {}
        for n in (1, 2):
            key = auth.new_station_key()
            self.pairing.add(f"station-{n}", n, key)
            pem = certificate_pem(self.pairing.identity.certificate_der())
            pairing = StationPairing(f"station-{n}", n, key, self.pairing.fingerprint, pem)
            self.stations[n] = RecordingStation(pairing, "127.0.0.1", self.port, limits=FAST)
            self.stations[n].start()
        for station in self.stations.values():
            assert station.wait_for(lambda s: True, 10) is not None

    def _serve(self, db: Path, paytable: Path | None, port: int) -> tuple[Table, TableHost]:
        config = load_config(db_path=db, paytable=paytable)
        table = Table.open(config, (1, 2), rng=SeededRandomSource(8), timing=TableTiming(60, 60))
        # the first host shares the pairings being made; a restarted one reads them back
        pairing = self.pairing if port == 0 else HostPairing(self.tmp_path / "host")
        host = TableHost(table, pairing, port=port, limits=FAST)
        host.start()
        return table, host

    def restart(self, db: Path, paytable: Path | None = None) -> None:
        """Cut the host and serve ``db`` on the same port (the stations reconnect)."""
        self.host.stop()
        self.table.close()
        self.table, self.host = self._serve(db, paytable, self.port)

    def close(self) -> None:
        for station in self.stations.values():
            station.stop()
        self.host.stop()
        self.table.close()


@pytest.fixture
def floor(tmp_path):
    f = Floor(tmp_path)
    yield f
    f.close()


def wait(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.01)


def test_only_the_first_snapshot_after_connecting_carries_the_paytable(floor):
    one, two = floor.stations[1], floor.stations[2]
    sha = floor.table.ledger.table_in_force()[0].sha256
    assert one.paytable.sha256 == sha and one.limits.ante_min == floor.table.limits.ante_min
    assert one.carried[0] == (True, True)
    for station in (one, two):
        assert station.insert_note(5_000, 10).accepted
        assert station.wait_for(lambda s: s.credits == 5_000, 10)
    one.execute(PlaceChip("ante", 500))
    one.execute(Deal())
    two.execute(Pass())
    assert one.wait_for(lambda s: s.round_open and s.in_round, 10)
    assert len(one.carried) >= 3
    assert all(c == (False, False) for c in one.carried[1:]), one.carried
    # the station keeps what it was sent first
    assert one.paytable.sha256 == sha and one.limits.ante_min == floor.table.limits.ante_min
    # a resync sends both again
    count = len(one.carried)
    one.resync()
    wait(lambda: len(one.carried) > count)
    assert one.carried[count] == (True, True)


def test_a_station_gets_the_paytable_again_after_it_reconnects(floor):
    one = floor.stations[1]
    first = one.paytable
    one.stop()
    again = RecordingStation(one.pairing, "127.0.0.1", floor.port, limits=FAST)
    floor.stations[1] = again
    again.start()
    assert again.wait_for(lambda s: True, 10) is not None
    assert again.carried[0] == (True, True)
    assert again.paytable is not None and again.paytable.sha256 == first.sha256
    assert again.limits == one.limits


def test_a_limits_change_reaches_every_station_once(floor):
    one, two = floor.stations[1], floor.stations[2]
    before = [len(s.carried) for s in (one, two)]
    narrowed = floor.table.limits.ante_max // 2
    floor.table.execute(1, SetDoor(True))
    floor.table.execute(1, OperatorLogin("2222"))  # the demo technician, at station 1
    floor.table.execute(1, SetLimits(ante_max=narrowed))
    floor.table.execute(1, SetDoor(False))
    for station, seen in zip((one, two), before, strict=True):
        wait(lambda station=station: getattr(station.limits, "ante_max", 0) == narrowed)
        carried = station.carried[seen:]
        assert [c[1] for c in carried].count(True) == 1, carried
        assert not any(c[0] for c in carried)  # the paytable did not change


def test_after_a_host_restart_the_stations_get_the_paytable_in_force(floor, tmp_path):
    one, two = floor.stations[1], floor.stations[2]
    sha = one.paytable.sha256
    # the same ledger: the same paytable, sent again on the new link
    seen = len(one.carried)
    floor.restart(tmp_path / "a" / "uth.db")
    wait(lambda: len(one.carried) > seen and one.connected)
    assert one.carried[seen] == (True, True)
    assert one.paytable.sha256 == sha
    # another ledger with another paytable: both stations take the new one
    other = load_paytable(OTHER)
    assert other.sha256 != sha
    floor.restart(tmp_path / "b" / "uth.db", OTHER)
    for station in (one, two):
        wait(lambda station=station: station.paytable.sha256 == other.sha256)
    assert one.limits.ante_max == other.limits.ante_max
