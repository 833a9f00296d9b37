"""The cabinet's ledger: rounds, events and meters in SQLite (through sqlite-utils).

One file (default ``var/uth.db``) in WAL mode with ``synchronous=FULL``: a commit is on
disk when it returns.  Every write of the controller is one transaction holding the
row(s) *and* the meter changes they imply, so the books balance after any crash.

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
``meta``       schema version, ledger id, creation time, machine number.

Meters are never written directly: each event kind and each round row has fixed meter
effects (:func:`event_effects`, :func:`round_effects`), applied when the row is written
and re-added from the rows by :meth:`Ledger.verify`.

Tamper evidence: each row of ``rounds`` and ``events`` carries ``hash = sha256(prev_hash
+ canonical JSON of the row without its hash)`` (sorted keys, no spaces, UTF-8 as is:
SQLite's ``json_object``; the first row's previous hash is 64 zeros).  :meth:`Ledger.verify` walks both chains, checks every
settled deck against its commitment, re-adds the meters and names the first row or
meter that does not match.  The machine state (paytable and limits in force, tilts,
door, pending payout) is derived from the chained events, never stored on its own.

First run versus deleted ledger: when the ledger is created, an *install marker* file
(``<db>.install`` unless configured elsewhere) records its id.  At start, a missing
database with no marker is a first run (the ledger is created); a missing database with
the marker present, or a database whose id differs from the marker's, is a fault
(:class:`LedgerMissingError` / :class:`LedgerCorruptError`): nothing is recreated.
``uth audit init --force`` is the deliberate way to start a new ledger over a lost one.

Timestamps are UTC ISO 8601 with milliseconds (``2025-01-31T12:00:00.123Z``).  Money is
integer cents; breakage is in units of ``1/breakage_unit`` cent.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import sqlite_utils

from engine.cards import card_name, format_cards, parse_cards
from engine.paytable import Paytable, PaytableError, parse_paytable
from engine.rng import deck_commitment

SCHEMA_VERSION = 2
GENESIS = "0" * 64

#: Lifetime meters (never decrease) and what they count.  ``bill.<cents>`` meters
#: (count of bills of that denomination) are created on first use.
METERS: dict[str, str] = {
    "coin_in": "total wagered, cents",
    "coin_out": "total returned to the credit meter by games (stakes and wins), cents",
    "jackpot": "game wins paid by an attendant (jackpot handpay), cents",
    "jackpot_count": "jackpot handpays",
    "games_played": "rounds settled",
    "games_won": "settled rounds that returned more than was staked",
    "games_lost": "settled rounds that returned less than was staked",
    "games_pushed": "settled rounds that returned exactly the stake",
    "games_voided": "rounds voided (stakes refunded) by a RAM clear",
    "bills_in": "bills stacked, cents",
    "bills_in_count": "bills stacked",
    "tickets_in": "tickets redeemed, cents",
    "tickets_in_count": "tickets redeemed",
    "tickets_out": "tickets printed, cents",
    "tickets_out_count": "tickets printed",
    "handpay": "cancelled credits paid by an attendant, cents",
    "handpay_count": "cancelled-credit handpays",
    "cashout_started": "credits taken off the meter for a payout, cents",
    "cashout_failed": "payouts that failed and went back to the credit meter, cents",
    "ram_clear_credits": "credits removed by RAM clears, cents",
    "ram_clears": "RAM clears",
}
#: The current credit meter (cents): the one meter that goes down.
CREDITS = "credits"

#: Meter effects of each event kind: (meter, sign), where the amount is the event's
#: ``amount`` (cents) or 1 for ``#`` (a count).  ``bill.{amount}`` counts per denomination.
_EVENT_EFFECTS: dict[str, tuple[tuple[str, str], ...]] = {
    "bill_in": (
        ("bills_in", "$"),
        ("bills_in_count", "#"),
        ("bill.{amount}", "#"),
        (CREDITS, "+$"),
    ),
    "ticket_in": (("tickets_in", "$"), ("tickets_in_count", "#"), (CREDITS, "+$")),
    "cashout": (("cashout_started", "$"), (CREDITS, "-$")),
    "cashout_failed": (("cashout_failed", "$"), (CREDITS, "+$")),
    "handpay": (("handpay", "$"), ("handpay_count", "#")),
    "ticket_out": (("tickets_out", "$"), ("tickets_out_count", "#")),
    "ram_clear": (("ram_clear_credits", "$"), ("ram_clears", "#"), (CREDITS, "-$")),
}

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
    "decisions": str,  # JSON [[phase, action, play cents, at], ...]
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
    "ticket_issue": "validation",
    "ticket_out": "reference",
    "ticket_void": "validation",
    "ticket_in": "validation",
}
TICKET_STATUSES = ("pending", "issued", "void", "redeemed")


# -- errors -----------------------------------------------------------------------
class LedgerError(Exception):
    """The ledger cannot be used; ``reason`` says why in words an operator can act on."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class LedgerCorruptError(LedgerError):
    """Corrupt or tampered ledger.  ``where`` names the first bad row or meter."""

    def __init__(self, reason: str, where: str = "") -> None:
        super().__init__(f"{where}: {reason}" if where else reason)
        self.where = where


class LedgerMissingError(LedgerError):
    """The database is missing but the install marker says this cabinet had one."""


class LedgerExistsError(LedgerError):
    """Refusing to create a ledger over an existing one."""


# -- helpers ------------------------------------------------------------------------
def utc_stamp(moment: datetime | None = None) -> str:
    """``2025-01-31T12:00:00.123Z`` (UTC, milliseconds)."""
    moment = (moment or datetime.now(UTC)).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


