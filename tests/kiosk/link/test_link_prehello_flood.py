"""Connections held open before their hello, from one address and from many, while an
honest paired station reconnects again and again: the host gives an unauthenticated
connection's slot to the newcomer (``busy`` to the oldest of the address holding the
most), so the station always gets in.  A real :class:`LinkServer` on loopback, real TLS,
the project's :class:`LinkClient`; the holders are bare WebSockets that never say hello."""

from __future__ import annotations

import asyncio
import threading

from support.link_rig import Collector
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from kiosk.link import LinkClient
from kiosk.link.certs import pairing_client_context
from kiosk.link.limits import LinkLimits
from kiosk.link.server import LinkServer

HOLDERS = 40
RECONNECTS = 25


class Holders:
    """``HOLDERS`` connections kept open before their hello (each reopened when the host
    closes it), half from 127.0.0.1, half from 20 other loopback addresses."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.opened = 0
        self.loop = asyncio.new_event_loop()
        self.stopping: asyncio.Event | None = None
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._run(),))
        self.ready = threading.Event()

    async def _hold(self, i: int) -> None:
        assert self.stopping is not None
        local = ("127.0.0.1", 0) if i % 2 else (f"127.0.0.{2 + i % 20}", 0)
        while not self.stopping.is_set():
            try:
                async with connect(
                    f"wss://127.0.0.1:{self.port}/",
                    ssl=pairing_client_context(),
                    proxy=None,
                    open_timeout=10,
                    local_addr=local,
                ) as ws:
                    self.opened += 1
                    stop = asyncio.ensure_future(self.stopping.wait())
                    recv = asyncio.ensure_future(ws.wait_closed())
                    await asyncio.wait({stop, recv}, return_when=asyncio.FIRST_COMPLETED)
                    stop.cancel()
                    recv.cancel()
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                pass

    async def _run(self) -> None:
        self.stopping = asyncio.Event()
        jobs = [asyncio.ensure_future(self._hold(i)) for i in range(HOLDERS)]
        self.ready.set()
        await asyncio.gather(*jobs)

    def __enter__(self) -> Holders:
        self.thread.start()
        self.ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.stopping is not None
        self.loop.call_soon_threadsafe(self.stopping.set)
        self.thread.join(30)


def test_connections_held_before_their_hello_never_keep_a_paired_station_out(host_pairing, station):
    limits = LinkLimits(auth_timeout_s=5.0, ping_s=2.0, heartbeat_s=0.05, backoff_min_s=0.02)
    inbox = Collector()
    link = LinkServer(host_pairing, inbox.message, inbox.event, limits=limits)
    link.start()
    pairing = station("good", 1)
    try:
        with Holders(link.port) as holders:
            polls = 0  # the holders have filled the host (a deadline of 10 s)
            while holders.opened < limits.max_connections and polls < 1000:
                polls += 1
                threading.Event().wait(0.01)
            connected = 0
            for _ in range(RECONNECTS):
                good = Collector()
                client = LinkClient(
                    pairing, "127.0.0.1", link.port, good.message, good.event, limits
                )
                client.start()
                connected += client.wait_connected(5)
                client.stop()
            stats = link.stats()
        assert holders.opened >= HOLDERS
        assert connected == RECONNECTS, (connected, dict(stats.refusals))
        assert stats.refusals["too-many-connections"] > 0
        assert stats.peak_open <= limits.max_connections
    finally:
        link.stop()
