"""What the casino's slot system may ask of the game (:mod:`kiosk.sas`), each step
recorded before it takes effect, under the same rules as everything else the game does.
Amounts are cents.

* **Play stopped and resumed** (SAS long polls 01 / 02): the station's
  :data:`~kiosk.game.vocabulary.HOST_SHUTDOWN_TILT` (recorded as a tilt with who asked);
  its round in progress finishes, no new bet or deal is taken, cash-out is still
  allowed; the system's startup clears it, no attendant needed.
* **Note acceptance** (06 / 07): ``note_acceptance`` recorded; while off the station's
  validator is inhibited and a note offered is refused.
* **Validation numbers from the system** (57 / 58, with ``system_validation``): a ticket
  cash-out is recorded (credits off the meter) and waits for the system's number
  (:attr:`~kiosk.service.state.PendingPayout.awaiting`); the number delivered is written
  as the ticket's (``ticket_issue``) before the station prints it; a denial, a number
  already used, or no number within :data:`VALIDATION_DEADLINE_S` seconds makes the
  cash-out a handpay: the player's money is never held by the link.
* **Tickets of other machines** (67 / 70 / 71 / 68, with ``system_redemption``): a
  ticket this machine did not issue is held in the validator's escrow
  (:class:`~kiosk.service.state.HeldTicket`) while the system is asked; its redemption is
  recorded (``escrow_accepted``, source ``system``, the system's amount) before the
  validator stacks it, and credited once from that record (``system_ticket_in``) when
  the validator reports it stacked; a refusal, or no answer within
  :data:`REDEMPTION_DEADLINE_S` seconds, returns it (logged).
"""

from __future__ import annotations

from dataclasses import replace

from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import MachineError, TicketRefused, WrongState
from kiosk.game.rules.tickets import ticket_issue_detail
from kiosk.game.vocabulary import HOST_SHUTDOWN_TILT
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.link.outcomes import MoneyOutcome
from kiosk.service.escrows import Escrow, escrow_detail, resolution
from kiosk.service.payouts import Payouts
from kiosk.service.state import HeldTicket, TableState

#: Seconds a ticket cash-out waits for the system's validation number before a handpay.
VALIDATION_DEADLINE_S = 60.0
#: Seconds a ticket of another machine waits in escrow for the system's answer.
REDEMPTION_DEADLINE_S = 10.0


def redeemed_here(ledger: Ledger, validation: str) -> TicketRefused | None:
    """The refusal of a ticket this machine has redeemed already (one of its own,
    or one of another machine redeemed here through the casino's system: the set
    of numbers it redeemed, read from its ledger), else None: whatever the system
    answers, this machine pays a number once."""
    own = ledger.ticket(validation)
    if own is not None and own.status != "redeemed":
        return None
    if own is None and not ledger.events((EventKind.SYSTEM_TICKET_IN,), validation=validation):
        return None
    return TicketRefused(
        f"ticket {validation} was redeemed at this machine already",
        code=ErrorCode.TICKET_REDEEMED,
        params={"validation": validation},
    )


class AwaitingSystem(WrongState):
    """The ticket in escrow is a question for the casino's system: ask again shortly."""

    code = ErrorCode.AWAITING_SYSTEM


