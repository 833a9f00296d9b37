"""The link tests' helpers: fast limits, a collector that waits for what a link end
delivered, and a raw WebSocket station that can send anything (the fixtures are in
``tests/kiosk/link/conftest.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Callable

from websockets.asyncio.client import ClientConnection, connect

from kiosk.link import auth
from kiosk.link.certs import pairing_client_context
from kiosk.link.codec import decode, encode
from kiosk.link.events import Inbound, LinkEvent
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import Challenge, Hello, Welcome
from kiosk.link.pairing import StationPairing

FAST = LinkLimits(
    auth_timeout_s=1.0,
    ping_s=1.0,
    heartbeat_s=0.05,
    backoff_min_s=0.02,
    backoff_max_s=0.2,
)


class Collector:
    """Thread-safe list of what a link end delivered."""

    def __init__(self) -> None:
        self.items: list[Inbound] = []
        self.events: list[LinkEvent] = []
        self._cond = threading.Condition()

    def message(self, inbound: Inbound) -> None:
        with self._cond:
            self.items.append(inbound)
            self._cond.notify_all()

    def event(self, event: LinkEvent) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def wait(self, predicate: Callable[[Collector], bool], timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return True

    def kinds(self) -> list[str]:
        with self._cond:
            return [e.kind for e in self.events]


@contextlib.asynccontextmanager
async def raw_station(
    port: int, pairing: StationPairing | None = None, **connect_args: object
) -> AsyncIterator[tuple[ClientConnection, Challenge]]:
    """A bare WebSocket connection to the host (no pinning); with ``pairing`` it is
    authenticated first (its hello answered by a welcome)."""
    async with connect(
        f"wss://127.0.0.1:{port}/",
        ssl=pairing_client_context(),
        proxy=None,
        compression=None,
        max_size=None,
        **connect_args,  # type: ignore[arg-type]
    ) as ws:
        challenge = decode(await ws.recv(), "host").body
        assert isinstance(challenge, Challenge)
        if pairing is not None:
            mac = auth.hello_mac(pairing.key, bytes.fromhex(challenge.nonce), pairing.station_id)
            hello = Hello(
                station_id=pairing.station_id,
                seat=pairing.seat,
                session="0" * 32,
                last_seen=0,
                mac=mac,
            )
            await ws.send(encode(hello, 0, 0))
            assert isinstance(decode(await ws.recv(), "host").body, Welcome)
        yield ws, challenge


def run(coro: object) -> object:
    return asyncio.run(coro)  # type: ignore[arg-type]
