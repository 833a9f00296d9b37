"""The station end of the link: connects to the host over TLS with the host certificate
pinned, authenticates with the station key, reconnects with back-off, resends what the
host has not acknowledged, and delivers the host's messages once and in order.

Also :func:`pair_station`, the station's half of pairing.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import random
import secrets
import ssl
import threading
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from kiosk.link import auth
from kiosk.link.certs import (
    certificate_pem,
    check_fingerprint,
    fingerprint_of,
    pairing_client_context,
    peer_certificate,
    pinned_client_context,
)
from kiosk.link.channel import Channel, pump, send_control
from kiosk.link.codec import MAX_FRAME_BYTES, decode
from kiosk.link.errors import AuthRefused, LinkError, PairingRefused
from kiosk.link.events import Inbound, LinkEvent, OnEvent, OnMessage
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import (
    Body,
    Challenge,
    ErrorMessage,
    Hello,
    PairGranted,
    PairRequest,
    Welcome,
)
from kiosk.link.pairing import WITNESS_FILE, StationPairing
from kiosk.link.runtime import LoopThread
from kiosk.link.sequencing import Outbox
from kiosk.link.stats import LinkStats

log = logging.getLogger("kiosk.link")



def _uri(host: str, port: int) -> str:
    return f"wss://[{host}]:{port}/" if ":" in host else f"wss://{host}:{port}/"


def _ssl_object(ws: ClientConnection) -> ssl.SSLObject | ssl.SSLSocket | None:
    obj = ws.transport.get_extra_info("ssl_object")
    return obj if isinstance(obj, ssl.SSLObject | ssl.SSLSocket) else None


class LinkClient:
    """A player station's link to the table host.  Runs in its own thread; every public
    method is thread-safe.  ``on_message`` receives the host's application messages and
    ``on_event`` connection events, on one delivery thread."""

    def __init__(
        self,
        pairing: StationPairing,
        host: str,
        port: int,
        on_message: OnMessage,
        on_event: OnEvent | None = None,
        limits: LinkLimits | None = None,
    ) -> None:
        self.pairing = pairing
        self.limits = limits or LinkLimits()
        self.session = secrets.token_hex(16)
        self._host = host
        self._port = port
        self._on_message = on_message
        self._on_event = on_event
        self._runtime = LoopThread(f"link-{pairing.station_id}")
        self._channel = Channel(Outbox(self.limits.outbox))
        self._epoch: str | None = None
        self._welcomed = False
        self._connected = threading.Event()
        self._stopping = False
        self._task: concurrent.futures.Future[None] | None = None
        self._ws: ClientConnection | None = None
        self._stats = LinkStats()

    # --- lifecycle ------------------------------------------------------------------

    def start(self) -> None:
        self._runtime.start()
        self._task = self._runtime.submit(self._run())

    def stop(self, timeout: float = 10.0) -> None:
        """Close the connection and stop the thread (unacknowledged messages are lost)."""
        self._stopping = True
        self._runtime.stop(timeout)

    def __enter__(self) -> LinkClient:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def wait_connected(self, timeout: float) -> bool:
        """Block until authenticated (True) or ``timeout`` seconds pass (False)."""
        return self._connected.wait(timeout)

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def stats(self) -> LinkStats:
        return self._stats.snapshot()

    def drop_connection(self) -> None:
        """Abort the current connection (the link reconnects; for tests and tools)."""
        ws = self._ws
        if ws is not None:
            self._runtime.call(ws.transport.abort)

    # --- sending --------------------------------------------------------------------

    def send(self, body: Body) -> int:
        """Queue ``body`` for the host; returns its ``seq``.  Sent now if connected, else
        after the next authentication; resent until acknowledged.  Raises
        :class:`OutboxFull` (nothing queued) when too much is unacknowledged."""
        seq = self._channel.outbox.put(body)
        self._runtime.call(self._channel.kick)
        return seq

    @property
    def unacknowledged(self) -> int:
        return len(self._channel.outbox)

    # --- the connection loop --------------------------------------------------------

    async def _run(self) -> None:
        delay = self.limits.backoff_min_s
        context = pinned_client_context(self.pairing.certificate_pem)
        while not self._stopping:
            try:
                await self._connect_once(context)
                delay = self.limits.backoff_min_s
            except LinkError as exc:
                self._stats.refuse(exc.reason, f"{self._host}:{self._port}", str(exc))
                self._emit(
                    LinkEvent(
                        "refused", self.pairing.station_id, self.pairing.seat, reason=exc.reason
                    )
                )
            except ssl.SSLCertVerificationError as exc:
                self._stats.refuse("certificate", f"{self._host}:{self._port}", str(exc))
                self._emit(
                    LinkEvent(
                        "refused", self.pairing.station_id, self.pairing.seat, reason="certificate"
                    )
                )
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
                log.debug("link %s: %s", self.pairing.station_id, exc)
            except Exception as exc:  # whatever a broken stream raises, the link reconnects
                self._stats.unexpected += 1
                log.warning(
                    "link %s: unexpected %s, reconnecting", self.pairing.station_id, repr(exc),
                    exc_info=True,
                )
            finally:
                self._ws = None
                if self._connected.is_set():
                    self._connected.clear()
                    self._emit(
                        LinkEvent("disconnected", self.pairing.station_id, self.pairing.seat)
                    )
            await asyncio.sleep(delay * random.uniform(0.5, 1.0))
            delay = min(delay * 2, self.limits.backoff_max_s)

    async def _connect_once(self, context: ssl.SSLContext) -> None:
        station = self.pairing
        self._stats.connections += 1
        async with asyncio.timeout(self.limits.auth_timeout_s):
            ws = await connect(
                _uri(self._host, self._port),
                ssl=context,
                server_hostname="uth-table-host",
                open_timeout=self.limits.auth_timeout_s,
                ping_interval=self.limits.ping_s,
                ping_timeout=self.limits.ping_s,
                close_timeout=self.limits.close_s,
                max_size=MAX_FRAME_BYTES,
                max_queue=32,
                compression=None,
                proxy=None,
                logger=logging.getLogger("kiosk.link.websockets"),
            )
        self._ws = ws
        async with ws:
            check_fingerprint(peer_certificate(_ssl_object(ws)), station.fingerprint)
            async with asyncio.timeout(self.limits.auth_timeout_s):
                welcome = await self._authenticate(ws)
            resend_after = self._adopt(welcome)
            self._stats.authenticated += 1
            self._connected.set()
            self._emit(
                LinkEvent("connected", station.station_id, station.seat, resumed=welcome.resumed)
            )
            await pump(
                ws,
                self._channel,
                "host",
                resend_after,
                self._deliver,
                self.limits,
                self._stats,
                f"host {self._host}:{self._port}",
            )

    async def _authenticate(self, ws: ClientConnection) -> Welcome:
        station = self.pairing
        challenge = decode(await ws.recv(), "host").body
        if not isinstance(challenge, Challenge):
            raise AuthRefused("protocol", f"expected a challenge, got {challenge.type}")
        mac = auth.hello_mac(station.key, bytes.fromhex(challenge.nonce), station.station_id)
        hello = Hello(
            station_id=station.station_id,
            seat=station.seat,
            session=self.session,
            last_seen=self._channel.inbox.last,
            mac=mac,
        )
        await send_control(ws, hello, self._channel.inbox.last)
        answer = decode(await ws.recv(), "host").body
        if isinstance(answer, ErrorMessage):
            raise AuthRefused(answer.code, answer.detail)
        if not isinstance(answer, Welcome):
            raise AuthRefused("protocol", f"expected a welcome, got {answer.type}")
        return answer

    def _adopt(self, welcome: Welcome) -> int:
        """Take up the host's view of the session; returns the ``seq`` to resend after."""
        same_host = self._epoch is not None and welcome.epoch == self._epoch
        if welcome.resumed and same_host:
            self._channel.outbox.ack(welcome.last_seen)
            return welcome.last_seen
        if self._welcomed:
            dropped = self._channel.outbox.clear()
            self._channel.inbox.reset()
            self._channel.sent_high = 0
            self._stats.resets += 1
            self._emit(
                LinkEvent("reset", self.pairing.station_id, self.pairing.seat, dropped=len(dropped))
            )
        self._epoch = welcome.epoch
        self._welcomed = True
        return 0

    def _deliver(self, seq: int, body: Body) -> None:
        inbound = Inbound(self.pairing.station_id, self.pairing.seat, seq, body)
        handler = self._on_message
        self._runtime.deliver(lambda: handler(inbound))

    def _emit(self, event: LinkEvent) -> None:
        handler = self._on_event
        if handler is not None:
            self._runtime.deliver(lambda: handler(event))


