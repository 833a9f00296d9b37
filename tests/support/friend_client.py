"""A friend's seat over a real socket, for tests: a native ``websockets`` client of the
host's game server that joins or resumes, keeps the latest table it was sent, and
answers its turns (check, else call) when asked.

Shared by tests/kiosk/friends and tests/kiosk/ui (``from support.friend_client import
FriendClient``: the folder of the root conftest.py is on the import path).
"""

from __future__ import annotations

import json
import time
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


def socket_url(link: str) -> str:
    """The socket of the game whose page is ``link`` (``http://host:port/g/CODE``)."""
    return link.replace("http://", "ws://", 1) + "/ws"


class FriendClient:
    """One connection; :attr:`messages` every message received, :attr:`state` the last
    ``state``, :attr:`welcome` the last ``welcome`` (seat, token)."""

    def __init__(self, link: str) -> None:
        self.ws: ClientConnection = connect(socket_url(link), open_timeout=5, legacy=True)
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        self.closed = False

    def send(self, **msg: Any) -> None:
        self.ws.send(json.dumps(msg))

    def join(self, name: str, lang: str = "en") -> None:
        self.send(type="join", name=name, lang=lang)

    def resume(self, token: str) -> None:
        self.send(type="resume", token=token)

    def poll(self, timeout: float = 0.0) -> int:
        """Take what arrived (waiting up to ``timeout`` for the first); returns how many."""
        n = 0
        while not self.closed:
            try:
                text = self.ws.recv(timeout=timeout if n == 0 else 0)
            except TimeoutError:
                break
            except ConnectionClosed:
                self.closed = True
                break
            msg = json.loads(text)
            self.messages.append(msg)
            if msg.get("type") == "state":
                self.state = msg
            elif msg.get("type") == "welcome":
                self.welcome = msg
            n += 1
        return n

    def wait_for(self, predicate: Any, timeout: float = 10.0, pump: Any = None) -> dict[str, Any]:
        """Poll (calling ``pump()`` between polls, e.g. the host's frame) until
        ``predicate(self)`` is true; returns the last state."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pump is not None:
                pump()
            self.poll(0.02)
            if predicate(self):
                return self.state or {}
        raise AssertionError(f"timed out; last state {json.dumps(self.state)[:400]}")

    def my_turn(self) -> bool:
        s = self.state
        return bool(s and s.get("phase") == "play" and s.get("your_turn"))

    def play(self) -> bool:
        """Answer the turn on the table (check, else call); False when it is not ours."""
        s = self.state
        if not self.my_turn() or s is None:
            return False
        legal = s["legal"]
        action = "check" if legal["can_check"] else "call"
        self.send(type="act", hand=s["hand"], seq=s["seq"], action=action)
        self.state = dict(s, your_turn=False)
        return True

    def vote(self) -> bool:
        s = self.state
        if not s or s.get("phase") != "hand_over" or not s.get("vote") or s["vote"]["voted"]:
            return False
        self.send(type="next", hand=s["hand"])
        self.state = dict(s, vote=dict(s["vote"], voted=True))
        return True

    def close(self) -> None:
        self.ws.close()
        self.closed = True
