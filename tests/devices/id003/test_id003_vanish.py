"""The validator's serial port vanishes (cable pulled, EIO) and comes back.

The driver opens a path the test controls (a symlink, like ``/dev/serial/by-id/...``) to a
simulator's pty.  The path is removed, the pty closed mid-exchange or mid-escrow, and after
a few seconds a new simulator is served on the same path.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import pytest
from support.fast_devices import FAST_VALIDATOR, PortLink, TimedHost, wait_for

from devices.host import DeviceEventKind
from devices.id003 import BillValidator, Status
from devices.sim import Bill, Id003Simulator

#: how long the port stays away
ABSENCE = 3.0


@pytest.fixture
def link(tmp_path) -> PortLink:
    return PortLink(tmp_path / "validator")


@pytest.fixture
def timed_host() -> TimedHost:
    return TimedHost()


@pytest.fixture
def sims() -> Iterator[list[Id003Simulator]]:
    """Every simulator a test starts; all stopped at the end."""
    started: list[Id003Simulator] = []
    yield started
    for sim in started:
        sim.stop()


def _driver_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "devices.id003"]


def _start(
    link: PortLink, host: TimedHost, sims: list[Id003Simulator]
) -> tuple[Id003Simulator, BillValidator]:
    sim = Id003Simulator(seed=1).start()
    sims.append(sim)
    link.point(sim.port)
    validator = BillValidator(str(link), host, FAST_VALIDATOR)
    validator.enable()
    validator.start()
    assert wait_for(lambda: validator.ready and validator.last_status == Status.IDLING)
    return sim, validator


def test_port_vanishing_mid_poll_tilts_stays_quiet_and_reconnects(
    link: PortLink,
    timed_host: TimedHost,
    sims: list[Id003Simulator],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="devices")
    old, validator = _start(link, timed_host, sims)
    try:
        link.remove()
        lines_before = len(_driver_lines(caplog))
        cut = time.monotonic()
        old.unplug_on_next_input()  # the next STATUS REQUEST is never answered

        assert wait_for(lambda: timed_host.first(DeviceEventKind.COMM_ERROR, after=cut), timeout=5)
        tilted = timed_host.first(DeviceEventKind.COMM_ERROR, after=cut)
        assert tilted is not None and tilted - cut < 1.0
        [tilt] = [e for e in timed_host.events if e.kind is DeviceEventKind.COMM_ERROR]
        assert tilt.tilt and str(link) in tilt.detail

        time.sleep(max(0.0, cut + ABSENCE - time.monotonic()))
        absent = _driver_lines(caplog)[lines_before:]
        assert len(absent) <= 4, absent
        assert not any("unexpected error" in line for line in absent)
        assert not validator.ready

        new = Id003Simulator(seed=2).start()
        sims.append(new)
        link.point(new.port)
        back = time.monotonic()
        assert wait_for(
            lambda: timed_host.first(DeviceEventKind.COMM_ERROR, active=False, after=back),
            timeout=5,
        )
        cleared = timed_host.first(DeviceEventKind.COMM_ERROR, active=False, after=back)
        assert cleared is not None and cleared - back < 2.0
        assert wait_for(lambda: validator.ready and validator.last_status == Status.IDLING)
        assert not new.inhibited  # reset and configured again, enabled as before

        new.insert_bill(2000)
        assert wait_for(lambda: timed_host.credits)
        assert [c[:2] for c in timed_host.credits] == [("bill", 2000)]
        print(
            f"\nvalidator mid-poll: comm_error after {tilted - cut:.3f} s, "
            f"cleared {cleared - back:.3f} s after the port came back, "
            f"{len(absent)} log lines in {ABSENCE:.0f} s of absence"
        )
    finally:
        validator.close()


@pytest.mark.heavy
def test_port_vanishing_mid_escrow_aborts_it_and_never_credits_it(
    link: PortLink,
    timed_host: TimedHost,
    sims: list[Id003Simulator],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="devices")
    old, validator = _start(link, timed_host, sims)
    cut: list[float] = []

    def pull_cable() -> None:  # on the simulator thread, the moment STACK-1 arrives
        cut.append(time.monotonic())
        old.stop()

    try:
        link.remove()
        old.on_state(Status.STACKING, pull_cable)
        old.insert_bill(2000)
        assert wait_for(lambda: cut, timeout=10)
        [(_, cents, tid)] = timed_host.escrows
        assert cents == 2000

        assert wait_for(lambda: timed_host.abort_times, timeout=5)
        [(aborted_at, reason)] = timed_host.abort_times
        assert reason == "port_lost" and timed_host.aborts == [(tid, "port_lost")]
        assert aborted_at - cut[0] < 1.0
        tilted = timed_host.first(DeviceEventKind.COMM_ERROR, after=cut[0])
        assert tilted is not None and tilted - cut[0] < 1.0
        time.sleep(max(0.0, cut[0] + ABSENCE - time.monotonic()))

        # The unit kept the note and finished stacking it while the cable was out: it is
        # back reporting VEND VALID for a cycle the host has already heard ended.
        new = Id003Simulator(seed=2)
        new.state, new.item = Status.VEND_VALID, Bill(2000)
        new.start()
        sims.append(new)
        link.point(new.port)
        back = time.monotonic()
        assert wait_for(
            lambda: timed_host.first(DeviceEventKind.COMM_ERROR, active=False, after=back),
            timeout=5,
        )
        cleared = timed_host.first(DeviceEventKind.COMM_ERROR, active=False, after=back)
        assert cleared is not None and cleared - back < 2.0
        assert wait_for(lambda: new.cashbox == [Bill(2000)])  # our ACK let it finish
        assert wait_for(lambda: validator.ready and validator.last_status == Status.IDLING)
        assert timed_host.credits == []
        assert DeviceEventKind.VEND_UNMATCHED.value in timed_host.kinds()

        new.insert_bill(500)  # and the validator works again
        assert wait_for(lambda: timed_host.credits)
        [(kind, credited, new_tid)] = timed_host.credits
        assert (kind, credited) == ("bill", 500) and new_tid != tid
        assert not any("unexpected error" in line for line in _driver_lines(caplog))
        print(
            f"\nvalidator mid-escrow: escrow_aborted after {aborted_at - cut[0]:.3f} s, "
            f"comm_error after {tilted - cut[0]:.3f} s, "
            f"cleared {cleared - back:.3f} s after the port came back"
        )
    finally:
        validator.close()
