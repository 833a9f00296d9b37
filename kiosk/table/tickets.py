"""TITO tickets at the table's stations, through the host's ledger.  Amounts are cents.

**Out.**  A station whose ticket printer has reported ready (:class:`SetPrinter`) cashes
out to a ticket: one transaction takes the credits off its meter (``cashout``, method
``ticket``) and writes the ticket *pending* (``ticket_issue``: a fresh validation number,
the next sequence number and the expiry, the cabinet's rules in
:mod:`kiosk.machine.ticket_rules`), before the station is told to print it
(:meth:`TableTickets.print_order`, sent as :class:`~kiosk.link.messages.PrintTicket`).
The station's report (:class:`ReportPrint`) settles it as the cabinet's
:class:`~kiosk.hardware.ticket_payout.TicketPayout` does: ``printed`` with the ticket's
validation number -> ``ticket_out`` (issued); ``not_printed`` -> the ticket void and the
credits back on the meter (``ticket_void`` + ``cashout_failed``); ``unknown`` (cannot
tell) -> the ticket void and a handpay (``ticket_void`` + ``cashout_handpay``), paid by
an attendant.  Each is written once per cash-out transaction: a repeated or replayed
report changes nothing and is answered with how the payout ended.

After a restart of the host or of the station the pending ticket is ordered again with
``resume``: a station that knows how the job ended reports it again; one that does not
(it restarted) reports ``unknown``, so the number is voided and an attendant pays (a
validation number is never printed twice; the cabinet's rule at power-up).  A station
without a printer cashes out by handpay; an attendant's handpay reset of a ticket that
no printer is printing voids it first.

**In.**  A ticket in a station's validator is checked (:class:`AcceptTicket`: issued at
any station of this table, printed, not void, redeemed or expired, not in another
validator's escrow) and its ``escrow_accepted`` (item ``ticket``) committed before the
station stacks it; the validator's report then redeems it once (``ticket_in``, see
:mod:`kiosk.table.escrows`).  A refusal is logged (``ticket_rejected`` with the reason)
and the ticket is returned; too many unknown ticket numbers at a station stop it
(the cabinet's ``unknown_tickets`` rule).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal, cast

from kiosk.hardware.ticket_payout import ticket_data
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import TicketRecord
from kiosk.link.messages import PrintTicket
from kiosk.machine.errors import MachineError, TicketRefused, WrongState
from kiosk.machine.escrows import is_resolved
from kiosk.machine.ticket_rules import (
    UNKNOWN_TICKETS_TILT,
    ticket_issue_detail,
    ticket_refusal,
    unknown_tickets_over_limit,
    unknown_tickets_text,
)
from kiosk.table.escrows import TableEscrows, TestCredits
from kiosk.table.state import PendingPayout, TableState

PrintOutcome = Literal["printed", "not_printed", "unknown"]
#: How a ticket payout ended, by the event that ended it.
_ENDED = (("ticket_out", "issued"), ("cashout_failed", "returned"), ("cashout_handpay", "handpay"))


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


@dataclass(frozen=True)
class AcceptTicket:
    """Record the ticket ``validation`` in the station's validator escrow as ``txn``
    (phase one: nothing is credited).  Returns its amount, cents."""

    txn: str
    validation: str


def station_report(
    device: str, event: str, detail: Mapping[str, object]
) -> SetPrinter | ReportPrint | TestCredits | None:
    """The table command of a station's ``printer`` or ``burn_in`` report: ``ready`` /
    ``offline``; ``printed``, ``not_printed``, ``unknown`` (``detail``: ``txn``,
    ``validation``, ``reason``); ``test_credits`` (``txn``, ``cents``).  None when it is
    not one of them or its detail is malformed."""
    if device == "printer" and event in ("ready", "offline"):
        return SetPrinter(event == "ready")
    txn, reason, validation = (detail.get(k, "") for k in ("txn", "reason", "validation"))
    if not (isinstance(txn, str) and isinstance(reason, str) and isinstance(validation, str)):
        return None
    if not txn:
        return None
    if device == "printer" and event in ("printed", "not_printed", "unknown"):
        return ReportPrint(txn, cast(PrintOutcome, event), validation, reason[:128])
    cents = detail.get("cents")
    if device == "burn_in" and event == "test_credits" and isinstance(cents, int):
        return TestCredits(txn, cents)
    return None


def pending_payout(ledger: Ledger, station: int) -> PendingPayout | None:
    """Station ``station``'s payout the ledger records as still pending, if any: its last
    ``cashout`` with no ``handpay``, ``ticket_out`` or ``cashout_failed`` after it (a
    ticket payout turned into a handpay is a handpay)."""
    last = ledger.events(
        ("cashout", "handpay", "ticket_out", "cashout_failed"), last=1, station=station
    )
    if not last or last[0].kind != "cashout":
        return None
    txn = last[0].txn or ""
    method = str(last[0].detail.get("method", "handpay"))
    if method == "ticket" and ledger.has_txn(txn, "cashout_handpay"):
        method = "handpay"
    return PendingPayout(txn, last[0].amount, method)


class TableTickets:
    """The stations' tickets out and in, read from and written to the table's ledger."""

    def __init__(self, state: TableState, escrows: TableEscrows) -> None:
        self.state = state
        self.escrows = escrows

    # -- out -----------------------------------------------------------------------------
    def cash_out(self, station: int) -> PendingPayout:
        """Every credit of ``station`` into a payout (see the module): a ticket when its
        printer is ready, else a handpay."""
        st = self.state
        ledger = st.require_ledger()
        own = st.station(station)
        rnd = st.round
        if st.round_open and rnd is not None and station in rnd.seats:
            raise WrongState("the round is in progress", code="round_in_progress")
        if own.payout is not None:
            raise WrongState("a payout is in progress", code="payout_in_progress")
        amount = st.credits(station)
        if not amount:
            raise WrongState("there are no credits to cash out", code="no_credits")
        txn = f"cashout-{uuid.uuid4().hex[:16]}"
        method = "ticket" if own.printer else "handpay"
        with ledger.transaction():
            st.event("cashout", {"method": method}, station, amount=amount, txn=txn)
            if method == "ticket":
                cfg = st.config
                detail = ticket_issue_detail(
                    ledger, st.now(), cfg.ticket_expiry_days, cfg.machine_number
                )
                st.event("ticket_issue", detail, station, amount=amount, txn=txn)
        own.payout = PendingPayout(txn, amount, method)
        own.reset_window()
        return own.payout

    def print_order(self, station: int, resume: bool = False) -> PrintTicket | None:
        """The order to print ``station``'s pending ticket, if a ticket payout is pending
        with its ticket still pending (None otherwise)."""
        st = self.state
        payout = st.station(station).payout
        if payout is None or payout.method != "ticket" or st.ledger is None:
            return None
        ticket = st.ledger.ticket_for_cashout(payout.txn)
        if ticket is None or ticket.status != "pending":
            return None
        data = ticket_data(st.config, ticket)
        return PrintTicket(
            txn=payout.txn,
            validation=ticket.validation,
            amount_cents=ticket.amount,
            sequence=data.sequence_number,
            issued_at=ticket.issued_at,
            expires_on=ticket.expires_on,
            casino_name=data.casino_name,
            address=data.address,
            machine_number=data.machine_number,
            resume=resume,
        )

    def report(self, station: int, order: ReportPrint) -> str:
        """Settle the ticket payout ``order.txn`` by the printer's report (see the
        module); returns how the payout stands: ``issued``, ``returned`` (credits back),
        ``handpay``, or ``unknown`` (no ticket payout of this station is named)."""
        st = self.state
        ledger = st.require_ledger_open()
        ended = self._ended(order.txn)
        if ended is not None:
            return ended
        own = st.station(station)
        payout = own.payout
        if payout is None or payout.txn != order.txn or payout.method != "ticket":
            return "unknown"
        ticket = ledger.ticket_for_cashout(order.txn)
        if ticket is None or ticket.status != "pending":
            return "unknown"
        if order.outcome == "printed" and order.validation == ticket.validation:
            detail = {"reference": ticket.validation, "operator": f"station {station}"}
            st.event("ticket_out", detail, station, amount=ticket.amount, txn=order.txn)
            own.payout = None
            return "issued"
        if order.outcome == "not_printed":
            with ledger.transaction():
                self._void(station, ticket, f"not printed: {order.reason}")
                st.event(
                    "cashout_failed",
                    {"reason": order.reason[:128]},
                    station,
                    amount=payout.amount,
                    txn=order.txn,
                )
            own.payout = None
            return "returned"
        why = order.reason or "the printer could not confirm it"
        if order.outcome == "printed":
            why = f"the printer reported {order.validation!r}, not {ticket.validation}"
        self._to_handpay(station, payout, ticket, why)
        return "handpay"

    def handpay_reset(self, station: int) -> None:
        """The attendant paid ``station``'s payout by hand: a ticket that no ready printer
        is printing is voided first (it cannot be redeemed then)."""
        st = self.state
        own = st.station(station)
        payout = own.payout
        if payout is None:
            raise WrongState("no handpay is pending", code="no_handpay")
        with st.require_ledger_open().transaction():
            if payout.method == "ticket":
                if own.printer:
                    raise WrongState("the ticket is being printed", code="ticket_printing")
                ticket = st.require_ledger_open().ticket_for_cashout(payout.txn)
                if ticket is not None and ticket.status == "pending":
                    self._to_handpay(station, payout, ticket, "paid by an attendant")
            st.event("handpay", {"cashout_txn": payout.txn}, station, amount=payout.amount)
        own.payout = None

    def _to_handpay(
        self, station: int, payout: PendingPayout, ticket: TicketRecord, reason: str
    ) -> None:
        st = self.state
        with st.require_ledger_open().transaction():
            self._void(station, ticket, reason)
            detail = {"reason": reason[:128], "validation": ticket.validation}
            st.event("cashout_handpay", detail, station, amount=payout.amount, txn=payout.txn)
        st.station(station).payout = replace(payout, method="handpay")

    def _void(self, station: int, ticket: TicketRecord, reason: str) -> None:
        detail = {"validation": ticket.validation, "reason": reason[:128]}
        self.state.event(
            "ticket_void", detail, station, amount=ticket.amount, txn=ticket.cashout_txn
        )

    def _ended(self, txn: str) -> str | None:
        ledger = self.state.require_ledger_open()
        for kind, word in _ENDED:
            if ledger.has_txn(txn, kind):
                return word
        return None

    # -- in ------------------------------------------------------------------------------
    def accept(self, station: int, txn: str, validation: str) -> int:
        """Phase one for a ticket (see the module): its amount once ``txn`` is accepted
        (now, or already and still open: stack it).  A refusal is logged and raised as a
        :class:`MachineError` (:class:`TicketRefused` for the ticket itself)."""
        st = self.state
        ledger = st.require_ledger()
        if ledger.has_txn(txn, "escrow_accepted"):
            mine = next((e for e in self.escrows.open_escrows(station) if e.txn == txn), None)
            if mine is not None and mine.detail.get("validation") == validation:
                return mine.amount
            raise WrongState(f"escrow {txn} is already finished", code="escrow_finished")
        try:
            st.require_playable(station)
            if st.station(station).payout is not None:
                raise WrongState("a payout is in progress", code="payout_in_progress")
            held = any(
                e.detail.get("validation") == validation and e.txn != txn
                for n in st.stations
                for e in self.escrows.open_escrows(n)
            )
            today = st.now().date()
            refusal = ticket_refusal(ledger, validation, None, today, in_escrow=held)
            if refusal is not None:
                raise refusal
            ticket = ledger.ticket(validation)
            assert ticket is not None
            st.require_credit_room(station, ticket.amount)
        except MachineError as exc:
            self._rejected(station, txn, validation, exc)
            if exc.code == "ticket_unknown":
                self._count_unknown(station)
            raise
        with ledger.transaction():
            for old in self.escrows.open_escrows(station):
                st.event(
                    "escrow_aborted", {"reason": "returned_before_new_escrow"}, station, txn=old.txn
                )
            detail = {"item": "ticket", "validation": validation}
            st.event("escrow_accepted", detail, station, amount=ticket.amount, txn=txn)
        return ticket.amount

    def _count_unknown(self, station: int) -> None:
        """Too many unknown ticket numbers at ``station`` in a while (the cabinet's rule,
        :func:`~kiosk.machine.ticket_rules.unknown_tickets_over_limit`, counted per
        station): ``tickets_unknown_repeated`` and the station's
        :data:`~kiosk.machine.ticket_rules.UNKNOWN_TICKETS_TILT`, which stops it until an
        attendant clears the tilt; the other stations play on."""
        st = self.state
        if UNKNOWN_TICKETS_TILT in st.station(station).tilts:
            return
        ledger = st.require_ledger()
        count = unknown_tickets_over_limit(ledger, st.now(), station)
        if count is None:
            return
        detail, message = unknown_tickets_text(count)
        with ledger.transaction():
            st.event("tickets_unknown_repeated", detail, station)
            st.set_tilt(station, UNKNOWN_TICKETS_TILT, message)

    def _rejected(self, station: int, txn: str, validation: str, exc: MachineError) -> None:
        reason = exc.code.removeprefix("ticket_") if isinstance(exc, TicketRefused) else exc.code
        ledger = self.state.ledger
        if ledger is None or ledger.has_txn(txn, "ticket_rejected") or is_resolved(ledger, txn):
            return
        detail = {"validation": validation, "reason": reason, "detail": exc.reason[:256]}
        self.state.event("ticket_rejected", detail, station, txn=txn)
