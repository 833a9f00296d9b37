"""Credits in: bills, tickets in escrow and redeemed, and device events as tilts.

A note or ticket the validator holds in escrow is stacked only once its acceptance is
committed (:mod:`kiosk.machine.escrows`); if that write fails it is returned and the
cabinet tilts (``ledger_write``).  It is credited from that record at VEND VALID, once
per validator transaction.  After a restart (or a lost port) an accepted escrow nothing
finished is settled by the validator's next report: VEND VALID, STACKED or power-up with
the bill in the stacker credit it (the item is in the box); a new escrow or power-up
with the bill in the acceptor return it (a ticket stays valid).  A VEND VALID for no
accepted escrow is a ``vend_unmatched`` tilt naming the transaction and amount, never a
credit.

A ticket is redeemed once, for the amount it was issued for, and only if this cabinet
issued and printed it.  Every returned ticket is logged with the reason.  Amounts are
cents.
"""

from __future__ import annotations

import logging
import sqlite3

from devices.host import DeviceEvent, EventKind
from engine.money import format_cents as money
from kiosk.ledger.errors import LedgerError
from kiosk.ledger.records import TicketRecord
from kiosk.machine.errors import MachineError, PlayDisabled, TicketRefused, WrongState
from kiosk.machine.escrows import Escrow, Escrows
from kiosk.machine.state import (
    DEVICE_TILT_PREFIX,
    ESCROW_TILT,
    LEDGER_WRITE_TILT,
    TICKET_TILT,
    CabinetState,
)
from kiosk.machine.ticket_rules import (
    UNKNOWN_TICKETS_TILT,
    ticket_refusal,
    unknown_tickets_over_limit,
    unknown_tickets_text,
)
from kiosk.machine.write_probe import write_problem

log = logging.getLogger(__name__)

#: ``escrow_aborted`` reasons meaning the item is in the box: it is credited.
STACKED_REASONS = frozenset({"power_up_bill_in_stacker", "stacked_without_vend_valid"})
#: Reasons meaning the item went back to the patron (or never left the escrow).
RETURNED_REASONS = frozenset(
    {"refused", "returned", "rejected", "superseded", "power_up", "power_up_bill_in_acceptor"}
)
#: The reason meaning the driver lost the validator: the escrow waits for its next report.
PORT_LOST = "port_lost"


