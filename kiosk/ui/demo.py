"""Simulated cabinet devices for demo mode, in one small adapter.

Keys 1-6 insert a bill, ``T`` inserts the last printed ticket, ``F9`` opens/closes the
door.  Today the adapter talks straight to the controller (``insert_credits``) and prints
tickets itself (:class:`DemoTicketPayout`, a :class:`kiosk.machine.Payout` strategy);
when the cabinet runs the protocol simulators of :mod:`devices.sim` instead, only this
module changes: ``insert_bill`` becomes ``Id003Simulator.insert_bill`` and the real
ticket printer strategy replaces :class:`DemoTicketPayout`.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any

from kiosk.ui.i18n import _

try:  # the devices package may not be importable on a bare development checkout
    from devices.validation import new_validation_number
except ImportError:  # pragma: no cover
    import secrets

    def new_validation_number(is_taken=None, *, max_attempts: int = 16) -> str:  # type: ignore[misc]
        return f"{secrets.randbelow(10**18):018d}"


@dataclass(frozen=True)
class DemoTicket:
    barcode: str
    amount: int  # cents
    printed_at: float


class DemoTicketPayout:
    """Prints (pretends to) a cash-out ticket: the payout completes after ``delay`` seconds
    of "printing", polled from the main loop so the controller is never re-entered."""

    method = "ticket"

    def __init__(self, delay: float = 1.2, clock: Any = time.monotonic) -> None:
        self.delay = delay
        self.clock = clock
        self.pending: list[tuple[float, Any]] = []  # (due time, request)
        self.printed: list[DemoTicket] = []
        self.redeemed: set[str] = set()

    def start(self, machine: Any, request: Any) -> None:
        self.pending.append((self.clock() + self.delay, request))

    def resume(self, machine: Any, request: Any) -> None:
        self.start(machine, request)

    def poll(self, machine: Any) -> DemoTicket | None:
        """Finish due payouts; returns the ticket printed now, if any."""
        now = self.clock()
        done = None
        for item in list(self.pending):
            due, request = item
            if now < due:
                continue
            self.pending.remove(item)
            barcode = new_validation_number(lambda n: any(t.barcode == n for t in self.printed))
            ticket = DemoTicket(barcode, int(request.amount), now)
            self.printed.append(ticket)
            machine.payout_complete(request.transaction_id, barcode)
            done = ticket
        return done

    def last_unredeemed(self) -> DemoTicket | None:
        for t in reversed(self.printed):
            if t.barcode not in self.redeemed:
                return t
        return None


class DemoDevices:
    """What the demo keys do.  Every call goes through ``model.call`` so refusals show."""

    def __init__(self, model: Any, payout: DemoTicketPayout | None = None) -> None:
        self.model = model
        self.payout = payout
        self.last_ticket: DemoTicket | None = None

    def insert_bill(self, cents: int) -> bool:
        machine = self.model.machine
        if hasattr(machine, "escrow_decision") and hasattr(machine, "bill_credited"):
            txn = str(uuid.uuid4())
            try:
                accept = machine.escrow_decision(cents, txn)
            except Exception as exc:  # a refusal carries a reason
                if not hasattr(exc, "reason"):
                    raise
                self.model.error(exc)
                return False
            if not accept:
                abort = getattr(machine, "escrow_aborted", None)
                if abort:
                    abort(txn, "refused")
                self.model.refresh(force=True)
                self.model.inform(_("Bill returned."))
                return False
            return self.model.call("bill_credited", cents, txn) is not None
        return self.model.call("insert_credits", cents, f"bill:{cents}") is not None

    def insert_ticket(self) -> bool:
        """Insert the last printed, not yet redeemed ticket; False when there is none."""
        if self.payout is None:
            return False
        ticket = self.payout.last_unredeemed()
        if ticket is None:
            return False
        # The controller has no ticket validation system yet (``ticket_escrow`` returns
        # every ticket), so demo tickets are credited as ``ticket:<validation number>``.
        ok = self.model.call("insert_credits", ticket.amount, f"ticket:{ticket.barcode}") is not None
        if ok:
            self.payout.redeemed.add(ticket.barcode)
        return ok

    def poll(self) -> DemoTicket | None:
        if self.payout is None:
            return None
        ticket = self.payout.poll(self.model.machine)
        if ticket is not None:
            self.last_ticket = ticket
            self.model.refresh(force=True)
        return ticket
