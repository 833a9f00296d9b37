"""The operator port at a station across the link: the table host's operator service.

:class:`RemoteOperator` carries the port's requests over an
:class:`~kiosk.station.operator_link.OperatorLink` (one request in flight, answered on
the screen's thread by :meth:`RemoteOperator.poll`); the table host answers them with
:class:`~kiosk.tablehost.operator_service.OperatorService`, the service the in-process
adapter (:mod:`kiosk.station.operator_local`) calls directly.  The pages a station
offers are the service's (:data:`~kiosk.station.operator_requests.SERVICE_PAGES`): the
ledger's own pages (event log, audit, export, RAM clear, ...) live at the host.
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.link.messages import Body
from kiosk.station.operator_link import OperatorLink
from kiosk.station.operator_port import TableLimits
from kiosk.station.operator_requests import Answer, OperatorRequests


class RemoteOperator(OperatorRequests):
    """The operator port over ``link`` (see module)."""

    def __init__(self, link: OperatorLink) -> None:
        self.link = link

    @property
    def station(self) -> int:
        return self.link.station

    @property
    def busy(self) -> bool:
        return self.link.busy

    def submit(self, make: Callable[[int], Body], done: Callable[[Answer], None]) -> bool:
        return self.link.submit(make, done)

    def poll(self) -> None:
        self.link.poll()

    def wait(self, timeout: float) -> bool:
        """Block until no request is in flight or ``timeout`` seconds pass (tests)."""
        return self.link.wait(timeout)

    def limits(self) -> TableLimits | None:
        known = self.link.remote.limits
        if known is None:
            return None
        return TableLimits(known.ante_min, known.ante_max, known.trips_min, known.trips_max)

    def limit_bounds(self) -> tuple[TableLimits, int] | None:
        paytable = self.link.remote.paytable
        if paytable is None:
            return None
        base = paytable.limits
        return TableLimits(base.ante_min, base.ante_max, base.trips_min, base.trips_max), (
            base.ante_step
        )
