"""The link's non-volatile state: the exception queue of each station, how far the
ledger has been read, and the host's TITO exchanges.

The tables live in the cabinet's SQLite file (the ledger's) but are the link's own, like
the tournament's: the ledger never reads them and this module never touches the
ledger's.  Nothing here is money: the money of a redemption or a cash-out is in the
ledger, written by the game service; these rows only remember which exchange with the
host is where, so a repeated poll gets the same answer after a restart too.

Tables
------
``sas_meta``        ``key -> value``: ``event_cursor`` (the last ledger event read),
                    ``round_cursor`` (the last round row read to its end),
                    ``started`` (JSON: open round ids already reported started).
``sas_exceptions``  the queue: ``id`` (FIFO order), ``station``, ``code``, ``data``
                    (real-time event data).  At most :data:`CAPACITY` rows a station: a
                    new one pushes the oldest out and sets the station's overflow.
``sas_overflow``    stations whose queue lost an exception (exception 70 is due).
``sas_exchanges``   one row per TITO exchange, keyed by (``station``, ``kind``, ``ref``):
                    ``kind`` ``validation`` (a cash-out's 58) or ``redeem`` (a ticket's
                    71), its ``state`` and a JSON ``detail``.

Every change is one transaction; the connection is WAL with ``synchronous=FULL`` (a
commit is on disk when it returns).  Only the link's updater thread writes.

The host's acknowledgements are durable the moment the poll thread takes them, before
the poll that carried the implied ACK is answered: :class:`AckJournal`, a file of its
own beside the database (``<db>-sas-acks``), one record appended and ``fdatasync``-ed
per ACK, with no lock shared with the ledger's writers.  The updater deletes the
acknowledged rows from ``sas_exceptions`` on its next pass and empties the journal;
opening the store applies whatever the journal holds (a power cut in between), so an
acknowledged exception is never sent again.
"""

from __future__ import annotations

import json
import os
import sqlite3
import struct
import threading
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.ledger.sqlite import close, connect, immediate

#: Exceptions kept per station (SAS asks for at least 20).
CAPACITY = 32

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sas_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sas_exceptions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    station INTEGER NOT NULL,
    code INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS sas_overflow (station INTEGER PRIMARY KEY);
CREATE TABLE IF NOT EXISTS sas_exchanges (
    station INTEGER NOT NULL,
    kind TEXT NOT NULL,
    ref TEXT NOT NULL,
    state TEXT NOT NULL,
    detail TEXT NOT NULL,
    PRIMARY KEY (station, kind, ref)
);
"""


class StoreError(Exception):
    """The link's tables cannot be opened or written (``reason``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Queued:
    """One queued exception: its row id, code and real-time event data."""

    id: int
    code: int
    data: bytes = b""


@dataclass(frozen=True)
class Exchange:
    """A TITO exchange with the host as stored."""

    station: int
    kind: str
    ref: str
    state: str
    detail: dict[str, Any]


class AckJournal:
    """The acknowledgements not yet applied to the queue's table, durable on return of
    :meth:`add`: 8-byte little-endian records, a queue row id (positive) or a station
    whose overflow (exception 70) was acknowledged (negated).  A record torn by a power
    cut (the file's length not a multiple of 8) was never acknowledged to anyone: the
    answer to the poll carrying that ACK had not been sent."""

    RECORD = struct.Struct("<q")

    def __init__(self, path: Path) -> None:
        created = not path.exists()
        self.path = path
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        self._lock = threading.Lock()
        self.records = 0  # appended since the journal was last emptied
        if created:  # the new name itself must survive a power cut
            folder = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)

    def read(self) -> tuple[list[int], list[int]]:
        """(row ids, stations whose overflow was cleared) in the journal."""
        with self._lock:
            size = os.fstat(self._fd).st_size
            data = os.pread(self._fd, size - size % self.RECORD.size, 0)
        values = [v for (v,) in self.RECORD.iter_unpack(data)]
        return [v for v in values if v > 0], [-v for v in values if v < 0]

    def add(self, value: int) -> None:
        """Append ``value`` and wait until it is on disk."""
        with self._lock:
            os.write(self._fd, self.RECORD.pack(value))
            os.fdatasync(self._fd)
            self.records += 1

    def empty(self, records: int | None = None) -> None:
        """Empty the journal (only if it still holds ``records`` records, when given:
        an ACK taken since then is not yet applied)."""
        with self._lock:
            if records is not None and records != self.records:
                return
            os.ftruncate(self._fd, 0)
            os.fsync(self._fd)
            self.records = 0

    def close(self) -> None:
        with self._lock:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1


