"""The operator port: what an operator menu asks of the table, in typed records.

An operator menu (PIN, pages, actions) talks to the game service through
:class:`OperatorPort` alone, whether the service runs in the same process
(:class:`~kiosk.station.operator_local.LocalOperator`) or at a table host across the link
(:class:`~kiosk.station.operator_remote.RemoteOperator`).  Both adapters answer with the
records below (cents, card ints, enums: no JSON, no text to parse), and both declare
which pages they can serve (:class:`Capability`): a page the port does not offer is
shown disabled, never served by a second menu.

Every request is asynchronous in shape: it is handed a ``done`` callback that receives
the record, a :class:`Refused` (the service's code and reason) or ``None`` (no answer:
the host could not be reached or did not answer in time).  A remote adapter calls it
from :meth:`OperatorPort.poll` on the screen's thread; the in-process one at once.
A request returns False (and is not sent) while another is in flight (:attr:`busy`).

It lives in :mod:`kiosk.station` beside its two adapters because it is a station's
port onto the service (as the station's controller is for play): the screens import
the port, never the service, the host or the link behind it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from kiosk.config import CabinetConfig, Role
from kiosk.game.commands import AdjustReason
from kiosk.game.paytables.hold import PaytableHold
from kiosk.game.snapshot import MachineSnapshot
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.records import EventRecord, RoundRecord, VerifyReport
from kiosk.service.device_commands import Command as TableCommand
from kiosk.service.dispatch import Outcome

if TYPE_CHECKING:
    from kiosk.ledger.ledger import Ledger


T = TypeVar("T")

#: The refusal code with which the service says the operator's session has ended.
OPERATOR_REQUIRED = "operator_required"
#: The table limits' fields, in the pages' order (cents).
LIMIT_FIELDS = ("ante_min", "ante_max", "trips_min", "trips_max")


class Capability(StrEnum):
    """A page (or group of actions) an operator port can serve."""

    TABLE_STATUS = "table_status"  # every station's credits, tilts, door, handpay
    METERS = "meters"  # a station's and the table's meters
    RECALL = "recall"  # a station's last rounds
    LIMITS = "limits"  # the table's limits, changed after confirmation
    PAYTABLES = "paytables"  # the paytables the table may switch to
    EVENTS = "events"  # the ledger's event log (at the ledger's machine only)
    HOLD = "hold"  # the hold report
    AUDIT = "audit"  # verifying the ledger
    EXPORT = "export"  # exporting the ledger to a USB stick
    PAYTABLE_EDITOR = "paytable_editor"  # drafting and exporting paytables
    RAM_CLEAR = "ram_clear"  # clearing the ledger, with a witness
    HAND_PAYS = "hand_pays"  # this station's hand pays, from the ledger
    TILTS = "tilts"  # this station's tilts and its door (in process)
    DEVICES = "devices"  # this station's devices, from the ledger
    MACHINE = "machine"  # the machine's configuration and ledger identity
    PROGRESSIVE = "progressive"  # the table's progressive meter, its lifetime, an adjustment


@dataclass(frozen=True)
class Refused:
    """The service refused a request: its ``code`` and its ``reason`` (English, for
    operators)."""

    code: str
    reason: str

    @property
    def session_ended(self) -> bool:
        """The operator's session is over (log in again)."""
        return self.code == OPERATOR_REQUIRED


@dataclass(frozen=True)
class Person:
    """The person logged in by a PIN."""

    name: str
    role: Role


@dataclass(frozen=True)
class TiltLine:
    """A tilt standing at a station: its code and its text."""

    code: str
    text: str


@dataclass(frozen=True)
class DeviceFault:
    """A device's fault at a station (a ``device:<device>:<kind>`` tilt), with its text."""

    device: str
    kind: str
    text: str

    @property
    def code(self) -> str:
        return f"device:{self.device}:{self.kind}"


@dataclass(frozen=True)
class StationStatus:
    """One station as the table status page shows it (cents)."""

    station: int
    credits: int
    tilts: tuple[TiltLine, ...] = ()
    devices: tuple[DeviceFault, ...] = ()
    door_open: bool = False
    payout_pending: int = 0
    in_round: bool = False
    connected: bool = False


