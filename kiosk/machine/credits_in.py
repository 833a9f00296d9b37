"""Credits in and the device host side of :class:`Machine`: bills, tickets in escrow
and redeemed, device events (:class:`devices.host.ValidatorHost`)."""

from __future__ import annotations

from typing import Any

from engine.money import format_cents as money
from kiosk.ledger.ledger import TicketRecord
from kiosk.machine.operation import _operation
from kiosk.machine.types import (
    DEVICE_TILT_PREFIX,
    TICKET_TILT,
    MachineError,
    PlayDisabled,
    TicketRefused,
    WrongState,
)


class DeviceHostMixin:
    """Credits in and the validator host callbacks (mixed into :class:`Machine`)."""

    # -- credits in -------------------------------------------------------------------------------
    @_operation
    def insert_credits(self, cents: int, source: str) -> None:
        """Credit ``cents`` from ``source``: ``"bill:<cents>"`` (a stacked bill of that
        denomination) or ``"ticket:<validation number>"``.  Refused while tilted, with the
        door open, during a payout, or above the credit limit."""
        self._require_playable()
        kind, _, ref = source.partition(":")
        if kind not in ("bill", "ticket") or not ref:
            raise MachineError(
                f"unknown credit source {source!r} (use bill:<cents> or ticket:<number>)",
                code="bad_credit_source",
            )
        if not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0:
            raise MachineError(
                f"credits are a positive whole number of cents, not {cents!r}", code="bad_amount"
            )
        if kind == "ticket":
            ticket = self._redeemable(ref, cents, txn=None)
            self._check_credit_in(cents)
            self._event("ticket_in", {"validation": ticket.validation}, amount=cents)
            return
        self._check_credit_in(cents)
        if ref != str(cents) or cents not in self.config.accepted_bills:
            raise MachineError(
                f"bill {source!r} is not an accepted denomination of {cents} cents",
                code="bill_not_accepted",
                params={"cents": cents},
            )
        self._event("bill_in", {"denomination": cents, "source": "insert"}, amount=cents)

    def _ticket_value(self, validation: str) -> int | None:
        """What a ticket issued by this cabinet, printed and not yet redeemed is worth,
        else None (stand-alone validation: no ticket system is connected)."""
        assert self.ledger is not None
        return self.ledger.unredeemed_ticket(validation)

    def _ticket_refusal(
        self, validation: str, cents: int | None, *, expiry: bool = True
    ) -> TicketRefused | None:
        """Why the ticket ``validation`` (offered for ``cents``, None: its own amount)
        cannot be redeemed now, or None when it can.  Reads the ledger (cross-checked
        against the events: an edited row raises LedgerCorruptError)."""
        assert self.ledger is not None
        ticket = self.ledger.checked_ticket(validation)
        params: dict[str, Any] = {"validation": validation}

        def refuse(code: str, why: str) -> TicketRefused:
            offered = "a " if cents is None else f"a {money(cents)} "
            return TicketRefused(
                f"ticket {validation} is not {offered}ticket of this cabinet still to be "
                f"redeemed ({why})",
                code=code,
                params=params,
            )

        if ticket is None:
            return refuse("ticket_unknown", "unknown: not issued here")
        params["amount"] = ticket.amount
        if ticket.status == "redeemed":
            return refuse("ticket_redeemed", f"already redeemed at {ticket.redeemed_at}")
        if ticket.status == "void":
            return refuse("ticket_void", f"void: {ticket.void_reason}")
        if ticket.status == "pending":
            return refuse("ticket_pending", "never reported printed")
        if cents is not None and cents != ticket.amount:
            return refuse("ticket_altered", f"altered: it was issued for {money(ticket.amount)}")
        if (
            expiry
            and ticket.expires_on is not None
            and self.clock().date().isoformat() > ticket.expires_on
        ):
            params["expires_on"] = ticket.expires_on
            return refuse("ticket_expired", f"expired after {ticket.expires_on}")
        if validation in self._ticket_holds.values():
            return refuse("ticket_in_escrow", "already in the validator's escrow")
        return None

    def _redeemable(self, validation: str, cents: int | None, txn: str | None) -> TicketRecord:
        """The ticket, if it can be redeemed now; else the refusal is logged (a
        ``ticket_rejected`` event with the reason) and raised."""
        assert self.ledger is not None
        refusal = self._ticket_refusal(validation, cents)
        if refusal is not None:
            self._event(
                "ticket_rejected",
                {
                    "validation": validation,
                    "reason": refusal.code.removeprefix("ticket_"),
                    "detail": refusal.reason,
                    "offered": cents,
                },
                txn=txn,
            )
            raise refusal
        ticket = self.ledger.ticket(validation)
        assert ticket is not None
        return ticket

    def _check_credit_in(self, cents: int) -> None:
        if self._cashout is not None:
            raise WrongState("a payout is in progress", code="payout_in_progress")
        if self.credits + cents > self.config.credit_limit_cents:
            raise MachineError(
                f"the credit limit is {money(self.config.credit_limit_cents)}",
                code="credit_limit",
                params={"limit": self.config.credit_limit_cents},
            )

    @_operation
    def bill_stacked(self, denomination_cents: int, transaction_id: str) -> bool:
        """A bill reached the stacker (VEND VALID): credit it, once per ``transaction_id``.

        Credited even if a tilt arose since escrow (the money is in the box).  Returns
        False when that transaction was already credited."""
        ledger = self._require_ledger()
        if ledger.has_txn(transaction_id, "bill_in"):
            return False
        self._event(
            "bill_in",
            {"denomination": denomination_cents},
            amount=denomination_cents,
            txn=transaction_id,
        )
        return True

    # devices.host.ValidatorHost ---------------------------------------------------------
    def escrow_decision(self, denomination_cents: int, transaction_id: str) -> bool:
        """Stack the note in escrow?  Only when playable, accepted and under the limit."""
        with self._lock:
            try:
                self._require_playable()
                self._check_credit_in(denomination_cents)
            except MachineError:
                return False
            return denomination_cents in self.config.accepted_bills

    def bill_credited(self, denomination_cents: int, transaction_id: str) -> None:
        self.bill_stacked(denomination_cents, transaction_id)

    @_operation
    def ticket_escrow(self, barcode: str, transaction_id: str) -> int | None:
        """A ticket is in the validator's escrow: its amount (cents) to stack and redeem it
        -- a ticket this cabinet issued and printed, not void, redeemed or expired -- or
        None to return it.  Every returned ticket is logged (``ticket_rejected``, with the
        reason: unknown, pending, void, redeemed, expired, in_escrow, play_disabled,
        payout_in_progress, credit_limit).  The ticket is held for ``transaction_id``
        until it is credited or the escrow ends."""
        try:
            self._require_ledger()
        except MachineError:
            return None
        try:
            try:
                self._require_playable()
            except PlayDisabled as exc:
                self._event(
                    "ticket_rejected",
                    {"validation": barcode, "reason": "play_disabled", "detail": exc.reason},
                    txn=transaction_id,
                )
                raise
            ticket = self._redeemable(barcode, None, transaction_id)
            try:
                self._check_credit_in(ticket.amount)
            except MachineError as exc:
                self._event(
                    "ticket_rejected",
                    {"validation": barcode, "reason": exc.code, "detail": exc.reason},
                    txn=transaction_id,
                )
                raise
        except MachineError:
            return None
        self._ticket_holds[transaction_id] = barcode
        return ticket.amount

    @_operation
    def ticket_credited(self, barcode: str, amount_cents: int, transaction_id: str) -> None:
        """The ticket is stacked (VEND VALID): redeem it, once per transaction, for the
        amount it was issued for.  A ticket stacked that cannot be redeemed (redeemed
        meanwhile, amount altered) is not credited: it is logged and the machine tilts
        (``ticket``) for an attendant to reconcile."""
        ledger = self._require_ledger()
        if ledger.has_txn(transaction_id, "ticket_in") or ledger.has_txn(
            transaction_id, "ticket_rejected"
        ):
            return  # a repeated VEND VALID
        self._ticket_holds.pop(transaction_id, None)
        # accepted at escrow: it does not expire on its way to the stacker
        refusal = self._ticket_refusal(barcode, amount_cents, expiry=False)
        if refusal is not None:
            with ledger.transaction():
                self._event(
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
                self._set_tilt(
                    TICKET_TILT,
                    f"ticket {barcode} was stacked but not redeemed ({refusal.reason}): "
                    "reconcile the stacker",
                )
            return
        self._event("ticket_in", {"validation": barcode}, amount=amount_cents, txn=transaction_id)

    @_operation
    def escrow_aborted(self, transaction_id: str, reason: str) -> None:
        ledger = self._require_ledger()
        self._ticket_holds.pop(transaction_id, None)
        if not ledger.has_txn(transaction_id, "escrow_aborted"):
            self._event("escrow_aborted", {"reason": reason}, txn=transaction_id)

    def ticket(self, validation: str) -> TicketRecord | None:
        """The ticket issued here with ``validation`` (any status), None if unknown."""
        with self._lock:
            return self.ledger.ticket(validation) if self.ledger is not None else None

    @_operation
    def device_event(self, event: Any) -> None:
        """A :class:`devices.host.DeviceEvent`: tilting ones tilt / untilt the machine."""
        self._require_ledger()
        code = f"{DEVICE_TILT_PREFIX}{event.device}:{event.kind}"
        if event.tilt and event.active:
            if self._tilts.get(code) != event.detail:
                self._set_tilt(code, event.detail)
        elif event.tilt:
            if code in self._tilts:
                self._event("tilt_cleared", {"code": code, "by": "device"})
                del self._tilts[code]
        else:
            self._event(
                "device",
                {
                    "device": event.device,
                    "kind": str(event.kind),
                    "detail": event.detail,
                    "code": event.code,
                },
            )
