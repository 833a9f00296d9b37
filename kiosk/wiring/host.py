"""The table host built from its configuration: ``uth table serve``.

    config -> Table.open(config, stations, rng=, timing=)   (the one game service)
           -> TableHost(table, HostPairing(folder, LedgerMissBook(table, "stations")),
                        displays=..., burn_in=)  (its link; wrong pairing codes in the ledger)
           -> start_slot_system(table)   (the casino's SAS link, when configured)

:func:`open_table_host` builds and starts them; :meth:`HostParts.close` stops them in
the reverse order (the ledger records an orderly power down).  Nothing here imports
the screens: a host runs without pygame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.rng import RandomSource
from kiosk.config import CabinetConfig
from kiosk.game.paytables.rtp_record import rtp_gate
from kiosk.link.pairing import HostPairing
from kiosk.sas.process import LinkProcess
from kiosk.sas.service import SasService
from kiosk.sas.start import start_slot_system
from kiosk.service.device_commands import LiftLockoutAtHost
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.tablehost.pairing_book import LedgerMissBook
from kiosk.tablehost.service import TableHost


@dataclass(frozen=True)
class HostPlan:
    """Where a table host listens and what it serves: ``folder`` holds the stations'
    pairings (the dealer displays' in ``folder/displays``); ``port`` 0 picks free
    ports; ``display_port`` None is ``port + 1``."""

    stations: tuple[int, ...]
    folder: Path
    host: str = "127.0.0.1"
    port: int = 0
    display_port: int | None = None
    burn_in: bool = False
    reopen_pin: str | None = field(default=None, repr=False)
    lift_pin: str | None = field(default=None, repr=False)


@dataclass
class HostParts:
    """A started table host: the game service, its link and its slot-system link."""

    table: Table
    service: TableHost
    port: int
    slot_system: SasService | LinkProcess | None

    def close(self) -> None:
        """Stop the slot system, the link and the service, in that order."""
        if self.slot_system is not None:
            self.slot_system.stop()
        self.service.stop()
        self.table.close()


def open_table_host(
    config: CabinetConfig,
    plan: HostPlan,
    *,
    rng: RandomSource | None = None,
    timing: TableTiming | None = None,
) -> HostParts:
    """Open the table's ledger, start its link and (when configured) its slot-system
    link.  Raises what :meth:`Table.open` raises (LedgerError, ValueError), or the
    :class:`MachineError` of a refused PIN, before anything listens."""
    table = Table.open(config, plan.stations, rng=rng, timing=timing)
    rtp_gate(table, config).start()  # play waits for the paytable's proven return
    books = [LedgerMissBook(table, "stations"), LedgerMissBook(table, "displays")]
    try:  # a technician at the host, with their PIN
        if plan.reopen_pin is not None:
            for book in books:
                book.reopen(plan.reopen_pin)
        if plan.lift_pin is not None:
            table.execute(1, LiftLockoutAtHost(plan.lift_pin))
    except BaseException:
        table.close()
        raise
    pairing = HostPairing(plan.folder, books[0])
    display_port = plan.display_port if plan.display_port is not None else plan.port + 1
    service = TableHost(
        table,
        pairing,
        host=plan.host,
        port=plan.port,
        displays=HostPairing(plan.folder / "displays", books[1]),
        display_port=0 if plan.port == 0 else display_port,
        burn_in=plan.burn_in,
    )
    try:
        port = service.start()
        slot_system = start_slot_system(table)
    except BaseException:
        service.stop()
        table.close()
        raise
    return HostParts(table, service, port, slot_system)
