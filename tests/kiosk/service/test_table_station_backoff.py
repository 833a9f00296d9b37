"""A burn-in station (:class:`RandomPlayer`, what ``uth table station --autoplay random``
runs) at a table whose PIN pad is locked, or whose credit limit its test credits would
pass: it waits (a capped exponential back-off) and says once what it waits for, instead
of asking again and again; test credits over the limit get a typed refusal and change
nothing.  A real :class:`Table` on a SQLite file, its :class:`TableHost` on a loopback
TLS link and a :class:`RemoteTable` station."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from engine.rng import SeededRandomSource
from kiosk.config import load_config
from kiosk.game.commands import CashOut
from kiosk.game.rules.lockout import MAX_FAILURES
from kiosk.link import auth
from kiosk.link.certs import certificate_pem
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import OperatorLogin, OperatorSession
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.station.autoplay import RandomPlayer
from kiosk.station.remote import RemoteTable
from kiosk.tablehost.service import TableHost

FAST = LinkLimits(
    auth_timeout_s=2.0, ping_s=2.0, heartbeat_s=0.05, backoff_min_s=0.02, backoff_max_s=0.2
)


class Floor:
    """One demo table with stations 1 and 2, station 1 on the link; counts the operator
    logins the host answers."""

    def __init__(self, tmp_path: Path) -> None:
        config = load_config(db_path=tmp_path / "var" / "uth.db")
        self.table = Table.open(
            config, (1, 2), rng=SeededRandomSource(3), timing=TableTiming(60, 60)
        )
        pairing = HostPairing(tmp_path / "host")
        self.host = TableHost(self.table, pairing, limits=FAST, tick_s=0.05)
        self.logins = 0
        handle = self.host.operators.handle

        def counted(station: int, body: object) -> object:
            if isinstance(body, OperatorLogin):
                self.logins += 1
            return handle(station, body)

        self.host.operators.handle = counted  # type: ignore[method-assign]
        port = self.host.start()
        key = auth.new_station_key()
        pairing.add("station-1", 1, key)
        pem = certificate_pem(pairing.identity.certificate_der())
        own = StationPairing("station-1", 1, key, pairing.fingerprint, pem)
        self.remote = RemoteTable(own, "127.0.0.1", port, limits=FAST)
        self.remote.start()
        assert self.remote.wait_for(lambda s: True, 10) is not None

    def close(self) -> None:
        self.remote.stop()
        self.host.stop()
        self.table.close()

    def login(self, station: int, pin: str) -> OperatorSession:
        """A login at ``station`` as the host answers it (station 2: another client's)."""
        got = self.host.operators.handle(station, OperatorLogin(ref=1, pin=pin))
        assert isinstance(got, OperatorSession)
        return got


@pytest.fixture
def floor(tmp_path):
    made = Floor(tmp_path)
    yield made
    made.close()


def play_for(player: RandomPlayer, seconds: float) -> None:
    """Run ``player`` on its own thread for ``seconds`` (it would play on), then stop it."""
    stop = threading.Event()
    worker = threading.Thread(target=lambda: player.run(100, timeout=60.0, stop=stop))
    worker.start()
    time.sleep(seconds)
    stop.set()
    worker.join(10.0)
    assert not worker.is_alive()


def test_a_station_backs_off_while_the_pin_pad_is_locked_and_says_so_once(floor):
    remote = floor.remote
    ack = remote.insert_note(10_000, 10)
    assert ack is not None and ack.accepted
    assert remote.wait_for(lambda s: s.credits == 10_000, 10)
    remote.execute(CashOut())  # no printer: a handpay the attendant must reset
    assert remote.wait_for(lambda s: s.payout_pending, 10)
    for i in range(MAX_FAILURES):  # a hostile client at station 2 locks the PIN pad
        assert not floor.login(2, f"90817{i}").accepted
    assert floor.login(1, "000000").code == "pin_locked"
    floor.logins = 0
    said: list[str] = []
    player = RandomPlayer(remote, 1, say=said.append, backoff=(0.2, 0.8))
    play_for(player, 3.0)
    refused = [line for line in said if "attendant login refused" in line]
    assert len(refused) == 1, said[-5:]
    assert "pin_locked" in refused[0] and "locked until" in refused[0]
    assert "every 0.8 s" in refused[0]
    # 0.2, 0.4, 0.8, 0.8 ... seconds apart: a handful of tries in 3 s, not hundreds
    assert 2 <= floor.logins <= 7, floor.logins
    assert remote.snapshot().payout_pending


def test_test_credits_over_the_credit_limit_get_a_typed_refusal_and_change_nothing(floor):
    remote = floor.remote
    limit = floor.table.config.credit_limit_cents
    before = len(floor.table.ledger.events())
    ack = remote.test_credits(limit + 100, 10.0)
    assert ack is not None and not ack.accepted
    assert ack.code == "credit_limit" and "credit limit" in ack.reason
    assert len(floor.table.ledger.events()) == before
    assert remote.snapshot().credits == 0


def test_a_burn_in_whose_test_credits_pass_the_limit_says_why_once_and_waits(floor):
    said: list[str] = []
    limit = floor.table.config.credit_limit_cents
    player = RandomPlayer(
        floor.remote, 1, say=said.append, test_credits=True, note=limit + 1, backoff=(0.2, 0.8)
    )
    before = len(floor.table.ledger.events())
    play_for(player, 2.0)
    refused = [line for line in said if "test credits refused" in line]
    assert len(refused) == 1 and "(credit_limit)" in refused[0], said[-5:]
    assert len(floor.table.ledger.events()) == before
