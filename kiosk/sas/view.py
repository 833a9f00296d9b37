"""What the poll thread answers from: an immutable picture of each station, replaced
whole by the link's updater thread after every change of the game (never read from the
ledger inside a poll), and the exception queue held in memory over its store."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field

from kiosk.sas.port import (
    Capabilities,
    LinkedWin,
    MachineInfo,
    PendingCashout,
    Redemption,
    TicketInEscrow,
    ValidationRecord,
)
from kiosk.sas.store import CAPACITY, AckJournal, Queued


@dataclass(frozen=True)
class StationView:
    """One station at one moment: its meters (cents or counts, and ``credits``), the
    cash-out waiting for a validation number, the latest tickets printed (oldest first),
    the ticket in escrow, the redemptions the link asked for (by escrow id), and the
    slot door openings and power-ups the link has counted since it was installed."""

    meters: Mapping[str, int] = field(default_factory=dict)
    pending_cashout: PendingCashout | None = None
    records: tuple[ValidationRecord, ...] = ()
    escrow: TicketInEscrow | None = None
    redemptions: Mapping[str, Redemption] = field(default_factory=dict)
    door_opens: int = 0
    power_ups: int = 0
    #: the last win on the linked progressive's level (long polls 84 and 1B)
    progressive_win: LinkedWin | None = None


@dataclass(frozen=True)
class LinkView:
    """The machine and every station it serves."""

    info: MachineInfo
    capabilities: Capabilities
    stations: Mapping[int, StationView]


class ExceptionQueue:
    """Each station's FIFO of exceptions in memory, over :class:`~kiosk.sas.store.SasStore`.

    The updater appends (already written to the store); the poll thread peeks and, on the
    host's implied ACK, writes the ACK to the journal (on disk when :meth:`acknowledge`
    returns, before the poll that carried it is answered) and removes it; the removals
    reach the queue's table on the updater's next pass (:meth:`take_acknowledged`), and
    the journal is emptied then.  A power cut at any instant neither loses an exception
    nor sends an acknowledged one again."""

    def __init__(
        self, queues: dict[int, deque[Queued]], overflow: set[int], journal: AckJournal
    ) -> None:
        self._lock = threading.Lock()
        self._journal = journal
        self._queues = queues
        self._overflow = set(overflow)
        self._acked: list[int] = []
        self._cleared: list[int] = []

    def extend(self, rows: list[tuple[int, Queued]]) -> None:
        with self._lock:
            for station, row in rows:
                q = self._queues.setdefault(station, deque())
                q.append(row)
                while len(q) > CAPACITY:
                    q.popleft()
                    self._overflow.add(station)

    def peek(self, station: int) -> Queued | None:
        """The oldest exception of ``station``: exception 70 first when one was lost."""
        with self._lock:
            if station in self._overflow:
                return Queued(-1, 0x70)
            q = self._queues.get(station)
            return q[0] if q else None

    def acknowledge(self, station: int, row: Queued) -> None:
        with self._lock:
            if row.id == -1:
                if station in self._overflow:
                    self._journal.add(-station)
                    self._overflow.discard(station)
                    self._cleared.append(station)
                return
            q = self._queues.get(station)
            if q and q[0].id == row.id:
                self._journal.add(row.id)
                q.popleft()
                self._acked.append(row.id)

    def take_acknowledged(self) -> tuple[list[int], list[int], int]:
        """The acknowledgements since the last call, and the journal's count of records
        then (for :meth:`applied`)."""
        with self._lock:
            acked, cleared = self._acked, self._cleared
            self._acked, self._cleared = [], []
            return acked, cleared, self._journal.records

    def applied(self, records: int) -> None:
        """The acknowledgements taken with ``records`` are in the queue's table: the
        journal is emptied unless another was taken since."""
        with self._lock:
            if self._journal.records:
                self._journal.empty(records)

    def depth(self, station: int) -> int:
        with self._lock:
            return len(self._queues.get(station, ()))
