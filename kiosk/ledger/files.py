"""The files beside the database: the one-writer lock, directory fsync and the
install marker that tells a first run from a deleted ledger."""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from kiosk.ledger.chain import dumps
from kiosk.ledger.errors import LedgerCorruptError, LedgerError


def _take_lock(path: Path) -> IO[bytes]:
    """The one-writer lock (``<db>.lock``), held while the ledger is open read-write.

    The kernel releases it when the process dies, so a crash never leaves it behind."""
    fh = open(f"{path}.lock", "ab")  # noqa: SIM115 - held for the ledger's lifetime
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.close()
        raise LedgerError(
            f"ledger {path} is in use by another program (lock {path}.lock)"
        ) from None
    return fh


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_marker(marker: Path) -> dict[str, str] | None:
    try:
        return json.loads(Path(marker).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {"ledger_id": "(unreadable marker)"}


def write_marker(marker: Path, ledger_id: str, created_at: str) -> None:
    marker = Path(marker)
    marker.parent.mkdir(parents=True, exist_ok=True)
    tmp = marker.with_name(marker.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(dumps({"ledger_id": ledger_id, "created_at": created_at}) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, marker)
    _fsync_dir(marker.parent)


def check_marker(marker: Path, db: Path, meta: Mapping[str, str], write: bool) -> bool:
    """Check the database ``db`` (its ``meta``: ``ledger_id``, ``created_at``) against the
    install marker: refused (:class:`LedgerCorruptError`) when the marker names another
    ledger.  A missing marker is written when ``write``; returns whether it was."""
    info = read_marker(marker)
    ledger_id = meta.get("ledger_id", "")
    if info is None:
        if write:
            write_marker(marker, ledger_id, meta.get("created_at", ""))
        return write
    if info.get("ledger_id") != ledger_id:
        raise LedgerCorruptError(
            f"ledger {db} (id {ledger_id}) is not the one installed on this cabinet "
            f"(marker {marker} names {info.get('ledger_id')}, created {info.get('created_at')})"
        )
    return False


def key_record_path(key_path: Path) -> Path:
    """The record beside the cabinet key of the ledger it signs: ``<key>.ledger``.  It
    lives where the key does (outside the database's folder on a cabinet), so a wiped
    database folder leaves it behind, and the cabinet knows it had a ledger."""
    key_path = Path(key_path)
    return key_path.with_name(key_path.name + ".ledger")


def write_key_record(key_path: Path, db: Path, ledger_id: str, created_at: str) -> None:
    """Record beside the key ``key_path`` that it signs ledger ``ledger_id`` at ``db``."""
    record = key_record_path(key_path)
    record.parent.mkdir(parents=True, exist_ok=True)
    tmp = record.with_name(record.name + ".tmp")
    body = {"ledger_id": ledger_id, "created_at": created_at, "db": str(Path(db).absolute())}
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(dumps(body) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, record)
    _fsync_dir(record.parent)


def key_signed_ledger(key_path: Path, db: Path) -> dict[str, str] | None:
    """The record beside the key ``key_path`` when it names a ledger at ``db`` (None
    when there is no record, or it names a ledger elsewhere)."""
    info = read_marker(key_record_path(key_path))
    if info is None or not info.get("ledger_id"):
        return None
    if info.get("db", str(Path(db).absolute())) != str(Path(db).absolute()):
        return None
    return info
