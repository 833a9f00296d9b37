"""The operator port in the same process as the game service: a lone cabinet's, or a
station beside its table.

:class:`LocalOperator` hands the port's requests to the service's one operator
implementation, :class:`~kiosk.table.operator_service.OperatorService` over the
:class:`~kiosk.table.table.Table`, by a call: the same messages, rules, refusals and
records as a remote station's (:mod:`kiosk.station.operator_remote`), answered at once.
It depends on the service and the station number only, never on a cabinet facade.
Beside the service's pages it may offer the pages the ledger's own machine serves
(``extra``: the event log, audit, export, RAM clear, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kiosk.link.messages import Body
from kiosk.station.operator_port import Capability, TableLimits
from kiosk.station.operator_requests import SERVICE_PAGES, Answer, OperatorRequests
from kiosk.table.operator_service import OperatorService
from kiosk.table.table import Table


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
