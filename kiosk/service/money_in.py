"""Credits in at every station: notes and tickets through the validator, two-phase
through the ledger, test credits of a burn-in, and the validator's device events.

The one path of money in, for the lone cabinet's own validator (in process) and for a
table station's (over the link): the station's validator driver asks, the service
checks and records, then answers.  Amounts are cents.

**Phase one** (before STACK): :meth:`MoneyIn.accept_note` / :meth:`MoneyIn.accept_ticket`
commit the station's ``escrow_accepted`` (:mod:`kiosk.service.escrows`) or raise the
refusal's :class:`MachineError` (the item is returned).  A note must be one of the
stations' denominations (``accepted_bills``): no validator reads another, so a station
reporting one is lying; it is recorded (``note_refused``) and the
:data:`FORGERY_LIMIT`-th since that tilt was last cleared stops the station
(:data:`FORGERY_TILT`).  A ticket must be issued by this table or cabinet, printed, not
void, redeemed, expired nor in another escrow (:func:`~kiosk.game.rules.tickets.ticket_refusal`);
every refusal is logged (``ticket_rejected`` with the reason) and too many unknown
numbers at a station stop it (``unknown_tickets``).  Money only while the station may
play, with no payout pending and within the credit limit.  If the acceptance cannot be
written the item is returned and the station stands in the ``ledger_write`` tilt.

**Phase two**, once per transaction: :meth:`MoneyIn.stacked` (VEND VALID: the item is
in the box) credits the note (``bill_in``) or redeems the ticket (``ticket_in``) for the
amount accepted; :meth:`MoneyIn.ended` (the escrow ended otherwise) credits it when the
reason says it is in the box, closes it (``escrow_aborted``) when it went back, or
records it in doubt with the station's ``escrow`` tilt after a fault.  A VEND VALID for
no accepted escrow of that station is the ``vend_unmatched`` tilt naming the
transaction and amount, never a credit.

**After a restart** of either end an accepted escrow nothing finished is an orphan: the
validator's next report settles it (:meth:`MoneyIn.device_event`): VEND VALID or STACKED
with no escrow in the driver, or power-up with the bill in the stacker, credit the
station's latest open escrow (the item is in the box); a new escrow, or power-up with
the bill in the acceptor, return it.
"""

from __future__ import annotations

import logging
import sqlite3

from devices.host import ONE_SHOT_KINDS, DeviceEvent, DeviceEventKind
from engine.money import format_cents as money
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import MachineError, PlayDisabled, TicketRefused, WrongState
from kiosk.game.rules.tickets import (
    UNKNOWN_TICKETS_TILT,
    ticket_refusal,
    unknown_tickets_over_limit,
    unknown_tickets_text,
)
from kiosk.game.vocabulary import (
    DEVICE_TILT_PREFIX,
    ESCROW_TILT,
    LEDGER_WRITE_TILT,
    TICKET_TILT,
)
from kiosk.game.write_probe import write_problem
from kiosk.ledger.errors import LedgerError
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.records import TicketRecord
from kiosk.link.outcomes import EscrowEnd, MoneyOutcome
from kiosk.service.escrows import PORT_LOST, Escrow, escrow_detail, escrow_end, resolution
from kiosk.service.escrows import RECENT as RECENT_ESCROWS
from kiosk.service.slot_system import AwaitingSystem, SlotSystem, redeemed_here
from kiosk.service.state import TableState

log = logging.getLogger(__name__)

#: Notes of no accepted denomination from one station that tilt it.
FORGERY_LIMIT = 3
#: The tilt of a station that reported such notes again and again.
FORGERY_TILT = "forged_notes"
#: The tilt of a station whose validator stacked a note no open escrow matches.
UNMATCHED_TILT = f"{DEVICE_TILT_PREFIX}validator:vend_unmatched"


