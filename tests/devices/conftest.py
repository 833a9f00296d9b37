"""Fixtures for the device tests: simulators on real ptys, drivers with short timeouts.

Timing: simulators move one state per poll, so scenarios do not depend on wall-clock speed;
``wait_for`` allows a generous overall time (a loaded 2-core machine), polls every 10 ms.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

import pytest
from support.fast_devices import FAST_PRINTER, FAST_VALIDATOR, TICKET_BARCODE, poll_until, wait_for

from devices.id003 import BillValidator, Status
from devices.sim import Id003Simulator, RecordingHost, TclSimulator
from devices.tcl import TicketPrinter


@pytest.fixture
def host() -> RecordingHost:
    return RecordingHost(tickets={TICKET_BARCODE: 2550})


@pytest.fixture
def sim() -> Iterator[Id003Simulator]:
    with Id003Simulator(seed=7) as s:
        yield s


@pytest.fixture
def manual(sim: Id003Simulator, host: RecordingHost) -> Iterator[BillValidator]:
    """A validator driven by ``poll_once`` from the test, already reset, configured, enabled."""
    v = BillValidator(sim.port, host, FAST_VALIDATOR)
    v.enable()
    v.open()
    assert poll_until(v, lambda: v.last_status == Status.IDLING and v.ready)
    yield v
    v.close()


@pytest.fixture
def validator(sim: Id003Simulator, host: RecordingHost) -> Iterator[BillValidator]:
    """A validator polling in its own thread, enabled and idle."""
    v = BillValidator(sim.port, host, FAST_VALIDATOR)
    v.enable()
    v.start()
    assert wait_for(lambda: v.last_status == Status.IDLING and v.ready)
    yield v
    v.close()


@pytest.fixture
def printer_sim() -> Iterator[TclSimulator]:
    with TclSimulator(seed=7) as s:
        yield s


@pytest.fixture
def printer(printer_sim: TclSimulator, host: RecordingHost) -> Iterator[TicketPrinter]:
    p = TicketPrinter(printer_sim.port, host, FAST_PRINTER)
    p.open()
    yield p
    p.close()


@pytest.fixture
def warnings_of(caplog: pytest.LogCaptureFixture) -> Callable[[str], list[logging.LogRecord]]:
    """``warnings_of("devices.id003")`` -> warning records of that logger so far."""
    caplog.set_level(logging.INFO, logger="devices")

    def get(name: str) -> list[logging.LogRecord]:
        return [r for r in caplog.records if r.name == name and r.levelno >= logging.WARNING]

    return get
