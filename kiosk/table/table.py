"""The table host's in-process API: one Ultimate Texas Hold'em round for up to seven
player stations, one ledger for all of them.

Headless (no pygame, no network): a station's screen, a network link and the tests all
drive the same :class:`Table`.  Money is integer cents everywhere.

Life cycle::

    table = Table.open(config, stations=(1, 2, 3), clock=clock)
    table.execute(2, InsertCredits(5000, "bill:5000"))   # in process: both phases at once;
    table.execute(2, AcceptEscrow("s2-t", 5000))         # a validator's note is two-phase
    table.execute(2, SettleEscrow("s2-t", "stacked"))    # (kiosk.table.escrows): recorded,
                                                         # then credited once
    table.execute(2, PlaceChip("ante", 500))
    table.execute(2, Deal())          # or Pass(); the window closes when all are done
    table.tick()                      # the host's timers: call it often (e.g. 10 Hz)
    table.execute(2, Decide(Action.CHECK))
    table.snapshot(2)                 # countdowns, the seats' status, the timeout notice
    table.execute(2, CashOut())       # a ticket when its printer is ready (kiosk.table.tickets)

Rules the table enforces:

* between rounds a **betting window** opens with the first chip or Deal
  (:attr:`TableTiming.betting_seconds`, no countdown at a table of one station, whose
  window is "Deal pressed"); it closes early when every station with credits that may
  play has pressed Deal or Pass; stations without an Ante sit the round out;
* one deck deals every seat from fixed positions (the engine's layout); every seat's row
  and the deck's commitment are committed in one transaction before any card is shown;
* decisions run in parallel within each phase's **decision timer**
  (:attr:`TableTiming.decision_seconds`); when it runs out each seat still to decide
  checks before the river and folds on it, recorded as a ``decision_timed_out`` event;
  the phase moves on when every seat has decided;
* one transaction settles every seat with the engine's one ``settle()``;
* a tilt or open door at a station stops that station only (its seat times out); a
  host tilt (the ledger) stops the table;
* the paytable and limits change only with no round open and every station at zero
  credits with no payout pending;
* after a power cut the open round resumes exactly (same deck, bets and decisions) and
  the phase's timer starts again at its full length.

Threading: one re-entrant lock serialises every operation.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from devices.host import ONE_SHOT_KINDS, EventKind, make_event
from engine.rng import RandomSource, SystemRandomSource
from engine.uth.paytable import Limits, Paytable, load_paytable
from kiosk.config import CabinetConfig
from kiosk.ledger.errors import LedgerCorruptError, LedgerError
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import RoundRecord
from kiosk.ledger.startup import open_or_create
from kiosk.link.messages import PrintTicket
from kiosk.machine import commands as cmd
from kiosk.machine.errors import ConfigurationError, MachineError, WrongState
from kiosk.machine.state import DEVICE_TILT_PREFIX, LEDGER_TILT
from kiosk.subscribers import Subscribers
from kiosk.table.commands import Pass
from kiosk.table.display import StationStatus, TableSnapshot, station_statuses, table_snapshot
from kiosk.table.escrows import (
    AcceptEscrow,
    SettleEscrow,
    TableEscrows,
    TestCredits,
    burn_in_credits,
)
from kiosk.table.paytable_change import SetTablePaytable, change_paytable
from kiosk.table.play import TablePlay
from kiosk.table.restore import restore_table
from kiosk.table.snapshot import StationSnapshot, station_snapshot
from kiosk.table.state import PendingPayout
from kiosk.table.tickets import AcceptTicket, ReportPrint, SetPrinter, TableTickets
from kiosk.table.timing import Clock, TableTiming

log = logging.getLogger(__name__)

Handler = Callable[[int, Any], object]


class Table:
    """The table host (thread-safe).  Construct with :meth:`open`; ``Table(config,
    ledger, stations)`` on an opened, verified ledger rebuilds the same state."""

    def __init__(
        self,
        config: CabinetConfig,
        ledger: Ledger,
        stations: Iterable[int] = (1,),
        *,
        rng: RandomSource | None = None,
        clock: Clock | None = None,
        timing: TableTiming | None = None,
    ) -> None:
        self.config = config
        self.clock: Clock = clock or (lambda: datetime.now(UTC))
        self._lock = threading.RLock()
        self._subscribers: Subscribers[[]] = Subscribers()
        self._state = restore_table(config, ledger, self.clock, stations, timing or TableTiming())
        self._play = TablePlay(self._state, rng or SystemRandomSource())
        self._play.start_timer()  # a resumed round's phase starts its full timer again
        self._escrows = TableEscrows(self._state)
        self._tickets = TableTickets(self._state, self._escrows)
        self._handlers = self._handler_map()
        self._paytable_text: tuple[str, str] | None = None  # see paytable_in_force()

    @classmethod
    def open(
        cls,
        config: CabinetConfig,
        stations: Iterable[int] = (1,),
        *,
        rng: RandomSource | None = None,
        clock: Clock | None = None,
        timing: TableTiming | None = None,
    ) -> Table:
        """Open the table's ledger (created on a first run only), verify it at power-up
        and rebuild the table; an unfinished round resumes.  Raises
        :class:`LedgerCorruptError` for a ledger that does not verify."""
        ledger, created = open_or_create(
            config.db_path,
            config.marker_path,
            paytable=lambda: load_paytable(config.paytable),
            machine_number=config.machine_number,
            casino_name=config.casino_name,
            key_path=config.key_path,
            anchor_path=config.anchor_file,
        )
        try:
            report = ledger.verify_power_up()
            if not report.ok:
                raise LedgerCorruptError(report.problem)
            table = cls(config, ledger, stations, rng=rng, clock=clock, timing=timing)
        except (LedgerError, sqlite3.Error, ValueError, KeyError):
            ledger.close()
            raise
        table._power_up(created)
        return table

    def _power_up(self, created: bool) -> None:
        st = self._state
        with self._lock:
            detail = {"created": created, "stations": sorted(st.stations), "table": True}
            with st.require_ledger().transaction():
                st.event("power_up", detail, 1)
                if st.round_open:
                    assert st.round is not None
                    st.event(
                        "round_resumed", {"phase": st.round.phase.value}, 1, round_id=st.round_id
                    )

    def close(self) -> None:
        """Record an orderly power down and close the ledger."""
        with self._lock:
            st = self._state
            if st.ledger is not None:
                try:
                    st.event("power_down", {}, 1)
                except (LedgerError, sqlite3.Error) as exc:
                    log.error("could not record power down: %s", exc)
                st.ledger.close()
                st.ledger = None
                st.host_tilts.setdefault(LEDGER_TILT, "the table is shut down")

    def _handler_map(self) -> dict[type, Handler]:
        """Each command type -> what carries it out for the station it comes from."""
        play = self._play
        return {
            cmd.PlaceChip: lambda n, c: play.add_chip(n, c.spot, c.cents),
            cmd.ClearBets: lambda n, c: play.clear_bets(n),
            cmd.RepeatBets: lambda n, c: play.repeat_bets(n),
            cmd.Deal: lambda n, c: play.press_deal(n),
            Pass: lambda n, c: play.press_pass(n),
            cmd.Decide: lambda n, c: play.decide(n, c.action),
            cmd.InsertCredits: lambda n, c: self._insert_credits(n, c.cents, c.source),
            AcceptEscrow: lambda n, c: self._escrows.accept(n, c.txn, c.cents),
            SettleEscrow: lambda n, c: self._escrows.settle(n, c),
            AcceptTicket: lambda n, c: self._tickets.accept(n, c.txn, c.validation),
            ReportPrint: lambda n, c: self._tickets.report(n, c),
            SetPrinter: lambda n, c: self._set_printer(n, c.ready),
            TestCredits: lambda n, c: burn_in_credits(self._state, n, c.cents, c.txn, c.operator),
            cmd.CashOut: lambda n, c: self._cash_out(n),
            cmd.HandpayReset: lambda n, c: self._handpay_reset(n),
            cmd.SetDoor: lambda n, c: self._door(n, c.open),
            cmd.ClearTilt: lambda n, c: self._clear_tilt(n, c.code),
            cmd.SetLimits: lambda n, c: self._set_limits(n, c),
            SetTablePaytable: lambda n, c: change_paytable(self._state, n, c),
        }

    # -- the front door ------------------------------------------------------------------
    def execute(self, station: int, command: object) -> object:
        """Carry out ``command`` for ``station`` under the table lock (timers are run
        first).  Returns what the operation returns (the payout for :class:`CashOut`);
        a refusal raises a :class:`MachineError` subclass before any state changes."""
        handler = self._handlers.get(type(command))
        if handler is None:
            raise TypeError(f"not a table command: {command!r}")
        with self._lock:
            try:
                self._tick()
                station_state = self._state.station(station)
                try:
                    result = handler(station, command)
                except MachineError as exc:
                    station_state.message = exc.reason
                    raise
                station_state.message = ""
                return result
            finally:
                self._notify()

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
        if st.host_tilts or st.ledger is None:
            return
        now = st.now()
        if st.betting_deadline is not None and now >= st.betting_deadline and not st.round_open:
            self._play.window_expired()
        if st.round_open and st.decision_deadline is not None and now >= st.decision_deadline:
            self._play.expire_timer()

    # -- money ------------------------------------------------------------------------------
    def _insert_credits(self, station: int, cents: int, source: str) -> str:
        """Credits keyed in at ``station``: ``"bill:<cents>"``, a note, through the same two
        phases as a validator's (:class:`AcceptEscrow`, then :class:`SettleEscrow`
        stacked), in one transaction; ``"test:<cents>"``, a burn-in's test credits
        (``test_credits_in``, never bills in; see :func:`~kiosk.table.escrows.burn_in_credits`)."""
        st = self._state
        st.require_playable(station)
        if not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0:
            raise MachineError(f"credits are a positive whole number of cents, not {cents!r}")
        if source == f"test:{cents}":
            return burn_in_credits(st, station, cents)
        if source != f"bill:{cents}":
            raise MachineError(
                f"a table station takes bills or test credits here, not {source!r}",
                code="bad_credit_source",
            )
        txn = f"insert-{uuid.uuid4().hex[:16]}"
        with st.require_ledger().transaction():
            self._escrows.accept(station, txn, cents, supersede=False)
            return self._escrows.settle(station, SettleEscrow(txn, "stacked", "insert"))

    def _cash_out(self, station: int) -> PendingPayout:
        """Every credit of ``station`` into a payout: a ticket when its printer is ready,
        else a handpay an attendant makes (:mod:`kiosk.table.tickets`)."""
        return self._tickets.cash_out(station)

    def _handpay_reset(self, station: int) -> None:
        self._tickets.handpay_reset(station)

    def printer_ready(self, station: int) -> bool:
        """Whether ``station``'s ticket printer has reported it can print."""
        with self._lock:
            return self._state.station(station).printer

    def print_order(self, station: int, resume: bool = False) -> PrintTicket | None:
        """The order to print ``station``'s pending cash-out ticket, if one is pending."""
        with self._lock:
            return self._tickets.print_order(station, resume)

    # -- tilts, doors and configuration ------------------------------------------------------
    def tilt(self, station: int, code: str, message: str) -> None:
        """Stop ``station`` with a tilt (recorded); the other stations play on."""
        with self._lock:
            self._state.set_tilt(station, code, message)

    def device_report(
        self, station: int, device: str, kind: str, detail: str, active: bool
    ) -> None:
        """What ``station``'s ``device`` reported (``kind`` an :class:`EventKind` value;
        raises ``ValueError`` for another): a kind that tilts stops that station while it
        stands and the device clears it when it ends (one-shot kinds wait for an
        attendant); any other kind is recorded as a device event.  ``host_error`` is
        recorded only: a station's driver callbacks raise on purpose while the host has
        not answered (the driver then retries), which is no fault of the device."""
        event = make_event(device, EventKind(kind), detail[:256], active=active)
        if event.kind is EventKind.HOST_ERROR:
            event = replace(event, tilt=False)
        code = f"{DEVICE_TILT_PREFIX}{device}:{event.kind}"
        with self._lock:
            st = self._state
            own = st.station(station)
            if event.tilt and active:
                if own.tilts.get(code) != event.detail:
                    st.set_tilt(station, code, event.detail)
            elif event.tilt and event.kind not in ONE_SHOT_KINDS:
                if code in own.tilts:
                    st.event("tilt_cleared", {"code": code, "by": "device"}, station)
                    own.tilts.pop(code)
            elif not event.tilt:
                st.event("device", {"device": device, "kind": kind, "detail": event.detail,
                                    "active": active}, station)
            self._notify()

    def host_tilt(self, code: str, message: str) -> None:
        """Stop the whole table (a host or ledger fault)."""
        with self._lock:
            self._state.host_tilt(code, message)

    def _set_printer(self, station: int, ready: bool) -> None:
        self._state.station(station).printer = ready

    def _clear_tilt(self, station: int, code: str) -> None:
        st = self._state
        own = st.station(station)
        if code not in own.tilts:
            raise WrongState(f"no tilt {code!r} at station {station}", code="no_tilt")
        st.event("tilt_cleared", {"code": code}, station)
        own.tilts.pop(code)

    def _door(self, station: int, open: bool) -> None:
        st = self._state
        own = st.station(station)
        if own.door_open != open:
            st.event("door_open" if open else "door_closed", {}, station)
            own.door_open = open

    def _set_limits(self, station: int, c: cmd.SetLimits) -> None:
        """Narrow the table's limits within the paytable's: the door of the station it
        is sent from open, no round, every station at zero credits, no payout pending."""
        st = self._state
        st.require_ledger()
        if not st.station(station).door_open:
            raise WrongState("a limits change needs the main door open", code="door_closed")
        st.require_quiet("the limits change")
        update = {
            k: v
            for k, v in (
                ("ante_min", c.ante_min),
                ("ante_max", c.ante_max),
                ("trips_min", c.trips_min),
                ("trips_max", c.trips_max),
            )
            if v is not None
        }
        try:
            new = Limits.model_validate({**st.limits.model_dump(), **update})
        except ValidationError as exc:
            raise ConfigurationError(exc.errors()[0]["msg"].removeprefix("Value error, ")) from None
        base = st.paytable.limits
        if (
            new.ante_min < base.ante_min
            or new.ante_max > base.ante_max
            or new.trips_min < base.trips_min
            or new.trips_max > base.trips_max
        ):
            raise ConfigurationError("limits must stay within the paytable's")
        detail = {
            "operator": f"station {station}",
            "old": st.limits.model_dump(mode="json"),
            "new": new.model_dump(mode="json"),
        }
        st.event("limits_changed", detail, station)
        st.limits = new

    # -- reading ------------------------------------------------------------------------------
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
        """``station``'s standing tilts, code -> text (the operator menu)."""
        with self._lock:
            return dict(self._state.station(station).tilts)

    def record(self, station: int, *events: tuple[str, dict[str, Any]]) -> None:
        """Record ``events`` (kind, detail) about ``station`` in one transaction; they
        change no state (an operator's login or action, with the person)."""
        with self._lock:
            st = self._state
            with st.require_ledger_open().transaction():
                for kind, detail in events:
                    st.event(kind, detail, station)

    def ledger_head(self) -> dict[str, Any] | None:
        """The ledger's signed head after its last commit (JSON object; see
        :mod:`kiosk.table.witness`), None while no ledger is open."""
        with self._lock:
            ledger = self._state.ledger
            if ledger is None:
                return None
            return dict(json.loads(ledger.head().to_json()))

    def recall(self, last: int = 10, station: int | None = None) -> list[RoundRecord]:
        """The last ``last`` rounds' rows, most recent first: the table's, or only
        ``station``'s seat (with the dealer)."""
        with self._lock:
            ledger = self._state.ledger
            return ledger.recall(last, station=station) if ledger is not None else []

    def open_escrows(self, station: int) -> list[str]:
        """The transactions of ``station``'s notes accepted and not yet finished."""
        with self._lock:
            if self._state.ledger is None:
                return []
            return [e.txn or "" for e in self._escrows.open_escrows(station)]

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
