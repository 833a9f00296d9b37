"""The screens' window on the controller: the latest snapshot, and commands that may be refused.

The controller may notify from a device thread; :class:`Model` only records that a new
snapshot is waiting, and the main loop picks it up in :meth:`Model.refresh`.  A refused
command (:class:`kiosk.machine.errors.MachineError`) becomes a :class:`Note` in the player's
language, chosen by the error's ``code`` and ``params`` (:mod:`kiosk.ui.machine_messages`);
the controller's own ``reason`` (English, for operators and logs) is kept beside it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.machine.commands import Command
from kiosk.machine.controller import Machine
from kiosk.machine.errors import BetOutOfLimits, MachineError
from kiosk.machine.snapshot import MachineSnapshot
from kiosk.ui.i18n import _, money
from kiosk.ui.machine_messages import describe


@dataclass(frozen=True)
class Note:
    """A message shown for a few seconds: ``text`` already translated."""

    text: str
    reason: str  # the controller's reason (English), for operators
    level: str  # "error" | "info"
    until: float
    error: str = ""  # the error class name


class Model:
    """The latest snapshot of ``machine`` and the commands the screens send it;
    ``clock`` gives seconds (monotonic) for how long a note stays up."""

    def __init__(self, machine: Machine, clock: Callable[[], float] = time.monotonic) -> None:
        self.machine = machine
        self.clock = clock
        self._lock = threading.Lock()
        self._pending: MachineSnapshot | None = None
        self._dirty = False
        self.snap = machine.snapshot()
        self.note: Note | None = None
        self.version = 0  # bumps on every new snapshot
        self._unsubscribe: Callable[[], None] | None = machine.subscribe(self._changed)

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
        self.snap = self.machine.snapshot() if force or pending is None else pending
        self.version += 1
        return True

    # -- commands -------------------------------------------------------------------
    def send(self, command: Command) -> Any:
        """Execute a :mod:`kiosk.machine.commands` command; on refusal (a
        :class:`MachineError`) set :attr:`note` and return ``None``.

        Returns the controller's result, or ``True`` when it returns nothing."""
        try:
            result = self.machine.execute(command)
        except MachineError as exc:
            self.error(exc)
            self.refresh(force=True)
            return None
        self.refresh(force=True)
        return True if result is None else result

    def error(self, exc: MachineError) -> None:
        """Show the refusal ``exc`` as a note in the player's language (with the table
        limits when a bet was out of them)."""
        name = type(exc).__name__
        text = describe(exc, self.snap.paytable.currency)
        if isinstance(exc, BetOutOfLimits):
            lim = self.snap.limits
            cur = self.snap.paytable.currency
            text += " " + _("Ante {ante_min} to {ante_max}; Trips {trips_min} to {trips_max}.").format(
                ante_min=money(lim.ante_min, cur, compact=True), ante_max=money(lim.ante_max, cur, compact=True),
                trips_min=money(lim.trips_min, cur, compact=True), trips_max=money(lim.trips_max, cur, compact=True))
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
