"""The table host's in-process API: one round for up to seven player stations.

:class:`Table` is the host; stations send the cabinet's typed commands
(:mod:`kiosk.machine.commands`, plus :class:`Pass`; every one: :data:`Command`) with
their station number, get an :data:`Outcome` and read a :class:`StationSnapshot`.  Timers run on an injected clock (:class:`ManualClock` in
tests).
"""

from kiosk.table.commands import Command, Pass
from kiosk.table.dispatch import Outcome
from kiosk.table.display import StationStatus, TableSnapshot
from kiosk.table.snapshot import SeatStatus, StationSnapshot
from kiosk.table.state import PendingPayout, TimedOut
from kiosk.table.table import Table
from kiosk.table.timing import ManualClock, TableTiming, timeout_action

__all__ = [
    "Command",
    "ManualClock",
    "Outcome",
    "Pass",
    "PendingPayout",
    "SeatStatus",
    "StationSnapshot",
    "StationStatus",
    "Table",
    "TableSnapshot",
    "TableTiming",
    "TimedOut",
    "timeout_action",
]
