"""Reads of the ledger for the operator screens: verification, meters, events, export.

Each read goes through the controller, under its lock, so a screen never sees the
ledger half way through an operation.  Amounts are cents.
"""

from __future__ import annotations

from pathlib import Path

from kiosk.config import role_at_least
from kiosk.ledger.export import export_ledger
from kiosk.ledger.masking import mask_event
from kiosk.ledger.records import EventRecord, VerifyReport
from kiosk.machine.state import LEDGER_TILT, CabinetState


def tilt_on_anchor_failure(state: CabinetState) -> None:
    """Turn every failed anchor write of the cabinet's ledger into the ``ledger`` tilt
    (play stops: the database can no longer be shown to be the latest), including one
    that failed while the ledger was being opened."""
    ledger = state.ledger
    if ledger is None:
        return

    def tilt(reason: str) -> None:
        state.tilts[LEDGER_TILT] = reason

    ledger.on_anchor_problem = tilt
    if ledger.anchor_problem:
        tilt(ledger.anchor_problem)


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
        first, with ticket validation numbers masked to their last 4 digits unless the
        operator logged in is a manager; none when no ledger is open."""
        ledger = self.state.ledger
        events = ledger.events(kinds, last=last) if ledger is not None else []
        if role_at_least(self.state.operator, "manager"):
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
