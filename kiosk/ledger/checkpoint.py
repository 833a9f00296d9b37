"""Checkpoints: what power-up needs to trust every row before a point in the ledger.

A checkpoint is a chained event of kind ``checkpoint`` (so it carries the row hash and
the cabinet key's MAC like every event, and it cannot be removed or edited without
breaking the chain), written in the same transaction as the rows that bring the ledger
:data:`CHECKPOINT_EVERY` rows past the previous one.  Its ``detail`` holds, for the
ledger just before it:

``rounds`` / ``round_head``
    the closed rounds it covers (an open round is left to the rows after it) and the hash
    of the last of them (64 zeros when none);
``totals``
    the meters as those rows add them up (cents or counts, :mod:`kiosk.ledger.meters`);
``tickets`` / ``tickets_top``
    the digest of the ``tickets`` table (:func:`tickets_digest`) and its highest ticket
    sequence number;
``stations``
    each station's meters as those rows add them up (``{"<station>": {name: value}}``,
    zeros left out; absent from checkpoints written before stations);
``state``
    ``{"count": n, "digest": hex}``: how many events of :data:`STATE_KINDS` (the
    events power-up rebuilds the cabinet's state from: paytable and limits in force,
    tilts, door, pending payout, operator lockout, settings) the log holds, and the
    order-free digest of their hashes (absent from older checkpoints).  With it no
    such event before the checkpoint can be removed, added or swapped unseen, and each
    one read is authenticated by its own hash and MAC
    (:class:`kiosk.ledger.view.LedgerView`).

The events before it are covered through its own hash (``sha256(prev_hash + row)``:
``prev_hash`` is the hash of the event before it).  A checkpoint has no meter effect.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kiosk.ledger.chain import canonical
from kiosk.ledger.errors import LedgerCorruptError
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.tickets import TICKET_COLUMNS

#: Rows (events and rounds) between two checkpoints.
CHECKPOINT_EVERY = 10_000
#: The event kinds the cabinet's and the table's state is rebuilt from at power-up
#: (:mod:`kiosk.game.restore`, :mod:`kiosk.service.restore`, the operator lockout,
#: the settings, the pending payouts and escrows); a checkpoint covers them by digest.
STATE_KINDS: tuple[EventKind, ...] = (
    # the configuration
    EventKind.LEDGER_CREATED,
    EventKind.PAYTABLE_CHANGED,
    EventKind.LIMITS_CHANGED,
    EventKind.COACH_CHANGED,
    # the machine's state
    EventKind.TILT,
    EventKind.TILT_CLEARED,
    EventKind.RAM_CLEAR,
    EventKind.DOOR_OPEN,
    EventKind.DOOR_CLOSED,
    # the payouts
    EventKind.CASHOUT,
    EventKind.HANDPAY,
    EventKind.TICKET_OUT,
    EventKind.CASHOUT_FAILED,
    EventKind.CASHOUT_HANDPAY,
    # the operators and their locks
    EventKind.OPERATOR_LOGIN,
    EventKind.OPERATOR_LOGIN_FAILED,
    EventKind.OPERATOR_LOCKOUT,
    EventKind.RAM_CLEAR_WITNESSED,
    EventKind.OPERATOR_LOGOUT,
    # the escrows, the money witness, the notes
    EventKind.ESCROW_ACCEPTED,
    EventKind.ESCROW_ABORTED,
    EventKind.ESCROW_IN_DOUBT,
    EventKind.WITNESS,
    EventKind.OPERATOR_ACCOUNTS_LOCKED,
    EventKind.NOTE_REFUSED,
    EventKind.NOTE_ACCEPTANCE,
    # locks lifted, the pairing lock
    EventKind.OPERATOR_LOCKOUT_LIFTED,
    EventKind.PAIRING_CODE_WRONG,
    EventKind.PAIRING_LOCKED,
    EventKind.PAIRING_REOPENED,
    # the open round's progressive wagers (its rows may follow a checkpoint, these not)
    EventKind.PROGRESSIVE_WAGER,
)

_MOD = 1 << 256
#: ``json_object`` of a ``tickets`` row with the keys sorted: the text :func:`ticket_hash`
#: hashes (SQLite renders it exactly as :func:`kiosk.ledger.chain.canonical`).
_TICKET_JSON = "json_object(" + ", ".join(f"'{c}', {c}" for c in sorted(TICKET_COLUMNS)) + ")"


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint read back: the id of its event and its ``detail`` fields (see the
    module docstring); ``totals`` in cents or counts per meter."""

    event_id: int
    rounds: int
    round_head: str
    totals: Mapping[str, int]
    tickets: str
    tickets_top: int
    #: station -> meter totals; None for a checkpoint written before stations.
    stations: Mapping[int, Mapping[str, int]] | None = None
    #: (count, digest) of the :data:`STATE_KINDS` events before it; None when older.
    state: tuple[int, str] | None = None

    @classmethod
    def parse(cls, event_id: int, detail: str) -> Checkpoint:
        """The checkpoint of event ``event_id`` from its stored ``detail`` JSON; raises
        :class:`LedgerCorruptError` naming the event when it is unreadable."""
        try:
            data = json.loads(detail)
            return cls(
                event_id=event_id,
                rounds=int(data["rounds"]),
                round_head=str(data["round_head"]),
                totals={str(k): int(v) for k, v in dict(data["totals"]).items()},
                tickets=str(data["tickets"]),
                tickets_top=int(data["tickets_top"]),
                stations=None
                if "stations" not in data
                else {
                    int(st): {str(k): int(v) for k, v in dict(m).items()}
                    for st, m in dict(data["stations"]).items()
                },
                state=None
                if "state" not in data
                else (int(data["state"]["count"]), str(data["state"]["digest"])),
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise LedgerCorruptError(
                f"unreadable checkpoint ({exc!r})", f"events {event_id}"
            ) from None


def ticket_hash(row_json: str) -> int:
    """One ``tickets`` row's share of the digest: its SHA-256 as an integer."""
    return int.from_bytes(hashlib.sha256(row_json.encode()).digest(), "big")


def ticket_row_hash(row: Mapping[str, Any]) -> int:
    """:func:`ticket_hash` of a row held as a dict of :data:`TICKET_COLUMNS`."""
    return ticket_hash(canonical({c: row.get(c) for c in TICKET_COLUMNS}))


def combine(hashes: Iterable[int]) -> int:
    """The order-free digest of a set of rows: the sum of their hashes modulo 2**256."""
    return sum(hashes) % _MOD


def tickets_digest(conn: sqlite3.Connection) -> tuple[int, int]:
    """(digest of the whole ``tickets`` table, highest sequence number) as it stands."""
    digest = combine(
        ticket_hash(text) for (text,) in conn.execute(f"SELECT {_TICKET_JSON} FROM tickets")
    )
    top = conn.execute("SELECT COALESCE(MAX(sequence), 0) FROM tickets").fetchone()[0]
    return digest, int(top)


def ticket_rows_json(conn: sqlite3.Connection, numbers: Iterable[str]) -> dict[str, str]:
    """The rendered rows (as :func:`tickets_digest` hashes them) of the tickets ``numbers``."""
    out: dict[str, str] = {}
    for number in numbers:
        row = conn.execute(
            f"SELECT {_TICKET_JSON} FROM tickets WHERE validation = ?", (number,)
        ).fetchone()
        if row is not None:
            out[number] = row[0]
    return out


def state_digest(conn: sqlite3.Connection, before: int | None = None) -> tuple[int, str]:
    """(count, digest as 64 hex digits) of the :data:`STATE_KINDS` events (those with an
    id below ``before`` when given): the sum of their hashes modulo 2**256."""
    kinds = ", ".join("?" * len(STATE_KINDS))
    cur = conn.execute(
        f"SELECT hash FROM events WHERE id < ? AND kind IN ({kinds})",
        (before if before is not None else 1 << 62, *STATE_KINDS),
    )
    hashes = [int(h, 16) for (h,) in cur]
    return len(hashes), f"{combine(hashes):064x}"


def checkpoint_detail(
    conn: sqlite3.Connection,
    meters: Mapping[str, int],
    rounds: int,
    round_head: str,
    stations: Mapping[int, Mapping[str, int]] | None = None,
) -> dict[str, Any]:
    """The ``detail`` of a checkpoint covering every event so far and the first
    ``rounds`` rounds (whose last hash is ``round_head``); ``meters`` (the table's) and
    ``stations`` (each station's) are the totals of exactly those rows."""
    digest, top = tickets_digest(conn)
    detail: dict[str, Any] = {
        "rounds": rounds,
        "round_head": round_head,
        "totals": {k: v for k, v in sorted(meters.items()) if v},
        "tickets": f"{digest:064x}",
        "tickets_top": top,
    }
    count, state = state_digest(conn)
    detail["state"] = {"count": count, "digest": state}
    if stations is not None:
        detail["stations"] = {
            str(st): {k: v for k, v in sorted(m.items()) if v} for st, m in sorted(stations.items())
        }
    return detail


def last_checkpoint(conn: sqlite3.Connection) -> Checkpoint | None:
    """The latest checkpoint in the event log (None when there is none yet)."""
    row = conn.execute(
        "SELECT id, detail FROM events WHERE kind = ? ORDER BY id DESC LIMIT 1",
        (EventKind.CHECKPOINT,),
    ).fetchone()
    return None if row is None else Checkpoint.parse(row[0], row[1])
