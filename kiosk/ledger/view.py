"""A read-only view of an open ledger: rounds, events, tickets, paytables and the open
round's recovery deck, read from one SQLite connection.  Cards are ints (see
:mod:`engine.cards`); money is integer cents.

:class:`LedgerView` owns only its connection and reads nothing into memory, so it sees
every committed write; :class:`~kiosk.ledger.ledger.Ledger` extends it with the writes.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.cards import parse_cards
from engine.uth.paytable import Limits, Paytable, PaytableError, parse_paytable
from kiosk.ledger.anchor import Head
from kiosk.ledger.chain import GENESIS, chain_hash
from kiosk.ledger.errors import LedgerCorruptError, LedgerError
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.records import EventRecord, RoundRecord, TicketRecord
from kiosk.ledger.tickets import TICKET_EVENTS, ticket_effect

#: Tickets with the station that issued each (the station of its issue event).
_TICKETS = (
    "SELECT * FROM (SELECT tickets.*, COALESCE(events.station, 1) AS station FROM tickets "
    "LEFT JOIN events ON events.id = tickets.issue_event)"
)


class LedgerView:
    """Reads of the ledger on ``conn`` (the database file ``path``).

    With the cabinet ``key`` every event row read (:meth:`events`, :meth:`last_event`,
    and so the state power-up rebuilds from them) is authenticated as it is read: its
    hash recomputed from the row and the stored hash of the event before it, and its
    MAC checked; a row that fails raises :class:`LedgerCorruptError`.  A row before
    the latest checkpoint is thus never trusted because power-up did not walk it."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self.key: CabinetKey | None = None
        self._unsigned_events: int | None = None  # events before row MACs (migrated)

    def stored_head(self) -> Head | None:
        """The head the last commit wrote into ``meta`` (None in a ledger that has none)."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'head'").fetchone()
        return None if row is None else Head.from_json(row[0], f"{self.path}: meta head")

    # -- tickets -----------------------------------------------------------------------------
    def ticket(self, validation: str) -> TicketRecord | None:
        """The ticket issued here with ``validation``, if any."""
        cur = self.conn.execute(f"{_TICKETS} WHERE validation = ?", (validation,))
        values = cur.fetchone()
        if values is None:
            return None
        names = [d[0] for d in cur.description]
        return TicketRecord.from_row(dict(zip(names, values, strict=True)))

    def ticket_for_cashout(self, txn: str) -> TicketRecord | None:
        """The ticket issued for the cash-out ``txn`` (at most one), if any."""
        row = self.conn.execute(
            "SELECT validation FROM tickets WHERE cashout_txn = ? ORDER BY issue_event DESC LIMIT 1",
            (txn,),
        ).fetchone()
        return None if row is None else self.ticket(row[0])

    def tickets(
        self, last: int | None = None, status: str | None = None, station: int | None = None
    ) -> list[TicketRecord]:
        """Tickets by sequence number (the last ``last`` of them), optionally of one status
        or issued at one station."""
        conds: list[str] = ["1"]
        params: list[Any] = []
        if status:
            conds, params = [*conds, "status = ?"], [*params, status]
        if station is not None:
            conds, params = [*conds, "station = ?"], [*params, station]
        where = "WHERE " + " AND ".join(conds)
        tail = f"ORDER BY sequence DESC LIMIT {int(last)}" if last else "ORDER BY sequence"
        cur = self.conn.execute(f"{_TICKETS} {where} {tail}", params)
        names = [d[0] for d in cur.description]
        rows = [TicketRecord.from_row(dict(zip(names, r, strict=True))) for r in cur.fetchall()]
        return rows[::-1] if last else rows

    def next_ticket_sequence(self) -> int:
        top = self.conn.execute("SELECT COALESCE(MAX(sequence), 0) FROM tickets").fetchone()[0]
        return int(top) + 1

    def validation_taken(self, validation: str) -> bool:
        """Whether ``validation`` was ever used on this cabinet (issued, or seen in an event)."""
        return self.ticket(validation) is not None

    def unredeemed_ticket(self, validation: str) -> int | None:
        """The amount of the ticket issued here with ``validation`` if it is printed and
        not yet redeemed (status ``issued``), else None.  See :meth:`checked_ticket`."""
        ticket = self.checked_ticket(validation)
        return ticket.amount if ticket is not None and ticket.status == "issued" else None

    def checked_ticket(self, validation: str) -> TicketRecord | None:
        """:meth:`ticket`, cross-checked against the chained events that made it: raises
        :class:`LedgerCorruptError` if the row says otherwise (an edited ``tickets`` row
        must not validate a ticket even before the next full verification)."""
        ticket = self.ticket(validation)
        kinds = ", ".join("?" * len(TICKET_EVENTS))
        cur = self.conn.execute(
            f"SELECT id, at, kind, amount, txn, detail FROM events WHERE kind IN ({kinds}) "
            "AND (json_extract(detail, '$.validation') = ? OR json_extract(detail, '$.reference') = ?) "
            "ORDER BY id",
            (*TICKET_EVENTS, validation, validation),
        )
        row: dict[str, Any] | None = None
        for eid, at, kind, amount, txn, detail in cur:
            event = {"id": eid, "at": at, "kind": kind, "amount": amount, "txn": txn}
            event["detail"] = json.loads(detail)
            if event["detail"].get(TICKET_EVENTS[kind]) != validation:
                continue
            try:
                row = ticket_effect(event, row, 0)
            except LedgerError as exc:
                raise LedgerCorruptError(exc.reason, f"events {eid}") from None
        if row is None and ticket is None:
            return None
        fields = ("amount", "status", "issue_event", "print_event", "close_event")
        if row is None or ticket is None or any(row[f] != getattr(ticket, f) for f in fields):
            raise LedgerCorruptError(
                "the tickets row does not match the events that made it", f"tickets {validation}"
            )
        return ticket

    def has_txn(self, txn: str, kind: EventKind) -> bool:
        return (
            self.conn.execute(
                "SELECT 1 FROM events WHERE txn = ? AND kind = ?", (txn, kind)
            ).fetchone()
            is not None
        )

    def txn_station(self, txn: str, kind: EventKind) -> int | None:
        """The station of the ``kind`` event of transaction ``txn`` (None when there is
        none)."""
        row = self.conn.execute(
            "SELECT station FROM events WHERE txn = ? AND kind = ?", (txn, kind)
        ).fetchone()
        return None if row is None else int(row[0])

    def table_in_force(self) -> tuple[Paytable, Limits]:
        """The paytable in force and the limits in force (the paytable's own, or the
        narrower ones of the last ``limits_changed`` after it), as the events record."""
        config_event = self.last_event(
            EventKind.LEDGER_CREATED, EventKind.PAYTABLE_CHANGED, EventKind.LIMITS_CHANGED
        )
        table_event = self.last_event(EventKind.LEDGER_CREATED, EventKind.PAYTABLE_CHANGED)
        if config_event is None or table_event is None:
            raise LedgerCorruptError("no paytable was ever put in force", "events")
        sha = table_event.detail.get("paytable") or table_event.detail["new"]["sha256"]
        paytable = self.paytable(sha)
        limits = paytable.limits
        if config_event.kind == EventKind.LIMITS_CHANGED:
            limits = Limits.model_validate(config_event.detail["new"])
        return paytable, limits

    def paytable_text(self, sha256: str) -> str | None:
        """The TOML text of the paytable ``sha256`` as stored (None when absent); callers
        that send it check it against the hash."""
        row = self.conn.execute("SELECT toml FROM paytables WHERE sha256 = ?", (sha256,)).fetchone()
        return None if row is None else str(row[0])

    def paytable(self, sha256: str) -> Paytable:
        row = self.conn.execute(
            "SELECT toml, source FROM paytables WHERE sha256 = ?", (sha256,)
        ).fetchone()
        if row is None:
            raise LedgerCorruptError(f"paytable {sha256} is not in the ledger", "paytables")
        try:
            table = parse_paytable(row[0], row[1])
        except PaytableError as exc:
            raise LedgerCorruptError(
                f"stored paytable does not parse: {exc}", f"paytables {sha256}"
            ) from None
        if table.sha256 != sha256:
            raise LedgerCorruptError(
                "stored paytable text does not match its SHA-256", f"paytables {sha256}"
            )
        return table

    # -- reading ----------------------------------------------------------------------------------
    def iter_round_rows(self, tail: str, params: tuple[Any, ...] = ()) -> Iterator[dict[str, Any]]:
        cur = self.conn.execute(f"SELECT * FROM rounds {tail}", params)
        names = [d[0] for d in cur.description]
        for values in cur:
            yield dict(zip(names, values, strict=True))

    def round_rows(self, tail: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        return list(self.iter_round_rows(tail, params))

    def recovery_text(self, round_id: int) -> tuple[str, str]:
        """The open round ``round_id``'s recovery deck and salt as stored (run-together
        cards, hex)."""
        row = self.conn.execute(
            "SELECT deck, salt FROM recovery WHERE round_id = ?", (round_id,)
        ).fetchone()
        if row is None:
            raise LedgerCorruptError("the open round has no recovery deck", f"rounds {round_id}")
        return str(row[0]), str(row[1])

    def recovery_deck(self, round_id: int) -> tuple[list[int], bytes]:
        deck, salt = self.recovery_text(round_id)
        return parse_cards(deck), bytes.fromhex(salt)

    def recall(self, last: int = 10, station: int | None = None) -> list[RoundRecord]:
        """The last ``last`` rounds, most recent first: the table's, or with ``station``
        only that station's seat (each row holds one seat and the dealer)."""
        where, params = ("WHERE seat = ? ", (station,)) if station is not None else ("", ())
        rows = self.round_rows(f"{where}ORDER BY id DESC LIMIT ?", (*params, last))
        return [RoundRecord.from_row(r) for r in rows]

    def station_meter_readings(self, station: int) -> dict[str, int]:
        """Station ``station``'s meters as stored (cents or counts; empty for a station
        that never had a row)."""
        cur = self.conn.execute(
            "SELECT name, value FROM station_meters WHERE station = ?", (station,)
        )
        return {name: int(value) for name, value in cur}

    def stations(self) -> list[int]:
        """The stations that have meters, ascending."""
        cur = self.conn.execute("SELECT DISTINCT station FROM station_meters ORDER BY station")
        return [int(s) for (s,) in cur]

    def round(self, round_id: int) -> RoundRecord | None:
        rows = self.round_rows("WHERE id = ?", (round_id,))
        return RoundRecord.from_row(rows[0]) if rows else None

    def last_settled(self) -> RoundRecord | None:
        rows = self.round_rows("WHERE state <> 'open' ORDER BY id DESC LIMIT 1")
        return RoundRecord.from_row(rows[0]) if rows else None

    def events(
        self,
        kinds: tuple[EventKind, ...] = (),
        after: int = 0,
        last: int | None = None,
        station: int | None = None,
        validation: str | None = None,
    ) -> list[EventRecord]:
        """Events after id ``after`` of ``kinds`` (all when empty), only ``station``'s
        when given, only those whose detail names the ticket ``validation`` when given
        (selected by SQLite: the others are neither read nor authenticated), the ``last``
        ones if given; in id order."""
        where = "WHERE e.id > ?"
        params: list[Any] = [after]
        if station is not None:
            where += " AND e.station = ?"
            params.append(station)
        if validation is not None:
            where += " AND json_extract(e.detail, '$.validation') = ?"
            params.append(validation)
        if kinds:
            where += f" AND e.kind IN ({', '.join('?' * len(kinds))})"
            params += list(kinds)
        order = f"ORDER BY e.id DESC LIMIT {int(last)}" if last else "ORDER BY e.id"
        cur = self.conn.execute(
            "SELECT e.*, p.hash AS prev_hash FROM events e "
            f"LEFT JOIN events p ON p.id = e.id - 1 {where} {order}",
            params,
        )
        names = [d[0] for d in cur.description]
        rows = []
        for values in cur.fetchall():
            row = dict(zip(names, values, strict=True))
            prev = row.pop("prev_hash")
            self._authenticate(row, GENESIS if row["id"] == 1 else prev)
            rows.append(EventRecord.from_row(row))
        return rows[::-1] if last else rows

    def _authenticate(self, row: dict[str, Any], prev: str | None) -> None:
        """Raise :class:`LedgerCorruptError` unless the event ``row`` (with the stored
        hash ``prev`` of the event before it) hashes to its stored hash and, with the
        key, carries the key's MAC of it (a row written before MACs, in a migrated
        ledger, is taken on its hash alone)."""
        if self.key is None:
            return
        where = f"events {row['id']}"
        if prev is None or chain_hash(prev, row) != row["hash"]:
            raise LedgerCorruptError(
                "hash does not match the row (edited outside the cabinet)", where
            )
        if self.key.check(row["hash"], row["mac"]):
            return
        if row["mac"] is None and row["id"] <= self._unsigned_prefix():
            return
        raise LedgerCorruptError("MAC does not match: not written with this cabinet's key", where)

    def _unsigned_prefix(self) -> int:
        """The last event id written before row MACs existed (0 when none)."""
        if self._unsigned_events is None:
            found = 0
            for eid, detail in self.conn.execute(
                "SELECT id, detail FROM events WHERE kind = ? ORDER BY id",
                (EventKind.SCHEMA_MIGRATED,),
            ):
                info = json.loads(detail)
                if "unsigned_events" in info:
                    found = min(int(info["unsigned_events"]), int(eid) - 1)
                    break
            self._unsigned_events = found
        return self._unsigned_events

    def last_event(self, *kinds: EventKind) -> EventRecord | None:
        found = self.events(kinds, last=1)
        return found[0] if found else None
