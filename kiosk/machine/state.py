"""The one cabinet state every part of the controller works on, and its guards.

:class:`CabinetState` holds what more than one part reads or changes: the ledger, the
paytable and limits in force, tilts, the door, the operator, the chips placed, the
round on the table and the pending payout.  Parts keep anything else to themselves.
It is not locked by itself: the controller holds its lock around every operation.

Invariants: a ledger write comes before the in-memory change it records; the credit
meter is the ledger's (``credits``); ``round_open`` implies ``round`` is the round in
play; ``cashout`` is set while a payout is pending, and then no round is open.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from engine.money import format_cents as money
from engine.uth.paytable import Limits, Paytable
from engine.uth.round import UthRound
from kiosk.config import CabinetConfig, role_at_least
from kiosk.ledger.chain import utc_stamp
from kiosk.ledger.errors import LedgerError
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.meters import CREDITS
from kiosk.machine.errors import NotAuthorised, PlayDisabled, WrongState
from kiosk.machine.snapshot import PayoutRequest

#: A betting spot the player places chips on (the Blind mirrors the Ante).
Spot = Literal["ante", "trips"]
#: The player's seat in :class:`engine.uth.round.UthRound`.
SEAT = 1
#: The tilt code of a corrupt, tampered or missing ledger: it cannot be cleared here.
LEDGER_TILT = "ledger"
#: A jackpot to be hand-paid by an attendant.
JACKPOT_TILT = "jackpot"
#: A ticket went into the stacker without being redeemed: an attendant reconciles.
TICKET_TILT = "ticket"
#: Tilts raised from device events start with this (``device:<device>:<kind>``).  A
#: standing condition is not restored at power-up (the device re-reports it while it
#: stands); a one-shot money tilt (:data:`RESTORED_DEVICE_KINDS`) is.
DEVICE_TILT_PREFIX = "device:"
#: Device event kinds whose tilts persist across restarts until an attendant clears
#: them: nothing re-reports them, and each names a note or ticket to reconcile.
RESTORED_DEVICE_KINDS = frozenset({"vend_unmatched", "power_up_bill_in_stacker", "host_error"})
#: The ledger could not record (a failed write, or the write probe before enabling the
#: validator failed): no note or ticket is accepted until an attendant clears it.
LEDGER_WRITE_TILT = "ledger_write"
#: A note or ticket was accepted (STACK sent) and where it went is unknown (a fault
#: ended the escrow): an attendant counts the box.  The tilt names the transaction.
ESCROW_TILT = "escrow"


@dataclass(frozen=True)
class Bets:
    """Chips on the Ante and Trips spots, cents (the Blind mirrors the Ante)."""

    ante: int = 0
    trips: int = 0

    @property
    def total(self) -> int:
        """Cents on the spots (the Blind is not placed until the deal)."""
        return self.ante + self.trips

    def add(self, spot: Spot, cents: int) -> Bets:
        """These bets with ``cents`` more on ``spot``."""
        return replace(self, **{spot: getattr(self, spot) + cents})


@dataclass
class CabinetState:
    """The cabinet's shared state (see the module docstring for its invariants)."""

    config: CabinetConfig
    ledger: Ledger | None
    clock: Callable[[], datetime]
    paytable: Paytable
    limits: Limits
    tilts: dict[str, str] = field(default_factory=dict)
    door_open: bool = False
    operator: str | None = None  # the role of the operator logged in
    operator_name: str | None = None  # the person logged in (their account's name)
    message: str = ""  # the last refusal or news, for the player
    pending: Bets = Bets()  # chips placed, not yet wagered
    last_bets: Bets = Bets()  # the previous round's, for repeat
    round: UthRound | None = None  # the round in play, or the last one (for display)
    round_id: int | None = None
    round_open: bool = False
    commitment: str | None = None  # deck commitment of ``round``
    jackpot: int = 0  # hand-paid part of the last round, cents
    show_result: bool = False  # the settled round stays shown until the next bet
    cashout: PayoutRequest | None = None
    coach: bool = False  # the strategy coach shown to the player after each round

    # -- reading ---------------------------------------------------------------------
    @property
    def credits(self) -> int:
        """The credit meter, cents (0 without a ledger)."""
        return self.ledger.meters[CREDITS] if self.ledger is not None else 0

    def stamp(self) -> str:
        """Now, as the ledger's UTC stamp."""
        return utc_stamp(self.clock())

    # -- recording -------------------------------------------------------------------
    def event(self, kind: str, detail: dict[str, Any], **kw: Any) -> int:
        """Record an event now (``kw``: ``amount`` cents, ``txn``, ``round_id``)."""
        return self.require_ledger_open().event(kind, detail=detail, at=self.stamp(), **kw)

    def set_tilt(
        self, code: str, message: str, *, amount: int = 0, txn: str | None = None
    ) -> None:
        """Record the tilt, then let it stand.  A money tilt names the ``amount`` (cents)
        and the validator transaction ``txn`` it is about (kept in the event's detail)."""
        detail: dict[str, Any] = {"code": code, "message": message}
        if txn is not None:
            detail["txn"] = txn
        self.event("tilt", detail, amount=amount)
        self.tilts[code] = message

    def hold_tilt(self, code: str, message: str) -> None:
        """Let a tilt stand, recorded if the ledger can still record it (a tilt about the
        ledger itself may not be writable)."""
        try:
            self.set_tilt(code, message)
        except (LedgerError, sqlite3.Error, PlayDisabled):
            self.tilts[code] = message

    def clear_bets(self) -> None:
        """Take the pending chips back and stop showing the last result."""
        self.pending = Bets()
        self.show_result = False

    # -- guards ------------------------------------------------------------------------
    def require_ledger_open(self) -> Ledger:
        """The ledger while it is open, even in the ``ledger`` tilt (for records and reads)."""
        if self.ledger is None:
            raise PlayDisabled("the ledger is not available", code="ledger_fault")
        return self.ledger

    def require_ledger(self) -> Ledger:
        """The ledger, unless it is missing or faulty (:class:`PlayDisabled`)."""
        if self.ledger is None or LEDGER_TILT in self.tilts:
            raise PlayDisabled(
                self.tilts.get(LEDGER_TILT, "the ledger is not available"), code="ledger_fault"
            )
        return self.ledger

    def require_playable(self) -> Ledger:
        """The ledger, when no tilt stands and the door is closed."""
        ledger = self.require_ledger()
        if self.tilts:
            code, message = next(iter(self.tilts.items()))
            raise PlayDisabled(
                f"machine tilted ({code}): {message}", code="tilted", params={"tilt": code}
            )
        if self.door_open:
            raise PlayDisabled("the door is open", code="door_open")
        return ledger

    def require_role(self, role: str) -> str:
        """The name of the operator logged in, when their role is ``role`` or above."""
        if self.operator is None:
            raise NotAuthorised("an operator must log in first", code="operator_required")
        if not role_at_least(self.operator, role):
            raise NotAuthorised(
                f"this needs a {role} (logged in: {self.operator})",
                code="role_required",
                params={"role": role},
            )
        return self.operator_name or self.operator

    def require_door_open(self, what: str) -> None:
        """The main door is open: paytable and limit changes and RAM clears need it."""
        if not self.door_open:
            raise NotAuthorised(
                f"{what} needs the main door open", code="door_closed", params={"what": what}
            )

    def require_between_rounds(self) -> None:
        """No round and no payout in progress."""
        if self.round_open:
            raise WrongState("the round is in progress", code="round_in_progress")
        if self.cashout is not None:
            raise WrongState("a payout is in progress", code="payout_in_progress")

    def require_quiet(self, what: str) -> None:
        """Zero credits, no round, no payout: the only time the configuration may change."""
        if self.round_open:
            raise WrongState(f"{what} only between rounds", code="round_in_progress")
        if self.cashout is not None:
            raise WrongState(f"{what} not while a payout is pending", code="payout_in_progress")
        if self.credits:
            raise WrongState(
                f"{what} only with zero credits (now {money(self.credits)})",
                code="credits_on_meter",
                params={"credits": self.credits},
            )
