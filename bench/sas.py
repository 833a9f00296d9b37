"""The SAS link of a lone cabinet on the pty transport (the table's seven stations take
the same poll thread, one address each, once the table's game service implements the
port).

* **answer start / inter-byte gap** under a 40 ms poll cycle while rounds are played:
  the host sends a poll every 40 ms (general polls, and every fourth a meter long poll:
  1A, 0F, 1C, 2F in turn) while another thread plays rounds through the controller; p50 /
  p99 / max of the time from the end of the poll to the first byte of the answer as the
  host reads it, of the largest gap between bytes of one answer, and of the machine's
  own time from the last byte received to its answer written;
* **polls without a lost exception**: ``--polls`` polls as fast as the line goes while a
  thread opens and closes the slot door (two exceptions each time); every exception the
  ledger's door events raise must reach the host once, in order, with no overflow;
* **storm**: ``--storm`` random frames; the meters and the ledger must not move.

Usage: ``.venv/bin/python -m bench.sas [--seconds 60] [--polls 1000000] [--storm 100000]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the rig's helpers

from bench.machine import describe_machine  # noqa: E402
from devices.sas.frames import with_length  # noqa: E402
from kiosk.game.commands import SetDoor  # noqa: E402
from kiosk.ledger.kinds import EventKind  # noqa: E402
from tests.support.sas_rig import Rig, start_rig, storm  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(values: list[float]) -> str:
    return (f"p50 {_pct(values, 0.5) * 1000:.3f} ms, p99 {_pct(values, 0.99) * 1000:.3f} ms, "
            f"max {max(values) * 1000:.3f} ms over {len(values):,}")  # fmt: skip


def timing(seconds: float, workdir: Path) -> None:
    """The cabinet in a process of its own (``uth sas serve --pty --rounds``), playing
    rounds; this process is the host, so neither waits for the other's interpreter."""
    from devices.sas.host import SasHost
    from devices.sas.line import PtyLine

    child = subprocess.Popen(
        [sys.executable, "-m", "kiosk.cli", "sas", "serve", "--pty", "--db", str(workdir / "t.db"),
         "--rounds", "100000", "--seconds", str(seconds + 30)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=workdir,
        env={**os.environ, "UTH_HEADLESS": "1"},
    )  # fmt: skip
    assert child.stdout is not None
    line = child.stdout.readline()
    port = line.split(" on ", 1)[1].split(":", 1)[0]
    h = SasHost(PtyLine.open(port), answer_timeout=0.1)
    time.sleep(2.0)  # its first rounds under way
    try:
        _timing(h, seconds)
    finally:
        child.terminate()
        child.wait(timeout=30)


def _timing(h, seconds: float) -> None:  # noqa: ANN001
    long_polls = [
        lambda: h.long_poll(1, 0x1A), lambda: h.long_poll(1, 0x0F), lambda: h.long_poll(1, 0x1C),
        lambda: h.send_poll(1, with_length(1, 0x2F, bytes((0, 0, 0x00, 0x01, 0x05, 0x0C)))),
    ]  # fmt: skip
    n, start = 0, time.monotonic()
    next_at = start
    while time.monotonic() - start < seconds:
        next_at += 0.040
        if n % 4 == 3:
            long_polls[(n // 4) % 4]()
        else:
            if h.general_poll(1).code:
                h.acknowledge()
        n += 1
        time.sleep(max(0.0, next_at - time.monotonic()))
    s = h.stats
    print(f"40 ms poll cycle, {seconds:.0f} s, {n:,} polls while the cabinet plays rounds, "
          f"{s.timeouts} polls unanswered within {h.answer_timeout * 1000:.0f} ms")  # fmt: skip
    print(f"  answer start: {_ms(s.starts)}   [goal <= 20 ms]")
    print(f"  inter-byte gap: {_ms(s.gaps)}   [goal <= 5 ms]")


def lossless(rig: Rig, polls: int) -> None:
    m = rig.machine
    rig.exceptions()  # start from an empty queue
    first = m.station.ledger_events(last=1)[-1].id
    stop = threading.Event()

    def doors() -> None:
        while not stop.is_set():
            m.station.execute(SetDoor(True))
            m.station.execute(SetDoor(False))
            time.sleep(0.004)

    t = threading.Thread(target=doors, daemon=True)
    t.start()
    h, got, start = rig.host, [], time.monotonic()
    for i in range(polls):
        if i == polls - 200:
            stop.set()
            t.join()
        ex = h.general_poll(1)
        if ex.code:
            got.append(ex.code)
            h.acknowledge()
    stop.set()
    t.join()
    got += rig.exceptions(limit=100_000)
    elapsed = time.monotonic() - start
    expected = [0x11 if e.kind == EventKind.DOOR_OPEN else 0x12
                for e in m.station.ledger_events((EventKind.DOOR_OPEN, EventKind.DOOR_CLOSED)) if e.id > first]  # fmt: skip
    lost = len(expected) - len(got)
    if got != expected:
        at = next((i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b), min(len(got), len(expected)))
        print(f"  first difference at {at}: got {got[max(0, at - 3):at + 4]}, "
              f"expected {expected[max(0, at - 3):at + 4]}")
    print(f"{polls:,} general polls in {elapsed:.1f} s ({polls / elapsed:,.0f}/s): "
          f"{len(expected):,} exceptions raised by the ledger's door events, {len(got):,} received, "
          f"in order: {got == expected}, lost {lost}, overflows {got.count(0x70)}; host: polls "
          f"sent again {h.stats.retries}, late bytes dropped {h.stats.stale}")  # fmt: skip


def storm_bench(rig: Rig, frames: int) -> None:
    before = rig.machine.table.read(lambda a: a.meters())
    start = time.monotonic()
    sent = storm(rig.pair.line, seed=99, frames=frames)
    rig.settle()
    stats = rig.service.responder.stats
    after = rig.machine.table.read(lambda a: a.meters())
    report = rig.machine.table.read(lambda a: a.verify())
    alive = rig.host.long_poll(1, 0x1A).kind == "data"
    print(f"storm: {sent:,} random frames in {time.monotonic() - start:.1f} s; bad CRC "
          f"{stats.bad_crc:,}, truncated {stats.truncated:,}, ignored {stats.ignored:,}; meters "
          f"unchanged {after == before}, ledger verified {bool(report and report.ok)}, "
          f"still answering {alive}")  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--polls", type=int, default=1_000_000)
    p.add_argument("--storm", type=int, default=100_000)
    args = p.parse_args()
    print(describe_machine())
    with tempfile.TemporaryDirectory() as d:
        timing(args.seconds, Path(d))
        rig = start_rig(Path(d) / "uth.db")
        rig.host.answer_timeout = 0.1
        try:
            if args.polls:
                lossless(rig, args.polls)
            if args.storm:
                storm_bench(rig, args.storm)
        finally:
            rig.stop()


if __name__ == "__main__":
    main()
