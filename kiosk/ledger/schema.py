"""The ledger's tables: schema version, column types, triggers and the migrations
that take an older database to the current version.

Tables
------
``rounds``     one row per round: times, seat, paytable name and SHA-256, bets, each
               decision with its time, the deck commitment, then at settlement the deck
               and salt, hole cards, board, hands and categories, returns per spot,
               breakage, credits before and after.  A round row is updated while the
               round is open and frozen once settled (a trigger refuses later updates).
``events``     power, door, tilts, bills, tickets, cash-outs, handpays, operators,
               configuration changes (old and new values), RAM clears, recoveries.
``meters``     lifetime meters (cents or counts) that never decrease (a trigger refuses
               it) plus ``credits``, the current credit meter.
``paytables``  the text of every paytable ever in force, keyed by its SHA-256, so any
               round can be replayed exactly.
``recovery``   the shuffled deck and salt of the open round: the cabinet's non-volatile
               game state.  It is published in the round row at settlement; until then
               only the commitment ``sha256(salt + deck)`` is in the (chained) row.
``tickets``    every cash-out ticket this cabinet issued (TITO): validation number, amount,
               sequence number, issue time, expiry, status (``pending`` print, ``issued``,
               ``void``, ``redeemed``), printed / voided / redeemed times and the ids of the
               events that made each change.  The table is *derived* from the chained
               ``ticket_issue``, ``ticket_out``, ``ticket_void`` and ``ticket_in`` events
               (:func:`ticket_effect`, applied when the event is written); :meth:`Ledger.verify`
               rebuilds it from the events and names the first row that differs, so a row
               edited to re-validate a ticket is caught like an edited event.
``station_meters``  the meters of each player station (1-7) of the table, by station and
               name: the same set as ``meters``, whose values are their sums over the
               stations (the *table* meters).  A single cabinet is station 1.
``meta``       schema version, ledger id, creation time, machine number.

Stations: every event carries the ``station`` (1-7) whose money or device it is about
(host events are station 1); a round row's ``seat`` is its station.  A ledger written
before stations (one cabinet) reads as station 1: :func:`upgrade` gives every event
station 1 and copies the meters to station 1.  A station of 1 is not part of a row's hash
(:func:`kiosk.ledger.chain.canonical`), so rows of a single cabinet hash as before.

``meta`` also holds ``head``: the MAC'd head of the last commit (see
:mod:`kiosk.ledger.anchor`).
"""

from __future__ import annotations

from pathlib import Path

import sqlite_utils

from kiosk.ledger.errors import LedgerCorruptError, LedgerError
from kiosk.ledger.meters import CREDITS, METERS
from kiosk.ledger.tickets import TICKET_COLUMNS, _replay_tickets

SCHEMA_VERSION = 2

#: Every table of a ledger.
LEDGER_TABLES = (
    "meta", "meters", "paytables", "rounds", "events", "recovery", "tickets", "station_meters",
)  # fmt: skip
#: The player stations of a table (a single cabinet is station 1).
STATIONS = range(1, 8)


ROUND_COLUMNS: dict[str, type] = {
    "id": int,
    "state": str,  # open | settled | voided
    "started_at": str,
    "settled_at": str,
    "seat": int,
    "paytable": str,  # name and version
    "paytable_sha256": str,
    "ante": int,
    "blind": int,
    "trips": int,
    "play": int,
    "decisions": str,  # JSON [engine Decision dict + "at", ...] (see kiosk.ledger.records)
    "commitment": str,  # sha256(salt + deck), hex, recorded at the deal
    "salt": str,  # hex, published at settlement
    "deck": str,  # 52 cards in deal order, published at settlement
    "player_hole": str,
    "dealer_hole": str,
    "board": str,
    "player_hand": str,
    "player_category": str,
    "dealer_hand": str,
    "dealer_category": str,
    "dealer_qualifies": int,
    "outcome": str,  # win | loss | push | fold | void
    "ante_return": int,
    "blind_return": int,
    "play_return": int,
    "trips_return": int,
    "breakage": int,  # units of 1/breakage_unit cent
    "breakage_unit": int,
    "paid": int,  # cents put on the credit meter at settlement (returns, or refund if voided)
    "jackpot": int,  # cents paid by an attendant instead (jackpot handpay)
    "credits_before": int,  # credit meter before the deal
    "credits_after": int,  # credit meter after the latest step
    "hash": str,
    "mac": str,  # HMAC-SHA256(cabinet key, hash); NULL when written without the key
}
EVENT_COLUMNS: dict[str, type] = {
    "id": int,
    "at": str,
    "kind": str,
    "amount": int,  # cents, 0 when none
    "round_id": int,
    "txn": str,  # device transaction id (bills, tickets, payouts), unique when set
    "detail": str,  # JSON object
    "hash": str,
    "mac": str,  # HMAC-SHA256(cabinet key, hash); NULL when written without the key
    "station": int,  # 1-7: the player station the event is about (hashed unless 1)
}


_TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS meters_never_decrease BEFORE UPDATE ON meters WHEN NEW.value < OLD.value AND OLD.name <> 'credits' BEGIN SELECT RAISE(ABORT, 'a lifetime meter never decreases'); END",
    "CREATE TRIGGER IF NOT EXISTS meters_no_delete BEFORE DELETE ON meters BEGIN SELECT RAISE(ABORT, 'meters are never deleted'); END",
    "CREATE TRIGGER IF NOT EXISTS rounds_frozen BEFORE UPDATE ON rounds WHEN OLD.state <> 'open' BEGIN SELECT RAISE(ABORT, 'a settled round is never changed'); END",
    "CREATE TRIGGER IF NOT EXISTS rounds_no_delete BEFORE DELETE ON rounds BEGIN SELECT RAISE(ABORT, 'rounds are never deleted'); END",
    "CREATE TRIGGER IF NOT EXISTS events_frozen BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are never changed'); END",
    "CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'events are never deleted'); END",
)


def _migrate_0_to_1(db: sqlite_utils.Database) -> None:
    db.table("meta").create({"key": str, "value": str}, pk="key")
    db.table("meters").create({"name": str, "value": int}, pk="name")
    db.table("paytables").create(
        {"sha256": str, "name": str, "version": str, "source": str, "toml": str}, pk="sha256"
    )
    unsigned_rounds = {k: v for k, v in ROUND_COLUMNS.items() if k != "mac"}
    unsigned_events = {k: v for k, v in EVENT_COLUMNS.items() if k not in ("mac", "station")}
    db.table("rounds").create(unsigned_rounds, pk="id", not_null={"state", "hash"})
    db.table("events").create(unsigned_events, pk="id", not_null={"kind", "hash", "amount"})
    db.table("recovery").create({"round_id": int, "deck": str, "salt": str}, pk="round_id")
    db.table("events").create_index(["kind"], index_name="events_kind")
    db.execute("CREATE UNIQUE INDEX events_txn ON events(txn, kind) WHERE txn IS NOT NULL")
    db.conn.executemany(
        "INSERT INTO meters (name, value) VALUES (?, 0)", [(m,) for m in (*METERS, CREDITS)]
    )
    for trigger in _TRIGGERS:
        db.execute(trigger)


_TICKET_TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS tickets_no_delete BEFORE DELETE ON tickets BEGIN SELECT RAISE(ABORT, 'tickets are never deleted'); END",
    "CREATE TRIGGER IF NOT EXISTS tickets_fixed BEFORE UPDATE ON tickets WHEN NEW.validation IS NOT OLD.validation OR NEW.amount IS NOT OLD.amount OR NEW.sequence IS NOT OLD.sequence OR OLD.status IN ('void', 'redeemed') BEGIN SELECT RAISE(ABORT, 'a ticket keeps its number and amount, and a void or redeemed ticket is final'); END",
)


def _migrate_1_to_2(db: sqlite_utils.Database) -> None:
    """Add the ``tickets`` table and fill it from the ticket events already chained."""
    db.table("tickets").create(
        TICKET_COLUMNS, pk="validation", not_null={"sequence", "amount", "status", "issued_at"}
    )
    db.execute("CREATE INDEX tickets_cashout ON tickets(cashout_txn)")
    for trigger in _TICKET_TRIGGERS:
        db.execute(trigger)
    rows, problem = _replay_tickets(db.conn)
    if problem:
        raise LedgerCorruptError(f"cannot build the tickets table: {problem}")
    for row in rows.values():
        db.conn.execute(
            f"INSERT INTO tickets ({', '.join(row)}) VALUES ({', '.join(':' + c for c in row)})",
            row,
        )


_STATION_TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS station_meters_never_decrease BEFORE UPDATE ON station_meters WHEN NEW.value < OLD.value AND OLD.name <> 'credits' BEGIN SELECT RAISE(ABORT, 'a lifetime meter never decreases'); END",
    "CREATE TRIGGER IF NOT EXISTS station_meters_no_delete BEFORE DELETE ON station_meters BEGIN SELECT RAISE(ABORT, 'meters are never deleted'); END",
    "CREATE TRIGGER IF NOT EXISTS station_meters_fixed BEFORE UPDATE ON station_meters WHEN NEW.station IS NOT OLD.station OR NEW.name IS NOT OLD.name BEGIN SELECT RAISE(ABORT, 'a station meter keeps its station and name'); END",
)


