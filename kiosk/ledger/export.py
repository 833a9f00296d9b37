"""The ledger exported for a regulator: raw rows with their hashes (so the chains can be
re-verified independently), as CSV (one table) or JSON (the meta and one or all tables).

JSON form: one object ``{"ledger_id": ..., "meta": {...}, "rounds": [...], "events":
[...], "meters": [...], "tickets": [...]}`` (keys sorted within each row, one row per
line).  CSV form: a header line then one line per row of one table.  Money is integer
cents, as stored.

With ``mask`` the validation numbers of outstanding tickets (pending or issued: still
redeemable) are masked to their last four digits wherever they appear (the tickets'
rows, events' details and transactions), so an export cannot be used to redeem a
ticket; those rows' hashes then no longer re-compute, and the JSON head says
``"masked": "outstanding tickets"``.  Void and redeemed tickets are shown in full.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Literal, TextIO

from kiosk.ledger.ledger import Ledger
from kiosk.ledger.masking import mask_numbers

#: The tables an export may hold, in the order of a full JSON export.
EXPORT_TABLES = ("rounds", "events", "meters", "tickets")

ExportFormat = Literal["csv", "json"]


#: Each table's rows of one station: (SQL condition on a row, what a row shows).
_STATION_ROWS = {
    "rounds": "seat = ?",
    "events": "station = ?",
    "tickets": "(SELECT station FROM events WHERE events.id = tickets.issue_event) = ?",
}


def export_rows(ledger: Ledger, table: str, station: int | None = None) -> Iterator[dict[str, Any]]:
    """The rows of ``table`` (one of :data:`EXPORT_TABLES`) as stored: meters by name,
    tickets by sequence number, rounds and events by id.  With ``station`` only that
    station's: its seat's rounds, its events, the tickets it issued and its meters."""
    if table not in EXPORT_TABLES:
        raise ValueError(f"cannot export table {table!r} (one of {', '.join(EXPORT_TABLES)})")
    if table == "meters":
        if station is None:
            cur = ledger.conn.execute("SELECT name, value FROM meters ORDER BY name")
        else:
            cur = ledger.conn.execute(
                "SELECT name, value FROM station_meters WHERE station = ? ORDER BY name",
                (station,),
            )
        for name, value in cur:
            yield {"name": name, "value": value}
        return
    order = "sequence" if table == "tickets" else "id"
    where, params = ("", ()) if station is None else (f"WHERE {_STATION_ROWS[table]} ", (station,))
    cur = ledger.conn.execute(f"SELECT * FROM {table} {where}ORDER BY {order}", params)
    names = [d[0] for d in cur.description]
    for values in cur:
        yield dict(zip(names, values, strict=True))


def outstanding_numbers(ledger: Ledger) -> frozenset[str]:
    """The validation numbers of the tickets still redeemable (pending or issued)."""
    cur = ledger.conn.execute(
        "SELECT validation FROM tickets WHERE status IN ('pending', 'issued')"
    )
    return frozenset(str(v) for (v,) in cur)


def _rows(
    ledger: Ledger, table: str, station: int | None, hidden: frozenset[str]
) -> Iterator[dict[str, Any]]:
    rows = export_rows(ledger, table, station)
    if not hidden:
        return rows
    return (mask_numbers(row, hidden) for row in rows)


def _write_csv(out: TextIO, rows: Iterator[Mapping[str, Any]]) -> None:
    writer = None
    for row in rows:
        if writer is None:
            writer = csv.DictWriter(out, fieldnames=list(row))
            writer.writeheader()
        writer.writerow(row)


def write_export(
    ledger: Ledger,
    out: TextIO,
    *,
    fmt: ExportFormat = "json",
    table: str | None = None,
    station: int | None = None,
    mask: bool = False,
) -> None:
    """Write the export to the open text stream ``out``: CSV of ``table`` (default
    ``rounds``), or JSON of ``table`` (default: all of :data:`EXPORT_TABLES`); with
    ``station`` only that station's rows (see :func:`export_rows`; the JSON names it);
    with ``mask`` the outstanding tickets' numbers masked (see the module)."""
    hidden = outstanding_numbers(ledger) if mask else frozenset()
    if fmt == "csv":
        _write_csv(out, _rows(ledger, table or "rounds", station, hidden))
        return
    head: dict[str, Any] = {"ledger_id": ledger.ledger_id, "meta": ledger.meta}
    if station is not None:
        head["station"] = station
    if mask:
        head["masked"] = "outstanding tickets"
    out.write(json.dumps(head, sort_keys=True)[:-1])
    for name in [table] if table else EXPORT_TABLES:
        out.write(f', "{name}": [')
        for i, row in enumerate(_rows(ledger, name, station, hidden)):
            out.write(("," if i else "") + "\n" + json.dumps(row, sort_keys=True))
        out.write("]")
    out.write("}\n")


def export_ledger(
    ledger: Ledger,
    path: str | Path,
    *,
    fmt: ExportFormat = "json",
    table: str | None = None,
    mkdir: bool = False,
    station: int | None = None,
    mask: bool = False,
) -> Path:
    """Write the export (see :func:`write_export`) to the file ``path``, replacing it;
    with ``mkdir`` its missing parent folders are created first.  Returns the path.
    Raises ``OSError`` when the file cannot be written."""
    path = Path(path)
    if mkdir:
        path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as out:
        write_export(ledger, out, fmt=fmt, table=table, station=station, mask=mask)
    return path
