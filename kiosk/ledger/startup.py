"""Opening the cabinet's ledger at power-up: first run versus lost ledger, the cabinet
key and the anchor.

Paths: the database, its install marker, the key file and the anchor file.  In
production the key lives outside the database's directory and the anchor on another
device (:mod:`kiosk.ledger.media`); the defaults (``<db>.key``, ``<db>.anchor``, beside the database)
are for demo mode, and opening with them logs a warning.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from engine.uth.paytable import Paytable
from kiosk.ledger.anchor import check_anchor, read_anchor
from kiosk.ledger.errors import LedgerCorruptError, LedgerError, LedgerMissingError
from kiosk.ledger.files import key_record_path, key_signed_ledger, read_marker, write_key_record
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.media import second_medium_problem

log = logging.getLogger(__name__)

#: ``media(db, witnesses)``: why the witnesses (field name -> file) cannot witness the
#: database ``db`` where they are, as (field, reason), or ``("", "")``.
MediaCheck = Callable[[Path, dict[str, Path]], tuple[str, str]]


def default_key_path(db: Path) -> Path:
    """The demo-mode key file beside the database: ``<db>.key``."""
    return db.with_name(db.name + ".key")


def default_anchor_path(db: Path) -> Path:
    """The demo-mode anchor beside the database: ``<db>.anchor``."""
    return db.with_name(db.name + ".anchor")


def anchor_beside(db: Path, anchor_path: Path) -> bool:
    """Whether the anchor is in the database's directory (demo mode): a copy of the
    directory put back then holds a matching anchor, so a rollback goes undetected."""
    return Path(anchor_path).resolve().parent == Path(db).resolve().parent


def _warn_if_beside(db: Path, key_path: Path, anchor_path: Path) -> None:
    folder = db.resolve().parent
    if key_path.resolve().parent == folder:
        log.warning(
            "cabinet key %s is in the database's directory (demo mode): whoever copies the "
            "directory can forge ledger rows; keep the key elsewhere on a cabinet",
            key_path,
        )
    if anchor_beside(db, anchor_path):
        log.warning(
            "ledger anchor %s is beside the database (demo mode): a rollback of the whole "
            "directory goes undetected; keep the anchor on another device",
            anchor_path,
        )


def _pre_key_ledger(path: Path) -> bool:
    """Whether ``path`` is a ledger written before rows were MAC'd (no head record)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT 1 FROM meta WHERE key = 'head'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return row is None


#: The first bytes of every SQLite 3 database file.
_SQLITE_HEADER = b"SQLite format 3\x00"


def _require_database_file(path: Path) -> None:
    """Raise :class:`LedgerCorruptError` saying what ``path`` is when it is not a
    database file: a folder, an empty file, or a file that is not SQLite (text, say)."""
    if path.is_dir():
        raise LedgerCorruptError(f"ledger {path} is a folder, not a database file")
    try:
        with open(path, "rb") as fh:
            start = fh.read(len(_SQLITE_HEADER))
    except OSError as exc:
        raise LedgerError(f"ledger {path} cannot be read: {exc}") from None
    if not start:
        raise LedgerCorruptError(
            f"ledger {path} is an empty file (0 bytes), not a cabinet ledger: restore the "
            "database, or remove the file and start a new ledger with `uth audit init --force`"
        )
    if start != _SQLITE_HEADER:
        raise LedgerCorruptError(
            f"ledger {path} is not an SQLite database (it starts {start[:16]!r}): restore "
            "the database, or remove the file and start a new ledger with `uth audit init --force`"
        )


def _require_writable(path: Path) -> None:
    """Raise :class:`LedgerError` naming what is read-only when the existing database
    ``path`` or its directory cannot be written (a read-only file, mount or medium):
    the cabinet could record nothing, and the ledger is never recreated."""
    for target, what in ((path.parent, "database directory"), (path, "database file")):
        if not os.access(target, os.W_OK):
            raise LedgerError(
                f"ledger {path} cannot be written: the {what} {target} is read-only "
                "(make it writable again; nothing was changed)"
            )


def check_head(ledger: Ledger, anchor: Path | None, machine_number: str | None = None) -> None:
    """The power-up checks of an open ledger against its key, anchor and machine (raises
    :class:`LedgerCorruptError` with the reason).

    The stored head must match the rows and, when the ledger holds the key, be MAC'd with
    it; with ``machine_number`` the ledger must be that machine's; with ``anchor`` the
    anchor file must exist (unless this open just migrated a ledger that predates it) and
    the database must not be behind it nor another ledger's
    (:func:`kiosk.ledger.anchor.check_anchor`).  A read-write ledger then keeps the anchor
    up to date."""
    stored, actual = ledger.stored_head(), ledger.head()
    if stored is None:
        raise LedgerCorruptError("no head record (rows written outside the cabinet)", "meta")
    if stored.body() != actual.body():
        raise LedgerCorruptError(
            f"the head record names commit {stored.seq} with {stored.events} events and "
            f"{stored.rounds} rounds; the rows say {actual.events} events and "
            f"{actual.rounds} rounds with other hashes (rows added or removed outside "
            "the cabinet)",
            "meta head",
        )
    if ledger.key is not None and not stored.authentic(ledger.key):
        raise LedgerCorruptError("not signed with this cabinet's key", "meta head")
    if machine_number is not None and machine_number != actual.machine_number:
        raise LedgerCorruptError(
            f"ledger {ledger.path} belongs to machine {actual.machine_number!r}; this "
            f"cabinet is machine {machine_number!r}"
        )
    if anchor is None:
        return
    anchored = read_anchor(anchor)
    if anchored is None:
        if not ledger.migrated:
            raise LedgerCorruptError(
                "missing: the database cannot be shown to be the latest (restore the "
                "anchor, or start a new ledger deliberately with `uth audit init --force`)",
                f"anchor {anchor}",
            )
    else:
        row = ledger.conn.execute(
            "SELECT hash FROM events WHERE id = ?", (anchored.events,)
        ).fetchone()
        hashes = {anchored.events: row[0]} if row else {}
        check_anchor(actual, anchored, anchor, ledger.key, hashes)
    ledger.attach_anchor(anchor, write=anchored is None or anchored.seq != actual.seq)


