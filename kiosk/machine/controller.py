"""The cabinet controller: the facade the screens, the devices and the CLI drive.

Headless (no pygame, no serial): the kiosk screens, the device drivers, ``uth autoplay``
and the tests all drive the same :class:`Machine`.  One player seat (seat 1 of
:class:`engine.uth.round.UthRound`).  Money is integer cents everywhere.

Life cycle::

    machine = Machine.open(config)        # open/create + verify the ledger, resume a round
    machine.subscribe(on_change)          # on_change(snapshot) after every change
    machine.execute(InsertCredits(2000, "bill:2000"))
    machine.execute(PlaceChip("ante", 500)); machine.execute(PlaceChip("trips", 100))
    machine.execute(Deal())
    machine.execute(Decide(Action.CHECK)) ...  # until snapshot().phase is RESULT
    machine.execute(CashOut())            # through the Payout strategy (handpay by default)

Each command (:mod:`kiosk.machine.commands`) also has a named method
(``machine.add_chip("ante", 500)``) that sends it.  :meth:`Machine.execute`'s handler
map names the part that carries out each command; the parts each own one concept and
share one :class:`~kiosk.machine.state.CabinetState`:

* :mod:`~kiosk.machine.betting`: chips on the spots, the one limits check;
* :mod:`~kiosk.machine.round_play`: the deal, the decisions, settlement, jackpots;
* :mod:`~kiosk.machine.payouts`: the cash-out state machine and tickets out;
* :mod:`~kiosk.machine.credits_in`: bills, tickets in, device events;
* :mod:`~kiosk.machine.operators`: tilts, the door, operator login, RAM clear;
* :mod:`~kiosk.machine.settings`: paytable and limit changes.

Rules the controller enforces (GLI-11 style):

* every state change of a round in progress is committed to the ledger (one SQLite
  transaction with the meters) *before* it takes effect in memory; on start an
  unfinished round is rebuilt from its deck and the engine's records
  (:mod:`kiosk.machine.restore`) and resumed;
* no play, no new bets and no bill acceptance while a tilt stands or the door is open;
* paytable and limits change only at zero credits, no round and no payout in
  progress, by a logged-in operator; the change is recorded with old and new values;
* the deck's salted SHA-256 commitment is committed before any card is shown;
* a corrupt, tampered or missing ledger stops the machine with the ``ledger`` tilt,
  which cannot be cleared from here: the ledger is never recreated or repaired.

Errors: every refused operation raises a :class:`MachineError` subclass
(:mod:`kiosk.machine.errors`) carrying ``reason`` (also shown as
``snapshot().message``), ``code`` and ``params``, before any state changes.

Devices: :class:`Machine` implements :class:`devices.host.ValidatorHost` and, for the
payout strategy (:class:`~kiosk.machine.payout_strategy.Payout`),
:class:`~kiosk.machine.payout_strategy.PayoutHost`.

Threading: one re-entrant lock serialises every operation (the UI thread, the
validator's poll thread, the printer strategy's thread); subscribers are called under
it and must only record that a new snapshot is waiting.  Nothing in the machine calls
a device while holding the lock (a payout strategy's ``start`` only queues the job).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from devices.host import DeviceEvent
from engine.money import format_cents as money
from engine.rng import RandomSource, SystemRandomSource
from engine.uth.paytable import PAYTABLE_DIR, Paytable, PaytableError, load_paytable
from engine.uth.round import Action
from kiosk.config import CabinetConfig
from kiosk.ledger.errors import LedgerCorruptError, LedgerError
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import EventRecord, RoundRecord, TicketRecord, VerifyReport
from kiosk.ledger.startup import open_or_create
from kiosk.ledger.witness import counter_from_spec, witness_power_down, witness_power_up
from kiosk.machine import commands as cmd
from kiosk.machine.audit import Audit, tilt_on_anchor_failure
from kiosk.machine.betting import Betting
from kiosk.machine.commands import Command
from kiosk.machine.credits_in import CreditsIn
from kiosk.machine.errors import (
    BetOutOfLimits,
    ConfigurationError,
    InsufficientCredits,
    MachineError,
    NotAuthorised,
    PlayDisabled,
    TicketRefused,
    WrongState,
)
from kiosk.machine.first_paytable import first_paytable
from kiosk.machine.hold import PaytableHold, ledger_hold
from kiosk.machine.operation import operation
from kiosk.machine.operators import RAM_CLEAR_CODE_SECONDS, Operators
from kiosk.machine.payout_strategy import HandpayPayout, Payout, PayoutHost
from kiosk.machine.payouts import Payouts
from kiosk.machine.paytable_export import export_paytable
from kiosk.machine.restore import restore
from kiosk.machine.round_play import RoundPlay
from kiosk.machine.rows import dealt_columns, settled_columns
from kiosk.machine.settings import BOUNDED_RTPS, Settings
from kiosk.machine.snapshot import (
    ActionOffer,
    MachinePhase,
    MachineSnapshot,
    PayoutRequest,
    Tilt,
)
from kiosk.machine.state import (
    DEVICE_TILT_PREFIX,
    JACKPOT_TILT,
    LEDGER_TILT,
    SEAT,
    TICKET_TILT,
    CabinetState,
    Spot,
)
from kiosk.machine.view import snapshot_of
from kiosk.subscribers import Subscribers

log = logging.getLogger(__name__)

__all__ = [  # the controller's vocabulary, for the screens, the CLI and the tools
    "money", "ActionOffer", "BOUNDED_RTPS", "BetOutOfLimits", "ConfigurationError",
    "DEVICE_TILT_PREFIX", "HandpayPayout", "InsufficientCredits", "JACKPOT_TILT",
    "LEDGER_TILT", "Machine", "MachineError", "MachinePhase", "MachineSnapshot",
    "NotAuthorised", "Payout", "PayoutHost", "PayoutRequest", "PlayDisabled",
    "RAM_CLEAR_CODE_SECONDS", "SEAT", "Spot", "TICKET_TILT", "TicketRefused", "Tilt",
    "WrongState", "dealt_columns", "settled_columns",
]

Handler = Callable[[Any], object]


def _table_without_ledger(config: CabinetConfig) -> tuple[Paytable, str]:
    """The paytable a machine with no ledger shows (it refuses all play): the
    configured one, or when that cannot be read the shipped standard table, with the
    reason as the second item (empty when the configured one was read)."""
    try:
        return load_paytable(config.paytable), ""
    except PaytableError as exc:
        fallback = load_paytable(PAYTABLE_DIR / "standard.toml")
        return fallback, f"PAYTABLE FAULT - play stopped: {exc}"


class Machine:
    """The cabinet controller (thread-safe: device drivers call it from their threads).

    Construct with :meth:`open`; ``Machine(config, ledger)`` on an already opened and
    verified ledger rebuilds the same state (credits, paytable, limits, tilts, door,
    pending payout, and the open round replayed from its records).
    """

    def __init__(
        self,
        config: CabinetConfig,
        ledger: Ledger | None,
        rng: RandomSource | None = None,
        clock: Callable[[], datetime] | None = None,
        payout: Payout | None = None,
        *,
        fault: str = "",
    ) -> None:
        self.config = config
        self.rng: RandomSource = rng or SystemRandomSource()
        self.clock: Callable[[], datetime] = clock or (lambda: datetime.now(UTC))
        self._lock = threading.RLock()
        self._subscribers: Subscribers[[MachineSnapshot]] = Subscribers()
        if ledger is None:
            table, problem = _table_without_ledger(config)
            self._state = CabinetState(config, None, self.clock, table, table.limits)
            self._state.tilts[LEDGER_TILT] = fault or problem or "the ledger is not available"
        else:
            self._state = restore(config, ledger, self.clock)
        st = self._state
        self._betting = Betting(st)
        self._round = RoundPlay(st, self._betting, self.rng)
        self._payouts = Payouts(st, payout or HandpayPayout(), self)
        self._credits_in = CreditsIn(st)
        self._settings = Settings(st)
        self._operators = Operators(st, self._round, self._payouts)
        self._audit = Audit(st)
        tilt_on_anchor_failure(st)
        self._handlers = self._handler_map()

    def _handler_map(self) -> dict[type, Handler]:
        """Each command type -> the part that carries it out."""
        betting, rnd, payouts = self._betting, self._round, self._payouts
        credits, ops, settings = self._credits_in, self._operators, self._settings

        def door_change(what: str, change: Callable[[], None]) -> None:
            """Paytable and limits: a technician, with the main door open."""
            ops.require_door_change("technician", what)
            change()

        return {
            cmd.PlaceChip: lambda c: betting.add_chip(c.spot, c.cents),
            cmd.ClearBets: lambda c: betting.clear_bets(),
            cmd.RepeatBets: lambda c: betting.repeat_bets(),
            cmd.Deal: lambda c: rnd.deal(),
            cmd.Decide: lambda c: rnd.decide(c.action),
            cmd.CashOut: lambda c: payouts.cash_out(),
            cmd.HandpayReset: lambda c: payouts.handpay_reset(),
            cmd.InsertCredits: lambda c: credits.insert_credits(c.cents, c.source),
            cmd.BillCredited: lambda c: credits.bill_stacked(
                c.denomination_cents, c.transaction_id
            ),
            cmd.OperatorLogin: lambda c: ops.login(c.pin),
            cmd.OperatorLogout: lambda c: ops.logout(),
            cmd.ClearTilt: lambda c: ops.clear_tilt(c.code),
            cmd.SetDoor: lambda c: ops.door(c.open),
            cmd.RamClearWitness: lambda c: ops.ram_clear_witness(c.pin),
            cmd.RamClearRequest: lambda c: ops.ram_clear_request(),
            cmd.RamClear: lambda c: ops.ram_clear(c.confirm_code),
            cmd.SetPaytable: lambda c: door_change(
                "a paytable change", lambda: settings.set_paytable(c.path)
            ),
            cmd.SetLimits: lambda c: door_change(
                "a limits change",
                lambda: settings.set_limits(
                    ante_min=c.ante_min,
                    ante_max=c.ante_max,
                    trips_min=c.trips_min,
                    trips_max=c.trips_max,
                ),
            ),
            cmd.SetStrategyCoach: lambda c: settings.set_coach(c.on),
            cmd.ExportPaytable: lambda c: export_paytable(self._state, c.path, c.folder, c.stem),
        }

    # -- opening and closing ---------------------------------------------------------------
    @classmethod
    def open(
        cls,
        config: CabinetConfig,
        rng: RandomSource | None = None,
        clock: Callable[[], datetime] | None = None,
        payout: Payout | None = None,
    ) -> Machine:
        """Open the ledger (created on a first run only), verify it (the latest signed
        checkpoint and the rows since: :mod:`kiosk.ledger.powerup`), rebuild
        the state, record power up and resume an unfinished round.

        A missing, corrupt or tampered ledger does not raise: the machine comes up in the
        ``ledger`` tilt with the reason as its message, and refuses everything.
        """
        ledger = None
        try:
            ledger, created = open_or_create(
                config.db_path,
                config.marker_path,
                paytable=lambda: first_paytable(config),
                machine_number=config.machine_number,
                casino_name=config.casino_name,
                key_path=config.key_path,
                anchor_path=config.anchor_file,
                installed=config.installed,
            )
            # bounded by the latest checkpoint; `uth audit verify` walks every row
            report = ledger.verify_power_up()
            if not report.ok:
                raise LedgerCorruptError(report.problem)
            machine = cls(config, ledger, rng, clock, payout)
            machine._power_up(created)
            if config.witness_counter is not None:  # after power_up: it reads the last event
                witness_power_up(ledger, counter_from_spec(config.witness_counter))
        except (LedgerError, sqlite3.Error, ValueError, KeyError) as exc:
            if ledger is not None:
                ledger.close()
            if isinstance(exc, PaytableError):  # a first run: no ledger was created
                reason = f"PAYTABLE FAULT - play stopped: {exc}"
            else:
                reason = f"LEDGER FAULT - play stopped: {getattr(exc, 'reason', None) or exc!r}"
            log.error(reason)
            return cls(config, None, rng, clock, payout, fault=reason)
        return machine

    def _power_up(self, created: bool) -> None:
        st = self._state
        ledger = st.require_ledger()
        with self._lock:
            last = ledger.last_event()
            clean = last is not None and last.kind == "power_down"
            with ledger.transaction():
                st.event(
                    "power_up",
                    {
                        "clean_shutdown": clean,
                        "created": created,
                        "machine_number": self.config.machine_number,
                    },
                )
                if st.round_open:
                    assert st.round is not None
                    st.event(
                        "round_resumed", {"phase": st.round.phase.value}, round_id=st.round_id
                    )
            if st.round_open:
                st.message = (
                    "A round was interrupted by a power failure and resumes where it stopped."
                )
            self._payouts.resume()
            self._operators.power_up()

    def close(self) -> None:
        """Record an orderly power down and close the ledger."""
        with self._lock:
            st = self._state
            if st.ledger is not None:
                try:
                    if self.config.witness_counter is not None:
                        witness_power_down(st.ledger, counter_from_spec(self.config.witness_counter))
                    st.event("power_down", {})
                except (LedgerError, sqlite3.Error) as exc:
                    log.error("could not record power down: %s", exc)
                st.ledger.close()
                st.ledger = None
                st.tilts.setdefault(LEDGER_TILT, "the machine is shut down")

    # -- the front door ----------------------------------------------------------------------
    def execute(self, command: Command) -> object:
        """Carry out one :mod:`kiosk.machine.commands` command through the handler map,
        under the machine lock; subscribers hear of it afterwards.

        Returns what the operation returns (the role for :class:`OperatorLogin`, the code
        for :class:`RamClearRequest`, the payout for :class:`CashOut`, else ``None``);
        a refusal raises a :class:`MachineError` subclass before any state changes."""
        handler = self._handlers.get(type(command))
        if handler is None:
            raise TypeError(f"not a machine command: {command!r}")
        with operation(self._lock, self._state, self._notify):
            return handler(command)

    def _run(self, work: Callable[[], object]) -> object:
        """An operation that is not a command (device and payout callbacks)."""
        with operation(self._lock, self._state, self._notify):
            return work()

    # -- player and operator operations (each one command) ------------------------------------
    def add_chip(self, spot: Spot, cents: int) -> None:
        """Add a chip of ``cents`` to the Ante (the Blind follows) or Trips spot."""
        self.execute(cmd.PlaceChip(spot, cents))

    def clear_bets(self) -> None:
        self.execute(cmd.ClearBets())

    def repeat_bets(self) -> None:
        """Place the previous round's Ante and Trips again."""
        self.execute(cmd.RepeatBets())

    def deal(self) -> None:
        """Wager the pending chips and deal."""
        self.execute(cmd.Deal())

    def decide(self, action: Action) -> None:
        """The player's decision; the last one settles the round."""
        self.execute(cmd.Decide(action))

    def cash_out(self) -> PayoutRequest:
        """Every credit into a payout through the :class:`Payout` strategy."""
        request = self.execute(cmd.CashOut())
        assert isinstance(request, PayoutRequest)
        return request

    def handpay_reset(self) -> None:
        """The attendant has paid the pending handpay."""
        self.execute(cmd.HandpayReset())

    def insert_credits(self, cents: int, source: str) -> None:
        """Credit ``cents`` from ``source``: ``"bill:<cents>"`` or ``"ticket:<number>"``."""
        self.execute(cmd.InsertCredits(cents, source))

    def operator_login(self, pin: str) -> str:
        """Log an operator in by PIN; returns the role."""
        role = self.execute(cmd.OperatorLogin(pin))
        assert isinstance(role, str)
        return role

    def operator_logout(self) -> None:
        self.execute(cmd.OperatorLogout())

    def clear_tilt(self, code: str) -> None:
        self.execute(cmd.ClearTilt(code))

    def door(self, open: bool) -> None:
        """The main door switch."""
        self.execute(cmd.SetDoor(open))

    def set_paytable(self, path: str | Path) -> None:
        self.execute(cmd.SetPaytable(path))

    def set_limits(
        self,
        *,
        ante_min: int | None = None,
        ante_max: int | None = None,
        trips_min: int | None = None,
        trips_max: int | None = None,
    ) -> None:
        self.execute(cmd.SetLimits(ante_min, ante_max, trips_min, trips_max))

    def ram_clear_witness(self, pin: str) -> str:
        """A second operator's PIN countersigns the manager's RAM clear; their name."""
        name = self.execute(cmd.RamClearWitness(pin))
        assert isinstance(name, str)
        return name

    def ram_clear_request(self) -> str:
        """Step one of a RAM clear (manager, door open, countersigned): the code to
        confirm within two minutes."""
        code = self.execute(cmd.RamClearRequest())
        assert isinstance(code, str)
        return code

    def ram_clear(self, confirm_code: str) -> None:
        """Step two of a RAM clear (manager), with the code step one returned."""
        self.execute(cmd.RamClear(confirm_code))

    def tilt(self, code: str, message: str) -> None:
        """Stop play with a tilt (recorded).  Codes starting ``device:`` are for devices."""
        self._run(lambda: self._operators.tilt(code, message))

    # -- the payout strategy's callbacks (PayoutHost) ------------------------------------------
    @property
    def payout(self) -> Payout:
        """The payout strategy cash-outs go through."""
        return self._payouts.strategy

    @payout.setter
    def payout(self, strategy: Payout) -> None:
        with self._lock:
            self._payouts.strategy = strategy

    def issue_ticket(self, transaction_id: str) -> TicketRecord:
        """Record the ticket of the pending ticket cash-out, *pending*, before printing."""
        ticket = self._run(lambda: self._payouts.issue_ticket(transaction_id))
        assert isinstance(ticket, TicketRecord)
        return ticket

    def payout_complete(self, transaction_id: str, reference: str = "") -> None:
        """The payout happened (``reference``: the ticket's validation number, printed).
        Idempotent."""
        self._run(lambda: self._payouts.complete(transaction_id, reference))

    def payout_failed(self, transaction_id: str, reason: str) -> None:
        """The payout did not happen: the credits go back on the meter."""
        self._run(lambda: self._payouts.fail(transaction_id, reason))

    def payout_to_handpay(self, transaction_id: str, reason: str) -> None:
        """Whether the ticket printed is unknown: it is voided and an attendant pays.
        Idempotent."""
        self._run(lambda: self._payouts.to_handpay(transaction_id, reason))

    # -- the validator's and the printer's callbacks (ValidatorHost) -------------------------
    def escrow_decision(self, denomination_cents: int, transaction_id: str) -> bool:
        """Stack the note in escrow?  Only when playable, accepted and under the limit,
        and once its acceptance is committed."""
        stack = self._run(
            lambda: self._credits_in.escrow_decision(denomination_cents, transaction_id)
        )
        return bool(stack)

    def ledger_can_record(self) -> bool:
        """Probe the ledger before the validator is enabled; when it cannot record, the
        ``ledger_write`` tilt stands and False is returned."""
        return bool(self._run(self._credits_in.check_ledger))

    def bill_stacked(self, denomination_cents: int, transaction_id: str) -> bool:
        """A bill reached the stacker: credit it, once per ``transaction_id`` (False when
        that transaction was already credited)."""
        done = self._run(lambda: self._credits_in.bill_stacked(denomination_cents, transaction_id))
        return bool(done)

    def bill_credited(self, denomination_cents: int, transaction_id: str) -> None:
        self.execute(cmd.BillCredited(denomination_cents, transaction_id))

    def ticket_escrow(self, barcode: str, transaction_id: str) -> int | None:
        """A ticket in the validator's escrow: its amount (cents) to stack, or None."""
        amount = self._run(lambda: self._credits_in.ticket_escrow(barcode, transaction_id))
        assert amount is None or isinstance(amount, int)
        return amount

    def ticket_credited(self, barcode: str, amount_cents: int, transaction_id: str) -> None:
        """The ticket is stacked: redeem it, once per transaction."""
        self._run(
            lambda: self._credits_in.ticket_credited(barcode, amount_cents, transaction_id)
        )

    def escrow_aborted(self, transaction_id: str, reason: str) -> None:
        self._run(lambda: self._credits_in.escrow_aborted(transaction_id, reason))

    def device_event(self, event: DeviceEvent) -> None:
        """A device event: tilting ones tilt / untilt the machine."""
        self._run(lambda: self._credits_in.device_event(event))

    def ticket(self, validation: str) -> TicketRecord | None:
        """The ticket issued here with ``validation`` (any status), None if unknown."""
        with self._lock:
            return self._credits_in.ticket(validation)

    # -- reading -------------------------------------------------------------------------------
    @property
    def ledger(self) -> Ledger | None:
        """The open ledger (None once closed or when it could not be opened)."""
        return self._state.ledger

    @property
    def credits(self) -> int:
        with self._lock:
            return self._state.credits

    def snapshot(self) -> MachineSnapshot:
        """What the screens show now (under the lock: one consistent moment)."""
        with self._lock:
            return snapshot_of(self._state, self._round.offers())

    def subscribe(self, callback: Callable[[MachineSnapshot], None]) -> Callable[[], None]:
        """Call ``callback(snapshot)`` after every operation; returns an unsubscribe function."""
        return self._subscribers.add(callback)

    def _notify(self) -> None:
        if not self._subscribers:
            return
        self._subscribers.notify(self.snapshot())

    def verify_ledger(self, replay: bool = False) -> VerifyReport | None:
        """Verify the whole ledger (``replay``: settle every round again); None when no
        ledger is open."""
        with self._lock:
            return self._audit.verify(replay)

    def meter_readings(self) -> dict[str, int] | None:
        """Every meter by name (cents or counts); None when no ledger is open."""
        with self._lock:
            return self._audit.meters()

    def ledger_events(
        self, kinds: tuple[str, ...] = (), last: int | None = None
    ) -> list[EventRecord]:
        """Recorded events of ``kinds`` (all when empty), the ``last`` ones if given."""
        with self._lock:
            return self._audit.events(kinds, last)

    def ledger_id(self) -> str | None:
        """The ledger's identity; None when no ledger is open."""
        with self._lock:
            return self._audit.ledger_id()

    def export_ledger(self, path: str | Path) -> Path:
        """Export the ledger as JSON to ``path`` (folders created); returns the path.
        Raises :class:`PlayDisabled` without a ledger, ``OSError`` when unwritable."""
        with self._lock:
            return self._audit.export(path)

    def recall(self, last: int = 10) -> list[RoundRecord]:
        """The last ``last`` rounds, most recent first (the open one shows no deck)."""
        with self._lock:
            ledger = self._state.ledger
            return ledger.recall(last) if ledger is not None else []

    def hold(self, since: str | None = None) -> list[PaytableHold]:
        """The hold report of the settled rounds, per paytable (exact RTPs from the PAR
        cache only: a table not computed yet has no report)."""
        with self._lock:
            ledger = self._state.ledger
            return ledger_hold(ledger, since, compute=False) if ledger is not None else []
