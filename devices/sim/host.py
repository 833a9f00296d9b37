"""A reference :class:`~devices.host.ValidatorHost` that records every call.

Used by the tests, the ``uth devices`` commands and demo mode.  It accepts every note,
redeems tickets it was told about (``tickets``: barcode -> cents), and can be told to
refuse notes.  It is thread-safe; the driver calls it from its polling thread.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from devices.host import DeviceEvent


@dataclass
class RecordingHost:
    """Records decisions, credits, aborts and events, in call order."""

    accept_bills: bool = True
    tickets: dict[str, int] = field(default_factory=dict)
    escrows: list[tuple[str, int | str, str]] = field(default_factory=list)
    credits: list[tuple[str, int, str]] = field(default_factory=list)
    aborts: list[tuple[str, str]] = field(default_factory=list)
    events: list[DeviceEvent] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def escrow_decision(self, denomination_cents: int, transaction_id: str) -> bool:
        with self._lock:
            self.escrows.append(("bill", denomination_cents, transaction_id))
            return self.accept_bills

    def bill_credited(self, denomination_cents: int, transaction_id: str) -> None:
        with self._lock:
            self.credits.append(("bill", denomination_cents, transaction_id))

    def ticket_escrow(self, barcode: str, transaction_id: str) -> int | None:
        with self._lock:
            self.escrows.append(("ticket", barcode, transaction_id))
            return self.tickets.get(barcode)

    def ticket_credited(self, barcode: str, amount_cents: int, transaction_id: str) -> None:
        with self._lock:
            self.credits.append(("ticket", amount_cents, transaction_id))
            self.tickets.pop(barcode, None)  # a ticket is redeemed once

    def escrow_aborted(self, transaction_id: str, reason: str) -> None:
        with self._lock:
            self.aborts.append((transaction_id, reason))

    def device_event(self, event: DeviceEvent) -> None:
        with self._lock:
            self.events.append(event)

    @property
    def credited_cents(self) -> int:
        """Total credited so far, in cents."""
        with self._lock:
            return sum(cents for _, cents, _ in self.credits)

    def kinds(self, *, active: bool | None = True) -> list[str]:
        """Event kinds received (only active ones by default; None for all)."""
        with self._lock:
            return [e.kind.value for e in self.events if active is None or e.active == active]