def open_or_create(
    path: Path,
    marker: Path,
    *,
    paytable: Callable[[], Paytable],
    machine_number: str = "",
    casino_name: str = "",
    key_path: Path | None = None,
    anchor_path: Path | None = None,
    installed: bool = False,
    counter_file: Path | None = None,
    media: MediaCheck = second_medium_problem,
    seed_progressive: bool = True,
) -> tuple[Ledger, bool]:
    """Open the cabinet's ledger with its key and anchor, creating ledger, key and anchor
    only on a first run (no database, no marker, no anchor, no record of a ledger beside
    the key) with the paytable ``paytable()`` in force (its progressive's meter seeded
    unless ``seed_progressive`` is false: a linked cabinet's).

    ``installed``: the cabinet is installed, so the anchor, the marker and the file
    counter ``counter_file`` (if any) must be in mounted folders on another device than
    the database (``media`` tells: :func:`kiosk.ledger.media.second_medium_problem`),
    else :class:`LedgerError` naming both devices, before anything is read.

    Returns ``(ledger, created)``.  Raises :class:`LedgerMissingError` when the database
    is gone but the marker, the anchor or the record beside the key
    (:func:`kiosk.ledger.files.key_record_path`) shows this cabinet had one,
    :class:`~kiosk.ledger.key.KeyFileError` when the key of an existing ledger is missing
    or unusable, and :class:`~kiosk.ledger.errors.LedgerCorruptError` when the database is
    not this machine's, not signed with its key, or behind its anchor.
    """
    path, marker = Path(path), Path(marker)
    key_path = Path(key_path) if key_path is not None else default_key_path(path)
    anchor_path = Path(anchor_path) if anchor_path is not None else default_anchor_path(path)
    if installed:
        witnesses = {"anchor_path": anchor_path, "install_marker": marker}
        witnesses.update({"witness_counter": Path(counter_file)} if counter_file else {})
        name, problem = media(path, witnesses)
        if problem:
            raise LedgerError(f"installed cabinet, {name}: {problem}")
    else:
        _warn_if_beside(path, key_path, anchor_path)
    if path.exists():
        _require_database_file(path)
        _require_writable(path)
        if not key_path.exists() and _pre_key_ledger(path):
            log.warning("ledger %s predates the cabinet key: creating %s", path, key_path)
            CabinetKey.create(key_path)
        try:
            ledger = Ledger.open(path, marker=marker, key=CabinetKey.load(key_path))
        except OSError as exc:
            raise LedgerError(f"ledger {path} cannot be opened: {exc}") from None
        try:
            check_head(ledger, anchor_path, machine_number)
            if read_marker(key_record_path(key_path)) is None:  # a key from before the record
                created_at = ledger.meta.get("created_at", "")
                write_key_record(key_path, path, ledger.ledger_id, created_at)
        except (LedgerError, OSError) as exc:
            ledger.close()
            if isinstance(exc, OSError):
                raise LedgerError(f"cannot record the ledger beside the key: {exc}") from None
            raise
        return ledger, False
    info = read_marker(marker)
    if info is not None:
        raise LedgerMissingError(
            f"ledger {path} is missing but this cabinet was installed with ledger "
            f"{info.get('ledger_id')} (created {info.get('created_at')}, marker {marker}); "
            "restore the database, or start a new ledger deliberately with `uth audit init --force`"
        )
    anchored = read_anchor(anchor_path)
    if anchored is not None:
        raise LedgerMissingError(
            f"ledger {path} is missing but its anchor {anchor_path} records ledger "
            f"{anchored.ledger_id} at commit {anchored.seq}; restore the database, or start "
            "a new ledger deliberately with `uth audit init --force`"
        )
    signed = key_signed_ledger(key_path, path)
    if signed is not None:
        raise LedgerMissingError(
            f"ledger {path} is missing but the cabinet key {key_path} signed ledger "
            f"{signed.get('ledger_id')} (created {signed.get('created_at')}, record "
            f"{key_record_path(key_path)}); restore the database, or start a new ledger "
            "deliberately with `uth audit init --force`"
        )
    try:
        key, _ = CabinetKey.load_or_create(key_path)
        ledger = Ledger.create(
            path,
            paytable=paytable(),
            machine_number=machine_number,
            casino_name=casino_name,
            marker=marker,
            key=key,
            anchor=anchor_path,
            seed_progressive=seed_progressive,
        )
        write_key_record(key_path, path, ledger.ledger_id, ledger.meta.get("created_at", ""))
    except OSError as exc:  # a missing or read-only folder for the ledger, key or anchor
        raise LedgerError(f"ledger {path} cannot be created: {exc}") from None
    return ledger, True
