"""Sequence numbers, acknowledgements and in-order, exactly-once delivery.

:class:`Outbox` numbers a sender's application messages 1, 2, 3... and keeps each until
the peer acknowledges it, so that after a reconnect everything after the peer's last
acknowledged ``seq`` is sent again.  :class:`Inbox` delivers the peer's messages exactly
once and in ``seq`` order: a ``seq`` already delivered is a duplicate and is dropped; a
``seq`` ahead of the next one is held until the gap is filled.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

from kiosk.link.errors import OutboxFull
from kiosk.link.messages import Body

DEFAULT_OUTBOX = 4096
DEFAULT_AHEAD = 256


@dataclass(frozen=True)
class Pending:
    seq: int
    body: Body


class Outbox:
    """A sender's unacknowledged messages, oldest first.  Thread-safe: :meth:`put` is called
    from the caller's thread, the rest from the link's loop."""

    def __init__(self, capacity: int = DEFAULT_OUTBOX) -> None:
        self._lock = threading.Lock()
        self._items: deque[Pending] = deque()
        self._next = 1
        self._acked = 0
        self.capacity = capacity

    def put(self, body: Body) -> int:
        """Queue ``body``; returns its ``seq``.  Raises :class:`OutboxFull` (and queues
        nothing) when ``capacity`` messages are unacknowledged."""
        with self._lock:
            if len(self._items) >= self.capacity:
                raise OutboxFull(f"{len(self._items)} messages unacknowledged")
            seq = self._next
            self._next += 1
            self._items.append(Pending(seq, body))
            return seq

    def ack(self, seq: int) -> None:
        """The peer delivered everything up to ``seq``: forget those messages."""
        with self._lock:
            if seq <= self._acked:
                return
            self._acked = min(seq, self._next - 1)
            while self._items and self._items[0].seq <= self._acked:
                self._items.popleft()

    def after(self, seq: int) -> list[Pending]:
        """The queued messages with a ``seq`` above ``seq``, in order."""
        with self._lock:
            return [p for p in self._items if p.seq > seq]

    def clear(self) -> list[Pending]:
        """Forget every message and start again at ``seq`` 1; returns what was dropped."""
        with self._lock:
            dropped = list(self._items)
            self._items.clear()
            self._next = 1
            self._acked = 0
            return dropped

    @property
    def last_seq(self) -> int:
        """The last ``seq`` given out (0 before the first)."""
        with self._lock:
            return self._next - 1

    @property
    def acked(self) -> int:
        with self._lock:
            return self._acked

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


class GapTooWide(Exception):
    """More messages ahead of a missing one than the inbox holds."""


class Inbox:
    """The receiving side: ``last`` is the highest ``seq`` delivered, all below it too."""

    def __init__(self, ahead_capacity: int = DEFAULT_AHEAD) -> None:
        self.last = 0
        self.duplicates = 0
        self._ahead: dict[int, Body] = {}
        self._capacity = ahead_capacity

    def receive(self, seq: int, body: Body) -> list[tuple[int, Body]]:
        """The messages now deliverable, in order (empty for a duplicate or a gap).
        Raises :class:`GapTooWide` when too many are held behind a gap."""
        if seq <= self.last or seq in self._ahead:
            self.duplicates += 1
            return []
        if seq != self.last + 1:
            if len(self._ahead) >= self._capacity:
                raise GapTooWide(f"{len(self._ahead)} messages held after seq {self.last}")
            self._ahead[seq] = body
            return []
        out = [(seq, body)]
        self.last = seq
        while self.last + 1 in self._ahead:
            self.last += 1
            out.append((self.last, self._ahead.pop(self.last)))
        return out

    def reset(self) -> None:
        """The peer starts again at ``seq`` 1."""
        self.last = 0
        self._ahead.clear()
