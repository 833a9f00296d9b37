"""The RNG dossier's producers: rounds per second of the outcome collection (``uth rng
deal``: rounds dealt by the game service's own ``deal_round`` over the OS generator and
written in the outcome file's layout, at one seat and at seven), and megabytes per second
of the dump, the tap on the cabinet's source (``uth rng dump``) against its vectorised
twin (``uth rng dump --fast``), which justifies the twin.  ``--fast`` times the twin alone,
on ``--megabytes`` of its own (the tap at that size would take hours), and prints the load
average beside it (the machine may be shared).

    .venv/bin/python -m bench.rng_speed [--rounds N] [--megabytes M] [--fast [--workers N]]
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import time

from engine.rng import SystemRandomSource
from engine.rng_tests import tapped_dump
from engine.rng_tests.fastdump import dump_stream
from engine.rng_tests.outcomes import write_outcomes
from engine.uth.paytable import PAYTABLE_DIR, load_paytable


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20_000)
    ap.add_argument("--megabytes", type=float, default=2.0)
    ap.add_argument(
        "--fast", action="store_true", help="only the twin, on --megabytes of its own output"
    )
    ap.add_argument("--workers", type=int, default=1, help="with --fast: processes")
    args = ap.parse_args()
    if args.fast:
        fast_only(int(args.megabytes * 1e6), args.workers)
        return
    table = load_paytable(PAYTABLE_DIR / "standard.toml")
    print(
        f"machine: {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}, one process"
    )
    for seats in (1, 7):
        start = time.perf_counter()
        write_outcomes(io.BytesIO(), SystemRandomSource(), table, args.rounds, seats)
        seconds = time.perf_counter() - start
        print(
            f"uth rng deal, {seats} seat(s): {args.rounds:,} rounds in {seconds:.2f} s, "
            f"{args.rounds / seconds:,.0f} rounds/s"
        )
    tap_bytes = int(args.megabytes * 1e6)
    speeds = []
    for name, stream, count in (
        ("tap (uth rng dump)", tapped_dump, tap_bytes),
        ("twin (uth rng dump --fast)", dump_stream, 8 * tap_bytes),
    ):
        start = time.perf_counter()
        for _ in stream(count):
            pass
        speeds.append(count / 1e6 / (time.perf_counter() - start))
        print(f"{name}: {count:,} bytes, {speeds[-1]:.2f} MB/s")
    print(f"the twin is {speeds[1] / speeds[0]:.1f} times as fast as the tap")


def fast_only(count: int, workers: int) -> None:
    """The twin's speed alone, with the load average before and after, by the clock and
    by this process's CPU time (what a shared machine's other loads take less from)."""
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs")
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    start, cpu = time.perf_counter(), time.process_time()
    for _ in dump_stream(count, workers=workers) if workers > 1 else dump_stream(count):
        pass
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print(
        f"twin (uth rng dump --fast --workers {workers}): {count:,} bytes in {seconds:.1f} s, "
        f"{count / 1e6 / seconds:.2f} MB/s; this process's CPU {cpu:.1f} s, "
        f"{count / 1e6 / cpu:.2f} MB per CPU second"
    )


if __name__ == "__main__":
    main()