class SasStore:
    """The link's tables in ``path`` (the ledger's database, which must exist), and the
    acknowledgement journal beside it."""

    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        if not path.exists():
            raise StoreError(f"{path} does not exist: the ledger creates the database")
        try:
            self.conn = connect(path, "rw")
            self.conn.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: {exc}") from None
        self.path = path
        self.lock = threading.Lock()
        self.journal = AckJournal(path.with_name(path.name + "-sas-acks"))

    def close(self) -> None:
        close(self.conn)
        self.journal.close()

    # -- cursors ----------------------------------------------------------------------
    def meta(self, key: str, default: str | None = None) -> str | None:
        row = self.conn.execute("SELECT value FROM sas_meta WHERE key = ?", (key,)).fetchone()
        return default if row is None else str(row[0])

    def cursors(self) -> tuple[int | None, int | None, set[int]]:
        """(event cursor, round cursor, open rounds reported started); None cursors on a
        first run."""
        ev, rd = self.meta("event_cursor"), self.meta("round_cursor")
        started = set(json.loads(self.meta("started", "[]") or "[]"))
        return (None if ev is None else int(ev), None if rd is None else int(rd), started)

    # -- the queue ----------------------------------------------------------------------
    def load_queues(self) -> tuple[dict[int, deque[Queued]], set[int]]:
        """Each station's queue and the overflowed stations, after applying the
        acknowledgements the journal holds."""
        acked, cleared = self.journal.read()
        if acked or cleared:
            self.acknowledged(acked, cleared)
        self.journal.empty()
        queues: dict[int, deque[Queued]] = {}
        for rid, station, code, data in self.conn.execute(
            "SELECT id, station, code, data FROM sas_exceptions ORDER BY id"
        ):
            queues.setdefault(station, deque()).append(Queued(rid, code, bytes(data)))
        overflow = {s for (s,) in self.conn.execute("SELECT station FROM sas_overflow")}
        return queues, overflow

    def append(
        self,
        raised: Iterable[tuple[int, int, bytes]],
        event_cursor: int,
        round_cursor: int,
        started: set[int],
    ) -> list[tuple[int, Queued]]:
        """Queue ``raised`` ((station, code, data) each) and move the cursors, in one
        transaction; a station over :data:`CAPACITY` loses its oldest rows and is marked
        overflowed.  Returns the rows written, with their stations."""
        out: list[tuple[int, Queued]] = []
        with self.lock, immediate(self.conn):
            for station, code, data in raised:
                cur = self.conn.execute(
                    "INSERT INTO sas_exceptions (station, code, data) VALUES (?, ?, ?)",
                    (station, code, data),
                )
                out.append((station, Queued(int(cur.lastrowid or 0), code, data)))
            for station in {s for s, _ in out}:
                (count,) = self.conn.execute(
                    "SELECT COUNT(*) FROM sas_exceptions WHERE station = ?", (station,)
                ).fetchone()
                if count > CAPACITY:
                    self.conn.execute(
                        "DELETE FROM sas_exceptions WHERE id IN (SELECT id FROM sas_exceptions "
                        "WHERE station = ? ORDER BY id LIMIT ?)",
                        (station, count - CAPACITY),
                    )
                    self.conn.execute(
                        "INSERT OR IGNORE INTO sas_overflow (station) VALUES (?)", (station,)
                    )
            self._set("event_cursor", str(event_cursor))
            self._set("round_cursor", str(round_cursor))
            self._set("started", json.dumps(sorted(started)))
        return out

    def acknowledged(self, ids: Iterable[int], overflow_cleared: Iterable[int]) -> None:
        """Remove the queue rows the host acknowledged and clear the overflow of
        ``overflow_cleared`` stations."""
        ids, cleared = list(ids), list(overflow_cleared)
        if not ids and not cleared:
            return
        with self.lock, immediate(self.conn):
            self.conn.executemany("DELETE FROM sas_exceptions WHERE id = ?", [(i,) for i in ids])
            self.conn.executemany(
                "DELETE FROM sas_overflow WHERE station = ?", [(s,) for s in cleared]
            )

    def _set(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO sas_meta (key, value) VALUES (?, ?)", (key, value)
        )

    # -- TITO exchanges -------------------------------------------------------------------
    def exchange(self, station: int, kind: str, ref: str) -> Exchange | None:
        row = self.conn.execute(
            "SELECT state, detail FROM sas_exchanges WHERE station = ? AND kind = ? AND ref = ?",
            (station, kind, ref),
        ).fetchone()
        if row is None:
            return None
        return Exchange(station, kind, ref, row[0], json.loads(row[1]))

    def put_exchange(self, ex: Exchange) -> None:
        with self.lock, immediate(self.conn):
            self.conn.execute(
                "INSERT OR REPLACE INTO sas_exchanges (station, kind, ref, state, detail) "
                "VALUES (?, ?, ?, ?, ?)",
                (ex.station, ex.kind, ex.ref, ex.state, json.dumps(ex.detail, sort_keys=True)),
            )

    def exchanges(self, kind: str) -> list[Exchange]:
        return [
            Exchange(s, kind, r, st, json.loads(d))
            for s, r, st, d in self.conn.execute(
                "SELECT station, ref, state, detail FROM sas_exchanges WHERE kind = ? "
                "ORDER BY rowid",
                (kind,),
            )
        ]
