"""The lone cabinet's round, deal to settlement, through the controller the screens use.

Each round: a chip on the Ante, Deal, check, check, Play 1x (the last decision settles
the round in one durable ledger transaction), every step through the cabinet's
``execute`` exactly as the screens send it, on a real SQLite ledger file.  Prints the
median and p95 of the whole round and of its settling decision, in milliseconds.

Usage: ``.venv/bin/python -m bench.cabinet_round [--rounds 300]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bench.machine import describe_machine


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values``, in milliseconds."""
    return statistics.quantiles(values, n=100)[int(q * 100) - 1] * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()

    from engine.rng import SeededRandomSource
    from engine.uth.round import Action
    from kiosk.config import load_config
    from kiosk.game import commands as cmd
    from kiosk.station.credits import insert_credits
    from kiosk.wiring.lone_cabinet import LoneCabinet

    folder = Path(tempfile.mkdtemp(prefix="bench-cabinet-"))
    config = load_config(db_path=folder / "uth.db", decision_values=False)
    cabinet = LoneCabinet.open(config, rng=SeededRandomSource(11))
    machine = cabinet.station  # the screens' controller
    ante = machine.snapshot().limits.ante_min
    rounds: list[float] = []
    settles: list[float] = []
    for _ in range(args.rounds):
        if machine.snapshot().credits < 6 * ante:
            insert_credits(cabinet.link, cmd.InsertCredits(10_000))
        start = time.perf_counter()
        machine.execute(cmd.PlaceChip("ante", ante))
        machine.execute(cmd.Deal())
        machine.execute(cmd.Decide(Action.CHECK))
        machine.execute(cmd.Decide(Action.CHECK))
        last = time.perf_counter()
        machine.execute(cmd.Decide(Action.PLAY_1X))
        end = time.perf_counter()
        assert machine.snapshot().round_id is not None
        rounds.append(end - start)
        settles.append(end - last)
    cabinet.close()
    print(f"machine: {describe_machine()}")
    print(
        f"cabinet round, deal to settlement ({args.rounds} rounds): "
        f"median {statistics.median(rounds) * 1e3:.2f} ms, p95 {pct(rounds, 0.95):.2f} ms; "
        f"the settling decision: median {statistics.median(settles) * 1e3:.2f} ms, "
        f"p95 {pct(settles, 0.95):.2f} ms"
    )


if __name__ == "__main__":
    main()
