"""Pairing by a code shown on the host, private files, and the pinned certificate."""

import stat

import pytest
from support.link_rig import FAST, Collector

from kiosk.link import HostPairing, LinkClient, PairingRefused, StationPairing, pair_station
from kiosk.link.certs import certificate_pem


def mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def test_a_station_pairs_with_the_code_and_connects(server, tmp_path):
    link, inbox = server
    code = link.pairing.open_window()
    paired = pair_station("127.0.0.1", link.port, code, "bar-3", 3, tmp_path / "station")
    assert paired.fingerprint == link.pairing.fingerprint
    assert len(paired.key) == 32
    assert link.pairing.lookup("bar-3").key == paired.key
    assert not link.pairing.window_open  # single use
    assert StationPairing.load(tmp_path / "station") == paired
    for path in [
        tmp_path / "station" / "station.json",
        tmp_path / "host" / "stations.json",
        tmp_path / "host" / "host-key.pem",
        tmp_path / "host" / "host-cert.pem",
    ]:
        assert mode(path) == 0o600, path
    station_inbox = Collector()
    with LinkClient(paired, "127.0.0.1", link.port, station_inbox.message, limits=FAST) as client:
        assert client.wait_connected(5)


def test_a_wrong_code_is_refused_and_the_window_closes_after_three(server, tmp_path, caplog):
    link, _ = server
    code = link.pairing.open_window(attempts=3)
    wrong = "0000-0000" if code != "0000-0000" else "1111-1111"
    for _ in range(3):
        with pytest.raises(PairingRefused) as info:
            pair_station("127.0.0.1", link.port, wrong, "bar-1", 1, tmp_path / "s")
        assert info.value.reason == "bad-code"
    with pytest.raises(PairingRefused) as info:
        pair_station("127.0.0.1", link.port, code, "bar-1", 1, tmp_path / "s")
    assert info.value.reason == "no-window"
    assert link.pairing.lookup("bar-1") is None
    assert not (tmp_path / "s" / "station.json").exists()
    assert link.stats().refusals["pairing.bad-code"] == 3
    assert "pairing.bad-code" in caplog.text


def test_no_pairing_without_a_window_and_an_expired_code_is_refused(server, tmp_path):
    link, _ = server
    with pytest.raises(PairingRefused) as info:
        pair_station("127.0.0.1", link.port, "1234-5678", "bar-1", 1, tmp_path / "s")
    assert info.value.reason == "no-window"
    code = link.pairing.open_window(ttl_s=0.0)
    with pytest.raises(PairingRefused) as info:
        pair_station("127.0.0.1", link.port, code, "bar-1", 1, tmp_path / "s")
    assert info.value.reason == "expired"


def test_a_seat_is_paired_to_one_station(server, tmp_path):
    link, _ = server
    pair_station("127.0.0.1", link.port, link.pairing.open_window(), "bar-2", 2, tmp_path / "a")
    with pytest.raises(PairingRefused) as info:
        pair_station("127.0.0.1", link.port, link.pairing.open_window(), "bar-9", 2, tmp_path / "b")
    assert info.value.reason == "seat-taken"


def test_pairing_survives_a_host_restart(host_pairing, station, tmp_path):
    paired = station("bar-4", 4)
    again = HostPairing(tmp_path / "host")
    assert again.fingerprint == host_pairing.fingerprint
    assert again.lookup("bar-4").key == paired.key


def test_a_station_refuses_a_host_with_another_certificate(server, station, tmp_path):
    link, inbox = server
    genuine = station("bar-5", 5)
    impostor = HostPairing(tmp_path / "impostor").identity.certificate_der()
    pinned_elsewhere = StationPairing(
        genuine.station_id,
        genuine.seat,
        genuine.key,
        "ab" * 32,
        certificate_pem(impostor),
    )
    events = Collector()
    client = LinkClient(
        pinned_elsewhere, "127.0.0.1", link.port, events.message, events.event, FAST
    )
    client.start()
    try:
        assert events.wait(lambda c: "refused" in c.kinds(), 5)
        assert not client.connected
        assert client.stats().refusals["certificate"] >= 1
        assert events.events[0].reason == "certificate"
    finally:
        client.stop()
    assert link.stats().authenticated == 0
    assert inbox.items == []
