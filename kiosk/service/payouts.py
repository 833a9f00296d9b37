"""Cash-outs at every station: a TITO ticket printed at the station, or a handpay an
attendant makes.  The one payout path of the lone cabinet and of a table's stations.
Amounts are cents.

**Out.**  A station whose ticket printer has reported ready (:class:`SetPrinter`) cashes
out to a ticket: one transaction takes the credits off its meter (``cashout``, method
``ticket``) and writes the ticket *pending* (``ticket_issue``: a fresh validation number,
the next sequence number and the expiry, :mod:`kiosk.game.rules.tickets`), before the
station is told to print it (:meth:`Payouts.print_order`, a
:class:`~kiosk.link.messages.PrintTicket`; the station's printer runs the real TCL
driver).  The station's report (:class:`ReportPrint`) settles it: ``printed`` with the
ticket's validation number -> ``ticket_out`` (issued); ``not_printed`` -> the ticket void
and the credits back on the meter (``ticket_void`` + ``cashout_failed``); ``unknown``
(cannot tell) -> the ticket void and a handpay (``ticket_void`` + ``cashout_handpay``),
paid by an attendant.  Each is written once per cash-out transaction: a repeated or
replayed report changes nothing and is answered with how the payout ended.  A station
without a ready printer cashes out by handpay.

After a restart the pending ticket is ordered again with ``resume``: a printer that
knows how the job ended reports it again; one that does not (it restarted with the
service, as the lone cabinet's does) reports ``unknown``, so the number is voided and an
attendant pays: a validation number is never printed twice, a cash-out never paid
twice.

**Handpay.**  An attendant logged in pays the amount by hand (:meth:`Payouts.handpay_reset`,
``handpay``); a ticket no ready printer is printing is voided first.  A RAM clear cancels
a pending payout (:meth:`Payouts.cancel`: the credits back, then cleared).
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, replace

from devices.host import PrintOutcome
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import InsufficientCredits, WrongState
from kiosk.game.rules.tickets import print_order as ticket_print_order
from kiosk.game.rules.tickets import ticket_issue_detail
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import TicketRecord
from kiosk.link.messages import PrintTicket
from kiosk.link.outcomes import MoneyOutcome
from kiosk.service.state import PendingPayout, TableState

log = logging.getLogger(__name__)

#: How a ticket payout ended, by the event that ended it.
_ENDED = (
    (EventKind.TICKET_OUT, MoneyOutcome.ISSUED),
    (EventKind.CASHOUT_FAILED, MoneyOutcome.RETURNED),
    (EventKind.CASHOUT_HANDPAY, MoneyOutcome.HANDPAY),
)


@dataclass(frozen=True)
class SetPrinter:
    """The station's ticket printer is ready to print (or no longer)."""

    ready: bool


@dataclass(frozen=True)
class ReportPrint:
    """How the station's printer ended the ticket of cash-out ``txn`` (``validation``:
    the number it reported done; ``reason``: the driver's detail)."""

    txn: str
    outcome: PrintOutcome
    validation: str = ""
    reason: str = ""


def pending_payout(ledger: Ledger, station: int) -> PendingPayout | None:
    """Station ``station``'s payout the ledger records as still pending, if any: its last
    ``cashout`` with no ``handpay``, ``ticket_out`` or ``cashout_failed`` after it (a
    ticket payout turned into a handpay is a handpay)."""
    last = ledger.events(
        (EventKind.CASHOUT, EventKind.HANDPAY, EventKind.TICKET_OUT, EventKind.CASHOUT_FAILED),
        last=1,
        station=station,
    )
    if not last or last[0].kind != EventKind.CASHOUT:
        return None
    txn = last[0].txn or ""
    method = str(last[0].detail.get("method", "handpay"))
    if method == "ticket" and ledger.has_txn(txn, EventKind.CASHOUT_HANDPAY):
        method = "handpay"
    awaiting = method == "ticket" and ledger.ticket_for_cashout(txn) is None
    # pending at power-up: it may have been ordered; only a resumed order prints it now
    return PendingPayout(txn, last[0].amount, method, last[0].at, awaiting, ordered=not awaiting)


