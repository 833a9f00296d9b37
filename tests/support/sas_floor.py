"""A floor of game services on real ledger files (:mod:`tests.support.sas_game`),
each on its own SAS line (the pty transport) with the project's host polling it: what
the TITO tests cash out, print and redeem tickets across."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from devices.sas.host import SasHost
from devices.sas.line import PtyLine, PtyPair
from devices.sas.session import HostSession, TicketBook
from kiosk.sas.service import SasService
from tests.support.sas_game import GameFloor
from tests.support.sas_rig import link_read_everything


@dataclass
class Floor:
    game: GameFloor
    pair: PtyPair
    service: SasService
    host: SasHost
    session: HostSession

    def settle(self) -> None:
        """The link reads every change (a validation number the host just sent included),
        the stations' printers print what they were ordered, and the link reads that."""
        link_read_everything(self.service)
        self.game.print_ordered()
        link_read_everything(self.service)

    def stop(self, orderly: bool = True) -> None:
        if orderly:
            self.service.stop()
        else:  # the power goes: threads stop, nothing more is written
            self.service.responder.stop()
            self.service.link._stop.set()
            self.service.link.shared.wake.set()
            assert self.service.link._thread is not None
            self.service.link._thread.join()
        self.game.shut(orderly)
        self.pair.close()


def open_floor(db: Path, book: TicketBook, stations: int = 1, address: int = 1) -> Floor:
    game = GameFloor(db, stations)
    pair = PtyPair()
    service = SasService(game, db, lambda: PtyLine.open(pair.port), address, signer=lambda s: 0)
    service.start()
    host = SasHost(pair.line, answer_timeout=0.5, silence=0.02)
    session = HostSession(host, list(service.addresses), book)
    floor = Floor(game, pair, service, host, session)
    floor.settle()
    return floor


def poll_until(floor: Floor, code: int, tries: int = 40, seconds: float = 10.0) -> list[int]:
    """Poll cycles until exception ``code`` came: at least ``tries`` cycles and, on a
    loaded machine, for up to ``seconds`` (a ticket asked of the casino's system is
    answered on a worker thread of the service); the exceptions seen on the way."""
    seen: list[int] = []
    n, deadline = 0, time.monotonic() + seconds
    while n < tries or time.monotonic() < deadline:
        floor.settle()
        got = [x.code for x in floor.session.cycle()]
        seen += got
        if code in got:
            return seen
        n += 1
        if n >= tries:
            time.sleep(0.01)
    raise AssertionError(f"exception {code:02X} never came: {seen}")
