"""The host's web server for friends' phones: one page, its assets and one socket.

Why ``websockets`` alone: it is already the table link's transport, answers plain HTTP
through ``process_request`` (enough for one page and three assets), caps frame sizes
before buffering, and pings for liveness; no second server library is needed.

Routes: ``GET /`` and ``GET /g/CODE`` (the page), ``GET /assets/NAME`` (its assets;
``/favicon.ico`` is its icon),
``GET /g/CODE/ws`` (the socket); anything else is 404, a wrong code 404, a full
server 503.  Codes cannot be walked: an address that asks for ``code_misses`` wrong codes
is locked out of every game for ``lockout_s`` (429; the README has the arithmetic).  An
"address" is :func:`kiosk.friends.addresses.client_key`'s: an IPv6 client by its /64.
Sockets cannot be hoarded: an address holds at most ``per_address`` sockets that have
not taken a seat, all addresses together ``max_pending``; a seated player's reconnect
(``/g/CODE/ws?seat=TOKEN``, a token of the game) always has room, up to
``max_connections`` + ``seated_room``.  Per connection: frames over :data:`MAX_FRAME_BYTES` close it (1009); more
than ``rate_per_s`` frames a second close it (1008); a connection that takes no seat
within ``seat_timeout_s`` is closed; a malformed message is refused (and after
``max_refusals`` the connection is closed).  Every refusal is logged and counted in
:attr:`FriendsServer.refusals`; none reaches the game.

The server runs its own asyncio loop in a thread (:class:`kiosk.link.runtime.LoopThread`);
``on_event`` is called on that loop with :class:`Opened`, :class:`Received` and
:class:`Closed`; :meth:`send` and :meth:`close` are thread-safe.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.http11 import Request, Response

from kiosk.friends.addresses import client_key
from kiosk.friends.messages import MAX_FRAME_BYTES, ClientMessage, Refusal, decode
from kiosk.friends.web import Assets
from kiosk.link.limits import TokenBucket
from kiosk.link.runtime import LoopThread

log = logging.getLogger("kiosk.friends")

#: Addresses with recent wrong codes or a lockout kept before the expired ones are
#: forgotten (bounds the memory a stream of new addresses can take).
MAX_TRACKED = 4096


@dataclass(frozen=True)
class ServerLimits:
    """``max_connections`` open sockets at once; ``rate_per_s``/``rate_burst`` frames per
    connection; ``seat_timeout_s`` to take a seat; ``max_refusals`` refused messages
    before a connection is closed; ``per_address`` and ``max_pending`` sockets with no
    seat (one address, all); ``seated_room`` more sockets for seated players' reconnects;
    ``code_misses`` wrong codes from one address lock it out for ``lockout_s`` seconds."""

    max_connections: int = 24
    rate_per_s: float = 20.0
    rate_burst: float = 40.0
    seat_timeout_s: float = 15.0
    max_refusals: int = 10
    ping_s: float = 10.0
    per_address: int = 4
    max_pending: int = 12
    seated_room: int = 8
    code_misses: int = 5
    lockout_s: float = 900.0


@dataclass(frozen=True)
class Opened:
    conn: int
    peer: str


@dataclass(frozen=True)
class Received:
    conn: int
    message: ClientMessage


@dataclass(frozen=True)
class Closed:
    conn: int


ServerEvent = Opened | Received | Closed


class FriendsServer:
    """Serves game ``code`` on ``host:port`` (``port`` 0: any free port).

    ``seated(conn)`` says whether a connection has taken a seat (checked at
    ``seat_timeout_s``)."""

    def __init__(
        self,
        code: str,
        on_event: Callable[[ServerEvent], None],
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        limits: ServerLimits | None = None,
        seated: Callable[[int], bool] = lambda conn: True,
        known_token: Callable[[str], bool] = lambda token: False,
        assets: Assets | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.code = code
        self.limits = limits or ServerLimits()
        self.assets = assets or Assets.load()
        self.refusals: Counter[str] = Counter()
        self._on_event = on_event
        self._seated = seated
        self._known_token = known_token
        self._clock = clock
        self._peers: dict[int, str] = {}  # open connection -> its address
        self._misses: dict[str, list[float]] = {}  # address -> its recent wrong codes (monotonic s)
        self._locked: dict[str, float] = {}  # address -> locked out until (monotonic s)
        self._host = host
        self._port = port
        self._runtime = LoopThread("friends-web")
        self._server: Server | None = None
        self._ids = itertools.count(1)
        self._conns: dict[int, ServerConnection] = {}
        self._queues: dict[int, asyncio.Queue[str | None]] = {}
        self._lock = threading.Lock()
        self._accepting = True

    # -- lifecycle ----------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> int:
        """Listen; returns the port."""
        self._runtime.start()
        self._port = self._runtime.submit(self._listen()).result(timeout)
        log.info("friends game %s served on %s:%d", self.code, self._host, self._port)
        return self._port

    @property
    def port(self) -> int:
        return self._port

    def stop(self, timeout: float = 10.0) -> None:
        """Close every seat's socket and stop serving."""
        self._accepting = False
        if self._server is not None:
            with contextlib.suppress(Exception):
                self._runtime.submit(self._shutdown()).result(timeout)
        self._runtime.stop(timeout)

    async def _listen(self) -> int:
        self._server = await serve(
            self._handle,
            self._host,
            self._port,
            process_request=self._http,
            max_size=MAX_FRAME_BYTES,
            max_queue=16,
            open_timeout=5.0,
            close_timeout=1.0,
            ping_interval=self.limits.ping_s,
            ping_timeout=self.limits.ping_s,
            compression=None,
            server_header=None,
            logger=logging.getLogger("kiosk.friends.websockets"),
        )
        return int(next(iter(self._server.sockets)).getsockname()[1])

    async def _shutdown(self) -> None:
        assert self._server is not None
        self._server.close(close_connections=True)
        await self._server.wait_closed()

    # -- sending (thread-safe) ------------------------------------------------------------
    def send(self, conn: int, text: str) -> None:
        self._runtime.call(lambda: self._put(conn, text))

    def close(self, conn: int, reason: str) -> None:
        """Close ``conn`` after what was queued for it has gone."""
        self._runtime.call(lambda: self._put(conn, None))

    def close_all(self) -> None:
        """The game ended: no new socket, and every open one closes once its queue is sent."""
        self._accepting = False
        with self._lock:
            conns = list(self._conns)
        for conn in conns:
            self.close(conn, "the game has ended")

    def _put(self, conn: int, text: str | None) -> None:
        queue = self._queues.get(conn)
        if queue is not None:
            queue.put_nowait(text)

    def open_connections(self) -> int:
        with self._lock:
            return len(self._conns)

    # -- HTTP -----------------------------------------------------------------------------
    def _refuse(self, code: str, peer: str, detail: str) -> None:
        self.refusals[code] += 1
        log.warning("friends game %s: refused %s from %s: %s", self.code, code, peer, detail)

    def _admit(self, address: str, query: str) -> str | None:
        """Why a new socket from ``address`` is refused (``None``: it is admitted)."""
        token = urllib.parse.parse_qs(query).get("seat", [""])[0]
        with self._lock:
            total = len(self._conns)
            pending = [c for c in self._conns if not self._seated(c)]
        if token and self._known_token(token):
            room = self.limits.max_connections + self.limits.seated_room
            return None if total < room else f"{total} open"
        if total >= self.limits.max_connections:
            return f"{total} open"
        if len(pending) >= self.limits.max_pending:
            return f"{len(pending)} without a seat"
        mine = sum(1 for c in pending if self._peers.get(c) == address)
        if mine >= self.limits.per_address:
            return f"{mine} without a seat from this address"
        return None

    def _miss(self, address: str) -> None:
        """A wrong code from ``address``: ``code_misses`` within ``lockout_s`` lock it out."""
        now = self._clock()
        if len(self._misses) + len(self._locked) > MAX_TRACKED:  # forget what has expired
            self._misses = {a: ts for a, ts in self._misses.items() if now - ts[-1] < self.limits.lockout_s}
            self._locked = {a: until for a, until in self._locked.items() if until > now}
        recent = [t for t in self._misses.get(address, []) if now - t < self.limits.lockout_s] + [now]
        self._misses[address] = recent
        if len(recent) >= self.limits.code_misses:
            self._locked[address] = now + self.limits.lockout_s
            self._misses.pop(address, None)
            log.warning("friends game %s: %s locked out for %.0f s after %d wrong codes", self.code, address,
                        self.limits.lockout_s, len(recent))

    def _locked_out(self, address: str) -> float:
        """Seconds ``address`` is still locked out (0: it is not)."""
        until = self._locked.get(address)
        if until is None:
            return 0.0
        left = until - self._clock()
        if left <= 0:
            del self._locked[address]
            return 0.0
        return left

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path, _, query = request.path.partition("?")
        peer = _peer(connection)
        address = client_key(peer.rsplit(":", 1)[0])
        if path.startswith("/g/"):
            left = self._locked_out(address)
            if left > 0:
                self._refuse("http.locked", peer, path[:40])
                return _text(429, f"Too many wrong game codes from here: try again in {left / 60:.0f} min.")
        if path == f"/g/{self.code}/ws":
            if not self._accepting:
                self._refuse("http.ended", peer, path)
                return _text(410, "This game has ended.")
            why = self._admit(address, query)
            if why is not None:
                self._refuse("http.busy", peer, why)
                return _text(503, "Too many connections: try again in a moment.")
            return None
        if path in ("/", f"/g/{self.code}"):
            return _file(self.assets.page, "text/html; charset=utf-8")
        if path.startswith("/assets/"):
            asset = self.assets.files.get(path[len("/assets/"):])
            if asset is not None:
                return _file(asset.body, asset.content_type)
        if path == "/favicon.ico":
            return _file(self.assets.files["icon.svg"].body, "image/svg+xml")
        if path.startswith("/g/"):
            self._refuse("http.code", peer, path[:40])
            self._miss(address)
            return _text(404, "No game has this code.")
        self._refuse("http.path", peer, path[:40])
        return _text(404, "Not found.")

    # -- one socket -----------------------------------------------------------------------
    async def _handle(self, ws: ServerConnection) -> None:
        conn = next(self._ids)
        peer = _peer(ws)
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        with self._lock:
            self._conns[conn] = ws
            self._peers[conn] = client_key(peer.rsplit(":", 1)[0])
        self._queues[conn] = queue
        self._on_event(Opened(conn, peer))
        writer = asyncio.create_task(self._write(ws, queue))
        watchdog = asyncio.create_task(self._seat_watchdog(ws, conn, peer))
        try:
            await self._read(ws, conn, peer)
        except ConnectionClosed as exc:
            if exc.sent is not None and exc.sent.code == CloseCode.MESSAGE_TOO_BIG:
                self._refuse("frame.large", peer, f"a frame over {MAX_FRAME_BYTES} bytes")
        finally:
            watchdog.cancel()
            writer.cancel()
            with self._lock:
                self._conns.pop(conn, None)
                self._peers.pop(conn, None)
            self._queues.pop(conn, None)
            self._on_event(Closed(conn))

    async def _read(self, ws: ServerConnection, conn: int, peer: str) -> None:
        bucket = TokenBucket(self.limits.rate_per_s, self.limits.rate_burst)
        refused = 0
        async for frame in ws:
            if not bucket.take():
                self._refuse("rate", peer, "too many messages")
                await ws.close(CloseCode.POLICY_VIOLATION, "too many messages")
                return
            try:
                message = decode(frame)
            except Refusal as exc:
                refused += 1
                self._refuse(exc.code, peer, exc.detail)
                await ws.send(_refusal(exc))
                if refused >= self.limits.max_refusals:
                    await ws.close(CloseCode.POLICY_VIOLATION, "too many bad messages")
                    return
                continue
            self._on_event(Received(conn, message))

    async def _write(self, ws: ServerConnection, queue: asyncio.Queue[str | None]) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                text = await queue.get()
                if text is None:
                    await ws.close(CloseCode.NORMAL_CLOSURE, "closed by the host")
                    return
                await ws.send(text)

    async def _seat_watchdog(self, ws: ServerConnection, conn: int, peer: str) -> None:
        await asyncio.sleep(self.limits.seat_timeout_s)
        if not self._seated(conn):
            self._refuse("seat.timeout", peer, "no seat taken")
            await ws.close(CloseCode.POLICY_VIOLATION, "no seat taken")


def _peer(ws: ServerConnection) -> str:
    address = ws.remote_address
    return f"{address[0]}:{address[1]}" if address else "?"


def _refusal(exc: Refusal) -> str:
    return json.dumps({"type": "refused", "code": exc.code, "detail": exc.detail})


_SECURITY = [
    ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; "
     "script-src 'self'; connect-src 'self'; frame-ancestors 'none'"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
]


def _file(body: bytes, content_type: str) -> Response:
    headers = Headers([("Content-Type", content_type), ("Content-Length", str(len(body))), *_SECURITY])
    return Response(200, "OK", headers, body)


def _text(status: int, text: str) -> Response:
    body = text.encode("utf-8")
    reason = {404: "Not Found", 410: "Gone", 429: "Too Many Requests", 503: "Service Unavailable"}.get(status, "Error")
    headers = Headers([("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body))),
                       *_SECURITY])
    return Response(status, reason, headers, body)
