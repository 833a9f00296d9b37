"""Escrows accepted: a note or ticket the cabinet told the validator to stack, from that
decision to its credit or its return, recorded so that it is finished exactly once
whatever power cuts fall in between.  Amounts are cents.

Phase one, before STACK: an ``escrow_accepted`` event, committed (``synchronous=FULL``),
naming the validator's transaction (``txn``), the item (``{"item": "bill",
"denomination": cents}`` or ``{"item": "ticket", "validation": number}``), its amount
and the time.  If it cannot be written the item is returned (see
:mod:`kiosk.machine.credits_in`).

Phase two, once per transaction (the ledger's unique ``(txn, kind)`` index refuses a
second of each kind): ``bill_in`` / ``ticket_in`` (credited: the item is in the box),
``escrow_aborted`` (returned to the patron: a ticket stays valid), ``escrow_in_doubt``
(a fault ended the escrow and where the item went is unknown: a tilt names it) or
``ticket_rejected`` (a stacked ticket that could not be redeemed: a tilt names it).

An open escrow is *live* while the driver session that accepted it runs; after a
restart, or once the validator's port was lost, it is an *orphan* that the validator's
next report settles (see :class:`kiosk.machine.credits_in.CreditsIn`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.money import format_cents
from kiosk.ledger.ledger import Ledger
from kiosk.machine.state import CabinetState

#: The event kinds that finish an accepted escrow.
RESOLUTIONS = ("bill_in", "ticket_in", "escrow_aborted", "escrow_in_doubt", "ticket_rejected")
#: How many of the latest accepted escrows power-up looks at (a validator holds one
#: item at a time, so at most the last one is open after a power cut).
RECENT = 8

Item = Literal["bill", "ticket"]


@dataclass(frozen=True)
class Escrow:
    """One accepted escrow: ``amount`` cents; ``validation`` is a ticket's number
    (empty for a note)."""

    txn: str
    item: Item
    amount: int
    validation: str = ""

    @property
    def what(self) -> str:
        """The item in words, for tilts and logs."""
        if self.item == "ticket":
            return f"ticket {self.validation} for {format_cents(self.amount)}"
        return f"note of {format_cents(self.amount)}"


def is_resolved(ledger: Ledger, txn: str) -> bool:
    """True when an event finishing the escrow ``txn`` is recorded."""
    return any(ledger.has_txn(txn, kind) for kind in RESOLUTIONS)


def unresolved(ledger: Ledger) -> list[Escrow]:
    """The accepted escrows among the :data:`RECENT` latest that nothing finished yet,
    oldest first."""
    found = []
    for ev in ledger.events(("escrow_accepted",), last=RECENT):
        if ev.txn and not is_resolved(ledger, ev.txn):
            item: Item = "ticket" if ev.detail.get("item") == "ticket" else "bill"
            found.append(Escrow(ev.txn, item, ev.amount, str(ev.detail.get("validation", ""))))
    return found


class Escrows:
    """The open accepted escrows and which of them are live.  Writes only
    ``escrow_accepted``; whoever finishes an escrow records the finishing event and then
    calls :meth:`forget`."""

    def __init__(self, state: CabinetState) -> None:
        self.state = state
        ledger = state.ledger
        self._open: dict[str, Escrow] = (
            {e.txn: e for e in unresolved(ledger)} if ledger is not None else {}
        )
        self._live: set[str] = set()

    def get(self, txn: str) -> Escrow | None:
        """The open escrow ``txn``, None if it is not open."""
        return self._open.get(txn)

    def orphans(self) -> list[Escrow]:
        """Open escrows no running driver session knows of, oldest first."""
        return [e for t, e in self._open.items() if t not in self._live]

    def latest(self) -> Escrow | None:
        """The most recently accepted open escrow (the item the validator handles)."""
        return next(reversed(self._open.values()), None)

    def holding(self, validation: str, *, but: str | None = None) -> Escrow | None:
        """The live escrow (other than ``but``) holding the ticket ``validation``."""
        for txn in self._live:
            escrow = self._open.get(txn)
            if escrow is not None and txn != but and escrow.validation == validation:
                return escrow
        return None

    def was_accepted(self, txn: str) -> bool:
        """True when ``txn`` was ever accepted (open or finished)."""
        ledger = self.state.ledger
        return txn in self._open or (ledger is not None and ledger.has_txn(txn, "escrow_accepted"))

    def record(self, escrow: Escrow) -> None:
        """Write ``escrow_accepted`` (inside the caller's transaction); call
        :meth:`opened` once it is committed."""
        detail: dict[str, object] = {"item": escrow.item}
        if escrow.item == "ticket":
            detail["validation"] = escrow.validation
        else:
            detail["denomination"] = escrow.amount
        self.state.event("escrow_accepted", detail, amount=escrow.amount, txn=escrow.txn)

    def opened(self, escrow: Escrow) -> None:
        """The escrow is committed and live."""
        self._open[escrow.txn] = escrow
        self._live.add(escrow.txn)

    def orphan(self, txn: str) -> None:
        """The driver session of ``txn`` lost track of it (the port vanished)."""
        self._live.discard(txn)

    def forget(self, txn: str) -> None:
        """The escrow ``txn`` is finished (its finishing event is committed)."""
        self._open.pop(txn, None)
        self._live.discard(txn)
