"""Commands a station sends to the game service beyond the screens' own
(:mod:`kiosk.game.commands`): its validator's escrows and reports, its printer's,
a burn-in's test credits, Pass, and a paytable change by SHA-256.  Every command is sent
with the station it comes from, ``table.execute(station, command)``.  Amounts are cents.
"""

from __future__ import annotations

from dataclasses import dataclass

from devices.host import DeviceEvent
from kiosk.game import commands as cmd
from kiosk.link.outcomes import EscrowEnd
from kiosk.service.payouts import ReportPrint, SetPrinter


@dataclass(frozen=True)
class Pass:
    """Sit this round out: the station's chips come back and the betting window no
    longer waits for it."""


@dataclass(frozen=True)
class AcceptEscrow:
    """Record the note of ``cents`` in the station's validator escrow as ``txn``
    (phase one: nothing is credited)."""

    txn: str
    cents: int


@dataclass(frozen=True)
class AcceptTicket:
    """Record the ticket ``validation`` in the station's validator escrow as ``txn``
    (phase one: nothing is credited).  Returns its amount, cents.  ``cents``: the amount
    the device read, when it reads one (a validator reads only the number: None); a
    ticket offered for another amount than it was issued for is refused as altered."""

    txn: str
    validation: str
    cents: int | None = None


@dataclass(frozen=True)
class SettleEscrow:
    """The station's validator ended escrow ``txn`` as ``end`` (``stacked`` with reason
    ``vend_valid`` is VEND VALID too); ``reason`` is the driver's; ``cents``: the amount
    the driver reported with a ticket's VEND VALID (None: not reported).  Returns how
    the escrow stands (a :class:`~kiosk.link.outcomes.MoneyOutcome`)."""

    txn: str
    end: EscrowEnd
    reason: str = ""
    cents: int | None = None


@dataclass(frozen=True)
class TestCredits:
    """A burn-in's test credits of ``cents`` keyed in at a station as ``txn`` (once),
    answered for by the technician logged in there.  Returns ``credited``."""

    __test__ = False  # not a test case
    txn: str | None
    cents: int


@dataclass(frozen=True)
class SetTablePaytable:
    """Put the paytables folder's table of SHA-256 ``sha256`` in force (a technician
    logged in at the station, its door open)."""

    sha256: str


@dataclass(frozen=True)
class DeviceReport:
    """What one of the station's devices reported (a fault, its end, the validator's own
    reports after a restart): see :meth:`kiosk.service.money_in.MoneyIn.device_event`."""

    event: DeviceEvent


@dataclass(frozen=True)
class ProbeLedger:
    """May the station's validator be enabled?  Probes the ledger (True when it can
    record; False, with the station's ``ledger_write`` tilt, when it cannot)."""


@dataclass(frozen=True)
class StopStation:
    """Stop the station with the tilt ``code`` (recorded); the other stations play on."""

    code: str
    message: str


@dataclass(frozen=True)
class SystemPlay:
    """The casino's system stops play at the station after its round, or lets it
    resume (``by``: the link that asked, recorded)."""

    enabled: bool
    by: str


@dataclass(frozen=True)
class SystemProgressiveLevels:
    """The casino's progressive controller broadcast ``group``'s levels (SAS long polls
    80 / 86): ``levels`` is ((level 1..32, cents), ...), ``by`` the link that heard it
    (see :mod:`kiosk.service.progressive_link`)."""

    group: int
    levels: tuple[tuple[int, int], ...]
    by: str


@dataclass(frozen=True)
class SystemProgressiveLost:
    """No broadcast of progressive ``group`` for the time SAS sets: play suspended at the
    table's stations until the next (see :mod:`kiosk.service.progressive_link`)."""

    group: int
    by: str


@dataclass(frozen=True)
class SystemNotes:
    """The casino's system turns the station's note acceptance on or off."""

    enabled: bool
    by: str


