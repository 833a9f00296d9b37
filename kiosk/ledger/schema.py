"""The ledger's tables: schema version, column types, triggers and the migrations
that take an older database to the current version."""

from __future__ import annotations

import sqlite_utils

from kiosk.ledger.errors import LedgerCorruptError
from kiosk.ledger.meters import CREDITS, METERS
from kiosk.ledger.tickets import TICKET_COLUMNS, _replay_tickets

SCHEMA_VERSION = 2


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
    db.table("rounds").create(ROUND_COLUMNS, pk="id", not_null={"state", "hash"})
    db.table("events").create(EVENT_COLUMNS, pk="id", not_null={"kind", "hash", "amount"})
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


#: MIGRATIONS[v] takes a database at schema version v to v + 1.
MIGRATIONS = [_migrate_0_to_1, _migrate_1_to_2]
assert len(MIGRATIONS) == SCHEMA_VERSION
