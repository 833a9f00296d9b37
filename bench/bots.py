"""Benchmark of the tournament computer players.

Prints, with the machine it ran on:

1. decision time per strength in real six-handed play (median and max, milliseconds;
   target under 150 ms), the decisions after the flop (the Monte-Carlo ones) apart;
2. for each match-up, N bot-only sit-and-gos (Classic table, three bots of one strength
   against three of another in shuffled seats, random personalities): the share of games
   each strength wins, with its 95% interval;
3. each personality's style at a six-handed Normal table (stacks reset every hand): VPIP,
   PFR, aggression factor, fold to a bet over half the pot, bluffs (see
   :mod:`engine.holdem.style`).

Usage::

    .venv/bin/python -m bench.bots [--tournaments 2000] [--matches hard:normal,normal:easy]
        [--hands 3000] [--decisions 2000] [--workers 2] [--only times,matches,styles]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from bench.machine import describe_machine
from engine.holdem.actions import Street
from engine.holdem.bots import PERSONALITIES, Bot, Difficulty
from engine.holdem.config import TournamentConfig
from engine.holdem.hand import HoldemHand
from engine.holdem.seats import SeatSpec
from engine.holdem.style import StyleTracker, measure_styles
from engine.holdem.tournament import Tournament
from engine.rng import SeededRandomSource

STYLE_NAMES = (*PERSONALITIES, "Balanced")


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
            assert seat is not None
            view = hand.view(seat)
            t0 = time.perf_counter()
            action = bots[seat].decide(view)
            ms = (time.perf_counter() - t0) * 1000
            times[bots[seat].difficulty.value].append(ms)
            if hand.street is not Street.PREFLOP:
                times[f"{bots[seat].difficulty.value}+flop"].append(ms)
            hand.act(action, seat=seat)
    return times


def one_tournament(i: int, first: str, second: str) -> str:
    """One sit-and-go, three ``first`` bots against three ``second``; the winner's strength."""
    diffs = [first, second] * 3
    random.Random(i).shuffle(diffs)
    seats = [SeatSpec(f"P{j}", "bot", d) for j, d in enumerate(diffs)]
    t = Tournament(TournamentConfig.for_table("classic", seats), rng=SeededRandomSource(i))
    return diffs[t.play_to_end()]


def interval(wins: int, games: int) -> tuple[float, float]:
    """Share and the half-width of its 95% interval (normal approximation)."""
    p = wins / games
    return p, 1.96 * (p * (1 - p) / games) ** 0.5


def match(first: str, second: str, games: int, workers: int, seed: int = 0) -> int:
    """Wins of ``first`` in ``games`` sit-and-gos of three ``first`` v three ``second``."""
    play = partial(one_tournament, first=first, second=second)
    seeds = range(seed, seed + games)
    if workers <= 1:
        return sum(play(i) == first for i in seeds)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return sum(w == first for w in pool.map(play, seeds, chunksize=8))


def style_table(hands: int, seed: int = 7, difficulty: str = "normal") -> StyleTracker:
    """Each personality's counts at a six-handed table of ``difficulty`` bots."""
    players = [
        (n, Bot(difficulty, n if n in PERSONALITIES else None, rng=seed * 10 + i))
        for i, n in enumerate(STYLE_NAMES)
    ]
    return measure_styles(players, hands, seed=seed)


def _print_times(decisions: int) -> None:
    times = decision_times(decisions)
    print("\n1. decision time (ms), real 6-handed play (+flop: after the flop, Monte Carlo)")
    for name, ts in times.items():
        print(
            f"   {name:11s} median {statistics.median(ts):6.2f}   max {max(ts):7.2f}   "
            f"({len(ts)} decisions)"
        )
    worst = max(max(ts) for ts in times.values())
    print(f"   target < 150 ms: {'met' if worst < 150 else 'NOT met'} (worst {worst:.1f} ms)")


def _print_matches(pairs: Iterable[tuple[str, str]], games: int, workers: int) -> None:
    print(f"\n2. sit-and-gos, Classic table, 3 v 3 bots in shuffled seats ({games} each)")
    for first, second in pairs:
        t0 = time.perf_counter()
        wins = match(first, second, games, workers)
        p, half = interval(wins, games)
        print(
            f"   {first.title()} v {second.title()}: {first.title()} wins {wins} of {games} = "
            f"{p:.1%} +/- {half:.1%} (95%), {second.title()} {1 - p:.1%} "
            f"({time.perf_counter() - t0:.0f} s)"
        )


def _print_styles(hands: int) -> None:
    tracker = style_table(hands)
    print(f"\n3. personalities at a six-handed Normal table ({hands} hands, stacks reset)")
    print("   name       VPIP    PFR     AF  fold>1/2pot  bluffs/100 hands")
    for name in STYLE_NAMES:
        c = tracker.of(name)
        print(
            f"   {name:8s} {c.vpip:6.1%} {c.pfr:6.1%} {c.aggression_factor:6.2f}"
            f"   {c.fold_to_big_bet:6.1%} ({c.big_bets_faced:4d})   {c.bluffs_per_100:6.2f}"
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--tournaments", type=int, default=2000, help="sit-and-gos per match-up")
    ap.add_argument("--matches", default="hard:normal,normal:easy,hard:easy")
    ap.add_argument("--hands", type=int, default=3000, help="hands for the personality table")
    ap.add_argument("--decisions", type=int, default=2000, help="timed decisions per strength")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--only", default="times,matches,styles", help="sections to run")
    args = ap.parse_args()
    sections = set(args.only.split(","))
    print(f"machine: {describe_machine()}")
    if "times" in sections:
        _print_times(args.decisions)
    if "matches" in sections:
        pairs = [tuple(m.split(":")) for m in args.matches.split(",") if m]
        _print_matches(((a, b) for a, b in pairs), args.tournaments, args.workers)
    if "styles" in sections:
        _print_styles(args.hands)
    return 0


if __name__ == "__main__":
    sys.exit(main())
