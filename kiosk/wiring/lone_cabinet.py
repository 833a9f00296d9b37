"""The lone cabinet's parts: the game service with its one station in the same process.

:class:`LoneCabinet` is a record of parts, with no rule of its own: the game service
(:class:`kiosk.service.table.Table`, stations ``(1,)``, the cabinet's timing), its
in-process station link (:class:`kiosk.station.local.LocalTable`), the screens'
controller over that link (:class:`kiosk.station.controller.StationController`, the
class a table's remote station runs too) and the validator's host
(:class:`kiosk.station.notes.StationNotes`, also the station's).  A screen sends its
commands to ``station``; the devices speak to ``link`` (or ``notes``); the CLI, the
casino's system and the program check ask ``table``::

    cabinet = LoneCabinet.open(config)     # open/create + verify the ledger, resume a round
    cabinet.station.execute(PlaceChip("ante", 500))
    cabinet.close()                        # an orderly power down recorded

A missing, corrupt or tampered ledger does not raise: the cabinet comes up in the
``ledger`` tilt with the reason as its message, and refuses everything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from engine.rng import RandomSource
from kiosk.config import CabinetConfig
from kiosk.game.vocabulary import SEAT
from kiosk.service.table import Table
from kiosk.service.timing import CABINET_TIMING
from kiosk.station.controller import StationController
from kiosk.station.local import LocalTable
from kiosk.station.notes import StationNotes


@dataclass(frozen=True)
class LoneCabinet:
    """The parts of one lone cabinet (see the module).  Build with :meth:`open`, or
    :meth:`of` then :meth:`start` when something must be decided before its station
    follows the service."""

    table: Table
    link: LocalTable
    station: StationController
    notes: StationNotes

    @classmethod
    def of(cls, table: Table) -> LoneCabinet:
        """The parts over an open ``table`` (not started)."""
        link = LocalTable(table, SEAT)
        return cls(
            table,
            link,
            StationController(link, table.config, shared=False),
            StationNotes(link, prefix=False),
        )

    @classmethod
    def open(
        cls,
        config: CabinetConfig,
        rng: RandomSource | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> LoneCabinet:
        """Open the ledger (created on a first run only), verify it, rebuild the state,
        record power up, resume an unfinished round, and start the station."""
        return cls.of(
            Table.open_or_stop(config, (SEAT,), rng=rng, clock=clock, timing=CABINET_TIMING)
        ).start()

    @property
    def config(self) -> CabinetConfig:
        return self.table.config

    def start(self) -> LoneCabinet:
        """Follow the service (a ticket pending since a restart is ordered again for the
        station's printer); returns self."""
        self.link.start()
        self.station.start(0.0)
        return self

    def close(self) -> None:
        """Stop the station, record an orderly power down and close the ledger."""
        self.station.stop()
        self.link.stop()
        self.table.close()
