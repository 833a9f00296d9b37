"""The printer's serial port vanishes (cable pulled, EIO) and comes back.

The driver opens a path the test controls (a symlink, like ``/dev/serial/by-id/...``) to a
simulator's pty.  The path is removed, the pty closed while idle or mid-print, and after a
few seconds a new simulator is served on the same path.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from datetime import date, datetime

import pytest
from support.fast_devices import FAST_PRINTER, PortLink, TimedHost, wait_for

from devices.host import DeviceEventKind
from devices.sim import TclSimulator
from devices.tcl import PrintOutcome, PrintResult, TicketPrinter
from devices.ticket import TicketData
from devices.validation import new_validation_number

#: how long the port stays away
ABSENCE = 3.0


def _ticket() -> TicketData:
    return TicketData(
        casino_name="THE LUCKY PALACE",
        address="1 MAIN ST, RENO NV",
        machine_number="0042",
        issued_at=datetime(2026, 5, 8, 21, 15, 3),
        amount_cents=12345,
        sequence_number=17,
        validation_number=new_validation_number(),
        expires_on=date(2026, 8, 6),
    )


@pytest.fixture
def link(tmp_path) -> PortLink:
    return PortLink(tmp_path / "printer")


@pytest.fixture
def sims() -> Iterator[list[TclSimulator]]:
    """Every simulator a test starts; all stopped at the end."""
    started: list[TclSimulator] = []
    yield started
    for sim in started:
        sim.stop()


def _driver_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "devices.tcl"]


def _start(
    link: PortLink, host: TimedHost, sims: list[TclSimulator], **sim_options: int
) -> tuple[TclSimulator, TicketPrinter]:
    sim = TclSimulator(seed=1, **sim_options).start()
    sims.append(sim)
    link.point(sim.port)
    printer = TicketPrinter(str(link), host, FAST_PRINTER)
    printer.open()
    printer.start()
    return sim, printer


def _come_back(
    link: PortLink, host: TimedHost, sims: list[TclSimulator]
) -> tuple[TclSimulator, float, float]:
    """Serve a new printer on the path; returns it, when it came and when comms cleared."""
    new = TclSimulator(seed=2).start()
    sims.append(new)
    link.point(new.port)
    back = time.monotonic()
    assert wait_for(
        lambda: host.first(DeviceEventKind.COMM_ERROR, active=False, after=back), timeout=5
    )
    cleared = host.first(DeviceEventKind.COMM_ERROR, active=False, after=back)
    assert cleared is not None
    return new, back, cleared


def test_port_vanishing_while_idle_tilts_stays_quiet_and_reconnects(
    link: PortLink, sims: list[TclSimulator], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="devices")
    host = TimedHost()
    old, printer = _start(link, host, sims)
    try:
        link.remove()
        lines_before = len(_driver_lines(caplog))
        cut = time.monotonic()
        old.unplug_on_next_input()  # the next status request is never answered

        assert wait_for(lambda: host.first(DeviceEventKind.COMM_ERROR, after=cut), timeout=5)
        tilted = host.first(DeviceEventKind.COMM_ERROR, after=cut)
        assert tilted is not None and tilted - cut < 1.0
        time.sleep(max(0.0, cut + ABSENCE - time.monotonic()))
        absent = _driver_lines(caplog)[lines_before:]
        assert len(absent) <= 4, absent
        assert not any("unexpected error" in line for line in absent)

        new, back, cleared = _come_back(link, host, sims)
        assert cleared - back < 2.0
        assert wait_for(lambda: new.templates)  # the layout is defined again
        result = printer.print_ticket(_ticket())
        assert result.outcome is PrintOutcome.PRINTED, result
        assert len(new.printed) == 1
        print(
            f"\nprinter idle: comm_error after {tilted - cut:.3f} s, "
            f"cleared {cleared - back:.3f} s after the port came back, "
            f"{len(absent)} log lines in {ABSENCE:.0f} s of absence"
        )
    finally:
        printer.close()


def test_port_vanishing_mid_print_ends_the_job_unknown_at_once(
    link: PortLink, sims: list[TclSimulator], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="devices")
    host = TimedHost()
    # the validation number is never reached before the cable is pulled
    old, printer = _start(link, host, sims, validation_polls=100_000)
    results: list[PrintResult] = []
    job = threading.Thread(target=lambda: results.append(printer.print_ticket(_ticket())))
    try:
        link.remove()
        job.start()
        assert wait_for(lambda: old.job is not None, timeout=5)  # printing has started
        cut = time.monotonic()
        old.unplug_on_next_input()
        job.join(timeout=FAST_PRINTER.print_timeout + 5)
        ended = time.monotonic()
        [interrupted] = results
        assert interrupted.outcome is PrintOutcome.UNKNOWN, interrupted
        assert "port lost" in interrupted.detail
        assert ended - cut < 1.0
        assert old.printed == []
        tilted = host.first(DeviceEventKind.COMM_ERROR, after=cut)
        assert tilted is not None and tilted - cut < 1.0
        time.sleep(max(0.0, cut + ABSENCE - time.monotonic()))

        new, back, cleared = _come_back(link, host, sims)
        assert cleared - back < 2.0
        result = printer.print_ticket(_ticket())
        assert result.outcome is PrintOutcome.PRINTED, result
        assert len(new.printed) == 1
        assert not any("unexpected error" in line for line in _driver_lines(caplog))
        print(
            f"\nprinter mid-print: job ended {interrupted.outcome.value} after {ended - cut:.3f} s, "
            f"comm_error after {tilted - cut:.3f} s, "
            f"cleared {cleared - back:.3f} s after the port came back"
        )
    finally:
        printer.close()
