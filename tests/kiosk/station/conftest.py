"""Fixtures of the station tests that run as processes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.cli_process import Proc
from support.peripherals import Peripherals


@pytest.fixture
def device_processes(tmp_path: Path) -> Iterator[tuple[Path, list[Proc], Peripherals]]:
    """A folder, the list the test puts its CLI processes in (their last lines are
    printed and the live ones killed at the end) and the peripherals' own process, which
    outlives every host and station the test cuts."""
    started: list[Proc] = []
    devices = Peripherals()
    yield tmp_path, started, devices
    devices.close()
    for proc in started:
        print(f"--- {proc.name}\n" + "\n".join(proc.lines[-30:]))
        if proc.p.poll() is None:
            proc.p.kill()
            proc.p.wait(10)
