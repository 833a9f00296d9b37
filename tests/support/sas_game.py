"""A stand-in for the game service's side of the SAS port, for the link's tests: the
TITO hooks the cabinet controller does not have yet (system validation of cash-outs,
tickets from other machines redeemed through the host), over a real SQLite file, for one
to seven stations.

It follows the contract written in :mod:`kiosk.sas.port` and nothing more: every money
step is one durable transaction, recorded before it takes effect; a redemption is
recorded authorised before the validator stacks and credited once (keyed by its escrow)
when the validator reports it stacked.  ``validator`` and ``printer`` are the devices'
reports, called by the tests.  The game service must do the same; these tests are its
contract tests.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kiosk.ledger.sqlite import connect, immediate
from kiosk.sas.port import (
    Capabilities,
    GameEvent,
    MachineInfo,
    PendingCashout,
    PortRefused,
    Redemption,
    RedemptionState,
    RoundRow,
    TicketInEscrow,
    ValidationRecord,
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS game_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT, station INTEGER NOT NULL, kind TEXT NOT NULL,
    amount INTEGER NOT NULL, at TEXT NOT NULL, detail TEXT NOT NULL, txn TEXT,
    UNIQUE (kind, txn)
);
CREATE TABLE IF NOT EXISTS game_cashouts (
    id TEXT PRIMARY KEY, station INTEGER NOT NULL, amount INTEGER NOT NULL,
    state TEXT NOT NULL, validation TEXT
);
CREATE TABLE IF NOT EXISTS game_escrows (
    id TEXT PRIMARY KEY, station INTEGER NOT NULL, validation TEXT NOT NULL,
    state TEXT NOT NULL, amount INTEGER NOT NULL DEFAULT 0
);
"""
_EFFECTS = {  # event kind -> (meter, sign) pairs; amounts in cents
    "bill_in": (("bills_in", 1), ("credits", 1)),
    "cashout": (("cashout_started", 1), ("credits", -1)),
    "cashout_failed": (("cashout_failed", 1), ("credits", 1)),
    "ticket_out": (("tickets_out", 1),),
    "handpay": (("handpay", 1),),
    "ticket_in": (("tickets_in", 1), ("credits", 1)),
}


def _locked(method: Callable[..., Any]) -> Callable[..., Any]:
    """Reads take the stand-in's lock: never inside another thread's transaction."""

    def run(self: StandInGame, *args: Any) -> Any:
        with self._lock:
            return method(self, *args)

    return run


