"""The game service: one Ultimate Texas Hold'em round for 1-7 player stations, one
ledger, every money rule once.

A lone cabinet is this service with one station in the same process
(:mod:`kiosk.station.local`); a shared table is the same service with its stations over
the link (:mod:`kiosk.tablehost.service`).  Headless (no pygame, no network): a
station's screen, the link, the CLI and the tests all drive the same :class:`Table`.
Money is integer cents everywhere.

Life cycle::

    table = Table.open(config, stations=(1, 2, 3), clock=clock)
    table.execute(2, AcceptEscrow("s2-t", 5000))          # a validator's note, two-phase
    table.execute(2, SettleEscrow("s2-t", EscrowEnd.VEND_VALID))  # (kiosk.service.money_in)
    table.execute(2, PlaceChip("ante", 500))
    table.execute(2, Deal())          # or Pass(); the window closes when all are done
    table.tick()                      # the timers: call it often (e.g. 10 Hz)
    table.execute(2, Decide(Action.CHECK))
    table.snapshot(2)                 # what station 2's screen shows
    table.execute(2, CashOut())       # a ticket when its printer is ready (kiosk.service.payouts)

Each command (:mod:`kiosk.game.commands`, :mod:`kiosk.service.device_commands`) is carried out by
the part that owns its concept, all on one :class:`~kiosk.service.state.TableState`:
:mod:`~kiosk.service.play` (the betting window, the deal, decisions, settlement),
:mod:`~kiosk.service.money_in` (notes, tickets in, test credits, device events),
:mod:`~kiosk.service.payouts` (cash-outs, tickets out, handpays),
:mod:`~kiosk.service.operators` (login, tilts, doors, RAM clear) and
:mod:`~kiosk.service.settings` (paytable, limits, coach, export).

Rules (GLI-11 / GLI-24 style): every change is committed to the ledger before it takes
effect in memory; a round's deck commitment is committed before any card is shown; an
unfinished round resumes after a power cut exactly (the phase's timer starts again at
its full length); a tilt or an open door at a station stops that station only; a host
tilt (the ledger) stops every station and cannot be cleared here; the paytable and
limits change only with no round open and every station at zero credits with no payout
pending, by a technician at a station whose door is open.

Errors: every refused operation raises a :class:`MachineError` subclass carrying
``reason`` (also the station's ``message``), ``code`` and ``params``, before any state
changes.  A ledger failure tilts the host (``ledger``) and is raised as
:class:`PlayDisabled`: nothing took effect, since the ledger write comes first.

Threading: one re-entrant lock serialises every operation; subscribers are called under
it and must only note that the snapshots changed.  A decision's exact values are waited
for before the lock is taken.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, overload

from pydantic import JsonValue

from devices.host import DeviceEvent
from engine.rng import RandomSource, SystemRandomSource
from engine.uth.paytable import Limits, Paytable, PaytableError
from kiosk.config import CabinetConfig
from kiosk.game import commands as cmd
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import MachineError, PlayDisabled
from kiosk.game.paytables.first_paytable import first_paytable
from kiosk.game.round_values import VALUE_WAIT_S, SeatValues
from kiosk.game.rules.lockout import PinLockout
from kiosk.game.vocabulary import LEDGER_TILT
from kiosk.ledger.errors import LedgerCorruptError, LedgerError
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import RoundRecord
from kiosk.ledger.startup import open_or_create
from kiosk.ledger.witness import counter_from_spec, witness_power_down, witness_power_up
from kiosk.link.messages import PrintTicket
from kiosk.link.outcomes import MoneyOutcome
from kiosk.service.audit import Audit
from kiosk.service.device_commands import (
    AskingCommand,
    Command,
    CountingCommand,
    DeviceReport,
    MoneyCommand,
    NamingCommand,
    ProbeLedger,
    QuietCommand,
    SetTablePaytable,
    StopStation,
)
from kiosk.service.dispatch import Outcome, Parts, dispatch
from kiosk.service.display import StationStatus, TableSnapshot, station_statuses, table_snapshot
from kiosk.service.locks import Locks
from kiosk.service.money_in import MoneyIn
from kiosk.service.operators import Operators
from kiosk.service.payouts import Payouts
from kiosk.service.play import TablePlay
from kiosk.service.progressive_recall import with_progressive
from kiosk.service.restore import restore_table, stopped_state, tilt_on_anchor_failure
from kiosk.service.settings import Settings
from kiosk.service.slot_system import SlotSystem
from kiosk.service.snapshot import StationSnapshot, station_snapshot
from kiosk.service.state import HeldTicket, PendingPayout, Session, Station
from kiosk.service.timing import Clock, TableTiming
from kiosk.subscribers import Subscribers

if TYPE_CHECKING:
    from engine.maths.decision_values import DecisionValues

log = logging.getLogger(__name__)
T = TypeVar("T")


class Table:
    """The game service (thread-safe).  Construct with :meth:`open`; ``Table(config,
    ledger, stations)`` on an opened, verified ledger rebuilds the same state."""

    def __init__(
        self,
        config: CabinetConfig,
        ledger: Ledger | None,
        stations: Iterable[int] = (1,),
        *,
        rng: RandomSource | None = None,
        clock: Clock | None = None,
        timing: TableTiming | None = None,
        ticks: Callable[[], float] = time.monotonic,
        fault: str = "",
    ) -> None:
        self.config = config
        self.clock: Clock = clock or (lambda: datetime.now(UTC))
        self._lock = threading.RLock()
        self._subscribers: Subscribers[[]] = Subscribers()
        timing = timing or TableTiming()
        if ledger is None:
            self._state = stopped_state(config, self.clock, stations, timing, fault)
        else:
            self._state = restore_table(config, ledger, self.clock, stations, timing)
        self._state.ticks = ticks
        st = self._state
        self._play = TablePlay(st, rng or SystemRandomSource())
        self._payouts = Payouts(st)
        self._system = SlotSystem(st, self._payouts)
        self._money = MoneyIn(st, self._system)
        self._operators = Operators(st, self._play, self._payouts)
        self._settings = Settings(st)
        self._audit = Audit(st)
        self._parts = Parts(
            st,
            self._play,
            self._money,
            self._payouts,
            self._operators,
            self._settings,
            self._system,
            Locks(st, self._operators),
        )
        self._paytable_text: tuple[str, str] | None = None  # see paytable_in_force()
        #: Test credits outside demo mode: a technician's burn-in session (its runner sets it).
        self.burn_in = False
        if st.ledger is not None:
            self._play.start_values()  # a resumed round's values
            self._play.start_timer()  # a resumed round's phase starts its full timer again
            tilt_on_anchor_failure(st)

    # -- opening and closing -------------------------------------------------------------
    @classmethod
    def open(
        cls,
        config: CabinetConfig,
        stations: Iterable[int] = (1,),
        *,
        rng: RandomSource | None = None,
        clock: Clock | None = None,
        timing: TableTiming | None = None,
        ticks: Callable[[], float] = time.monotonic,
    ) -> Table:
        """Open the ledger (created on a first run only, with the first paytable held to
        the RTP bounds; an installed machine never creates one), verify it at power-up
        (the latest signed checkpoint and the rows since), rebuild the state, record the
        power up and resume an unfinished round.  Raises :class:`LedgerError` (or
        :class:`PaytableError` on a first run) when that cannot be done: see
        :meth:`open_or_stop` for a service that comes up stopped instead."""
        ledger, created = open_or_create(
            config.db_path,
            config.marker_path,
            paytable=lambda: first_paytable(config),
            machine_number=config.machine_number,
            casino_name=config.casino_name,
            key_path=config.key_path,
            anchor_path=config.anchor_file,
            installed=config.installed,
            counter_file=config.counter_file,
            seed_progressive=config.progressive_link is None,
        )
        try:
            report = ledger.verify_power_up()
            if not report.ok:
                raise LedgerCorruptError(report.problem)
            table = cls(config, ledger, stations, rng=rng, clock=clock, timing=timing, ticks=ticks)
            table._power_up(created)
        except (LedgerError, sqlite3.Error, ValueError, KeyError):
            ledger.close()
            raise
        return table

    @classmethod
    def open_or_stop(
        cls,
        config: CabinetConfig,
        stations: Iterable[int] = (1,),
        *,
        rng: RandomSource | None = None,
        clock: Clock | None = None,
        timing: TableTiming | None = None,
        ticks: Callable[[], float] = time.monotonic,
    ) -> Table:
        """:meth:`open`, or, when the ledger is missing, corrupt or tampered (or the first
        paytable cannot be read), a service that refuses everything, stopped in the
        ``ledger`` tilt with the reason: the ledger is never recreated or repaired."""
        try:
            return cls.open(config, stations, rng=rng, clock=clock, timing=timing, ticks=ticks)
        except (LedgerError, sqlite3.Error, ValueError, KeyError) as exc:
            if isinstance(exc, PaytableError):  # a first run: no ledger was created
                reason = f"PAYTABLE FAULT - play stopped: {exc}"
            else:
                reason = f"LEDGER FAULT - play stopped: {getattr(exc, 'reason', None) or exc!r}"
            log.error(reason)
            return cls(
                config,
                None,
                stations,
                rng=rng,
                clock=clock,
                timing=timing,
                ticks=ticks,
                fault=reason,
            )

    def _power_up(self, created: bool) -> None:
        st = self._state
        ledger = st.require_ledger()
        with self._lock:
            last = ledger.last_event()
            detail = {
                "clean_shutdown": last is not None and last.kind == EventKind.POWER_DOWN,
                "created": created,
                "machine_number": self.config.machine_number,
                "stations": sorted(st.stations),
            }
            with ledger.transaction():
                st.event(EventKind.POWER_UP, detail, 1)
                if st.round_open:
                    assert st.round is not None
                    st.event(
                        EventKind.ROUND_RESUMED,
                        {"phase": st.round.phase.value},
                        1,
                        round_id=st.round_id,
                    )
            if st.round_open:
                for number in st.round.seats if st.round is not None else ():
                    if number in st.stations:
                        st.stations[number].message = (
                            "A round was interrupted by a power failure and resumes where it "
                            "stopped."
                        )
            self._operators.power_up()
            if self.config.witness_counter is not None:  # after power_up: it reads the last event
                witness_power_up(ledger, counter_from_spec(self.config.witness_counter))

    def close(self) -> None:
        """Record an orderly power down and close the ledger."""
        with self._lock:
            st = self._state
            if st.ledger is not None:
                try:
                    if self.config.witness_counter is not None:
                        witness_power_down(
                            st.ledger, counter_from_spec(self.config.witness_counter)
                        )
                    st.event(EventKind.POWER_DOWN, {}, 1)
                except (LedgerError, sqlite3.Error) as exc:
                    log.error("could not record power down: %s", exc)
                st.ledger.close()
                st.ledger = None
                st.table_tilts.setdefault(LEDGER_TILT, "the machine is shut down")

    # -- the front door ------------------------------------------------------------------
    # The overloads only say, per kind of command, which of the outcomes it gets (one
    # implementation, one door); a caller holding any :data:`Command` gets an
    # :data:`Outcome`.
    @overload
    def execute(self, station: int, command: QuietCommand, *, at: int | None = None) -> None: ...
    @overload
    def execute(self, station: int, command: NamingCommand, *, at: int | None = None) -> str: ...
    @overload
    def execute(self, station: int, command: CountingCommand, *, at: int | None = None) -> int: ...
    @overload
    def execute(self, station: int, command: AskingCommand, *, at: int | None = None) -> bool: ...
    @overload
    def execute(
        self, station: int, command: MoneyCommand, *, at: int | None = None
    ) -> MoneyOutcome: ...
    @overload
    def execute(
        self, station: int, command: cmd.CashOut, *, at: int | None = None
    ) -> PendingPayout: ...
    @overload
    def execute(
        self, station: int, command: cmd.SetPaytable | SetTablePaytable, *, at: int | None = None
    ) -> dict[str, str]: ...
    @overload
    def execute(
        self, station: int, command: cmd.ExportPaytable, *, at: int | None = None
    ) -> list[Path]: ...
    @overload
    def execute(self, station: int, command: Command, *, at: int | None = None) -> Outcome: ...

    def execute(self, station: int, command: Command, *, at: int | None = None) -> Outcome:
        """Carry out ``command`` for ``station`` under the lock (timers are run first);
        ``at`` is the station whose logged-in operator answers for it (default: the same
        station).  Returns what the operation returns (the payout for :class:`CashOut`,
        the role for :class:`OperatorLogin`, a ticket's amount for
        :class:`AcceptTicket`...: :mod:`kiosk.service.dispatch`); a refusal raises a
        :class:`MachineError` subclass before any state changes, an object that is no
        :data:`Command` a :class:`TypeError`.  A device's reports and a printer's come
        through here too: every change of the game goes through one door."""
        values = self._values_for(station, command)
        with self._lock:
            try:
                self._tick()
                st = self._state
                own = st.station(station)
                answering = station if at is None else at
                st.station(answering)
                if type(command).__module__ == cmd.__name__:  # the screens' own commands
                    own.message = ""
                try:
                    result = dispatch(
                        self._parts, station, answering, command, values, burn_in=self.burn_in
                    )
                except MachineError as exc:
                    own.message = exc.reason
                    raise
                except (LedgerError, sqlite3.Error) as exc:
                    reason = f"ledger write failed: {exc}"
                    log.error(reason)
                    st.table_tilts[LEDGER_TILT] = reason
                    own.message = reason
                    raise PlayDisabled(reason, code=ErrorCode.LEDGER_FAULT) from exc
                self._operators.touch(answering)
                return result
            finally:
                self._notify()

    def _values_for(self, station: int, command: object) -> DecisionValues | None:
        """A decision's exact values, waited for (at most ``VALUE_WAIT_S`` seconds)
        before the lock is taken, None when none are computed; values that arrive after
        the round moved on belong to another decision and are dropped by the round."""
        if not isinstance(command, cmd.Decide):
            return None
        with self._lock:
            found = self._play.values_for(station)
        if found is None:
            return None
        values, phase = found
        ready = values.get(phase, VALUE_WAIT_S)
        with self._lock:
            rnd = self._state.round
            return ready if rnd is not None and rnd.phase is phase else None

    def tick(self) -> None:
        """Run the timers: close an expired betting window, time out the seats still to
        decide when the phase's timer has run out."""
        with self._lock:
            try:
                self._tick()
            finally:
                self._notify()

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` after every operation and timer run (under the lock: it
        should only note that the snapshots changed); returns an unsubscribe function."""
        return self._subscribers.add(callback)

    def _notify(self) -> None:
        self._subscribers.notify()

    def _tick(self) -> None:
        st = self._state
        if st.table_tilts or st.ledger is None:
            return
        self._system.expire()
        now = st.now()
        if st.betting_deadline is not None and now >= st.betting_deadline and not st.round_open:
            self._play.window_expired()
        if st.round_open and st.decision_deadline is not None and now >= st.decision_deadline:
            self._play.expire_timer()

    # -- devices -----------------------------------------------------------------------
    def device_report(self, station: int, event: DeviceEvent) -> None:
        """What ``station``'s device reported (:class:`DeviceReport`)."""
        self.execute(station, DeviceReport(event))

    def ledger_can_record(self, station: int) -> bool:
        """Probe the ledger before ``station``'s validator is enabled (:class:`ProbeLedger`)."""
        return bool(self.execute(station, ProbeLedger()))

    def tilt(self, station: int, code: str, message: str) -> None:
        """Stop ``station`` with a tilt (recorded); the other stations play on."""
        self.execute(station, StopStation(code, message))

    def table_tilt(self, code: str, message: str) -> None:
        """Stop every station (a fault of the whole table: the program, the ledger)."""
        with self._lock:
            try:
                self._state.table_tilt(code, message)
            finally:
                self._notify()

    def gate(self, code: str, message: str | None) -> None:
        """Hold every station back, saying ``message`` (None: let them play): a state of
        this power-up, not a fault, so not recorded (the paytable's return computing)."""
        with self._lock:
            if message is None:
                self._state.table_tilts.pop(code, None)
            else:
                self._state.table_tilts[code] = message
            self._notify()

    def printer_ready(self, station: int) -> bool:
        """Whether ``station``'s ticket printer has reported it can print."""
        with self._lock:
            return self._state.station(station).printer

    def fresh_print_order(self, station: int) -> PrintTicket | None:
        """The order to print ``station``'s ticket numbered since its cash-out (by the
        casino's system), once; None otherwise."""
        with self._lock:
            return self._payouts.fresh_order(station)

    def print_order(self, station: int, resume: bool = False) -> PrintTicket | None:
        """The order to print ``station``'s pending cash-out ticket, if one is pending."""
        with self._lock:
            return self._payouts.print_order(station, resume)

    def end_session(self, station: int, reason: str) -> None:
        """End ``station``'s operator session, if any (its link went: ``reason``)."""
        with self._lock:
            try:
                self._operators.logout(station, reason)
            except (MachineError, LedgerError, sqlite3.Error) as exc:
                log.warning("station %d: operator session end not recorded: %s", station, exc)

    def record(self, station: int, *events: tuple[EventKind, Mapping[str, object]]) -> None:
        """Record ``events`` (kind, detail) about ``station`` in one transaction; they
        change no state (an operator's action, with the person)."""
        with self._lock:
            st = self._state
            with st.require_ledger_open().transaction():
                for kind, detail in events:
                    st.event(kind, detail, station)

    # -- reading -------------------------------------------------------------------------
    def snapshot(self, station: int) -> StationSnapshot:
        """What station ``station``'s screen shows now (one consistent moment)."""
        with self._lock:
            return station_snapshot(self._state, station, self._play.offers(station))

    def display(self) -> TableSnapshot:
        """What the dealer display shows now."""
        with self._lock:
            return table_snapshot(self._state)

    def statuses(self) -> tuple[StationStatus, ...]:
        """Every station's credits, tilts, door and payout (the operator menu)."""
        with self._lock:
            return station_statuses(self._state)

    def tilt_texts(self, station: int) -> dict[str, str]:
        """``station``'s standing tilts and the host's, code -> text."""
        with self._lock:
            return self._state.tilts_of(station)

    def decision_values(self, station: int) -> SeatValues | None:
        """The exact values of ``station``'s decisions in the round open (computed by the
        values worker from the deal on), None when none are computed."""
        with self._lock:
            found = self._play.values_for(station)
        return None if found is None else found[0]

    def held_ticket(self, station: int) -> HeldTicket | None:
        """The ticket of another machine ``station`` holds for the casino's system."""
        with self._lock:
            return self._system.held_ticket(station)

    def redemption(self, station: int, txn: str) -> tuple[str, str, int] | None:
        """How the system's redemption of ``txn`` at ``station`` stands (state, ticket
        number, cents), None when the system was never asked about it."""
        with self._lock:
            return self._system.redemption(station, txn)

    def pending_payout(self, station: int) -> PendingPayout | None:
        """``station``'s payout in progress, if any."""
        with self._lock:
            return self._state.station(station).payout

    def slot_system_use(self) -> tuple[bool, bool]:
        """Whether the casino's system numbers this machine's tickets, and redeems other
        machines' tickets here."""
        with self._lock:
            return self._state.system_validation, self._state.system_redemption

    def use_slot_system(self, validation: bool, redemption: bool) -> None:
        """The casino's system numbers this machine's tickets (``validation``) and
        redeems other machines' tickets here (``redemption``)."""
        with self._lock:
            self._state.system_validation = validation
            self._state.system_redemption = redemption

    def station_tilts(self, station: int) -> dict[str, str]:
        """``station``'s own standing tilts (not the host's), code -> text."""
        with self._lock:
            return dict(self._state.station(station).tilts)

    def session(self, station: int) -> Session | None:
        """The operator logged in at ``station``, if any."""
        with self._lock:
            return self._operators.session(station)

    def station_state(self, station: int) -> Station:
        """Station ``station``'s state (read-only use, under :attr:`lock`)."""
        return self._state.station(station)

    @property
    def lock(self) -> threading.RLock:
        """The service's lock, for a caller that reads several things at one moment."""
        return self._lock

    @property
    def audit(self) -> Audit:
        """The ledger's reports: verification, meters, events, export, hold (each read
        under the service's lock by its caller's choice: :meth:`read`)."""
        return self._audit

    def read(self, what: Callable[[Audit], T]) -> T:
        """``what(audit)`` under the lock: one consistent read of the ledger."""
        with self._lock:
            return what(self._audit)

    def ledger_head(self) -> dict[str, JsonValue] | None:
        """The ledger's signed head after its last commit (JSON object; see
        :mod:`kiosk.station.witness`), None while no ledger is open."""
        with self._lock:
            ledger = self._state.ledger
            if ledger is None:
                return None
            return dict(json.loads(ledger.head().to_json()))

    def recall(self, last: int = 10, station: int | None = None) -> list[RoundRecord]:
        """The last ``last`` rounds' rows, most recent first: the table's, or only
        ``station``'s seat (with the dealer); each with its seat's progressive."""
        with self._lock:
            ledger = self._state.ledger
            if ledger is None:
                return []
            return with_progressive(ledger, ledger.recall(last, station=station))

    def open_escrows(self, station: int) -> list[str]:
        """The transactions of ``station``'s notes accepted and not yet finished."""
        with self._lock:
            return [e.txn for e in self._state.station(station).escrows.open()]

    def meter_readings(self, station: int | None = None) -> dict[str, int]:
        """The table's meters, or ``station``'s (cents or counts)."""
        with self._lock:
            ledger = self._state.ledger
            if ledger is None:
                return {}
            return (
                dict(ledger.meters) if station is None else ledger.station_meter_readings(station)
            )

    @property
    def stations(self) -> tuple[int, ...]:
        return tuple(sorted(self._state.stations))

    @property
    def limits(self) -> Limits:
        return self._state.limits

    @property
    def paytable(self) -> Paytable:
        """The paytable in force."""
        return self._state.paytable

    @property
    def coach(self) -> bool:
        return self._state.coach

    @property
    def lockout(self) -> PinLockout:
        """The PIN pad's and the accounts' locks (the whole table's)."""
        return self._state.lockout

    def credits(self, station: int) -> int:
        with self._lock:
            return self._state.credits(station)

    @property
    def ledger(self) -> Ledger | None:
        return self._state.ledger

    def paytable_in_force(self) -> tuple[str, str] | None:
        """The paytable in force as ``(sha256, toml)``, its text as the ledger keeps it
        (read from the ledger once per paytable; None when the ledger has no text for
        it)."""
        with self._lock:
            st = self._state
            sha = st.paytable.sha256
            if self._paytable_text is None or self._paytable_text[0] != sha:
                text = st.ledger.paytable_text(sha) if st.ledger is not None else None
                if text is None:
                    return None
                self._paytable_text = (sha, text)
            return self._paytable_text
