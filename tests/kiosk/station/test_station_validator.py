"""A station's validator in one process with its host: the real ID-003 driver on the
simulator's pty, a real TLS link on loopback and the host's SQLite ledger.  Notes are
stacked only once the host has recorded them; while the host cannot be reached the
validator is inhibited; the demo keys go through the same two phases."""

from __future__ import annotations

import pytest
from support.fast_devices import FAST_VALIDATOR, never, wait_for

from devices.id003.codes import Status
from kiosk.config import load_config
from kiosk.game.commands import InsertCredits
from kiosk.game.errors import WrongState
from kiosk.link import auth
from kiosk.link.certs import certificate_pem
from kiosk.link.limits import LinkLimits
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.station.controller import HOST_LINK_TILT, StationController
from kiosk.station.notes import StationValidator
from kiosk.station.remote import RemoteTable
from kiosk.tablehost.service import TableHost

FAST = LinkLimits(
    auth_timeout_s=2.0, ping_s=2.0, heartbeat_s=0.05, backoff_min_s=0.02, backoff_max_s=0.2
)


class Rig:
    def __init__(self, tmp_path) -> None:
        self.config = load_config(db_path=tmp_path / "var" / "uth.db")
        self.table = Table.open(self.config, (1,), timing=TableTiming(60, 60))
        self.pairing = HostPairing(tmp_path / "host")
        self.host = TableHost(self.table, self.pairing, limits=FAST, tick_s=0.05)
        self.port = self.host.start()
        key = auth.new_station_key()
        self.pairing.add("station-1", 1, key)
        pem = certificate_pem(self.pairing.identity.certificate_der())
        station = StationPairing("station-1", 1, key, self.pairing.fingerprint, pem)
        self.remote = RemoteTable(station, "127.0.0.1", self.port, limits=FAST)
        self.remote.start()
        assert self.remote.wait_for(lambda s: True, 10) is not None
        self.serving = True

    def stop_host(self) -> None:
        self.host.stop()
        self.serving = False

    def bills(self) -> list[tuple[str | None, int]]:
        assert self.table.ledger is not None
        return [(e.txn, e.amount) for e in self.table.ledger.events(("bill_in",))]


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path)
    yield r
    r.remote.stop()
    if r.serving:
        r.host.stop()
    r.table.close()


def test_a_note_is_stacked_after_the_host_records_it_and_credited_once(rig):
    validator = StationValidator(rig.remote, "sim", FAST_VALIDATOR).start()
    sim = validator.sim
    assert sim is not None
    try:
        assert wait_for(lambda: validator.driver is not None and validator.driver.ready)
        assert wait_for(lambda: not sim.inhibited, 10)
        seen: list[tuple[list[str], int]] = []
        sim.on_state(Status.STACKING, lambda: seen.append((rig.table.open_escrows(1), 0)))
        sim.insert_bill(5000)
        assert wait_for(lambda: rig.table.credits(1) == 5000, 10)
        assert seen and len(seen[0][0]) == 1  # recorded on the host before STACK
        ((txn, cents),) = rig.bills()
        assert txn == seen[0][0][0] and txn.startswith("s1-") and cents == 5000
        assert wait_for(lambda: [b.cents for b in sim.cashbox] == [5000], 5)

        rig.stop_host()  # the host cannot be reached: the validator is inhibited
        assert wait_for(lambda: not rig.remote.connected, 10)
        assert wait_for(lambda: sim.inhibited, 5)
        sim.insert_bill(2000)
        assert wait_for(lambda: len(sim.returned) == 1, 10)
        assert never(lambda: [b.cents for b in sim.cashbox] != [5000] or rig.table.credits(1) != 5000, 0.3)
        assert rig.table.open_escrows(1) == []
    finally:
        validator.close()


def test_the_demo_keys_take_no_note_at_a_station_with_a_real_validator(rig):
    """A note from the keys beside a real validator's would be a second source of notes
    for the seat: the host would close the validator's open escrow as superseded."""
    controller = StationController(rig.remote, rig.config, demo_notes=False)
    with pytest.raises(WrongState, match="validator"):
        controller.execute(InsertCredits(2000))
    assert never(lambda: rig.bills() != [] or rig.table.credits(1) != 0, 0.3)


def test_the_demo_keys_go_through_escrow_then_the_stacked_report(rig):
    controller = StationController(rig.remote, rig.config)
    assert controller.execute(InsertCredits(2000)) is None
    assert rig.remote.wait_for(lambda s: s.credits == 2000, 10)
    ((txn, cents),) = rig.bills()
    assert cents == 2000 and rig.table.ledger.has_txn(txn, "escrow_accepted")
    assert rig.remote.insert_note(1000, 5.0) is not None
    assert rig.table.credits(1) == 3000 and rig.table.open_escrows(1) == []
    rig.stop_host()
    assert wait_for(lambda: not rig.remote.connected, 10)
    tilts = {t.code for t in controller.snapshot().tilts}
    assert HOST_LINK_TILT in tilts  # the screen says the host cannot be reached
    assert rig.remote.insert_note(1000, 0.5) is None  # no answer: the note is kept out
