"""The operator port in the same process as the game service: a lone cabinet's, or a
station beside its table.

:class:`LocalOperator` hands the port's requests to the service's one operator
implementation, :class:`~kiosk.tablehost.operator_service.OperatorService` over the
:class:`~kiosk.service.table.Table`, by a call: the same messages, rules, refusals and
records as a remote station's (:mod:`kiosk.station.operator_remote`), answered at once.
It depends on the service and the station number only, never on a cabinet facade.
Beside the service's pages it may offer the pages the ledger's own machine serves
(``extra``: the event log, audit, export, RAM clear, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Protocol

from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import MachineError, PlayDisabled
from kiosk.game.paytables.hold import PaytableHold
from kiosk.game.snapshot import MachineSnapshot
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import EventRecord, RoundRecord, VerifyReport
from kiosk.link.messages import Body
from kiosk.service.device_commands import Command as TableCommand
from kiosk.service.dispatch import Outcome
from kiosk.service.table import Table
from kiosk.station.operator_port import Capability, TableLimits
from kiosk.station.operator_requests import SERVICE_PAGES, Answer, OperatorRequests
from kiosk.tablehost.operator_service import OperatorService


class LocalOperator(OperatorRequests):
    """The operator port of ``station`` over ``table``'s operator service (see module).
    ``service``: the table's own when it has one (a table host's), else one is made."""

    def __init__(
        self,
        table: Table,
        station: int,
        service: OperatorService | None = None,
        extra: Iterable[Capability] = (),
    ) -> None:
        self.table = table
        self.service = service or OperatorService(table, connected=lambda _n: True)
        self._station = station
        self._ref = 0
        self.capabilities = SERVICE_PAGES | frozenset(extra)

    @property
    def station(self) -> int:
        return self._station

    @property
    def busy(self) -> bool:
        return False  # answered within the call

    def submit(self, make: Callable[[int], Body], done: Callable[[Answer], None]) -> bool:
        self._ref += 1
        done(self.service.handle(self._station, make(self._ref)))
        return True

    def poll(self) -> None:
        """Nothing waits: every answer was given within its call."""

    def limits(self) -> TableLimits | None:
        lim = self.table.limits
        return TableLimits(lim.ante_min, lim.ante_max, lim.trips_min, lim.trips_max)

    def limit_bounds(self) -> tuple[TableLimits, int] | None:
        base = self.table.paytable.limits
        return TableLimits(base.ante_min, base.ante_max, base.trips_min, base.trips_max), (
            base.ante_step
        )


#: The pages served only at the ledger's own machine (a lone cabinet's menu).
LEDGER_PAGES = frozenset(
    {
        Capability.EVENTS,
        Capability.HOLD,
        Capability.AUDIT,
        Capability.EXPORT,
        Capability.PAYTABLE_EDITOR,
        Capability.RAM_CLEAR,
        Capability.HAND_PAYS,
        Capability.TILTS,
        Capability.DEVICES,
        Capability.MACHINE,
    }
)


class StationCommands(Protocol):
    """The station's controller, as :class:`TableOperations` uses it."""

    def snapshot(self) -> MachineSnapshot: ...

    def execute(self, command: TableCommand) -> Outcome: ...


class TableOperations:
    """:class:`~kiosk.station.operator_port.LocalOperations` of ``station`` over
    ``table`` (its ledger, under the service's lock) and ``controller`` (the station's
    snapshot and commands)."""

    def __init__(self, table: Table, station: int, controller: StationCommands) -> None:
        self.table = table
        self.station = station
        self.controller = controller
        self.config = table.config

    @property
    def ledger(self) -> Ledger | None:
        return self.table.ledger

    def snapshot(self) -> MachineSnapshot:
        return self.controller.snapshot()

    def execute(self, command: TableCommand) -> Outcome:
        return self.controller.execute(command)

    def ledger_events(
        self, kinds: tuple[EventKind, ...] = (), last: int | None = None
    ) -> list[EventRecord]:
        found: list[EventRecord] = self.table.read(
            lambda a: a.events(kinds, last, viewer=self.station)
        )
        return found

    def meter_readings(self) -> dict[str, int] | None:
        found: dict[str, int] | None = self.table.read(lambda a: a.meters())
        return found

    def recall(self, last: int = 10) -> list[RoundRecord]:
        return self.table.recall(last, station=self.station)

    def hold(self, since: str | None = None) -> list[PaytableHold]:
        found: list[PaytableHold] = self.table.read(lambda a: a.hold(since))
        return found

    def ledger_id(self) -> str | None:
        found: str | None = self.table.read(lambda a: a.ledger_id())
        return found

    def verify_ledger(self, replay: bool = False) -> VerifyReport | None:
        found: VerifyReport | None = self.table.read(lambda a: a.verify(replay))
        return found

    def export_ledger(self, path: str | Path) -> Path:
        try:
            written: Path = self.table.read(lambda a: a.export(path))
        except MachineError:
            raise PlayDisabled("the ledger is not available", code=ErrorCode.LEDGER_FAULT) from None
        return written
