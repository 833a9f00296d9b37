"""The host end of the link: accepts stations over TLS, authenticates them, and keeps one
sequenced channel per station.

Why the ``websockets`` package: it is maintained and widely used, implements RFC 6455
(framing, ping/pong liveness, close codes) on asyncio, takes TLS from the standard
``ssl`` module, enforces a frame-size cap before buffering a frame, and applies
backpressure both ways (``max_queue`` pauses reading, ``write_limit`` with ``drain``
pauses writing), so the link adds only its own protocol on top.

Per connection: TLS (``ssl_handshake_timeout``) and the WebSocket upgrade
(``open_timeout``) each within :attr:`LinkLimits.auth_timeout_s`, then the host sends a
:class:`Challenge`, and within the same time the station must answer with a valid
:class:`Hello` (or a :class:`PairRequest` while a pairing window is open).  Anything else,
an unpaired station, a wrong key, a seat other than the paired one, too many open
connections or a flood of frames is refused: logged, counted, answered with an
:class:`ErrorMessage` and closed; nothing reaches the application.

Caps (:class:`LinkLimits`): at most ``max_connections`` open; an authenticated station's
session is never displaced, but a connection still before its hello is: when the host is
full, a newcomer takes the slot of the oldest unauthenticated connection of the address
holding the most (answered ``busy``), and one address keeps at most
``max_pending_per_address`` unauthenticated connections (its oldest gives way).  So
connections held open before their hello can delay a paired station by one round trip,
never keep it out; each is cut after ``auth_timeout_s`` anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode

from kiosk.link import auth
from kiosk.link.certs import server_context
from kiosk.link.channel import Channel, close_with, pump, send_control
from kiosk.link.codec import MAX_FRAME_BYTES, decode
from kiosk.link.errors import AuthRefused, FrameRefused, PairingRefused, UnknownStation
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
from kiosk.link.pairing import HostPairing, PairedStation
from kiosk.link.runtime import LoopThread
from kiosk.link.sequencing import Outbox
from kiosk.link.stats import LinkStats

log = logging.getLogger("kiosk.link")



class LinkServer:
    """The table host's link.  Runs in its own thread; every public method is thread-safe.

    ``on_message`` receives each station's application messages, once and in order;
    ``on_event`` the connection events; both on one delivery thread, never on the
    socket loop."""

    def __init__(
        self,
        pairing: HostPairing,
        on_message: OnMessage,
        on_event: OnEvent | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        limits: LinkLimits | None = None,
    ) -> None:
        self.pairing = pairing
        self.limits = limits or LinkLimits()
        self.epoch = secrets.token_hex(16)
        self._on_message = on_message
        self._on_event = on_event
        self._host = host
        self._port = port
        self._runtime = LoopThread("link-host")
        self._server: Server | None = None
        self._lock = threading.Lock()
        self._channels: dict[str, Channel] = {}
        self._active: dict[str, ServerConnection] = {}
        self._turns: dict[str, asyncio.Lock] = {}
        self._open: set[ServerConnection] = set()
        # connections not yet authenticated, oldest first: their address
        self._pending: dict[ServerConnection, str] = {}
        self._evictions: set[asyncio.Future[None]] = set()
        self._stats = LinkStats()

    # --- lifecycle ------------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> int:
        """Start listening; returns the port (useful with ``port=0``)."""
        self._runtime.start()
        self._port = self._runtime.submit(self._listen()).result(timeout)
        return self._port

    @property
    def port(self) -> int:
        return self._port

    def stop(self, timeout: float = 10.0) -> None:
        """Close every connection and stop the thread."""
        if self._server is not None:
            with contextlib.suppress(Exception):
                self._runtime.submit(self._close()).result(timeout)
        self._runtime.stop(timeout)

    def __enter__(self) -> LinkServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def _listen(self) -> int:
        self._server = await serve(
            self._handle,
            self._host,
            self._port,
            ssl=server_context(self.pairing.identity),
            ssl_handshake_timeout=self.limits.auth_timeout_s,
            open_timeout=self.limits.auth_timeout_s,
            ping_interval=self.limits.ping_s,
            ping_timeout=self.limits.ping_s,
            close_timeout=self.limits.close_s,
            max_size=MAX_FRAME_BYTES,
            max_queue=32,
            compression=None,
            logger=logging.getLogger("kiosk.link.websockets"),
        )
        sockname = next(iter(self._server.sockets)).getsockname()
        return int(sockname[1])

    async def _close(self) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    # --- sending --------------------------------------------------------------------

    def send(self, station_id: str, body: Body) -> int:
        """Queue ``body`` for ``station_id``; returns its ``seq``.  Delivered when the
        station is (or gets) connected, resent after a reconnect, dropped only if the
        station restarts (a ``reset`` event).  Raises :class:`UnknownStation` for a
        station not paired, :class:`OutboxFull` when it acknowledges nothing for long."""
        channel = self._channel(station_id)
        seq = channel.outbox.put(body)
        self._runtime.call(channel.kick)
        return seq

    def broadcast(self, body: Body) -> dict[str, int]:
        """Queue ``body`` for every paired station; returns each station's ``seq``."""
        return {s.station_id: self.send(s.station_id, body) for s in self.pairing.stations()}

    def _channel(self, station_id: str) -> Channel:
        with self._lock:
            channel = self._channels.get(station_id)
            if channel is None:
                if self.pairing.lookup(station_id) is None:
                    raise UnknownStation(station_id)
                channel = Channel(Outbox(self.limits.outbox))
                self._channels[station_id] = channel
            return channel

    def connected(self) -> list[str]:
        """The stations with an authenticated connection now."""
        with self._lock:
            return sorted(self._active)

    def stats(self) -> LinkStats:
        """A copy of the counters."""
        return self._stats.snapshot()

    # --- one connection -------------------------------------------------------------

    async def _handle(self, ws: ServerConnection) -> None:
        peer = _peer(ws)
        address = _address(ws)
        self._stats.connections += 1
        mine = [c for c, a in self._pending.items() if a == address]
        if len(mine) >= self.limits.max_pending_per_address:
            self._evict(mine[0], f"{len(mine)} unauthenticated from {address}")
        if len(self._open) >= self.limits.max_connections:
            if not self._pending:  # every slot is a paired station's session
                self._stats.refuse("too-many-connections", peer, f"{len(self._open)} open")
                await _refuse(ws, "busy", "too many connections", CloseCode.TRY_AGAIN_LATER)
                return
            self._evict(self._oldest_pending(), f"{len(self._open)} open")
        self._open.add(ws)
        self._pending[ws] = address
        self._stats.peak_open = max(self._stats.peak_open, len(self._open))
        try:
            await self._serve_one(ws, peer)
        except ConnectionClosed as exc:
            if exc.sent is not None and exc.sent.code == CloseCode.MESSAGE_TOO_BIG:
                self._stats.refuse("oversized", peer, f"frame over {MAX_FRAME_BYTES} bytes")
        finally:
            self._open.discard(ws)
            self._pending.pop(ws, None)

    def _oldest_pending(self) -> ServerConnection:
        """The oldest unauthenticated connection of the address holding the most."""
        counts: dict[str, int] = {}
        for a in self._pending.values():
            counts[a] = counts.get(a, 0) + 1
        top = max(counts.values())
        return next(c for c, a in self._pending.items() if counts[a] == top)

    def _evict(self, victim: ServerConnection, why: str) -> None:
        """Make room: refuse an unauthenticated connection (``busy``), so that a full host
        or a flooding address never keeps a newcomer, a paired station among them, out."""
        self._pending.pop(victim, None)
        self._open.discard(victim)
        self._stats.refuse("too-many-connections", _peer(victim), why)
        task = asyncio.ensure_future(
            _refuse(victim, "busy", "too many connections", CloseCode.TRY_AGAIN_LATER)
        )
        self._evictions.add(task)
        task.add_done_callback(self._evictions.discard)

    async def _serve_one(self, ws: ServerConnection, peer: str) -> None:
        nonce = auth.new_nonce()
        try:
            async with asyncio.timeout(self.limits.auth_timeout_s):
                await send_control(ws, Challenge(nonce=nonce.hex()))
                envelope = decode(await ws.recv(), "station")
                body = envelope.body
                if isinstance(body, PairRequest):
                    await self._pair(ws, peer, nonce, body)
                    return
                if not isinstance(body, Hello):
                    raise AuthRefused("unauthenticated", f"{envelope.type} before hello")
                station = self._authenticate(nonce, body)
                self._pending.pop(ws, None)  # a paired station's: never evicted
        except TimeoutError:
            self._stats.refuse("auth-timeout", peer, f"no hello in {self.limits.auth_timeout_s}s")
            await _refuse(ws, "auth.timeout", "too slow", CloseCode.POLICY_VIOLATION)
            return
        except FrameRefused as exc:
            self._stats.refuse(exc.reason, peer, str(exc))
            await _refuse(ws, exc.reason, str(exc), CloseCode.POLICY_VIOLATION)
            return
        except AuthRefused as exc:
            self._stats.refuse(f"auth.{exc.reason}", peer, exc.detail)
            await _refuse(ws, f"auth.{exc.reason}", exc.detail, CloseCode.POLICY_VIOLATION)
            return
        await self._session(ws, peer, station, body)

    def _authenticate(self, nonce: bytes, hello: Hello) -> PairedStation:
        station = self.pairing.lookup(hello.station_id)
        if station is None:
            raise AuthRefused("unpaired", hello.station_id)
        if station.seat != hello.seat:
            raise AuthRefused(
                "wrong-seat",
                f"{hello.station_id} is paired to seat {station.seat}, not {hello.seat}",
            )
        if not auth.verify_hello(station.key, nonce, hello.station_id, hello.mac):
            raise AuthRefused("bad-key", hello.station_id)
        return station

    async def _pair(self, ws: ServerConnection, peer: str, nonce: bytes, req: PairRequest) -> None:
        try:
            paired, proof = self.pairing.grant(
                req.station_id, req.seat, nonce, bytes.fromhex(req.client_nonce), req.proof
            )
        except PairingRefused as exc:
            self._stats.refuse(f"pairing.{exc.reason}", peer, exc.detail)
            await _refuse(ws, f"pairing.{exc.reason}", exc.detail, CloseCode.POLICY_VIOLATION)
            return
        log.info("link paired %s to seat %d from %s", paired.station_id, paired.seat, peer)
        grant = PairGranted(
            station_id=paired.station_id,
            seat=paired.seat,
            key=paired.key.hex(),
            fingerprint=self.pairing.fingerprint,
            proof=proof,
        )
        await send_control(ws, grant)
        await ws.close()

    async def _session(
        self, ws: ServerConnection, peer: str, station: PairedStation, hello: Hello
    ) -> None:
        sid = station.station_id
        old = self._active.get(sid)
        if old is not None:
            # The station authenticated again, so it has given the old connection up: cut
            # it rather than wait for a closing handshake a dead peer never answers.
            log.info("link %s: a new connection replaces the one from %s", sid, _peer(old))
            old.transport.abort()
        turn = self._turns.setdefault(sid, asyncio.Lock())
        async with turn:
            channel = self._channel(sid)
            resumed = bool(channel.session) and channel.session == hello.session
            if not resumed:
                dropped = channel.outbox.clear() if channel.session else []
                channel.inbox.reset()
                channel.sent_high = 0
                if channel.session:
                    self._stats.resets += 1
                    self._emit(LinkEvent("reset", sid, station.seat, dropped=len(dropped)))
                channel.session = hello.session
            channel.outbox.ack(hello.last_seen)
            welcome = Welcome(
                station_id=sid,
                seat=station.seat,
                epoch=self.epoch,
                resumed=resumed,
                last_seen=channel.inbox.last,
            )
            await send_control(ws, welcome, channel.inbox.last)
            self._stats.authenticated += 1
            with self._lock:
                self._active[sid] = ws
            log.info(
                "link %s (seat %d) connected from %s, resumed=%s", sid, station.seat, peer, resumed
            )
            self._emit(LinkEvent("connected", sid, station.seat, resumed=resumed))
            try:
                await pump(
                    ws,
                    channel,
                    "station",
                    hello.last_seen if resumed else 0,
                    lambda seq, body: self._deliver(Inbound(sid, station.seat, seq, body)),
                    self.limits,
                    self._stats,
                    f"{sid}@{peer}",
                )
            finally:
                with self._lock:
                    if self._active.get(sid) is ws:
                        del self._active[sid]
                log.info("link %s disconnected", sid)
                self._emit(LinkEvent("disconnected", sid, station.seat))

    def _deliver(self, inbound: Inbound) -> None:
        handler = self._on_message
        self._runtime.deliver(lambda: handler(inbound))

    def _emit(self, event: LinkEvent) -> None:
        handler = self._on_event
        if handler is not None:
            self._runtime.deliver(lambda: handler(event))


async def _refuse(ws: ServerConnection, code: str, detail: str, close_code: CloseCode) -> None:
    with contextlib.suppress(ConnectionClosed):
        await send_control(ws, ErrorMessage(code=code, detail=detail[:512]))
    await close_with(ws, close_code, code[:100])


def _address(ws: ServerConnection) -> str:
    """The peer's IP address (without its port)."""
    address = ws.remote_address
    if isinstance(address, tuple) and address:
        return str(address[0])
    return str(address)


def _peer(ws: ServerConnection) -> str:
    address = ws.remote_address
    if isinstance(address, tuple) and len(address) >= 2:
        return f"{address[0]}:{address[1]}"
    return str(address)
