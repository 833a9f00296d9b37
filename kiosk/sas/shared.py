"""The state the poll thread and the updater thread share: the current view, the
exception queue, the host's requests waiting for the game service, the TITO exchanges
in memory, the ROM signature in progress and the host's clock."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from kiosk.sas.progressive import ProgressiveListener
from kiosk.sas.store import Exchange
from kiosk.sas.view import ExceptionQueue, LinkView

#: A request of the host for the game service, run on the updater thread.
Action = Callable[[], None]


@dataclass
class RomSignature:
    """A ROM signature asked for: the seed, and the result once computed."""

    seed: int
    result: int | None = None
    failed: str = ""


@dataclass
class Shared:
    """Everything both threads touch; each field's changes go through :attr:`lock` or
    replace the field whole (``view``)."""

    view: LinkView | None
    queue: ExceptionQueue
    lock: threading.Lock = field(default_factory=threading.Lock)
    actions: list[Action] = field(default_factory=list)
    wake: threading.Event = field(default_factory=threading.Event)
    #: (station, kind, ref) -> exchange, written through to the store by the updater.
    exchanges: dict[tuple[int, str, str], Exchange] = field(default_factory=dict)
    dirty: list[Exchange] = field(default_factory=list)
    #: Exceptions 57 / 67 / 68 already acknowledged by the host: (station, code, ref).
    announced: set[tuple[int, int, str]] = field(default_factory=set)
    #: Per station: the id of the last ticket the host read with 4D function 00.
    read_tickets: dict[int, int] = field(default_factory=dict)
    rom: RomSignature | None = None
    clock_offset: timedelta = timedelta(0)
    real_time: set[int] = field(default_factory=set)
    #: The linked progressive's listener (None: not linked, broadcasts ignored).
    progressive: ProgressiveListener | None = None

    def submit(self, action: Action) -> None:
        """Run ``action`` on the updater thread (in order)."""
        with self.lock:
            self.actions.append(action)
        self.wake.set()

    def take_actions(self) -> list[Action]:
        with self.lock:
            out, self.actions = self.actions, []
            return out

    def put_exchange(self, ex: Exchange) -> None:
        with self.lock:
            self.exchanges[(ex.station, ex.kind, ex.ref)] = ex
            self.dirty.append(ex)
        self.wake.set()

    def exchange(self, station: int, kind: str, ref: str) -> Exchange | None:
        with self.lock:
            return self.exchanges.get((station, kind, ref))

    def take_dirty(self) -> list[Exchange]:
        with self.lock:
            out, self.dirty = self.dirty, []
            return out

    def now(self) -> datetime:
        """The host's time (as last set by long poll 7F), naive."""
        return datetime.now(UTC).replace(tzinfo=None) + self.clock_offset
