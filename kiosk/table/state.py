"""The table host's state: each station's chips, tilts, door and payout, the round on
the table for every seat, the timers, and the guards every part uses.

Invariants: a ledger write comes before the in-memory change it records; each station's
credit meter is the ledger's (``station_meters[station]["credits"]``); ``round_open``
implies ``round`` is the round in play and ``row_ids`` names each seat's open row; a
station's ``payout`` is set while its payout is pending.  Amounts are cents.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine.money import format_cents as money
from engine.uth.paytable import Limits, Paytable
from engine.uth.round import Action, Phase, UthRound
from kiosk.config import CabinetConfig
from kiosk.ledger.chain import utc_stamp
from kiosk.ledger.errors import LedgerError
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.meters import CREDITS
from kiosk.machine.errors import MachineError, PlayDisabled, WrongState
from kiosk.machine.state import LEDGER_TILT, Bets
from kiosk.table.timing import Clock, TableTiming


@dataclass(frozen=True)
class TimedOut:
    """A decision the table took for a seat whose timer ran out."""

    round_id: int
    phase: Phase
    action: Action


@dataclass(frozen=True)
class PendingPayout:
    """A station's cash-out (cents, its transaction): a handpay waiting for an
    attendant, or (``method`` ``"ticket"``) a ticket being printed at the station."""

    txn: str
    amount: int
    method: str = "handpay"


@dataclass
class Station:
    """One player station between and during rounds (its money is in the ledger)."""

    number: int
    pending: Bets = Bets()  # chips placed, not yet wagered
    last_bets: Bets = Bets()
    ready: bool = False  # pressed Deal in this betting window
    passed: bool = False  # pressed Pass in this betting window
    tilts: dict[str, str] = field(default_factory=dict)
    door_open: bool = False
    payout: PendingPayout | None = None
    printer: bool = False  # its ticket printer reported ready (not in the ledger)
    timed_out: TimedOut | None = None  # the latest, until the next round is dealt
    message: str = ""

    def reset_window(self) -> None:
        self.pending, self.ready, self.passed = Bets(), False, False


@dataclass
class TableState:
    """The table host's shared state (see the module docstring for its invariants)."""

    config: CabinetConfig
    ledger: Ledger | None
    clock: Clock
    paytable: Paytable
    limits: Limits
    timing: TableTiming
    stations: dict[int, Station]
    host_tilts: dict[str, str] = field(default_factory=dict)
    round: UthRound | None = None  # the round in play, or the last one (for display)
    row_ids: dict[int, int] = field(default_factory=dict)  # seat -> its row of the round
    round_open: bool = False
    commitment: str | None = None
    betting_deadline: datetime | None = None  # the betting window, while open
    decision_deadline: datetime | None = None  # the current phase's timer

    # -- reading -----------------------------------------------------------------------
    def credits(self, station: int) -> int:
        """Station ``station``'s credit meter, cents (0 without a ledger)."""
        if self.ledger is None:
            return 0
        return self.ledger.station_meters.get(station, {}).get(CREDITS, 0)

    def now(self) -> datetime:
        return self.clock()

    def stamp(self) -> str:
        return utc_stamp(self.clock())

    def station(self, number: int) -> Station:
        found = self.stations.get(number)
        if found is None:
            raise WrongState(
                f"station {number} is not at this table",
                code="no_station",
                params={"station": number},
            )
        return found

    @property
    def round_id(self) -> int | None:
        """The first row id of the round on the table (None before the first round)."""
        return min(self.row_ids.values()) if self.row_ids else None

    def require_credit_room(self, number: int, cents: int) -> None:
        """Station ``number`` may take ``cents`` more credits: no payout pending there, and
        its meter stays within the credit limit; raises before anything is written."""
        if self.station(number).payout is not None:
            raise WrongState("a payout is in progress", code="payout_in_progress")
        limit = self.config.credit_limit_cents
        if self.credits(number) + cents > limit:
            raise MachineError(
                f"the credit limit is {money(limit)}",
                code="credit_limit",
                params={"limit": limit},
            )

    # -- recording ---------------------------------------------------------------------
    def event(self, kind: str, detail: dict[str, Any], station: int, **kw: Any) -> int:
        """Record an event about ``station`` now (``kw``: ``amount`` cents, ``txn``,
        ``round_id``)."""
        return self.require_ledger_open().event(
            kind, detail=detail, at=self.stamp(), station=station, **kw
        )

    def set_tilt(self, station: int, code: str, message: str) -> None:
        """Record a tilt of ``station``, then let it stand."""
        self.event("tilt", {"code": code, "message": message}, station)
        self.station(station).tilts[code] = message

    def host_tilt(self, code: str, message: str) -> None:
        """A tilt of the host (the ledger): the whole table stops."""
        try:
            self.event("tilt", {"code": code, "message": message, "host": True}, 1)
        except (LedgerError, sqlite3.Error, PlayDisabled):
            pass
        self.host_tilts[code] = message

    # -- guards ------------------------------------------------------------------------
    def require_ledger_open(self) -> Ledger:
        if self.ledger is None:
            raise PlayDisabled("the ledger is not available", code="ledger_fault")
        return self.ledger

    def require_ledger(self) -> Ledger:
        """The ledger, unless a host tilt stands (which stops the whole table)."""
        ledger = self.require_ledger_open()
        if self.host_tilts:
            code, message = next(iter(self.host_tilts.items()))
            raise PlayDisabled(
                f"table stopped ({code}): {message}",
                code="ledger_fault" if code == LEDGER_TILT else "tilted",
                params={"tilt": code},
            )
        return ledger

    def playable(self, number: int) -> bool:
        """Whether ``number`` may play now (no host tilt, no tilt of its own, door shut)."""
        station = self.stations.get(number)
        return (
            self.ledger is not None
            and not self.host_tilts
            and station is not None
            and not station.tilts
            and not station.door_open
        )

    def require_playable(self, number: int) -> Ledger:
        """The ledger, when the host and station ``number`` are untilted and its door is
        closed: a tilt at one station stops that station only."""
        ledger = self.require_ledger()
        station = self.station(number)
        if station.tilts:
            code, message = next(iter(station.tilts.items()))
            raise PlayDisabled(
                f"station tilted ({code}): {message}", code="tilted", params={"tilt": code}
            )
        if station.door_open:
            raise PlayDisabled("the door is open", code="door_open")
        return ledger

    def require_quiet(self, what: str) -> None:
        """No round open and every station at zero credits with no payout pending: the
        only time the table's configuration may change."""
        if self.round_open:
            raise WrongState(f"{what} only between rounds", code="round_in_progress")
        for number, station in sorted(self.stations.items()):
            if station.payout is not None:
                raise WrongState(
                    f"{what} not while station {number}'s payout is pending",
                    code="payout_in_progress",
                    params={"station": number},
                )
            if self.credits(number):
                raise WrongState(
                    f"{what} only with zero credits at every station "
                    f"(station {number} has {money(self.credits(number))})",
                    code="credits_on_meter",
                    params={"station": number, "credits": self.credits(number)},
                )