_CARD_CODES = {card_name(c): c for c in range(52)}
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical(row: Mapping[str, Any]) -> str:
    """Canonical JSON of a row without its hash: sorted keys, no spaces, UTF-8 as is
    (exactly what SQLite's ``json_object`` renders, which :meth:`Ledger.verify` uses)."""
    if "hash" in row:
        row = {k: v for k, v in row.items() if k != "hash"}
    return _CANONICAL.encode(row)


def chain_hash(prev_hash: str, row: Mapping[str, Any]) -> str:
    return hashlib.sha256((prev_hash + canonical(row)).encode()).hexdigest()


def dumps(obj: Any) -> str:
    """The same canonical JSON, for values stored inside rows (details, decisions)."""
    return _CANONICAL.encode(obj)


def event_effects(kind: str, amount: int) -> dict[str, int]:
    """Meter changes implied by one event."""
    out: dict[str, int] = {}
    for meter, how in _EVENT_EFFECTS.get(kind, ()):
        value = 1 if how == "#" else amount
        out[meter.format(amount=amount)] = -value if how.startswith("-") else value
    return out


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
    if kind == "ticket_issue":
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
    if kind == "ticket_out":
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
    if kind == "ticket_void":
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


def round_effects(row: Mapping[str, Any]) -> dict[str, int]:
    """Meter totals implied by one round row as it stands (open, settled or voided)."""
    staked = row["ante"] + row["blind"] + row["play"] + row["trips"]
    paid = row["paid"] or 0
    jackpot = row["jackpot"] or 0
    out = {"coin_in": staked, "coin_out": paid, CREDITS: paid - staked}
    if jackpot:
        out["jackpot"] = jackpot
        out["jackpot_count"] = 1
    if row["state"] == "settled":
        net = paid + jackpot - staked
        out["games_played"] = 1
        out["games_won" if net > 0 else "games_lost" if net < 0 else "games_pushed"] = 1
    elif row["state"] == "voided":
        out["games_voided"] = 1
    return out


def balance(meters: Mapping[str, int]) -> dict[str, Any]:
    """Where the money went, from the meters (cents).  ``balanced`` when

    credits in = credits out + credits on the meter + pending payout + RAM-cleared
    + house net win,

    with credits in = bills + tickets in, credits out = handpays + tickets out + jackpots,
    and house net win = coin in - coin out - jackpots.
    """
    m = {k: meters.get(k, 0) for k in (*METERS, CREDITS)}
    out = {
        "credits_in": m["bills_in"] + m["tickets_in"],
        "credits_out": m["handpay"] + m["tickets_out"] + m["jackpot"],
        "credits": m[CREDITS],
        "payout_pending": m["cashout_started"]
        - m["cashout_failed"]
        - m["handpay"]
        - m["tickets_out"],
        "ram_cleared": m["ram_clear_credits"],
        "house_net_win": m["coin_in"] - m["coin_out"] - m["jackpot"],
    }
    out["balanced"] = out["credits_in"] == (
        out["credits_out"]
        + out["credits"]
        + out["payout_pending"]
        + out["ram_cleared"]
        + out["house_net_win"]
    )
    return out


def _sub(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) - v
    return {k: v for k, v in out.items() if v}


def _take_lock(path: Path) -> IO[bytes]:
    """The one-writer lock (``<db>.lock``), held while the ledger is open read-write.

    The kernel releases it when the process dies, so a crash never leaves it behind."""
    fh = open(f"{path}.lock", "ab")  # noqa: SIM115 - held for the ledger's lifetime
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.close()
        raise LedgerError(
            f"ledger {path} is in use by another program (lock {path}.lock)"
        ) from None
    return fh


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# -- records ---------------------------------------------------------------------------
@dataclass(frozen=True)
class DecisionRecord:
    phase: str
    action: str
    play: int
    at: str


