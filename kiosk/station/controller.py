"""The station's controller: what the screens drive, over the station's
:class:`~kiosk.station.port.StationPort` to the game service, in process (the lone
cabinet, :class:`~kiosk.station.local.LocalTable`) or over the network (a table's
station, :class:`~kiosk.station.remote.RemoteTable`).

:class:`StationController` is the screens' controller (:class:`kiosk.ui.model.Controller`):
:meth:`snapshot` is the station's latest :class:`StationSnapshot` as the
:class:`MachineSnapshot` the screens read (:mod:`kiosk.station.snapshot`, the same for
both), :meth:`execute` sends the screens' commands to the service, :meth:`subscribe`
hears of every change.  The player's game recall is asked of the service
(:meth:`recall_async`, off the screen's thread, or :meth:`recall`), the station's own
rounds only.

Both ways the chips are kept at the station's end of the port and sent with Deal as one
wager; a chip the service would refuse (play stopped, a round in progress, the credits
or the limits cannot cover it) is refused here, before it is shown, by the service's
own rule functions (:mod:`kiosk.station.chips`; a rebet by the port), so the two cannot
disagree.  The
controller asks the port one way whichever end it is.  The service's refusals of what was sent without waiting arrive as
an :class:`~kiosk.link.messages.ErrorMessage`: the latest one is the snapshot's
``message``.  While the link is down the screens show a ``host_link`` tilt (play is
suspended, nothing is sent).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from typing import Any

from engine.uth.paytable import Limits, Paytable
from kiosk.config import CabinetConfig
from kiosk.game import commands as cmd
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import MachineError, WrongState
from kiosk.game.snapshot import MachineSnapshot, Tilt
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.records import RoundRecord, TicketRecord
from kiosk.link.messages import RECALL_ROUNDS
from kiosk.service.device_commands import Command as TableCommand
from kiosk.service.dispatch import Outcome
from kiosk.service.snapshot import StationSnapshot
from kiosk.station.chips import check_chip_at, progressive_offered
from kiosk.station.port import StationPort, StationView
from kiosk.station.snapshot import machine_snapshot
from kiosk.subscribers import Subscribers

#: The tilt shown while the host cannot be reached.
HOST_LINK_TILT = "host_link"
#: Seconds a demo note waits for the host's answer.
NOTE_ANSWER_S = 5.0
#: Seconds the game recall waits for the host's answer.
RECALL_ANSWER_S = 2.0
#: The refusal's code when the host's game recall could not be read.
RECALL_UNAVAILABLE = ErrorCode.RECALL_UNAVAILABLE

log = logging.getLogger(__name__)


class StationController:
    """The screens' controller for station ``remote.station`` (thread-safe); ``config``
    is the station's own configuration (its ``demo`` flag); ``shared`` False: a lone
    cabinet's station, with no table of other seats to show (:meth:`station_view` is
    None)."""

    def __init__(
        self,
        remote: StationPort,
        config: CabinetConfig,
        clock: Callable[[], float] = time.monotonic,
        insert_bill: Callable[[int], object] | None = None,
        demo_notes: bool = True,
        shared: bool = True,
    ) -> None:
        self.remote = remote
        self.shared = shared
        # a demo note: into the station's simulated validator, else two-phase with no device
        self.insert_bill = insert_bill or (lambda c: remote.insert_note(c, NOTE_ANSWER_S))
        # False at a station whose real validator takes the notes: a second source of
        # notes would supersede the validator's open escrow on the host
        self.demo_notes = demo_notes
        self.config = config
        self.clock = clock
        self._lock = threading.Lock()
        self._subscribers: Subscribers[[MachineSnapshot]] = Subscribers()
        self._errors_seen = 0
        self._message = ""
        self._unlisten: Callable[[], None] | None = None
        self._recall: Future[list[RoundRecord]] | None = None  # the request in flight

    @property
    def station(self) -> int:
        return self.remote.station

    # -- life cycle ----------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> bool:
        """Start the link and wait up to ``timeout`` seconds for the host's first
        snapshot with its paytable; False when none came (the link keeps trying)."""
        self.remote.start()
        deadline = self.clock() + timeout
        ready = self.remote.wait_for(lambda _s: self.remote.paytable is not None, timeout)
        while ready is not None and self.remote.paytable is None and self.clock() < deadline:
            time.sleep(0.02)
        if self._unlisten is None:
            self._unlisten = self.remote.listen(self._notify)
        return self.remote.paytable is not None and self.remote.snapshot() is not None

    def stop(self) -> None:
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        self.remote.stop()

    # -- the Model's controller -------------------------------------------------------------
    def snapshot(self) -> MachineSnapshot:
        """What the screens show now.  Raises :class:`WrongState` before the host's first
        snapshot."""
        snap, paytable, limits = self._received()
        out = machine_snapshot(snap, paytable, limits, self.remote.pending)
        message = self._host_message()
        if message:
            out = replace(out, message=message)
        if self.remote.door_open:  # the station's own switch (the host stops the seat)
            out = replace(out, door_open=True)
        if not self.remote.connected:
            tilt = Tilt(HOST_LINK_TILT, "The table host cannot be reached")
            out = replace(out, tilts=(*out.tilts, tilt))
        return out

    def subscribe(self, callback: Callable[[MachineSnapshot], None]) -> Callable[[], None]:
        """Call ``callback(snapshot)`` after every snapshot received and every command;
        returns an unsubscribe function."""
        return self._subscribers.add(callback)

    def execute(self, command: TableCommand | cmd.InsertCredits) -> Outcome:
        """Carry out a :mod:`kiosk.game.commands` command at this station (see the
        module); raises :class:`MachineError` for one refused here."""
        try:
            return self._execute(command)
        except MachineError as exc:
            self._message = exc.reason
            raise
        finally:
            self._notify()

    def ledger_events(
        self, kinds: tuple[EventKind, ...] = (), last: int | None = None
    ) -> list[Any]:
        """The service's recorded events of ``kinds`` (the ``last`` ones), when it runs in
        this process; none over the link (the ledger is the host's)."""
        return self.remote.ledger_events(kinds, last)

    def recall(self, last: int = RECALL_ROUNDS) -> list[RoundRecord]:
        """This seat's last ``last`` settled rounds from the host, most recent first,
        waiting up to :data:`RECALL_ANSWER_S` seconds; [] when the host cannot be read
        (:meth:`recall_async` says why)."""
        try:
            return self.recall_async(last).result(RECALL_ANSWER_S + 1.0)
        except (MachineError, TimeoutError):
            return []

    def recall_async(self, last: int = RECALL_ROUNDS) -> Future[list[RoundRecord]]:
        """This seat's last ``last`` (1 to 10) settled rounds, asked of the host on a
        worker thread, so a screen never waits for the network: the future's result is
        the rounds, most recent first, or a :class:`WrongState` (code
        :data:`RECALL_UNAVAILABLE`) when the host is not reachable, refuses, or has not
        answered within :data:`RECALL_ANSWER_S` seconds.  One request at a time: while
        one is in flight its future is returned again."""
        with self._lock:
            if self._recall is not None and not self._recall.done():
                return self._recall
            future: Future[list[RoundRecord]] = Future()
            self._recall = future
        asked = self.remote.recall_rounds(max(1, min(last, RECALL_ROUNDS)), RECALL_ANSWER_S)
        asked.add_done_callback(lambda done: _answer_recall(done, future))
        return future

    @property
    def recall_kept_elsewhere(self) -> bool:
        """True at a remote station: its recalled rounds are the host's copies, without
        the deck (the shuffle is verified at the host)."""
        return self.remote.recall_kept_elsewhere

    def ticket(self, validation: str) -> TicketRecord | None:
        """None: a station does not read the host's book of tickets."""
        return None

    def station_view(self) -> StationView | None:
        """The station's own snapshot with its countdowns running (None before the host's
        first snapshot, and at a lone cabinet)."""
        if not self.shared:
            return None
        try:
            snap = self._received()[0]
        except ValueError:  # no snapshot from the host yet
            return None
        gone = max(0.0, self.clock() - self.remote.received_at)
        return StationView(
            snapshot=snap,
            betting_seconds=_less(snap.betting_seconds, gone),
            decision_seconds=_less(snap.decision_seconds, gone),
            connected=self.remote.connected,
        )

    # -- inside ---------------------------------------------------------------------------------
    def _received(self) -> tuple[StationSnapshot, Paytable, Limits]:
        snap, paytable = self.remote.snapshot(), self.remote.paytable
        if snap is None or paytable is None:
            raise WrongState("the table host has not been heard yet", code=ErrorCode.NO_SNAPSHOT)
        return snap, paytable, self.remote.limits or paytable.limits

    def _host_message(self) -> str:
        errors = self.remote.errors
        if len(errors) > self._errors_seen:
            self._errors_seen = len(errors)
            self._message = errors[-1].detail
        return self._message

    def _execute(self, command: TableCommand | cmd.InsertCredits) -> Outcome:
        if not self.remote.connected and not isinstance(command, (cmd.ClearBets, cmd.SetDoor)):
            raise WrongState("the table host cannot be reached", code=ErrorCode.NO_SNAPSHOT)
        if isinstance(command, cmd.InsertCredits):
            if command.source is not cmd.CreditSource.NOTE:
                raise WrongState("a station takes notes only", code=ErrorCode.NOT_AT_STATION)
            if not self.demo_notes:
                raise WrongState("notes go into the validator", code=ErrorCode.NOT_AT_STATION)
            worker = threading.Thread(
                target=self.insert_bill, args=(command.cents,), name="station-note", daemon=True
            )
            worker.start()  # the host's answer arrives as the next snapshot
            return None
        if isinstance(command, cmd.PlaceChip):
            self._check_chip(command)
        self._message = ""
        return self.remote.execute(command)

    def _check_chip(self, chip: cmd.PlaceChip) -> None:
        """The service's own rules on the chip, before it is shown (instant feedback; the
        service checks again with Deal)."""
        snap, paytable, limits = self._received()
        pending, door = self.remote.pending, self.remote.door_open
        offered = progressive_offered(snap, paytable)
        check_chip_at(snap, limits, pending, chip.spot, chip.cents, door, offered)

    def _notify(self) -> None:
        if not self._subscribers:
            return
        try:
            snap = self.snapshot()
        except MachineError:
            return
        self._subscribers.notify(snap)


def _answer_recall(asked: Future[list[RoundRecord]], future: Future[list[RoundRecord]]) -> None:
    """Settle ``future`` as the port's ``asked`` ended: its rounds, or why the game
    history could not be read (a :class:`MachineError` as it came)."""
    exc = asked.exception()
    if exc is None:
        future.set_result(asked.result())
    elif isinstance(exc, MachineError):
        future.set_exception(exc)
    else:  # no link, no answer, a refusal, a round that does not rebuild
        if not isinstance(exc, (ConnectionError, TimeoutError)):
            log.warning("game recall not read: %s", exc)
        future.set_exception(_unreadable(str(exc)[:200]))


def _unreadable(reason: str) -> WrongState:
    return WrongState(
        f"the game history could not be read: {reason}", code=ErrorCode.RECALL_UNAVAILABLE
    )


def _less(seconds: float | None, gone: float) -> float | None:
    return None if seconds is None else max(0.0, seconds - gone)
