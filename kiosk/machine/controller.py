"""The cabinet controller: credits, bets, the round in progress, tilts, operators, payouts.

Headless (no pygame, no serial): the kiosk screens, the device drivers, ``uth autoplay``
and the tests all drive the same :class:`Machine`.  One player seat (seat 1 of
:class:`engine.uth.round.UthRound`).  Money is integer cents everywhere.

Life cycle::

    machine = Machine.open(config)        # open/create + verify the ledger, resume a round
    machine.subscribe(on_change)          # on_change(snapshot) after every change
    machine.insert_credits(2000, "bill:2000")
    machine.add_chip("ante", 500); machine.add_chip("trips", 100)
    machine.deal()
    machine.decide(Action.CHECK) ...      # until snapshot().phase is RESULT
    machine.cash_out()                    # through the Payout strategy (handpay for now)

Rules the controller enforces (GLI-11 style):

* every state change of a round in progress is committed to the ledger (one SQLite
  transaction with the meters) *before* it takes effect in memory; on start an
  unfinished round is rebuilt from the stored deck, bets and decisions and resumed;
* no play, no new bets and no bill acceptance while a tilt stands or the door is open;
* paytable and limits change only at zero credits, no round and no payout in
  progress, by a logged-in operator; the change is recorded with old and new values;
* the deck is shuffled with the cabinet's cryptographic generator and its SHA-256
  commitment (salted, :func:`engine.rng.deck_commitment`) is committed before any
  card is shown; the deck and salt are published in the settled round;
* a corrupt, tampered or missing ledger stops the machine with the ``ledger`` tilt,
  which cannot be cleared from here: the ledger is never recreated or repaired.

Credits and bets: chips placed with :meth:`Machine.add_chip` are *pending* and stay on
the credit meter until :meth:`Machine.deal` wagers them (``snapshot().available`` is
credits minus pending chips).  A deal needs credits for Ante + Blind + Trips plus a 1x
Play, so the player can always play at the river; Play 4x / 3x / 2x are offered only
when affordable.  Pending chips are not persisted (nothing was wagered yet).

Errors: every refused operation raises a :class:`MachineError` subclass carrying
``reason`` (also shown as ``snapshot().message``) before any state changes:
:class:`InsufficientCredits`, :class:`BetOutOfLimits`, :class:`PlayDisabled` (tilt,
door, ledger fault), :class:`NotAuthorised`, :class:`WrongState`,
:class:`ConfigurationError`.

Operators log in by PIN (:mod:`kiosk.config` maps PINs to roles): an attendant clears
tilts and keys off handpays; a technician also changes the paytable and limits; a
manager also performs a RAM clear (:meth:`Machine.ram_clear_request` then
:meth:`Machine.ram_clear` with the code it returned), which voids an open round,
removes the credits and clears tilts but keeps the history and the lifetime meters.

A win of ``config.jackpot_limit_cents`` or more is not credited: it is recorded as a
jackpot handpay and the machine tilts (``jackpot``) until an attendant clears it.

Devices: :class:`Machine` implements :class:`devices.host.ValidatorHost` (escrow
decision, ``bill_credited`` exactly once per transaction id, ticket escrow and
redemption, device events as tilts).  Cash-out goes through a :class:`Payout` strategy
(:class:`HandpayPayout`, or :class:`kiosk.hardware.ticket_payout.TicketPayout` for the ticket
printer): :meth:`Machine.cash_out` moves the credits into a pending payout; the strategy
(or the attendant, for a handpay) finishes it with :meth:`Machine.payout_complete`,
:meth:`Machine.payout_failed` or :meth:`Machine.payout_to_handpay`.

TITO on one cabinet: the ledger keeps every ticket issued (``tickets``).  A ticket is
written *pending* before it is printed (:meth:`Machine.issue_ticket`), becomes *issued*
when the printer reports its validation number done, *void* when it was not printed or
cannot be known printed (then a handpay pays it), and *redeemed* once when it comes back
through the validator for its own amount (:meth:`Machine.ticket_escrow` /
:meth:`Machine.ticket_credited`).  A returned ticket is logged with the reason.

Threading: one re-entrant lock serialises every operation (the UI thread, the
validator's poll thread, the printer strategy's thread); subscribers are called under
it and must only record that a new snapshot is waiting.  Nothing in the machine calls
a device while holding the lock (a payout strategy's ``start`` only queues the job).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from devices.validation import new_validation_number
from engine.errors import IllegalActionError
from engine.money import format_cents as money
from engine.rng import RandomSource, SystemRandomSource, shuffled_deck
from engine.uth.paytable import Limits, Paytable, load_paytable
from engine.uth.round import PLAY_MULTIPLE, Action, Phase, UthRound
from kiosk.config import CabinetConfig, role_at_least
from kiosk.ledger.ledger import (
    CREDITS,
    Ledger,
    LedgerCorruptError,
    LedgerError,
    RoundRecord,
    TicketRecord,
    dumps,
    open_or_create,
    utc_stamp,
)
from kiosk.machine import commands as cmd
from kiosk.machine.commands import Command
from kiosk.machine.credits_in import DeviceHostMixin
from kiosk.machine.operation import _operation
from kiosk.machine.operators import OperatorMixin
from kiosk.machine.rows import dealt_columns, replay_round, settled_columns
from kiosk.machine.types import (
    BOUNDED_RTPS,
    DEVICE_TILT_PREFIX,
    JACKPOT_TILT,
    LEDGER_TILT,
    RAM_CLEAR_CODE_SECONDS,
    SEAT,
    TICKET_TILT,
    ActionOffer,
    BetOutOfLimits,
    ConfigurationError,
    HandpayPayout,
    InsufficientCredits,
    MachineError,
    MachinePhase,
    MachineSnapshot,
    NotAuthorised,
    Payout,
    PayoutRequest,
    PlayDisabled,
    Spot,
    TicketRefused,
    Tilt,
    WrongState,
)

log = logging.getLogger(__name__)

__all__ = [
    "money",
    "BOUNDED_RTPS",
    "BetOutOfLimits",
    "ConfigurationError",
    "DEVICE_TILT_PREFIX",
    "HandpayPayout",
    "InsufficientCredits",
    "JACKPOT_TILT",
    "LEDGER_TILT",
    "Machine",
    "MachineError",
    "MachinePhase",
    "MachineSnapshot",
    "NotAuthorised",
    "Payout",
    "PayoutRequest",
    "PlayDisabled",
    "RAM_CLEAR_CODE_SECONDS",
    "SEAT",
    "Spot",
    "TICKET_TILT",
    "TicketRefused",
    "Tilt",
    "WrongState",
    "dealt_columns",
    "replay_round",
    "settled_columns",
]


# -- the controller ---------------------------------------------------------------------------
class Machine(DeviceHostMixin, OperatorMixin):
    """The cabinet controller (thread-safe: device drivers call it from their threads).

    Construct with :meth:`open`; ``Machine(config, ledger)`` on an already opened and
    verified ledger rebuilds the same state (credits, paytable, limits, tilts, door,
    pending payout, and the open round replayed from its deck, bets and decisions).
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
        self.ledger = ledger
        self.rng: RandomSource = rng or SystemRandomSource()
        self.clock = clock or (lambda: datetime.now(UTC))
        self.payout: Payout = payout or HandpayPayout()
        self._lock = threading.RLock()
        self._subscribers: list[Callable[[MachineSnapshot], None]] = []
        self._message = ""
        self._tilts: dict[str, str] = {}
        self._door_open = False
        self._operator: str | None = None
        self._pending = {"ante": 0, "trips": 0}
        self._last_bets = (0, 0)
        self._round: UthRound | None = None  # current or last round (for display)
        self._round_id: int | None = None
        self._round_open = False
        self._commitment: str | None = None
        self._jackpot = 0
        self._show_result = False
        self._cashout: PayoutRequest | None = None
        self._ticket_holds: dict[str, str] = {}  # validator transaction -> ticket in escrow
        self._ram_code: tuple[str, float] | None = None
        self._paytable: Paytable
        self._limits: Limits
        if ledger is None:
            self._tilts[LEDGER_TILT] = fault or "the ledger is not available"
            self._paytable = load_paytable(config.paytable)
            self._limits = self._paytable.limits
        else:
            self._load(ledger)

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        config: CabinetConfig,
        rng: RandomSource | None = None,
        clock: Callable[[], datetime] | None = None,
        payout: Payout | None = None,
    ) -> Machine:
        """Open the ledger (created on a first run only), verify it (integrity check, both
        hash chains, meters against the rows: O(rounds), about 15-40 us a round), rebuild
        the state, record power up and resume an unfinished round.

        A missing, corrupt or tampered ledger does not raise: the machine comes up in the
        ``ledger`` tilt with the reason as its message, and refuses everything.
        """
        ledger = None
        try:
            ledger, created = open_or_create(
                config.db_path,
                config.marker_path,
                paytable=lambda: load_paytable(config.paytable),
                machine_number=config.machine_number,
                casino_name=config.casino_name,
            )
            report = ledger.verify(
                decks=False
            )  # decks are in the chained rows; audit re-checks them
            if not report.ok:
                raise LedgerCorruptError(report.problem)
            machine = cls(config, ledger, rng, clock, payout)
            machine._power_up(created)
        except (LedgerError, sqlite3.Error, ValueError, KeyError) as exc:
            if ledger is not None:
                ledger.close()
            reason = f"LEDGER FAULT - play stopped: {getattr(exc, 'reason', None) or exc!r}"
            log.error(reason)
            return cls(config, None, rng, clock, payout, fault=reason)
        return machine

    def _load(self, ledger: Ledger) -> None:
        """Derive the machine state from the (verified) ledger."""
        # paytable and limits in force
        config_event = ledger.last_event("ledger_created", "paytable_changed", "limits_changed")
        table_event = ledger.last_event("ledger_created", "paytable_changed")
        assert config_event is not None and table_event is not None
        sha = table_event.detail.get("paytable") or table_event.detail["new"]["sha256"]
        self._paytable = ledger.paytable(sha)
        self._limits = self._paytable.limits
        if config_event.kind == "limits_changed":
            self._limits = Limits.model_validate(config_event.detail["new"])
        # tilts (machine tilts persist; device tilts are re-reported by the devices)
        for ev in ledger.events(("tilt", "tilt_cleared", "ram_clear")):
            code = ev.detail.get("code", "")
            if ev.kind == "ram_clear":
                self._tilts.clear()
            elif ev.kind == "tilt" and not code.startswith(DEVICE_TILT_PREFIX):
                self._tilts[code] = ev.detail.get("message", "")
            elif ev.kind == "tilt_cleared":
                self._tilts.pop(code, None)
        door = ledger.last_event("door_open", "door_closed")
        self._door_open = door is not None and door.kind == "door_open"
        pay = ledger.last_event("cashout", "handpay", "ticket_out", "cashout_failed")
        if pay is not None and pay.kind == "cashout":
            method = pay.detail["method"]
            if pay.txn and ledger.has_txn(pay.txn, "cashout_handpay"):
                method = "handpay"  # the ticket could not be printed: an attendant pays
            self._cashout = PayoutRequest(pay.txn or "", pay.amount, method, pay.at)
        # the open round, or the last one for display
        row = ledger.open_round
        if row is not None:
            deck, _salt = ledger.recovery_deck(row["id"])
            table = ledger.paytable(row["paytable_sha256"])
            actions = [d[1] for d in json.loads(row["decisions"])]
            try:
                rnd = replay_round(table, deck, row["ante"], row["trips"], actions)
            except IllegalActionError as exc:
                raise LedgerCorruptError(
                    f"the open round cannot be replayed: {exc}", f"rounds {row['id']}"
                ) from None
            if rnd.phase == Phase.SETTLED or rnd.view(SEAT).play != row["play"]:
                raise LedgerCorruptError(
                    "the open round does not replay to its stored state", f"rounds {row['id']}"
                )
            self._round, self._round_id, self._round_open = rnd, row["id"], True
            self._commitment = row["commitment"]
            self._last_bets = (row["ante"], row["trips"])
        else:
            last = ledger.last_settled()
            if last is not None:
                self._last_bets = (last.ante, last.trips)
                self._round_id, self._commitment, self._jackpot = (
                    last.id,
                    last.commitment,
                    last.jackpot,
                )
                if last.state == "settled":
                    table = ledger.paytable(last.paytable_sha256)
                    self._round = replay_round(
                        table, last.deck, last.ante, last.trips, [d.action for d in last.decisions]
                    )

    def _power_up(self, created: bool) -> None:
        assert self.ledger is not None
        with self._lock:
            last = self.ledger.last_event()
            clean = last is not None and last.kind == "power_down"
            with self.ledger.transaction():
                self._event(
                    "power_up",
                    {
                        "clean_shutdown": clean,
                        "created": created,
                        "machine_number": self.config.machine_number,
                    },
                )
                if self._round_open:
                    assert self._round is not None
                    self._event(
                        "round_resumed", {"phase": self._round.phase.value}, round_id=self._round_id
                    )
            if self._round_open:
                self._message = (
                    "A round was interrupted by a power failure and resumes where it stopped."
                )
            if self._cashout is not None:
                self._resume_payout(self._cashout)

    def _resume_payout(self, request: PayoutRequest) -> None:
        """A payout was pending at power-up.  A ticket whose row was written may have
        been printed, or half printed: its validation number is voided and the cash-out
        becomes a handpay (never printed twice, never paid twice).  Otherwise the
        strategy resumes it (a ticket not yet issued is printed now)."""
        assert self.ledger is not None
        if request.method == "ticket":
            ticket = self.ledger.ticket_for_cashout(request.transaction_id)
            if ticket is not None:
                self.payout_to_handpay(
                    request.transaction_id,
                    f"power lost while printing ticket #{ticket.sequence} "
                    f"(validation {ticket.validation}): the number is void",
                )
                self._message = "The cash-out was interrupted: an attendant will pay you."
                return
        elif request.method != self.payout.method:
            return  # a handpay: the attendant finishes it
        try:
            self.payout.resume(self, request)
        except MachineError as exc:
            log.error("payout %s could not be resumed: %s", request.transaction_id, exc.reason)

    def close(self) -> None:
        """Record an orderly power down and close the ledger."""
        with self._lock:
            if self.ledger is not None:
                try:
                    self._event("power_down", {})
                except (LedgerError, sqlite3.Error) as exc:
                    log.error("could not record power down: %s", exc)
                self.ledger.close()
                self.ledger = None
                self._tilts.setdefault(LEDGER_TILT, "the machine is shut down")

    # -- commands ----------------------------------------------------------------------------
    def execute(self, command: Command) -> object:
        """Carry out one :mod:`kiosk.machine.commands` command through the handler map.

        Returns what the operation returns (the role for :class:`OperatorLogin`, the code
        for :class:`RamClearRequest`, the payout for :class:`CashOut`, else ``None``);
        a refusal raises a :class:`MachineError` subclass before any state changes."""
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise TypeError(f"not a machine command: {command!r}")
        return handler(self, command)

    # -- reading -------------------------------------------------------------------------------
    @property
    def credits(self) -> int:
        with self._lock:
            return self.ledger.meters[CREDITS] if self.ledger is not None else 0

    def snapshot(self) -> MachineSnapshot:
        with self._lock:
            rnd = self._round
            credits = self.credits
            pending = self._pending["ante"] + self._pending["trips"]
            hole: tuple[int, ...] = ()
            board: tuple[int, ...] = ()
            dealer: tuple[int, ...] = ()
            ante = blind = trips = play = 0
            result = None
            if rnd is not None:
                view = rnd.view(SEAT)
                hole, board = view.hole, view.board
                ante = blind = view.ante
                trips, play = view.trips, view.play
                result = rnd.outcome()
                if result is not None:
                    dealer = result.dealer_hole
            if self._cashout is not None:
                phase = MachinePhase.CASHOUT
            elif self._round_open:
                phase = MachinePhase.IN_ROUND
            elif self._show_result:
                phase = MachinePhase.RESULT
            elif credits or pending:
                phase = MachinePhase.BETTING
            else:
                phase = MachinePhase.IDLE
            return MachineSnapshot(
                credits=credits,
                available=credits - pending,
                bet_ante=self._pending["ante"],
                bet_trips=self._pending["trips"],
                phase=phase,
                game_phase=rnd.phase if rnd is not None else None,
                round_id=self._round_id,
                hole=hole,
                board=board,
                dealer=dealer,
                ante=ante,
                blind=blind,
                trips=trips,
                play=play,
                legal=self._legal(),
                last_result=result,
                tilts=tuple(Tilt(c, m) for c, m in self._tilts.items()),
                door_open=self._door_open,
                operator=self._operator,
                paytable=self._paytable,
                limits=self._limits,
                message=self._message,
                cashout=self._cashout,
                commitment=self._commitment,
                jackpot=self._jackpot,
                offers=self._offers(),
            )

    def _legal(self) -> tuple[Action, ...]:
        if not self._round_open or self._tilts or self._door_open or self._round is None:
            return ()
        ante = self._round.view(SEAT).ante
        credits = self.credits
        return tuple(
            a for a in self._round.legal_actions(SEAT) if PLAY_MULTIPLE.get(a, 0) * ante <= credits
        )

    def _offers(self) -> tuple[ActionOffer, ...]:
        if self._round is None:
            return ()
        ante = self._round.view(SEAT).ante
        return tuple(ActionOffer(a, PLAY_MULTIPLE.get(a, 0) * ante) for a in self._legal())

    def subscribe(self, callback: Callable[[MachineSnapshot], None]) -> Callable[[], None]:
        """Call ``callback(snapshot)`` after every operation; returns an unsubscribe function."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def _notify(self) -> None:
        if not self._subscribers:
            return
        snap = self.snapshot()
        for callback in list(self._subscribers):
            try:
                callback(snap)
            except Exception:  # a screen bug must not stop the machine
                log.exception("subscriber failed")

    def recall(self, last: int = 10) -> list[RoundRecord]:
        """The last ``last`` rounds, most recent first (the open one shows no deck)."""
        with self._lock:
            return self.ledger.recall(last) if self.ledger is not None else []

    # -- guards ------------------------------------------------------------------------------------
    def _stamp(self) -> str:
        return utc_stamp(self.clock())

    def _event(self, kind: str, detail: dict[str, Any], **kw: Any) -> int:
        assert self.ledger is not None
        return self.ledger.event(kind, detail=detail, at=self._stamp(), **kw)

    def _require_ledger(self) -> Ledger:
        if self.ledger is None or LEDGER_TILT in self._tilts:
            raise PlayDisabled(
                self._tilts.get(LEDGER_TILT, "the ledger is not available"), code="ledger_fault"
            )
        return self.ledger

    def _require_playable(self) -> Ledger:
        ledger = self._require_ledger()
        if self._tilts:
            code, message = next(iter(self._tilts.items()))
            raise PlayDisabled(
                f"machine tilted ({code}): {message}", code="tilted", params={"tilt": code}
            )
        if self._door_open:
            raise PlayDisabled("the door is open", code="door_open")
        return ledger

    def _require_role(self, role: str) -> None:
        if self._operator is None:
            raise NotAuthorised("an operator must log in first", code="operator_required")
        if not role_at_least(self._operator, role):
            raise NotAuthorised(
                f"this needs a {role} (logged in: {self._operator})",
                code="role_required",
                params={"role": role},
            )

    def _require_quiet(self, what: str) -> None:
        """Zero credits, no round, no payout: the only time the configuration may change."""
        if self._round_open:
            raise WrongState(f"{what} only between rounds", code="round_in_progress")
        if self._cashout is not None:
            raise WrongState(f"{what} not while a payout is pending", code="payout_in_progress")
        if self.credits:
            raise WrongState(
                f"{what} only with zero credits (now {money(self.credits)})",
                code="credits_on_meter",
                params={"credits": self.credits},
            )

    def _set_tilt(self, code: str, message: str) -> None:
        self._event("tilt", {"code": code, "message": message})
        self._tilts[code] = message

    # -- bets ------------------------------------------------------------------------------------------
    @_operation
    def add_chip(self, spot: Spot, cents: int) -> None:
        """Add a chip of ``cents`` to the Ante (the Blind follows) or Trips spot."""
        self._require_playable()
        self._require_between_rounds()
        if spot not in self._pending:
            raise MachineError(f"unknown spot {spot!r} (ante or trips)")
        if not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0:
            raise BetOutOfLimits(f"a chip is a positive whole number of cents, not {cents!r}")
        ante, trips = self._pending["ante"], self._pending["trips"]
        if spot == "ante":
            ante += cents
        else:
            trips += cents
        self._check_bets(ante, trips, complete=False)
        self._pending[spot] += cents
        self._show_result = False

    @_operation
    def clear_bets(self) -> None:
        self._require_between_rounds()
        self._pending = {"ante": 0, "trips": 0}
        self._show_result = False

    @_operation
    def repeat_bets(self) -> None:
        """Place the previous round's Ante and Trips again."""
        self._require_playable()
        self._require_between_rounds()
        ante, trips = self._last_bets
        if not ante:
            raise WrongState("there is no previous bet to repeat", code="no_previous_bet")
        self._check_bets(ante, trips, complete=True)
        self._pending = {"ante": ante, "trips": trips}
        self._show_result = False

    def _require_between_rounds(self) -> None:
        if self._round_open:
            raise WrongState("the round is in progress", code="round_in_progress")
        if self._cashout is not None:
            raise WrongState("a payout is in progress", code="payout_in_progress")

    def _check_bets(self, ante: int, trips: int, complete: bool) -> None:
        lim = self._limits
        if ante > lim.ante_max:
            raise BetOutOfLimits(
                f"the Ante maximum is {money(lim.ante_max)}",
                params={"rule": "ante_max", "cents": lim.ante_max},
            )
        if trips > lim.trips_max:
            raise BetOutOfLimits(
                f"the Trips maximum is {money(lim.trips_max)}",
                params={"rule": "trips_max", "cents": lim.trips_max},
            )
        if ante % lim.ante_step:
            raise BetOutOfLimits(
                f"the Ante goes in steps of {money(lim.ante_step)}",
                params={"rule": "ante_step", "cents": lim.ante_step},
            )
        if complete:
            if ante < lim.ante_min:
                raise BetOutOfLimits(
                    f"the Ante minimum is {money(lim.ante_min)}",
                    params={"rule": "ante_min", "cents": lim.ante_min},
                )
            if trips and trips < lim.trips_min:
                raise BetOutOfLimits(
                    f"the Trips minimum is {money(lim.trips_min)}",
                    params={"rule": "trips_min", "cents": lim.trips_min},
                )
        need = 3 * ante + trips  # Ante + Blind + Trips + a 1x Play
        if need > self.credits:
            raise InsufficientCredits(
                f"{money(need)} needed (Ante, Blind, Trips and a 1x Play); credits {money(self.credits)}",
                params={"needed": need, "credits": self.credits},
            )

    # -- the round -------------------------------------------------------------------------------------
    @_operation
    def deal(self) -> None:
        """Wager the pending chips and deal.  The bets and the deck commitment are committed
        to the ledger before any card is shown."""
        ledger = self._require_playable()
        self._require_between_rounds()
        ante, trips = self._pending["ante"], self._pending["trips"]
        if not ante:
            raise BetOutOfLimits("place an Ante first", params={"rule": "no_ante"})
        self._check_bets(ante, trips, complete=True)
        deck = shuffled_deck(self.rng)
        salt = bytes(self.rng.randbelow(256) for _ in range(16))
        try:
            rnd = replay_round(self._paytable, deck, ante, trips, ())
        except IllegalActionError as exc:
            raise BetOutOfLimits(exc.reason) from None
        round_id = ledger.begin_round(dealt_columns(rnd, self.credits, self._stamp()), deck, salt)
        assert ledger.open_round is not None
        self._round, self._round_id, self._round_open = rnd, round_id, True
        self._commitment = ledger.open_round["commitment"]
        self._jackpot = 0
        self._last_bets = (ante, trips)
        self._pending = {"ante": 0, "trips": 0}
        self._show_result = False

    @_operation
    def decide(self, action: Action) -> None:
        """The player's decision; the last one settles the round (all in one transaction)."""
        ledger = self._require_playable()
        if not self._round_open or self._round is None:
            raise WrongState("no round in progress", code="no_round")
        try:
            action = Action(action)
        except ValueError:
            raise WrongState(f"unknown action {action!r}") from None
        rnd = self._round
        if action not in rnd.legal_actions(SEAT):
            legal = ", ".join(a.value for a in rnd.legal_actions(SEAT))
            raise WrongState(
                f"{action.value} is not allowed now ({legal})",
                code="action_not_allowed",
                params={"action": action.value},
            )
        if action not in self._legal():
            raise InsufficientCredits(
                f"not enough credits for {action.value}", params={"action": action.value}
            )
        row = ledger.open_round
        assert row is not None
        decisions = json.loads(row["decisions"])
        actions = [d[1] for d in decisions] + [action.value]
        new = replay_round(self._paytable_of(row), rnd.deck, row["ante"], row["trips"], actions)
        view = new.view(SEAT)
        decisions.append([rnd.phase.value, action.value, view.play, self._stamp()])
        staked = row["ante"] + row["blind"] + row["trips"] + view.play
        changes: dict[str, Any] = {
            "play": view.play,
            "decisions": dumps(decisions),
            "credits_after": row["credits_before"] - staked,
        }
        result = new.outcome()
        jackpot = 0
        with ledger.transaction():
            if result is not None:
                changes.update(
                    settled_columns(
                        result,
                        row["credits_before"],
                        decisions[-1][3],
                        self.config.jackpot_limit_cents,
                    )
                )
                jackpot = changes["jackpot"]
            ledger.update_round(changes)
            if jackpot:
                self._set_tilt(
                    JACKPOT_TILT, f"Jackpot {money(jackpot)}: an attendant pays it by hand"
                )
        self._round = new
        if result is not None:
            self._round_open = False
            self._show_result = True
            self._jackpot = jackpot
            if jackpot:
                self._message = f"JACKPOT {money(jackpot)} - call an attendant"

    def _paytable_of(self, row: dict[str, Any]) -> Paytable:
        if row["paytable_sha256"] == self._paytable.sha256:
            return self._paytable
        assert self.ledger is not None
        return self.ledger.paytable(row["paytable_sha256"])

    # -- cash out ------------------------------------------------------------------------------------------
    @_operation
    def cash_out(self) -> PayoutRequest:
        """Take every credit off the meter into a payout (recorded), then start the payout
        strategy.  Allowed while tilted (the player's money is never held), not in a round."""
        ledger = self._require_ledger()
        if self._round_open:
            raise WrongState("finish the round before cashing out", code="round_in_progress")
        if self._cashout is not None:
            raise WrongState("a payout is already in progress", code="payout_in_progress")
        amount = self.credits
        if amount <= 0:
            raise InsufficientCredits("there are no credits to cash out", code="no_credits")
        txn = str(uuid.uuid4())
        at = self._stamp()
        ledger.event(
            "cashout", amount=amount, txn=txn, at=at, detail={"method": self.payout.method}
        )
        request = PayoutRequest(txn, amount, self.payout.method, at)
        self._cashout = request
        self._pending = {"ante": 0, "trips": 0}
        self._show_result = False
        self.payout.start(self, request)
        return request

    @_operation
    def payout_complete(self, transaction_id: str, reference: str = "") -> None:
        """The payout strategy finished ``transaction_id`` (``reference``: the ticket's
        validation number, or the attendant for a handpay).  Idempotent.

        For a ticket this is the moment the credits are paid: call it only when the
        printer reported the validation number printed.  The ticket's row (written
        *pending* by :meth:`issue_ticket` before printing, or created now) becomes
        ``issued``; a voided validation number is never completed."""
        self._finish_payout(transaction_id, reference)

    def _finish_payout(self, transaction_id: str, reference: str) -> None:
        ledger = self._require_ledger()
        req = self._cashout
        if req is None or req.transaction_id != transaction_id:
            if ledger.has_txn(transaction_id, "handpay") or ledger.has_txn(
                transaction_id, "ticket_out"
            ):
                return
            raise WrongState(f"no payout {transaction_id} is pending", code="no_payout_pending")
        if req.method == "ticket":
            issued = ledger.ticket_for_cashout(transaction_id)
            if not (len(reference) == 18 and reference.isascii() and reference.isdigit()):
                raise WrongState(
                    f"a ticket payout completes with its 18-digit validation number, not {reference!r}",
                    code="bad_reference",
                )
            if issued is not None and (
                issued.validation != reference or issued.status != "pending"
            ):
                raise WrongState(
                    f"payout {transaction_id} issued ticket {issued.validation} ({issued.status}): "
                    f"{reference} cannot complete it",
                    code="bad_reference",
                )
        kind = "ticket_out" if req.method == "ticket" else "handpay"
        self._event(
            kind,
            {"reference": reference, "operator": self._operator},
            amount=req.amount,
            txn=transaction_id,
        )
        self._cashout = None

    @_operation
    def payout_failed(self, transaction_id: str, reason: str) -> None:
        """The payout did not happen: the credits go back on the meter.  For a ticket:
        only when the printer reported it *not* printed; its validation number, if one
        was issued, is voided in the same transaction."""
        ledger = self._require_ledger()
        req = self._cashout
        if req is None or req.transaction_id != transaction_id:
            raise WrongState(f"no payout {transaction_id} is pending", code="no_payout_pending")
        with ledger.transaction():
            self._void_ticket_of(transaction_id, f"not printed: {reason}")
            self._event("cashout_failed", {"reason": reason}, amount=req.amount, txn=transaction_id)
        self._cashout = None

    def _void_ticket_of(self, transaction_id: str, reason: str) -> TicketRecord | None:
        """Void the ticket issued for the cash-out ``transaction_id`` if it is pending;
        returns that ticket (None if none was issued)."""
        assert self.ledger is not None
        ticket = self.ledger.ticket_for_cashout(transaction_id)
        if ticket is not None and ticket.status == "pending":
            self._event(
                "ticket_void",
                {"validation": ticket.validation, "reason": reason},
                amount=ticket.amount,
                txn=transaction_id,
            )
        return ticket

    @_operation
    def issue_ticket(self, transaction_id: str) -> TicketRecord:
        """Record the ticket of the pending ticket cash-out ``transaction_id`` -- a fresh
        validation number, the next sequence number, the expiry -- with status
        ``pending``, *before* it is printed.  One ticket per cash-out: a second call is
        refused (a validation number is never printed twice)."""
        ledger = self._require_ledger()
        req = self._cashout
        if req is None or req.transaction_id != transaction_id or req.method != "ticket":
            raise WrongState(
                f"no ticket payout {transaction_id} is pending", code="no_payout_pending"
            )
        issued = ledger.ticket_for_cashout(transaction_id)
        if issued is not None:
            raise WrongState(
                f"ticket {issued.validation} was already issued for {transaction_id} "
                f"({issued.status}): a cash-out prints one ticket",
                code="ticket_already_issued",
            )
        now = self.clock()
        days = self.config.ticket_expiry_days
        expires = (now.date() + timedelta(days=days)).isoformat() if days else None
        number = new_validation_number(ledger.validation_taken)
        self._event(
            "ticket_issue",
            {
                "validation": number,
                "sequence": ledger.next_ticket_sequence(),
                "expires_on": expires,
                "machine_number": self.config.machine_number,
            },
            amount=req.amount,
            txn=transaction_id,
        )
        ticket = ledger.ticket(number)
        assert ticket is not None
        return ticket

    @_operation
    def payout_to_handpay(self, transaction_id: str, reason: str) -> None:
        """Turn the pending ticket cash-out into a handpay: its ticket (if issued and
        still pending) is voided, so a ticket that did come out cannot be redeemed, and
        an attendant pays the amount (:meth:`handpay_reset`).  Used when the printer
        cannot say whether it printed (outcome unknown, power cut mid-print).  Idempotent."""
        ledger = self._require_ledger()
        req = self._cashout
        if req is None or req.transaction_id != transaction_id:
            if ledger.has_txn(transaction_id, "cashout_handpay"):
                return
            raise WrongState(f"no payout {transaction_id} is pending", code="no_payout_pending")
        if req.method == "handpay":
            return
        with ledger.transaction():
            ticket = self._void_ticket_of(transaction_id, reason)
            if ticket is not None and ticket.status not in ("pending", "void"):
                raise WrongState(
                    f"ticket {ticket.validation} is {ticket.status}: the payout is not a handpay",
                    code="bad_reference",
                )
            self._event(
                "cashout_handpay",
                {"reason": reason, "validation": ticket.validation if ticket else None},
                amount=req.amount,
                txn=transaction_id,
            )
        self._cashout = replace(req, method="handpay")
        log.warning("payout %s is now a handpay: %s", transaction_id, reason)

    @_operation
    def handpay_reset(self) -> None:
        """The attendant has paid the pending handpay: record it and unlock the machine."""
        self._require_role("attendant")
        req = self._cashout
        if req is None or req.method != "handpay":
            raise WrongState("no handpay is pending", code="no_payout_pending")
        self._finish_payout(req.transaction_id, f"attendant:{self._operator}")


