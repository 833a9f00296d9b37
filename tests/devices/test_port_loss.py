"""A port that vanishes: the poller closes it, says so once, and reopens it on a back-off."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

import pytest
from support.fast_devices import PortLink, wait_for

from devices.comm_health import CommHealth
from devices.host import DeviceEventKind
from devices.polling import PortOptions, SerialPoller
from devices.port_loss import PortLoss, ReopenPolicy
from devices.sim.pty import PtyDevice

log = logging.getLogger("devices.test")

FAST_REOPEN = PortOptions(reopen=ReopenPolicy(first=0.1, longest=0.2))


@dataclass(frozen=True)
class _Config:
    device_name: str = "probe"
    poll_interval: float = 0.005


class _Echo(PtyDevice):
    def on_bytes(self, data: bytes) -> None:
        self.write(data)


def test_back_off_starts_short_doubles_and_is_capped() -> None:
    loss = PortLoss("read failed", ReopenPolicy(first=0.5, longest=1.0), since=100.0)
    assert not loss.due(100.4)
    assert loss.due(100.5)
    assert loss.failed("[Errno 2] No such file", 100.5) is True  # worth a log line
    assert not loss.due(101.4) and loss.due(101.5)  # doubled to the cap
    assert loss.failed("[Errno 2] No such file", 101.5) is False  # same reason: no line
    assert not loss.due(102.4) and loss.due(102.5)  # capped at 1 s
    assert loss.failed("[Errno 13] Permission denied", 102.5) is True  # new reason
    assert loss.attempts == 3
    assert loss.absent_for(103.0) == 3.0
    with pytest.raises(ValueError):
        ReopenPolicy(first=2.0, longest=1.0)


def test_port_lost_raises_comm_error_at_once_and_success_clears_it() -> None:
    events: list[tuple[DeviceEventKind, str, bool]] = []

    def emit(kind: DeviceEventKind, detail: str, *, active: bool = True) -> None:
        events.append((kind, detail, active))

    health = CommHealth(5, emit, "failed exchanges")
    health.port_lost("port /dev/x lost: read failed")
    assert health.lost and health.consecutive_failures >= 5
    health.port_lost("again")  # still lost: no second event
    health.failure()
    assert events == [(DeviceEventKind.COMM_ERROR, "port /dev/x lost: read failed", True)]
    health.success()
    assert events[-1] == (DeviceEventKind.COMM_ERROR, "communication restored", False)
    assert not health.lost and health.consecutive_failures == 0


def test_a_vanished_port_is_lost_once_and_reopened_when_back(tmp_path, caplog) -> None:
    caplog.set_level(logging.INFO, logger="devices.test")
    link = PortLink(tmp_path / "probe")
    lost: list[str] = []
    first, second = _Echo().start(), _Echo()
    link.point(first.port)
    poller = SerialPoller(
        str(link), lambda: None, _Config(), protocol="t", log=log, options=FAST_REOPEN,
        on_lost=lost.append,
    )  # fmt: skip
    try:
        assert poller.open() and not poller.lost
        link.remove()
        first.stop()  # the cable is pulled
        assert poller.read_some() is None or poller.read_some() is None
        assert poller.lost and not poller.is_open
        assert len(lost) == 1 and str(link) in lost[0]
        # while lost: every call fails at once, quietly, and nothing is reopened early
        assert poller.write(b"x") is False
        assert poller.drain() == b""
        assert poller.read_some() is None
        assert poller.recover() is False
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            poller.recover()  # the device node is still missing
            time.sleep(0.005)
        assert len(lost) == 1
        lines = [r.getMessage() for r in caplog.records]
        assert len(lines) <= 3, lines  # lost, "not back yet" once
        second.start()
        link.point(second.port)
        assert wait_for(poller.recover, timeout=2.0)
        assert not poller.lost
        assert "reopened" in caplog.records[-1].getMessage()
        assert poller.write(b"ping")
        read = bytearray()
        assert wait_for(lambda: read.extend(poller.read_some() or b"") or read == b"ping")
    finally:
        poller.close()
        first.stop()
        second.stop()


@pytest.mark.parametrize(
    "notice",
    [
        lambda p: p.write(b"x") is False,
        lambda p: p.read_some() is None,
        lambda p: p.drain() == b"",
    ],
    ids=["write", "read_some", "drain"],
)
def test_every_call_on_the_wire_notices_a_vanished_port(tmp_path, notice) -> None:
    link = PortLink(tmp_path / "probe")
    device = _Echo().start()
    link.point(device.port)
    lost: list[str] = []
    poller = SerialPoller(
        str(link), lambda: None, _Config(), protocol="t", log=log, on_lost=lost.append
    )
    poller.open()
    try:
        link.remove()
        device.stop()
        assert notice(poller)  # no exception escapes
        assert poller.lost and len(lost) == 1
    finally:
        poller.close()


def test_reopening_waits_for_the_back_off(tmp_path) -> None:
    link = PortLink(tmp_path / "probe")
    first, second = _Echo().start(), _Echo().start()
    link.point(first.port)
    policy = ReopenPolicy(first=0.5, longest=1.0)
    poller = SerialPoller(
        str(link),
        lambda: None,
        _Config(),
        protocol="t",
        log=log,
        options=PortOptions(reopen=policy),
    )
    poller.open()
    try:
        first.stop()
        assert poller.drain() == b"" and poller.lost
        lost_at = time.monotonic()
        link.point(second.port)  # back at once, but the poller does not hammer the port
        while time.monotonic() - lost_at < 0.4:
            assert poller.recover() is False
            time.sleep(0.01)
        assert wait_for(poller.recover, timeout=1.0)
        assert time.monotonic() - lost_at >= policy.first
    finally:
        poller.close()
        first.stop()
        second.stop()


def test_close_forgets_a_lost_port(tmp_path) -> None:
    link = PortLink(tmp_path / "probe")
    device = _Echo().start()
    link.point(device.port)
    poller = SerialPoller(str(link), lambda: None, _Config(), protocol="t", log=log)
    poller.open()
    link.remove()
    device.stop()
    assert poller.drain() == b""
    assert poller.lost
    poller.close()
    assert not poller.lost and poller.recover() is False


def test_a_simulator_can_pull_its_cable_mid_exchange() -> None:
    device = _Echo().start()
    poller = SerialPoller(device.port, lambda: None, _Config(), protocol="t", log=log)
    poller.open()
    try:
        device.unplug_on_next_input()
        poller.write(b"ping")  # the flush may already fail: the pty closes on receipt
        assert wait_for(lambda: poller.read_some() is None and poller.lost, timeout=2.0)
        assert device.bytes_out == 0  # never answered
    finally:
        poller.close()
        device.stop()
