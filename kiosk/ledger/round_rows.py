"""The open round's rows: one row per seat of the round on the table, chained at the end
of the rounds chain.

A round of a table is dealt to one or more seats (a single cabinet: seat 1 only).  Each
seat has its own row; the rows of the open round are the last rows of the chain, share
the deck's commitment (one deck deals every seat) and each has its recovery deck.  While
they are open they are re-chained from the hash before the first of them whenever one
changes; they close together (one transaction settles every seat), and a closed row is
never changed again (the ``rounds_frozen`` trigger).

The functions here compute rows; :class:`~kiosk.ledger.ledger.Ledger` writes them with
their meter effects in one transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypedDict, cast

from kiosk.ledger.chain import chain_hash
from kiosk.ledger.errors import LedgerError
from kiosk.ledger.schema import ROUND_COLUMNS
from kiosk.ledger.stations import check_station

#: A row's MAC from its hash (None without the cabinet key).
Mac = Callable[[str], str | None]


class DealtColumns(TypedDict):
    """A seat's columns written at the deal (amounts in cents; cards as text)."""

    started_at: str
    seat: int
    paytable: str
    paytable_sha256: str
    ante: int
    blind: int
    trips: int
    play: int
    decisions: str
    player_hole: str
    credits_before: int
    credits_after: int


class RoundChange(TypedDict, total=False):
    """Columns an open seat's row may change: at a decision (``play``, ``decisions``,
    ``credits_after``), at settlement (the results) or at a void (cents)."""

    state: str
    settled_at: str
    play: int
    decisions: str
    dealer_hole: str
    board: str
    player_hand: str
    player_category: str
    dealer_hand: str
    dealer_category: str
    dealer_qualifies: int
    outcome: str
    ante_return: int
    blind_return: int
    play_return: int
    trips_return: int
    breakage: int
    breakage_unit: int
    paid: int
    jackpot: int
    credits_after: int


class RoundRow(DealtColumns):
    """A whole row of the rounds table as the ledger keeps the open round (columns of
    :data:`~kiosk.ledger.schema.ROUND_COLUMNS`; those not set yet are None)."""

    id: int
    state: str
    settled_at: str | None
    commitment: str
    salt: str | None
    deck: str | None
    dealer_hole: str | None
    board: str | None
    player_hand: str | None
    player_category: str | None
    dealer_hand: str | None
    dealer_category: str | None
    dealer_qualifies: int | None
    outcome: str | None
    ante_return: int | None
    blind_return: int | None
    play_return: int | None
    trips_return: int | None
    breakage: int | None
    breakage_unit: int | None
    paid: int | None
    jackpot: int | None
    hash: str
    mac: str | None


def new_rows(
    rows: Sequence[DealtColumns], first_id: int, commitment: str, prev: str, mac: Mac
) -> list[RoundRow]:
    """The open rows of a new round, ids from ``first_id``, chained after ``prev``: every
    column of :data:`ROUND_COLUMNS`, state ``open``, the deck sealed (``commitment``
    only).  Seats must be distinct stations (1-7)."""
    if not rows:
        raise LedgerError("a round is dealt to at least one seat")
    seats = [check_station(r.get("seat")) for r in rows]
    if len(set(seats)) != len(seats):
        raise LedgerError(f"a seat is dealt once per round (seats {seats})")
    out: list[RoundRow] = []
    for i, row in enumerate(rows):
        full: dict[str, Any] = {c: None for c in ROUND_COLUMNS}
        full.update(cast(Mapping[str, Any], row))
        full.update(id=first_id + i, state="open", commitment=commitment, salt=None, deck=None)
        full["hash"] = prev = chain_hash(prev, full)
        full["mac"] = mac(prev)
        out.append(cast(RoundRow, full))
    return out


def changed_rows(
    open_rows: Sequence[RoundRow],
    changes: Mapping[int, RoundChange],
    prev: str,
    mac: Mac,
    recovery: Callable[[int], tuple[str, str]],
) -> list[RoundRow]:
    """The open rows after ``changes`` (round id -> columns), re-chained after ``prev``
    (the hash before the first open row).  Rows that close (``state`` settled or voided)
    get their deck and salt published from ``recovery(round_id)``.  Raises
    :class:`LedgerError` for a row that is not open or when some rows would close and
    others stay open."""
    if not open_rows:
        raise LedgerError("no round is open")
    unknown = sorted(set(changes) - {r["id"] for r in open_rows})
    if unknown:
        raise LedgerError(f"round {unknown[0]} is not open")
    out: list[RoundRow] = []
    for row in open_rows:
        new: dict[str, Any] = dict(row)
        new.update(changes.get(row["id"], {}))
        if new["state"] != "open":
            new["deck"], new["salt"] = recovery(row["id"])
        new["hash"] = prev = chain_hash(prev, new)
        new["mac"] = mac(prev)
        out.append(cast(RoundRow, new))
    if len({r["state"] == "open" for r in out}) > 1:
        raise LedgerError("the seats of a round close together")
    return out
