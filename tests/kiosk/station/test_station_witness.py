"""A station is the witness of the table host's ledger: it keeps the latest signed head
the host sent (a file beside its pairing) and refuses a host whose ledger is behind it.
The attack: copy the host's whole ledger folder (database, key, anchor), let the station
play on, put the copy back and restart the host.  The host's own anchor, rolled back with
the rest, cannot see it; the station does.  A real :class:`Table` on SQLite files, its
:class:`TableHost` on loopback TLS and the project's :class:`RemoteTable` station."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.table_money import credit

from kiosk.config import load_config
from kiosk.game import commands as cmd
from kiosk.game.errors import PlayDisabled
from kiosk.link import auth
from kiosk.link.certs import certificate_pem
from kiosk.link.limits import LinkLimits
from kiosk.link.pairing import WITNESS_FILE, HostPairing, StationPairing
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.station.remote import RemoteTable
from kiosk.station.witness import WITNESS_TILT, HeadWitness
from kiosk.tablehost.service import TableHost

FAST = LinkLimits(
    auth_timeout_s=2.0, ping_s=2.0, heartbeat_s=0.05, backoff_min_s=0.02, backoff_max_s=0.2
)


class Host:
    """The table host over the ledger in ``var``."""

    def __init__(self, var: Path, link: Path) -> None:
        self.table = Table.open(
            load_config(db_path=var / "uth.db"), (1,), timing=TableTiming(60, 60)
        )
        self.pairing = HostPairing(link)
        self.service = TableHost(self.table, self.pairing, limits=FAST, tick_s=0.05)
        self.port = self.service.start()

    def close(self) -> None:
        self.service.stop()
        self.table.close()


def station(host: Host, folder: Path) -> RemoteTable:
    if host.pairing.lookup("station-1") is None:
        key = auth.new_station_key()
        host.pairing.add("station-1", 1, key)
        pem = certificate_pem(host.pairing.identity.certificate_der())
        StationPairing("station-1", 1, key, host.pairing.fingerprint, pem).save(folder)
    pairing = StationPairing.load(folder)
    witness = HeadWitness(folder / WITNESS_FILE)
    remote = RemoteTable(pairing, "127.0.0.1", host.port, limits=FAST, witness=witness)
    remote.start()
    return remote


def test_a_station_refuses_a_host_whose_ledger_was_rolled_back(tmp_path):
    var, link, folder = tmp_path / "var", tmp_path / "link", tmp_path / "station"
    host = Host(var, link)
    remote = station(host, folder)
    assert remote.wait_for(lambda s: True, 10) is not None
    host.service.stop()
    host.table.close()
    shutil.copytree(var, tmp_path / "copy")  # the attacker's copy of the whole folder
    host = Host(var, link)
    remote.stop()
    remote = station(host, folder)
    assert remote.wait_for(lambda s: True, 10) is not None
    credit(host.table, 1, 10_000)  # play goes on
    assert remote.wait_for(lambda s: s.credits == 10_000, 10) is not None
    kept = HeadWitness(folder / WITNESS_FILE).kept
    assert kept is not None and kept.seq > 0
    remote.stop()
    host.close()
    shutil.rmtree(var)
    shutil.copytree(tmp_path / "copy", var)  # and put the copy back
    host = Host(var, link)  # the host's own checks pass: its anchor was rolled back too
    try:
        assert host.table.credits(1) == 0
        remote = station(host, folder)
        snap = remote.wait_for(lambda s: WITNESS_TILT in s.tilts, 10)
        assert snap is not None and "rolled back" in remote.host_behind
        with pytest.raises(PlayDisabled) as refused:
            remote.execute(cmd.CashOut())
        assert refused.value.code == WITNESS_TILT
        remote.stop()
    finally:
        host.close()


def test_a_witness_takes_the_same_or_a_later_head_and_refuses_another_ledger(tmp_path):
    w = HeadWitness(tmp_path / WITNESS_FILE)
    head = {
        "seq": 5,
        "ledger_id": "a",
        "events": 9,
        "event_head": "e",
        "rounds": 1,
        "round_head": "r",
        "mac": "m",
    }
    assert w.observe(head) == "" and w.observe(head) == ""
    assert w.observe({**head, "seq": 6, "events": 10, "event_head": "f"}) == ""
    assert HeadWitness(tmp_path / WITNESS_FILE).kept.seq == 6  # kept in the file
    assert "not a" in HeadWitness(tmp_path / WITNESS_FILE).observe(
        {**head, "seq": 7, "ledger_id": "b"}
    )
    again = HeadWitness(tmp_path / WITNESS_FILE)
    assert "other rows" in again.observe({**head, "seq": 6, "events": 10, "event_head": "x"})
    assert again.observe({**head, "seq": 99, "events": 99}) != ""  # stays refused this run
