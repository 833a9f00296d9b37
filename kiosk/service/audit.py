"""Reads of the ledger for the operators: verification, meters, events, export and the
hold report.  The caller holds the service's lock (:meth:`kiosk.service.table.Table.read`),
so a page never sees the ledger half way through an operation.  Amounts are cents."""

from __future__ import annotations

from pathlib import Path

from kiosk.config import role_at_least
from kiosk.game.paytables.hold import PaytableHold, ledger_hold
from kiosk.ledger.export import export_ledger
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.masking import mask_event
from kiosk.ledger.records import EventRecord, VerifyReport
from kiosk.service.state import TableState


class Audit:
    """Read-only views of the game's ledger (none when it is not open)."""

    def __init__(self, state: TableState) -> None:
        self.state = state

    def verify(self, replay: bool = False) -> VerifyReport | None:
        """The full check of the ledger (both hash chains, every dealt deck against its
        commitment, the meters; ``replay``: every round settled again), or None when no
        ledger is open."""
        ledger = self.state.ledger
        return ledger.verify(replay=replay) if ledger is not None else None

    def meters(self, station: int | None = None) -> dict[str, int] | None:
        """Every meter by name (cents or counts), the table's or ``station``'s; None when
        no ledger is open."""
        ledger = self.state.ledger
        if ledger is None:
            return None
        return dict(ledger.meters) if station is None else ledger.station_meter_readings(station)

    def events(
        self, kinds: tuple[EventKind, ...] = (), last: int | None = None, *, viewer: int = 1
    ) -> list[EventRecord]:
        """Events of ``kinds`` (all when empty), the ``last`` ones only if given, oldest
        first, with ticket validation numbers masked to their last 4 digits unless the
        operator logged in at station ``viewer`` is a manager; none when no ledger is
        open."""
        ledger = self.state.ledger
        events = ledger.events(kinds, last=last) if ledger is not None else []
        session = self.state.stations[viewer].operator if viewer in self.state.stations else None
        if session is not None and role_at_least(session.role, "manager"):
            return events
        return [mask_event(e) for e in events]

    def ledger_id(self) -> str | None:
        """The ledger's identity, or None when no ledger is open."""
        ledger = self.state.ledger
        return ledger.ledger_id if ledger is not None else None

    def export(self, path: str | Path) -> Path:
        """Write the rounds, events and meters with their hashes as JSON to ``path``
        (missing folders created); returns the path.  Raises ``OSError`` when it cannot
        be written."""
        ledger = self.state.require_ledger_open()
        return export_ledger(ledger, path, fmt="json", mkdir=True)

    def hold(self, since: str | None = None) -> list[PaytableHold]:
        """The hold report of the settled rounds per paytable (the optimal figures read
        only with this machine's signed proof, else marked unproven)."""
        ledger = self.state.ledger
        return ledger_hold(ledger, since, compute=False) if ledger is not None else []
