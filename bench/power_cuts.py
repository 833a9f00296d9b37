"""Power-cut benchmark: the money-path harness of ``tests/kiosk/power`` at a larger scale.

    .venv/bin/python -m bench.power_cuts --cuts 3000

Runs :mod:`tests/kiosk/power/power_harness.py` (peripherals in their own process, the
controller forked and SIGKILLed at every phase of note stacking, ticket redemption and
printing, deals, decisions and cash-outs) on a fresh ledger, and prints the cuts, what
was lost (cents; must be 0), the seconds taken, and the machine it ran on.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HARNESS = ROOT / "tests" / "kiosk" / "power" / "power_harness.py"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuts", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [sys.executable, str(HARNESS), str(Path(tmp) / "uth.db"), str(args.cuts)],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
        )
    if proc.returncode:
        print(proc.stderr[-3000:], file=sys.stderr)
        return proc.returncode
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    print(json.dumps(summary, indent=1))
    print(
        f"{summary['cuts']} cuts in {summary['seconds']} s: money lost "
        f"{summary['money_lost_cents']} cents, notes lost {summary['notes_lost']}, "
        f"tickets lost {summary['tickets_lost']}, verify {summary['verify_ok']} "
        f"({platform.machine()}, {os.cpu_count()} cpus, Python {platform.python_version()})"
    )
    return 0 if summary["money_lost_cents"] == 0 and summary["verify_ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