class SlotSystem:
    """The slot system's requests (see the module) on the game's state."""

    def __init__(self, state: TableState, payouts: Payouts) -> None:
        self.state = state
        self.payouts = payouts

    # -- play and notes ----------------------------------------------------------------
    def set_play(self, n: int, enabled: bool, by: str) -> None:
        """Stop play at station ``n`` after its round, or let it resume (see module)."""
        st = self.state
        st.require_ledger()
        own = st.station(n)
        if not enabled and HOST_SHUTDOWN_TILT not in own.tilts:
            st.set_tilt(n, HOST_SHUTDOWN_TILT, f"play stopped by the casino's system ({by})")
        elif enabled and HOST_SHUTDOWN_TILT in own.tilts:
            st.event(EventKind.TILT_CLEARED, {"code": HOST_SHUTDOWN_TILT, "by": by}, n)
            del own.tilts[HOST_SHUTDOWN_TILT]

    def set_notes(self, n: int, enabled: bool, by: str) -> None:
        """Station ``n``'s validator takes notes, or not (recorded when it changes)."""
        st = self.state
        st.require_ledger()
        own = st.station(n)
        if own.notes_off == (not enabled):
            return
        st.event(EventKind.NOTE_ACCEPTANCE, {"enabled": bool(enabled), "by": by}, n)
        own.notes_off = not enabled

    # -- validation numbers from the system ----------------------------------------------
    def deliver_validation(self, n: int, txn: str, validation: str | None) -> MoneyOutcome:
        """The system's number for station ``n``'s cash-out ``txn`` (None: denied): the
        ticket written with it, pending, to be printed; or a handpay.  Returns
        ``ticket`` or ``handpay``.  Refused (:class:`WrongState`) when that cash-out no
        longer waits for a number."""
        st = self.state
        ledger = st.require_ledger()
        own = st.station(n)
        payout = own.payout
        if payout is None or payout.txn != txn or not payout.awaiting:
            raise WrongState(
                f"cash-out {txn} waits for no validation number", code=ErrorCode.NOT_WAITING
            )
        if validation is None:
            self.payouts.handpay_instead(n, "the casino's system denied a validation number")
            return MoneyOutcome.HANDPAY
        if not (len(validation) == 18 and validation.isascii() and validation.isdigit()):
            raise WrongState(
                f"not an 18-digit validation number: {validation!r}", code=ErrorCode.BAD_NUMBER
            )
        if ledger.validation_taken(validation):
            self.payouts.handpay_instead(n, f"the system's number {validation} is already used")
            return MoneyOutcome.HANDPAY
        cfg = st.config
        detail = ticket_issue_detail(ledger, st.now(), cfg.ticket_expiry_days, cfg.machine_number)
        detail = {**detail, "validation": validation, "source": "system"}
        st.event(EventKind.TICKET_ISSUE, detail, n, amount=payout.amount, txn=txn)
        own.payout = replace(payout, awaiting=False)
        return MoneyOutcome.TICKET

    def expire(self) -> None:
        """Cash-outs that waited too long for a number become handpays; tickets that
        waited too long for the system's answer go back."""
        st = self.state
        now = st.ticks()
        for n, own in st.stations.items():
            payout = own.payout
            if (
                payout is not None
                and payout.awaiting
                and now - payout.since > VALIDATION_DEADLINE_S
            ):
                self.payouts.handpay_instead(n, "no validation number from the casino's system")
            held = own.held
            if (
                held is not None
                and held.state == "waiting"
                and now - held.since > REDEMPTION_DEADLINE_S
            ):
                own.held = replace(held, state="refused")

    # -- tickets of other machines -------------------------------------------------------
    def hold(self, n: int, txn: str, validation: str) -> None:
        """Station ``n``'s validator holds ``validation``, a ticket not issued here: it
        waits for the system (raises :class:`AwaitingSystem`), or the system's answer is
        applied (authorised: its escrow was recorded, this is not reached; refused:
        raises the refusal)."""
        st = self.state
        own = st.station(n)
        held = own.held
        if held is None or held.txn != txn:
            own.held = HeldTicket(txn, validation, since=st.ticks())
            raise AwaitingSystem(f"ticket {validation} is asked of the casino's system")
        if held.state == "waiting":
            raise AwaitingSystem(f"ticket {validation} is asked of the casino's system")
        own.held = None
        raise WrongState(
            f"ticket {validation} was refused by the casino's system",
            code=ErrorCode.TICKET_REFUSED_BY_SYSTEM,
        )

    def held_ticket(self, n: int) -> HeldTicket | None:
        """The ticket station ``n`` holds for the system, while it waits."""
        held = self.state.station(n).held
        return held if held is not None and held.state == "waiting" else None

    def redeem(self, n: int, txn: str, amount: int) -> None:
        """The system says the ticket held as ``txn`` is worth ``amount`` cents: its
        redemption recorded (before the validator stacks), once."""
        st = self.state
        ledger = st.require_ledger()
        own = st.station(n)
        if ledger.txn_station(txn, EventKind.ESCROW_ACCEPTED) == n:
            return  # said again
        held = own.held
        if held is None or held.txn != txn or held.state != "waiting":
            raise WrongState(f"no ticket waits for the system as {txn}", code=ErrorCode.NOT_WAITING)
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise MachineError(
                f"a ticket's amount is positive cents, not {amount!r}", code=ErrorCode.BAD_AMOUNT
            )
        refusal = redeemed_here(ledger, held.validation)
        mine = ledger.ticket(held.validation)
        if (
            refusal is None
            and mine is not None
            and (mine.status != "issued" or mine.amount != amount)
        ):
            refusal = TicketRefused(
                f"ticket {held.validation} is this machine's {mine.status} ticket of "
                f"{mine.amount} cents, not one of {amount} to redeem",
                code=ErrorCode.TICKET_ALTERED,
                params={"validation": held.validation},
            )
        if refusal is not None:
            own.held = replace(held, state="refused")
            raise refusal
        st.require_credit_room(n, amount)
        escrow = Escrow(txn, "ticket", amount, held.validation, system=True)
        st.event(EventKind.ESCROW_ACCEPTED, escrow_detail(escrow), n, amount=amount, txn=txn)
        own.escrows.opened(escrow)
        own.held = replace(held, state="authorised", amount=amount)

    def refuse(self, n: int, txn: str) -> None:
        """The system refused the ticket held as ``txn``: it goes back."""
        own = self.state.station(n)
        held = own.held
        if held is not None and held.txn == txn and held.state == "waiting":
            own.held = replace(held, state="refused")

    def redemption(self, n: int, txn: str) -> tuple[str, str, int] | None:
        """How the redemption of ``txn`` at station ``n`` stands: (``stacking``,
        ``credited`` or ``returned``, the ticket's number, cents); None when the system
        was never asked about it."""
        st = self.state
        ledger = st.require_ledger_open()
        held = st.station(n).held
        if ledger.txn_station(txn, EventKind.ESCROW_ACCEPTED) == n:
            done = resolution(ledger, txn)
            escrow = st.station(n).escrows.get(txn)
            number = escrow.validation if escrow is not None else (held.validation if held else "")
            amount = escrow.amount if escrow is not None else (held.amount if held else 0)
            found = [
                e
                for e in ledger.events((EventKind.ESCROW_ACCEPTED,), station=n, last=64)
                if e.txn == txn
            ]
            if found:
                number = str(found[-1].detail.get("validation", number))
                amount = found[-1].amount
            credited = done is MoneyOutcome.CREDITED
            state = "stacking" if done is None else "credited" if credited else "returned"
            return state, number, amount
        if held is not None and held.txn == txn:
            return (
                ("returned" if held.state == "refused" else "stacking"),
                held.validation,
                held.amount,
            )
        return None
