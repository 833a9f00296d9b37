"""Notes at the table's stations, two-phase through the host's ledger.  Amounts are cents.

A station's validator holds a note in escrow as transaction ``txn``; the station asks
the host (:class:`AcceptEscrow`) and stacks only once the host has committed an
``escrow_accepted`` event (the station, ``txn``, ``{"item": "bill", "denomination":
cents}``, the amount), the single cabinet's shape (:mod:`kiosk.machine.escrows`).
Nothing is credited then.  The station reports how the cycle ended
(:class:`SettleEscrow`): ``stacked`` credits the accepted amount as ``bill_in`` (with the
station and ``txn``), ``returned`` closes it as ``escrow_aborted``, ``in_doubt`` as
``escrow_in_doubt`` with a tilt of that station.  Each is written once per ``txn``: the
check is the ledger's (:meth:`Ledger.has_txn`, and its unique ``(txn, kind)`` index), so
a repeated escrow or report, or one replayed after a host restart, changes nothing.

After a station restart the validator's report names no transaction (``txn`` None):
``stacked`` (VEND VALID or STACKED with no escrow in the driver, power-up with the bill
in the stacker) credits the station's latest open escrow; ``returned`` (power-up, with
the bill in the acceptor) closes its open ones.  A new escrow closes the station's older
open ones as returned (a validator holds one note at a time).

A ticket's escrow is accepted by :meth:`kiosk.table.tickets.TableTickets.accept`
(``{"item": "ticket", "validation": number}``); ``stacked`` redeems it here once
(``ticket_in``), or, when it can no longer be redeemed, logs ``ticket_rejected`` and
tilts the station (``ticket``) for an attendant to reconcile the stacker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.money import format_cents
from kiosk.config import CabinetConfig, OperatorAccount, role_at_least
from kiosk.ledger.records import EventRecord
from kiosk.machine.errors import MachineError, PlayDisabled, WrongState
from kiosk.machine.escrows import RECENT, is_resolved
from kiosk.machine.state import TICKET_TILT
from kiosk.machine.ticket_rules import ticket_refusal
from kiosk.table.state import TableState

Outcome = Literal["stacked", "returned", "in_doubt"]
#: An ``EscrowAck`` answering a validator's report starts its ``reason`` with this.
SETTLED = "settled: "
#: Notes of no accepted denomination from one station that tilt it.
FORGERY_LIMIT = 3
#: The tilt of a station that reported such notes again and again.
FORGERY_TILT = "forged_notes"
#: The host's acceptance of a ticket's escrow says its amount: ``amount: <cents>``.
TICKET_AMOUNT = "amount: "
#: The tilt of a station whose validator stacked a note no open escrow matches.
UNMATCHED_TILT = "device:validator:vend_unmatched"
#: The tilt of a station whose note ended after STACK in an unknown place.
IN_DOUBT_TILT = "device:validator:escrow_in_doubt"


@dataclass(frozen=True)
class AcceptEscrow:
    """Record the note of ``cents`` in the station's validator escrow as ``txn``
    (phase one: nothing is credited)."""

    txn: str
    cents: int


@dataclass(frozen=True)
class SettleEscrow:
    """The station's validator ended escrow ``txn`` (None: the station's open escrow,
    after a restart) as ``outcome``; ``reason`` is the driver's."""

    txn: str | None
    outcome: Outcome
    reason: str = ""


