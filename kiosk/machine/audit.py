"""Reads of the ledger for the operator screens: verification, meters, events, export.

Each read goes through the controller, under its lock, so a screen never sees the
ledger half way through an operation.  Amounts are cents.
"""

from __future__ import annotations

from pathlib import Path

from kiosk.ledger.export import export_ledger
from kiosk.ledger.records import EventRecord, VerifyReport
from kiosk.machine.state import CabinetState


class Audit:
    """Read-only views of the cabinet's ledger (none when it is not open)."""

    def __init__(self, state: CabinetState) -> None:
        self.state = state

    def verify(self, replay: bool = False) -> VerifyReport | None:
        """The full check of the ledger (both hash chains, every dealt deck against its
        commitment, the meters; ``replay``: every round settled again), or None when no
        ledger is open."""
        ledger = self.state.ledger
        return ledger.verify(replay=replay) if ledger is not None else None

    def meters(self) -> dict[str, int] | None:
        """Every meter by name (cents or counts), or None when no ledger is open."""
        ledger = self.state.ledger
        return dict(ledger.meters) if ledger is not None else None

    def events(self, kinds: tuple[str, ...] = (), last: int | None = None) -> list[EventRecord]:
        """Events of ``kinds`` (all when empty), the ``last`` ones only if given, oldest
        first; none when no ledger is open."""
        ledger = self.state.ledger
        return ledger.events(kinds, last=last) if ledger is not None else []

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
