"""Friends seats over the table link: a cabinet paired with the host plays a seat of the
host's friends game through the link's TLS, pinned certificate and station key.

Both ends speak the phones' seat protocol unchanged (:mod:`kiosk.friends.messages` one
way, :mod:`kiosk.friends.views` the other), each message one
:class:`~kiosk.link.messages.FriendsFrame`.

* :class:`LinkSeats` (host): a :class:`~kiosk.link.server.LinkServer` on the host's
  pairing folder whose paired stations become connections of the game.  Each
  authenticated link connection is one connection id (from :data:`LINK_CONN_BASE` up,
  apart from the web server's): the link's ``connected`` is :class:`Opened`, its
  ``disconnected`` is :class:`Closed` (so the away timer runs and the seat's token gives
  it back, as for a phone), and each frame is decoded and checked by
  :func:`kiosk.friends.messages.decode` and the web server's rate bucket before it is a
  :class:`Received`.  An unpaired station or a wrong key is refused by the link itself
  (logged and counted in its :meth:`~kiosk.link.server.LinkServer.stats`): nothing
  reaches the game.
* :class:`LinkTransport` (joining cabinet): a :class:`~kiosk.link.client.LinkClient`
  with the station's saved pairing, as :class:`kiosk.friends.client.FriendsClient`'s
  transport.

Chips are points: nothing here touches credits or meters.
"""

from __future__ import annotations

import itertools
import json
import logging
import queue
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from kiosk.friends.messages import Refusal, decode
from kiosk.friends.server import Closed, Opened, Received, ServerEvent, ServerLimits
from kiosk.link.client import LinkClient
from kiosk.link.errors import AuthRefused, LinkError
from kiosk.link.events import Inbound, LinkEvent
from kiosk.link.limits import LinkLimits, TokenBucket
from kiosk.link.messages import FriendsFrame
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.link.server import LinkServer

log = logging.getLogger("kiosk.friends")
Json = dict[str, Any]

#: The first connection id of a link seat (the web server counts its sockets from 1).
LINK_CONN_BASE = 1 << 40


class LinkSeats:
    """The host's link for friends seats: ``on_event`` gets :class:`Opened`,
    :class:`Received` and :class:`Closed` as from the web server (on the link's delivery
    thread); :meth:`send`, :meth:`close` and :meth:`close_all` are thread-safe."""

    def __init__(
        self,
        pairing: HostPairing,
        on_event: Callable[[ServerEvent], None],
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        limits: ServerLimits | None = None,
        link_limits: LinkLimits | None = None,
    ) -> None:
        self.limits = limits or ServerLimits()
        self.refusals: Counter[str] = Counter()
        self.opened = 0  # link connections handed to the game
        self._on_event = on_event
        self._ids = itertools.count(LINK_CONN_BASE)
        self._lock = threading.Lock()
        self._conn_of: dict[str, int] = {}  # station id -> its open connection
        self._station_of: dict[int, str] = {}
        self._buckets: dict[int, TokenBucket] = {}
        self._accepting = True
        self.link = LinkServer(
            pairing, self._message, self._event, host=host, port=port, limits=link_limits
        )

    # -- lifecycle ------------------------------------------------------------------------
    def start(self) -> int:
        """Listen; returns the port."""
        port = self.link.start()
        log.info("friends seats served over the link on port %d", port)
        return port

    @property
    def port(self) -> int:
        return self.link.port

    def stop(self) -> None:
        self._accepting = False
        self.link.stop()

    def owns(self, conn: int) -> bool:
        return conn >= LINK_CONN_BASE

    def stations(self) -> dict[str, int]:
        """The stations seated over the link now, with their connection ids."""
        with self._lock:
            return dict(self._conn_of)

    # -- to the stations ------------------------------------------------------------------
    def send(self, conn: int, text: str) -> None:
        with self._lock:
            station = self._station_of.get(conn)
        if station is not None:
            self.link.send(station, FriendsFrame(text=text))

    def close(self, conn: int, reason: str) -> None:
        """The game closed ``conn``: the station is told, and what it sends is ignored
        until its link connects again."""
        with self._lock:
            station = self._station_of.pop(conn, None)
            if station is not None and self._conn_of.get(station) == conn:
                del self._conn_of[station]
            self._buckets.pop(conn, None)
        if station is not None:
            self.link.send(
                station, FriendsFrame(text=json.dumps({"type": "closed", "reason": reason}))
            )
            self._on_event(Closed(conn))

    def close_all(self) -> None:
        """The game ended: every station is told, and no new one is let in."""
        self._accepting = False
        for conn in list(self.stations().values()):
            self.close(conn, "the game has ended")

    # -- from the link's delivery thread --------------------------------------------------
    def _event(self, event: LinkEvent) -> None:
        if event.kind == "connected":
            if not self._accepting:
                log.info("friends link: %s connected after the game ended", event.station_id)
                return
            with self._lock:
                old = self._conn_of.pop(event.station_id, None)
                conn = next(self._ids)
                self._conn_of[event.station_id] = conn
                self._station_of[conn] = event.station_id
                self._buckets[conn] = TokenBucket(self.limits.rate_per_s, self.limits.rate_burst)
                if old is not None:
                    self._station_of.pop(old, None)
                self.opened += 1
            if old is not None:
                self._on_event(Closed(old))
            self._on_event(Opened(conn, f"link:{event.station_id}"))
        elif event.kind == "disconnected":
            with self._lock:
                gone = self._conn_of.pop(event.station_id, None)
                if gone is not None:
                    self._station_of.pop(gone, None)
                    self._buckets.pop(gone, None)
            if gone is not None:
                self._on_event(Closed(gone))

    def _message(self, inbound: Inbound) -> None:
        body = inbound.body
        peer = f"link:{inbound.station_id}"
        with self._lock:
            conn = self._conn_of.get(inbound.station_id)
            bucket = self._buckets.get(conn) if conn is not None else None
        if not isinstance(body, FriendsFrame):
            self._refuse("link.body", peer, f"{body.type} is not a friends frame")
            return
        if conn is None or bucket is None:
            self._refuse("link.closed", peer, "a frame on a closed seat")
            return
        if not bucket.take():
            self._refuse("rate", peer, "too many messages")
            self._reply(conn, Refusal("rate", "too many messages: wait a moment"))
            return
        try:
            message = decode(body.text)
        except Refusal as exc:
            self._refuse(exc.code, peer, exc.detail)
            self._reply(conn, exc)
            return
        self._on_event(Received(conn, message))

    def _reply(self, conn: int, exc: Refusal) -> None:
        self.send(conn, json.dumps({"type": "refused", "code": exc.code, "detail": exc.detail}))

    def _refuse(self, code: str, peer: str, detail: str) -> None:
        self.refusals[code] += 1
        log.warning("friends link: refused %s from %s: %s", code, peer, detail)


