"""Who sits where among the friends: their names, seat tokens, connections and the away
timer.  No rules and no sockets: :class:`kiosk.friends.game.FriendsGame` asks it.

A friend is *connected* while at least one of their connections is open; once the last
closes, the away timer runs (:attr:`FriendsTimers.away_s`, seed 000: about 45 s) and the
seat turns *away* (the computer plays it) when it runs out.  Opening the link again with
the seat's token gives it back.  A friend who *left* has handed the seat to the computer
for good: the token is dead.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from kiosk.friends.codes import new_token
from kiosk.friends.messages import Refusal


@dataclass(frozen=True)
class FriendsTimers:
    """Seconds: ``away_s`` disconnected before a seat is away; ``next_hand_s`` before the
    next hand is dealt without every vote; ``finish_s`` the results stay connected after
    the game ends; ``turn_s`` a friend has for a move before the computer plays it for
    them (``expiries_away`` such moves in a row make the seat away); ``host_wait_s`` the
    game waits for the host cabinet that left before it ends for everyone; ``unattended_s``
    before the next hand when nobody's tap counts (only computer players still in).
    ``max_friends``: friends at one table."""

    away_s: float = 45.0
    next_hand_s: float = 8.0
    finish_s: float = 3.0
    max_friends: int = 5
    turn_s: float = 30.0
    expiries_away: int = 3
    host_wait_s: float = 600.0
    unattended_s: float = 2.0


@dataclass
class Friend:
    """One friend in one seat; ``lang`` is the language they read."""

    seat: int
    name: str
    token: str
    lang: str = "en"
    conns: set[int] = field(default_factory=set)
    gone_at: float | None = None  # when the last connection closed (monotonic seconds)
    away: bool = False
    left: bool = False

    @property
    def connected(self) -> bool:
        return bool(self.conns)

    def to_dict(self) -> dict[str, Any]:
        """What the saved game keeps of the seat (its token included: the seat's key)."""
        return {"seat": self.seat, "name": self.name, "token": self.token, "lang": self.lang,
                "away": self.away, "left": self.left}

    @classmethod
    def from_dict(cls, d: dict[str, Any], gone_at: float) -> Friend:
        """A saved seat, with no connection yet: its away timer runs from ``gone_at``."""
        return cls(int(d["seat"]), str(d["name"]), str(d["token"]), str(d.get("lang", "en")),
                   gone_at=None if d.get("left") else gone_at, away=bool(d.get("away", False)),
                   left=bool(d.get("left", False)))


class Roster:
    """The friends of one game, by seat, by token and by connection."""

    def __init__(self, timers: FriendsTimers) -> None:
        self.timers = timers
        self._by_seat: dict[int, Friend] = {}
        self._by_token: dict[str, Friend] = {}
        self._by_conn: dict[int, Friend] = {}

    def __iter__(self) -> Iterable[Friend]:
        return iter(sorted(self._by_seat.values(), key=lambda f: f.seat))

    def friends(self) -> list[Friend]:
        return sorted(self._by_seat.values(), key=lambda f: f.seat)

    def at(self, seat: int) -> Friend | None:
        return self._by_seat.get(seat)

    def of(self, conn: int) -> Friend | None:
        return self._by_conn.get(conn)

    def take(self, conn: int, name: str, lang: str, free: list[int], wish: int | None) -> Friend:
        """Seat ``conn``'s player in ``wish`` (or the first of ``free``: computer seats
        nobody took); raises :class:`Refusal` when they sit already or no seat is free."""
        if conn in self._by_conn:
            raise Refusal("seat.already", "you have a seat at this table")
        if sum(1 for f in self._by_seat.values() if not f.left) >= self.timers.max_friends:
            raise Refusal("seat.full", f"the table takes {self.timers.max_friends} friends at most")
        free = [s for s in free if s not in self._by_seat]
        if wish is not None and wish not in free:
            raise Refusal("seat.taken", "that seat is not free")
        if not free:
            raise Refusal("seat.full", "every seat is taken")
        seat = wish if wish is not None else free[0]
        friend = Friend(seat, name, new_token(), lang, {conn})
        self._by_seat[seat] = friend
        self._by_token[friend.token] = friend
        self._by_conn[conn] = friend
        return friend

    def restore(self, friend: Friend) -> None:
        """Put a seat of a saved game back (:meth:`Friend.from_dict`)."""
        self._by_seat[friend.seat] = friend
        if not friend.left:
            self._by_token[friend.token] = friend

    def resume(self, conn: int, token: str) -> Friend:
        """Give ``token``'s seat back to ``conn``; :class:`Refusal` for an unknown token or
        a seat whose player left."""
        friend = self._by_token.get(token)
        if friend is None or friend.left:
            raise Refusal("seat.unknown", "this seat is not yours any more: take a new one")
        current = self._by_conn.get(conn)
        if current is not None and current is not friend:
            raise Refusal("seat.already", "you have a seat at this table")
        friend.conns.add(conn)
        friend.gone_at = None
        self._by_conn[conn] = friend
        return friend

    def drop(self, conn: int, now: float) -> Friend | None:
        """``conn`` closed; its friend's away timer starts if it was their last."""
        friend = self._by_conn.pop(conn, None)
        if friend is not None:
            friend.conns.discard(conn)
            if not friend.conns and friend.gone_at is None:
                friend.gone_at = now
        return friend

    def leave(self, friend: Friend, *, free_seat: bool = False) -> list[int]:
        """``friend`` leaves for good; returns their connections (to close).  With
        ``free_seat`` (in the lobby) the seat is free again for another friend, and the
        one who left is not part of the game at all."""
        friend.left = True
        if free_seat and self._by_seat.get(friend.seat) is friend:
            del self._by_seat[friend.seat]
        self._by_token.pop(friend.token, None)
        conns = sorted(friend.conns)
        for conn in conns:
            self._by_conn.pop(conn, None)
        friend.conns.clear()
        return conns

    def due_away(self, now: float) -> list[Friend]:
        """Friends not yet away whose last connection closed ``away_s`` ago or more."""
        return [
            f
            for f in self._by_seat.values()
            if not f.left and not f.away and f.gone_at is not None
            and now - f.gone_at >= self.timers.away_s
        ]