_HANDLERS: dict[type, Callable[[Machine, Any], object]] = {
    cmd.PlaceChip: lambda m, c: m.add_chip(c.spot, c.cents),
    cmd.ClearBets: lambda m, c: m.clear_bets(),
    cmd.RepeatBets: lambda m, c: m.repeat_bets(),
    cmd.Deal: lambda m, c: m.deal(),
    cmd.Decide: lambda m, c: m.decide(c.action),
    cmd.CashOut: lambda m, c: m.cash_out(),
    cmd.InsertCredits: lambda m, c: m.insert_credits(c.cents, c.source),
    cmd.BillCredited: lambda m, c: m.bill_credited(c.denomination_cents, c.transaction_id),
    cmd.OperatorLogin: lambda m, c: m.operator_login(c.pin),
    cmd.OperatorLogout: lambda m, c: m.operator_logout(),
    cmd.ClearTilt: lambda m, c: m.clear_tilt(c.code),
    cmd.SetDoor: lambda m, c: m.door(c.open),
    cmd.HandpayReset: lambda m, c: m.handpay_reset(),
    cmd.SetPaytable: lambda m, c: m.set_paytable(c.path),
    cmd.SetLimits: lambda m, c: m.set_limits(
        ante_min=c.ante_min, ante_max=c.ante_max, trips_min=c.trips_min, trips_max=c.trips_max
    ),
    cmd.RamClearRequest: lambda m, c: m.ram_clear_request(),
    cmd.RamClear: lambda m, c: m.ram_clear(c.confirm_code),
}
