"""The game's state: the ledger, the paytable and limits in force, the host's tilts, the
round on the table for every seat and its timers, and each station's chips, tilts, door,
operator, payout and escrows; with the guards and records every part uses.

One state serves a lone cabinet (one station, in the same process) and a shared table
(1-7 stations over the link): the cabinet's own tilts are its station's, and the ledger's
tilt is the host's, which stops every station.

Invariants: a ledger write comes before the in-memory change it records; each station's
credit meter is the ledger's (``station_meters[station]["credits"]``); ``round_open``
implies ``round`` is the round in play and ``row_ids`` names each seat's open row; a
station's ``payout`` is set while its payout is pending, and then it has no pending
chips.  Amounts are cents.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine.money import format_cents as money
from engine.uth.paytable import Limits, Paytable
from engine.uth.round import Action, Phase, UthRound
from kiosk.config import CabinetConfig, role_at_least
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import MachineError, NotAuthorised, PlayDisabled, WrongState
from kiosk.game.rules.betting import require_between_rounds, require_playing
from kiosk.game.rules.lockout import PinLockout
from kiosk.game.vocabulary import LEDGER_TILT, Bets
from kiosk.ledger.chain import utc_stamp
from kiosk.ledger.errors import LedgerError
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.meters import CREDITS
from kiosk.service.escrows import StationEscrows
from kiosk.service.progressive import LinkedMeter
from kiosk.service.timing import Clock, TableTiming


@dataclass(frozen=True)
class TimedOut:
    """A decision the table took for a seat whose timer ran out."""

    round_id: int
    phase: Phase
    action: Action


@dataclass(frozen=True)
class PendingPayout:
    """A station's cash-out: ``amount`` cents off its meter in transaction ``txn`` at
    ``at`` (the ledger's stamp): a handpay waiting for an attendant, or (``method``
    ``"ticket"``) a ticket being printed at the station."""

    txn: str
    amount: int
    method: str = "handpay"
    at: str = ""
    awaiting: bool = False  # a ticket waiting for the casino's system's validation number
    since: float = 0.0  # monotonic seconds it has waited from
    ordered: bool = False  # its ticket was ordered printed (or was pending at power-up)


@dataclass(frozen=True)
class Session:
    """The operator logged in at a station: the account's name and role, and when they
    last did something there (monotonic seconds)."""

    name: str
    role: str
    seen: float


@dataclass(frozen=True)
class HeldTicket:
    """A ticket of another machine in a station's validator escrow, waiting for the
    casino's system to say it is worth ``amount`` cents (``state`` waiting, authorised or
    refused); ``since``: monotonic seconds."""

    txn: str
    validation: str
    state: str = "waiting"
    amount: int = 0
    since: float = 0.0


@dataclass
class Station:
    """One player station between and during rounds (its money is in the ledger)."""

    number: int
    escrows: StationEscrows
    pending: Bets = Bets()  # chips placed, not yet wagered
    last_bets: Bets = Bets()
    ready: bool = False  # pressed Deal in this betting window
    passed: bool = False  # pressed Pass in this betting window
    tilts: dict[str, str] = field(default_factory=dict)
    door_open: bool = False
    payout: PendingPayout | None = None
    printer: bool = False  # its ticket printer reported ready (not in the ledger)
    timed_out: TimedOut | None = None  # the latest, until the next round is dealt
    message: str = ""  # the last refusal or news, for the player
    operator: Session | None = None  # who is logged in at this station
    show_result: bool = False  # the settled round stays shown until the next bet
    jackpot: int = 0  # the hand-paid part of its last round, cents
    notes_off: bool = False  # the casino's system turned the station's note acceptance off
    held: HeldTicket | None = None  # a ticket of another machine waiting for the system

    def reset_window(self) -> None:
        self.pending, self.ready, self.passed = Bets(), False, False


@dataclass
class TableState:
    """The game's shared state (see the module docstring for its invariants)."""

    config: CabinetConfig
    ledger: Ledger | None
    clock: Clock
    paytable: Paytable
    limits: Limits
    timing: TableTiming
    stations: dict[int, Station]
    table_tilts: dict[str, str] = field(default_factory=dict)
    round: UthRound | None = None  # the round in play, or the last one (for display)
    row_ids: dict[int, int] = field(default_factory=dict)  # seat -> its row of the round
    round_open: bool = False
    commitment: str | None = None
    betting_deadline: datetime | None = None  # the betting window, while open
    decision_deadline: datetime | None = None  # the current phase's timer
    coach: bool = False  # the strategy coach is shown to the players
    lockout: PinLockout = field(default_factory=PinLockout)  # wrong PINs, the whole table's
    system_validation: bool = False  # tickets out numbered by the casino's system
    system_redemption: bool = False  # tickets of other machines redeemed through it
    ticks: Callable[[], float] = time.monotonic  # for operator sessions and codes
    #: the linked progressive's level as the controller last broadcast it (linked only)
    progressive_link: LinkedMeter | None = None

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
                code=ErrorCode.NO_STATION,
                params={"station": number},
            )
        return found

    @property
    def round_id(self) -> int | None:
        """The first row id of the round on the table (None before the first round)."""
        return min(self.row_ids.values()) if self.row_ids else None

    def at(self, number: int) -> dict[str, int]:
        """The ``at_station`` of an event's detail: the station an operator typed at, at
        a table of more than one station (a lone cabinet has no other)."""
        return {"at_station": number} if len(self.stations) > 1 else {}

    def tilts_of(self, number: int) -> dict[str, str]:
        """The tilts that stop station ``number``: the host's, then its own (code ->
        text)."""
        return {**self.table_tilts, **self.station(number).tilts}

    def require_credit_room(self, number: int, cents: int) -> None:
        """Station ``number`` may take ``cents`` more credits: no payout pending there, and
        its meter stays within the credit limit; raises before anything is written."""
        if self.station(number).payout is not None:
            raise WrongState("a payout is in progress", code=ErrorCode.PAYOUT_IN_PROGRESS)
        limit = self.config.credit_limit_cents
        if self.credits(number) + cents > limit:
            raise MachineError(
                f"the credit limit is {money(limit)}",
                code=ErrorCode.CREDIT_LIMIT,
                params={"limit": limit},
            )

    # -- recording ---------------------------------------------------------------------
    def event(
        self,
        kind: EventKind,
        detail: Mapping[str, object],
        station: int,
        *,
        amount: int = 0,
        txn: str | None = None,
        round_id: int | None = None,
        at: str | None = None,
    ) -> int:
        """Record an event about ``station`` (``amount`` cents, ``txn``, ``round_id``,
        ``at``: its stamp, default now)."""
        return self.require_ledger_open().event(
            kind,
            amount=amount,
            detail=detail,
            round_id=round_id,
            txn=txn,
            at=at or self.stamp(),
            station=station,
        )

    def set_tilt(
        self, station: int, code: str, message: str, *, amount: int = 0, txn: str | None = None
    ) -> None:
        """Record a tilt of ``station``, then let it stand.  A money tilt names the
        ``amount`` (cents) and the transaction ``txn`` it is about."""
        detail: dict[str, Any] = {"code": code, "message": message}
        if txn is not None:
            detail["txn"] = txn
        self.event(EventKind.TILT, detail, station, amount=amount)
        self.station(station).tilts[code] = message

    def hold_tilt(self, station: int, code: str, message: str) -> None:
        """Let a tilt of ``station`` stand, recorded if the ledger can still record it (a
        tilt about the ledger's writes may not be writable)."""
        try:
            self.set_tilt(station, code, message)
        except (LedgerError, sqlite3.Error, PlayDisabled):
            self.station(station).tilts[code] = message

    def table_tilt(self, code: str, message: str) -> None:
        """A tilt of the whole table (the ledger, the operators' accounts): every station stops.
        Recorded when the ledger can record it."""
        try:
            self.event(EventKind.TILT, {"code": code, "message": message, "host": True}, 1)
        except (LedgerError, sqlite3.Error, PlayDisabled):
            pass
        self.table_tilts[code] = message

    # -- guards ------------------------------------------------------------------------
    def require_ledger_open(self) -> Ledger:
        """The ledger while it is open, even in a host tilt (for records and reads)."""
        if self.ledger is None:
            raise PlayDisabled(
                self.table_tilts.get(LEDGER_TILT, "the ledger is not available"),
                code=ErrorCode.LEDGER_FAULT,
            )
        return self.ledger

    def require_ledger(self) -> Ledger:
        """The ledger, unless it is missing or faulty (the ``ledger`` host tilt)."""
        ledger = self.require_ledger_open()
        if LEDGER_TILT in self.table_tilts:
            raise PlayDisabled(self.table_tilts[LEDGER_TILT], code=ErrorCode.LEDGER_FAULT)
        return ledger

    def playable(self, number: int, finishing: frozenset[str] = frozenset()) -> bool:
        """Whether ``number`` may play now (no host tilt, no tilt of its own but for the
        ``finishing`` ones, door shut)."""
        station = self.stations.get(number)
        return (
            self.ledger is not None
            and not self.table_tilts
            and station is not None
            and not (set(station.tilts) - finishing)
            and not station.door_open
        )

    def require_playable(self, number: int, finishing: frozenset[str] = frozenset()) -> Ledger:
        """The ledger, when the host and station ``number`` are untilted (but for the
        ``finishing`` tilts, which let a round in progress finish) and its door is
        closed: a tilt at one station stops that station only
        (:func:`~kiosk.game.rules.betting.require_playing`, the rule a station checks too)."""
        ledger = self.require_ledger()
        tilts = {c: m for c, m in self.tilts_of(number).items() if c not in finishing}
        require_playing(tilts, self.station(number).door_open)
        return ledger

    def require_between_rounds(self, number: int) -> None:
        """No round open and no payout pending at station ``number``."""
        require_between_rounds(self.round_open, self.station(number).payout is not None)

    def require_role(self, number: int, role: str) -> str:
        """The name of the operator logged in at station ``number``, when their role is
        ``role`` or above."""
        session = self.station(number).operator
        if session is None:
            raise NotAuthorised("an operator must log in first", code=ErrorCode.OPERATOR_REQUIRED)
        if not role_at_least(session.role, role):
            raise NotAuthorised(
                f"this needs a {role} (logged in: {session.role})",
                code=ErrorCode.ROLE_REQUIRED,
                params={"role": role},
            )
        return session.name

    def require_door_open(self, number: int, what: str) -> None:
        """The main door of station ``number`` is open: paytable and limit changes and
        RAM clears need it."""
        if not self.station(number).door_open:
            raise NotAuthorised(
                f"{what} needs the main door open",
                code=ErrorCode.DOOR_CLOSED,
                params={"what": what},
            )

    def require_quiet(self, what: str) -> None:
        """No round open and every station at zero credits with no payout pending: the
        only time the table's configuration may change."""
        if self.round_open:
            raise WrongState(f"{what} only between rounds", code=ErrorCode.ROUND_IN_PROGRESS)
        single = len(self.stations) == 1
        for number, station in sorted(self.stations.items()):
            where = "" if single else f"station {number}'s "
            if station.payout is not None:
                raise WrongState(
                    f"{what} not while {where or 'a '}payout is pending",
                    code=ErrorCode.PAYOUT_IN_PROGRESS,
                    params={"station": number},
                )
            credits = self.credits(number)
            if credits:
                at = "" if single else f" at every station (station {number} has {money(credits)})"
                now = f" (now {money(credits)})" if single else ""
                raise WrongState(
                    f"{what} only with zero credits{at}{now}",
                    code=ErrorCode.CREDITS_ON_METER,
                    params={"station": number, "credits": credits},
                )
