"""What a player station needs of its table: the one port its screens' controller, its
validator and its printer talk to, whether the game service is in the same process
(:class:`kiosk.station.local.LocalTable`, the lone cabinet) or across the network
(:class:`kiosk.station.remote.RemoteTable`, a shared table's station).  Both adapters
behave the same: chips are kept at the station until Deal, checked at once at the
station by the service's own rules and sent with Deal as one wager the service checks
again (:mod:`kiosk.station.chips`); a cash-out takes them back; the player's recall is
answered through a future (done at once in process).

Every answer about money comes from the service, which checks everything it is told:
the station holds no money state beyond the item in its validator and the ticket in its
printer.  Amounts are cents; timeouts are seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Protocol

from devices.host import DeviceEventKind, PrintOutcome
from engine.uth.paytable import Limits, Paytable
from kiosk.game.vocabulary import Bets
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.records import EventRecord, RoundRecord
from kiosk.link.messages import ErrorMessage, EscrowAck, PrintTicket
from kiosk.link.outcomes import EscrowEnd
from kiosk.service.device_commands import Command
from kiosk.service.dispatch import Outcome
from kiosk.service.snapshot import StationSnapshot


@dataclass(frozen=True)
class StationView:
    """What a station screen adds to the cabinet's table: the station's snapshot as
    received, its countdowns counted down since it arrived (seconds, None when no timer
    runs), and whether the host is reachable."""

    snapshot: StationSnapshot
    betting_seconds: float | None
    decision_seconds: float | None
    connected: bool


class StationPort(Protocol):
    """One station's end of its table (thread-safe)."""

    @property
    def station(self) -> int:
        """This station's number (its seat)."""

    @property
    def connected(self) -> bool:
        """The service can be reached now."""

    @property
    def resets(self) -> int:
        """How many times the link's numbering restarted (the service lost this
        station's state: its printer says again whether it is ready)."""

    @property
    def recall_kept_elsewhere(self) -> bool:
        """The rounds :meth:`recall_rounds` returns are the service's copies, without
        their deck (the shuffle is verified where the ledger is)."""

    @property
    def paytable(self) -> Paytable | None:
        """The paytable in force (None before the service was heard)."""

    @property
    def limits(self) -> Limits | None:
        """The limits in force (cents; None before the service was heard)."""

    @property
    def pending(self) -> Bets:
        """Chips placed here since the last Deal (they are sent with it)."""

    @property
    def door_open(self) -> bool:
        """The station's main door as its switch last said."""

    @property
    def received_at(self) -> float:
        """When (``time.monotonic()``) the last snapshot arrived."""

    @property
    def errors(self) -> list[ErrorMessage]:
        """The service's refusals of what this station sent without waiting for an
        answer, oldest first."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def snapshot(self) -> StationSnapshot | None:
        """The station's snapshot (None before the first)."""

    def wait_for(
        self, predicate: Callable[[StationSnapshot], bool], timeout: float
    ) -> StationSnapshot | None:
        """Block until a snapshot satisfies ``predicate`` (returned) or ``timeout``
        passes (None)."""

    def listen(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` after every change the station may show; returns a
        function that stops it."""

    def progress(self) -> int:
        """A count that grows with every change the station may show."""

    def execute(self, command: Command) -> Outcome:
        """Send a command of the screens (:mod:`kiosk.game.commands`) to the service
        (a chip, a rebet or a clear is kept here until Deal); raises a
        :class:`~kiosk.game.errors.MachineError` for one refused at once."""

    def escrow_note(self, cents: int, txn: str, timeout: float) -> EscrowAck | None:
        """Phase one of a note in the validator: the service's answer (``accepted``:
        stack it), None when none came in ``timeout``."""

    def report_note(
        self, txn: str, end: EscrowEnd, reason: str, timeout: float, cents: int | None = None
    ) -> EscrowAck | None:
        """Phase two: how the validator ended escrow ``txn`` (``reason``: the driver's
        word; ``cents``: the amount reported with a ticket's VEND VALID); the answer (its
        ``outcome``), None when none came (then VEND VALID is asked again)."""

    def escrow_ticket(self, validation: str, txn: str, timeout: float) -> int | None:
        """Phase one of a ticket: its amount (stack it), None when refused or no answer
        came."""

    def escrow_refusal(self, txn: str) -> str:
        """Why escrow ``txn`` was refused ("" when it was not, or is not known)."""

    def report_fault(self, device: str, kind: DeviceEventKind, detail: str, active: bool) -> None:
        """``device``'s event ``kind`` began (``active``) or ended."""

    def printer_ready(self, ready: bool) -> None:
        """Whether this station's ticket printer can print now."""

    def next_print_order(self, timeout: float) -> PrintTicket | None:
        """The oldest print order not yet taken (None after ``timeout``)."""

    def report_print(
        self, txn: str, outcome: PrintOutcome, validation: str, reason: str, timeout: float
    ) -> EscrowAck | None:
        """The printer's report about the ticket of cash-out ``txn``; the answer (its
        ``outcome``), None when none came."""

    def insert_note(self, cents: int, timeout: float) -> EscrowAck | None:
        """A note with no validator (the demo keys, a burn-in): both phases."""

    def ledger_can_record(self) -> bool:
        """Whether the service's ledger can record now (asked before the validator is
        enabled; a service across the network answers with its snapshot's tilts)."""

    def ledger_events(self, kinds: tuple[EventKind, ...], last: int | None) -> list[EventRecord]:
        """The service's recorded events of ``kinds`` (the ``last`` ones), when it runs
        in this process; none over the network (the ledger is the host's)."""

    def recall_rounds(self, last: int, timeout: float) -> Future[list[RoundRecord]]:
        """This station's own last ``last`` settled rounds, most recent first, as a
        future that never blocks the caller: it fails with a
        :class:`~kiosk.game.errors.MachineError` or another exception (the service
        cannot be reached, did not answer in ``timeout``, refused) instead."""
