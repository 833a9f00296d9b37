"""Credits at a table station with no validator, as a validator's notes go: each note's
escrow accepted (phase one), then reported stacked by VEND VALID (phase two).  The game
service has no other way for a note to become credits, and it takes only its
configuration's denominations: an amount is paid in the largest notes that make it."""

from __future__ import annotations

import itertools

from kiosk.link.outcomes import EscrowEnd
from kiosk.service.device_commands import AcceptEscrow, SettleEscrow
from kiosk.service.table import Table

_NOTES = itertools.count(1)


def notes_for(table: Table, cents: int) -> list[int]:
    """``cents`` in the table's accepted notes, largest first; ValueError when they
    cannot make it."""
    out, left = [], cents
    for note in sorted(table.config.accepted_bills, reverse=True):
        while left >= note:
            out.append(note)
            left -= note
    if left:
        raise ValueError(f"{cents} cents cannot be paid in notes of {table.config.accepted_bills}")
    return out


def credit(table: Table, station: int, cents: int) -> str:
    """Notes worth ``cents`` into ``station``'s meter, two-phase; returns how the last
    one ended (``credited``)."""
    how = ""
    for note in notes_for(table, cents):
        txn = f"s{station}-note-{next(_NOTES)}"
        table.execute(station, AcceptEscrow(txn, note))
        how = str(table.execute(station, SettleEscrow(txn, EscrowEnd.VEND_VALID)))
    return how
