"""The cabinet's durable SQLite connections: one opener and one transaction helper,
used by the ledger and the tournament store (both live in the cabinet's database file).

A connection opened for writing is in WAL mode with ``synchronous = FULL``: a commit is
on disk when it returns.  Every connection waits up to :data:`BUSY_TIMEOUT_MS` for a
lock held by another connection, runs in autocommit mode (``isolation_level=None``:
transactions are explicit, see :func:`immediate`) and may be used from any thread (the
owner serialises access).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from kiosk.ledger.errors import LedgerCorruptError, LedgerError

#: How long a statement waits for another connection's lock, milliseconds.
BUSY_TIMEOUT_MS = 5000

#: ``ro``: read-only, the file must exist; ``rw``: read-write, the file must exist;
#: ``rwc``: read-write, the file is created if missing.
OpenMode = Literal["ro", "rw", "rwc"]


class WalModeError(Exception):
    """SQLite refused WAL mode for a connection opened for writing (``reason`` says why)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def connect(path: str | Path, mode: OpenMode = "rwc", *, uri: bool = True) -> sqlite3.Connection:
    """Open ``path`` durably: busy timeout, then (unless ``mode`` is ``ro``) WAL mode,
    then ``synchronous = FULL``.

    With ``uri`` the file is opened as ``file:<path>?mode=<mode>``; without it the plain
    path is opened (read-write, created if missing: ``mode`` must be ``rwc``).  Raises
    ``sqlite3.Error`` when the file cannot be opened or is not a database, and
    :class:`WalModeError` when WAL mode is refused; the connection is closed then.
    """
    if not uri and mode != "rwc":
        raise ValueError(f"a plain path opens read-write-create, not {mode!r}")
    if uri:
        conn = sqlite3.connect(
            f"file:{path}?mode={mode}", uri=True, isolation_level=None, check_same_thread=False
        )
    else:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if mode != "ro":
            journal = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(journal).lower() != "wal":
                raise WalModeError(f"{path}: cannot use WAL mode (got {journal})")
        conn.execute("PRAGMA synchronous = FULL")
    except BaseException:
        conn.close()
        raise
    return conn


@contextmanager
def immediate(
    conn: sqlite3.Connection, on_rollback: Callable[[], None] | None = None
) -> Iterator[None]:
    """One write transaction: ``BEGIN IMMEDIATE`` (the write lock is taken up front), the
    block, ``COMMIT``.  When the block or the commit raises, the transaction is rolled
    back, ``on_rollback`` runs (to restore the caller's in-memory state) and the error
    propagates.  Not re-entrant: the caller nests by counting."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        if on_rollback is not None:
            on_rollback()
        raise


def close(conn: sqlite3.Connection) -> None:
    """Close ``conn``; an error closing it is ignored (nothing is left to write)."""
    try:
        conn.close()
    except sqlite3.Error:
        pass


def open_ledger_db(path: Path, readonly: bool) -> sqlite3.Connection:
    """The ledger's durable connection (:func:`connect`): read-only by URI, else the plain
    path, read-write.  Raises :class:`~kiosk.ledger.errors.LedgerError` when WAL mode is
    refused and :class:`~kiosk.ledger.errors.LedgerCorruptError` when the file is not a
    readable database."""
    try:
        if readonly:
            return connect(path, "ro")
        return connect(path, uri=False)
    except WalModeError as exc:
        raise LedgerError(exc.reason) from None
    except sqlite3.DatabaseError as exc:
        raise LedgerCorruptError(f"{path} is not a readable SQLite database ({exc})") from None
