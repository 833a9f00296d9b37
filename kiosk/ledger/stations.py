"""The meters of each player station of a table, and their checks.

Each station (1-7) has the single cabinet's set of meters (:mod:`kiosk.ledger.meters`)
in ``station_meters``; the ``meters`` table holds the table meters, their sums over the
stations.  An event's meter effects go to its ``station``; a round row's to its
``seat`` (a seat is its station).  Both are applied in the same transaction as the row.
Amounts are cents or counts, as the meter says.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

from kiosk.ledger.errors import LedgerError
from kiosk.ledger.meters import CREDITS, METERS, balance, event_effects, round_effects
from kiosk.ledger.schema import STATIONS

#: Meters per station: station -> meter name -> value (cents or counts).
StationMeters = dict[int, dict[str, int]]


def check_station(station: object) -> int:
    """``station`` when it is a station number (1-7), else :class:`ValueError`."""
    if not isinstance(station, int) or isinstance(station, bool) or station not in STATIONS:
        raise ValueError(f"a station is a number from 1 to 7, not {station!r}")
    return station


def load_station_meters(conn: sqlite3.Connection) -> StationMeters:
    """The ``station_meters`` table as stored."""
    out: StationMeters = {}
    for station, name, value in conn.execute("SELECT station, name, value FROM station_meters"):
        out.setdefault(int(station), {})[name] = int(value)
    return out


def apply_station_meters(
    conn: sqlite3.Connection, meters: StationMeters, station: int, deltas: Mapping[str, int]
) -> None:
    """Add ``deltas`` to station ``station``'s meters in the table and in ``meters`` (the
    copy in memory), inside the caller's transaction; a new station starts with every
    meter at zero.  Raises :class:`LedgerError` if one would go negative."""
    own = meters.get(station)
    if own is None:
        own = {m: 0 for m in (*METERS, CREDITS)}
        conn.executemany(
            "INSERT INTO station_meters (station, name, value) VALUES (?, ?, 0)",
            [(station, m) for m in own],
        )
        meters[station] = own
    for name, delta in deltas.items():
        if not delta:
            continue
        value = own.get(name, 0) + delta
        if value < 0:
            raise LedgerError(f"meter {name} of station {station} would go negative")
        if name in own:
            conn.execute(
                "UPDATE station_meters SET value = ? WHERE station = ? AND name = ?",
                (value, station, name),
            )
        else:
            conn.execute(
                "INSERT INTO station_meters (station, name, value) VALUES (?, ?, ?)",
                (station, name, value),
            )
        own[name] = value


def station_row_totals(
    conn: sqlite3.Connection,
    events_after: int = 0,
    rounds_after: int = 0,
    base: Mapping[int, Mapping[str, int]] | None = None,
) -> StationMeters:
    """Each station's meters as the rows after ``events_after`` / ``rounds_after`` add
    them up (rounds by ``seat``, events by ``station``) on top of ``base``."""
    totals: StationMeters = {s: dict(m) for s, m in (base or {}).items()}

    def add(station: int, effects: Mapping[str, int], times: int) -> None:
        own = totals.setdefault(station, {})
        for k, v in effects.items():
            own[k] = own.get(k, 0) + v * times

    keys = ("state", "ante", "blind", "trips", "play", "paid", "jackpot")
    cols = ", ".join(keys)
    for seat, *values, n in conn.execute(
        f"SELECT seat, {cols}, COUNT(*) FROM rounds WHERE id > ? GROUP BY seat, {cols}",
        (rounds_after,),
    ):
        add(int(seat), round_effects(dict(zip(keys, values, strict=True))), n)
    for station, kind, amount, n in conn.execute(
        "SELECT station, kind, amount, COUNT(*) FROM events WHERE id > ? "
        "GROUP BY station, kind, amount",
        (events_after,),
    ):
        add(int(station), event_effects(kind, amount), n)
    return totals


def check_station_meters(
    conn: sqlite3.Connection,
    table: Mapping[str, int],
    totals: StationMeters | None,
) -> str:
    """The stored station meters: each equal to ``totals`` (what the rows add up to;
    None: not known, e.g. after a checkpoint that predates stations), each station's
    balance, and their sums equal to the ``table`` meters.  The first problem, or ""."""
    stored = load_station_meters(conn)
    if totals is not None:
        for station in sorted(set(stored) | set(totals)):
            have, want = stored.get(station, {}), totals.get(station, {})
            for name in sorted(set(have) | set(want)):
                if have.get(name, 0) != want.get(name, 0):
                    return (
                        f"meter {name} of station {station}: is {have.get(name, 0)}, "
                        f"the rows add up to {want.get(name, 0)}"
                    )
    for station, own in sorted(stored.items()):
        bal = balance(own)
        if not bal["balanced"] or bal["payout_pending"] < 0:
            return f"meters of station {station} do not balance: {bal}"
    sums: dict[str, int] = {}
    for own in stored.values():
        for name, value in own.items():
            sums[name] = sums.get(name, 0) + value
    for name in sorted(set(sums) | set(table)):
        if sums.get(name, 0) != table.get(name, 0):
            return (
                f"meter {name}: the table meter is {table.get(name, 0)}, "
                f"its stations add up to {sums.get(name, 0)}"
            )
    return ""