class CreditsIn:
    """Bills and tickets in, and the device events of the validator and the printer.

    Owns the accepted escrows (:class:`~kiosk.machine.escrows.Escrows`), whether an
    escrow was offered since power-up, and the last escrow refused (transaction, cents),
    which a ``vend_unmatched`` tilt names."""

    def __init__(self, state: CabinetState) -> None:
        self.state = state
        self.escrows = Escrows(state)
        self._offered_since_power_up = False
        self._last_refused: tuple[str, int] | None = None

    # -- credits in -------------------------------------------------------------------------------
    def insert_credits(self, cents: int, source: str) -> None:
        """Credit ``cents`` from ``source``: ``"bill:<cents>"`` (a stacked bill of that
        denomination), ``"ticket:<validation number>"`` or ``"test:<cents>"`` (a burn-in
        session's test credits, on the ``test_credits_in`` meter and never bills in: a
        technician must be logged in).  Refused while tilted, with the door open, during
        a payout, or above the credit limit."""
        self.state.require_playable()
        kind, _, ref = source.partition(":")
        if kind not in ("bill", "ticket", "test") or not ref:
            raise MachineError(
                f"unknown credit source {source!r} "
                "(use bill:<cents>, ticket:<number> or test:<cents>)",
                code="bad_credit_source",
            )
        if not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0:
            raise MachineError(
                f"credits are a positive whole number of cents, not {cents!r}", code="bad_amount"
            )
        if kind == "ticket":
            ticket = self._redeemable(ref, cents, txn=None)
            self._check_credit_in(cents)
            self.state.event("ticket_in", {"validation": ticket.validation}, amount=cents)
            return
        self._check_credit_in(cents)
        if kind == "test":
            operator = self.state.require_role("technician")
            if ref != str(cents):
                raise MachineError(
                    f"test credits {source!r} do not match {cents} cents", code="bad_amount"
                )
            self.state.event(
                "test_credits_in",
                {"operator": operator, "role": self.state.operator},
                amount=cents,
            )
            return
        if ref != str(cents) or cents not in self.state.config.accepted_bills:
            raise MachineError(
                f"bill {source!r} is not an accepted denomination of {cents} cents",
                code="bill_not_accepted",
                params={"cents": cents},
            )
        self.state.event("bill_in", {"denomination": cents, "source": "insert"}, amount=cents)

    def _ticket_value(self, validation: str) -> int | None:
        """What a ticket issued by this cabinet, printed and not yet redeemed is worth,
        else None (stand-alone validation: no ticket system is connected)."""
        return self.state.require_ledger().unredeemed_ticket(validation)

    def _ticket_refusal(
        self, validation: str, cents: int | None, *, expiry: bool = True, holder: str | None = None
    ) -> TicketRefused | None:
        """Why the ticket ``validation`` (offered for ``cents``, None: its own amount)
        cannot be redeemed now, or None when it can (``holder``: the escrow stacking it,
        which does not count as holding it).  Reads the ledger (cross-checked
        against the events: an edited row raises LedgerCorruptError)."""
        return ticket_refusal(
            self.state.require_ledger(),
            validation,
            cents,
            self.state.clock().date(),
            expiry=expiry,
            in_escrow=self.escrows.holding(validation, but=holder) is not None,
        )

    def _redeemable(self, validation: str, cents: int | None, txn: str | None) -> TicketRecord:
        """The ticket, if it can be redeemed now; else the refusal is logged (a
        ``ticket_rejected`` event with the reason) and raised."""
        refusal = self._ticket_refusal(validation, cents)
        if refusal is not None:
            self.state.event(
                "ticket_rejected",
                {
                    "validation": validation,
                    "reason": refusal.code.removeprefix("ticket_"),
                    "detail": refusal.reason,
                    "offered": cents,
                },
                txn=txn,
            )
            if refusal.code == "ticket_unknown":
                self._count_unknown()
            raise refusal
        ticket = self.state.require_ledger().ticket(validation)
        assert ticket is not None
        return ticket

    def _count_unknown(self) -> None:
        """An unknown ticket number was refused: too many of them in a while (the rule of
        :func:`~kiosk.machine.ticket_rules.unknown_tickets_over_limit`) record
        ``tickets_unknown_repeated`` with the count and raise
        :data:`UNKNOWN_TICKETS_TILT`, which inhibits acceptance until cleared."""
        if UNKNOWN_TICKETS_TILT in self.state.tilts:
            return
        ledger = self.state.require_ledger()
        count = unknown_tickets_over_limit(ledger, self.state.clock())
        if count is None:
            return
        detail, message = unknown_tickets_text(count)
        with ledger.transaction():
            self.state.event("tickets_unknown_repeated", detail)
            self.state.set_tilt(UNKNOWN_TICKETS_TILT, message)

    def _check_credit_in(self, cents: int) -> None:
        if self.state.cashout is not None:
            raise WrongState("a payout is in progress", code="payout_in_progress")
        if self.state.credits + cents > self.state.config.credit_limit_cents:
            raise MachineError(
                f"the credit limit is {money(self.state.config.credit_limit_cents)}",
                code="credit_limit",
                params={"limit": self.state.config.credit_limit_cents},
            )

    # -- escrow, phase one -------------------------------------------------------------
    def _return_orphans(self) -> bool:
        """A new item is in escrow: an orphan is no longer on its way to the box (a
        stacked one was reported by VEND VALID before the validator took another), so it
        went back to the patron.  False, with the ``ledger_write`` tilt, when that
        cannot be written."""
        orphans = self.escrows.orphans()
        if not orphans:
            return True
        ledger = self.state.require_ledger_open()
        try:
            with ledger.transaction():
                for old in orphans:
                    self._record_abort(old.txn, "returned_before_new_escrow")
        except (LedgerError, sqlite3.Error) as exc:
            self._write_failed(f"earlier escrows could not be closed: {exc}")
            return False
        for old in orphans:
            self.escrows.forget(old.txn)
        return True

    def _accept(self, escrow: Escrow) -> bool:
        """Commit the acceptance of ``escrow``.  False, with the ``ledger_write`` tilt,
        when it cannot be written: the item is then returned."""
        ledger = self.state.require_ledger()
        try:
            with ledger.transaction():
                self.escrows.record(escrow)
        except (LedgerError, sqlite3.Error) as exc:
            self._write_failed(f"the {escrow.what} in escrow ({escrow.txn}) was returned: {exc}")
            return False
        self.escrows.opened(escrow)
        self._last_refused = None
        return True

    def _write_failed(self, what: str) -> None:
        """A write failed: probe the ledger and tilt; the validator is inhibited."""
        ledger = self.state.ledger
        problem = write_problem(ledger) if ledger is not None else "no ledger"
        message = f"ledger write failed ({what}); {problem or 'the ledger answers again'}"
        log.error(message)
        self.state.hold_tilt(LEDGER_WRITE_TILT, message)

    def check_ledger(self) -> bool:
        """Can the ledger record (checked before the validator is enabled)?  If not, the
        ``ledger_write`` tilt stands and False is returned."""
        ledger = self.state.ledger
        if ledger is None:
            return False
        problem = write_problem(ledger)
        if problem is None:
            return True
        log.error("the ledger cannot record: %s", problem)
        self.state.hold_tilt(
            LEDGER_WRITE_TILT, f"the ledger cannot record ({problem}): no note or ticket is taken"
        )
        return False

    def _refused(self, transaction_id: str, cents: int) -> bool:
        self._last_refused = (transaction_id, cents)
        return False

    # -- escrow, phase two --------------------------------------------------------------
    def _record_abort(self, txn: str, reason: str) -> None:
        ledger = self.state.require_ledger()
        if not ledger.has_txn(txn, "escrow_aborted"):
            self.state.event("escrow_aborted", {"reason": reason}, txn=txn)

    def _credit_escrow(self, escrow: Escrow, why: str) -> None:
        """The item of ``escrow`` is in the box: credit it (a ticket is redeemed)."""
        if escrow.item == "ticket":
            self.ticket_credited(escrow.validation, escrow.amount, escrow.txn)
            return
        if not self.state.require_ledger().has_txn(escrow.txn, "bill_in"):
            self.state.event(
                "bill_in",
                {"denomination": escrow.amount, "resolved": why},
                amount=escrow.amount,
                txn=escrow.txn,
            )
        self.escrows.forget(escrow.txn)

    def _in_doubt(self, escrow: Escrow, reason: str) -> None:
        """A fault ended ``escrow`` after STACK: where the item went is unknown."""
        ledger = self.state.require_ledger()
        with ledger.transaction():
            self.state.event(
                "escrow_in_doubt",
                {"item": escrow.item, "validation": escrow.validation, "reason": reason},
                amount=escrow.amount,
                txn=escrow.txn,
            )
            self.state.set_tilt(
                ESCROW_TILT,
                f"the {escrow.what} (transaction {escrow.txn}) was being stacked when "
                f"{reason} ended it: not credited; count the box",
                amount=escrow.amount,
                txn=escrow.txn,
            )
        self.escrows.forget(escrow.txn)

    def bill_stacked(self, denomination_cents: int, transaction_id: str) -> bool:
        """A bill reached the stacker (VEND VALID): credit it, once per ``transaction_id``,
        for the amount its accepted escrow records.

        Credited even if a tilt arose since escrow (the money is in the box).  Returns
        False when that transaction was already credited, or when its escrow was already
        finished otherwise (then the ``vend_unmatched`` tilt names it).  A transaction
        never offered in escrow (a direct call) is credited for ``denomination_cents``."""
        ledger = self.state.require_ledger()
        if ledger.has_txn(transaction_id, "bill_in"):
            return False
        escrow = self.escrows.get(transaction_id)
        if escrow is None and self.escrows.was_accepted(transaction_id):
            self._unmatched(
                "VEND VALID for an escrow already finished",
                transaction_id,
                denomination_cents,
            )
            return False
        cents = escrow.amount if escrow is not None else denomination_cents
        self.state.event("bill_in", {"denomination": cents}, amount=cents, txn=transaction_id)
        self.escrows.forget(transaction_id)
        return True

    # devices.host.ValidatorHost ---------------------------------------------------------
    def escrow_decision(self, denomination_cents: int, transaction_id: str) -> bool:
        """Stack the note in escrow?  Only when playable, accepted and under the limit,
        and only once its acceptance is committed."""
        self._offered_since_power_up = True
        if not self._return_orphans():
            return False
        try:
            self.state.require_playable()
            self._check_credit_in(denomination_cents)
        except MachineError:
            return self._refused(transaction_id, denomination_cents)
        if denomination_cents not in self.state.config.accepted_bills:
            return self._refused(transaction_id, denomination_cents)
        return self._accept(Escrow(transaction_id, "bill", denomination_cents))

    def ticket_escrow(self, barcode: str, transaction_id: str) -> int | None:
        """A ticket is in the validator's escrow: its amount (cents) to stack and redeem it
        -- a ticket this cabinet issued and printed, not void, redeemed or expired -- or
        None to return it.  Every returned ticket is logged (``ticket_rejected``, with the
        reason: unknown, pending, void, redeemed, expired, in_escrow, play_disabled,
        payout_in_progress, credit_limit).  "Redeeming ticket N for A cents" is committed
        (``escrow_accepted``) before the amount is returned; the ticket is held for
        ``transaction_id`` until it is credited or the escrow ends."""
        self._offered_since_power_up = True
        try:
            self.state.require_ledger()
        except MachineError:
            return None
        if not self._return_orphans():
            return None
        try:
            try:
                self.state.require_playable()
            except PlayDisabled as exc:
                self.state.event(
                    "ticket_rejected",
                    {"validation": barcode, "reason": "play_disabled", "detail": exc.reason},
                    txn=transaction_id,
                )
                raise
            ticket = self._redeemable(barcode, None, transaction_id)
            try:
                self._check_credit_in(ticket.amount)
            except MachineError as exc:
                self.state.event(
                    "ticket_rejected",
                    {"validation": barcode, "reason": exc.code, "detail": exc.reason},
                    txn=transaction_id,
                )
                raise
        except MachineError:
            return None
        if not self._accept(Escrow(transaction_id, "ticket", ticket.amount, barcode)):
            return None
        return ticket.amount

    def ticket_credited(self, barcode: str, amount_cents: int, transaction_id: str) -> None:
        """The ticket is stacked (VEND VALID): redeem it, once per transaction, for the
        amount it was issued for (the accepted escrow's ticket and amount).  A ticket
        stacked that cannot be redeemed (redeemed meanwhile, amount altered) is not
        credited: it is logged and the machine tilts (``ticket``) for an attendant to
        reconcile."""
        ledger = self.state.require_ledger()
        if ledger.has_txn(transaction_id, "ticket_in") or ledger.has_txn(
            transaction_id, "ticket_rejected"
        ):
            return  # a repeated VEND VALID
        escrow = self.escrows.get(transaction_id)
        if escrow is None and self.escrows.was_accepted(transaction_id):
            self._unmatched(
                f"VEND VALID for ticket {barcode}, whose escrow was already finished",
                transaction_id,
                amount_cents,
            )
            return
        if escrow is not None and escrow.item == "ticket":
            barcode = escrow.validation
        # accepted at escrow: it does not expire on its way to the stacker
        refusal = self._ticket_refusal(barcode, amount_cents, expiry=False, holder=transaction_id)
        if refusal is not None:
            with ledger.transaction():
                self.state.event(
                    "ticket_rejected",
                    {
                        "validation": barcode,
                        "reason": refusal.code.removeprefix("ticket_"),
                        "detail": refusal.reason,
                        "offered": amount_cents,
                        "stacked": True,
                    },
                    txn=transaction_id,
                )
                self.state.set_tilt(
                    TICKET_TILT,
                    f"ticket {barcode} was stacked but not redeemed ({refusal.reason}): "
                    "reconcile the stacker",
                    amount=amount_cents,
                    txn=transaction_id,
                )
        else:
            self.state.event(
                "ticket_in", {"validation": barcode}, amount=amount_cents, txn=transaction_id
            )
        self.escrows.forget(transaction_id)

    def escrow_aborted(self, transaction_id: str, reason: str) -> None:
        """The driver ended the escrow without a VEND VALID.  For an accepted escrow the
        reason says where the item is: in the box (credited), back with the patron
        (returned), unknown after a fault (in doubt, tilted), or unknown because the port
        was lost (the validator's next report settles it)."""
        ledger = self.state.require_ledger()
        escrow = self.escrows.get(transaction_id)
        if escrow is not None:
            if reason in STACKED_REASONS:
                self._credit_escrow(escrow, reason)
                return
            if reason == PORT_LOST:
                self.escrows.orphan(transaction_id)
                return
            if reason not in RETURNED_REASONS:
                self._in_doubt(escrow, reason)
                return
        if ledger.has_txn(transaction_id, "bill_in") or ledger.has_txn(transaction_id, "ticket_in"):
            return  # credited already (e.g. at power-up with the bill in the stacker)
        self._record_abort(transaction_id, reason)
        self.escrows.forget(transaction_id)

    def ticket(self, validation: str) -> TicketRecord | None:
        """The ticket issued here with ``validation`` (any status), None if unknown."""
        ledger = self.state.ledger
        return ledger.ticket(validation) if ledger is not None else None

    # -- device events -------------------------------------------------------------------
    def device_event(self, event: DeviceEvent) -> None:
        """A :class:`devices.host.DeviceEvent`: tilting ones tilt / untilt the machine.

        The validator's reports about an item settle an open accepted escrow first:
        VEND VALID or STACKED with no escrow in the driver (``vend_unmatched``) and
        power-up with the bill in the stacker credit it; power-up (with the bill in the
        acceptor) returns an orphan."""
        self.state.require_ledger()
        kind = str(event.kind)
        if kind == EventKind.VEND_UNMATCHED and event.active:
            self._vend_unmatched(event)
            return
        if kind == EventKind.POWER_UP_BILL_IN_STACKER and event.active:
            escrow = self.escrows.latest()
            if escrow is not None:
                self._credit_escrow(escrow, kind)
                self._record_device(event)
                return
            self._money_tilt(event, "the note in the stacker matches no accepted escrow")
            return
        if kind in (EventKind.POWER_UP, EventKind.POWER_UP_BILL_IN_ACCEPTOR):
            for orphan in self.escrows.orphans():
                self._record_abort(orphan.txn, kind)
                self.escrows.forget(orphan.txn)
        self._device_tilt(event)

    def _device_tilt(self, event: DeviceEvent) -> None:
        code = f"{DEVICE_TILT_PREFIX}{event.device}:{event.kind}"
        if event.tilt and event.active:
            if self.state.tilts.get(code) != event.detail:
                self.state.set_tilt(code, event.detail)
        elif event.tilt:
            if code in self.state.tilts:
                self.state.event("tilt_cleared", {"code": code, "by": "device"})
                del self.state.tilts[code]
        else:
            self._record_device(event)

    def _record_device(self, event: DeviceEvent) -> None:
        self.state.event(
            "device",
            {
                "device": event.device,
                "kind": str(event.kind),
                "detail": event.detail,
                "code": event.code,
            },
        )

    def _vend_unmatched(self, event: DeviceEvent) -> None:
        """VEND VALID (or STACKED) with no escrow in the driver's hands."""
        escrow = self.escrows.latest()
        if escrow is not None:  # accepted before a restart or a lost port, or STACKED early
            self._credit_escrow(escrow, "vend_valid_after_restart")
            self._record_device(event)
            return
        ledger = self.state.require_ledger()
        last = ledger.last_event("escrow_accepted")
        repeated = (
            not self._offered_since_power_up
            and last is not None
            and last.txn is not None
            and (ledger.has_txn(last.txn, "bill_in") or ledger.has_txn(last.txn, "ticket_in"))
        )
        self._offered_since_power_up = True
        if repeated:  # our ACK was lost when the power went: the note was credited
            self._record_device(event)
            return
        self._money_tilt(event, "no escrow was accepted for it")

    def _unmatched(self, why: str, txn: str, cents: int) -> None:
        self.state.set_tilt(
            f"{DEVICE_TILT_PREFIX}validator:vend_unmatched",
            f"{why} (transaction {txn}, {money(cents)}): not credited; reconcile the box",
            amount=cents,
            txn=txn,
        )

    def _money_tilt(self, event: DeviceEvent, why: str) -> None:
        """A one-shot tilt about an item in the box that is not credited, naming the last
        escrow refused (its transaction and amount) when there is one."""
        code = f"{DEVICE_TILT_PREFIX}{event.device}:{event.kind}"
        refused = self._last_refused
        if refused is None:
            named, cents, txn = "transaction and amount unknown", 0, None
        else:
            txn, cents = refused
            named = f"last escrow refused: transaction {txn}, {money(cents)}"
        self.state.set_tilt(
            code,
            f"{event.detail}: {why} ({named}): not credited; reconcile the box",
            amount=cents,
            txn=txn,
        )
