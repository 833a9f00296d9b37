"""Round trips per second of the device drivers against their simulators over a real pty.

Prints: ID-003 status polls/s, notes stacked and credited/s (poll interval 0), TCL status
requests/s, and the machine it ran on.  Usage: ``python bench/devices_roundtrip.py``.
"""

from __future__ import annotations

import os
import platform
import time

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


def main() -> None:
    poll_rate, note_rate = bench_id003()
    tcl_rate = bench_tcl()
    print(f"ID-003 status polls over pty:   {poll_rate:8.0f} /s")
    print(f"ID-003 notes escrowed+credited: {note_rate:8.1f} /s (one state per poll)")
    print(f"TCL status requests over pty:   {tcl_rate:8.0f} /s")
    print(
        f"machine: {platform.machine()} {platform.processor() or ''} {os.cpu_count()} cpus, "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()}"
    )


if __name__ == "__main__":
    main()