@dataclass(frozen=True)
class DeliverValidation:
    """The casino's system's 18-digit validation number for the station's ticket
    cash-out ``txn`` (None: denied)."""

    txn: str
    validation: str | None


@dataclass(frozen=True)
class SystemRedeem:
    """The casino's system says the ticket the station holds as ``txn`` is worth
    ``cents``: record its redemption before the validator stacks it."""

    txn: str
    cents: int


@dataclass(frozen=True)
class SystemRefuse:
    """The casino's system refuses the ticket the station holds as ``txn``."""

    txn: str


#: The money commands the service answers with a :class:`~kiosk.link.outcomes.MoneyOutcome`.
MoneyCommand = SettleEscrow | ReportPrint | TestCredits | DeliverValidation


@dataclass(frozen=True)
class PairingMiss:
    """A wrong pairing code at the table host (``scope``: ``stations`` or ``displays``)
    from ``station_id`` for ``seat``: recorded; returns the wrong codes since the last
    reopening, the lock recorded too when they reach ``limit``."""

    scope: str
    station_id: str
    seat: int
    limit: int


@dataclass(frozen=True)
class ReopenPairing:
    """A technician at the table host reopens pairing (``scope``) with their PIN;
    returns their name."""

    scope: str
    pin: str


@dataclass(frozen=True)
class LiftLockoutAtHost:
    """A technician (or manager) at the table host ends the PIN locks with their PIN;
    returns their name."""

    pin: str


#: The commands the service answers with nothing (None).
QuietCommand = (
    cmd.PlaceChip
    | cmd.ClearBets
    | cmd.TakeProgressive
    | cmd.RepeatBets
    | cmd.Deal
    | Pass
    | cmd.Decide
    | DeviceReport
    | SetPrinter
    | cmd.HandpayReset
    | cmd.SetDoor
    | cmd.ClearTilt
    | StopStation
    | cmd.OperatorLogout
    | cmd.RamClear
    | cmd.SetLimits
    | cmd.SetStrategyCoach
    | SystemPlay
    | SystemNotes
    | SystemProgressiveLevels
    | SystemProgressiveLost
    | SystemRedeem
    | SystemRefuse
)
#: The commands the service answers with a name: a role, a witness's or a technician's
#: name, a RAM clear's confirmation code.
NamingCommand = (
    cmd.OperatorLogin
    | cmd.RamClearWitness
    | cmd.RamClearRequest
    | cmd.LiftLockout
    | LiftLockoutAtHost
    | ReopenPairing
)
#: The commands the service answers with a count: a ticket's cents, the wrong pairing
#: codes so far, the progressive meter before an adjustment.
CountingCommand = AcceptTicket | PairingMiss | cmd.AdjustProgressive
#: The commands the service answers yes or no: a note taken into escrow, the ledger
#: writable.
AskingCommand = AcceptEscrow | ProbeLedger
#: Everything a station, its devices, an operator or the casino's system asks of the
#: service (``Table.execute``; what each returns: :mod:`kiosk.service.dispatch`).
Command = (
    QuietCommand
    | NamingCommand
    | CountingCommand
    | AskingCommand
    | MoneyCommand
    | cmd.CashOut
    | cmd.SetPaytable
    | SetTablePaytable
    | cmd.ExportPaytable
)

__all__ = [
    "AskingCommand",
    "Command",
    "CountingCommand",
    "NamingCommand",
    "QuietCommand",
    "LiftLockoutAtHost",
    "PairingMiss",
    "ReopenPairing",
    "AcceptEscrow",
    "AcceptTicket",
    "DeliverValidation",
    "DeviceReport",
    "SystemNotes",
    "SystemPlay",
    "SystemProgressiveLevels",
    "SystemProgressiveLost",
    "SystemRedeem",
    "SystemRefuse",
    "MoneyCommand",
    "ProbeLedger",
    "StopStation",
    "Pass",
    "ReportPrint",
    "SetPrinter",
    "SetTablePaytable",
    "SettleEscrow",
    "TestCredits",
]
