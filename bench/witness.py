"""Witness counter benchmark: what moving the counter with the money costs a note.

    .venv/bin/python -m bench.witness [--notes 200] [--dir var/bench] [--witness-dir /dev/shm]

Credits ``--notes`` notes (``bill_in`` events, each its own durable commit) on a fresh
ledger in ``--dir``, its anchor in ``--witness-dir``, first without a witness counter,
then with a file counter in ``--witness-dir`` moved at each note (the ``pending`` row
with the note, the counter replaced and fsynced, the ``done`` row: one more commit).
Prints the median milliseconds a note takes each way and the machine.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from bench.machine import describe_machine
from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.witness import FileCounter, witness_power_up


def notes_ms(folder: Path, witness: Path, notes: int, counter: bool) -> float:
    """Median milliseconds of one note credited on a fresh ledger in ``folder``."""
    key = CabinetKey.create(folder / "ledger.key")
    table = load_paytable(PAYTABLE_DIR / "standard.toml")
    ledger = Ledger.create(folder / "uth.db", paytable=table, key=key, anchor=witness / "a")
    if counter:
        witness_power_up(ledger, FileCounter(witness / "counter"))
    times = []
    for _ in range(notes):
        start = time.perf_counter()
        ledger.event(EventKind.BILL_IN, amount=2000, detail={"bill": 2000})
        times.append(time.perf_counter() - start)
    ledger.close()
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=200)
    parser.add_argument("--dir", default="var/bench")
    parser.add_argument("--witness-dir", default="/dev/shm")
    args = parser.parse_args()
    Path(args.dir).mkdir(parents=True, exist_ok=True)
    results = {}
    for counter in (False, True):
        folder = Path(tempfile.mkdtemp(prefix="uth-witness-bench-", dir=args.dir))
        witness = Path(tempfile.mkdtemp(prefix="uth-witness-bench-", dir=args.witness_dir))
        try:
            results[counter] = notes_ms(folder, witness, args.notes, counter)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
            shutil.rmtree(witness, ignore_errors=True)
    print(describe_machine())
    print(
        f"a note credited: {results[False]:.2f} ms median without the counter, "
        f"{results[True]:.2f} ms with a file counter moved at each note ({args.notes} notes)"
    )


if __name__ == "__main__":
    main()
