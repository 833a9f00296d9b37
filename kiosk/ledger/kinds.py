"""The ledger's closed vocabulary: every kind of event it records, each declared once
with the meters it moves.

:meth:`kiosk.ledger.ledger.Ledger.event` refuses a kind not listed here
(:class:`UnknownEventKind`), so a misspelt kind fails where it is written instead of
silently moving no meter.  Amounts are the event's ``amount`` (cents); a count moves by
one per event.  ``bill.<cents>`` meters count the notes of each denomination.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum


class UnknownEventKind(ValueError):
    """An event of a kind the ledger does not know: a programming error, refused."""


class EventKind(StrEnum):
    """Every kind of event the ledger records (values are the stored names)."""

    # the ledger's own life
    LEDGER_CREATED = "ledger_created"
    LEDGER_REPLACED = "ledger_replaced"
    SCHEMA_MIGRATED = "schema_migrated"
    INSTALL_MARKER_WRITTEN = "install_marker_written"
    CHECKPOINT = "checkpoint"
    WITNESS = "witness"
    POWER_UP = "power_up"
    POWER_DOWN = "power_down"
    # rounds (the rows are the rounds' own record; these are what happened to them)
    ROUND_RESUMED = "round_resumed"
    DECISION_TIMED_OUT = "decision_timed_out"
    # money in
    ESCROW_ACCEPTED = "escrow_accepted"
    BILL_IN = "bill_in"
    TICKET_IN = "ticket_in"
    TEST_CREDITS_IN = "test_credits_in"
    ESCROW_ABORTED = "escrow_aborted"
    ESCROW_IN_DOUBT = "escrow_in_doubt"
    TICKET_REJECTED = "ticket_rejected"
    NOTE_REFUSED = "note_refused"
    TICKETS_UNKNOWN_REPEATED = "tickets_unknown_repeated"
    # money out
    CASHOUT = "cashout"
    CASHOUT_FAILED = "cashout_failed"
    CASHOUT_HANDPAY = "cashout_handpay"
    HANDPAY = "handpay"
    TICKET_ISSUE = "ticket_issue"
    TICKET_OUT = "ticket_out"
    TICKET_VOID = "ticket_void"
    # operators
    OPERATOR_LOGIN = "operator_login"
    OPERATOR_LOGIN_FAILED = "operator_login_failed"
    OPERATOR_LOCKOUT = "operator_lockout"
    OPERATOR_ACCOUNTS_LOCKED = "operator_accounts_locked"
    OPERATOR_LOGOUT = "operator_logout"
    OPERATOR_ACTION = "operator_action"
    RAM_CLEAR_WITNESSED = "ram_clear_witnessed"
    RAM_CLEAR_REQUESTED = "ram_clear_requested"
    RAM_CLEAR = "ram_clear"
    # configuration
    PAYTABLE_CHANGED = "paytable_changed"
    LIMITS_CHANGED = "limits_changed"
    COACH_CHANGED = "coach_changed"
    PAYTABLE_EXPORTED = "paytable_exported"
    # the machine's state
    TILT = "tilt"
    TILT_CLEARED = "tilt_cleared"
    DOOR_OPEN = "door_open"
    DOOR_CLOSED = "door_closed"
    DEVICE = "device"
    # the casino's slot system
    NOTE_ACCEPTANCE = "note_acceptance"
    SYSTEM_TICKET_IN = "system_ticket_in"
    HOST_TIME_SET = "host_time_set"
    # locks lifted by people, and the table host's pairing lock
    OPERATOR_LOCKOUT_LIFTED = "operator_lockout_lifted"
    PAIRING_CODE_WRONG = "pairing_code_wrong"
    PAIRING_LOCKED = "pairing_locked"
    PAIRING_REOPENED = "pairing_reopened"
    # the progressive (standalone: the table's one meter, :mod:`kiosk.service.progressive`)
    PROGRESSIVE_WAGER = "progressive_wager"
    PROGRESSIVE_REFUND = "progressive_refund"
    PROGRESSIVE_CONTRIBUTION = "progressive_contribution"
    PROGRESSIVE_RESERVE = "progressive_reserve"
    PROGRESSIVE_HIT = "progressive_hit"
    PROGRESSIVE_BREAKAGE = "progressive_breakage"
    PROGRESSIVE_RESET = "progressive_reset"
    PROGRESSIVE_RESERVE_DRAWN = "progressive_reserve_drawn"
    PROGRESSIVE_AWARD = "progressive_award"
    PROGRESSIVE_JACKPOT = "progressive_jackpot"
    # a progressive linked through the casino's controller (:mod:`kiosk.service.progressive_link`):
    # the controller keeps the meter; the ledger keeps what this machine fed it and won off it
    PROGRESSIVE_LINK_CONTRIBUTION = "progressive_link_contribution"
    PROGRESSIVE_LINK_WIN = "progressive_link_win"
    PROGRESSIVE_ADJUSTED_UP = "progressive_adjusted_up"
    PROGRESSIVE_ADJUSTED_DOWN = "progressive_adjusted_down"


#: The credit meter (cents): the one meter that goes down.
CREDITS = "credits"
#: The name of the per-denomination note count, formatted with the note's cents.
PER_DENOMINATION = "bill.{amount}"


@dataclass(frozen=True)
class MeterEffect:
    """What one event does to one meter: adds its amount (cents), or one (``count``);
    ``down``: takes it off instead (the credit meter only)."""

    meter: str
    count: bool = False
    down: bool = False

    def delta(self, amount: int) -> tuple[str, int]:
        """The meter's name and change for an event of ``amount`` cents."""
        value = 1 if self.count else amount
        return self.meter.format(amount=amount), -value if self.down else value


