"""The RNG dossier's full run: the game-level tests on 10^7 cabinet shuffles, ent,
dieharder -a and NIST SP 800-22 (nistrng: 100 sequences of 10^6 bits) on the raw dump.

    .venv/bin/python -m bench.rng [--decks N] [--sequences K] [--report FILE] [--skip-dieharder]

Prints each figure, its time and the machine.  Takes hours at the full sizes.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from engine.rng import SystemRandomSource, shuffled_deck
from engine.rng_tests import dump_bytes, run_game_tests
from kiosk.rng_report import report_html


def nist(data: bytes, sequences: int, bits: int) -> list[str]:
    """Each NIST test's pass proportion over ``sequences`` sequences of ``bits`` bits."""
    from nistrng import SP800_22R1A_BATTERY, check_eligibility_all_battery, run_all_battery

    array = np.unpackbits(np.frombuffer(data, dtype=np.uint8)).astype(np.int64)
    passed: dict[str, int] = {}
    for i in range(sequences):
        seq = array[i * bits:(i + 1) * bits]
        eligible = check_eligibility_all_battery(seq, SP800_22R1A_BATTERY)
        for result, _elapsed in run_all_battery(seq, eligible, False):
            passed[result.name] = passed.get(result.name, 0) + int(result.passed)
    low = 0.99 - 3 * (0.99 * 0.01 / sequences) ** 0.5  # SP 800-22's proportion bound
    return [f"{name}: {n}/{sequences} {'ok' if n / sequences >= low else 'LOW'}"
            for name, n in sorted(passed.items())]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--decks", type=int, default=10_000_000)
    ap.add_argument("--sequences", type=int, default=100)
    ap.add_argument("--bits", type=int, default=1_000_000)
    ap.add_argument("--report", default="rng-report.html")
    ap.add_argument("--skip-dieharder", action="store_true")
    args = ap.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    start = time.perf_counter()
    source = SystemRandomSource()
    decks = np.array([shuffled_deck(source) for _ in range(args.decks)], dtype=np.int8)
    results = run_game_tests(decks)
    seconds = time.perf_counter() - start
    for t in results:
        print(f"{'PASS' if t.passed else 'FAIL'} {t.name}: p {t.p_value:.4g} {t.detail}")
    print(f"game-level tests, {args.decks:,} decks: {seconds:.1f} s")
    Path(args.report).write_text(report_html(decks, results, seconds, " ".join(sys.argv)))
    with tempfile.TemporaryDirectory() as tmp:
        dump = Path(tmp) / "dump.bin"
        t0 = time.perf_counter()
        dump.write_bytes(dump_bytes(args.sequences * args.bits // 8))
        print(f"dump {dump.stat().st_size:,} bytes: {time.perf_counter() - t0:.1f} s")
        if shutil.which("ent"):
            print(subprocess.run(["ent", str(dump)], capture_output=True, text=True).stdout)
        t0 = time.perf_counter()
        for line in nist(dump.read_bytes(), args.sequences, args.bits):
            print("NIST", line)
        print(f"NIST SP 800-22: {time.perf_counter() - t0:.1f} s")
        if shutil.which("dieharder") and not args.skip_dieharder:
            t0 = time.perf_counter()
            out = subprocess.run(["dieharder", "-a", "-g", "201", "-f", str(dump)],
                                 capture_output=True, text=True).stdout
            failed = [line for line in out.splitlines() if "FAILED" in line]
            print(f"dieharder -a: {len(failed)} FAILED, {time.perf_counter() - t0:.1f} s")
            print("\n".join(failed))


if __name__ == "__main__":
    main()
