"""A seat in another cabinet's friends game, played from this cabinet.

Two transports carry the same seat protocol (the phones' own: the host's server checks
every message, sends each seat only its own view, keeps the away timer and gives a seat
back by its token):

* the host's web socket (``websockets``), found among ``hosts`` (the venue's cabinets
  that may host a game, ``host:port``) by the game code (:meth:`FriendsClient.open`);
  it needs no pairing;
* the table link (:meth:`FriendsClient.open_link`, :class:`kiosk.friends.link_seats.LinkTransport`)
  when this cabinet is paired with the host: TLS with the host certificate pinned and the
  station's key; an unpaired cabinet or a wrong key is refused by the link.  The link
  reconnects by itself; each new connection is greeted by the host's ``hello``, and the
  seat is taken back with its token.

:class:`FriendsClient` reads on a thread of its own; the screen calls :meth:`poll` each
frame for the latest table (a JSON object, see :mod:`kiosk.friends.views`) and
:meth:`act`, :meth:`next_hand`, :meth:`leave` to play.  Chips are points: nothing here
touches credits or meters.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from kiosk.friends.codes import CODE_LENGTH, is_code, typed_code
from kiosk.friends.link_seats import LinkTransport
from kiosk.link.errors import LinkError
from kiosk.link.limits import LinkLimits
from kiosk.link.pairing import StationPairing

log = logging.getLogger("kiosk.friends")
Json = dict[str, Any]


class JoinRefused(Exception):
    """No game to join: ``reason`` is ``code.shape`` (not a game code), ``code.unknown``
    (no host has it), ``code.locked`` (a host locked this address out after wrong
    codes), ``host.busy`` (a host had no room for another socket), ``game.over`` (the
    game has ended), ``host.none`` (no host to ask), ``host.unreached`` (no host
    answered), ``link.unpaired`` (this cabinet has no pairing), ``link.refused`` (the
    host's link refused this cabinet: not paired there, or a wrong key),
    ``link.unreached`` (no answer on the link) or a refusal code of the host
    (``seat.full``...)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


#: Host answers that say more than "no such game", most telling first:
#: (HTTP status, :class:`JoinRefused` reason, detail).
_REFUSALS = (
    (429, "code.locked", "too many wrong game codes from this cabinet: try again in 15 minutes"),
    (410, "game.over", "this game has ended"),
    (503, "host.busy", "the host has no room for another connection now: try again in a moment"),
)


class Transport(Protocol):
    """How a seat's messages travel: ``inbox`` gets each message of the host (a JSON
    object), then ``None`` when the seat's connection has ended."""

    inbox: queue.SimpleQueue[Json | None]

    def send(self, text: str) -> bool: ...  # False: the connection has ended

    def close(self) -> None: ...


class WebSocketTransport:
    """The host's web socket (``ws://host:port/g/CODE/ws``), read on a thread of its own."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.inbox: queue.SimpleQueue[Json | None] = queue.SimpleQueue()
        self._reader = threading.Thread(target=self._read, name="friends-client", daemon=True)
        self._reader.start()

    def send(self, text: str) -> bool:
        try:
            self.ws.send(text)
        except ConnectionClosed:
            return False
        return True

    def _read(self) -> None:
        try:
            for text in self.ws:
                try:
                    msg = json.loads(text)
                except ValueError:
                    continue
                if isinstance(msg, dict):
                    self.inbox.put(msg)
        except ConnectionClosed:
            pass
        self.inbox.put(None)

    def close(self) -> None:
        self.ws.close()
        self._reader.join(2.0)


class FriendsClient:
    """One seat's connection to the game ``code`` on ``address`` (``host:port``), over
    ``transport``."""

    def __init__(self, transport: Transport, address: str, code: str) -> None:
        self.transport = transport
        self.address = address
        self.code = code
        self.state: Json | None = None  # the latest table
        self.welcome: Json | None = None  # seat and token, once seated
        self.refused: Json | None = None  # the latest refusal
        self.closed = False
        self.trace: Callable[[Json], None] | None = None  # sees every message, as it is taken
        self.reopening = False  # a reopen on its own thread is trying (reopen_in_background)
        self.gave_up = False  # the last reopen found no host with this game in time
        self._closing = threading.Event()
        self._inbox = transport.inbox

    @classmethod
    def open(
        cls, hosts: Iterable[str], code: str, timeout: float = 3.0, token: str | None = None
    ) -> FriendsClient:
        """Connect to the first of ``hosts`` that has game ``code``; :class:`JoinRefused`
        when none has: ``host.none`` when ``hosts`` is empty, ``code.locked`` when a host has locked this cabinet's address out
        after wrong codes (HTTP 429), ``host.busy`` when a host had no room (503),
        ``game.over`` when the game has ended (410), else ``code.unknown``.  ``token``
        (a seat this cabinet has in that game) asks for the room the host keeps for
        seated players' reconnects."""
        code = typed_code(code)
        if not is_code(code):
            raise JoinRefused("code.shape", f"a game code has {CODE_LENGTH} letters and digits")
        hosts = list(hosts)
        if not hosts:
            raise JoinRefused("host.none", "no host cabinet is set (friends_hosts)")
        query = f"?seat={urllib.parse.quote(token)}" if token else ""
        answers: set[int] = set()
        for address in hosts:
            url = f"ws://{address}/g/{code}/ws{query}"
            try:
                ws = connect(
                    url, open_timeout=timeout, close_timeout=1.0, max_size=256 * 1024, legacy=True
                )
            except InvalidStatus as exc:
                answers.add(exc.response.status_code)
                continue  # this host has no such game, or will not take this cabinet now
            except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError) as exc:
                # ConnectionClosed: a host starting up or going down closed the socket
                # before the handshake's request went out
                log.info("friends host %s not reached: %s", address, exc)
                continue
            log.info("joined friends game %s on %s", code, address)
            return cls(WebSocketTransport(ws), address, code)
        for status, reason, detail in _REFUSALS:
            if status in answers:
                raise JoinRefused(reason, detail)
        if answers:
            raise JoinRefused("code.unknown", "no game has this code")
        raise JoinRefused("host.unreached", "no host answered")

    @classmethod
    def open_link(
        cls,
        pairing_folder: Path,
        host: str,
        port: int,
        code: str,
        timeout: float = 5.0,
        limits: LinkLimits | None = None,
    ) -> FriendsClient:
        """Join game ``code`` over the table link to ``host:port`` with the pairing saved
        in ``pairing_folder``; :class:`JoinRefused` when this cabinet is not paired, the
        link refuses it, or the host's game has another code."""
        code = typed_code(code)
        if not is_code(code):
            raise JoinRefused("code.shape", f"a game code has {CODE_LENGTH} letters and digits")
        try:
            pairing = StationPairing.load(Path(pairing_folder))
        except LinkError as exc:
            log.warning("friends link: this cabinet is not paired (%s)", exc)
            raise JoinRefused("link.unpaired", "this cabinet is not paired with the host") from None
        try:
            transport = LinkTransport.open(pairing, host, port, timeout, limits)
        except LinkError as exc:
            reason = "link.unreached" if exc.reason == "unreached" else "link.refused"
            raise JoinRefused(
                reason, f"the host's link refused this cabinet ({exc.reason})"
            ) from None
        hello = transport.hello or {}
        if hello.get("code") != code:
            transport.close()
            raise JoinRefused("code.unknown", "no game has this code")
        log.info("joined friends game %s on %s:%d over the link", code, host, port)
        return cls(transport, f"{host}:{port}", code)

    @classmethod
    def find(
        cls,
        code: str,
        hosts: Iterable[str],
        link_pairing: Path | None = None,
        link_hosts: Iterable[str] = (),
        timeout: float = 3.0,
    ) -> FriendsClient:
        """Game ``code`` over the table link when this cabinet is paired (a pairing saved
        in ``link_pairing``; ``link_hosts`` the hosts' friends links, ``host:port``), else
        over the web socket among ``hosts``.  A cabinet configured for the link with no
        pairing and no web host is refused (``link.unpaired``); a link refusal ends the
        search, a host that is not reached or has another game is passed over."""
        hosts = list(hosts)
        if link_pairing is not None and (Path(link_pairing) / StationPairing.FILE).exists():
            last = JoinRefused("link.unreached", "no host answered on the link")
            for address in link_hosts:
                host, _, port = address.rpartition(":")
                try:
                    return cls.open_link(link_pairing, host, int(port), code, timeout)
                except JoinRefused as exc:
                    if exc.reason not in ("link.unreached", "code.unknown"):
                        raise
                    last = exc if exc.reason == "code.unknown" else last
            raise last
        if link_pairing is not None and not hosts:
            log.warning("friends link: no pairing in %s", link_pairing)
            raise JoinRefused("link.unpaired", "this cabinet is not paired with the host")
        return cls.open(hosts, code, timeout)

    # -- playing --------------------------------------------------------------------------
    def _send(self, msg: Json) -> None:
        if not self.transport.send(json.dumps(msg)):
            self.closed = True

    def join(self, name: str, lang: str = "en") -> None:
        self._send({"type": "join", "name": name, "lang": lang})

    def resume(self, token: str) -> None:
        self._send({"type": "resume", "token": token})

    def act(self, action: str, amount: int | None = None) -> bool:
        """A move for the decision point of the latest table; False when it is not ours.
        ``amount``: the round total ("raise to") for bet and raise."""
        s = self.state
        if s is None or s.get("phase") != "play" or not s.get("your_turn"):
            return False
        msg: Json = {"type": "act", "hand": s["hand"], "seq": s["seq"], "action": action}
        if amount is not None:
            msg["amount"] = amount
        self._send(msg)
        return True

    def next_hand(self) -> bool:
        s = self.state
        if s is None or s.get("phase") != "hand_over":
            return False
        self._send({"type": "next", "hand": s["hand"]})
        return True

    def leave(self) -> None:
        """Leave the game: the computer plays the seat for good."""
        self._send({"type": "leave"})

    # -- receiving ------------------------------------------------------------------------
    def poll(self) -> bool:
        """Take what arrived; True when something changed."""
        changed = False
        while True:
            try:
                msg = self._inbox.get_nowait()
            except queue.Empty:
                return changed
            changed = True
            if msg is not None and self.trace is not None:
                self.trace(msg)
            if msg is None:
                self.closed = True
            elif msg.get("type") == "state":
                self.state = msg
                self.refused = None
            elif msg.get("type") == "welcome":
                self.welcome = msg
            elif msg.get("type") == "hello" and self.welcome is not None:
                self.resume(str(self.welcome["token"]))  # a new connection: the seat back
            elif msg.get("type") == "refused":
                self.refused = msg

    @property
    def can_reopen(self) -> bool:
        """Whether :meth:`reopen` can bring this seat back (the web socket; the table
        link reconnects by itself)."""
        return isinstance(self.transport, WebSocketTransport)

    def reopen(self, wait_s: float, every_s: float = 0.5) -> bool:
        """The host's socket closed before the end (a power cut of the host): connect
        again to the same game on the same host for up to ``wait_s`` seconds, asking
        with the seat's token for the room the host keeps for seated players; the seat
        is taken back by its token when the host greets the new connection.  False when
        the host did not come back in time, answers that it has no such game any more
        (it was started again with a new one: trying on would only count wrong codes
        against this address), the seat was closed, or this seat's transport is the
        link (which reconnects by itself)."""
        if not self.can_reopen:
            return False
        token = str(self.welcome["token"]) if self.welcome is not None else None
        end = time.monotonic() + max(0.0, wait_s)
        while not self._closing.is_set():
            try:
                fresh = FriendsClient.open([self.address], self.code, timeout=min(3.0, max(0.5, wait_s)),
                                           token=token)
            except JoinRefused as exc:
                if exc.reason in ("code.unknown", "game.over", "code.locked"):
                    log.warning("friends game %s: the host answers without it (%s)", self.code, exc.reason)
                    return False
                if time.monotonic() + every_s >= end:
                    return False
                self._closing.wait(every_s)  # the host is not back yet: try again
                continue
            if self._closing.is_set():
                fresh.transport.close()
                return False
            log.info("friends game %s: the host is back; taking the seat back", self.code)
            self.transport = fresh.transport
            self._inbox = fresh.transport.inbox
            self.closed = False
            return True
        return False

    def reopen_in_background(self, wait_s: float) -> None:
        """:meth:`reopen` on a thread of its own, for a screen whose frame loop must not
        wait: :attr:`reopening` is True while it tries; :attr:`gave_up` is True when the
        host did not come back (a later call tries again)."""
        if self.reopening:
            return
        self.reopening = True
        self.gave_up = False

        def run() -> None:
            try:
                self.gave_up = not self.reopen(wait_s)
            finally:
                self.reopening = False

        threading.Thread(target=run, name="friends-reopen", daemon=True).start()

    def close(self) -> None:
        self._closing.set()
        self.transport.close()
        self.closed = True
