"""The ``tickets`` table as a function of the ticket events: its columns, which events
touch a ticket, the allowed status changes, and the table rebuilt from the event log."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from kiosk.ledger.errors import LedgerError
from kiosk.ledger.kinds import EventKind

TICKET_COLUMNS: dict[str, type] = {
    "validation": str,  # 18 digits, the primary key
    "sequence": int,  # TICKET # printed on it: 1, 2, ... on this cabinet
    "amount": int,  # cents
    "status": str,  # pending (row written, not yet known printed) | issued | void | redeemed
    "issued_at": str,  # when the row was written, before printing
    "expires_on": str,  # YYYY-MM-DD (valid through that day); NULL: does not expire
    "printed_at": str,  # when the printer reported the validation number done
    "voided_at": str,
    "redeemed_at": str,
    "void_reason": str,
    "cashout_txn": str,  # the cash-out (payout) transaction that issued it
    "redeem_txn": str,  # the validator transaction that redeemed it
    "issue_event": int,  # events.id of the ticket_issue (or of a ticket_out without one)
    "print_event": int,  # events.id of the ticket_out
    "close_event": int,  # events.id of the ticket_void or ticket_in
}
#: The event kinds that change the ``tickets`` table, and the detail key naming the ticket.
TICKET_EVENTS: dict[str, str] = {
    EventKind.TICKET_ISSUE: "validation",
    EventKind.TICKET_OUT: "reference",
    EventKind.TICKET_VOID: "validation",
    EventKind.TICKET_IN: "validation",
}
TICKET_STATUSES = ("pending", "issued", "void", "redeemed")


def _is_validation(number: object) -> bool:
    return isinstance(number, str) and len(number) == 18 and number.isascii() and number.isdigit()


def ticket_effect(
    event: Mapping[str, Any], row: Mapping[str, Any] | None, next_sequence: int
) -> dict[str, Any] | None:
    """The ``tickets`` row after ``event`` (``id``, ``at``, ``kind``, ``amount``, ``txn``
    and ``detail`` as a dict), given the ticket's row before it (None if it has none).

    Returns None when the event does not touch a ticket.  Raises :class:`LedgerError`
    when the change is not allowed, so the event is never written: a ticket is issued
    once, printed only while pending (never after being voided or printed), voided only
    while pending and redeemed once, for its own amount.  ``next_sequence`` numbers a
    ticket printed without a ``ticket_issue`` before it (ledgers of schema 1).
    """
    kind = event["kind"]
    key = TICKET_EVENTS.get(kind)
    if key is None:
        return None
    detail = event["detail"]
    number = detail.get(key)
    if not _is_validation(number):
        raise LedgerError(f"{kind}: {number!r} is not an 18-digit validation number")
    at, eid, amount = event["at"], event["id"], event["amount"]
    status = None if row is None else row["status"]
    if kind == EventKind.TICKET_ISSUE:
        if row is not None:
            raise LedgerError(f"ticket {number} was already issued")
        if amount <= 0:
            raise LedgerError(f"ticket {number}: an amount must be positive")
        new: dict[str, Any] = {c: None for c in TICKET_COLUMNS}
        new.update(
            validation=number,
            sequence=int(detail.get("sequence") or next_sequence),
            amount=amount,
            status="pending",
            issued_at=at,
            expires_on=detail.get("expires_on"),
            cashout_txn=event["txn"],
            issue_event=eid,
        )
        return new
    if kind == EventKind.TICKET_OUT:
        if row is None:  # printed by a strategy that did not record it first (schema 1)
            new = {c: None for c in TICKET_COLUMNS}
            new.update(
                validation=number,
                sequence=next_sequence,
                amount=amount,
                issued_at=at,
                cashout_txn=event["txn"],
                issue_event=eid,
            )
        elif status != "pending":
            raise LedgerError(f"ticket {number} is {status}: it cannot be printed again")
        elif row["amount"] != amount:
            raise LedgerError(f"ticket {number} is for {row['amount']} cents, not {amount}")
        else:
            new = dict(row)
        new.update(status="issued", printed_at=at, print_event=eid)
        return new
    if row is None:
        raise LedgerError(f"ticket {number} was never issued here")
    if kind == EventKind.TICKET_VOID:
        if status != "pending":
            raise LedgerError(f"ticket {number} is {status}: only a pending ticket is voided")
        new = dict(row)
        new.update(
            status="void",
            voided_at=at,
            void_reason=str(detail.get("reason", "")),
            close_event=eid,
        )
        return new
    # ticket_in
    if status != "issued":
        raise LedgerError(f"ticket {number} is {status}: it cannot be redeemed")
    if row["amount"] != amount:
        raise LedgerError(f"ticket {number} is for {row['amount']} cents, not {amount}")
    new = dict(row)
    new.update(status="redeemed", redeemed_at=at, redeem_txn=event["txn"], close_event=eid)
    return new


def ticket_row(conn: sqlite3.Connection, validation: str) -> dict[str, Any] | None:
    """The ``tickets`` row of ``validation`` as a dict of :data:`TICKET_COLUMNS`, if any."""
    cur = conn.execute("SELECT * FROM tickets WHERE validation = ?", (validation,))
    values = cur.fetchone()
    if values is None:
        return None
    row = dict(zip([d[0] for d in cur.description], values, strict=True))
    return {c: row.get(c) for c in TICKET_COLUMNS}


def ticket_change(
    conn: sqlite3.Connection, row: Mapping[str, Any], detail: dict[str, Any]
) -> dict[str, Any] | None:
    """The ``tickets`` row that the event ``row`` (with its ``detail`` as a dict) writes
    (None if it touches no ticket); raises :class:`LedgerError` before anything is
    written if the change is not allowed (:func:`ticket_effect`)."""
    key = TICKET_EVENTS.get(row["kind"])
    if key is None:
        return None
    number = detail.get(key)
    current = ticket_row(conn, number) if isinstance(number, str) else None
    top = conn.execute("SELECT COALESCE(MAX(sequence), 0) FROM tickets").fetchone()[0]
    return ticket_effect({**row, "detail": detail}, current, top + 1)


def _replay_tickets(conn: sqlite3.Connection) -> tuple[dict[str, dict[str, Any]], str]:
    """The ``tickets`` table as the ticket events build it, and the first problem (if any)."""
    rows: dict[str, dict[str, Any]] = {}
    top = 0
    kinds = ", ".join("?" * len(TICKET_EVENTS))
    cur = conn.execute(
        f"SELECT id, at, kind, amount, txn, detail FROM events WHERE kind IN ({kinds}) ORDER BY id",
        tuple(TICKET_EVENTS),
    )
    for eid, at, kind, amount, txn, detail in cur:
        event = {
            "id": eid,
            "at": at,
            "kind": kind,
            "amount": amount,
            "txn": txn,
            "detail": json.loads(detail),
        }
        number = event["detail"].get(TICKET_EVENTS[kind])
        try:
            new = ticket_effect(event, rows.get(number), top + 1)
        except LedgerError as exc:
            return rows, f"events {eid}: {exc.reason}"
        assert new is not None
        rows[new["validation"]] = new
        top = max(top, new["sequence"])
    return rows, ""