@dataclass(frozen=True)
class RoundRecord:
    """One round as stored; cards as ints (see :mod:`engine.cards`).  Cents throughout.

    ``deck`` and ``salt`` are empty until the round is settled.
    """

    id: int
    state: str
    started_at: str
    settled_at: str | None
    seat: int
    paytable: str
    paytable_sha256: str
    ante: int
    blind: int
    trips: int
    play: int
    decisions: tuple[DecisionRecord, ...]
    commitment: str
    salt: str
    deck: tuple[int, ...]
    player_hole: tuple[int, ...]
    dealer_hole: tuple[int, ...]
    board: tuple[int, ...]
    player_hand: str | None
    player_category: str | None
    dealer_hand: str | None
    dealer_category: str | None
    dealer_qualifies: bool | None
    outcome: str | None
    ante_return: int
    blind_return: int
    play_return: int
    trips_return: int
    breakage: int
    breakage_unit: int
    paid: int
    jackpot: int
    credits_before: int
    credits_after: int
    hash: str

    @property
    def staked(self) -> int:
        return self.ante + self.blind + self.play + self.trips

    @property
    def returned(self) -> int:
        return self.ante_return + self.blind_return + self.play_return + self.trips_return

    @property
    def net(self) -> int:
        """What the player won (positive) or lost (negative) on the round, cents."""
        return self.paid + self.jackpot - self.staked

    def commitment_ok(self) -> bool:
        """Whether the published deck and salt hash to the commitment made at the deal."""
        return (
            bool(self.deck)
            and deck_commitment(self.deck, bytes.fromhex(self.salt)) == self.commitment
        )

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> RoundRecord:
        def cards(text: str | None) -> tuple[int, ...]:
            if not text:
                return ()
            try:
                return tuple(_CARD_CODES[text[i : i + 2]] for i in range(0, len(text), 2))
            except KeyError:
                return tuple(parse_cards(text))  # raises, naming the bad card

        q = row["dealer_qualifies"]
        return cls(
            id=row["id"],
            state=row["state"],
            started_at=row["started_at"],
            settled_at=row["settled_at"],
            seat=row["seat"],
            paytable=row["paytable"],
            paytable_sha256=row["paytable_sha256"],
            ante=row["ante"],
            blind=row["blind"],
            trips=row["trips"],
            play=row["play"],
            decisions=tuple(DecisionRecord(*d) for d in json.loads(row["decisions"])),
            commitment=row["commitment"],
            salt=row["salt"] or "",
            deck=cards(row["deck"]),
            player_hole=cards(row["player_hole"]),
            dealer_hole=cards(row["dealer_hole"]),
            board=cards(row["board"]),
            player_hand=row["player_hand"],
            player_category=row["player_category"],
            dealer_hand=row["dealer_hand"],
            dealer_category=row["dealer_category"],
            dealer_qualifies=None if q is None else bool(q),
            outcome=row["outcome"],
            ante_return=row["ante_return"] or 0,
            blind_return=row["blind_return"] or 0,
            play_return=row["play_return"] or 0,
            trips_return=row["trips_return"] or 0,
            breakage=row["breakage"] or 0,
            breakage_unit=row["breakage_unit"] or 1,
            paid=row["paid"] or 0,
            jackpot=row["jackpot"] or 0,
            credits_before=row["credits_before"],
            credits_after=row["credits_after"],
            hash=row["hash"],
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form with cards in text notation."""
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if name in ("deck", "player_hole", "dealer_hole", "board"):
                value = format_cards(value)
            elif name == "decisions":
                value = [d.__dict__ for d in value]
            out[name] = value
        out["staked"], out["net"] = self.staked, self.net
        return out


@dataclass(frozen=True)
class EventRecord:
    id: int
    at: str
    kind: str
    amount: int
    round_id: int | None
    txn: str | None
    detail: dict[str, Any]
    hash: str

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> EventRecord:
        return cls(
            row["id"],
            row["at"],
            row["kind"],
            row["amount"],
            row["round_id"],
            row["txn"],
            json.loads(row["detail"]),
            row["hash"],
        )


@dataclass(frozen=True)
class TicketRecord:
    """One cash-out ticket issued by this cabinet (a ``tickets`` row).  Cents; times UTC."""

    validation: str
    sequence: int
    amount: int
    status: str  # pending | issued | void | redeemed
    issued_at: str
    expires_on: str | None  # YYYY-MM-DD, valid through that day; None: does not expire
    printed_at: str | None
    voided_at: str | None
    redeemed_at: str | None
    void_reason: str | None
    cashout_txn: str | None
    redeem_txn: str | None
    issue_event: int
    print_event: int | None
    close_event: int | None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> TicketRecord:
        return cls(**{c: row[c] for c in TICKET_COLUMNS})

    def as_dict(self) -> dict[str, Any]:
        return {c: getattr(self, c) for c in TICKET_COLUMNS}


@dataclass(frozen=True)
class VerifyReport:
    ok: bool
    rounds: int
    events: int
    problem: str = ""  # the first mismatch, naming the row or meter
    meters: Mapping[str, int] | None = None
    tickets: int = 0


# -- schema ----------------------------------------------------------------------------
_TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS meters_never_decrease BEFORE UPDATE ON meters WHEN NEW.value < OLD.value AND OLD.name <> 'credits' BEGIN SELECT RAISE(ABORT, 'a lifetime meter never decreases'); END",
    "CREATE TRIGGER IF NOT EXISTS meters_no_delete BEFORE DELETE ON meters BEGIN SELECT RAISE(ABORT, 'meters are never deleted'); END",
    "CREATE TRIGGER IF NOT EXISTS rounds_frozen BEFORE UPDATE ON rounds WHEN OLD.state <> 'open' BEGIN SELECT RAISE(ABORT, 'a settled round is never changed'); END",
    "CREATE TRIGGER IF NOT EXISTS rounds_no_delete BEFORE DELETE ON rounds BEGIN SELECT RAISE(ABORT, 'rounds are never deleted'); END",
    "CREATE TRIGGER IF NOT EXISTS events_frozen BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are never changed'); END",
    "CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'events are never deleted'); END",
)


def _migrate_0_to_1(db: sqlite_utils.Database) -> None:
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["meters"].create({"name": str, "value": int}, pk="name")
    db["paytables"].create(
        {"sha256": str, "name": str, "version": str, "source": str, "toml": str}, pk="sha256"
    )
    db["rounds"].create(ROUND_COLUMNS, pk="id", not_null={"state", "hash"})
    db["events"].create(EVENT_COLUMNS, pk="id", not_null={"kind", "hash", "amount"})
    db["recovery"].create({"round_id": int, "deck": str, "salt": str}, pk="round_id")
    db["events"].create_index(["kind"], index_name="events_kind")
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
    db["tickets"].create(
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


def _replay_tickets(conn: sqlite3.Connection) -> tuple[dict[str, dict[str, Any]], str]:
    """The ``tickets`` table as the ticket events build it, and the first problem (if any)."""
    rows: dict[str, dict[str, Any]] = {}
    top = 0
    kinds = ", ".join(f"'{k}'" for k in TICKET_EVENTS)
    cur = conn.execute(
        f"SELECT id, at, kind, amount, txn, detail FROM events WHERE kind IN ({kinds}) ORDER BY id"
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


#: MIGRATIONS[v] takes a database at schema version v to v + 1.
MIGRATIONS = [_migrate_0_to_1, _migrate_1_to_2]
assert len(MIGRATIONS) == SCHEMA_VERSION


# -- the ledger ---------------------------------------------------------------------------
class Ledger:
    """An open ledger.  Not thread-safe by itself: the controller serialises access.

    Writes go through :meth:`transaction` (re-entrant: nested blocks join the outer
    one); a block that raises is rolled back in SQLite *and* in the in-memory heads.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path, readonly: bool = False) -> None:
        self.conn = conn
        self.db = sqlite_utils.Database(conn)
        self.path = path
        self.readonly = readonly
        self._depth = 0
        self._saved: tuple[Any, ...] | None = None
        self.meters: dict[str, int] = {}
        self._event_head = GENESIS
        self._event_id = 0
        self._round_head = GENESIS  # hash of the last round row
        self._round_prev = GENESIS  # hash before the open round, if any
        self._round_id = 0
        self._open_row: dict[str, Any] | None = None
        self.meta: dict[str, str] = {}
        self._lock: IO[bytes] | None = None

    # -- opening ------------------------------------------------------------------------
    @staticmethod
    def _connect(path: Path, readonly: bool) -> sqlite3.Connection:
        if readonly:
            conn = sqlite3.connect(
                f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
            )
        else:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
            if not readonly:
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if mode.lower() != "wal":
                    raise LedgerError(f"{path}: cannot use WAL mode (got {mode})")
            conn.execute("PRAGMA synchronous = FULL")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise LedgerCorruptError(f"{path} is not a readable SQLite database ({exc})") from None
        return conn

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        readonly: bool = False,
        marker: Path | None = None,
        migrate: bool = True,
    ) -> Ledger:
        """Open an existing ledger and load its heads (no full verification: see
        :meth:`verify`).  Raises :class:`LedgerMissingError` / :class:`LedgerCorruptError`."""
        path = Path(path)
        if not path.exists():
            raise LedgerMissingError(f"ledger {path} does not exist")
        lock = None if readonly else _take_lock(path)
        try:
            conn = cls._connect(path, readonly)
        except LedgerError:
            if lock is not None:
                lock.close()
            raise
        ledger = cls(conn, path, readonly)
        ledger._lock = lock
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
    ) -> Ledger:
        """Create a new ledger at ``path`` (refused if one exists) and write the marker.

        Built under a temporary name and renamed into place, so a crash never leaves a
        half-made ledger at ``path``.
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
        conn = cls._connect(tmp, readonly=False)
        ledger = cls(conn, tmp)
        with ledger.transaction():
            for migrate in MIGRATIONS:
                migrate(ledger.db)
            ledger.conn.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [
                    ("schema_version", str(SCHEMA_VERSION)),
                    ("ledger_id", ledger_id),
                    ("created_at", created),
                    ("machine_number", machine_number),
                ],
            )
            ledger.meters = {m: 0 for m in (*METERS, CREDITS)}
            ledger.store_paytable(paytable)
            ledger.event(
                "ledger_created",
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
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        os.replace(tmp, path)
        _fsync_dir(path.parent)
        if marker is not None:
            write_marker(marker, ledger_id, created)
        return cls.open(path, marker=marker)

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
        if version > SCHEMA_VERSION:
            raise LedgerError(
                f"{self.path} has schema version {version}; this software knows "
                f"up to {SCHEMA_VERSION}: update the software"
            )
        if version < SCHEMA_VERSION:
            if not migrate:
                raise LedgerError(
                    f"{self.path} has schema version {version}; open it read-write to migrate"
                )
            with self.transaction():
                for v in range(version, SCHEMA_VERSION):
                    MIGRATIONS[v](self.db)
                self.conn.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
                    (str(SCHEMA_VERSION),),
                )
            self.meta["schema_version"] = str(SCHEMA_VERSION)
        missing = {"meta", "meters", "paytables", "rounds", "events", "recovery", "tickets"} - set(
            self.db.table_names()
        )
        if missing:
            raise LedgerCorruptError(f"{self.path}: table(s) {', '.join(sorted(missing))} missing")
        self.meters = dict(self.conn.execute("SELECT name, value FROM meters").fetchall())
        row = self.conn.execute("SELECT id, hash FROM events ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            raise LedgerCorruptError(
                f"{self.path}: the event log is empty (no ledger_created event)"
            )
        self._event_id, self._event_head = row
        rows = self._round_rows("ORDER BY id DESC LIMIT 2")
        if rows:
            last = rows[0]
            self._round_id, self._round_head = last["id"], last["hash"]
            self._round_prev = rows[1]["hash"] if len(rows) > 1 else GENESIS
            self._open_row = last if last["state"] == "open" else None
        if version < SCHEMA_VERSION and migrate:
            self.event("schema_migrated", detail={"old": version, "new": SCHEMA_VERSION})

    def _check_marker(self, marker: Path) -> None:
        info = read_marker(marker)
        ledger_id = self.meta.get("ledger_id", "")
        if info is None:
            if not self.readonly:
                write_marker(marker, ledger_id, self.meta.get("created_at", ""))
                self.event("install_marker_written", detail={"marker": str(marker)})
            return
        if info.get("ledger_id") != ledger_id:
            raise LedgerCorruptError(
                f"ledger {self.path} (id {ledger_id}) is not the one installed on this cabinet "
                f"(marker {marker} names {info.get('ledger_id')}, created {info.get('created_at')})"
            )

    def close(self) -> None:
        """Close the database and release the writer's lock (no event is written)."""
        try:
            self.conn.close()
        except sqlite3.Error:
            pass
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
        if self._depth == 0:
            self._saved = (
                dict(self.meters),
                self._event_head,
                self._event_id,
                self._round_head,
                self._round_prev,
                self._round_id,
                None if self._open_row is None else dict(self._open_row),
            )
            self.conn.execute("BEGIN IMMEDIATE")
        self._depth += 1
        try:
            yield
        except BaseException:
            self._depth -= 1
            if self._depth == 0:
                self._rollback()
            raise
        self._depth -= 1
        if self._depth == 0:
            try:
                self.conn.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        try:
            self.conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        assert self._saved is not None
        (
            self.meters,
            self._event_head,
            self._event_id,
            self._round_head,
            self._round_prev,
            self._round_id,
            self._open_row,
        ) = self._saved

    def _apply(self, deltas: Mapping[str, int]) -> None:
        for name, delta in deltas.items():
            if not delta:
                continue
            value = self.meters.get(name, 0) + delta
            if value < 0:
                raise LedgerError(f"meter {name} would go negative")
            if name in self.meters:
                self.conn.execute("UPDATE meters SET value = ? WHERE name = ?", (value, name))
            else:
                self.conn.execute("INSERT INTO meters (name, value) VALUES (?, ?)", (name, value))
            self.meters[name] = value

    # -- writing --------------------------------------------------------------------------------
    def event(
        self,
        kind: str,
        *,
        amount: int = 0,
        detail: Mapping[str, Any] | None = None,
        round_id: int | None = None,
        txn: str | None = None,
        at: str | None = None,
    ) -> int:
        """Append one event (and its meter effects); returns its id."""
        if not isinstance(amount, int) or amount < 0:
            raise ValueError(f"an event amount is non-negative integer cents, not {amount!r}")
        row = {
            "id": self._event_id + 1,
            "at": at or utc_stamp(),
            "kind": kind,
            "amount": amount,
            "round_id": round_id,
            "txn": txn,
            "detail": dumps(dict(detail or {})),
        }
        row["hash"] = chain_hash(self._event_head, row)
        with self.transaction():
            ticket = self._ticket_change(row, dict(detail or {}))
            self.conn.execute(
                "INSERT INTO events (id, at, kind, amount, round_id, txn, detail, hash) "
                "VALUES (:id, :at, :kind, :amount, :round_id, :txn, :detail, :hash)",
                row,
            )
            self._apply(event_effects(kind, amount))
            if ticket is not None:
                sets = ", ".join(f"{c} = excluded.{c}" for c in ticket if c != "validation")
                self.conn.execute(
                    f"INSERT INTO tickets ({', '.join(ticket)}) "
                    f"VALUES ({', '.join(':' + c for c in ticket)}) "
                    f"ON CONFLICT(validation) DO UPDATE SET {sets}",
                    ticket,
                )
            self._event_id, self._event_head = row["id"], row["hash"]
        return row["id"]

    def _ticket_change(
        self, row: Mapping[str, Any], detail: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The tickets row an event writes (None if it touches no ticket); raises
        :class:`LedgerError` before anything is written if the change is not allowed."""
        key = TICKET_EVENTS.get(row["kind"])
        if key is None:
            return None
        number = detail.get(key)
        current = self.ticket(number) if isinstance(number, str) else None
        top = self.conn.execute("SELECT COALESCE(MAX(sequence), 0) FROM tickets").fetchone()[0]
        event = {**row, "detail": detail}
        return ticket_effect(event, None if current is None else current.as_dict(), top + 1)

    # -- tickets -----------------------------------------------------------------------------
    def ticket(self, validation: str) -> TicketRecord | None:
        """The ticket issued here with ``validation``, if any."""
        cur = self.conn.execute("SELECT * FROM tickets WHERE validation = ?", (validation,))
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

    def tickets(self, last: int | None = None, status: str | None = None) -> list[TicketRecord]:
        """Tickets by sequence number (the last ``last`` of them), optionally of one status."""
        where, params = ("WHERE status = ?", [status]) if status else ("", [])
        tail = f"ORDER BY sequence DESC LIMIT {int(last)}" if last else "ORDER BY sequence"
        cur = self.conn.execute(f"SELECT * FROM tickets {where} {tail}", params)
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
        kinds = ", ".join(f"'{k}'" for k in TICKET_EVENTS)
        cur = self.conn.execute(
            f"SELECT id, at, kind, amount, txn, detail FROM events WHERE kind IN ({kinds}) "
            "AND (json_extract(detail, '$.validation') = ? OR json_extract(detail, '$.reference') = ?) "
            "ORDER BY id",
            (validation, validation),
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

    def has_txn(self, txn: str, kind: str) -> bool:
        return (
            self.conn.execute(
                "SELECT 1 FROM events WHERE txn = ? AND kind = ?", (txn, kind)
            ).fetchone()
            is not None
        )

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

    def begin_round(self, row: Mapping[str, Any], deck: list[int], salt: bytes) -> int:
        """Insert a new open round (bets, commitment) and its recovery deck; returns its id."""
        if self._open_row is not None:
            raise LedgerError(f"round {self._open_row['id']} is still open")
        full = {c: None for c in ROUND_COLUMNS}
        full.update(row)
        full.update(
            id=self._round_id + 1,
            state="open",
            commitment=deck_commitment(deck, salt),
            salt=None,
            deck=None,
        )
        prev = self._round_head
        full["hash"] = chain_hash(prev, full)
        with self.transaction():
            self.conn.execute(
                f"INSERT INTO rounds ({', '.join(full)}) VALUES ({', '.join(':' + c for c in full)})",
                full,
            )
            self.conn.execute(
                "INSERT INTO recovery (round_id, deck, salt) VALUES (?, ?, ?)",
                (full["id"], format_cards(deck, ""), salt.hex()),
            )
            self._apply(round_effects(full))
            self._round_prev, self._round_head = prev, full["hash"]
            self._round_id, self._open_row = full["id"], full
        return full["id"]

    def update_round(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Change the open round (a decision, its settlement or its voiding) with the meters.

        When ``changes`` closes the round (``state`` settled or voided) the recovery deck
        and salt are published in the row and the recovery row is removed.
        """
        old = self._open_row
        if old is None:
            raise LedgerError("no round is open")
        new = dict(old)
        new.update(changes)
        if new["state"] != "open":
            rec = self.conn.execute(
                "SELECT deck, salt FROM recovery WHERE round_id = ?", (old["id"],)
            ).fetchone()
            if rec is None:
                raise LedgerCorruptError(
                    "the open round has no recovery deck", f"rounds {old['id']}"
                )
            new["deck"], new["salt"] = rec
        new["hash"] = chain_hash(self._round_prev, new)
        sets = ", ".join(f"{c} = :{c}" for c in new if c != "id")
        with self.transaction():
            self.conn.execute(f"UPDATE rounds SET {sets} WHERE id = :id", new)
            if new["state"] != "open":
                self.conn.execute("DELETE FROM recovery WHERE round_id = ?", (old["id"],))
            self._apply(_sub(round_effects(new), round_effects(old)))
            self._round_head = new["hash"]
            self._open_row = new if new["state"] == "open" else None
        return new

    # -- reading ----------------------------------------------------------------------------------
    def _iter_round_rows(self, tail: str, params: tuple[Any, ...] = ()) -> Iterator[dict[str, Any]]:
        cur = self.conn.execute(f"SELECT * FROM rounds {tail}", params)
        names = [d[0] for d in cur.description]
        for values in cur:
            yield dict(zip(names, values, strict=True))

    def _round_rows(self, tail: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        return list(self._iter_round_rows(tail, params))

    @property
    def open_round(self) -> dict[str, Any] | None:
        """The open round's row (a copy), if any."""
        return None if self._open_row is None else dict(self._open_row)

    def recovery_deck(self, round_id: int) -> tuple[list[int], bytes]:
        row = self.conn.execute(
            "SELECT deck, salt FROM recovery WHERE round_id = ?", (round_id,)
        ).fetchone()
        if row is None:
            raise LedgerCorruptError("the open round has no recovery deck", f"rounds {round_id}")
        return parse_cards(row[0]), bytes.fromhex(row[1])

    def recall(self, last: int = 10) -> list[RoundRecord]:
        """The last ``last`` rounds, most recent first."""
        return [
            RoundRecord.from_row(r) for r in self._round_rows("ORDER BY id DESC LIMIT ?", (last,))
        ]

    def round(self, round_id: int) -> RoundRecord | None:
        rows = self._round_rows("WHERE id = ?", (round_id,))
        return RoundRecord.from_row(rows[0]) if rows else None

    def last_settled(self) -> RoundRecord | None:
        rows = self._round_rows("WHERE state <> 'open' ORDER BY id DESC LIMIT 1")
        return RoundRecord.from_row(rows[0]) if rows else None

    def events(
        self, kinds: tuple[str, ...] = (), after: int = 0, last: int | None = None
    ) -> list[EventRecord]:
        where, params = "WHERE id > ?", [after]
        if kinds:
            where += f" AND kind IN ({', '.join('?' * len(kinds))})"
            params += list(kinds)
        order = f"ORDER BY id DESC LIMIT {int(last)}" if last else "ORDER BY id"
        cur = self.conn.execute(f"SELECT * FROM events {where} {order}", params)
        names = [d[0] for d in cur.description]
        rows = [EventRecord.from_row(dict(zip(names, r, strict=True))) for r in cur.fetchall()]
        return rows[::-1] if last else rows

    def last_event(self, *kinds: str) -> EventRecord | None:
        found = self.events(kinds, last=1)
        return found[0] if found else None

    def counts(self) -> tuple[int, int]:
        return self._round_id, self._event_id

    # -- verification -------------------------------------------------------------------------
    def verify(self, decks: bool = True, replay: bool = False) -> VerifyReport:
        """Check the whole ledger; never raises for a bad ledger (see ``problem``).

        Always: SQLite's integrity check; both hash chains (ids contiguous, each hash
        recomputed from the row's canonical JSON, which SQLite renders with
        ``json_object``); only the last round may be open and its recovery deck must match
        its commitment; each closed round's arithmetic; every meter equal to what the rows
        add up to, and the balance; the stored paytables' SHA-256; the ``tickets`` table
        rebuilt from the ticket events, and the ticket meters against it.  With ``decks`` also
        every published deck against its commitment; with ``replay`` also every settled
        round re-played through the engine and its settlement compared.
        """
        rounds = events = 0
        try:
            qc = self.conn.execute("PRAGMA quick_check").fetchall()
            if qc != [("ok",)]:
                return VerifyReport(False, 0, 0, f"SQLite integrity check: {qc[0][0]}")
            for table, columns in (("rounds", ROUND_COLUMNS), ("events", EVENT_COLUMNS)):
                names = [r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")]
                if names != list(columns):
                    return VerifyReport(False, 0, 0, f"{table}: unexpected columns {names}")

            problem, rounds, last_state = self._walk_chain("rounds", ROUND_COLUMNS)
            if problem:
                return VerifyReport(False, rounds, 0, problem)
            problem, events, _ = self._walk_chain("events", EVENT_COLUMNS)
            if problem:
                return VerifyReport(False, rounds, events, problem)

            def bad(problem: str) -> VerifyReport:
                return VerifyReport(False, rounds, events, problem)

            first = self.conn.execute("SELECT kind, detail FROM events WHERE id = 1").fetchone()
            if (
                first is None
                or first[0] != "ledger_created"
                or json.loads(first[1]).get("ledger_id") != self.ledger_id
            ):
                return bad("events 1: not this ledger's ledger_created event")
            row = self.conn.execute(
                "SELECT id FROM rounds WHERE state NOT IN ('open', 'settled', 'voided') "
                "OR (state = 'open' AND id <> ?) LIMIT 1",
                (rounds,),
            ).fetchone()
            if row:
                return bad(f"rounds {row[0]}: unknown state, or open but not the last round")
            for sql, what in _ROUND_ARITHMETIC:
                row = self.conn.execute(
                    f"SELECT id FROM rounds WHERE {sql} ORDER BY id LIMIT 1"
                ).fetchone()
                if row:
                    return bad(f"rounds {row[0]}: {what}")
            open_id = rounds if last_state == "open" else None
            if open_id is not None:
                deck, salt = self.recovery_deck(open_id)
                commitment = self.conn.execute(
                    "SELECT commitment FROM rounds WHERE id = ?", (open_id,)
                ).fetchone()[0]
                if deck_commitment(deck, salt) != commitment:
                    return bad(f"recovery {open_id}: deck does not match the round's commitment")
            stray = self.conn.execute(
                "SELECT round_id FROM recovery WHERE round_id IS NOT ?", (open_id,)
            ).fetchone()
            if stray:
                return bad(f"recovery {stray[0]}: deck kept for a closed round")
            if decks:
                for rid, deck_text, salt, commitment in self.conn.execute(
                    "SELECT id, deck, salt, commitment FROM rounds WHERE state <> 'open' ORDER BY id"
                ):
                    deck = _deck_bytes(deck_text or "")
                    try:
                        salt_bytes = bytes.fromhex(salt or "")
                    except ValueError:
                        deck = None
                    if deck is None:
                        return bad(f"rounds {rid}: published deck or salt unreadable")
                    if hashlib.sha256(salt_bytes + deck).hexdigest() != commitment:
                        return bad(
                            f"rounds {rid}: published deck does not match the commitment made at the deal"
                        )
            if replay:
                replayer = _Replayer(self)
                for row in self._iter_round_rows("WHERE state = 'settled' ORDER BY id"):
                    problem = replayer.check(row)
                    if problem:
                        return bad(f"rounds {row['id']}: {problem}")

            totals = self._row_totals()
            stored = dict(self.conn.execute("SELECT name, value FROM meters").fetchall())
            for name in (*METERS, CREDITS):
                if name not in stored:
                    return bad(f"meter {name}: missing")
            for name in sorted(set(stored) | set(totals)):
                want, got = totals.get(name, 0), stored.get(name, 0)
                if got != want:
                    return VerifyReport(
                        False,
                        rounds,
                        events,
                        f"meter {name}: is {got}, the rows add up to {want}",
                        stored,
                    )
            bal = balance(stored)
            if not bal["balanced"] or bal["payout_pending"] < 0:
                return VerifyReport(False, rounds, events, f"meters do not balance: {bal}", stored)
            for sha, text in self.conn.execute("SELECT sha256, toml FROM paytables"):
                if hashlib.sha256(text.encode()).hexdigest() != sha:
                    return bad(f"paytables {sha}: text does not match its SHA-256")
            problem, tickets = self._check_tickets(stored)
            if problem:
                return VerifyReport(False, rounds, events, problem, stored, tickets)
        except sqlite3.DatabaseError as exc:
            return VerifyReport(False, rounds, events, f"SQLite: {exc} (damaged or truncated file)")
        except LedgerError as exc:
            return VerifyReport(False, rounds, events, exc.reason)
        except ValueError as exc:  # unreadable JSON or cards in a row
            return VerifyReport(False, rounds, events, f"unreadable value: {exc}")
        return VerifyReport(True, rounds, events, "", stored, tickets)

    def _check_tickets(self, meters: Mapping[str, int]) -> tuple[str, int]:
        """The ``tickets`` table against the ticket events, and the ticket meters against
        the table; returns (first problem, number of tickets)."""
        names = [r[1] for r in self.conn.execute("PRAGMA table_info(tickets)")]
        if sorted(names) != sorted(TICKET_COLUMNS):
            return f"tickets: unexpected columns {names}", 0
        want, problem = _replay_tickets(self.conn)
        if problem:
            return problem, len(want)
        cur = self.conn.execute("SELECT * FROM tickets ORDER BY sequence")
        cols = [d[0] for d in cur.description]
        have = {r[cols.index("validation")]: dict(zip(cols, r, strict=True)) for r in cur}
        for number, row in have.items():
            expect = want.get(number)
            if expect is None:
                return f"tickets {number}: no event issued this ticket", len(have)
            for col in TICKET_COLUMNS:
                if row[col] != expect[col]:
                    return (
                        f"tickets {number}: {col} is {row[col]!r}, the events say {expect[col]!r}",
                        len(have),
                    )
        for number in want:
            if number not in have:
                return f"tickets {number}: missing (its events are in the log)", len(have)
        printed = [r for r in have.values() if r["print_event"] is not None]
        redeemed = [r for r in have.values() if r["status"] == "redeemed"]
        for meter, value in (
            ("tickets_out", sum(r["amount"] for r in printed)),
            ("tickets_out_count", len(printed)),
            ("tickets_in", sum(r["amount"] for r in redeemed)),
            ("tickets_in_count", len(redeemed)),
        ):
            if meters.get(meter, 0) != value:
                return (
                    f"meter {meter}: is {meters.get(meter, 0)}, the tickets table adds up to {value}",
                    len(have),
                )
        return "", len(have)

    def _walk_chain(self, table: str, columns: Mapping[str, type]) -> tuple[str, int, str | None]:
        """Recompute ``table``'s hash chain; returns (problem, rows walked, last row's state)."""
        fields = ", ".join(f"'{c}', {c}" for c in sorted(columns) if c != "hash")
        state = "state" if "state" in columns else "NULL"
        cur = self.conn.execute(
            f"SELECT id, json_object({fields}), hash, {state} FROM {table} ORDER BY id"
        )
        prev, expect, last_state = GENESIS, 1, None
        sha256 = hashlib.sha256
        for rid, text, stored, last_state in cur:
            if rid != expect:
                return f"{table} {expect}: missing (next row is {rid})", expect - 1, last_state
            if sha256((prev + text).encode()).hexdigest() != stored:
                return (
                    f"{table} {rid}: hash does not match the row (edited or reordered)",
                    expect - 1,
                    last_state,
                )
            prev = stored
            expect += 1
        return "", expect - 1, last_state

    def _row_totals(self) -> dict[str, int]:
        """The meters as the rows add them up (through :func:`round_effects` and
        :func:`event_effects`, applied once per distinct row shape)."""
        totals: dict[str, int] = {}

        def add(effects: Mapping[str, int], times: int) -> None:
            for k, v in effects.items():
                totals[k] = totals.get(k, 0) + v * times

        keys = ("state", "ante", "blind", "trips", "play", "paid", "jackpot")
        cols = ", ".join(keys)
        for *values, n in self.conn.execute(f"SELECT {cols}, COUNT(*) FROM rounds GROUP BY {cols}"):
            add(round_effects(dict(zip(keys, values, strict=True))), n)
        for kind, amount, n in self.conn.execute(
            "SELECT kind, amount, COUNT(*) FROM events GROUP BY kind, amount"
        ):
            add(event_effects(kind, amount), n)
        return {k: v for k, v in totals.items() if v or k in METERS}


#: Arithmetic every closed round must satisfy: (SQL condition of a bad row, what is wrong).
_ROUND_ARITHMETIC = (
    (
        "state <> 'open' AND credits_after IS NOT credits_before - (ante + blind + trips + play) + paid",
        "credits after != credits before - staked + paid",
    ),
    (
        "state = 'settled' AND paid + jackpot IS NOT ante_return + blind_return + play_return + trips_return",
        "paid + jackpot != the sum of the returns",
    ),
    (
        "state = 'open' AND credits_after IS NOT credits_before - (ante + blind + trips + play)",
        "credits after != credits before - staked",
    ),
)


def _deck_bytes(text: str) -> bytes | None:
    """A stored deck (run-together notation) as one byte per card, None if malformed."""
    try:
        deck = bytes(_CARD_CODES[text[i : i + 2]] for i in range(0, len(text), 2))
    except KeyError:
        return None
    return deck if len(deck) == 52 == len(set(deck)) else None


class _Replayer:
    """Re-plays settled rounds through the engine (for ``verify(replay=True)``)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.tables: dict[str, Paytable] = {}

    def check(self, row: Mapping[str, Any]) -> str:
        from engine.uth import UthRound  # the engine is only needed for a replay

        sha = row["paytable_sha256"]
        if sha not in self.tables:
            self.tables[sha] = self.ledger.paytable(sha)
        rnd = UthRound(self.tables[sha], parse_cards(row["deck"]))
        try:
            rnd.place_bets(row["seat"], row["ante"], row["trips"])
            rnd.deal()
            for _phase, action, _play, _at in json.loads(row["decisions"]):
                rnd.act(row["seat"], action)
        except ValueError as exc:
            return f"replay refused: {exc}"
        result = rnd.outcome()
        if result is None:
            return "replay: the decisions do not finish the round"
        seat = result.seat(row["seat"])
        got = (
            seat.ante_return,
            seat.blind_return,
            seat.play_return,
            seat.trips_return,
            seat.breakage,
            seat.play,
            format_cards(seat.hole, ""),
            format_cards(result.board, ""),
        )
        want = (
            row["ante_return"],
            row["blind_return"],
            row["play_return"],
            row["trips_return"],
            row["breakage"],
            row["play"],
            row["player_hole"],
            row["board"],
        )
        if got != want:
            return f"replay settles differently: engine {got}, ledger {want}"
        return ""


# -- install marker ------------------------------------------------------------------------
def read_marker(marker: Path) -> dict[str, str] | None:
    try:
        return json.loads(Path(marker).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {"ledger_id": "(unreadable marker)"}


def write_marker(marker: Path, ledger_id: str, created_at: str) -> None:
    marker = Path(marker)
    marker.parent.mkdir(parents=True, exist_ok=True)
    tmp = marker.with_name(marker.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(dumps({"ledger_id": ledger_id, "created_at": created_at}) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, marker)
    _fsync_dir(marker.parent)


def open_or_create(
    path: Path,
    marker: Path,
    *,
    paytable: Callable[[], Paytable],
    machine_number: str = "",
    casino_name: str = "",
) -> tuple[Ledger, bool]:
    """Open the cabinet's ledger, creating it only on a first run (no database, no marker)
    with the paytable ``paytable()`` in force.

    Returns ``(ledger, created)``.  Raises :class:`LedgerMissingError` when the database
    is gone but the marker shows this cabinet had one.
    """
    path, marker = Path(path), Path(marker)
    if path.exists():
        return Ledger.open(path, marker=marker), False
    info = read_marker(marker)
    if info is not None:
        raise LedgerMissingError(
            f"ledger {path} is missing but this cabinet was installed with ledger "
            f"{info.get('ledger_id')} (created {info.get('created_at')}, marker {marker}); "
            "restore the database, or start a new ledger deliberately with `uth audit init --force`"
        )
    return Ledger.create(
        path,
        paytable=paytable(),
        machine_number=machine_number,
        casino_name=casino_name,
        marker=marker,
    ), True
