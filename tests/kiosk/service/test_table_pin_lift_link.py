"""At a table's station, the PIN locks that wrong PINs put on the whole table are lifted
over the station's link: its main door open, a manager's or technician's PIN and a second
person's (:class:`OperatorLift`), recorded by the host with both people and the station.
A real :class:`Table` on a SQLite file, its :class:`TableHost` on a loopback TLS link and
:class:`RemoteTable` stations."""

from __future__ import annotations

from support.operator_screens import PEOPLE, cabinet_config

from engine.rng import SeededRandomSource
from kiosk.game.commands import SetDoor
from kiosk.game.rules.lockout import MAX_FAILURES
from kiosk.link import auth
from kiosk.link.certs import certificate_pem
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import OperatorLift, OperatorLogin, OperatorReply, OperatorSession
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.station.remote import RemoteTable
from kiosk.tablehost.service import TableHost

ANN, TED, CY = PEOPLE
FAST = LinkLimits(
    auth_timeout_s=2.0, ping_s=2.0, heartbeat_s=0.05, backoff_min_s=0.02, backoff_max_s=0.2
)


def test_a_station_with_its_door_open_lifts_the_tables_pin_locks(tmp_path):
    table = Table.open(
        cabinet_config(tmp_path), (1, 2), rng=SeededRandomSource(3), timing=TableTiming(60, 60)
    )
    pairing = HostPairing(tmp_path / "host")
    host = TableHost(table, pairing, limits=FAST, tick_s=0.05)
    port = host.start()
    key = auth.new_station_key()
    pairing.add("station-1", 1, key)
    pem = certificate_pem(pairing.identity.certificate_der())
    remote = RemoteTable(
        StationPairing("station-1", 1, key, pairing.fingerprint, pem),
        "127.0.0.1",
        port,
        limits=FAST,
    )
    remote.start()
    try:
        assert remote.wait_for(lambda s: True, 10) is not None

        def ask(make) -> OperatorSession | OperatorReply:
            got = remote.operator_request(make, 5.0)
            assert got is not None
            return got

        for i in range(MAX_FAILURES):  # another station's guesses lock the whole table
            refused = host.operators.handle(2, OperatorLogin(ref=1, pin=f"31313{i}"))
            assert isinstance(refused, OperatorSession) and not refused.accepted
        assert ask(lambda r: OperatorLogin(ref=r, pin=ANN[2])).code == "pin_locked"
        shut = ask(lambda r: OperatorLift(ref=r, pin=CY[2], witness_pin=ANN[2]))
        assert isinstance(shut, OperatorReply) and shut.code == "door_closed"
        remote.execute(SetDoor(True))
        assert remote.wait_for(lambda s: s.door_open, 10)
        wrong = ask(lambda r: OperatorLift(ref=r, pin="424242", witness_pin=ANN[2]))
        assert isinstance(wrong, OperatorReply) and wrong.code == "wrong_pin"
        lifted = ask(lambda r: OperatorLift(ref=r, pin=TED[2], witness_pin=ANN[2]))
        assert isinstance(lifted, OperatorReply) and lifted.ok
        assert lifted.data == {"operator": TED[0]}
        event = table.ledger.last_event("operator_lockout_lifted")
        assert event.detail["operator"] == TED[0] and event.detail["witness"] == ANN[0]
        assert event.detail["how"] == "door" and event.detail["at_station"] == 1
        again = ask(lambda r: OperatorLogin(ref=r, pin=CY[2]))
        assert isinstance(again, OperatorSession) and again.accepted and again.role == "manager"
    finally:
        remote.stop()
        host.stop()
        table.close()
