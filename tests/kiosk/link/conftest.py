"""Fixtures of the link tests: a paired host and stations in a temporary folder (the
helpers they use are :mod:`support.link_rig`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support.link_rig import FAST, Collector

from kiosk.link import auth
from kiosk.link.certs import certificate_pem
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.link.server import LinkServer


@pytest.fixture
def host_pairing(tmp_path: Path) -> HostPairing:
    return HostPairing(tmp_path / "host")


@pytest.fixture
def station(host_pairing: HostPairing) -> Callable[[str, int], StationPairing]:
    """Pair a station directly (no network) and return its side of the pairing."""

    def make(station_id: str, seat: int) -> StationPairing:
        key = auth.new_station_key()
        host_pairing.add(station_id, seat, key)
        der = host_pairing.identity.certificate_der()
        return StationPairing(station_id, seat, key, host_pairing.fingerprint, certificate_pem(der))

    return make


@pytest.fixture
def server(host_pairing: HostPairing) -> Iterator[tuple[LinkServer, Collector]]:
    inbox = Collector()
    link = LinkServer(host_pairing, inbox.message, inbox.event, limits=FAST)
    link.start()
    try:
        yield link, inbox
    finally:
        link.stop()
