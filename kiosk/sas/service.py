"""The SAS link put together: one line, one address per station, the updater and the
poll thread, over a :class:`~kiosk.sas.port.GamePort`.

One port per table: every station of the game service is its own machine address on one
serial line (``first_address`` for station 1, the next address for the next station), as
the machines of a SAS daisy chain share one loop.  The table has one money authority and
one computer; one line and one poll thread serve the seven addresses (the host polls
each machine at most every 200 ms, and an exchange takes 1 to 15 ms at 19,200 baud).  A
casino that wants a line per seat runs one :class:`SasService` per line, each over the
stations it serves.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from devices.sas.frames import MAX_ADDRESS
from devices.sas.line import WakeupLine
from devices.sas.uart import open_line
from kiosk.sas.egm import Egm
from kiosk.sas.link import SasLink, program_signature
from kiosk.sas.port import GamePort
from kiosk.sas.responder import Responder
from kiosk.sas.store import SasStore

#: The interpreter's thread switch interval while the link runs, seconds.
SWITCH_INTERVAL_S = 0.001


def addresses_for(first_address: int, stations: tuple[int, ...]) -> dict[int, int]:
    """Machine address -> station: consecutive from ``first_address``.  Raises
    ``ValueError`` when they do not fit 1..127."""
    if not 1 <= first_address <= MAX_ADDRESS - len(stations) + 1:
        raise ValueError(
            f"{len(stations)} station(s) from address {first_address} do not fit 1..{MAX_ADDRESS}"
        )
    return {first_address + i: st for i, st in enumerate(stations)}


class SasService:
    """The link of ``port``'s stations on the line ``line_opener()`` gives, its state in
    ``db_path`` (the ledger's database).  :meth:`start`, then :meth:`stop`."""

    def __init__(
        self,
        port: GamePort,
        db_path: str | Path,
        line_opener: Callable[[], WakeupLine],
        first_address: int = 1,
        *,
        signer: Callable[[int], int] = program_signature,
        chirp: bool = True,
        chirp_after: float = 5.0,
    ) -> None:
        stations = port.stations()
        self.addresses = addresses_for(first_address, stations)
        self.store = SasStore(db_path)
        self.link = SasLink(port, self.store, stations, signer)
        self.egms = {a: Egm(a, st, self.link.shared, port) for a, st in self.addresses.items()}
        self.responder = Responder(line_opener, self.egms, chirp=chirp, chirp_after=chirp_after)
        self.port = port

    def start(self) -> SasService:
        # the poll thread waits at most this long for the interpreter while the game's
        # threads compute (Python's default is 5 ms)
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_S))
        self.link.start()
        self.responder.start()
        return self

    def stop(self) -> None:
        self.responder.stop()
        self.link.stop()
        self.store.close()
        close = getattr(self.port, "close", None)
        if close is not None:
            close()


def serve_port(
    port: GamePort, db_path: str | Path, sas_port: str, first_address: int
) -> SasService:
    """The service on the serial port (or pty) at ``sas_port``, started."""
    return SasService(port, db_path, lambda: open_line(sas_port), first_address).start()