@dataclass(frozen=True)
class TableLimits:
    """The table's limits in force or asked for (cents)."""

    ante_min: int
    ante_max: int
    trips_min: int
    trips_max: int

    def as_dict(self) -> dict[str, int]:
        """Field -> cents, in :data:`LIMIT_FIELDS`' order."""
        return {f: int(getattr(self, f)) for f in LIMIT_FIELDS}

    @classmethod
    def of(cls, values: Mapping[str, int]) -> TableLimits:
        return cls(**{f: int(values[f]) for f in LIMIT_FIELDS})


@dataclass(frozen=True)
class PaytableName:
    """A paytable as the title of a page names it."""

    name: str
    version: str
    sha256: str


@dataclass(frozen=True)
class TableStatus:
    """The table status page: every station, the table's state, limits and paytable."""

    stations: tuple[StationStatus, ...]
    stopped: bool = False
    round_open: bool = False
    limits: TableLimits | None = None
    paytable: PaytableName | None = None


@dataclass(frozen=True)
class MeterReadings:
    """A station's meters and the table's (meter name -> cents or count)."""

    station: int
    meters: Mapping[str, int]
    table: Mapping[str, int]


@dataclass(frozen=True)
class RecalledRound:
    """One finished round of a station's recall (cents; cards as ints 0..51)."""

    id: int
    started_at: str
    ante: int
    blind: int
    trips: int
    play: int
    player_hole: tuple[int, ...]
    dealer_hole: tuple[int, ...]
    board: tuple[int, ...]
    paid: int
    jackpot: int

    @property
    def staked(self) -> int:
        return self.ante + self.blind + self.trips + self.play

    @property
    def returned(self) -> int:
        return self.paid + self.jackpot


@dataclass(frozen=True)
class PaytableChoice:
    """One paytable of the table's folder: its name, version, SHA-256, RTP per bet
    (percent; empty when not known yet), whether that RTP is proven on the table, whether
    it is in force and its Ante limits (cents); or, unreadable, the file and ``error``."""

    file: str
    name: str = ""
    version: str = ""
    sha256: str = ""
    rtp: Mapping[str, float] | None = None
    proven: bool = False
    in_force: bool = False
    ante_min: int | None = None
    ante_max: int | None = None
    error: str = ""

    @property
    def readable(self) -> bool:
        return bool(self.sha256)

    @property
    def title(self) -> str:
        return f"{self.name} {self.version}".strip()


@dataclass(frozen=True)
class Paytables:
    """The paytables the table may switch to, and the SHA-256 of the one in force."""

    tables: tuple[PaytableChoice, ...]
    in_force: str


@dataclass(frozen=True)
class Lifetime:
    """A lifetime meter's count and its cents."""

    count: int
    cents: int


@dataclass(frozen=True)
class ProgressiveMeters:
    """The table's progressive as its page shows it (cents): offered by the paytable in
    force (its ``reset`` and ``ceiling``) or not, ``linked`` (the casino's controller
    keeps the meter), the ``meter`` (None: a linked level not heard yet) and the hidden
    ``reserve``, and the lifetime meters: wagers, contributions to the meter and the
    reserve, the reserve drawn for resets, resets, awards on the meter (``hits``), awards
    won, the hand-paid jackpots among them, and managers' adjustments."""

    offered: bool
    linked: bool
    reset: int
    ceiling: int
    meter: int | None
    reserve: int
    wagers: Lifetime
    contributed: int
    reserved: int
    reserve_drawn: int
    resets: Lifetime
    hits: Lifetime
    awards: Lifetime
    jackpots: Lifetime
    adjustments: int
    adjusted_up: int
    adjusted_down: int

    @property
    def adjustable(self) -> bool:
        """The meter is the table's own: a manager may adjust it."""
        return self.offered and not self.linked


#: What a request's ``done`` receives: the record, a refusal, or None (no answer).
Done = Callable[[T | Refused | None], None]


