"""Credits in: bills, tickets in escrow and redeemed, and device events as tilts.

A bill is credited once per validator transaction; a ticket is redeemed once, for the
amount it was issued for, and only if this cabinet issued and printed it.  Every
returned ticket is logged with the reason.  Amounts are cents.
"""

from __future__ import annotations

from typing import Any

from devices.host import DeviceEvent
from engine.money import format_cents as money
from kiosk.ledger.records import TicketRecord
from kiosk.machine.errors import MachineError, PlayDisabled, TicketRefused, WrongState
from kiosk.machine.state import DEVICE_TILT_PREFIX, TICKET_TILT, CabinetState


class CreditsIn:
    """Bills and tickets in, and the device events of the validator and the printer.

    Owns the tickets held in the validator's escrow (transaction id -> validation
    number) until they are credited or the escrow ends."""

    def __init__(self, state: CabinetState) -> None:
        self.state = state
        self._ticket_holds: dict[str, str] = {}

    # -- credits in -------------------------------------------------------------------------------
    def insert_credits(self, cents: int, source: str) -> None:
        """Credit ``cents`` from ``source``: ``"bill:<cents>"`` (a stacked bill of that
        denomination) or ``"ticket:<validation number>"``.  Refused while tilted, with the
        door open, during a payout, or above the credit limit."""
        self.state.require_playable()
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
            self.state.event("ticket_in", {"validation": ticket.validation}, amount=cents)
            return
        self._check_credit_in(cents)
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
        self, validation: str, cents: int | None, *, expiry: bool = True
    ) -> TicketRefused | None:
        """Why the ticket ``validation`` (offered for ``cents``, None: its own amount)
        cannot be redeemed now, or None when it can.  Reads the ledger (cross-checked
        against the events: an edited row raises LedgerCorruptError)."""
        ticket = self.state.require_ledger().checked_ticket(validation)
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
            and self.state.clock().date().isoformat() > ticket.expires_on
        ):
            params["expires_on"] = ticket.expires_on
            return refuse("ticket_expired", f"expired after {ticket.expires_on}")
        if validation in self._ticket_holds.values():
            return refuse("ticket_in_escrow", "already in the validator's escrow")
        return None

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
            raise refusal
        ticket = self.state.require_ledger().ticket(validation)
        assert ticket is not None
        return ticket

    def _check_credit_in(self, cents: int) -> None:
        if self.state.cashout is not None:
            raise WrongState("a payout is in progress", code="payout_in_progress")
        if self.state.credits + cents > self.state.config.credit_limit_cents:
            raise MachineError(
                f"the credit limit is {money(self.state.config.credit_limit_cents)}",
                code="credit_limit",
                params={"limit": self.state.config.credit_limit_cents},
            )

    def bill_stacked(self, denomination_cents: int, transaction_id: str) -> bool:
        """A bill reached the stacker (VEND VALID): credit it, once per ``transaction_id``.

        Credited even if a tilt arose since escrow (the money is in the box).  Returns
        False when that transaction was already credited."""
        ledger = self.state.require_ledger()
        if ledger.has_txn(transaction_id, "bill_in"):
            return False
        self.state.event(
            "bill_in",
            {"denomination": denomination_cents},
            amount=denomination_cents,
            txn=transaction_id,
        )
        return True

    # devices.host.ValidatorHost ---------------------------------------------------------
    def escrow_decision(self, denomination_cents: int, transaction_id: str) -> bool:
        """Stack the note in escrow?  Only when playable, accepted and under the limit."""
        try:
            self.state.require_playable()
            self._check_credit_in(denomination_cents)
        except MachineError:
            return False
        return denomination_cents in self.state.config.accepted_bills

    def ticket_escrow(self, barcode: str, transaction_id: str) -> int | None:
        """A ticket is in the validator's escrow: its amount (cents) to stack and redeem it
        -- a ticket this cabinet issued and printed, not void, redeemed or expired -- or
        None to return it.  Every returned ticket is logged (``ticket_rejected``, with the
        reason: unknown, pending, void, redeemed, expired, in_escrow, play_disabled,
        payout_in_progress, credit_limit).  The ticket is held for ``transaction_id``
        until it is credited or the escrow ends."""
        try:
            self.state.require_ledger()
        except MachineError:
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
        self._ticket_holds[transaction_id] = barcode
        return ticket.amount

    def ticket_credited(self, barcode: str, amount_cents: int, transaction_id: str) -> None:
        """The ticket is stacked (VEND VALID): redeem it, once per transaction, for the
        amount it was issued for.  A ticket stacked that cannot be redeemed (redeemed
        meanwhile, amount altered) is not credited: it is logged and the machine tilts
        (``ticket``) for an attendant to reconcile."""
        ledger = self.state.require_ledger()
        if ledger.has_txn(transaction_id, "ticket_in") or ledger.has_txn(
            transaction_id, "ticket_rejected"
        ):
            return  # a repeated VEND VALID
        self._ticket_holds.pop(transaction_id, None)
        # accepted at escrow: it does not expire on its way to the stacker
        refusal = self._ticket_refusal(barcode, amount_cents, expiry=False)
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
                )
            return
        self.state.event("ticket_in", {"validation": barcode}, amount=amount_cents, txn=transaction_id)

    def escrow_aborted(self, transaction_id: str, reason: str) -> None:
        ledger = self.state.require_ledger()
        self._ticket_holds.pop(transaction_id, None)
        if not ledger.has_txn(transaction_id, "escrow_aborted"):
            self.state.event("escrow_aborted", {"reason": reason}, txn=transaction_id)

    def ticket(self, validation: str) -> TicketRecord | None:
        """The ticket issued here with ``validation`` (any status), None if unknown."""
        ledger = self.state.ledger
        return ledger.ticket(validation) if ledger is not None else None

    def device_event(self, event: DeviceEvent) -> None:
        """A :class:`devices.host.DeviceEvent`: tilting ones tilt / untilt the machine."""
        self.state.require_ledger()
        code = f"{DEVICE_TILT_PREFIX}{event.device}:{event.kind}"
        if event.tilt and event.active:
            if self.state.tilts.get(code) != event.detail:
                self.state.set_tilt(code, event.detail)
        elif event.tilt:
            if code in self.state.tilts:
                self.state.event("tilt_cleared", {"code": code, "by": "device"})
                del self.state.tilts[code]
        else:
            self.state.event(
                "device",
                {
                    "device": event.device,
                    "kind": str(event.kind),
                    "detail": event.detail,
                    "code": event.code,
                },
            )
