"""Evaluator speed: batch seven-card hands/s on one core, scalar hands/s, table size and load time.

Run: .venv/bin/python -m bench.evaluator [--hands N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

from bench.machine import describe_machine


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=5_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    cold = subprocess.run(
        [sys.executable, "-c",
         "import time; t=time.perf_counter(); import engine.hands.evaluator; print(time.perf_counter()-t)"],
        capture_output=True, text=True, check=True,
    )
    load_s = float(cold.stdout.strip())

    from engine.hands import tables as evaluator_tables
    from engine.hands.evaluator import evaluate, evaluate_batch

    size = sum(a.nbytes for a in evaluator_tables.load().values())
    rng = np.random.default_rng(1)
    hands = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :7].astype(np.uint8)
    evaluate_batch(hands[:10_000])
    rates = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        evaluate_batch(hands)
        rates.append(args.hands / (time.perf_counter() - t))
    scalar_hands = hands[:300_000].tolist()
    srates = []
    for _ in range(3):
        t = time.perf_counter()
        for h in scalar_hands:
            evaluate(h)
        srates.append(len(scalar_hands) / (time.perf_counter() - t))

    print(f"machine: {describe_machine()}")
    print(f"batch 7-card evaluate_batch: {statistics.median(rates) / 1e6:.1f} M hands/s "
          f"(median of {args.repeat}, best {max(rates) / 1e6:.1f}; one process, one core)")
    print(f"scalar evaluate (7 cards, Python loop): {statistics.median(srates) / 1e6:.2f} M hands/s")
    print(f"tables in memory: {size / 1024:.0f} KiB; import + load (cold process): {load_s * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
