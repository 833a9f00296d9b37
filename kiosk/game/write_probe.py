"""Can the ledger record?  Checked before the validator is enabled and after a failed
write, so that no note goes to the box when its credit cannot be written.

The probe is a real write rolled back (the write lock is taken, a row is written, then
nothing is kept), plus the checks SQLite cannot make before a commit: the file and its
folder are writable and the folder's file system has room.
"""

from __future__ import annotations

import os
import sqlite3

from kiosk.ledger.ledger import Ledger

#: Below this many free bytes on the ledger's file system a commit may fail: no escrow.
MIN_FREE_BYTES = 1 << 20


def write_problem(ledger: Ledger, min_free_bytes: int = MIN_FREE_BYTES) -> str | None:
    """Why ``ledger`` cannot record now (read-only, no room, locked, I/O error), or
    None when a write would succeed.  Never raises for a failing ledger; must be called
    outside a ledger transaction."""
    path = ledger.path
    if ledger.readonly:
        return f"the ledger {path} is open read-only"
    for target in (path, path.parent):
        if not os.access(target, os.W_OK):
            return f"{target} is read-only"
    try:
        stat = os.statvfs(path.parent)
    except OSError as exc:
        return f"cannot read the free space of {path.parent}: {exc}"
    free = stat.f_bavail * stat.f_frsize
    if free < min_free_bytes:
        return f"only {free} bytes free on the ledger's file system {path.parent}"
    conn = ledger.conn
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        return f"cannot take the ledger's write lock: {exc}"
    try:
        conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('write_probe', 'rolled back')"
        )
    except sqlite3.Error as exc:
        return f"cannot write the ledger: {exc}"
    finally:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass
    return None