class TableEscrows:
    """The stations' accepted escrows, read from and written to the table's ledger."""

    def __init__(self, state: TableState) -> None:
        self.state = state

    def _accepted(self, station: int) -> list[EventRecord]:
        ledger = self.state.require_ledger_open()
        return ledger.events(("escrow_accepted",), station=station, last=RECENT)

    def open_escrows(self, station: int) -> list[EventRecord]:
        """Station ``station``'s accepted escrows that nothing finished yet, oldest first."""
        ledger = self.state.require_ledger_open()
        return [e for e in self._accepted(station) if e.txn and not is_resolved(ledger, e.txn)]

    def accept(self, station: int, txn: str, cents: int, *, supersede: bool = True) -> bool:
        """Phase one for a note (see the module).  True when ``txn`` is accepted (now, or
        already and still open: stack it); raises :class:`MachineError` when it may not
        be, before anything is written.  ``supersede`` False leaves the station's other
        open escrows alone (a note credited in process, not through its validator)."""
        st = self.state
        ledger = st.require_ledger()
        if ledger.has_txn(txn, "escrow_accepted"):
            mine = next((e for e in self._accepted(station) if e.txn == txn), None)
            if mine is not None and not is_resolved(ledger, txn):
                return True
            raise WrongState(f"escrow {txn} is already finished", code="escrow_finished")
        st.require_playable(station)
        if not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0:
            raise MachineError(f"a note is a positive whole number of cents, not {cents!r}")
        if supersede and cents not in st.config.accepted_bills:  # a validator's note
            self._forged(station, txn, cents)
        st.require_credit_room(station, cents)
        with ledger.transaction():
            for old in self.open_escrows(station) if supersede else ():
                self._abort(station, old, "returned_before_new_escrow")
            detail = {"item": "bill", "denomination": cents}
            st.event("escrow_accepted", detail, station, amount=cents, txn=txn)
        return True

    def _forged(self, station: int, txn: str, cents: int) -> None:
        """A note outside the stations' denomination table (``accepted_bills``): no
        validator reads one, so the station is lying.  Recorded (``note_refused``); the
        :data:`FORGERY_LIMIT`-th since that tilt was last cleared stops the station
        (:data:`FORGERY_TILT`).  Always raises :class:`MachineError` (``bill_not_accepted``)."""
        st = self.state
        ledger = st.require_ledger()
        detail = {"denomination": cents, "reason": "not a denomination of this table"}
        with ledger.transaction():
            st.event("note_refused", detail, station, txn=txn[:64])
        recent = ledger.events(("note_refused", "tilt_cleared"), station=station, last=50)
        count = 0
        for ev in recent:
            if ev.kind == "note_refused":
                count += 1
            elif ev.detail.get("code") == FORGERY_TILT:
                count = 0
        if count >= FORGERY_LIMIT and FORGERY_TILT not in st.station(station).tilts:
            st.set_tilt(
                station,
                FORGERY_TILT,
                f"{count} notes of no denomination of this table reported by this station",
            )
        bills = ", ".join(format_cents(b) for b in st.config.accepted_bills)
        raise MachineError(
            f"a note of {format_cents(cents)} is not a denomination of this table ({bills})",
            code="bill_not_accepted",
            params={"cents": cents},
        )

    def settle(self, station: int, order: SettleEscrow) -> str:
        """Phase two (see the module).  Returns how the escrow stands: ``credited``,
        ``returned``, ``in_doubt``, or ``unknown`` (no accepted escrow matches)."""
        ledger = self.state.require_ledger_open()
        if order.txn is None:
            return self._settle_open(station, order)
        found = next((e for e in self._accepted(station) if e.txn == order.txn), None)
        if found is None:
            if order.outcome == "stacked" and not ledger.has_txn(order.txn, "escrow_accepted"):
                self._unmatched(station, f"transaction {order.txn}")
            return "unknown"
        done = self._resolution(order.txn)
        if done is not None:
            return done
        with ledger.transaction():
            return self._finish(station, found, order)

    def _settle_open(self, station: int, order: SettleEscrow) -> str:
        ledger = self.state.require_ledger_open()
        pending = self.open_escrows(station)
        if order.outcome == "stacked":
            if not pending:
                last = self._accepted(station)
                if last and last[-1].txn and self._resolution(last[-1].txn) == "credited":
                    return "credited"  # credited before the station lost track of it
                self._unmatched(station, "no transaction")
                return "unknown"
            with ledger.transaction():
                return self._finish(station, pending[-1], order)
        with ledger.transaction():
            for escrow in pending:
                self._finish(station, escrow, order)
        return order.outcome if pending else "unknown"

    def _finish(self, station: int, escrow: EventRecord, order: SettleEscrow) -> str:
        st = self.state
        assert escrow.txn is not None
        reason = order.reason or order.outcome
        ticket = escrow.detail.get("validation") if escrow.detail.get("item") == "ticket" else None
        if order.outcome == "stacked" and isinstance(ticket, str):
            return self._redeem(station, escrow, ticket)
        if order.outcome == "stacked":
            detail = {"denomination": escrow.amount, "resolved": reason}
            st.event("bill_in", detail, station, amount=escrow.amount, txn=escrow.txn)
            return "credited"
        if order.outcome == "returned":
            self._abort(station, escrow, reason)
            return "returned"
        item = "ticket" if ticket else "bill"
        detail = {"item": item, "validation": ticket or "", "reason": reason}
        st.event("escrow_in_doubt", detail, station, amount=escrow.amount, txn=escrow.txn)
        what = f"ticket {ticket}" if ticket else "note"
        st.set_tilt(
            station,
            IN_DOUBT_TILT,
            f"the {what} of {format_cents(escrow.amount)} (transaction {escrow.txn}) was being "
            f"stacked when {reason}: count the box",
        )
        return "in_doubt"

    def _redeem(self, station: int, escrow: EventRecord, validation: str) -> str:
        """The ticket of ``escrow`` is in the box: redeemed once, for the amount it was
        accepted for; one that cannot be (redeemed meanwhile, altered) is logged and
        tilts the station for an attendant to reconcile, never credited."""
        st = self.state
        assert escrow.txn is not None
        ledger = st.require_ledger_open()
        today = st.now().date()
        # accepted at escrow: it does not expire on its way to the stacker
        refusal = ticket_refusal(ledger, validation, escrow.amount, today, expiry=False)
        if refusal is None:
            detail = {"validation": validation}
            st.event("ticket_in", detail, station, amount=escrow.amount, txn=escrow.txn)
            return "credited"
        rejected: dict[str, object] = {
            "validation": validation,
            "reason": refusal.code.removeprefix("ticket_"),
            "detail": refusal.reason,
            "offered": escrow.amount,
            "stacked": True,
        }
        st.event("ticket_rejected", rejected, station, txn=escrow.txn)
        st.set_tilt(
            station,
            TICKET_TILT,
            f"ticket {validation} was stacked but not redeemed ({refusal.reason}): "
            "reconcile the stacker",
        )
        return "rejected"

    def _abort(self, station: int, escrow: EventRecord, reason: str) -> None:
        self.state.event("escrow_aborted", {"reason": reason}, station, txn=escrow.txn)

    def _resolution(self, txn: str) -> str | None:
        ledger = self.state.require_ledger_open()
        for kind, word in (
            ("bill_in", "credited"),
            ("ticket_in", "credited"),
            ("ticket_rejected", "rejected"),
            ("escrow_aborted", "returned"),
            ("escrow_in_doubt", "in_doubt"),
        ):
            if ledger.has_txn(txn, kind):
                return word
        return None

    def _unmatched(self, station: int, named: str) -> None:
        self.state.set_tilt(
            station,
            UNMATCHED_TILT,
            f"a note was stacked with no escrow accepted ({named}): not credited; "
            "reconcile the box",
        )


