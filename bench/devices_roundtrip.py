"""Round trips per second of the device drivers against their simulators over a real pty.

Prints: ID-003 status polls/s, notes stacked and credited/s (poll interval 0), TCL status
requests/s; with the validator's default settings, how long after its port vanishes the
``comm_error`` tilt comes and how long after the port is back it clears; and the machine it
ran on.  Usage: ``python bench/devices_roundtrip.py``.
"""

from __future__ import annotations

import logging
import os
import platform
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from devices.host import DeviceEvent, DeviceEventKind
from devices.id003 import BillValidator, Status, ValidatorConfig
from devices.sim import Id003Simulator, RecordingHost, TclSimulator
from devices.tcl import PrinterConfig, TicketPrinter


def bench_id003(seconds: float = 2.0) -> tuple[float, float]:
    host = RecordingHost()
    with Id003Simulator() as sim:
        v = BillValidator(sim.port, host, ValidatorConfig(poll_interval=0))
        v.enable()
        v.open()
        while not (v.ready and v.last_status == Status.IDLING):
            v.poll_once()
        polls, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            v.poll_once()
            polls += 1
        poll_rate = polls / (time.perf_counter() - start)
        notes = 50
        for _ in range(notes):
            sim.insert_bill(2000)
        start = time.perf_counter()
        while len(host.credits) < notes or sim.state is not Status.IDLING:
            v.poll_once()
        note_rate = notes / (time.perf_counter() - start)
        v.close()
    return poll_rate, note_rate


def bench_tcl(seconds: float = 2.0) -> float:
    with TclSimulator() as sim, TicketPrinter(sim.port, RecordingHost(), PrinterConfig()) as p:
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            p.status()
            count += 1
        return count / (time.perf_counter() - start)


class _CommWatch(RecordingHost):
    """Notes when ``comm_error`` is raised and cleared (``time.monotonic()``)."""

    def __init__(self) -> None:
        super().__init__()
        self.raised: float | None = None
        self.cleared: float | None = None

    def device_event(self, event: DeviceEvent) -> None:
        super().device_event(event)
        if event.kind is DeviceEventKind.COMM_ERROR:
            if event.active:
                self.raised = time.monotonic()
            else:
                self.cleared = time.monotonic()


def _wait(predicate: Callable[[], object], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.005)


def _point(link: Path, target: str) -> None:
    fresh = link.with_name(link.name + ".new")
    os.symlink(target, fresh)
    os.replace(fresh, link)


def bench_vanish(absence: float = 1.0) -> tuple[float, float]:
    """Seconds from the port vanishing to ``comm_error``, and from its return to the
    clearing, for a validator polled every 0.1 s (the default settings)."""
    host = _CommWatch()
    with tempfile.TemporaryDirectory() as folder:
        link = Path(folder) / "validator"
        old, new = Id003Simulator().start(), Id003Simulator()
        _point(link, old.port)
        v = BillValidator(str(link), host, ValidatorConfig())
        v.start()
        try:
            _wait(lambda: v.ready)
            link.unlink()
            cut = time.monotonic()
            old.stop()
            _wait(lambda: host.raised is not None)
            time.sleep(absence)
            new.start()
            _point(link, new.port)
            back = time.monotonic()
            _wait(lambda: host.cleared is not None)
        finally:
            v.close()
            old.stop()
            new.stop()
    assert host.raised is not None and host.cleared is not None, "no comm_error or no clearing"
    return host.raised - cut, host.cleared - back


def main() -> None:
    logging.getLogger("devices").setLevel(logging.ERROR)  # the vanishing port logs warnings
    poll_rate, note_rate = bench_id003()
    tcl_rate = bench_tcl()
    tilt, clear = bench_vanish()
    print(f"ID-003 status polls over pty:   {poll_rate:8.0f} /s")
    print(f"ID-003 notes escrowed+credited: {note_rate:8.1f} /s (one state per poll)")
    print(f"TCL status requests over pty:   {tcl_rate:8.0f} /s")
    print(f"port vanished -> comm_error:    {tilt * 1000:8.0f} ms (validator, 0.1 s polls)")
    print(f"port back -> comm_error clear:  {clear * 1000:8.0f} ms (reopen back-off 0.5-1 s)")
    print(
        f"machine: {platform.machine()} {platform.processor() or ''} {os.cpu_count()} cpus, "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()}"
    )


if __name__ == "__main__":
    main()
