"""Escrows accepted: a note or ticket a station's validator was told to stack, from that
decision to its credit or its return, recorded so that it is finished exactly once
whatever power cuts fall in between.  Amounts are cents.

Phase one, before STACK: an ``escrow_accepted`` event about the station, committed
(``synchronous=FULL``), naming the validator's transaction (``txn``), the item
(``{"item": "bill", "denomination": cents}`` or ``{"item": "ticket", "validation":
number}``) and its amount.  If it cannot be written the item is returned (see
:mod:`kiosk.service.money_in`).

Phase two, once per transaction (the ledger's unique ``(txn, kind)`` index refuses a
second of each kind): ``bill_in`` / ``ticket_in`` (credited: the item is in the box),
``escrow_aborted`` (returned to the patron: a ticket stays valid), ``escrow_in_doubt``
(a fault ended the escrow and where the item went is unknown: a tilt names it) or
``ticket_rejected`` (a stacked ticket that could not be redeemed: a tilt names it).

An open escrow is *live* while the validator session that accepted it runs; after a
restart of either end, or once the validator's port was lost, it is an *orphan* that
the validator's next report settles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.money import format_cents
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.link.outcomes import EscrowEnd, MoneyOutcome

#: The event kinds that finish an accepted escrow, with how each leaves it.
RESOLUTIONS: dict[EventKind, MoneyOutcome] = {
    EventKind.BILL_IN: MoneyOutcome.CREDITED,
    EventKind.TICKET_IN: MoneyOutcome.CREDITED,
    EventKind.SYSTEM_TICKET_IN: MoneyOutcome.CREDITED,
    EventKind.TICKET_REJECTED: MoneyOutcome.REJECTED,
    EventKind.ESCROW_ABORTED: MoneyOutcome.RETURNED,
    EventKind.ESCROW_IN_DOUBT: MoneyOutcome.IN_DOUBT,
}
#: An escrow ended for one of these reasons: the item is in the box, it is credited.
STACKED_REASONS = frozenset({"power_up_bill_in_stacker", "stacked_without_vend_valid"})
#: Reasons meaning the item went back to the patron (or never left the escrow).
RETURNED_REASONS = frozenset(
    {"refused", "returned", "rejected", "superseded", "power_up", "power_up_bill_in_acceptor"}
)
#: The reason meaning the driver lost the validator: the escrow waits for its next report.
PORT_LOST = "port_lost"
#: How many of a station's latest accepted escrows power-up looks at (a validator holds
#: one item at a time, so at most the last one is open after a power cut).
RECENT = 8

Item = Literal["bill", "ticket"]


@dataclass(frozen=True)
class Escrow:
    """One accepted escrow: ``amount`` cents; ``validation`` is a ticket's number
    (empty for a note); ``system``: a ticket of another machine, its amount the casino's
    system's."""

    txn: str
    item: Item
    amount: int
    validation: str = ""
    system: bool = False

    @property
    def what(self) -> str:
        """The item in words, for tilts and logs."""
        if self.item == "ticket":
            return f"ticket {self.validation} for {format_cents(self.amount)}"
        return f"note of {format_cents(self.amount)}"


def escrow_end(reason: str) -> EscrowEnd:
    """How an escrow the validator's driver ended for ``reason`` ended (the one reading
    of the driver's reasons, at the station and at the service): in the box
    (:data:`STACKED_REASONS`), back with the patron (:data:`RETURNED_REASONS`), else in
    doubt (a fault, or :data:`PORT_LOST`: where the item went is unknown)."""
    if reason in STACKED_REASONS:
        return EscrowEnd.STACKED
    if reason in RETURNED_REASONS:
        return EscrowEnd.RETURNED
    return EscrowEnd.IN_DOUBT


def resolution(ledger: Ledger, txn: str) -> MoneyOutcome | None:
    """How the escrow ``txn`` was finished (``credited``, ``rejected``, ``returned``,
    ``in_doubt``), None while it is open."""
    for kind, word in RESOLUTIONS.items():
        if ledger.has_txn(txn, kind):
            return word
    return None


def is_resolved(ledger: Ledger, txn: str) -> bool:
    """True when an event finishing the escrow ``txn`` is recorded."""
    return resolution(ledger, txn) is not None


def unresolved(ledger: Ledger, station: int | None = None) -> list[Escrow]:
    """The accepted escrows among the :data:`RECENT` latest (of ``station``, or of every
    station) that nothing finished yet, oldest first."""
    found = []
    for ev in ledger.events((EventKind.ESCROW_ACCEPTED,), last=RECENT, station=station):
        if ev.txn and not is_resolved(ledger, ev.txn):
            item: Item = "ticket" if ev.detail.get("item") == "ticket" else "bill"
            validation = str(ev.detail.get("validation", ""))
            system = ev.detail.get("source") == "system"
            found.append(Escrow(ev.txn, item, ev.amount, validation, system))
    return found


class StationEscrows:
    """One station's open accepted escrows and which of them are live.  The ledger
    records them; whoever finishes an escrow records the finishing event and then calls
    :meth:`forget`."""

    def __init__(self, open_escrows: list[Escrow] | None = None) -> None:
        self._open: dict[str, Escrow] = {e.txn: e for e in open_escrows or ()}
        self._live: set[str] = set()

    def get(self, txn: str) -> Escrow | None:
        """The open escrow ``txn``, None if it is not open."""
        return self._open.get(txn)

    def orphans(self) -> list[Escrow]:
        """Open escrows no running validator session knows of, oldest first."""
        return [e for t, e in self._open.items() if t not in self._live]

    def open(self) -> list[Escrow]:
        """Every open escrow, oldest first."""
        return list(self._open.values())

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

    def opened(self, escrow: Escrow) -> None:
        """The escrow is committed and live."""
        self._open[escrow.txn] = escrow
        self._live.add(escrow.txn)

    def orphan(self, txn: str) -> None:
        """The validator session of ``txn`` lost track of it (the port vanished)."""
        self._live.discard(txn)

    def orphan_all(self) -> None:
        """The validator restarted: none of the open escrows is live any more."""
        self._live.clear()

    def forget(self, txn: str) -> None:
        """The escrow ``txn`` is finished (its finishing event is committed)."""
        self._open.pop(txn, None)
        self._live.discard(txn)


def escrow_detail(escrow: Escrow) -> dict[str, object]:
    """The ``escrow_accepted`` event's detail of ``escrow``."""
    if escrow.item == "ticket" and escrow.system:
        return {"item": "ticket", "validation": escrow.validation, "source": "system"}
    if escrow.item == "ticket":
        return {"item": "ticket", "validation": escrow.validation}
    return {"item": "bill", "denomination": escrow.amount}