class StandInGame:
    """The stand-in over ``path``; ``stations`` 1..n."""

    def __init__(self, path: Path, stations: int = 1) -> None:
        self.path = Path(path)
        self.conn = connect(self.path, "rwc")
        self.conn.executescript(_SCHEMA)
        self._stations = tuple(range(1, stations + 1))
        self._subs: list[Callable[[], None]] = []
        self._lock = threading.RLock()
        self.redeem_calls = 0

    def close(self) -> None:
        self.conn.close()

    # -- the game's own operations (the tests play the player and the devices) ----------
    def _event(self, station: int, kind: str, amount: int = 0, txn: str | None = None,
               **detail: Any) -> None:  # fmt: skip
        self.conn.execute(
            "INSERT INTO game_events (station, kind, amount, at, detail, txn) VALUES (?, ?, ?, ?, ?, ?)",
            (station, kind, amount, datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
             json.dumps(detail), txn),  # fmt: skip
        )

    def _notify(self) -> None:
        for cb in list(self._subs):
            cb()

    def insert_bill(self, station: int, cents: int) -> None:
        with self._lock, immediate(self.conn):
            self._event(station, "bill_in", cents, str(uuid.uuid4()))
        self._notify()

    def cash_out(self, station: int) -> str:
        """All credits off the meter into a ticket cash-out waiting for the host."""
        with self._lock, immediate(self.conn):
            amount = self.meters(station).get("credits", 0)
            if amount <= 0:
                raise PortRefused("no credits")
            cid = str(uuid.uuid4())
            self._event(station, "cashout", amount, cid)
            self.conn.execute(
                "INSERT INTO game_cashouts VALUES (?, ?, ?, 'awaiting_validation', NULL)",
                (cid, station, amount),
            )
        self._notify()
        return cid

    def insert_ticket(self, station: int, validation: str) -> str:
        """A ticket in the validator's escrow, waiting for the host."""
        eid = str(uuid.uuid4())
        with self._lock, immediate(self.conn):
            self.conn.execute("INSERT INTO game_escrows VALUES (?, ?, ?, 'escrow', 0)", (eid, station, validation))
            self._event(station, "ticket_escrow", 0, eid, validation=validation)
        self._notify()
        return eid

    def validator_stacked(self, escrow_id: str) -> bool:
        """The validator reports the ticket stacked: credit it once, from its record."""
        with self._lock, immediate(self.conn):
            row = self.conn.execute(
                "SELECT station, validation, state, amount FROM game_escrows WHERE id = ?", (escrow_id,)
            ).fetchone()
            if row is None or row[2] != "authorised":
                return False
            station, validation, _, amount = row
            self._event(station, "ticket_in", amount, escrow_id, validation=validation)
            self.conn.execute("UPDATE game_escrows SET state = 'credited' WHERE id = ?", (escrow_id,))
        self._notify()
        return True

    def validator_returned(self, escrow_id: str) -> None:
        with self._lock, immediate(self.conn):
            row = self.conn.execute("SELECT station, state FROM game_escrows WHERE id = ?", (escrow_id,)).fetchone()
            if row is None or row[1] in ("credited", "returned"):
                return
            self._event(row[0], "ticket_returned", 0, escrow_id)
            self.conn.execute("UPDATE game_escrows SET state = 'returned' WHERE id = ?", (escrow_id,))
        self._notify()

    @_locked
    def escrows(self) -> list[tuple[str, str, int]]:
        return [(i, s, a) for i, s, a in self.conn.execute("SELECT id, state, amount FROM game_escrows")]

    @_locked
    def tickets_printed(self) -> list[tuple[str, int]]:
        return [(json.loads(d)["validation"], a) for d, a in self.conn.execute(
            "SELECT detail, amount FROM game_events WHERE kind = 'ticket_out' ORDER BY id")]  # fmt: skip

    # -- the port ---------------------------------------------------------------------
    def stations(self) -> tuple[int, ...]:
        return self._stations

    def machine_info(self) -> MachineInfo:
        return MachineInfo(paytable_id="STAND1", serial="STANDIN", asset_number=42, expiry_days=30)

    def capabilities(self) -> Capabilities:
        return Capabilities(system_validation=True, ticket_redemption=True)

    @_locked
    def meters(self, station: int) -> Mapping[str, int]:
        out: dict[str, int] = {"credits": 0}
        for kind, amount in self.conn.execute(
            "SELECT kind, amount FROM game_events WHERE station = ?", (station,)
        ):
            for meter, sign in _EFFECTS.get(kind, ()):
                out[meter] = out.get(meter, 0) + sign * amount
            if kind in ("ticket_in", "ticket_out", "bill_in"):
                out[f"{kind.split('_')[0]}s_{kind.split('_')[1]}_count"] = (
                    out.get(f"{kind.split('_')[0]}s_{kind.split('_')[1]}_count", 0) + 1)  # fmt: skip
        return out

    @_locked
    def events_after(self, event_id: int, limit: int) -> Sequence[GameEvent]:
        if event_id == 0 and limit == 1:
            rows = self.conn.execute("SELECT * FROM game_events ORDER BY id DESC LIMIT 1").fetchall()
        else:
            rows = self.conn.execute(
                "SELECT * FROM game_events WHERE id > ? ORDER BY id LIMIT ?", (event_id, limit)
            ).fetchall()
        return [GameEvent(r[0], r[2], r[1], r[3], r[4], json.loads(r[5]), r[6]) for r in rows]

    def rounds_after(self, round_id: int, limit: int) -> Sequence[RoundRow]:
        return []

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        self._subs.append(callback)
        return lambda: self._subs.remove(callback)

    def set_enabled(self, station: int, enabled: bool, by: str) -> None:
        with self._lock, immediate(self.conn):
            self._event(station, "host_enable" if enabled else "host_shutdown", 0, None, by=by)

    def set_note_acceptance(self, station: int, enabled: bool, by: str) -> None:
        raise PortRefused("no validator control in the stand-in")

    @_locked
    def pending_cashout(self, station: int) -> PendingCashout | None:
        row = self.conn.execute(
            "SELECT id, amount FROM game_cashouts WHERE station = ? AND state = 'awaiting_validation'",
            (station,),
        ).fetchone()
        return None if row is None else PendingCashout(row[0], row[1])

    def deliver_validation(self, station: int, cashout_id: str, validation: str | None) -> None:
        with self._lock, immediate(self.conn):
            row = self.conn.execute(
                "SELECT amount, state FROM game_cashouts WHERE id = ? AND station = ?", (cashout_id, station)
            ).fetchone()
            if row is None or row[1] != "awaiting_validation":
                raise PortRefused(f"cash-out {cashout_id} waits for no validation number")
            amount = row[0]
            if validation is None:  # denied: an attendant pays
                self.conn.execute("UPDATE game_cashouts SET state = 'handpay' WHERE id = ?", (cashout_id,))
                self._event(station, "handpay", amount, cashout_id)
            else:  # recorded with the host's number, printed, reported done
                self.conn.execute(
                    "UPDATE game_cashouts SET state = 'printed', validation = ? WHERE id = ?",
                    (validation, cashout_id),
                )
                self._event(station, "ticket_issue", amount, cashout_id, validation=validation)
                self._event(station, "ticket_out", amount, cashout_id, validation=validation, sequence=1)
        self._notify()

    @_locked
    def validation_records(self, station: int, limit: int) -> Sequence[ValidationRecord]:
        rows = self.conn.execute(
            "SELECT id, amount, at, detail FROM game_events WHERE station = ? AND kind = 'ticket_out' "
            "ORDER BY id DESC LIMIT ?",
            (station, limit),
        ).fetchall()
        return [ValidationRecord(i, json.loads(d)["validation"], a, i, at) for i, a, at, d in reversed(rows)]

    @_locked
    def ticket_in_escrow(self, station: int) -> TicketInEscrow | None:
        row = self.conn.execute(
            "SELECT id, validation FROM game_escrows WHERE station = ? AND state = 'escrow'", (station,)
        ).fetchone()
        return None if row is None else TicketInEscrow(row[0], row[1])

    def redeem_ticket(self, station: int, escrow_id: str, amount: int, restricted: bool) -> None:
        self.redeem_calls += 1
        with self._lock, immediate(self.conn):
            row = self.conn.execute("SELECT state FROM game_escrows WHERE id = ?", (escrow_id,)).fetchone()
            if row is None:
                raise PortRefused("no such escrow")
            if row[0] != "escrow":
                return  # already authorised: idempotent
            self.conn.execute(
                "UPDATE game_escrows SET state = 'authorised', amount = ? WHERE id = ?", (amount, escrow_id)
            )
            self._event(station, "ticket_authorised", amount, escrow_id)
        self._notify()

    def refuse_ticket(self, station: int, escrow_id: str, code: int) -> None:
        with self._lock, immediate(self.conn):
            self.conn.execute(
                "UPDATE game_escrows SET state = 'refused' WHERE id = ? AND state = 'escrow'", (escrow_id,)
            )
        self.validator_returned(escrow_id)

    @_locked
    def redemption(self, station: int, escrow_id: str) -> Redemption | None:
        row = self.conn.execute(
            "SELECT validation, state, amount FROM game_escrows WHERE id = ?", (escrow_id,)
        ).fetchone()
        if row is None or row[1] == "escrow":
            return None
        state = {"authorised": RedemptionState.STACKING, "credited": RedemptionState.CREDITED}.get(
            row[1], RedemptionState.RETURNED
        )
        return Redemption(escrow_id, row[0], row[2], state)


