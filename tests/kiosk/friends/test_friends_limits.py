"""Limits of the host's server, through the ``uth tournament host`` process and sockets
from several loopback addresses: idle sockets from one address (or many) cannot lock
friends out, a seated player's reconnect always has room, and game codes cannot be
walked (an address asking for wrong codes is locked out; the others are not)."""

from __future__ import annotations

import http.client
from collections.abc import Iterator

import pytest
from support.friends_cli_host import CliHost, Seat
from websockets.exceptions import InvalidStatus


@pytest.fixture
def host(tmp_path) -> Iterator[CliHost]:
    h = CliHost("--port", "0", "--db", str(tmp_path / "host.db"), "--players", "6", "--start-after", "600")
    yield h
    h.kill()


def _get(h: CliHost, source: str, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", h.port, timeout=5, source_address=(source, 0))
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def _hoard(h: CliHost, source: str, n: int, link: str | None = None) -> tuple[list[Seat], int]:
    opened, refused = [], 0
    for _ in range(n):
        try:
            opened.append(Seat(link or h.link, source))
        except InvalidStatus as exc:
            assert exc.response.status_code == 503
            refused += 1
    return opened, refused


@pytest.mark.heavy
def test_idle_sockets_cannot_lock_friends_out_and_a_seated_reconnect_has_room(host):
    mia = Seat(host.link, "127.0.0.20")
    mia.send(type="join", name="Mia", lang="en")
    mia.wait_for(lambda c: c.welcome is not None)
    token = mia.welcome["token"]
    hoards = []
    one, refused = _hoard(host, "127.0.0.2", 40)
    hoards += one
    assert len(one) <= 4 and refused >= 36, "one address holds a few sockets with no seat"
    tom = Seat(host.link, "127.0.0.3")  # another phone still gets in
    tom.send(type="join", name="Tom", lang="en")
    tom.wait_for(lambda c: c.welcome is not None)
    for n in range(4, 12):  # many addresses fill every socket without a seat
        hoards += _hoard(host, f"127.0.0.{n}", 4)[0]
    mia.close()
    back = _reconnect(host, "127.0.0.20", token)
    back.send(type="resume", token=token)
    back.wait_for(lambda c: c.welcome is not None)
    assert back.welcome["seat"] == mia.welcome["seat"], "the seated player came back"
    for s in hoards + [tom, back]:
        s.close()


def _reconnect(h: CliHost, source: str, token: str) -> Seat:
    from websockets.sync.client import connect

    seat = Seat.__new__(Seat)
    url = h.link.replace("http://", "ws://", 1) + "/ws?seat=" + token
    seat.ws = connect(url, open_timeout=5, source_address=(source, 0), legacy=True)
    seat.source, seat.messages, seat.state, seat.welcome, seat.closed = source, [], None, None, False
    return seat


@pytest.mark.heavy
def test_wrong_codes_lock_that_address_out_and_no_other(host):
    right = f"/g/{host.code}"
    wrong = [f"/g/{c * 6}" for c in "ABCDEFGH" if c * 6 != host.code]
    assert _get(host, "127.0.0.2", right) == 200
    statuses = [_get(host, "127.0.0.2", path) for path in wrong[:8]]
    assert statuses[:5] == [404] * 5 and set(statuses[5:]) == {429}, statuses
    assert _get(host, "127.0.0.2", right) == 429, "the right code no longer helps that address"
    with pytest.raises(InvalidStatus) as info:
        Seat(host.link, "127.0.0.2")
    assert info.value.response.status_code == 429
    assert _get(host, "127.0.0.3", right) == 200, "another address is not locked out"
    friend = Seat(host.link, "127.0.0.3")
    friend.send(type="join", name="Eve", lang="en")
    friend.wait_for(lambda c: c.welcome is not None)
    friend.close()