def pair_station(
    host: str, port: int, code: str, station_id: str, seat: int, folder: Path, timeout: float = 10.0
) -> StationPairing:
    """Pair this station with the host at ``host:port`` using the ``code`` shown there;
    saves and returns the pairing (``folder``/station.json, mode 0600).  Raises
    :class:`PairingRefused` with the host's reason, or when the host's proof fails."""
    return asyncio.run(_pair(host, port, code, station_id, seat, Path(folder), timeout))


async def _pair(
    host: str, port: int, code: str, station_id: str, seat: int, folder: Path, timeout: float
) -> StationPairing:
    async with asyncio.timeout(timeout):
        async with connect(
            _uri(host, port),
            ssl=pairing_client_context(),
            server_hostname="uth-table-host",
            max_size=MAX_FRAME_BYTES,
            compression=None,
            proxy=None,
        ) as ws:
            der = peer_certificate(_ssl_object(ws))
            fingerprint = fingerprint_of(der)
            challenge = decode(await ws.recv(), "host").body
            if not isinstance(challenge, Challenge):
                raise PairingRefused("protocol", f"expected a challenge, got {challenge.type}")
            client_nonce = auth.new_nonce()
            proof = auth.pairing_proof(
                code, bytes.fromhex(challenge.nonce), client_nonce, fingerprint, station_id, seat
            )
            request = PairRequest(
                station_id=station_id, seat=seat, client_nonce=client_nonce.hex(), proof=proof
            )
            await send_control(ws, request)
            answer = decode(await ws.recv(), "host").body
    if isinstance(answer, ErrorMessage):
        raise PairingRefused(answer.code.removeprefix("pairing."), answer.detail)
    if not isinstance(answer, PairGranted):
        raise PairingRefused("protocol", f"expected a grant, got {answer.type}")
    key = bytes.fromhex(answer.key)
    expected = auth.grant_proof(code, client_nonce, fingerprint, key, station_id)
    if answer.fingerprint != fingerprint or not secrets.compare_digest(expected, answer.proof):
        raise PairingRefused("bad-proof", "the host's proof does not match the certificate seen")
    if answer.station_id != station_id or answer.seat != seat:
        raise PairingRefused("protocol", "the grant names another station")
    pairing = StationPairing(station_id, seat, key, fingerprint, certificate_pem(der))
    pairing.save(folder)
    (folder / WITNESS_FILE).unlink(missing_ok=True)  # a new pairing: a new witness
    return pairing