class MoneyIn:
    """Notes, tickets and test credits into each station's meter (see the module).

    Keeps, per station, whether its validator offered an escrow since power-up and the
    last escrow refused (transaction, cents), which a ``vend_unmatched`` tilt names."""

    def __init__(self, state: TableState, system: SlotSystem) -> None:
        self.state = state
        self.system = system  # asked about tickets not issued here (system redemption)
        self._offered: set[int] = set()
        self._last_refused: dict[int, tuple[str, int]] = {}

    # -- phase one ---------------------------------------------------------------------
    def accept_note(self, n: int, txn: str, cents: int) -> bool:
        """Phase one for a note of ``cents`` in station ``n``'s validator as ``txn``:
        True once committed (stack it), or already accepted and still open (stack it);
        else a :class:`MachineError` says why, before anything is written."""
        st = self.state
        ledger = st.require_ledger()
        own = st.station(n)
        self._offered.add(n)
        if ledger.has_txn(txn, EventKind.ESCROW_ACCEPTED):
            if own.escrows.get(txn) is not None:
                return True
            raise WrongState(f"escrow {txn} is already finished", code=ErrorCode.ESCROW_FINISHED)
        self._return_earlier(n)
        try:
            if not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0:
                raise MachineError(
                    f"a note is a positive whole number of cents, not {cents!r}",
                    code=ErrorCode.BAD_AMOUNT,
                )
            st.require_playable(n)
            if own.notes_off:
                raise PlayDisabled(
                    "the casino's system turned note acceptance off", code=ErrorCode.NOTES_OFF
                )
            if cents not in st.config.accepted_bills:
                self._forged(n, txn, cents)
            st.require_credit_room(n, cents)
        except MachineError:
            self._last_refused[n] = (txn, cents if isinstance(cents, int) else 0)
            raise
        self._accept(n, Escrow(txn, "bill", cents))
        return True

    def accept_ticket(self, n: int, txn: str, validation: str, cents: int | None = None) -> int:
        """Phase one for the ticket ``validation`` in station ``n``'s validator as
        ``txn`` (``cents``: the amount read with it, when the device reads one): its
        amount once the acceptance is committed (or already accepted and still open).  A
        refusal is logged and raised (:class:`TicketRefused` for the ticket itself)."""
        st = self.state
        ledger = st.require_ledger()
        own = st.station(n)
        self._offered.add(n)
        if ledger.has_txn(txn, EventKind.ESCROW_ACCEPTED):
            mine = own.escrows.get(txn)
            if mine is not None and mine.validation == validation:
                return mine.amount
            raise WrongState(f"escrow {txn} is already finished", code=ErrorCode.ESCROW_FINISHED)
        self._return_earlier(n)
        if st.system_validation and st.system_redemption:
            self._through_system(n, txn, validation, cents)
        try:
            st.require_playable(n)
            held = any(s.escrows.holding(validation, but=txn) for s in st.stations.values())
            refusal = ticket_refusal(ledger, validation, cents, st.now().date(), in_escrow=held)
            if refusal is not None:
                raise refusal
            ticket = ledger.ticket(validation)
            assert ticket is not None
            st.require_credit_room(n, ticket.amount)
        except MachineError as exc:
            if exc.code == "ticket_unknown" and st.system_redemption:
                try:
                    self.system.hold(n, txn, validation)  # the casino's system is asked
                except AwaitingSystem:
                    raise
                except MachineError as refused:
                    exc = refused
            self._rejected(n, txn, validation, exc, cents)
            if exc.code in ("ticket_unknown", "ticket_refused_by_system"):
                self._count_unknown(n)
            raise exc from None
        self._accept(n, Escrow(txn, "ticket", ticket.amount, validation))
        return ticket.amount

    def _through_system(self, n: int, txn: str, validation: str, cents: int | None) -> None:
        """With the casino's validation on, every ticket is the casino system's to
        redeem (this machine's own too): refused here when this machine knows it cannot
        be paid (one of its own tickets not issued, altered or expired, or a number it
        redeemed already: :func:`~kiosk.service.slot_system.redeemed_here`), else held
        for the system (:class:`AwaitingSystem` is raised, or the system's refusal)."""
        st = self.state
        ledger = st.require_ledger()
        try:
            st.require_playable(n)
            held = any(s.escrows.holding(validation, but=txn) for s in st.stations.values())
            refusal = redeemed_here(ledger, validation)
            if refusal is None and ledger.ticket(validation) is not None:
                today = st.now().date()
                refusal = ticket_refusal(ledger, validation, cents, today, in_escrow=held)
            if refusal is None and held:
                refusal = TicketRefused(
                    f"ticket {validation} is already in a validator's escrow",
                    code=ErrorCode.TICKET_IN_ESCROW,
                    params={"validation": validation},
                )
            if refusal is not None:
                raise refusal
            self.system.hold(n, txn, validation)  # the casino's system is asked
        except AwaitingSystem:
            raise
        except MachineError as exc:
            self._rejected(n, txn, validation, exc, cents)
            if exc.code == "ticket_refused_by_system":
                self._count_unknown(n)
            raise exc from None

    def _accept(self, n: int, escrow: Escrow) -> None:
        """Commit the acceptance of ``escrow``; when it cannot be written the station
        stands in the ``ledger_write`` tilt and :class:`PlayDisabled` is raised (the
        item is returned)."""
        st = self.state
        ledger = st.require_ledger()
        try:
            with ledger.transaction():
                st.event(
                    EventKind.ESCROW_ACCEPTED,
                    escrow_detail(escrow),
                    n,
                    amount=escrow.amount,
                    txn=escrow.txn,
                )
        except (LedgerError, sqlite3.Error) as exc:
            self._write_failed(n, f"the {escrow.what} in escrow ({escrow.txn}) was returned: {exc}")
            raise PlayDisabled(
                "the ledger cannot record the escrow", code=ErrorCode.LEDGER_WRITE
            ) from exc
        st.station(n).escrows.opened(escrow)
        self._last_refused.pop(n, None)

    def _return_earlier(self, n: int) -> None:
        """A new item is in station ``n``'s escrow: its orphans (escrows no running
        validator session knows of) are no longer on their way to the box (a VEND VALID
        would have come before the validator took another item), so they went back to
        the patron.  When that cannot be written the station tilts (``ledger_write``) and
        :class:`PlayDisabled` is raised."""
        st = self.state
        own = st.station(n)
        earlier = own.escrows.orphans()
        if not earlier:
            return
        try:
            with st.require_ledger_open().transaction():
                for old in earlier:
                    st.event(
                        EventKind.ESCROW_ABORTED,
                        {"reason": "returned_before_new_escrow"},
                        n,
                        txn=old.txn,
                    )
        except (LedgerError, sqlite3.Error) as exc:
            self._write_failed(n, f"earlier escrows could not be closed: {exc}")
            raise PlayDisabled(
                "the ledger cannot record the escrow", code=ErrorCode.LEDGER_WRITE
            ) from exc
        for old in earlier:
            own.escrows.forget(old.txn)

    def _forged(self, n: int, txn: str, cents: int) -> None:
        """A note of no accepted denomination (see the module): recorded, counted, and
        always refused (``bill_not_accepted``)."""
        st = self.state
        ledger = st.require_ledger()
        detail = {"denomination": cents, "reason": "not a denomination of this machine"}
        with ledger.transaction():
            st.event(EventKind.NOTE_REFUSED, detail, n, txn=txn[:64])
        count = 0
        for ev in ledger.events(
            (EventKind.NOTE_REFUSED, EventKind.TILT_CLEARED), station=n, last=50
        ):
            if ev.kind == EventKind.NOTE_REFUSED:
                count += 1
            elif ev.detail.get("code") == FORGERY_TILT:
                count = 0
        if count >= FORGERY_LIMIT and FORGERY_TILT not in st.station(n).tilts:
            st.set_tilt(
                n, FORGERY_TILT, f"{count} notes of no denomination of this machine reported"
            )
        bills = ", ".join(money(b) for b in st.config.accepted_bills)
        raise MachineError(
            f"a note of {money(cents)} is not an accepted denomination ({bills})",
            code=ErrorCode.BILL_NOT_ACCEPTED,
            params={"cents": cents},
        )

    def _rejected(
        self, n: int, txn: str, validation: str, exc: MachineError, cents: int | None = None
    ) -> None:
        """Log a ticket returned at phase one, with the reason (once per transaction)."""
        if isinstance(exc, TicketRefused):
            reason = exc.code.removeprefix("ticket_")
        elif isinstance(exc, PlayDisabled):
            reason = "play_disabled"
        else:
            reason = exc.code
        ledger = self.state.ledger
        if (
            ledger is None
            or ledger.has_txn(txn, EventKind.TICKET_REJECTED)
            or resolution(ledger, txn)
        ):
            return
        detail: dict[str, object] = {
            "validation": validation,
            "reason": reason,
            "detail": exc.reason[:256],
        }
        if cents is not None:
            detail["offered"] = cents
        self.state.event(EventKind.TICKET_REJECTED, detail, n, txn=txn)

    def _count_unknown(self, n: int) -> None:
        """Too many unknown ticket numbers at station ``n`` in a while (the rule of
        :func:`~kiosk.game.rules.tickets.unknown_tickets_over_limit`, per station):
        ``tickets_unknown_repeated`` and the station's ``unknown_tickets`` tilt, which
        stops it until an attendant clears it."""
        st = self.state
        if UNKNOWN_TICKETS_TILT in st.station(n).tilts:
            return
        ledger = st.require_ledger()
        count = unknown_tickets_over_limit(ledger, st.now(), n)
        if count is None:
            return
        detail, message = unknown_tickets_text(count)
        with ledger.transaction():
            st.event(EventKind.TICKETS_UNKNOWN_REPEATED, detail, n)
            st.set_tilt(n, UNKNOWN_TICKETS_TILT, message)

    # -- phase two ---------------------------------------------------------------------
    def stacked(self, n: int, txn: str, cents: int | None = None) -> MoneyOutcome:
        """VEND VALID for station ``n``'s escrow ``txn``: credited (or redeemed) once, for
        the amount accepted, even if a tilt arose since (the money is in the box); a
        ticket the driver reports for another amount (``cents``) is not redeemed.
        Returns ``credited``, ``rejected`` (a ticket that could no longer be redeemed:
        tilted) or how it was already finished; for an escrow finished otherwise, or none
        accepted at this station (``unknown``), the ``vend_unmatched`` tilt stands."""
        ledger = self.state.require_ledger_open()
        escrow = self.state.station(n).escrows.get(txn)
        if escrow is None:
            here = ledger.txn_station(txn, EventKind.ESCROW_ACCEPTED) == n
            done = resolution(ledger, txn) if here else None
            if done in (MoneyOutcome.CREDITED, MoneyOutcome.REJECTED):
                return done  # a repeated VEND VALID
            why = "VEND VALID for an escrow already finished" if here else "no escrow accepted"
            self._unmatched(n, why, txn, self._amount_of(n, txn))
            return done or MoneyOutcome.UNKNOWN
        return self._credit(n, escrow, EscrowEnd.VEND_VALID, cents)

    def ended(self, n: int, txn: str, reason: str) -> MoneyOutcome:
        """Station ``n``'s validator ended escrow ``txn`` without VEND VALID, for
        ``reason``: in the box (credited), back with the patron (``escrow_aborted``), the
        port lost (left open for the validator's next report), or a fault (in doubt,
        tilted).  Returns how the escrow stands (``credited``, ``returned``, ``in_doubt``,
        ``open``, ``rejected``) or ``unknown`` when this station accepted no such escrow."""
        ledger = self.state.require_ledger_open()
        own = self.state.station(n)
        escrow = own.escrows.get(txn)
        if escrow is None:
            if ledger.txn_station(txn, EventKind.ESCROW_ACCEPTED) != n:
                return MoneyOutcome.UNKNOWN  # no escrow of this station
            return resolution(ledger, txn) or MoneyOutcome.UNKNOWN
        end = escrow_end(reason)
        if end == EscrowEnd.STACKED:
            return self._credit(n, escrow, reason)
        if reason == PORT_LOST:
            own.escrows.orphan(txn)
            return MoneyOutcome.OPEN
        if end == EscrowEnd.RETURNED:
            self.state.event(EventKind.ESCROW_ABORTED, {"reason": reason}, n, txn=txn)
            own.escrows.forget(txn)
            if own.held is not None and own.held.txn == txn:
                own.held = None
            return MoneyOutcome.RETURNED
        self._in_doubt(n, escrow, reason)
        return MoneyOutcome.IN_DOUBT

    def _credit(self, n: int, escrow: Escrow, why: str, cents: int | None = None) -> MoneyOutcome:
        """The item of ``escrow`` is in the box: credit the note, redeem the ticket (for
        ``cents`` when the driver reported them)."""
        st = self.state
        own = escrow.item == "ticket" and self.ticket(escrow.validation) is not None
        if escrow.system and own:  # this machine's own ticket, redeemed through the system
            st.station(n).held = None
            return self._redeem(n, escrow, escrow.amount if cents is None else cents)
        if escrow.item == "ticket" and escrow.system:  # redeemed through the casino's system
            redeemed = {"validation": escrow.validation, "source": "system"}
            st.event(EventKind.SYSTEM_TICKET_IN, redeemed, n, amount=escrow.amount, txn=escrow.txn)
            st.station(n).escrows.forget(escrow.txn)
            st.station(n).held = None
            return MoneyOutcome.CREDITED
        if escrow.item == "ticket":
            return self._redeem(n, escrow, escrow.amount if cents is None else cents)
        detail: dict[str, object] = {"denomination": escrow.amount}
        if why != EscrowEnd.VEND_VALID:
            detail["resolved"] = why
        st.event(EventKind.BILL_IN, detail, n, amount=escrow.amount, txn=escrow.txn)
        st.station(n).escrows.forget(escrow.txn)
        return MoneyOutcome.CREDITED

    def _redeem(self, n: int, escrow: Escrow, offered: int) -> MoneyOutcome:
        """The ticket of ``escrow`` is in the box: redeemed once, for the amount accepted;
        one that cannot be (redeemed meanwhile, altered) is logged and tilts the station
        for an attendant to reconcile the stacker, never credited."""
        st = self.state
        ledger = st.require_ledger_open()
        held = any(
            s.escrows.holding(escrow.validation, but=escrow.txn) for s in st.stations.values()
        )
        # accepted at escrow: it does not expire on its way to the stacker
        refusal = ticket_refusal(
            ledger, escrow.validation, offered, st.now().date(), expiry=False, in_escrow=held
        )
        if refusal is None:
            detail = {"validation": escrow.validation}
            st.event(EventKind.TICKET_IN, detail, n, amount=escrow.amount, txn=escrow.txn)
            st.station(n).escrows.forget(escrow.txn)
            return MoneyOutcome.CREDITED
        with ledger.transaction():
            rejected: dict[str, object] = {
                "validation": escrow.validation,
                "reason": refusal.code.removeprefix("ticket_"),
                "detail": refusal.reason,
                "offered": offered,
                "stacked": True,
            }
            st.event(EventKind.TICKET_REJECTED, rejected, n, txn=escrow.txn)
            st.set_tilt(
                n,
                TICKET_TILT,
                f"ticket {escrow.validation} was stacked but not redeemed ({refusal.reason}): "
                "reconcile the stacker",
                amount=offered,
                txn=escrow.txn,
            )
        st.station(n).escrows.forget(escrow.txn)
        return MoneyOutcome.REJECTED

    def _in_doubt(self, n: int, escrow: Escrow, reason: str) -> None:
        """A fault ended ``escrow`` after STACK: where the item went is unknown."""
        st = self.state
        with st.require_ledger_open().transaction():
            detail = {"item": escrow.item, "validation": escrow.validation, "reason": reason}
            st.event(EventKind.ESCROW_IN_DOUBT, detail, n, amount=escrow.amount, txn=escrow.txn)
            st.set_tilt(
                n,
                ESCROW_TILT,
                f"the {escrow.what} (transaction {escrow.txn}) was being stacked when "
                f"{reason} ended it: not credited; count the box",
                amount=escrow.amount,
                txn=escrow.txn,
            )
        st.station(n).escrows.forget(escrow.txn)

    def _amount_of(self, n: int, txn: str) -> int:
        """The amount station ``n`` last had accepted as ``txn``, else 0."""
        ledger = self.state.require_ledger_open()
        found = ledger.events((EventKind.ESCROW_ACCEPTED,), station=n, last=RECENT_ESCROWS)
        return next((ev.amount for ev in reversed(found) if ev.txn == txn), 0)

    def _unmatched(self, n: int, why: str, txn: str, cents: int) -> None:
        self.state.set_tilt(
            n,
            UNMATCHED_TILT,
            f"{why} (transaction {txn}, {money(cents)}): not credited; reconcile the box",
            amount=cents,
            txn=txn,
        )

    # -- test credits ------------------------------------------------------------------
    def test_credits(
        self, n: int, cents: int, txn: str | None, operator: tuple[str, str]
    ) -> MoneyOutcome:
        """A burn-in's test credits of ``cents`` at station ``n``, recorded with the
        person who answers for them (``operator``: name, role), on the
        ``test_credits_in`` meter (never bills in); like a note, refused above the credit
        limit or during a payout.  Once per ``txn`` (given).  Returns ``credited``."""
        st = self.state
        ledger = st.require_playable(n)
        if txn is not None and ledger.has_txn(txn, EventKind.TEST_CREDITS_IN):
            return MoneyOutcome.CREDITED  # a repeated report
        if not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0:
            raise MachineError(
                f"credits are a positive whole number of cents, not {cents!r}",
                code=ErrorCode.BAD_AMOUNT,
            )
        st.require_credit_room(n, cents)
        detail = {"operator": operator[0], "role": operator[1], "source": "burn-in"}
        st.event(EventKind.TEST_CREDITS_IN, detail, n, amount=cents, txn=txn)
        return MoneyOutcome.CREDITED

    # -- the ledger's health -----------------------------------------------------------
    def check_ledger(self, n: int) -> bool:
        """Can the ledger record (asked before station ``n``'s validator is enabled)?  If
        not, the station's ``ledger_write`` tilt stands and False is returned."""
        ledger = self.state.ledger
        if ledger is None:
            return False
        problem = write_problem(ledger)
        if problem is None:
            return True
        log.error("the ledger cannot record: %s", problem)
        self.state.hold_tilt(
            n,
            LEDGER_WRITE_TILT,
            f"the ledger cannot record ({problem}): no note or ticket is taken",
        )
        return False

    def _write_failed(self, n: int, what: str) -> None:
        """A write failed: probe the ledger and tilt station ``n`` (its validator is
        inhibited)."""
        ledger = self.state.ledger
        problem = write_problem(ledger) if ledger is not None else "no ledger"
        message = f"ledger write failed ({what}); {problem or 'the ledger answers again'}"
        log.error(message)
        self.state.hold_tilt(n, LEDGER_WRITE_TILT, message)

    # -- device events -----------------------------------------------------------------
    def device_event(self, n: int, event: DeviceEvent) -> None:
        """A device event of station ``n``: tilting ones tilt and untilt the station
        (one-shot money kinds wait for an attendant); the validator's reports about an
        item settle the station's open escrow first (see the module)."""
        st = self.state
        st.require_ledger_open()
        own = st.station(n)
        kind = str(event.kind)
        if event.device == "validator" and event.active:
            if kind == DeviceEventKind.VEND_UNMATCHED:
                self._vend_unmatched(n, event)
                return
            if kind == DeviceEventKind.POWER_UP_BILL_IN_STACKER:
                escrow = own.escrows.latest()
                if escrow is not None:
                    self._credit(n, escrow, kind)
                    self._record_device(n, event)
                    return
                self._money_tilt(n, event, "the note in the stacker matches no accepted escrow")
                return
            if kind in (DeviceEventKind.POWER_UP, DeviceEventKind.POWER_UP_BILL_IN_ACCEPTOR):
                self._offered.discard(n)  # a new validator session: none of its escrows
                own.escrows.orphan_all()  # is live any more; the item is back in front
                for orphan in own.escrows.orphans():
                    st.event(EventKind.ESCROW_ABORTED, {"reason": kind}, n, txn=orphan.txn)
                    own.escrows.forget(orphan.txn)
        self._device_tilt(n, event)

    def _device_tilt(self, n: int, event: DeviceEvent) -> None:
        st = self.state
        own = st.station(n)
        code = f"{DEVICE_TILT_PREFIX}{event.device}:{event.kind}"
        if event.tilt and event.active:
            if own.tilts.get(code) != event.detail:
                st.set_tilt(n, code, event.detail)
        elif event.tilt:
            if code in own.tilts and event.kind not in ONE_SHOT_KINDS:
                st.event(EventKind.TILT_CLEARED, {"code": code, "by": "device"}, n)
                del own.tilts[code]
        else:
            self._record_device(n, event)

    def _record_device(self, n: int, event: DeviceEvent) -> None:
        detail = {
            "device": event.device,
            "kind": str(event.kind),
            "detail": event.detail,
            "code": event.code,
        }
        self.state.event(EventKind.DEVICE, detail, n)

    def _vend_unmatched(self, n: int, event: DeviceEvent) -> None:
        """VEND VALID (or STACKED) with no escrow in the driver's hands."""
        st = self.state
        own = st.station(n)
        escrow = own.escrows.latest()
        if escrow is not None:  # accepted before a restart or a lost port, or STACKED early
            self._credit(n, escrow, "vend_valid_after_restart")
            self._record_device(n, event)
            return
        ledger = st.require_ledger()
        found = ledger.events((EventKind.ESCROW_ACCEPTED,), station=n, last=1)
        last = found[-1] if found else None
        repeated = (
            n not in self._offered
            and last is not None
            and last.txn is not None
            and resolution(ledger, last.txn) is MoneyOutcome.CREDITED
        )
        self._offered.add(n)
        if repeated:  # the ACK was lost when the power went: the note was credited
            self._record_device(n, event)
            return
        self._money_tilt(n, event, "no escrow was accepted for it")

    def _money_tilt(self, n: int, event: DeviceEvent, why: str) -> None:
        """A one-shot tilt about an item in the box that is not credited, naming the last
        escrow refused at that station (its transaction and amount) when there is one."""
        code = f"{DEVICE_TILT_PREFIX}{event.device}:{event.kind}"
        refused = self._last_refused.get(n)
        if refused is None:
            named, cents, txn = "transaction and amount unknown", 0, None
        else:
            txn, cents = refused
            named = f"last escrow refused: transaction {txn}, {money(cents)}"
        self.state.set_tilt(
            n,
            code,
            f"{event.detail}: {why} ({named}): not credited; reconcile the box",
            amount=cents,
            txn=txn,
        )

    def ticket(self, validation: str) -> TicketRecord | None:
        """The ticket issued here with ``validation`` (any status), None if unknown."""
        ledger = self.state.ledger
        return ledger.ticket(validation) if ledger is not None else None
