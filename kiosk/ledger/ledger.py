"""The cabinet's ledger: rounds, events and meters in SQLite (through sqlite-utils).

One file (default ``var/uth.db``) in WAL mode with ``synchronous=FULL``: a commit is on
disk when it returns.  Every write of the controller is one transaction holding the
row(s) *and* the meter changes they imply, so the books balance after any crash.

The tables are described in :mod:`kiosk.ledger.schema`.

Meters are never written directly: each event kind and each round row has fixed meter
effects (:func:`event_effects`, :func:`round_effects`), applied when the row is written
and re-added from the rows by :meth:`Ledger.verify`.

Tamper evidence: each row of ``rounds`` and ``events`` carries a hash chained to the
previous row's and a MAC under the cabinet key (:mod:`kiosk.ledger.chain`,
:mod:`kiosk.ledger.key`); every commit writes the MAC'd head into ``meta`` and then the
anchor file (:mod:`kiosk.ledger.anchor`); every :data:`CHECKPOINT_EVERY` rows a signed
checkpoint bounds the power-up check (:mod:`kiosk.ledger.checkpoint`).
:meth:`Ledger.verify` names the first row, meter or trigger that does not match.  The
machine state (paytable, limits, tilts, door, pending payout) is derived from the
chained events, never stored on its own.

First run versus deleted ledger: when the ledger is created, an *install marker* file
(``<db>.install`` unless configured elsewhere) records its id; a database whose id
differs from the marker's is refused (:class:`LedgerCorruptError`).  Power-up opening,
with the cabinet key and the anchor, is :func:`kiosk.ledger.startup.open_or_create`.

Timestamps are UTC ISO 8601 with milliseconds (``2025-01-31T12:00:00.123Z``).  Money is
integer cents; breakage is in units of ``1/breakage_unit`` cent.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, cast

import sqlite_utils

from engine.cards import format_cards
from engine.rng import deck_commitment
from engine.uth.paytable import Paytable
from kiosk.ledger.anchor import Head, write_anchor
from kiosk.ledger.chain import GENESIS, canonical, chain_hash, dumps, utc_stamp
from kiosk.ledger.checkpoint import (
    CHECKPOINT_EVERY,
    checkpoint_detail,
    last_checkpoint,
)
from kiosk.ledger.errors import (
    LedgerCorruptError,
    LedgerError,
    LedgerExistsError,
    LedgerMissingError,
)
from kiosk.ledger.files import _fsync_dir, _take_lock, check_marker, read_marker, write_marker
from kiosk.ledger.hooks import CommitWitness
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.kinds import EventKind, event_kind
from kiosk.ledger.meters import (
    CREDITS,
    METERS,
    _sub,
    apply_meters,
    balance,
    event_effects,
    round_effects,
)
from kiosk.ledger.powerup import power_up_verify
from kiosk.ledger.records import (
    DecisionRecord,
    EventRecord,
    RoundRecord,
    TicketRecord,
    VerifyReport,
)
from kiosk.ledger.round_rows import DealtColumns, RoundChange, RoundRow, changed_rows, new_rows
from kiosk.ledger.schema import (
    EVENT_COLUMNS,
    LEDGER_TABLES,
    MIGRATIONS,
    ROUND_COLUMNS,
    SCHEMA_VERSION,
    check_version,
    missing_columns,
    upgrade,
)
from kiosk.ledger.sqlite import close, immediate, open_ledger_db
from kiosk.ledger.stations import (
    StationMeters,
    apply_station_meters,
    check_station,
    load_station_meters,
)
from kiosk.ledger.tickets import (
    TICKET_COLUMNS,
    TICKET_EVENTS,
    TICKET_STATUSES,
    ticket_change,
    ticket_effect,
)
from kiosk.ledger.verify import Verifier
from kiosk.ledger.view import LedgerView

__all__ = [  # the ledger's vocabulary, for the controller, the CLI and the tools
    "CREDITS", "DecisionRecord", "EVENT_COLUMNS", "EventRecord", "GENESIS", "Ledger",
    "LedgerCorruptError", "LedgerError", "LedgerExistsError", "LedgerMissingError",
    "LedgerView", "METERS", "MIGRATIONS", "ROUND_COLUMNS", "RoundRecord", "SCHEMA_VERSION",
    "TICKET_COLUMNS", "TICKET_EVENTS", "TICKET_STATUSES", "TicketRecord", "VerifyReport",
    "balance", "canonical", "chain_hash", "dumps", "event_effects", "read_marker",
    "round_effects", "ticket_effect", "utc_stamp", "write_marker",
]  # fmt: skip

log = logging.getLogger(__name__)


class Ledger(LedgerView):
    """An open ledger: the reads of :class:`LedgerView`, the writes, the meters and the
    heads of both chains.  Not thread-safe by itself: the controller serialises access.

    Writes go through :meth:`transaction` (re-entrant: nested blocks join the outer
    one); a block that raises is rolled back in SQLite *and* in the in-memory heads.
    Each commit writes the head (see :mod:`kiosk.ledger.anchor`) into ``meta`` and then,
    when the ledger has an anchor, into the anchor file.  With a ``key`` every row and
    head is MAC'd; without one they are written unsigned (a cabinet holding the key
    refuses such rows).
    """

    def __init__(self, conn: sqlite3.Connection, path: Path, readonly: bool = False) -> None:
        super().__init__(conn, path)
        self.db = sqlite_utils.Database(conn)
        self.readonly = readonly
        self._depth = 0
        self._saved: tuple[Any, ...] | None = None
        self.meters: dict[str, int] = {}  # the table meters: the sums of ``station_meters``
        self.station_meters: StationMeters = {}  # station -> name -> value
        self._event_head = GENESIS
        self._event_id = 0
        self._round_head = GENESIS  # hash of the last round row
        self._round_prev = GENESIS  # hash before the open round's rows, if any
        self._round_id = 0
        self._open_rows: list[RoundRow] = []  # the open round, one row per seat
        self.meta: dict[str, str] = {}
        self._lock: IO[bytes] | None = None
        self.key: CabinetKey | None = None
        self.anchor: Path | None = None
        #: Why the last anchor write failed ("" when it succeeded), and who hears of it.
        self.anchor_problem = ""
        self.on_anchor_problem: Callable[[str], None] | None = None
        self._seq = 0
        #: Rows (events + rounds) between checkpoints (0: none are written).
        self.checkpoint_every = CHECKPOINT_EVERY
        self._checkpoint_rows = 0  # events + rounds at the latest checkpoint
        #: Whether this open migrated the ledger from an older schema or one without row MACs.
        self.migrated = False
        self.witness: CommitWitness | None = None  # told of each commit: kiosk.ledger.hooks
        self._kinds: set[str] = set()  # the kinds of event written in this transaction

    # -- opening ------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        readonly: bool = False,
        marker: Path | None = None,
        migrate: bool = True,
        key: CabinetKey | None = None,
    ) -> Ledger:
        """Open an existing ledger and load its heads (no full verification: see
        :meth:`verify`); rows written are MAC'd with ``key``.  Raises
        :class:`LedgerMissingError` / :class:`LedgerCorruptError`.  The checks against the
        key and the anchor are :func:`kiosk.ledger.startup.check_head`."""
        path = Path(path)
        if not path.exists():
            raise LedgerMissingError(f"ledger {path} does not exist")
        lock = None if readonly else _take_lock(path)
        try:
            conn = open_ledger_db(path, readonly)
        except LedgerError:
            if lock is not None:
                lock.close()
            raise
        ledger = cls(conn, path, readonly)
        ledger._lock = lock
        ledger.key = key
        try:
            ledger._load(migrate=migrate and not readonly)
            if marker is not None:
                ledger._check_marker(marker)
        except sqlite3.DatabaseError as exc:
            ledger.close()
            raise LedgerCorruptError(f"{path}: {exc}") from None
        except LedgerError:
            ledger.close()
            raise
        return ledger

    @classmethod
    def create(
        cls,
        path: str | Path,
        *,
        paytable: Paytable,
        machine_number: str = "",
        casino_name: str = "",
        marker: Path | None = None,
        at: str | None = None,
        key: CabinetKey | None = None,
        anchor: Path | None = None,
        seed_progressive: bool = True,
    ) -> Ledger:
        """Create a new ledger at ``path`` (refused if one exists), its anchor and the
        marker; rows are MAC'd with ``key`` when given (a progressive's meter seeded at
        its reset unless ``seed_progressive`` is false: a linked cabinet's meter is the
        casino controller's).

        Built under a temporary name and renamed into place after the anchor and the
        marker are written, so a crash never leaves a half-made ledger at ``path``, nor a
        ledger at ``path`` without its anchor.
        """
        path = Path(path)
        if path.exists():
            raise LedgerExistsError(f"ledger {path} already exists")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".new")
        for stale in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
            stale.unlink(missing_ok=True)
        ledger_id = str(uuid.uuid4())
        created = at or utc_stamp()
        conn = open_ledger_db(tmp, readonly=False)
        ledger = cls(conn, tmp)
        ledger.key = key
        ledger.meta = {"ledger_id": ledger_id, "machine_number": machine_number}
        with ledger.transaction():
            upgrade(ledger.db, 0)
            ledger.conn.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [
                    ("ledger_id", ledger_id),
                    ("created_at", created),
                    ("machine_number", machine_number),
                ],
            )
            ledger.meters = {m: 0 for m in (*METERS, CREDITS)}
            ledger.station_meters = {1: dict(ledger.meters)}
            ledger.store_paytable(paytable)
            ledger.event(
                EventKind.LEDGER_CREATED,
                at=created,
                detail={
                    "ledger_id": ledger_id,
                    "machine_number": machine_number,
                    "casino_name": casino_name,
                    "schema_version": SCHEMA_VERSION,
                    "paytable": paytable.sha256,
                    "paytable_name": f"{paytable.name} {paytable.version}",
                },
            )
            if paytable.progressive is not None and seed_progressive:  # as seed_meter
                reset = paytable.progressive.reset  # the reserve is empty: the operator's
                seed = {"reason": "in_force", "reset": reset, "paytable": paytable.sha256,
                        "operator": None, "from_operator": reset}  # fmt: skip
                ledger.event(EventKind.PROGRESSIVE_RESET, amount=reset, detail=seed, at=created)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        if anchor is not None:
            write_anchor(anchor, ledger.head())
        if marker is not None:
            write_marker(marker, ledger_id, created)
        os.replace(tmp, path)
        _fsync_dir(path.parent)
        ledger = cls.open(path, marker=marker, key=key)
        if anchor is not None:
            ledger.attach_anchor(anchor, write=False)
        return ledger

    def _load(self, migrate: bool) -> None:
        try:
            tables = set(self.db.table_names())
        except sqlite3.DatabaseError as exc:
            raise LedgerCorruptError(
                f"{self.path} is not a readable SQLite database ({exc})"
            ) from None
        if "meta" not in tables:
            raise LedgerCorruptError(f"{self.path} is not a cabinet ledger (no meta table)")
        self.meta = dict(self.conn.execute("SELECT key, value FROM meta").fetchall())
        version = int(self.meta.get("schema_version", "0") or 0)
        check_version(self.path, version, migrate)
        unsigned, stationless = missing_columns(self.db, self.path, migrate)
        if version < SCHEMA_VERSION or unsigned or stationless:
            with self.transaction():
                upgrade(self.db, version)
            self.meta["schema_version"] = str(SCHEMA_VERSION)
        missing = set(LEDGER_TABLES) - set(self.db.table_names())
        if missing:
            raise LedgerCorruptError(f"{self.path}: table(s) {', '.join(sorted(missing))} missing")
        self.meters = dict(self.conn.execute("SELECT name, value FROM meters").fetchall())
        self.station_meters = load_station_meters(self.conn)
        row = self.conn.execute("SELECT id, hash FROM events ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            raise LedgerCorruptError(
                f"{self.path}: the event log is empty (no ledger_created event)"
            )
        self._event_id, self._event_head = row
        head = self.stored_head()
        self._seq = head.seq if head is not None else 0
        cp = last_checkpoint(self.conn)
        self._checkpoint_rows = 0 if cp is None else cp.event_id + cp.rounds
        closed = self.conn.execute("SELECT MAX(id) FROM rounds WHERE state <> 'open'")
        last_closed = closed.fetchone()[0] or 0
        # every column of the table, as the rows were written
        self._open_rows = cast(
            list[RoundRow], self.round_rows("WHERE id > ? ORDER BY id", (last_closed,))
        )
        rows = self.round_rows("WHERE id <= ? ORDER BY id DESC LIMIT 1", (last_closed,))
        self._round_prev = rows[0]["hash"] if rows else GENESIS
        last = self._open_rows[-1] if self._open_rows else (rows[0] if rows else None)
        if last is not None:
            self._round_id, self._round_head = last["id"], last["hash"]
        if version < SCHEMA_VERSION or unsigned or stationless:
            detail: dict[str, Any] = {"old": version, "new": SCHEMA_VERSION}
            detail.update({"stations": True} if stationless else {})  # all rows: station 1
            if unsigned:  # the rows so far carry no MAC
                detail.update(unsigned_events=self._event_id, unsigned_rounds=self._round_id)
                detail.update(round_head=self._round_head)
            self.migrated = version < SCHEMA_VERSION or unsigned  # an anchor may be missing
            self.event(EventKind.SCHEMA_MIGRATED, detail=detail)

    def _check_marker(self, marker: Path) -> None:
        if check_marker(marker, self.path, self.meta, write=not self.readonly):
            self.event(EventKind.INSTALL_MARKER_WRITTEN, detail={"marker": str(marker)})

    def head(self) -> Head:
        """The ledger's head after the last commit, MAC'd with the key if it has one."""
        meta = self.meta
        ids = (meta.get("ledger_id", ""), meta.get("machine_number", ""))
        return Head(
            self._seq, *ids, self._event_id, self._event_head, self._round_id, self._round_head
        ).signed(self.key)

    def attach_anchor(self, anchor: Path, write: bool) -> None:
        """Keep ``anchor`` up to date from now on (read-write only); ``write``: bring it up
        to date now."""
        if not self.readonly:
            self.anchor = anchor
            if write:
                self._write_anchor()

    def _write_head(self) -> None:
        """Inside the outermost transaction: the next head into ``meta``."""
        if not self._event_id:  # a head names at least the ledger_created event
            return
        self._seq += 1
        self.conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('head', ?)",
            (self.head().to_json(),),
        )

    def _checkpoint_if_due(self) -> None:
        """Inside the outermost transaction: a checkpoint event once
        :attr:`checkpoint_every` rows have been written since the last one (it covers
        the closed rounds; an open round is left to the rows after it)."""
        if not self.checkpoint_every or not self._event_id:
            return
        if self._event_id + self._round_id - self._checkpoint_rows < self.checkpoint_every:
            return
        rounds, head, totals = self._round_id, self._round_head, self.meters
        stations = {s: dict(m) for s, m in self.station_meters.items()}
        if self._open_rows:
            rounds, head = self._open_rows[0]["id"] - 1, self._round_prev
        for row in self._open_rows:
            effects, seat = round_effects(row), row["seat"]
            totals, stations[seat] = _sub(totals, effects), _sub(stations[seat], effects)
        self.event(
            EventKind.CHECKPOINT,
            detail=checkpoint_detail(self.conn, totals, rounds, head, stations),
        )
        self._checkpoint_rows = self._event_id + rounds

    def _write_anchor(self) -> None:
        """After a commit: the head into the anchor file.  A failure is logged, kept in
        :attr:`anchor_problem` and passed to :attr:`on_anchor_problem` (the commit stands;
        the next open sees the database ahead of its anchor)."""
        if self.anchor is None:
            return
        try:
            write_anchor(self.anchor, self.head())
            self.anchor_problem = ""
        except OSError as exc:
            self.anchor_problem = f"cannot write the anchor {self.anchor}: {exc}"
            log.error(self.anchor_problem)
            if self.on_anchor_problem is not None:
                self.on_anchor_problem(self.anchor_problem)

    def close(self) -> None:
        """Close the database and release the writer's lock (no event is written)."""
        close(self.conn)
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    @property
    def ledger_id(self) -> str:
        return self.meta.get("ledger_id", "")

    # -- transactions -----------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One atomic, durable write (re-entrant)."""
        if self.readonly:
            raise LedgerError("the ledger is open read-only")
        self._depth += 1
        try:
            if self._depth > 1:
                yield
                return
            self._saved = (
                dict(self.meters),
                {st: dict(m) for st, m in self.station_meters.items()},
                self._event_head,
                self._event_id,
                self._round_head,
                self._round_prev,
                self._round_id,
                [dict(r) for r in self._open_rows],
                self._seq,
                self._checkpoint_rows,
            )
            self._kinds = set()
            with immediate(self.conn, on_rollback=self._restore):
                yield
                if self.witness is not None:
                    self.witness.before_commit(self, self._kinds)
                self._checkpoint_if_due()
                self._write_head()
            self._write_anchor()
        finally:
            self._depth -= 1
        if self.witness is not None:  # committed: the witness follows it
            self.witness.after_commit(self)

    def _restore(self) -> None:
        """Put the in-memory meters and heads back as they were before the transaction."""
        assert self._saved is not None
        (
            self.meters,
            self.station_meters,
            self._event_head,
            self._event_id,
            self._round_head,
            self._round_prev,
            self._round_id,
            self._open_rows,
            self._seq,
            self._checkpoint_rows,
        ) = self._saved

    # -- writing --------------------------------------------------------------------------------
    def event(
        self,
        kind: EventKind,
        *,
        amount: int = 0,
        detail: Mapping[str, Any] | None = None,
        round_id: int | None = None,
        txn: str | None = None,
        at: str | None = None,
        station: int = 1,
    ) -> int:
        """Append one event about ``station`` (1-7; host events are station 1) and its
        meter effects (declared with its kind, :mod:`kiosk.ledger.kinds`), to the
        station's meters and the table's; returns its id.  Raises
        :class:`~kiosk.ledger.kinds.UnknownEventKind` for a kind the ledger does not know."""
        kind = event_kind(kind)
        if not isinstance(amount, int) or amount < 0:
            raise ValueError(f"an event amount is non-negative integer cents, not {amount!r}")
        check_station(station)
        row: dict[str, Any] = {
            "id": self._event_id + 1,
            "at": at or utc_stamp(),
            "kind": str(kind),
            "amount": amount,
            "round_id": round_id,
            "txn": txn,
            "detail": dumps(dict(detail or {})),
            "station": station,
        }
        row["hash"] = chain_hash(self._event_head, row)
        row["mac"] = self._mac(row["hash"])
        with self.transaction():
            ticket = ticket_change(self.conn, row, dict(detail or {}))
            self.conn.execute(
                "INSERT INTO events (id, at, kind, amount, round_id, txn, detail, hash, mac, "
                "station) VALUES (:id, :at, :kind, :amount, :round_id, :txn, :detail, :hash, "
                ":mac, :station)",
                row,
            )
            effects = event_effects(kind, amount)
            apply_meters(self.conn, self.meters, effects)
            apply_station_meters(self.conn, self.station_meters, station, effects)
            if ticket is not None:
                sets = ", ".join(f"{c} = excluded.{c}" for c in ticket if c != "validation")
                self.conn.execute(
                    f"INSERT INTO tickets ({', '.join(ticket)}) "
                    f"VALUES ({', '.join(':' + c for c in ticket)}) "
                    f"ON CONFLICT(validation) DO UPDATE SET {sets}",
                    ticket,
                )
            self._event_id, self._event_head = row["id"], row["hash"]
            self._kinds.add(kind)
        return row["id"]

    def _mac(self, row_hash: str) -> str | None:
        """A row's MAC: the key's HMAC of its hash (None without the key)."""
        return None if self.key is None else self.key.mac(row_hash)

    def store_paytable(self, table: Paytable, text: str | None = None) -> None:
        """Keep the text of ``table`` (read back from its source file unless given)."""
        if self.conn.execute(
            "SELECT 1 FROM paytables WHERE sha256 = ?", (table.sha256,)
        ).fetchone():
            return
        if text is None:
            text = Path(table.source_name).read_text(encoding="utf-8")
        if hashlib.sha256(text.encode()).hexdigest() != table.sha256:
            raise LedgerError(f"paytable {table.source_name} changed on disk since it was loaded")
        with self.transaction():
            self.conn.execute(
                "INSERT INTO paytables (sha256, name, version, source, toml) VALUES (?, ?, ?, ?, ?)",
                (table.sha256, table.name, table.version, table.source_name, text),
            )

    def begin_rounds(self, rows: Sequence[DealtColumns], deck: list[int], salt: bytes) -> list[int]:
        """Insert the open rows of a new round, one per seat (distinct stations), sharing
        the commitment of ``deck`` and ``salt``, each with its recovery deck; returns their
        ids.  Each row's meter effects go to its seat's station and to the table."""
        if self._open_rows:
            raise LedgerError(f"round {self._open_rows[0]['id']} is still open")
        commitment = deck_commitment(deck, salt)
        fulls = new_rows(rows, self._round_id + 1, commitment, self._round_head, self._mac)
        cards = format_cards(deck, "")
        with self.transaction():
            for full in fulls:
                self.conn.execute(
                    f"INSERT INTO rounds ({', '.join(full)}) "
                    f"VALUES ({', '.join(':' + c for c in full)})",
                    full,
                )
                self.conn.execute(
                    "INSERT INTO recovery (round_id, deck, salt) VALUES (?, ?, ?)",
                    (full["id"], cards, salt.hex()),
                )
                self._apply_round(full["seat"], round_effects(full))
            self._round_prev, self._round_head = self._round_head, fulls[-1]["hash"]
            self._round_id, self._open_rows = fulls[-1]["id"], fulls
        return [f["id"] for f in fulls]

    def update_rounds(self, changes: Mapping[int, RoundChange]) -> list[RoundRow]:
        """Change open rows (round id -> columns) in one transaction with the meters;
        returns every open row as it now is.  The rows close together: when ``changes``
        closes them (``state`` settled or voided) their recovery decks and salts are
        published in the rows and the recovery rows are removed."""
        old = self._open_rows
        rows = changed_rows(old, changes, self._round_prev, self._mac, self.recovery_text)
        with self.transaction():
            for before, new in zip(old, rows, strict=True):
                sets = ", ".join(f"{c} = :{c}" for c in new if c != "id")
                self.conn.execute(f"UPDATE rounds SET {sets} WHERE id = :id", new)
                if new["state"] != "open":
                    self.conn.execute("DELETE FROM recovery WHERE round_id = ?", (new["id"],))
                self._apply_round(new["seat"], _sub(round_effects(new), round_effects(before)))
            self._round_head = rows[-1]["hash"]
            self._open_rows = rows if rows[0]["state"] == "open" else []
        return rows

    def _apply_round(self, seat: int, effects: Mapping[str, int]) -> None:
        apply_meters(self.conn, self.meters, effects)
        apply_station_meters(self.conn, self.station_meters, seat, effects)

    @property
    def open_rounds(self) -> list[RoundRow]:
        """The open round's rows, one per seat (copies; empty when no round is open)."""
        return [r.copy() for r in self._open_rows]

    def counts(self) -> tuple[int, int]:
        """(rounds, events) written so far: the ids of the last round and event."""
        return self._round_id, self._event_id

    def heads(self) -> tuple[str, str]:
        """The hashes of the last event and the last round row (64 zeros when none)."""
        return self._event_head, self._round_head

    def verify_power_up(self) -> VerifyReport:
        """The bounded check power-up runs (:func:`kiosk.ledger.powerup.power_up_verify`)."""
        return power_up_verify(self, self.ledger_id, self.key)

    def verify(self, decks: bool = True, replay: bool = False) -> VerifyReport:
        """Check the whole ledger; never raises for a bad ledger (see
        :meth:`kiosk.ledger.verify.Verifier.run`)."""
        return Verifier(self, self.ledger_id, self.key).run(decks=decks, replay=replay)
