"""The soak's reckoning from the host's ledger (:func:`check`), read with the project's
own readers (:class:`~kiosk.ledger.ledger.Ledger` read-only, ``uth audit meters
--station N --json``, ``uth audit verify --replay``) against what each station's
validator simulator holds.  Per station, in cents::

    notes in + tickets in + test credits in
        = tickets out + handpays + jackpots + credits + pending payout - net of its seat

where the net of its seat is, over every round row of that seat, paid + jackpot -
staked; the notes the validator stacked equal the notes credited from it (each txn
once).  Every ticket printed is issued or redeemed in the ledger, and each cash box
holds exactly the tickets credited at its station, none twice.  Every seat row of every
round is settled, none twice.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from support.table_soak import barcode

from kiosk.ledger.ledger import Ledger

if TYPE_CHECKING:
    from support.table_soak import Soak

#: The txn prefix of a note the station's autoplay inserts itself (no validator).
VIRTUAL_NOTE = "note-"
MONEY_EVENTS = ("bill_in", "ticket_in", "test_credits_in", "cashout", "cashout_failed")
OUT_EVENTS = ("handpay", "ticket_out")


@dataclass
class StationBook:
    """One station's money from the ledger and its validator (cents)."""

    station: int
    validator_notes: int = 0
    virtual_notes: int = 0
    tickets_in: int = 0
    test_credits: int = 0
    tickets_out: int = 0
    handpays: int = 0
    jackpots: int = 0
    credits: int = 0
    pending: int = 0
    seat_net: int = 0
    rounds: int = 0
    cashbox_notes: int = 0
    returned_notes: int = 0
    inserted_notes: int = 0
    cashbox_tickets: int = 0
    ticket_in_count: int = 0

    @property
    def money_in(self) -> int:
        return self.validator_notes + self.virtual_notes + self.tickets_in + self.test_credits

    @property
    def imbalance(self) -> int:
        """Money in minus where it went (0 when it balances)."""
        out = self.tickets_out + self.handpays + self.jackpots + self.credits + self.pending
        return self.money_in - (out - self.seat_net)


@dataclass
class SoakResult:
    """What the soak did and what the ledger says."""

    books: dict[int, StationBook] = field(default_factory=dict)
    cuts: Counter[str] = field(default_factory=Counter)
    link: Counter[str] = field(default_factory=Counter)
    rounds: int = 0
    seat_rows: int = 0
    #: the ledger's tickets by status
    tickets: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    @property
    def money_lost(self) -> int:
        """Cents unaccounted for: imbalances and notes stacked but not credited."""
        return sum(
            abs(b.imbalance) + abs(b.cashbox_notes - b.validator_notes) for b in self.books.values()
        )

    def summary(self) -> str:
        cuts = ", ".join(f"{k} {v}" for k, v in sorted(self.cuts.items()))
        notes = sum(b.validator_notes for b in self.books.values())
        returned = sum(b.returned_notes for b in self.books.values())
        virtual = sum(b.virtual_notes for b in self.books.values())
        tickets = sum(b.ticket_in_count for b in self.books.values())
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(self.tickets.items()))
        link = self.link
        return (
            f"soak: cuts [{cuts}]; rounds {self.rounds} ({self.seat_rows} seats); "
            f"notes {notes} cents credited, {returned} returned, {virtual} autoplay's own; "
            f"tickets redeemed {tickets} (ledger: {statuses or 'none'}); "
            f"links {link['connections']} connections, {link['delay']} chunks delayed, "
            f"{link['swallowed']} swallowed; "
            f"money lost {self.money_lost} cents; problems {len(self.problems)}"
        )


