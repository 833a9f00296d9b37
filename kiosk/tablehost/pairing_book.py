"""The table host's count of wrong pairing codes, kept in the table's ledger
(:mod:`kiosk.service.locks`): a :class:`~kiosk.link.pairing.MissBook` no file beside the
ledger can reset.

    book = LedgerMissBook(table, "stations")        # or "displays"
    pairing = HostPairing(folder, book)
    book.reopen(pin)                                # a technician's PIN at the host

A table whose ledger cannot be read or written (the ``ledger`` tilt: a missing, edited
or forged row among them) counts as locked: pairing stays shut until the ledger is
restored and a technician reopens it.
"""

from __future__ import annotations

import logging
import sqlite3

from kiosk.game.errors import MachineError
from kiosk.game.vocabulary import LEDGER_TILT
from kiosk.ledger.errors import LedgerError
from kiosk.link.pairing import MAX_PAIRING_MISSES
from kiosk.service.device_commands import PairingMiss, ReopenPairing
from kiosk.service.locks import HOST, PAIRING_SCOPES, pairing_misses
from kiosk.service.table import Table

log = logging.getLogger(__name__)


class LedgerMissBook:
    """The wrong pairing codes of ``scope`` (``stations`` or ``displays``) in ``table``'s
    ledger; thread-safe through the table's lock."""

    def __init__(self, table: Table, scope: str) -> None:
        if scope not in PAIRING_SCOPES:
            raise ValueError(f"a pairing scope is one of {PAIRING_SCOPES}, not {scope!r}")
        self.table = table
        self.scope = scope

    def misses(self) -> int:
        with self.table.lock:
            ledger = self.table.ledger
            if ledger is None or LEDGER_TILT in self.table.tilt_texts(HOST):
                return MAX_PAIRING_MISSES
            try:
                return pairing_misses(ledger, self.scope)
            except (LedgerError, sqlite3.Error) as exc:
                log.error("pairing misses cannot be read: %s", exc)
                return MAX_PAIRING_MISSES

    def missed(self, station_id: str, seat: int) -> int:
        miss = PairingMiss(self.scope, station_id, seat, MAX_PAIRING_MISSES)
        try:
            count = self.table.execute(HOST, miss)
        except MachineError as exc:
            log.error("a wrong pairing code was not recorded: %s", exc.reason)
            return MAX_PAIRING_MISSES
        return count if isinstance(count, int) else MAX_PAIRING_MISSES

    def reopen(self, pin: str) -> str:
        """A technician at the host reopens pairing with their PIN (recorded with them);
        returns their name.  Raises :class:`MachineError` (``wrong_pin``,
        ``role_required``, ``ledger_fault``...)."""
        return str(self.table.execute(HOST, ReopenPairing(self.scope, pin)))
