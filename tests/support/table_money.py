"""Credits at a table station with no validator, as a validator's note goes: the escrow
accepted (phase one), then reported stacked by VEND VALID (phase two).  The game service
has no other way for a note to become credits."""

from __future__ import annotations

import itertools

from kiosk.table.commands import AcceptEscrow, SettleEscrow
from kiosk.table.table import Table

_NOTES = itertools.count(1)


def credit(table: Table, station: int, cents: int) -> str:
    """A note of ``cents`` into ``station``'s meter, two-phase; returns how it ended."""
    txn = f"s{station}-note-{next(_NOTES)}"
    table.execute(station, AcceptEscrow(txn, cents))
    return str(table.execute(station, SettleEscrow(txn, "stacked", "vend_valid")))
