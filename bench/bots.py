"""Benchmark of the tournament computer players.

Prints, with the machine it ran on:

1. decision time per strength (median and max, milliseconds; target under 150 ms);
2. over N bot-only sit-and-gos (Classic table, three Hard and three Easy bots in shuffled
   seats) how often each strength finishes first;
3. each personality's VPIP and aggression factor ((bets + raises) / calls after the flop).

Usage: ``.venv/bin/python -m bench.bots [--tournaments 2000] [--hands 3000] [--workers 2]``
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from bench.machine import describe_machine
from engine.holdem.actions import Street
from engine.holdem.bots import PERSONALITIES, Bot, Difficulty
from engine.holdem.config import TournamentConfig
from engine.holdem.hand import HoldemHand
from engine.holdem.records import BetMade, Called, Raised
from engine.holdem.seats import SeatSpec
from engine.holdem.tournament import Tournament
from engine.rng import SeededRandomSource


def decision_times(decisions: int, seed: int = 1) -> dict[str, list[float]]:
    """Time ``Bot.decide`` in real 6-handed play, per strength (ms); the keys ending in
    "+flop" hold the decisions after the flop (the Monte-Carlo ones)."""
    times: dict[str, list[float]] = {d.value: [] for d in Difficulty}
    times.update({f"{d.value}+flop": [] for d in Difficulty})
    rng = random.Random(seed)
    rs = SeededRandomSource(seed)
    bots = [Bot(d, rng=i) for i, d in enumerate(list(Difficulty) * 2)]
    h = 0
    while min(len(times[d.value]) for d in Difficulty) < decisions:
        stacks = [rng.randint(400, 4000) for _ in range(6)]
        hand = HoldemHand(stacks, h % 6, 10, 20, rng=rs)
        h += 1
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            t0 = time.perf_counter()
            action = bots[seat].decide(view)
            ms = (time.perf_counter() - t0) * 1000
            times[bots[seat].difficulty.value].append(ms)
            if hand.street is not Street.PREFLOP:
                times[f"{bots[seat].difficulty.value}+flop"].append(ms)
            hand.act(action, seat=seat)
    return times


def one_tournament(i: int) -> str:
    diffs = ["easy", "hard"] * 3
    random.Random(i).shuffle(diffs)
    seats = [SeatSpec(f"P{j}", "bot", d) for j, d in enumerate(diffs)]
    t = Tournament(TournamentConfig.for_table("classic", seats), rng=SeededRandomSource(i))
    return diffs[t.play_to_end()]


def personality_table(hands: int, seed: int = 7) -> list[tuple[str, float, float, int]]:
    """VPIP and AF of each personality at a six-handed Normal table (stacks reset each hand)."""
    names = [*PERSONALITIES, "Balanced"]
    bots = [Bot("normal", n if n in PERSONALITIES else None, rng=i) for i, n in enumerate(names)]
    vpip, aggr, calls, dealt = Counter(), Counter(), Counter(), Counter()
    rs = SeededRandomSource(seed)
    for h in range(hands):
        hand = HoldemHand([3000] * 6, h % 6, 10, 20, rng=rs)
        while not hand.is_over:
            seat = hand.to_act
            postflop = hand.street is not Street.PREFLOP
            rec = hand.act(bots[seat].decide(hand.view(seat)), seat=seat)
            if postflop and isinstance(rec, BetMade | Raised):
                aggr[seat] += 1
            elif postflop and isinstance(rec, Called):
                calls[seat] += 1
        for seat in range(6):
            dealt[seat] += 1
            vpip[seat] += hand.voluntary[seat]
    return [(names[s], vpip[s] / dealt[s], aggr[s] / max(1, calls[s]), dealt[s]) for s in range(6)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tournaments", type=int, default=2000)
    ap.add_argument("--hands", type=int, default=3000, help="hands for the personality table")
    ap.add_argument("--decisions", type=int, default=2000, help="timed decisions per strength")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    print(f"machine: {describe_machine()}")

    times = decision_times(args.decisions)
    print("\n1. decision time (ms), real 6-handed play, Monte Carlo bots (+flop: after the flop)")
    for name, ts in times.items():
        print(
            f"   {name:11s} median {statistics.median(ts):6.2f}   max {max(ts):7.2f}   "
            f"({len(ts)} decisions)"
        )
    worst = max(max(ts) for ts in times.values())
    print(f"   target < 150 ms: {'met' if worst < 150 else 'NOT met'} (worst {worst:.1f} ms)")

    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        winners = Counter(pool.map(one_tournament, range(args.tournaments), chunksize=8))
    elapsed = time.perf_counter() - t0
    n = args.tournaments
    print(f"\n2. {n} sit-and-gos, Classic table, 3 Hard + 3 Easy bots ({elapsed:.0f} s)")
    for name in ("hard", "easy"):
        share = winners[name] / n
        print(
            f"   {name:5s} finished first {winners[name]:5d} times = {share:6.1%} "
            f"(per player {share / 3:6.1%}; fair share 16.7%)"
        )
    p = winners["hard"] / n
    se = (p * (1 - p) / n) ** 0.5
    print(
        f"   Hard minus Easy: {winners['hard'] - winners['easy']} wins; Hard share "
        f"{p:.1%} +/- {1.96 * se:.1%} (95%)"
    )

    print(f"\n3. personalities at a six-handed Normal table ({args.hands} hands)")
    print("   name      VPIP     AF")
    for name, v, af, _ in personality_table(args.hands):
        print(f"   {name:8s} {v:6.1%}  {af:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
