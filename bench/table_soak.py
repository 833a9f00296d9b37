"""The shared table's soak, longer than CI's: a host and seven headless stations, each
with its validator (and printer) simulators and its link through a fault proxy, playing
by themselves under seeded random cuts of the host, the stations and the links (see
``tests/support/table_soak.py``); prints the cuts tried by kind, the rounds, the notes,
the link faults and the money lost, then the reckoning's problems (none when every
station balances, every seat of every round is settled once and ``uth audit verify
--replay`` passes).

Usage: ``.venv/bin/python -m bench.table_soak [--minutes 10] [--seed 7]
[--keep FOLDER]``; exits 1 when the reckoning found a problem.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bench.machine import describe_machine

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def main() -> int:
    from support.table_soak import Plan, Soak
    from support.table_soak_check import check

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="playing time (default 10)")
    parser.add_argument("--seed", type=int, default=7, help="the cuts' and patrons' seed")
    parser.add_argument("--keep", help="keep the ledger and pairings in this folder")
    args = parser.parse_args()
    print(describe_machine(), flush=True)
    with tempfile.TemporaryDirectory(prefix="uth-soak-") as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        soak = Soak(folder, Plan(seed=args.seed, seconds=args.minutes * 60))
        began = time.monotonic()
        try:
            soak.start()
            soak.run()
            soak.finish()
        except Exception:
            print(soak.tails(), file=sys.stderr)
            raise
        finally:
            soak.close()
        result = check(soak)
        print(f"printers: {'yes' if soak.printers else 'no'}; patrons: {dict(soak.patron)}")
        for book in result.books.values():
            print(
                f"station {book.station}: rounds {book.rounds}, in {book.money_in}, "
                f"handpays {book.handpays}, tickets out {book.tickets_out}, "
                f"credits {book.credits}, seat net {book.seat_net}, imbalance {book.imbalance}"
            )
        print("\n".join(soak.timeline))
        for problem in result.problems:
            print(f"PROBLEM {problem}")
        print(f"{result.summary()}; {time.monotonic() - began:.0f} s wall")
    return 1 if result.problems else 0


if __name__ == "__main__":
    sys.exit(main())
