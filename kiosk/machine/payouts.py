"""The cash-out state machine: credits into a pending payout, then completed, failed
or turned into a handpay; tickets issued before they are printed.

One pending payout at most (``CabinetState.cashout``).  Each step is one ledger
transaction, recorded before it takes effect.  A ticket is written *pending* before it
is printed (:meth:`Payouts.issue_ticket`), becomes *issued* when the printer reports
its validation number done (:meth:`Payouts.complete`), *void* when it was not printed
or cannot be known printed (then a handpay pays it).  Amounts are cents.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import replace

from kiosk.ledger.records import TicketRecord
from kiosk.machine.errors import InsufficientCredits, MachineError, WrongState
from kiosk.machine.payout_strategy import Payout, PayoutHost
from kiosk.machine.snapshot import PayoutRequest
from kiosk.machine.state import CabinetState
from kiosk.machine.ticket_rules import ticket_issue_detail

log = logging.getLogger("kiosk.machine.controller")


class Payouts:
    """Cash-outs of the cabinet through ``strategy``; ``host`` is what the strategy
    calls back (the controller, so that every callback takes its lock)."""

    def __init__(self, state: CabinetState, strategy: Payout, host: PayoutHost) -> None:
        self.state = state
        self.strategy = strategy
        self.host = host

    # -- cash out ------------------------------------------------------------------------
    def cash_out(self) -> PayoutRequest:
        """Take every credit off the meter into a payout (recorded), then start the
        strategy.  Allowed while tilted (the player's money is never held), not in a round."""
        st = self.state
        ledger = st.require_ledger()
        if st.round_open:
            raise WrongState("finish the round before cashing out", code="round_in_progress")
        if st.cashout is not None:
            raise WrongState("a payout is already in progress", code="payout_in_progress")
        amount = st.credits
        if amount <= 0:
            raise InsufficientCredits("there are no credits to cash out", code="no_credits")
        txn = str(uuid.uuid4())
        at = st.stamp()
        method = self.strategy.method
        ledger.event("cashout", amount=amount, txn=txn, at=at, detail={"method": method})
        request = PayoutRequest(txn, amount, method, at)
        st.cashout = request
        st.clear_bets()
        self.strategy.start(self.host, request)
        return request

    def complete(self, transaction_id: str, reference: str) -> None:
        """The payout ``transaction_id`` happened (``reference``: the ticket's 18-digit
        validation number, or the attendant for a handpay).  Idempotent."""
        st = self.state
        ledger = st.require_ledger()
        req = st.cashout
        if req is None or req.transaction_id != transaction_id:
            if ledger.has_txn(transaction_id, "handpay") or ledger.has_txn(
                transaction_id, "ticket_out"
            ):
                return
            raise WrongState(f"no payout {transaction_id} is pending", code="no_payout_pending")
        if req.method == "ticket":
            issued = ledger.ticket_for_cashout(transaction_id)
            if not (len(reference) == 18 and reference.isascii() and reference.isdigit()):
                raise WrongState(
                    f"a ticket payout completes with its 18-digit validation number, not {reference!r}",
                    code="bad_reference",
                )
            if issued is not None and (
                issued.validation != reference or issued.status != "pending"
            ):
                raise WrongState(
                    f"payout {transaction_id} issued ticket {issued.validation} ({issued.status}): "
                    f"{reference} cannot complete it",
                    code="bad_reference",
                )
        kind = "ticket_out" if req.method == "ticket" else "handpay"
        st.event(
            kind,
            {"reference": reference, "operator": st.operator},
            amount=req.amount,
            txn=transaction_id,
        )
        st.cashout = None

    def fail(self, transaction_id: str, reason: str) -> None:
        """The payout did not happen: the credits go back on the meter; its ticket, if
        one was issued, is voided in the same transaction."""
        st = self.state
        ledger = st.require_ledger()
        req = st.cashout
        if req is None or req.transaction_id != transaction_id:
            raise WrongState(f"no payout {transaction_id} is pending", code="no_payout_pending")
        with ledger.transaction():
            self._void_ticket_of(transaction_id, f"not printed: {reason}")
            st.event("cashout_failed", {"reason": reason}, amount=req.amount, txn=transaction_id)
        st.cashout = None

    def cancel(self, reason: str) -> None:
        """Fail the pending payout, if any (its pending ticket voided), inside the caller's
        ledger transaction: the credits go back on the meter."""
        st = self.state
        req = st.cashout
        if req is None:
            return
        self._void_ticket_of(req.transaction_id, reason)
        st.event("cashout_failed", {"reason": reason}, amount=req.amount, txn=req.transaction_id)
        st.cashout = None

    def _void_ticket_of(self, transaction_id: str, reason: str) -> TicketRecord | None:
        """Void the ticket issued for the cash-out ``transaction_id`` if it is pending;
        returns that ticket (None if none was issued)."""
        ticket = self.state.require_ledger().ticket_for_cashout(transaction_id)
        if ticket is not None and ticket.status == "pending":
            self.state.event(
                "ticket_void",
                {"validation": ticket.validation, "reason": reason},
                amount=ticket.amount,
                txn=transaction_id,
            )
        return ticket

    # -- tickets -------------------------------------------------------------------------
    def issue_ticket(self, transaction_id: str) -> TicketRecord:
        """Record the ticket of the pending ticket cash-out ``transaction_id`` -- a fresh
        validation number, the next sequence number, the expiry -- with status
        ``pending``, *before* it is printed.  One ticket per cash-out: a second call is
        refused (a validation number is never printed twice)."""
        st = self.state
        ledger = st.require_ledger()
        req = st.cashout
        if req is None or req.transaction_id != transaction_id or req.method != "ticket":
            raise WrongState(
                f"no ticket payout {transaction_id} is pending", code="no_payout_pending"
            )
        issued = ledger.ticket_for_cashout(transaction_id)
        if issued is not None:
            raise WrongState(
                f"ticket {issued.validation} was already issued for {transaction_id} "
                f"({issued.status}): a cash-out prints one ticket",
                code="ticket_already_issued",
            )
        detail = ticket_issue_detail(
            ledger, st.clock(), st.config.ticket_expiry_days, st.config.machine_number
        )
        number = detail["validation"]
        st.event("ticket_issue", detail, amount=req.amount, txn=transaction_id)
        ticket = ledger.ticket(number)
        assert ticket is not None
        return ticket

    def to_handpay(self, transaction_id: str, reason: str) -> None:
        """Turn the pending ticket cash-out into a handpay: its ticket (if issued and
        still pending) is voided, so a ticket that did come out cannot be redeemed, and
        an attendant pays the amount (:meth:`handpay_reset`).  Idempotent."""
        st = self.state
        ledger = st.require_ledger()
        req = st.cashout
        if req is None or req.transaction_id != transaction_id:
            if ledger.has_txn(transaction_id, "cashout_handpay"):
                return
            raise WrongState(f"no payout {transaction_id} is pending", code="no_payout_pending")
        if req.method == "handpay":
            return
        with ledger.transaction():
            ticket = self._void_ticket_of(transaction_id, reason)
            if ticket is not None and ticket.status not in ("pending", "void"):
                raise WrongState(
                    f"ticket {ticket.validation} is {ticket.status}: the payout is not a handpay",
                    code="bad_reference",
                )
            st.event(
                "cashout_handpay",
                {"reason": reason, "validation": ticket.validation if ticket else None},
                amount=req.amount,
                txn=transaction_id,
            )
        st.cashout = replace(req, method="handpay")
        log.warning("payout %s is now a handpay: %s", transaction_id, reason)

    def handpay_reset(self) -> None:
        """The attendant has paid the pending handpay: record it and unlock the machine."""
        st = self.state
        operator = st.require_role("attendant")
        req = st.cashout
        if req is None or req.method != "handpay":
            raise WrongState("no handpay is pending", code="no_payout_pending")
        self.complete(req.transaction_id, f"attendant:{operator}")

    # -- power up ------------------------------------------------------------------------
    def resume(self) -> None:
        """A payout was pending at power-up.  A ticket whose row was written may have
        been printed, or half printed: its validation number is voided and the cash-out
        becomes a handpay (never printed twice, never paid twice).  Otherwise the
        strategy resumes it (a ticket not yet issued is printed now)."""
        st = self.state
        request = st.cashout
        if request is None:
            return
        if request.method == "ticket":
            ticket = st.require_ledger().ticket_for_cashout(request.transaction_id)
            if ticket is not None:
                self.host.payout_to_handpay(
                    request.transaction_id,
                    f"power lost while printing ticket #{ticket.sequence} "
                    f"(validation {ticket.validation}): the number is void",
                )
                st.message = "The cash-out was interrupted: an attendant will pay you."
                return
        elif request.method != self.strategy.method:
            return  # a handpay: the attendant finishes it
        try:
            self.strategy.resume(self.host, request)
        except MachineError as exc:
            log.error("payout %s could not be resumed: %s", request.transaction_id, exc.reason)
