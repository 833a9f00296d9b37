"""Decision values benchmark: the durable commit of a player's decision with the exact
decision values recorded (computed beside the round by :mod:`kiosk.game.round_values`)
and without.

    .venv/bin/python -m bench.decision_values                # 100 rounds each way
    .venv/bin/python -m bench.decision_values --rounds 300 --dir /tmp/bench

Each way plays ``--rounds`` $5 rounds through a lone cabinet's station (:mod:`kiosk.wiring.lone_cabinet`)
on a fresh ledger in ``--dir`` (WAL, synchronous=FULL, its anchor beside it), each
decision chosen at random (seeded) among the legal ones.  With values on, a decision is
taken once the values of its own phase are ready (a player takes longer than the 0.1 s
they need), while the next phases' are still being computed in their thread, as on the
cabinet.  Reported: the median and the 99th percentile of the ``decide()`` call (the
decision's row, the meters, the COMMIT with its fsync and the anchor write), in ms.
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.machine import describe_machine  # noqa: E402
from engine.rng import SeededRandomSource  # noqa: E402
from engine.uth.round import Action, Phase  # noqa: E402
from kiosk.config import load_config  # noqa: E402
from kiosk.game import commands as cmd  # noqa: E402
from kiosk.game import round_values  # noqa: E402
from kiosk.game.snapshot import MachinePhase  # noqa: E402
from kiosk.game.vocabulary import SEAT  # noqa: E402
from kiosk.station.credits import insert_credits  # noqa: E402
from kiosk.wiring.lone_cabinet import LoneCabinet  # noqa: E402


def _phase(legal: tuple[Action, ...]) -> Phase:
    if Action.PLAY_4X in legal:
        return Phase.PREFLOP
    return Phase.FLOP if Action.PLAY_2X in legal else Phase.RIVER


def decision_times(folder: Path, rounds: int, values: bool, seed: int) -> tuple[list[float], int]:
    """Seconds of each ``decide()`` over ``rounds`` rounds, and how many decisions were
    stored with their values."""
    config = load_config(db_path=folder / "uth.db", decision_values=values)
    cab = LoneCabinet.open(config, rng=SeededRandomSource(seed))
    m = cab.station
    rng = random.Random(seed)
    times: list[float] = []
    try:
        if values:
            round_values.valuer_for(m.snapshot().paytable)  # the optimal analysis, loaded once
        for _ in range(rounds):
            if cab.table.credits(SEAT) < 2000:
                insert_credits(cab.link, cmd.InsertCredits(10000))
            m.execute(cmd.PlaceChip("ante", 500))
            m.execute(cmd.Deal())
            while m.snapshot().phase == MachinePhase.IN_ROUND:
                legal = m.snapshot().legal
                seat_values = cab.table.decision_values(SEAT)  # the round's values (values on)
                if seat_values is not None:
                    seat_values.get(_phase(legal), 60)
                action = rng.choice(legal)
                t0 = time.perf_counter()
                m.execute(cmd.Decide(action))
                times.append(time.perf_counter() - t0)
        valued = sum(
            1
            for r in cab.table.recall(rounds, station=SEAT)
            for d in r.decisions
            if d.ev is not None
        )
    finally:
        cab.close()
    return times, valued


def p99(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=100, method="inclusive")[98] if len(xs) > 1 else xs[0]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--dir", default=str(ROOT / "var" / "bench"), help="where the ledgers go (a disk)"
    )
    args = p.parse_args(argv)
    logging.getLogger("kiosk.ledger.startup").setLevel(logging.ERROR)  # demo key and anchor
    base = Path(args.dir)
    base.mkdir(parents=True, exist_ok=True)
    print(describe_machine())
    for values in (False, True):
        with tempfile.TemporaryDirectory(prefix="uth-values-", dir=base) as tmp:
            times, valued = decision_times(Path(tmp), args.rounds, values, args.seed)
        ms = [1000 * t for t in times]
        label = "values on " if values else "values off"
        print(
            f"{label}: {len(ms)} decisions ({valued} with values) in {args.rounds} rounds: "
            f"decide() median {statistics.median(ms):.2f} ms, p99 {p99(ms):.2f} ms, max {max(ms):.2f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
