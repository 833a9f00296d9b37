"""The table host's PIN checks are the cabinet's: an attendant guessing at one station
between her own right logins locks the accounts she guesses at, whichever station she
types at.  A real :class:`Table` on a SQLite file and its :class:`OperatorService`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from support.operator_screens import PEOPLE, cabinet_config

from engine.rng import SeededRandomSource
from kiosk.game.rules.lockout import MAX_FAILURES
from kiosk.ledger.kinds import EventKind
from kiosk.link.messages import OperatorLogin, OperatorSession
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.tablehost.operator_service import OperatorService

ANN, TED, CY = PEOPLE


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def login(service: OperatorService, station: int, pin: str) -> OperatorSession:
    got = service.handle(station, OperatorLogin(ref=1, pin=pin))
    assert isinstance(got, OperatorSession)
    return got


def test_guesses_between_ones_own_logins_at_the_table_find_no_pin(tmp_path):
    clock = Clock()
    config = cabinet_config(tmp_path)
    table = Table.open(
        config, (1, 2, 3), rng=SeededRandomSource(5), clock=clock, timing=TableTiming(60, 60)
    )
    service = OperatorService(table)
    tried = [f"{i:06d}" for i in range(300)]
    tried[37], tried[150] = CY[2], TED[2]
    found = []
    for i, pin in enumerate(tried):
        clock.now += timedelta(seconds=1)
        got = login(service, 1 + i % 3, pin)  # every station in turn
        if got.accepted:
            found.append(got.name)
        else:
            assert got.code == "wrong_pin", got.detail
        if i % (MAX_FAILURES - 1) == MAX_FAILURES - 2:
            assert login(service, 2, ANN[2]).accepted
    assert found == []
    locks = table.ledger.events((EventKind.OPERATOR_ACCOUNTS_LOCKED,))
    assert locks and {CY[0], TED[0]} <= set(locks[0].detail["accounts"])
    again = OperatorService(table)  # a restarted host keeps the accounts' locks
    assert not login(again, 3, CY[2]).accepted
    assert login(again, 3, ANN[2]).accepted
    table.close()
