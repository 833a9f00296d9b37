"""Commands into the cabinet controller: small frozen records, one per operation.

A screen, the CLI, a network station and a test all say the same thing the same way:
``station.execute(PlaceChip("ante", 500))``.  The game service
dispatches each command type through one handler map; a refusal is raised as a
:class:`kiosk.game.errors.MachineError` subclass (caught by type), before any state
changes.  Amounts are integer cents.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from engine.uth.round import Action
from kiosk.game.vocabulary import Spot


@dataclass(frozen=True)
class PlaceChip:
    """Add a chip of ``cents`` to the Ante (the Blind follows) or the Trips spot, or the
    paytable's fixed progressive wager (``cents`` exactly, with an Ante)."""

    spot: Spot
    cents: int


@dataclass(frozen=True)
class ClearBets:
    """Take back the chips placed since the last round."""


@dataclass(frozen=True)
class TakeProgressive:
    """Take back the progressive wager placed since the last round (the other chips stay)."""


@dataclass(frozen=True)
class RepeatBets:
    """Place the previous round's Ante, Trips and progressive again (the progressive when
    the paytable in force still offers it at the same wager)."""


@dataclass(frozen=True)
class Deal:
    """Wager the placed chips and deal the round."""


@dataclass(frozen=True)
class Decide:
    """The player's decision in the round in progress."""

    action: Action


@dataclass(frozen=True)
class CashOut:
    """Move every credit into a payout (ticket or handpay)."""


class CreditSource(StrEnum):
    """Where credits with no device handshake come from (:class:`InsertCredits`)."""

    NOTE = "bill"  # a note of ``cents`` (an accepted denomination)
    TICKET = "ticket"  # a ticket printed here, redeemed for its amount
    TEST = "test"  # a burn-in's test credits (a technician logged in, demo or burn-in)


@dataclass(frozen=True)
class InsertCredits:
    """``cents`` of credits from ``source`` with no device handshake, through the same
    two phases as the validator; ``validation``: the ticket's number (a ticket only)."""

    cents: int
    source: CreditSource = CreditSource.NOTE
    validation: str = ""


@dataclass(frozen=True)
class OperatorLogin:
    """An operator types a PIN; the result is the role of the person logged in."""

    pin: str


@dataclass(frozen=True)
class OperatorLogout:
    """The operator leaves."""


@dataclass(frozen=True)
class ClearTilt:
    """An attendant clears the tilt ``code``."""

    code: str


@dataclass(frozen=True)
class SetDoor:
    """The main door switch: ``open`` True when the door opened."""

    open: bool


@dataclass(frozen=True)
class HandpayReset:
    """The attendant has paid the pending handpay."""


@dataclass(frozen=True)
class SetPaytable:
    """A technician installs the paytable file at ``path`` (the main door open)."""

    path: str | Path


@dataclass(frozen=True)
class SetLimits:
    """A technician narrows the table limits (cents; ``None`` keeps the value; the main
    door open)."""

    ante_min: int | None = None
    ante_max: int | None = None
    trips_min: int | None = None
    trips_max: int | None = None


@dataclass(frozen=True)
class SetStrategyCoach:
    """A technician turns the player's strategy coach on or off."""

    on: bool


@dataclass(frozen=True)
class ExportPaytable:
    """A manager writes the paytable file ``path`` and its PAR sheet into ``folder``
    (``stem``: the files' name, default the table's name and SHA-256 prefix)."""

    path: str | Path
    folder: str | Path
    stem: str = ""


@dataclass(frozen=True)
class RamClearWitness:
    """A second operator (another person than the manager logged in) types their PIN to
    countersign the RAM clear; the result is their name."""

    pin: str


@dataclass(frozen=True)
class LiftLockout:
    """A manager or technician (``pin``) and a second person (``witness_pin``) end the PIN
    locks before their time, the main door of the station open with its key; the result
    is the first person's name."""

    pin: str
    witness_pin: str


@dataclass(frozen=True)
class RamClearRequest:
    """A manager asks for a RAM clear (door open, countersigned); the result is the
    confirmation code."""


@dataclass(frozen=True)
class RamClear:
    """A manager confirms the RAM clear with the code :class:`RamClearRequest` returned."""

    confirm_code: str


class AdjustReason(StrEnum):
    """Why a manager adjusts the progressive meter (recorded with the adjustment)."""

    CORRECTION = "correction"  # the meter set to the figure the casino's records show
    TRANSFER = "transfer"  # a meter moved from or to another machine or table
    PROMOTION = "promotion"  # a casino's promotion lifts the meter


@dataclass(frozen=True)
class AdjustProgressive:
    """A manager sets the table's standalone progressive meter to ``cents`` (0 up to the
    paytable's ceiling), the main door open, countersigned by a second person's PIN
    ``witness_pin``, for ``reason``; the result is the meter's amount before (cents)."""

    cents: int
    witness_pin: str
    reason: AdjustReason = AdjustReason.CORRECTION


Command = (
    PlaceChip
    | ClearBets
    | TakeProgressive
    | RepeatBets
    | Deal
    | Decide
    | CashOut
    | InsertCredits
    | OperatorLogin
    | OperatorLogout
    | ClearTilt
    | SetDoor
    | HandpayReset
    | SetPaytable
    | SetLimits
    | SetStrategyCoach
    | ExportPaytable
    | RamClearWitness
    | RamClearRequest
    | RamClear
    | LiftLockout
    | AdjustProgressive
)
