"""Benchmark: simulated rounds per second, simple and optimal play (target >= 2 M/s on 2 cores).

    .venv/bin/python -m bench.simulate [--rounds N] [--workers K] [--strategy NAME ...]

Prints the machine and, for each strategy (default: simple and optimal), the rounds per
second (wall clock, worker start-up included) and the CPU seconds used, so that a figure
taken on a busy machine can be read for what it is.  The optimal strategy's tables (the
exact analysis and the river table) are loaded from the PAR cache, or computed once,
before the clock starts.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import time

from engine.maths.simulate import simulate
from engine.maths.strategies import get_strategy
from engine.uth.paytable import PAYTABLE_DIR, load_paytable


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{cpu}, {os.cpu_count()} cores, load average {load:.2f}, Python {platform.python_version()}"


def cpu_seconds() -> float:
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20_000_000)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--strategy", nargs="+", default=["simple", "optimal"])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    table = load_paytable(PAYTABLE_DIR / "standard.toml")
    print(f"machine: {machine()}")
    for name in args.strategy:
        strategy = get_strategy(name, table)
        simulate(table, 100_000, strategy, seed=0)  # warm up: imports, tables
        cpu0, t0 = cpu_seconds(), time.perf_counter()
        rep = simulate(table, args.rounds, strategy, seed=args.seed, workers=args.workers)
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
        m = rep.main
        print(
            f"simulate {name}: {args.rounds:,} rounds, {args.workers} workers: {wall:.2f} s wall, "
            f"{cpu:.2f} s CPU"
        )
        print(
            f"  {args.rounds / wall / 1e6:.2f} M rounds/s (wall)   "
            f"{args.rounds / cpu / 1e6:.2f} M rounds per CPU-second"
        )
        lo, hi = rep.extra["ci99"]["rtp_total_main_bet"]
        print(
            f"  RTP total main bet {100 * m['rtp_total_main_bet']:.3f}% "
            f"(99% CI {100 * lo:.3f}..{100 * hi:.3f}), "
            f"initial {100 * m['rtp_initial_main_bet']:.3f}%, Trips {100 * rep.trips['rtp']:.3f}%"
        )


if __name__ == "__main__":
    main()