class Payouts:
    """The stations' cash-outs, read from and written to the ledger (see the module)."""

    def __init__(self, state: TableState) -> None:
        self.state = state

    # -- cash out ------------------------------------------------------------------------
    def cash_out(self, n: int) -> PendingPayout:
        """Every credit of station ``n`` into a payout: a ticket when its printer is
        ready, else a handpay.  Allowed while tilted (the player's money is never held),
        not while the station's seat is in the round."""
        st = self.state
        ledger = st.require_ledger()
        own = st.station(n)
        rnd = st.round
        if st.round_open and rnd is not None and n in rnd.seats:
            raise WrongState(
                "finish the round before cashing out", code=ErrorCode.ROUND_IN_PROGRESS
            )
        if own.payout is not None:
            raise WrongState("a payout is already in progress", code=ErrorCode.PAYOUT_IN_PROGRESS)
        amount = st.credits(n)
        if amount <= 0:
            raise InsufficientCredits("there are no credits to cash out", code=ErrorCode.NO_CREDITS)
        txn = f"cashout-{uuid.uuid4().hex[:16]}"
        method = "ticket" if own.printer else "handpay"
        awaiting = method == "ticket" and st.system_validation  # the system numbers it
        at = st.stamp()
        with ledger.transaction():
            st.event(EventKind.CASHOUT, {"method": method}, n, amount=amount, txn=txn, at=at)
            if method == "ticket" and not awaiting:
                cfg = st.config
                detail = ticket_issue_detail(
                    ledger, st.now(), cfg.ticket_expiry_days, cfg.machine_number
                )
                st.event(EventKind.TICKET_ISSUE, detail, n, amount=amount, txn=txn)
        own.payout = PendingPayout(txn, amount, method, at, awaiting, st.ticks())
        own.reset_window()
        own.show_result = False
        return own.payout

    def print_order(self, n: int, resume: bool = False) -> PrintTicket | None:
        """The order to print station ``n``'s pending ticket, if a ticket payout is
        pending with its ticket still pending (None otherwise)."""
        st = self.state
        payout = st.station(n).payout
        if payout is None or payout.method != "ticket" or st.ledger is None:
            return None
        ticket = st.ledger.ticket_for_cashout(payout.txn)
        if ticket is None or ticket.status != "pending":
            return None
        st.station(n).payout = replace(payout, ordered=True)
        return ticket_print_order(st.config, ticket, payout.txn, resume)

    def fresh_order(self, n: int) -> PrintTicket | None:
        """The order to print station ``n``'s pending ticket when it was never ordered
        (its number came from the casino's system since the cash-out), else None."""
        payout = self.state.station(n).payout
        if payout is None or payout.ordered or payout.awaiting:
            return None
        return self.print_order(n)

    def pending_ticket(self, n: int, txn: str) -> TicketRecord:
        """The ticket written for station ``n``'s pending ticket cash-out ``txn``."""
        st = self.state
        payout = st.station(n).payout
        ticket = st.require_ledger().ticket_for_cashout(txn)
        if payout is None or payout.txn != txn or payout.method != "ticket" or ticket is None:
            raise WrongState(f"no ticket payout {txn} is pending", code=ErrorCode.NO_PAYOUT_PENDING)
        return ticket

    def report(self, n: int, order: ReportPrint) -> MoneyOutcome:
        """Settle the ticket payout ``order.txn`` by the printer's report (see the
        module); returns how the payout stands: ``issued``, ``returned`` (credits back),
        ``handpay``, or ``unknown`` (no ticket payout of this station is named)."""
        st = self.state
        ledger = st.require_ledger_open()
        ended = self._ended(order.txn)
        if ended is not None:
            return ended
        own = st.station(n)
        payout = own.payout
        if payout is None or payout.txn != order.txn or payout.method != "ticket":
            return MoneyOutcome.UNKNOWN
        ticket = ledger.ticket_for_cashout(order.txn)
        if ticket is None or ticket.status != "pending":
            return MoneyOutcome.UNKNOWN
        if order.outcome == PrintOutcome.PRINTED and order.validation == ticket.validation:
            operator = own.operator.name if own.operator is not None else None
            detail = {"reference": ticket.validation, "operator": operator}
            st.event(EventKind.TICKET_OUT, detail, n, amount=ticket.amount, txn=order.txn)
            own.payout = None
            return MoneyOutcome.ISSUED
        if order.outcome == PrintOutcome.NOT_PRINTED:
            with ledger.transaction():
                self._void(n, ticket, f"not printed: {order.reason}")
                st.event(
                    EventKind.CASHOUT_FAILED,
                    {"reason": order.reason[:128]},
                    n,
                    amount=payout.amount,
                    txn=order.txn,
                )
            own.payout = None
            return MoneyOutcome.RETURNED
        why = f"the printer could not confirm ticket #{ticket.sequence}: {order.reason or 'no answer'}"
        if order.outcome == PrintOutcome.PRINTED:
            why = f"the printer reported {order.validation!r}, not {ticket.validation}"
        self._to_handpay(n, payout, ticket, why)
        log.warning("payout %s at station %d is now a handpay: %s", payout.txn, n, why)
        return MoneyOutcome.HANDPAY

    def handpay_reset(self, n: int, name: str) -> None:
        """The attendant ``name`` (logged in, their role checked by the caller) paid station
        ``n``'s payout by hand: a ticket no ready printer is printing is voided first (it
        cannot be redeemed then)."""
        st = self.state
        own = st.station(n)
        payout = own.payout
        if payout is None:
            raise WrongState("no handpay is pending", code=ErrorCode.NO_PAYOUT_PENDING)
        ledger = st.require_ledger_open()
        with ledger.transaction():
            if payout.method == "ticket":
                if own.printer:
                    raise WrongState("the ticket is being printed", code=ErrorCode.TICKET_PRINTING)
                ticket = ledger.ticket_for_cashout(payout.txn)
                if ticket is not None and ticket.status == "pending":
                    self._to_handpay(n, payout, ticket, "paid by an attendant")
            detail = {"reference": f"attendant:{name}", "operator": name}
            st.event(EventKind.HANDPAY, detail, n, amount=payout.amount, txn=payout.txn)
        own.payout = None

    def handpay_instead(self, n: int, reason: str) -> None:
        """Station ``n``'s ticket cash-out waiting for the system's validation number is
        paid by an attendant instead (``cashout_handpay``)."""
        st = self.state
        own = st.station(n)
        payout = own.payout
        if payout is None or payout.method != "ticket":
            return
        detail = {"reason": reason[:128], "validation": None}
        st.event(EventKind.CASHOUT_HANDPAY, detail, n, amount=payout.amount, txn=payout.txn)
        own.payout = replace(payout, method="handpay", awaiting=False)

    def cancel(self, n: int, reason: str) -> None:
        """Fail station ``n``'s pending payout, if any (its pending ticket voided),
        inside the caller's ledger transaction: the credits go back on the meter."""
        st = self.state
        own = st.station(n)
        payout = own.payout
        if payout is None:
            return
        ticket = st.require_ledger_open().ticket_for_cashout(payout.txn)
        if ticket is not None and ticket.status == "pending":
            self._void(n, ticket, reason)
        st.event(
            EventKind.CASHOUT_FAILED, {"reason": reason}, n, amount=payout.amount, txn=payout.txn
        )
        own.payout = None

    def _to_handpay(self, n: int, payout: PendingPayout, ticket: TicketRecord, reason: str) -> None:
        st = self.state
        with st.require_ledger_open().transaction():
            self._void(n, ticket, reason)
            detail = {"reason": reason[:128], "validation": ticket.validation}
            st.event(EventKind.CASHOUT_HANDPAY, detail, n, amount=payout.amount, txn=payout.txn)
        st.station(n).payout = replace(payout, method="handpay")

    def _void(self, n: int, ticket: TicketRecord, reason: str) -> None:
        detail = {"validation": ticket.validation, "reason": reason[:128]}
        self.state.event(
            EventKind.TICKET_VOID, detail, n, amount=ticket.amount, txn=ticket.cashout_txn
        )

    def _ended(self, txn: str) -> MoneyOutcome | None:
        ledger = self.state.require_ledger_open()
        for kind, word in _ENDED:
            if ledger.has_txn(txn, kind):
                return word
        return None
