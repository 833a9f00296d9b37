"""Joining a host that closes the socket at once (a host starting up after a power cut,
or going down) is a host not reached, never an exception out of the joining cabinet:
its reconnect loop tries again."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from kiosk.friends.client import FriendsClient, JoinRefused

TRIES = 40


@pytest.fixture
def closing_host() -> Iterator[str]:
    """A TCP server that accepts every connection and closes it unread."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    server.close()
    thread.join(5)


def test_a_host_that_closes_at_once_is_not_reached_every_time(closing_host):
    # whether the socket closes before or after the request went out is a race: each of
    # the tries must end as "host not reached", whichever side it falls
    reasons = []
    for _ in range(TRIES):
        with pytest.raises(JoinRefused) as refused:
            FriendsClient.open([closing_host], "ABCD23", timeout=1.0)
        reasons.append(refused.value.reason)
    assert reasons == ["host.unreached"] * TRIES
