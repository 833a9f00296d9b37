"""A seat in another cabinet's friends game, played from this cabinet.

Why a native client of the host's game server (``websockets``, the phones' own
protocol) rather than the table link: the server already checks every message, sends
each seat only its own view, keeps the away timer and gives a seat back by its token;
a cabinet that joins is one more seat through the same checks, and needs no pairing
with the host.  The host's address comes from ``hosts`` (the venue's cabinets that may
host a game, ``host:port``); the game code picks the game (a wrong code is refused by
every host).

:class:`FriendsClient` runs the socket on a thread of its own; the screen calls
:meth:`poll` each frame for the latest table (a JSON object, see
:mod:`kiosk.friends.views`) and :meth:`act`, :meth:`next_hand`, :meth:`leave` to play.
Chips are points: nothing here touches credits or meters.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable, Iterable
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from kiosk.friends.codes import is_code

log = logging.getLogger("kiosk.friends")
Json = dict[str, Any]


class JoinRefused(Exception):
    """No game to join: ``reason`` is ``code.shape`` (not a game code), ``code.unknown``
    (no host has it) or a refusal code of the host (``seat.full``...)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class FriendsClient:
    """One connection to the game ``code`` on ``address`` (``host:port``)."""

    def __init__(self, ws: ClientConnection, address: str, code: str) -> None:
        self.ws = ws
        self.address = address
        self.code = code
        self.state: Json | None = None  # the latest table
        self.welcome: Json | None = None  # seat and token, once seated
        self.refused: Json | None = None  # the latest refusal
        self.closed = False
        self.trace: Callable[[Json], None] | None = None  # sees every message, as it is taken
        self._inbox: queue.SimpleQueue[Json | None] = queue.SimpleQueue()
        self._reader = threading.Thread(target=self._read, name="friends-client", daemon=True)
        self._reader.start()

    @classmethod
    def open(cls, hosts: Iterable[str], code: str, timeout: float = 3.0) -> FriendsClient:
        """Connect to the first of ``hosts`` that has game ``code``; :class:`JoinRefused`
        when none has."""
        code = code.strip().upper()
        if not is_code(code):
            raise JoinRefused("code.shape", "a game code has four letters and digits")
        for address in hosts:
            url = f"ws://{address}/g/{code}/ws"
            try:
                ws = connect(url, open_timeout=timeout, close_timeout=1.0, max_size=256 * 1024, legacy=True)
            except InvalidStatus:
                continue  # this host has no such game
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                log.info("friends host %s not reached: %s", address, exc)
                continue
            log.info("joined friends game %s on %s", code, address)
            return cls(ws, address, code)
        raise JoinRefused("code.unknown", "no game has this code")

    # -- playing --------------------------------------------------------------------------
    def _send(self, msg: Json) -> None:
        try:
            self.ws.send(json.dumps(msg))
        except ConnectionClosed:
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
    def _read(self) -> None:
        try:
            for text in self.ws:
                try:
                    msg = json.loads(text)
                except ValueError:
                    continue
                if isinstance(msg, dict):
                    self._inbox.put(msg)
        except ConnectionClosed:
            pass
        self._inbox.put(None)

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
            elif msg.get("type") == "refused":
                self.refused = msg

    def close(self) -> None:
        self.ws.close()
        self._reader.join(2.0)
        self.closed = True