def _cents(meter: str) -> MeterEffect:
    return MeterEffect(meter)


def _count(meter: str) -> MeterEffect:
    return MeterEffect(meter, count=True)


_CREDIT_ON = MeterEffect(CREDITS)
_CREDIT_OFF = MeterEffect(CREDITS, down=True)

#: The meters each kind of event moves; kinds not listed move none.
METER_EFFECTS: Mapping[EventKind, tuple[MeterEffect, ...]] = {
    EventKind.BILL_IN: (
        _cents("bills_in"),
        _count("bills_in_count"),
        _count(PER_DENOMINATION),
        _CREDIT_ON,
    ),
    EventKind.TICKET_IN: (_cents("tickets_in"), _count("tickets_in_count"), _CREDIT_ON),
    EventKind.SYSTEM_TICKET_IN: (
        _cents("system_tickets_in"),
        _count("system_tickets_in_count"),
        _CREDIT_ON,
    ),
    EventKind.TEST_CREDITS_IN: (
        _cents("test_credits_in"),
        _count("test_credits_in_count"),
        _CREDIT_ON,
    ),
    EventKind.CASHOUT: (_cents("cashout_started"), _CREDIT_OFF),
    EventKind.CASHOUT_FAILED: (_cents("cashout_failed"), _CREDIT_ON),
    EventKind.HANDPAY: (_cents("handpay"), _count("handpay_count")),
    EventKind.TICKET_OUT: (_cents("tickets_out"), _count("tickets_out_count")),
    EventKind.RAM_CLEAR: (_cents("ram_clear_credits"), _count("ram_clears"), _CREDIT_OFF),
    # The progressive.  Every meter is a lifetime meter; the meter players see and the
    # hidden reserve are differences of them (:func:`kiosk.ledger.meters.progressive_levels`):
    # meter = contributed + reset - hit + adjusted up - adjusted down, reserve = reserved
    # - reserve drawn, so the meter goes down only by a ``progressive_hit`` (an award on
    # the meter) or a manager's countersigned adjustment (``progressive_adjusted_down``).
    EventKind.PROGRESSIVE_WAGER: (
        _cents("coin_in"),
        _cents("progressive_wagered"),
        _count("progressive_wagers"),
        _CREDIT_OFF,
    ),
    EventKind.PROGRESSIVE_REFUND: (_cents("coin_out"), _cents("progressive_refunded"), _CREDIT_ON),
    EventKind.PROGRESSIVE_CONTRIBUTION: (_cents("progressive_contributed"),),
    EventKind.PROGRESSIVE_RESERVE: (_cents("progressive_reserved"),),
    EventKind.PROGRESSIVE_HIT: (_cents("progressive_hit"), _count("progressive_hits")),
    EventKind.PROGRESSIVE_BREAKAGE: (_cents("progressive_breakage"),),
    EventKind.PROGRESSIVE_RESET: (_cents("progressive_reset"), _count("progressive_resets")),
    EventKind.PROGRESSIVE_RESERVE_DRAWN: (_cents("progressive_reserve_drawn"),),
    EventKind.PROGRESSIVE_AWARD: (
        _cents("coin_out"),
        _cents("progressive_paid"),
        _count("progressive_awards"),
        _CREDIT_ON,
    ),
    EventKind.PROGRESSIVE_JACKPOT: (
        _cents("jackpot"),
        _count("jackpot_count"),
        _cents("progressive_paid"),
        _count("progressive_awards"),
        _cents("progressive_hand_paid"),
    ),
    # Linked: no meter of the level here (the controller's); a contribution is what a wager
    # fed the controller's level, a win what an award took off it (the award itself is the
    # seat's ``progressive_award`` or ``progressive_jackpot``, as standalone).
    EventKind.PROGRESSIVE_LINK_CONTRIBUTION: (_cents("progressive_link_contributed"),),
    EventKind.PROGRESSIVE_LINK_WIN: (
        _cents("progressive_link_won"),
        _count("progressive_link_wins"),
    ),
    EventKind.PROGRESSIVE_ADJUSTED_UP: (
        _cents("progressive_adjusted_up"),
        _count("progressive_adjustments"),
    ),
    EventKind.PROGRESSIVE_ADJUSTED_DOWN: (
        _cents("progressive_adjusted_down"),
        _count("progressive_adjustments"),
    ),
}


def event_kind(kind: str) -> EventKind:
    """``kind`` as an :class:`EventKind`; raises :class:`UnknownEventKind` for another."""
    try:
        return EventKind(kind)
    except ValueError:
        raise UnknownEventKind(f"the ledger records no event of kind {kind!r}") from None


def event_effects(kind: str, amount: int) -> dict[str, int]:
    """The meter changes one event of ``kind`` and ``amount`` cents implies (none for a
    kind the ledger does not know: an old row is read as it was written)."""
    try:
        effects = METER_EFFECTS.get(EventKind(kind), ())
    except ValueError:
        return {}
    return dict(effect.delta(amount) for effect in effects)
