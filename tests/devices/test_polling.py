"""The shared polling lifecycle: start and stop, the exception policy, the port's wire."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

import pytest
from support.fast_devices import wait_for

from devices.polling import PolledDriver, PortOptions, SerialPoller
from devices.sim.pty import PtyDevice

log = logging.getLogger("devices.test")


@dataclass(frozen=True)
class _Config:
    device_name: str = "probe"
    poll_interval: float = 0.005


class _Reported(Exception):
    pass


class _Echo(PtyDevice):
    def on_bytes(self, data: bytes) -> None:
        self.write(data)


class _Counting(PolledDriver):
    """Polls by counting; raises what ``raises`` holds on every poll."""

    def __init__(self, port: str, options: PortOptions | None = None) -> None:
        super().__init__(
            SerialPoller(
                port, self._poll, _Config(), protocol="t", log=log, options=options or PortOptions()
            )
        )
        self.polls = 0
        self.threads: set[str] = set()
        self.raises: Exception | None = None

    def _poll(self) -> None:
        self.polls += 1
        self.threads.add(threading.current_thread().name)
        if self.raises is not None:
            raise self.raises


@pytest.fixture
def echo():
    with _Echo() as device:
        yield device


def test_start_polls_in_a_named_thread_and_stop_ends_it(echo) -> None:
    with _Counting(echo.port) as driver:
        driver.start()
        driver.start()  # a second start is a no-op
        assert wait_for(lambda: driver.polls >= 3)
        driver.stop()
        stopped_at = driver.polls
        time.sleep(0.05)
        assert driver.polls == stopped_at
        assert driver.threads == {"t-probe"}
    assert driver.port == echo.port


def test_the_loop_survives_errors_and_logs_only_unreported_ones(echo, caplog) -> None:
    caplog.set_level(logging.ERROR, logger="devices.test")
    driver = _Counting(echo.port, PortOptions(reported=(_Reported,)))
    driver.open()
    driver.raises = _Reported("already an event")
    driver.start()
    assert wait_for(lambda: driver.polls >= 3)
    assert not caplog.records
    driver.raises = RuntimeError("boom")
    seen = driver.polls
    assert wait_for(lambda: driver.polls >= seen + 3)
    driver.close()
    assert caplog.records
    assert all("unexpected error in poll loop" in r.getMessage() for r in caplog.records)


def test_the_port_writes_reads_and_drains(echo) -> None:
    poller = SerialPoller(echo.port, lambda: None, _Config(), protocol="t", log=log)
    assert not poller.is_open
    assert poller.open() is True
    assert poller.open() is False  # already open
    assert poller.write(b"ping")
    read = bytearray()
    assert wait_for(lambda: read.extend(poller.read_some() or b"") or read == b"ping")
    assert poller.write(b"stale")
    drained = bytearray()
    assert wait_for(lambda: drained.extend(poller.drain()) or drained == b"stale")
    poller.close()
    assert not poller.is_open
