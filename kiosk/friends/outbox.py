"""What the host has to send its connections: messages queued, connections to close,
and the last table each connection was sent (a table goes out only when it changed)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

Json = dict[str, Any]


class Outbox:
    """Queued ``(connection, message)`` pairs and ``(connection, reason)`` closes."""

    def __init__(self) -> None:
        self._out: list[tuple[int, Json]] = []
        self._close: list[tuple[int, str]] = []
        self._last: dict[int, str] = {}  # connection -> last table sent (JSON)
        self._published: tuple[int, int] | None = None

    def send(self, conn: int, msg: Json) -> None:
        self._out.append((conn, msg))

    def close(self, conn: int, reason: str) -> None:
        self._close.append((conn, reason))

    def forget(self, conn: int) -> None:
        """Send ``conn`` its table again next time (a refusal, a closed connection)."""
        self._last.pop(conn, None)

    def publish(self, key: tuple[int, int], conns: Iterable[int],
                table: Callable[[int], Json | None]) -> None:
        """Queue each connection's ``table(conn)`` if it differs from the last one sent;
        ``key`` (the game's versions) unchanged and every connection served: nothing to do."""
        conns = list(conns)
        if key == self._published and all(c in self._last for c in conns):
            return
        self._published = key
        for conn in conns:
            msg = table(conn)
            if msg is None:
                continue
            text = json.dumps(msg, sort_keys=True)
            if self._last.get(conn) != text:
                self._last[conn] = text
                self.send(conn, msg)

    def take(self) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
        """``(messages as JSON texts, closes)`` queued since the last call."""
        out = [(conn, json.dumps(msg, separators=(",", ":"))) for conn, msg in self._out]
        closes, self._out, self._close = self._close, [], []
        return out, closes