def _uth(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def _book(ledger: Ledger, n: int, held: dict[str, Any], problems: list[str]) -> StationBook:
    book = StationBook(n)
    txns: Counter[tuple[str, str]] = Counter()
    cashouts = 0
    for e in ledger.events(MONEY_EVENTS + OUT_EVENTS, station=n):
        if e.txn is not None:
            txns[(e.kind, e.txn)] += 1
        if e.kind == "bill_in":
            if (e.txn or "").startswith(VIRTUAL_NOTE):
                book.virtual_notes += e.amount
            else:
                book.validator_notes += e.amount
        elif e.kind == "ticket_in":
            book.tickets_in += e.amount
            book.ticket_in_count += 1
        elif e.kind == "test_credits_in":
            book.test_credits += e.amount
        elif e.kind == "cashout":
            cashouts += e.amount
        elif e.kind == "cashout_failed":
            cashouts -= e.amount
        elif e.kind == "handpay":
            book.handpays += e.amount
        elif e.kind == "ticket_out":
            book.tickets_out += e.amount
    twice = [f"{kind} {txn}" for (kind, txn), count in txns.items() if count > 1]
    if twice:
        problems.append(f"station {n}: recorded more than once: {', '.join(twice)}")
    book.pending = cashouts - book.handpays - book.tickets_out
    for row in ledger.round_rows("WHERE seat = ?", (n,)):
        staked = row["ante"] + row["blind"] + row["play"] + row["trips"]
        jackpot = row["jackpot"] or 0
        book.jackpots += jackpot
        book.seat_net += (row["paid"] or 0) + jackpot - staked
        book.rounds += 1
    book.credits = ledger.station_meter_readings(n).get("credits", 0)
    book.cashbox_notes = sum(i["bill"] for i in held["cashbox"] if "bill" in i)
    book.cashbox_tickets = sum(1 for i in held["cashbox"] if "ticket" in i)
    book.returned_notes = sum(i["bill"] for i in held["returned"] if "bill" in i)
    if held["queue"] or held["item"]:
        problems.append(f"station {n}: the validator still holds a note or a queue: {held}")
    return book


def _tickets(ledger: Ledger, soak: Soak, result: SoakResult) -> None:
    """Every ticket a printer printed is issued or redeemed in the ledger, every ticket the
    ledger says was printed came out of that station's printer, and each cash box holds
    exactly the tickets credited at its station, each once."""
    printed: dict[str, int] = {}
    for n, station in soak.stations.items():
        for text in station.held.get("printed", ()):
            if barcode(text):
                printed[barcode(text)] = n
    records = {t.validation: t for t in ledger.tickets()}
    result.tickets = Counter(t.status for t in records.values())
    for number, n in sorted(printed.items()):
        record = records.get(number)
        if record is None or record.station != n:
            result.problems.append(f"ticket {number} printed at station {n}: {record}")
    for record in records.values():
        if record.status in ("issued", "redeemed") and printed.get(record.validation) is None:
            result.problems.append(f"ticket {record.validation} never came out: {record}")
    redeemed: Counter[str] = Counter()
    for n, station in soak.stations.items():
        credited = [
            str(e.detail.get("validation")) for e in ledger.events(("ticket_in",), station=n)
        ]
        redeemed.update(credited)
        boxed = sorted(i["ticket"] for i in station.held.get("cashbox", ()) if "ticket" in i)
        if boxed != sorted(credited):
            result.problems.append(f"station {n}: tickets in the box {boxed}, credited {credited}")
    twice = [number for number, count in redeemed.items() if count > 1]
    if twice:
        result.problems.append(f"tickets redeemed twice: {twice}")


def check(soak: Soak) -> SoakResult:
    """Reckon the finished soak (see the module); problems are listed, not raised."""
    result = SoakResult(cuts=Counter(soak.cuts), problems=list(soak.problems))
    for station in soak.stations.values():
        result.link.update(station.proxy.counts)
    ledger = Ledger.open(soak.db, readonly=True)
    try:
        rows = ledger.round_rows("ORDER BY id")
        for n, station in soak.stations.items():
            book = _book(ledger, n, station.held, result.problems)
            book.inserted_notes = station.inserted
            if book.inserted_notes != book.cashbox_notes + book.returned_notes:
                result.problems.append(
                    f"station {n}: inserted {book.inserted_notes} != cash box "
                    f"{book.cashbox_notes} + returned {book.returned_notes}"
                )
            result.books[n] = book
            if book.imbalance:
                result.problems.append(f"station {n} does not balance by {book.imbalance}: {book}")
            if book.cashbox_notes != book.validator_notes:
                result.problems.append(
                    f"station {n}: cash box {book.cashbox_notes} != credited {book.validator_notes}"
                )
            if book.cashbox_tickets != book.ticket_in_count:
                result.problems.append(
                    f"station {n}: {book.cashbox_tickets} tickets in the box, "
                    f"{book.ticket_in_count} credited"
                )
            if book.pending:
                result.problems.append(f"station {n}: a payout of {book.pending} still pending")
        _tickets(ledger, soak, result)
    finally:
        ledger.close()
    open_rows = [(r["id"], r["seat"]) for r in rows if r["state"] != "settled"]
    if open_rows:
        result.problems.append(f"seat rows not settled: {open_rows}")
    seats = Counter((r["commitment"], r["seat"]) for r in rows)
    twice = [key for key, count in seats.items() if count > 1]
    if twice:
        result.problems.append(f"seats settled twice: {twice}")
    result.rounds = len({r["commitment"] for r in rows})
    result.seat_rows = len(rows)
    for n, book in result.books.items():
        meters = _uth("audit", "meters", "--db", str(soak.db), "--station", str(n), "--json")
        if meters.returncode != 0:
            result.problems.append(f"audit meters --station {n}: {meters.stderr.strip()}")
            continue
        bal = json.loads(meters.stdout)["balance"]
        if not bal["balanced"] or bal["credits"] != book.credits:
            result.problems.append(f"audit meters --station {n}: {bal}")
        if bal["credits_in"] != book.money_in:
            result.problems.append(f"station {n}: meters {bal['credits_in']} in != {book.money_in}")
    verify = _uth("audit", "verify", "--replay", "--db", str(soak.db))
    if verify.returncode != 0:
        result.problems.append(f"audit verify --replay: {(verify.stdout + verify.stderr)[-800:]}")
    return result