class OperatorPort(Protocol):
    """An operator menu's one way to the table (see module)."""

    @property
    def station(self) -> int:
        """The station the menu is shown at."""
        ...

    @property
    def busy(self) -> bool:
        """A request waits for its answer."""
        ...

    def offers(self, capability: Capability) -> bool:
        """Whether this port serves ``capability``."""
        ...

    def poll(self) -> None:
        """Hand the answers that arrived to their callbacks (the screen's thread)."""
        ...

    # -- the person ---------------------------------------------------------------------
    def login(self, pin: str, done: Done[Person]) -> bool:
        """Log in the person whose PIN ``pin`` is, at this station."""
        ...

    def logout(self) -> None:
        """The person at this station leaves (nothing is answered)."""
        ...

    def lift_lockout(self, pin: str, witness_pin: str, done: Done[str]) -> bool:
        """With this station's main door open, a manager or technician and a second
        person lift every PIN lock; answered with the first person's name."""
        ...

    # -- reading ------------------------------------------------------------------------
    def table_status(self, done: Done[TableStatus]) -> bool: ...

    def meters(self, station: int, done: Done[MeterReadings]) -> bool: ...

    def recall(self, station: int, done: Done[tuple[RecalledRound, ...]]) -> bool: ...

    def paytables(self, done: Done[Paytables]) -> bool: ...

    def limits(self) -> TableLimits | None:
        """The limits in force as this station last heard them (None: not yet)."""
        ...

    def limit_bounds(self) -> tuple[TableLimits, int] | None:
        """The paytable's approved limits and its Ante step (None: no paytable yet)."""
        ...

    # -- acting (each answered with the table status after it) ---------------------------
    def clear_tilt(self, station: int, code: str, done: Done[TableStatus]) -> bool: ...

    def handpay_paid(self, station: int, done: Done[TableStatus]) -> bool: ...

    def set_limits(self, limits: TableLimits, done: Done[TableStatus]) -> bool: ...

    def set_paytable(self, sha256: str, done: Done[TableStatus]) -> bool: ...

    # -- the progressive -----------------------------------------------------------------
    def progressive(self, done: Done[ProgressiveMeters]) -> bool:
        """The table's progressive (:data:`Capability.PROGRESSIVE`)."""
        ...

    def adjust_progressive(
        self, cents: int, witness_pin: str, reason: AdjustReason, done: Done[ProgressiveMeters]
    ) -> bool:
        """The manager logged in here (the main door open) sets the standalone meter to
        ``cents``, countersigned by a second person's PIN; answered with the progressive
        after it."""
        ...


class LocalOperations(Protocol):
    """What the pages served only at the ledger's own machine use, in process (the
    event log, hand pays, devices, hold report, audit, export, machine, the paytable
    editor, RAM clear): a typed read of the ledger each, the station's snapshot and
    commands, and the configuration.  :class:`~kiosk.station.operator_local.
    TableOperations` serves them over the :class:`~kiosk.service.table.Table` and the
    station's controller; a remote station has none (the port does not offer those
    pages there)."""

    config: CabinetConfig

    @property
    def ledger(self) -> Ledger | None:
        """The open ledger (None once closed or when it could not be opened)."""
        ...

    def snapshot(self) -> MachineSnapshot: ...

    def execute(self, command: TableCommand) -> Outcome:
        """A command of the station's (the paytable editor's SetPaytable)."""
        ...

    def ledger_events(
        self, kinds: tuple[EventKind, ...] = (), last: int | None = None
    ) -> list[EventRecord]:
        """Events of ``kinds`` (all when empty), the ``last`` ones, oldest first; ticket
        numbers masked unless a manager is logged in at this station."""
        ...

    def meter_readings(self) -> dict[str, int] | None: ...

    def recall(self, last: int = 10) -> list[RoundRecord]:
        """This station's last ``last`` rounds, most recent first."""
        ...

    def hold(self, since: str | None = None) -> list[PaytableHold]: ...

    def ledger_id(self) -> str | None: ...

    def verify_ledger(self, replay: bool = False) -> VerifyReport | None: ...

    def export_ledger(self, path: str | Path) -> Path:
        """Write the ledger as JSON to ``path``; raises ``PlayDisabled`` without a ledger,
        ``OSError`` when it cannot be written."""
        ...