class LinkTransport:
    """A joining cabinet's seat over the link: ``inbox`` gets each message of the host (a
    JSON object) and ``None`` once the host closed the seat or the transport was closed.
    ``refused`` is the link's reason when the host refused this station (``auth.unpaired``,
    ``auth.bad-key``, ``certificate``); ``hello`` the host's first message."""

    def __init__(
        self, pairing: StationPairing, host: str, port: int, limits: LinkLimits | None = None
    ) -> None:
        self.inbox: queue.SimpleQueue[Json | None] = queue.SimpleQueue()
        self.hello: Json | None = None
        self.refused: str | None = None
        self._answer = threading.Event()  # a hello or a refusal came
        self._ended = False
        self.client = LinkClient(pairing, host, port, self._message, self._event, limits)

    @classmethod
    def open(
        cls,
        pairing: StationPairing,
        host: str,
        port: int,
        timeout: float = 5.0,
        limits: LinkLimits | None = None,
    ) -> LinkTransport:
        """Connect and wait for the host's hello; raises :class:`AuthRefused` with the
        link's refusal as ``reason`` (``unreached`` when no host answered in time)."""
        transport = cls(pairing, host, port, limits)
        transport.client.start()
        if not transport._answer.wait(timeout) or transport.hello is None:
            reason = transport.refused or "unreached"
            transport.close()
            log.warning("friends link to %s:%d refused: %s", host, port, reason)
            raise AuthRefused(reason, f"friends link to {host}:{port}")
        return transport

    def send(self, text: str) -> bool:
        if self._ended:
            return False
        try:
            self.client.send(FriendsFrame(text=text))
        except LinkError as exc:
            log.warning("friends link: %s not sent: %s", text[:40], exc)
            return False
        return True

    def close(self) -> None:
        self.client.stop()
        self._end()

    def drop_connection(self) -> None:
        """Abort the link's connection (it reconnects by itself)."""
        self.client.drop_connection()

    def _end(self) -> None:
        if not self._ended:
            self._ended = True
            self.inbox.put(None)

    def _message(self, inbound: Inbound) -> None:
        body = inbound.body
        if not isinstance(body, FriendsFrame) or self._ended:
            return
        try:
            msg = json.loads(body.text)
        except ValueError:
            return
        if not isinstance(msg, dict):
            return
        if msg.get("type") == "hello" and self.hello is None:
            self.hello = msg
            self._answer.set()
        self.inbox.put(msg)
        if msg.get("type") == "closed":
            self._end()

    def _event(self, event: LinkEvent) -> None:
        if event.kind == "refused":
            self.refused = event.reason
            self._answer.set()