def lacks_stations(db: sqlite_utils.Database) -> bool:
    """Whether the ledger predates stations (no ``station_meters`` table yet)."""
    return "station_meters" not in db.table_names()


def _add_stations(db: sqlite_utils.Database) -> None:
    """Stations: a ``station`` on every event (1 for the rows so far) and the
    ``station_meters`` table, station 1 holding the meters so far."""
    db.execute(
        "ALTER TABLE events ADD COLUMN station INTEGER NOT NULL DEFAULT 1 "
        "CHECK (station BETWEEN 1 AND 7)"
    )
    db.execute("CREATE INDEX events_station ON events(station, kind)")
    db.execute(
        "CREATE TABLE station_meters (station INTEGER NOT NULL CHECK (station BETWEEN 1 AND 7), "
        "name TEXT NOT NULL, value INTEGER NOT NULL, PRIMARY KEY (station, name))"
    )
    db.execute(
        "INSERT INTO station_meters (station, name, value) SELECT 1, name, value FROM meters"
    )
    for trigger in _STATION_TRIGGERS:
        db.execute(trigger)


def lacks_row_macs(db: sqlite_utils.Database) -> bool:
    """Whether the chains predate row MACs (no ``mac`` column yet)."""
    return "mac" not in {r[1] for r in db.execute("PRAGMA table_info(events)")}


def _add_row_macs(db: sqlite_utils.Database) -> None:
    """Add the row MAC to both chains.  Rows written before carry none; the first signed
    row of each chain authenticates them through its hash (see :mod:`kiosk.ledger.chain`)."""
    db.execute("ALTER TABLE rounds ADD COLUMN mac TEXT")
    db.execute("ALTER TABLE events ADD COLUMN mac TEXT")


def missing_columns(db: sqlite_utils.Database, path: Path, migrate: bool) -> tuple[bool, bool]:
    """Whether the ledger's chains predate row MACs, and whether it predates stations
    (:func:`upgrade` adds both); refused (:class:`LedgerError`) when it may not be
    migrated (``migrate`` false)."""
    if "events" not in db.table_names():
        return False, False
    unsigned, stationless = lacks_row_macs(db), lacks_stations(db)
    if unsigned and not migrate:
        raise LedgerError(f"{path} predates row MACs; open it read-write to migrate")
    if stationless and not migrate:
        raise LedgerError(f"{path} predates stations; open it read-write to migrate")
    return unsigned, stationless


def _trigger_name(sql: str) -> str:
    return sql.split("IF NOT EXISTS ", 1)[1].split(" ", 1)[0]


#: Every protective trigger by name, with the statement SQLite stores for it.
PROTECTIVE_TRIGGERS: dict[str, str] = {
    _trigger_name(sql): sql.replace("IF NOT EXISTS ", "")
    for sql in (*_TRIGGERS, *_TICKET_TRIGGERS, *_STATION_TRIGGERS)
}

#: MIGRATIONS[v] takes a database at schema version v to v + 1.
MIGRATIONS = [_migrate_0_to_1, _migrate_1_to_2]
assert len(MIGRATIONS) == SCHEMA_VERSION


def check_version(path: Path, version: int, migrate: bool) -> None:
    """Refuse a database at schema ``version`` that this software cannot use: a newer
    one, or an older one when it may not be migrated (``migrate`` false)."""
    if version > SCHEMA_VERSION:
        raise LedgerError(
            f"{path} has schema version {version}; this software knows "
            f"up to {SCHEMA_VERSION}: update the software"
        )
    if version < SCHEMA_VERSION and not migrate:
        raise LedgerError(f"{path} has schema version {version}; open it read-write to migrate")


def upgrade(db: sqlite_utils.Database, version: int) -> None:
    """Take a database at schema ``version`` to :data:`SCHEMA_VERSION`, then add the row
    MAC columns and the stations if missing (inside the caller's transaction), in that
    order, so every ledger has its columns in one order."""
    for v in range(version, SCHEMA_VERSION):
        MIGRATIONS[v](db)
    if lacks_row_macs(db):
        _add_row_macs(db)
    if lacks_stations(db):
        _add_stations(db)
    db.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
        (str(SCHEMA_VERSION),),
    )
