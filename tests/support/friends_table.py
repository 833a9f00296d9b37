"""A friends game without sockets, for tests: a fake monotonic clock and a table whose
connections' inboxes are filled by each pump (every message checked against the host's
truth when one is given).

Shared by tests/kiosk/friends (``from support.friends_table import Clock, Table``).
"""

from __future__ import annotations

import json

from engine.rng import SeededRandomSource
from kiosk.friends.game import FriendsGame
from kiosk.friends.messages import decode
from kiosk.friends.roster import FriendsTimers


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Table:
    """A game and its connections' inboxes, driven step by step."""

    def __init__(self, config, truth=None, timers=None, seed=3, host_plays="bot") -> None:
        self.clock = Clock()
        self.game = FriendsGame(config, ai_speed="fast", host_plays=host_plays, rng=SeededRandomSource(seed),
                                bot_samples=0, timers=timers or FriendsTimers(next_hand_s=2.0, away_s=45.0),
                                clock=self.clock)
        self.inbox: dict[int, list[dict]] = {}
        self.closed: list[int] = []
        self.truth = truth

    def connect(self, conn: int) -> None:
        self.inbox[conn] = []
        self.game.connect(conn)
        self.pump()

    def send(self, conn: int, msg: dict) -> None:
        self.game.receive(conn, decode(json.dumps(msg)))
        self.pump()

    def join(self, conn: int, name: str, **extra) -> dict:
        self.connect(conn)
        self.send(conn, {"type": "join", "name": name, **extra})
        return self.last(conn, "welcome")

    def pump(self, dt: float = 0.0) -> None:
        self.clock.now += dt
        self.game.update(dt)
        messages, closes = self.game.outgoing()
        for conn, text in messages:
            msg = json.loads(text)
            self.inbox.setdefault(conn, []).append(msg)
            friend_seat = self.seat_of(conn)
            if self.truth is not None and friend_seat is not None:
                self.truth.check(friend_seat, msg)
        self.closed += [c for c, _ in closes]

    def seat_of(self, conn: int) -> int | None:
        for f in self.game.friends():
            if conn in f.conns:
                return f.seat
        for m in reversed(self.inbox.get(conn, [])):
            if m["type"] == "welcome":
                return m["seat"]
        return None

    def last(self, conn: int, kind: str = "state") -> dict:
        return next(m for m in reversed(self.inbox[conn]) if m["type"] == kind)

    def until(self, cond, dt: float = 0.05, limit: int = 20000) -> None:
        for _ in range(limit):
            if cond():
                return
            self.pump(dt)
        raise AssertionError("never happened")

    def my_turn(self, conn: int) -> bool:
        m = self.last(conn)
        return m["phase"] == "play" and m["your_turn"]
