"""The screens' window on the controller: the latest snapshot, and commands that may be refused.

The controller may notify from a device thread; :class:`Model` only records that a new
snapshot is waiting, and the main loop picks it up in :meth:`Model.refresh`.  A refused
command (:class:`kiosk.game.errors.MachineError`) becomes a :class:`Note` in the player's
language, chosen by the error's ``code`` and ``params`` (:mod:`kiosk.ui.machine_messages`);
the controller's own ``reason`` (English, for operators and logs) is kept beside it.

The model also notices what ends a player's session on the table (:attr:`Model.felt_epoch`
counts them: a cash-out, a ticket redeemed, a paytable change, a RAM clear), so the table
does not go on showing the previous player's hand, and keeps the credits a RAM clear
removed (:attr:`Model.ram_cleared`) until the player screen has said so.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol

from kiosk.config import CabinetConfig
from kiosk.game.commands import Command
from kiosk.game.error_codes import BetRule, ErrorCode
from kiosk.game.errors import BetOutOfLimits, MachineError
from kiosk.game.snapshot import MachineSnapshot
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.records import RoundRecord
from kiosk.station.port import StationView
from kiosk.ui.i18n import _, money
from kiosk.ui.machine_messages import MESSAGES, describe, message

#: Recorded events that end the session on show: the felt is cleared after them.
SESSION_EVENTS = (EventKind.TICKET_IN, EventKind.RAM_CLEAR)
#: Refused bets' rules that are not the table limits: shown without the limits.
NOT_LIMITS = (BetRule.NO_ANTE, BetRule.PROGRESSIVE_WAGER, BetRule.PROGRESSIVE_NOT_OFFERED)
#: Recorded events that may say an item went back to the player: a ticket refused, a
#: note of no accepted denomination, the validator's own rejection (a ``device`` event
#: of kind ``rejected``).
REFUSAL_EVENTS = (EventKind.TICKET_REJECTED, EventKind.NOTE_REFUSED, EventKind.DEVICE)


@dataclass(frozen=True)
class Note:
    """A message shown for a few seconds: ``text`` already translated."""

    text: str
    reason: str  # the controller's reason (English), for operators
    level: str  # "error" | "info"
    until: float
    error: str = ""  # the error class name


class Controller(Protocol):
    """What :class:`Model` needs of a controller: a station's
    :class:`kiosk.station.controller.StationController` (a lone cabinet's or a table
    station's; the operator menu has its own port)."""

    @property
    def config(self) -> CabinetConfig: ...

    def snapshot(self) -> MachineSnapshot: ...

    def subscribe(self, callback: Callable[[MachineSnapshot], None]) -> Callable[[], None]: ...

    def execute(self, command: Command) -> object: ...

    def ledger_events(
        self, kinds: tuple[EventKind, ...] = (), last: int | None = None
    ) -> Sequence[Any]: ...

    def recall_async(self, last: int = 10) -> Future[list[RoundRecord]]:
        """The seat's last ``last`` settled rounds, most recent first, answered on a
        future (a screen never waits for the ledger or the network)."""
        ...

    @property
    def recall_kept_elsewhere(self) -> bool:
        """True when recalled rounds are a host's copies without the deck (their
        shuffle is verified at the host, not here)."""
        ...

    def station_view(self) -> StationView | None:
        """The shared table's view from this station (None: a lone cabinet, or no
        snapshot from the host yet)."""
        ...


class Model:
    """The latest snapshot of ``controller`` (a station's) and the commands the screens
    send it; ``clock`` gives seconds (monotonic) for how long a note stays up."""

    def __init__(self, controller: Controller, clock: Callable[[], float] = time.monotonic) -> None:
        self.controller: Controller = controller
        self.clock = clock
        self._lock = threading.Lock()
        self._pending: MachineSnapshot | None = None
        self._dirty = False
        self.snap = controller.snapshot()
        self.note: Note | None = None
        self.version = 0  # bumps on every new snapshot
        #: Bumps when the table must be cleared (cash-out, ticket in, paytable change, RAM clear).
        self.felt_epoch = 0
        #: Cents of credits the last RAM clear removed, until the player screen has shown it
        #: (:meth:`acknowledge_ram_clear`); 0 for none.
        self.ram_cleared = 0
        self._seen_event = self._last_event_id()
        self._seen_refusal = self._last_refusal_id()
        self._next_refusal_look = 0.0
        self._unsubscribe: Callable[[], None] | None = controller.subscribe(self._changed)

    @property
    def demo(self) -> bool:
        """The cabinet runs in demo mode (its configuration's ``demo``): the screens say
        DEMO and show keyboard hints; a production cabinet shows neither."""
        return bool(self.controller.config.demo)

    # -- snapshots ----------------------------------------------------------------
    def _changed(self, snap: MachineSnapshot) -> None:
        with self._lock:
            self._pending = snap
            self._dirty = True

    def refresh(self, force: bool = False) -> bool:
        """Pick up a new snapshot if one arrived; True when it changed."""
        with self._lock:
            dirty, pending = self._dirty, self._pending
            self._dirty, self._pending = False, None
        if not dirty and not force:
            return False
        old = self.snap
        self.snap = self.controller.snapshot() if force or pending is None else pending
        self.version += 1
        self._watch(old, self.snap)
        return True

    def _last_event_id(self) -> int:
        events = self.controller.ledger_events(SESSION_EVENTS, last=1)
        return events[-1].id if events else 0

    def _last_refusal_id(self) -> int:
        events = self.controller.ledger_events(REFUSAL_EVENTS, last=1)
        return events[-1].id if events else 0

    def _watch(self, old: MachineSnapshot, new: MachineSnapshot) -> None:
        """Bump :attr:`felt_epoch` when ``new`` ends the session ``old`` showed."""
        if (
            new.cashout is not None and old.cashout is None
        ) or new.paytable.sha256 != old.paytable.sha256:
            self.felt_epoch += 1
        if new.credits == old.credits:
            return
        fresh = [
            e
            for e in self.controller.ledger_events(SESSION_EVENTS, last=4)
            if e.id > self._seen_event
        ]
        if not fresh:
            return
        self._seen_event = fresh[-1].id
        self.felt_epoch += 1
        for e in fresh:
            if e.kind == EventKind.RAM_CLEAR and e.amount > 0:
                self.ram_cleared = e.amount

    def poll_refusals(self, every: float = 0.5) -> bool:
        """Look (at most every ``every`` seconds) for an item the validator returned
        since the last look and show why as a note: a ticket (a ``ticket_rejected``
        event: unknown, redeemed, expired, void...), a note of no accepted denomination
        (``note_refused``) or one the validator itself rejected; True when one was
        found."""
        now = self.clock()
        if now < self._next_refusal_look:
            return False
        self._next_refusal_look = now + every
        fresh = [
            e
            for e in self.controller.ledger_events(REFUSAL_EVENTS, last=8)
            if e.id > self._seen_refusal
        ]
        if not fresh:
            return False
        self._seen_refusal = fresh[-1].id
        shown = [e for e in fresh if _refusal(e) is not None]
        if not shown:
            return False
        code, class_code, reason = _refusal(shown[-1]) or ("", None, "")
        text = message(code, {}, currency=self.snap.paytable.currency, class_code=class_code)
        name = "TicketRefused" if class_code == ErrorCode.TICKET_REFUSED else "NoteRefused"
        self.note = Note(text, reason, "error", now + 5.0, name)
        return True

    def acknowledge_ram_clear(self) -> None:
        """The player screen has shown what the RAM clear removed."""
        self.ram_cleared = 0

    # -- commands -------------------------------------------------------------------
    def send(
        self, command: Command, explain: Callable[[MachineError], str | None] | None = None
    ) -> Any:
        """Execute a :mod:`kiosk.game.commands` command; on refusal (a
        :class:`MachineError`) set :attr:`note` and return ``None``.  ``explain`` may
        give the refusal's words where the screen knows more than the error (what the
        smallest bet needs, what a rebet needs); ``None`` keeps the error's own.

        Returns the controller's result, or ``True`` when it returns nothing."""
        try:
            result = self.controller.execute(command)
        except MachineError as exc:
            self.error(exc, explain(exc) if explain is not None else None)
            self.refresh(force=True)
            return None
        self.refresh(force=True)
        return True if result is None else result

    def error(self, exc: MachineError, text: str | None = None) -> None:
        """Show the refusal ``exc`` as a note in the player's language, or ``text`` when
        given (with the table limits when a bet was out of them)."""
        name = type(exc).__name__
        if text is not None:
            self.note = Note(text, exc.reason, "error", self.clock() + 4.0, name)
            return
        text = describe(exc, self.snap.paytable.currency)
        if isinstance(exc, BetOutOfLimits) and exc.params.get("rule") not in NOT_LIMITS:
            lim = self.snap.limits
            cur = self.snap.paytable.currency
            text += " " + _(
                "Ante {ante_min} to {ante_max}; Trips {trips_min} to {trips_max}."
            ).format(
                ante_min=money(lim.ante_min, cur, compact=True),
                ante_max=money(lim.ante_max, cur, compact=True),
                trips_min=money(lim.trips_min, cur, compact=True),
                trips_max=money(lim.trips_max, cur, compact=True),
            )
        self.note = Note(text, exc.reason, "error", self.clock() + 4.0, name)

    def inform(self, text: str, seconds: float = 3.0) -> None:
        self.note = Note(text, "", "info", self.clock() + seconds)

    def current_note(self) -> Note | None:
        if self.note is not None and self.clock() > self.note.until:
            self.note = None
        return self.note

    def close(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()


def _refusal(event: Any) -> tuple[str, ErrorCode | None, str] | None:
    """``(code, class code, reason)`` of the message a recorded refusal shows the player,
    None for an event that is no refusal (a ``device`` event of another kind)."""
    detail = event.detail if isinstance(event.detail, dict) else {}
    if event.kind == EventKind.TICKET_REJECTED:
        reason = str(detail.get("reason", ""))
        code = f"ticket_{reason}" if f"ticket_{reason}" in MESSAGES else reason
        return code, ErrorCode.TICKET_REFUSED, str(detail.get("detail", reason))
    if event.kind == EventKind.NOTE_REFUSED:
        return ErrorCode.BILL_NOT_ACCEPTED, None, str(detail.get("reason", ""))
    if (
        event.kind == EventKind.DEVICE
        and detail.get("device") == "validator"
        and detail.get("kind") == "rejected"
    ):
        return ErrorCode.BILL_NOT_ACCEPTED, None, str(detail.get("detail", ""))
    return None