def burn_in_account(config: CabinetConfig) -> OperatorAccount | None:
    """Who answers for a table's test credits: its first operator account of a
    technician or above (demo mode: the demo technician), None when it has none."""
    return next((a for a in config.accounts if role_at_least(a.role, "technician")), None)


@dataclass(frozen=True)
class TestCredits:
    """A burn-in's test credits of ``cents`` keyed in at a station as ``txn`` (once), by
    ``operator`` (name, role) when a technician logged in at that station answers for them
    (over the link: always; see :mod:`kiosk.table.host_service`)."""

    __test__ = False  # not a test case
    txn: str
    cents: int
    operator: tuple[str, str] | None = None


def test_credits_refusal(
    config: CabinetConfig, burn_in: bool, who: tuple[str, str] | None
) -> str | None:
    """Why a station's test credits over the link are refused (None: they are not): only
    in demo mode or a burn-in (``burn_in``), with a technician logged in at that station
    (``who``: name, role; in demo mode the demo technician answers when nobody is)."""
    if not (config.demo or burn_in):
        return "test credits: only in demo or burn-in mode (uth table serve --burn-in)"
    if who is None and config.demo:
        return None
    if who is None or not role_at_least(who[1], "technician"):
        return "test credits need a technician logged in at this station"
    return None


def burn_in_credits(
    state: TableState,
    station: int,
    cents: int,
    txn: str | None = None,
    operator: tuple[str, str] | None = None,
) -> str:
    """A burn-in's test credits of ``cents`` at ``station``, recorded as the cabinet
    records them (``test_credits_in``, never bills in).  As at the cabinet a technician
    answers for them: refused on a table whose configuration has no technician account,
    and, like a note, above the credit limit or during a payout.  Once per ``txn``
    (given): a repeated one changes nothing.  Returns ``credited``."""
    ledger = state.require_playable(station)
    if txn is not None and ledger.has_txn(txn, "test_credits_in"):
        return "credited"  # a repeated report
    if not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0:
        raise MachineError(f"credits are a positive whole number of cents, not {cents!r}")
    account = burn_in_account(state.config)
    if account is None:
        raise PlayDisabled(
            "test credits need a technician's account on this table", code="no_technician"
        )
    name, role = operator if operator is not None else (account.name, account.role)
    state.require_credit_room(station, cents)
    detail = {"operator": name, "role": role, "source": "burn-in"}
    state.event("test_credits_in", detail, station, amount=cents, txn=txn)
    return "credited"
