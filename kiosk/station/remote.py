"""A player station's end of the shared table: the table host's commands over the link.

:class:`RemoteTable` speaks the cabinet's commands (:mod:`kiosk.game.commands`, plus
:class:`Pass`) and sends each as its link message; it reads the station's
:class:`StationSnapshot` as the host last sent it.  A station holds no money state: its
credits are the host's, shown in the snapshot; only the chips placed before Deal are
kept here, and they are sent as one :class:`~kiosk.link.messages.Bet` on Deal.

Notes are two-phase through the host (:mod:`kiosk.service.escrows`): :meth:`escrow_note`
sends an :class:`~kiosk.link.messages.Escrow` and waits for the host's
:class:`~kiosk.link.messages.EscrowAck` (stack only when accepted); :meth:`report_note`
sends the validator's report as a :class:`~kiosk.link.messages.ValidatorReport` and
waits for the host's answer (an ``EscrowAck`` with its ``outcome``).  :meth:`insert_note`
does both for a station without a validator (the demo keys, the burn-in autoplay).  The
station's door switch (:class:`~kiosk.game.commands.SetDoor`) goes as a
:class:`~kiosk.link.messages.DoorSwitch` and again after every (re)connect.  Tickets go
two-phase too (:meth:`escrow_ticket`: the host answers the ticket's ``amount_cents``);
the host's print orders wait in :attr:`print_orders` (:meth:`next_print_order`) for the
station's printer, which reports with :meth:`printer_ready` (a
:class:`~kiosk.link.messages.PrinterState`) and :meth:`report_print` (a
:class:`~kiosk.link.messages.PrinterReport`, :mod:`kiosk.service.payouts`);
:meth:`test_credits` keys in a burn-in's test credits (a
:class:`~kiosk.link.messages.TestCreditsReport`).

    remote = RemoteTable(StationPairing.load(folder), "10.0.0.2", 7300)
    remote.start()
    remote.wait_for(lambda s: s is not None, 10)
    remote.insert_note(5000, 5.0)                     # a note, two-phase (no validator)
    remote.execute(PlaceChip("ante", 500))            # kept here (checked at once)
    remote.execute(Deal())                            # sent as one Bet
    remote.wait_for(lambda s: s.round_open and bool(s.offers), 10)
    remote.execute(Decide(Action.CHECK))
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future

from devices.host import DeviceEventKind, PrintOutcome
from engine.uth.paytable import Limits, Paytable
from engine.uth.round import Action
from kiosk.game import commands as cmd
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import PlayDisabled, WrongState
from kiosk.game.rules.betting import check_chip, require_ante
from kiosk.game.vocabulary import Bets
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.records import EventRecord, RoundRecord
from kiosk.link.client import LinkClient
from kiosk.link.events import Inbound, LinkEvent
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import (
    Bet,
    Body,
    CashOutRequest,
    ClearTilt,
    Decide,
    DeviceFault,
    DoorSwitch,
    ErrorMessage,
    Escrow,
    EscrowAck,
    HandpayReset,
    OperatorReply,
    OperatorSession,
    PassRound,
    PrinterReport,
    PrinterState,
    PrintTicket,
    RecallReply,
    RecallRequest,
    ResyncRequest,
    Snapshot,
    TestCreditsReport,
    ValidatorReport,
)
from kiosk.link.outcomes import EscrowEnd
from kiosk.link.pairing import StationPairing
from kiosk.service.device_commands import Pass
from kiosk.service.snapshot import StationSnapshot
from kiosk.service.wire import paytable_from_state, snapshot_from_json
from kiosk.station.chips import progressive_offered, repeat_bets, take_progressive
from kiosk.station.witness import WITNESS_TILT, HeadWitness
from kiosk.subscribers import Subscribers
from kiosk.tablehost.recall_service import rounds_from_reply

log = logging.getLogger(__name__)


class RemoteTable:
    """The table as one station sees it over the link (thread-safe): the
    :class:`~kiosk.station.port.StationPort` of a shared table's station."""

    #: The rounds it recalls are the host's copies, without their deck.
    recall_kept_elsewhere = True

    def __init__(
        self,
        pairing: StationPairing,
        host: str,
        port: int,
        limits: LinkLimits | None = None,
        witness: HeadWitness | None = None,
    ) -> None:
        self.pairing = pairing
        self.witness = witness  # keeps the host's ledger head (None: not witnessed)
        self.host_behind = ""  # why the host's ledger was refused ("" while it is not)
        self.station = pairing.seat
        self.link = LinkClient(pairing, host, port, self._on_message, self._on_event, limits)
        self._cond = threading.Condition()
        self._snapshot: StationSnapshot | None = None
        self._window = 0
        self._limits: Limits | None = None  # as the host last sent them
        self._seen = 0  # the last host seq delivered
        self._received = 0  # snapshots received
        self._received_at = 0.0
        self._pending = Bets()  # the chips placed here, sent with Deal
        self._last_bets = Bets()  # the chips sent with the last Deal (a rebet's)
        self._paytable: Paytable | None = None
        self._connected = False
        self.errors: list[ErrorMessage] = []
        self.acks: dict[str, EscrowAck] = {}  # the host's answers to escrows, by txn
        self.settled: dict[str, EscrowAck] = {}  # its answers to the validator's reports
        self.resets = 0
        self.print_orders: list[PrintTicket] = []  # the host's, not yet taken
        self.operator_answers: dict[int, OperatorSession | OperatorReply] = {}  # by ref
        self.recall_answers: dict[int, RecallReply] = {}  # by ref
        self._refs = 0
        self._door: bool | None = None  # the door switch as last sent (None: never)
        self._listeners: Subscribers[[]] = Subscribers()

    # -- life cycle ----------------------------------------------------------------------
    def start(self) -> None:
        self.link.start()

    def stop(self) -> None:
        self.link.stop()

    def __enter__(self) -> RemoteTable:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the link's deliveries --------------------------------------------------------------
    def _on_message(self, inbound: Inbound) -> None:
        body = inbound.body
        with self._cond:
            self._seen = inbound.seq
            if isinstance(body, Snapshot):
                snap = snapshot_from_json(body.state["snapshot"])
                if self.witness is not None and not self.host_behind:
                    self.host_behind = self.witness.observe(body.state.get("ledger_head"))
                    if self.host_behind:
                        log.error("station %d: %s", self.station, self.host_behind)
                if self.host_behind:
                    snap = dataclasses.replace(
                        snap, tilts=(*snap.tilts, WITNESS_TILT), offers=(), message=self.host_behind
                    )
                self._snapshot = snap
                window = body.state.get("window")
                self._window = window if isinstance(window, int) else 0
                self._take_limits(body.state.get("limits"))
                self._take_paytable(body.state.get("paytable"))
                self._received += 1
                self._received_at = time.monotonic()
            elif isinstance(body, ErrorMessage):
                self.errors.append(body)
            elif isinstance(body, EscrowAck):  # phase one, or a report's answer (outcome)
                (self.acks if body.outcome is None else self.settled)[body.txn] = body
            elif isinstance(body, PrintTicket):
                self.print_orders.append(body)
            elif isinstance(body, (OperatorSession, OperatorReply)):
                self.operator_answers[body.ref] = body
            elif isinstance(body, RecallReply):
                self.recall_answers[body.ref] = body
            self._cond.notify_all()
        self._listeners.notify()

    def _take_limits(self, data: object) -> None:
        """Keep the limits a snapshot carries, checked (absent or refused: the last ones
        stay in force)."""
        if data is None:
            return
        try:
            self._limits = Limits.model_validate(data)
        except ValueError as exc:
            log.error("limits from the host refused: %s", exc)

    def _take_paytable(self, data: object) -> None:
        """Keep the paytable a snapshot carries (absent: the last one stays in force)."""
        if data is None:
            return
        sha = data.get("sha256") if isinstance(data, dict) else None
        if self._paytable is not None and sha == self._paytable.sha256:
            return
        try:
            self._paytable = paytable_from_state(data)
        except ValueError as exc:
            log.error("paytable from the host refused: %s", exc)

    def _on_event(self, event: LinkEvent) -> None:
        with self._cond:
            if event.kind in ("connected", "disconnected"):
                self._connected = event.kind == "connected"
            if event.kind == "connected" and self._door is not None:
                try:  # the host hears the door again after every (re)connect
                    self.link.send(DoorSwitch(open=self._door))
                except Exception as exc:
                    log.warning("door state not sent: %s", exc)
            if event.kind == "reset":
                self.resets += 1
                self._seen = 0
            self._cond.notify_all()
        self._listeners.notify()

    # -- reading ----------------------------------------------------------------------------
    def snapshot(self) -> StationSnapshot | None:
        """The station's snapshot as last received (None before the first)."""
        with self._cond:
            return self._snapshot

    @property
    def window(self) -> int:
        """The betting window the host last showed (quoted by Bet and Pass)."""
        with self._cond:
            return self._window

    @property
    def limits(self) -> Limits | None:
        """The table's limits in force (cents), as the host last sent them (None before
        it sent any)."""
        with self._cond:
            return self._limits

    @property
    def paytable(self) -> Paytable | None:
        """The table's paytable as the host last sent it (its text checked against its
        SHA-256 on arrival; None before the first)."""
        with self._cond:
            return self._paytable

    @property
    def door_open(self) -> bool:
        """The station's main door as its switch last said (sent to the host)."""
        with self._cond:
            return bool(self._door)

    @property
    def connected(self) -> bool:
        """The link to the host is up."""
        with self._cond:
            return self._connected

    @property
    def received_at(self) -> float:
        """When (``time.monotonic()``) the last snapshot arrived."""
        with self._cond:
            return self._received_at

    @property
    def received(self) -> int:
        """How many snapshots have arrived so far."""
        with self._cond:
            return self._received

    @property
    def pending(self) -> Bets:
        """The chips placed here since the last Deal (not yet sent)."""
        with self._cond:
            return self._pending

    def listen(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` (on the link's thread) after every message and every change
        of the connection; returns a function that stops it."""
        return self._listeners.add(callback)

    def wait_for(
        self, predicate: Callable[[StationSnapshot], bool], timeout: float
    ) -> StationSnapshot | None:
        """Block until a received snapshot satisfies ``predicate`` (returned) or
        ``timeout`` seconds pass (None)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._snapshot is None or not predicate(self._snapshot):
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return self._snapshot

    def wait_change(self, since: int, timeout: float) -> int:
        """Block until more than ``since`` snapshots or errors have arrived, or
        ``timeout`` passes; returns the count now (see :meth:`progress`)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._progress() <= since:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            return self._progress()

    def progress(self) -> int:
        """A count that grows with every snapshot, error and escrow answer received."""
        with self._cond:
            return self._progress()

    def _progress(self) -> int:
        return self._received + len(self.errors) + len(self.acks) + len(self.settled)

    # -- the front door -----------------------------------------------------------------------
    def execute(self, command: object) -> int:
        """Send ``command`` to the host; returns the link ``seq`` (0 when nothing is sent:
        chips are kept here until Deal).  The host's answer is the next snapshot, or an
        entry in :attr:`errors` / :attr:`acks`.  Raises :class:`MachineError` for a
        command that cannot be sent now (no snapshot yet, no Ante placed)."""
        with self._cond:
            if self.host_behind:
                raise PlayDisabled(self.host_behind, code=ErrorCode.HOST_LEDGER_BEHIND)
            body = self._body(command)
            if body is None:
                return 0
        return self.link.send(body)

    def resync(self) -> int:
        """Ask the host for the current snapshot again."""
        return self.link.send(ResyncRequest(reason="station asked"))

    def _body(self, command: object) -> Body | None:
        snap = self._snapshot
        if isinstance(command, cmd.PlaceChip):
            check_chip(command.spot, command.cents)  # the rest: the controller's
            self._pending = self._pending.add(command.spot, command.cents)
            return None
        if isinstance(command, cmd.RepeatBets):
            snap, limits = self._betting()
            offered = progressive_offered(snap, self._paytable)
            door = bool(self._door)
            self._pending = repeat_bets(snap, limits, self._last_bets, door, offered)
            return None
        if isinstance(command, cmd.TakeProgressive):
            snap, _limits = self._betting()
            self._pending = take_progressive(snap, self._pending, bool(self._door))
            return None
        if isinstance(command, cmd.ClearBets):
            self._pending = Bets()
            return None
        if isinstance(command, cmd.Deal):
            bets, self._pending = self._pending, Bets()
            require_ante(bets)
            body = Bet(
                round_id=self._window_id(),
                ante_cents=bets.ante,
                trips_cents=bets.trips,
                progressive_cents=bets.progressive,
            )
            self._last_bets = bets
            return body
        if isinstance(command, Pass):
            self._pending = Bets()
            return PassRound(round_id=self._window_id())
        if isinstance(command, cmd.Decide):
            if snap is None or snap.round_id is None or snap.phase is None:
                raise WrongState("no round in progress", code=ErrorCode.NO_ROUND)
            return Decide(
                round_id=snap.round_id,
                phase=snap.phase,
                action=Action(command.action),
                last_seen=self._seen,
            )
        if isinstance(command, cmd.InsertCredits):
            raise WrongState("a note goes through insert_note", code=ErrorCode.NOT_AT_STATION)
        if isinstance(command, cmd.CashOut):
            self._pending = Bets()  # the host takes the station's chips back with a cash-out
            return CashOutRequest()
        if isinstance(command, cmd.HandpayReset):
            return HandpayReset()
        if isinstance(command, cmd.ClearTilt):
            return ClearTilt(code=command.code)
        if isinstance(command, cmd.SetDoor):
            self._door = bool(command.open)
            return DoorSwitch(open=self._door)
        raise TypeError(f"not a station command: {command!r}")

    def _betting(self) -> tuple[StationSnapshot, Limits]:
        """The snapshot and the limits a chip is checked against."""
        snap = self._snapshot
        limits = self._limits or (self._paytable.limits if self._paytable else None)
        if snap is None or limits is None:
            raise WrongState("the table has not been seen yet", code=ErrorCode.NO_SNAPSHOT)
        return snap, limits

    def _window_id(self) -> int:
        if self._window < 1:
            raise WrongState("the table has not been seen yet", code=ErrorCode.NO_SNAPSHOT)
        return self._window

    def insert_note(self, cents: int, timeout: float) -> EscrowAck | None:
        """A note of ``cents`` with no validator (the demo keys): escrowed on the host,
        then reported stacked once accepted.  Returns the escrow's answer (None when none
        came in ``timeout`` seconds: the note is kept out)."""
        txn = f"note-{secrets.token_hex(8)}"
        ack = self.escrow_note(cents, txn, timeout)
        if ack is None or not ack.accepted:
            if ack is None:
                self.report_note(txn, EscrowEnd.RETURNED, "no_answer", 0)
            return ack
        self.report_note(txn, EscrowEnd.STACKED, "demo", timeout)
        return ack

    def escrow_note(self, cents: int, txn: str, timeout: float) -> EscrowAck | None:
        """Phase one: ask the host to record the note of ``cents`` in escrow as ``txn``;
        its answer (``accepted``: stack it), None when none came in ``timeout`` seconds."""
        with self._cond:
            self.acks.pop(txn, None)
        self.link.send(Escrow(txn=txn, denomination_cents=cents, amount_cents=cents))
        return self._wait_ack(self.acks, txn, timeout)

    def report_note(
        self, txn: str, end: EscrowEnd, reason: str, timeout: float, cents: int | None = None
    ) -> EscrowAck | None:
        """Phase two: how the validator ended escrow ``txn`` (``reason``: the driver's
        word; ``cents``: the amount the driver reported with a ticket's VEND VALID).
        Waits up to ``timeout`` seconds for the host's answer (None when none came)."""
        with self._cond:
            self.settled.pop(txn, None)
        self.link.send(ValidatorReport(txn=txn, end=end, reason=reason, cents=cents))
        if timeout <= 0:
            return None
        return self._wait_ack(self.settled, txn, timeout)

    def escrow_ticket(self, validation: str, txn: str, timeout: float) -> int | None:
        """Phase one for a ticket: ask the host to record ticket ``validation`` in escrow
        as ``txn``; its amount (cents: stack it), None when refused (the reason is in
        :attr:`acks`) or when no answer came in ``timeout`` seconds."""
        with self._cond:
            self.acks.pop(txn, None)
        # a ticket's amount is the host's (its answer says it): 1 stands for "unknown here"
        self.link.send(Escrow(txn=txn, ticket=validation))
        ack = self._wait_ack(self.acks, txn, timeout)
        return ack.amount_cents if ack is not None and ack.accepted else None

    def report_print(
        self, txn: str, outcome: PrintOutcome, validation: str, reason: str, timeout: float
    ) -> EscrowAck | None:
        """The printer's report about the ticket of cash-out ``txn``; waits up to
        ``timeout`` seconds for the host's answer (its ``outcome``; None when none
        came)."""
        with self._cond:
            self.settled.pop(txn, None)
        report = PrinterReport(
            txn=txn, outcome=outcome, validation=validation[:64], reason=reason[:128]
        )
        self.link.send(report)
        return self._wait_ack(self.settled, txn, timeout)

    def report_fault(self, device: str, kind: DeviceEventKind, detail: str, active: bool) -> None:
        """Tell the host that ``device``'s fault ``kind`` began or ended (``active``); the
        host tilts or clears this station.  Not sent (logged) while the link cannot take
        it, nor for a device the host does not know."""
        try:
            fault = {"device": device, "kind": kind, "detail": detail[:256], "active": active}
            self.link.send(DeviceFault.model_validate(fault))
        except Exception as exc:
            log.warning("%s fault %s not sent: %s", device, kind, exc)

    def printer_ready(self, ready: bool) -> None:
        """Tell the host whether this station's ticket printer can print now."""
        self.link.send(PrinterState(ready=ready))

    def next_print_order(self, timeout: float) -> PrintTicket | None:
        """The oldest print order from the host not yet taken (None after ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self.print_orders:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return self.print_orders.pop(0)

    def test_credits(self, cents: int, timeout: float) -> EscrowAck | None:
        """A burn-in's test credits of ``cents`` (a station without a validator), once
        by their transaction; the host's answer, None when none came in ``timeout``."""
        txn = f"test-{secrets.token_hex(8)}"
        self.link.send(TestCreditsReport(txn=txn, cents=cents))
        return self._wait_ack(self.settled, txn, timeout)

    def _wait_ack(self, found: dict[str, EscrowAck], txn: str, timeout: float) -> EscrowAck | None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while txn not in found:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return found[txn]

    def operator_request(
        self, make: Callable[[int], Body], timeout: float
    ) -> OperatorSession | OperatorReply | None:
        """Send the operator message ``make(ref)`` (a new ``ref``) and wait up to
        ``timeout`` seconds for the host's answer to it (None when none came)."""
        with self._cond:
            self._refs += 1
            ref = self._refs
        self.link.send(make(ref))
        deadline = time.monotonic() + timeout
        with self._cond:
            while ref not in self.operator_answers:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return self.operator_answers.pop(ref)

    def recall(self, last: int, timeout: float) -> RecallReply | None:
        """Ask the host for this station's own last ``last`` rounds (1 to 10) and wait
        up to ``timeout`` seconds for its answer (None when none came)."""
        with self._cond:
            self._refs += 1
            ref = self._refs
        self.link.send(RecallRequest(ref=ref, last=last))
        deadline = time.monotonic() + timeout
        with self._cond:
            while ref not in self.recall_answers:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return self.recall_answers.pop(ref)

    def escrow_refusal(self, txn: str) -> str:
        """Why the host refused escrow ``txn`` ("" when it did not, or has not answered)."""
        with self._cond:
            ack = self.acks.get(txn)
        return ack.reason if ack is not None and not ack.accepted else ""

    def recall_rounds(self, last: int, timeout: float) -> Future[list[RoundRecord]]:
        """This station's own last ``last`` settled rounds from the host, most recent
        first, asked on a worker thread (a screen never waits for the network).  The
        future fails with :class:`ConnectionError` while the host cannot be reached,
        :class:`TimeoutError` when it did not answer in ``timeout`` seconds,
        :class:`ValueError` when it refused or a round does not rebuild."""
        future: Future[list[RoundRecord]] = Future()
        if not self.connected:
            future.set_exception(ConnectionError("the table host cannot be reached"))
            return future

        def ask() -> None:
            try:
                reply = self.recall(last, timeout)
                if reply is None:
                    raise TimeoutError(f"the table host did not answer in {timeout:g} s")
                rounds = rounds_from_reply(reply)
            except Exception as exc:  # a refusal, a round that does not rebuild, a link fault
                future.set_exception(exc)
            else:
                future.set_result(rounds)

        threading.Thread(target=ask, name="station-recall", daemon=True).start()
        return future

    def ledger_can_record(self) -> bool:
        """The host's ledger is the host's to probe: its tilts reach the snapshot."""
        return True

    def ledger_events(self, kinds: tuple[EventKind, ...], last: int | None) -> list[EventRecord]:
        """None: the table's ledger is on the host."""
        return []
