"""How credits leave the machine: the :class:`Payout` strategy protocol, what a strategy
may call back (:class:`PayoutHost`), and the cancelled-credit :class:`HandpayPayout`."""

from __future__ import annotations

from typing import Protocol

from kiosk.ledger.records import TicketRecord
from kiosk.machine.snapshot import PayoutRequest


class PayoutHost(Protocol):
    """The controller's operations a payout strategy finishes a cash-out with (each
    takes the machine's lock; each refusal is a :class:`kiosk.machine.errors.MachineError`)."""

    def issue_ticket(self, transaction_id: str) -> TicketRecord:
        """Record the cash-out's ticket (status ``pending``) before printing it."""
        ...

    def payout_complete(self, transaction_id: str, reference: str = "") -> None:
        """The payout happened (``reference``: the ticket's validation number)."""
        ...

    def payout_failed(self, transaction_id: str, reason: str) -> None:
        """The payout did not happen: the credits go back on the meter."""
        ...

    def payout_to_handpay(self, transaction_id: str, reason: str) -> None:
        """Whether it happened is unknown: the ticket is voided, an attendant pays."""
        ...


class Payout(Protocol):
    """How credits leave the machine (:class:`HandpayPayout`, or the ticket printer:
    :class:`kiosk.station.printer.StationPrinter` through the station's link).

    The cash-out has already moved the credits into ``request`` (recorded) when
    ``start`` is called, under the machine's lock: ``start`` must return at once (hand
    the work to another thread) and should not raise.  The strategy finishes it later,
    from any thread, through ``host``: :meth:`PayoutHost.payout_complete` (ticket
    printed), :meth:`PayoutHost.payout_failed` (not printed: credits go back on the
    meter) or :meth:`PayoutHost.payout_to_handpay` (cannot tell: the ticket is voided,
    an attendant pays).  A ticket strategy records the ticket first with
    :meth:`PayoutHost.issue_ticket`.
    """

    method: str

    def start(self, host: PayoutHost, request: PayoutRequest) -> None: ...

    def resume(self, host: PayoutHost, request: PayoutRequest) -> None:
        """At power-up ``request`` was still pending (e.g. printing was interrupted)."""


class HandpayPayout:
    """Cancelled-credit handpay: the machine stays in CASHOUT until an attendant pays the
    player and keys it off (``Machine.handpay_reset``), which records the handpay.  A
    ticket cash-out found pending at power-up with no printer strategy becomes a handpay."""

    method = "handpay"

    def start(self, host: PayoutHost, request: PayoutRequest) -> None:
        return None

    def resume(self, host: PayoutHost, request: PayoutRequest) -> None:
        if request.method == "ticket":
            host.payout_to_handpay(request.transaction_id, "no ticket printer to resume it")
