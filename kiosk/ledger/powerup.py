"""The power-up verification: bounded by the latest checkpoint.

With no checkpoint yet the whole ledger is walked (:meth:`Verifier.run` without the deck
check).  With one (:mod:`kiosk.ledger.checkpoint`), power-up trusts what the signed
checkpoint records about the rows before it and checks, in time proportional to the
rows since it (and one pass over the ``tickets`` table):

* the checkpoint event and every event after it: hash chain from the stored hash of the
  event before it, and each MAC with the key (so a checkpoint edited, forged or
  deleted breaks the chain or its MAC);
* the round row the checkpoint ends at still has the hash it records, and the rounds
  chain from there (so rounds re-chained before the checkpoint are caught);
* the rounds after it (states, arithmetic, the open round's recovery deck);
* every meter equal to the checkpoint's totals plus what the rows since add up to, each
  station's meters likewise (after a checkpoint written before stations: their sums
  equal to the table meters and each station's balance);
* the ``tickets`` table: the tickets touched since are rebuilt from their events, and
  the digest of the whole table, with those rows taken back to their state at the
  checkpoint, equals the checkpoint's; the ticket meters against the table;
* the stored paytables' SHA-256 and every protective trigger;
* the events the state is rebuilt from (paytable and limits in force, tilts, door,
  payouts, operators: :data:`~kiosk.ledger.checkpoint.STATE_KINDS`) before the
  checkpoint against the count and digest it records; each of them is authenticated
  by its own hash and MAC as restore reads it (:class:`~kiosk.ledger.view.LedgerView`).

What only ``uth audit verify`` (the full walk) catches: a row before the checkpoint
edited without re-chaining the rows after it, the SQLite page-level integrity check, and
the published decks against their commitments.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from kiosk.ledger.checkpoint import (
    Checkpoint,
    combine,
    last_checkpoint,
    state_digest,
    ticket_hash,
    ticket_row_hash,
    ticket_rows_json,
    tickets_digest,
)
from kiosk.ledger.errors import LedgerError
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.records import VerifyReport
from kiosk.ledger.schema import EVENT_COLUMNS, ROUND_COLUMNS
from kiosk.ledger.stations import check_station_meters, station_row_totals
from kiosk.ledger.tickets import TICKET_COLUMNS, TICKET_EVENTS, ticket_effect
from kiosk.ledger.verify import Verifier
from kiosk.ledger.view import LedgerView

_KINDS = ", ".join("?" * len(TICKET_EVENTS))


def power_up_verify(view: LedgerView, ledger_id: str, key: CabinetKey | None) -> VerifyReport:
    """Verify the ledger read through ``view`` as power-up does (see the module
    docstring); never raises for a bad ledger."""
    checks = Verifier(view, ledger_id, key)
    try:
        cp = last_checkpoint(view.conn)
    except LedgerError as exc:
        return VerifyReport(False, 0, 0, exc.reason)
    except sqlite3.DatabaseError as exc:
        return VerifyReport(False, 0, 0, f"SQLite: {exc} (damaged or truncated file)")
    if cp is None:
        return checks.run(decks=False)
    return _since(checks, cp)


def _since(checks: Verifier, cp: Checkpoint) -> VerifyReport:
    conn = checks.conn
    rounds = events = 0
    try:
        problem = checks.check_layout()
        if problem:
            return VerifyReport(False, 0, 0, problem)
        checks.load_unsigned_prefix()
        if cp.rounds:
            row = conn.execute("SELECT hash FROM rounds WHERE id = ?", (cp.rounds,)).fetchone()
            if row is None or row[0] != cp.round_head:
                return VerifyReport(
                    False,
                    0,
                    0,
                    f"rounds {cp.rounds}: not the row checkpoint events {cp.event_id} records "
                    "(rounds before it changed or removed)",
                )
        problem, rounds, last_state = checks.walk_chain(
            "rounds", ROUND_COLUMNS, cp.rounds + 1, cp.round_head
        )
        if problem:
            return VerifyReport(False, rounds, 0, problem)
        before = conn.execute("SELECT hash FROM events WHERE id = ?", (cp.event_id - 1,)).fetchone()
        if before is None:
            return VerifyReport(False, rounds, 0, f"events {cp.event_id - 1}: missing")
        problem, events, _ = checks.walk_chain("events", EVENT_COLUMNS, cp.event_id, before[0])
        if problem:
            return VerifyReport(False, rounds, events, problem)
        problem = checks.check_first_event() or checks.check_rounds(cp.rounds, rounds, last_state)
        if problem:
            return VerifyReport(False, rounds, events, problem)
        problem, stored = checks.check_meters(checks.row_totals(cp.event_id, cp.rounds, cp.totals))
        if problem:
            return VerifyReport(False, rounds, events, problem, stored or None)
        stations = None
        if cp.stations is not None:
            stations = station_row_totals(conn, cp.event_id, cp.rounds, cp.stations)
        problem = check_station_meters(conn, stored, stations)
        if problem:
            return VerifyReport(False, rounds, events, problem, stored)
        problem = checks.check_paytables() or check_state_events(conn, cp)
        if problem:
            return VerifyReport(False, rounds, events, problem, stored)
        problem, tickets = check_tickets_since(conn, cp, stored)
        if not problem:
            problem = checks.check_triggers()
        if problem:
            return VerifyReport(False, rounds, events, problem, stored, tickets)
    except sqlite3.DatabaseError as exc:
        return VerifyReport(False, rounds, events, f"SQLite: {exc} (damaged or truncated file)")
    except LedgerError as exc:
        return VerifyReport(False, rounds, events, exc.reason)
    except ValueError as exc:  # unreadable JSON in a row
        return VerifyReport(False, rounds, events, f"unreadable value: {exc}")
    return VerifyReport(True, rounds, events, "", stored, tickets, checks.key is not None)


def check_state_events(conn: sqlite3.Connection, cp: Checkpoint) -> str:
    """The events the state is rebuilt from (:data:`STATE_KINDS`) before checkpoint
    ``cp`` are the ones it records ("" when they are, or ``cp`` predates the record)."""
    if cp.state is None:
        return ""
    if state_digest(conn, cp.event_id) != cp.state:
        return (
            f"events before checkpoint events {cp.event_id}: the events the cabinet's state "
            "is rebuilt from are not the ones the checkpoint records (removed, added or "
            "replaced outside the cabinet)"
        )
    return ""


def _event(row: tuple[Any, ...]) -> dict[str, Any]:
    eid, at, kind, amount, txn, detail = row
    return {
        "id": eid,
        "at": at,
        "kind": kind,
        "amount": amount,
        "txn": txn,
        "detail": json.loads(detail),
    }


def _ticket_row(conn: sqlite3.Connection, number: str) -> dict[str, Any] | None:
    cur = conn.execute("SELECT * FROM tickets WHERE validation = ?", (number,))
    row = cur.fetchone()
    if row is None:
        return None
    return dict(zip([d[0] for d in cur.description], row, strict=True))


def _state_at(
    conn: sqlite3.Connection, row: Mapping[str, Any], cp_id: int
) -> dict[str, Any] | None:
    """Ticket ``row`` as the events before checkpoint ``cp_id`` that it names left it
    (None when none of them is before the checkpoint)."""
    ids = sorted(
        i for i in (row["issue_event"], row["print_event"], row["close_event"]) if i and i < cp_id
    )
    state: dict[str, Any] | None = None
    for eid in ids:
        found = conn.execute(
            "SELECT id, at, kind, amount, txn, detail FROM events WHERE id = ?", (eid,)
        ).fetchone()
        if found is None:
            raise LedgerError(f"tickets {row['validation']}: names events {eid}, which is missing")
        state = ticket_effect(_event(found), state, row["sequence"])
    return state


def check_tickets_since(
    conn: sqlite3.Connection, cp: Checkpoint, meters: Mapping[str, int]
) -> tuple[str, int]:
    """The ``tickets`` table against checkpoint ``cp`` and the ticket events after it, and
    the ticket meters against the table; returns (first problem, number of tickets)."""
    count = conn.execute("SELECT COUNT(*) FROM tickets").fetchone()[0]
    since = [
        _event(r)
        for r in conn.execute(
            "SELECT id, at, kind, amount, txn, detail FROM events "
            f"WHERE id > ? AND +kind IN ({_KINDS}) ORDER BY id",
            (cp.event_id, *TICKET_EVENTS),
        )
    ]
    touched = list(dict.fromkeys(str(e["detail"].get(TICKET_EVENTS[e["kind"]])) for e in since))
    current = {n: _ticket_row(conn, n) for n in touched}
    at_checkpoint: dict[str, dict[str, Any] | None] = {}
    for number, row in current.items():
        try:
            at_checkpoint[number] = None if row is None else _state_at(conn, row, cp.event_id)
        except LedgerError as exc:
            return (
                f"tickets {number}: its events before the checkpoint do not rebuild it ({exc.reason})",
                count,
            )
    rows = {n: r for n, r in at_checkpoint.items() if r is not None}
    top = cp.tickets_top
    for event in since:
        number = event["detail"].get(TICKET_EVENTS[event["kind"]])
        try:
            new = ticket_effect(
                event, rows.get(number) if isinstance(number, str) else None, top + 1
            )
        except LedgerError as exc:
            return f"events {event['id']}: {exc.reason}", count
        assert new is not None
        rows[new["validation"]] = new
        top = max(top, new["sequence"])
    for number in touched:
        have, want = current[number], rows.get(number)
        if have is None:
            return f"tickets {number}: missing (its events are in the log)", count
        assert want is not None
        for col in TICKET_COLUMNS:
            if have[col] != want[col]:
                return (
                    f"tickets {number}: {col} is {have[col]!r}, the events say {want[col]!r}",
                    count,
                )
    digest, _ = tickets_digest(conn)
    rendered = ticket_rows_json(conn, touched)
    back = combine(
        [digest, *(-ticket_hash(t) for t in rendered.values())]
        + [ticket_row_hash(r) for r in at_checkpoint.values() if r is not None]
    )
    if back != int(cp.tickets, 16):
        return (
            f"tickets: the table is not the one checkpoint events {cp.event_id} records plus "
            "the ticket events since (a ticket row edited, added or removed)",
            count,
        )
    for meter, where, what in (
        ("tickets_out", "print_event IS NOT NULL", "SUM(amount)"),
        ("tickets_out_count", "print_event IS NOT NULL", "COUNT(*)"),
        ("tickets_in", "status = 'redeemed'", "SUM(amount)"),
        ("tickets_in_count", "status = 'redeemed'", "COUNT(*)"),
    ):
        value = conn.execute(f"SELECT COALESCE({what}, 0) FROM tickets WHERE {where}").fetchone()[0]
        if meters.get(meter, 0) != value:
            return (
                f"meter {meter}: is {meters.get(meter, 0)}, the tickets table adds up to {value}",
                count,
            )
    return "", count
