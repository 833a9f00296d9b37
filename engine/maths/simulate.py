"""Monte Carlo simulation of the cabinet's own game: deal, decide, settle, count.

``simulate(table, rounds, strategy, seed)`` deals ``rounds`` rounds in numpy batches
(nine cards per round drawn uniformly without replacement from the engine's 52-card
deck, like the cabinet's Fisher-Yates shuffle), lets the strategy's
vectorised rules decide, and settles every round with :func:`engine.uth.settlement.settle`,
the function the cabinet pays with.  What comes back is counted per *cell* (Play
multiple, final category, outcome; see :mod:`engine.maths.par_report`) together with the
money that ``settle`` returned for the rounds of each cell, so the report has the same
figures as the exact analysis plus a confidence interval on each RTP.

Reproducible: worker ``w`` of ``K`` draws from ``np.random.SeedSequence(seed).spawn(K)[w]``
and plays a fixed share of the rounds in fixed batches, so a seed and a worker count
give the same result however the operating system schedules the processes.

Stakes: every round bets Ante = Blind = Trips = the paytable's pay denominator in
cents (2 for 3:2), so every pay is a whole number of cents and nothing is lost to
breakage (checked).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

from engine.hands.evaluator import evaluate_batch
from engine.maths.optimal import OptimalStrategy
from engine.maths.par_flop import (
    LOSS_Q,
    N_CATEGORIES,
    N_OUTCOMES,
    PUSH_Q,
    WIN_Q,
)
from engine.maths.par_report import (
    FIELDS,
    MULTIPLES,
    N_MULTIPLES,
    Z95,
    Z99,
    ParReport,
    confidence,
    main_figures,
    trips_figures,
)
from engine.maths.par_tables import FULL_DECK
from engine.maths.strategies import get_strategy
from engine.maths.strategy import Strategy
from engine.uth.paytable import Paytable
from engine.uth.settlement import Outcome, settle

Progress = Callable[[int, int], None]
_ONE = np.int64(1)
N_CELLS = N_MULTIPLES * N_CATEGORIES * N_OUTCOMES
DEFAULT_BATCH = 1 << 14
# columns of a dealt round: the player's seven cards, then the dealer's two, so that
# columns 0..6 are the player's hand and 2..8 the dealer's
PLAYER = (0, 1)
BOARD = (2, 3, 4, 5, 6)
DEALER = (7, 8)


@dataclass
class SimTally:
    """Counts per cell and the money ``settle`` returned per cell (cents), summed."""

    counts: np.ndarray  # (5, 10, 6) int64
    money: np.ndarray  # (5, 10, 6, len(FIELDS)) int64: ante, blind, play, stake_play, trips
    breakage: int
    rounds: int

    @classmethod
    def zero(cls) -> SimTally:
        return cls(
            np.zeros((N_MULTIPLES, N_CATEGORIES, N_OUTCOMES), np.int64),
            np.zeros((N_MULTIPLES, N_CATEGORIES, N_OUTCOMES, len(FIELDS)), np.int64),
            0,
            0,
        )

    def add(self, other: SimTally) -> None:
        self.counts += other.counts
        self.money += other.money
        self.breakage += other.breakage
        self.rounds += other.rounds


def deal(
    rng: np.random.Generator, n: int, deck: np.ndarray, fixed: Sequence[int] = ()
) -> np.ndarray:
    """``(n, 9)`` uint8 rounds: columns player 2, board 5 (flop, turn, river), dealer 2.

    Each round's cards are drawn one at a time uniformly from the cards not yet drawn
    (a draw that repeats a card of its round is redrawn, which is the same thing), so
    every ordered deal is equally likely, as with the cabinet's Fisher-Yates shuffle.
    ``fixed`` cards (a sub-problem: the player's two, then the flop, then turn and river)
    fill the first columns; the rest come from the remaining cards of ``deck``.  The
    result is a column-major view (each column contiguous), as the evaluator reads it.
    """
    fixed = [int(c) for c in fixed]
    rest = np.array([c for c in deck if c not in fixed], dtype=np.int64)
    k = len(rest)
    if k > 63:
        raise ValueError("a deck has at most 52 cards")
    out = np.empty((9, n), np.uint8)
    for i, c in enumerate(fixed):
        out[i] = c
    first = len(fixed)
    pos_all = rng.integers(0, k, size=(9 - first, n), dtype=np.int16)
    taken = np.zeros(n, np.int64)  # bit j: rest[j] already dealt in this round
    for i in range(first, 9):
        pos = pos_all[i - first]
        bit = np.left_shift(_ONE, pos)
        if i > first:
            again = np.flatnonzero(taken & bit)
            while again.size:
                p = rng.integers(0, k, size=again.size, dtype=np.int16)
                pos[again] = p
                b = np.left_shift(_ONE, p)
                bit[again] = b
                again = again[(taken[again] & b) != 0]
        taken |= bit
        out[i] = pos if k == 52 else rest[pos]
    return out.T


def play_batch(
    rounds: np.ndarray,
    strategy: Strategy,
    table: Paytable,
    deck: Sequence[int] | None = None,
    start: str = "preflop",
) -> SimTally:
    """Decide and settle a batch of dealt rounds (``(n, 9)`` from :func:`deal`).

    ``start``: the first decision taken ("preflop", "flop" or "river"); starting later
    means the player checked before (sub-problems with a fixed flop or board).
    """
    n = len(rounds)
    holes = rounds[:, PLAYER]
    board = rounds[:, BOARD]
    ps = evaluate_batch(rounds[:, 0:7])  # player: hole + board
    ds = evaluate_batch(rounds[:, 2:9])  # dealer: board + hole

    if start == "preflop":
        mult = np.asarray(strategy.preflop_batch(holes), np.int64)
    else:
        mult = np.zeros(n, np.int64)
    rest = np.flatnonzero(mult == 0)
    if rest.size and start != "river":
        bet2 = np.asarray(strategy.flop_batch(holes[rest], board[rest, :3]), bool)
        mult[rest[bet2]] = 2
        rest = rest[~bet2]
    folded = np.zeros(n, bool)
    if rest.size:
        plays = np.asarray(_river(strategy, holes[rest], board[rest], ps[rest], deck), bool)
        mult[rest[plays]] = 1
        folded[rest[~plays]] = True

    unit = table.pay_denominator
    res = settle(unit, mult * unit, unit, folded, ps, ds, table)
    ps32, ds32 = ps.astype(np.int32), ds.astype(np.int32)
    win, tie = ps32 > ds32, ps32 == ds32
    nq = ~np.asarray(res.dealer_qualifies)
    o = np.where(win, WIN_Q, np.where(tie, PUSH_Q, LOSS_Q)) + nq  # *_NQ = *_Q + 1
    if not np.array_equal(res.outcome[~folded] == Outcome.WIN, win[~folded]):
        raise AssertionError("settlement and strengths disagree on who won")
    key = (mult * N_CATEGORIES + res.player_category) * N_OUTCOMES + o
    counts = np.bincount(key, minlength=N_CELLS)
    money = np.empty((N_CELLS, len(FIELDS)), np.int64)
    for f, arr in enumerate(
        (res.ante_return, res.blind_return, res.play_return, mult * unit, res.trips_return)
    ):
        money[:, f] = np.bincount(key, weights=arr, minlength=N_CELLS).round()
    return SimTally(
        counts.reshape(N_MULTIPLES, N_CATEGORIES, N_OUTCOMES).astype(np.int64),
        money.reshape(N_MULTIPLES, N_CATEGORIES, N_OUTCOMES, len(FIELDS)),
        int(res.breakage.sum()),
        n,
    )


def _river(
    strategy: Strategy,
    holes: np.ndarray,
    boards: np.ndarray,
    strengths: np.ndarray,
    deck: Sequence[int] | None,
) -> np.ndarray:
    fn = getattr(strategy, "river_batch_known", None)
    if fn is not None:
        return fn(holes, boards, strengths, deck)
    return strategy.river_batch(holes, boards, deck=deck)


# -- workers ------------------------------------------------------------------------------------

_STATE: dict[str, Any] = {}


def _init(
    table: Paytable, strategy: Strategy, deck: tuple[int, ...], fixed: tuple[int, ...], counter: Any
) -> None:
    _STATE.update(table=table, strategy=strategy, deck=deck, fixed=fixed, counter=counter)


def _work(seed_seq: np.random.SeedSequence, rounds: int, batch: int) -> SimTally:
    table, strategy, deck, fixed = (
        _STATE["table"],
        _STATE["strategy"],
        _STATE["deck"],
        _STATE["fixed"],
    )
    counter = _STATE.get("counter")
    rng = np.random.default_rng(seed_seq)
    deck_arr = np.array(deck, np.uint8)
    tally = SimTally.zero()
    done = 0
    while done < rounds:
        n = min(batch, rounds - done)
        start = {0: "preflop", 2: "preflop", 5: "flop", 7: "river"}[len(fixed)]
        tally.add(
            play_batch(
                deal(rng, n, deck_arr, fixed),
                strategy,
                table,
                None if deck == FULL_DECK else deck,
                start,
            )
        )
        done += n
        if counter is not None:
            with counter.get_lock():
                counter.value += n
    return tally


def _shares(rounds: int, workers: int) -> list[int]:
    return [rounds // workers + (w < rounds % workers) for w in range(workers)]


def run(
    table: Paytable,
    rounds: int,
    strategy: Strategy,
    *,
    seed: int = 0,
    workers: int = 1,
    batch: int = DEFAULT_BATCH,
    deck: Sequence[int] = FULL_DECK,
    fixed: Sequence[int] = (),
    progress: Progress | None = None,
) -> SimTally:
    """Play ``rounds`` rounds; returns the summed :class:`SimTally`."""
    if rounds <= 0:
        raise ValueError("rounds must be positive")
    deck = tuple(sorted(set(int(c) for c in deck)))
    fixed = tuple(int(c) for c in fixed)
    if (
        not set(fixed) <= set(deck)
        or len(set(fixed)) != len(fixed)
        or len(fixed) not in (0, 2, 5, 7)
    ):
        raise ValueError(
            "fixed cards: none, the player's two, + the flop, or + the whole board, from the deck"
        )
    # a fixed flop (board) starts the round at the flop (river): the player checked before
    workers = max(1, min(workers, rounds))
    seqs = np.random.SeedSequence(seed).spawn(workers)
    shares = _shares(rounds, workers)
    total = SimTally.zero()
    if workers == 1:
        import multiprocessing as mp

        counter = mp.Value("q", 0) if progress else None
        _init(table, strategy, deck, fixed, counter)
        watcher = _Watcher(counter, rounds, progress) if progress else None
        try:
            total.add(_work(seqs[0], shares[0], batch))
        finally:
            if watcher:
                watcher.stop()
        return total
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    counter = ctx.Value("q", 0)
    watcher = _Watcher(counter, rounds, progress) if progress else None
    try:
        with ProcessPoolExecutor(
            workers,
            mp_context=ctx,
            initializer=_init,
            initargs=(table, strategy, deck, fixed, counter),
        ) as pool:
            futures = [pool.submit(_work, seqs[w], shares[w], batch) for w in range(workers)]
            for fut in futures:
                total.add(fut.result())
    finally:
        if watcher:
            watcher.stop()
    return total


class _Watcher:
    """Calls ``progress(done, total)`` from a thread while workers play."""

    def __init__(self, counter: Any, total: int, progress: Progress | None) -> None:
        self.counter, self.total, self.progress = counter, total, progress
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(0.25):
            if self.progress:
                self.progress(int(self.counter.value), self.total)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        if self.progress:
            self.progress(int(self.counter.value), self.total)


def _prepare_optimal(strat: OptimalStrategy, deck: tuple[int, ...], fixed: tuple[int, ...]) -> None:
    """Load (or compute) the optimal strategy's tables once, before the workers fork: the
    analysis for pre-flop and flop decisions, the river table for river decisions (with
    a fixed flop, only the classes of its boards)."""
    if len(fixed) < 5:
        strat.get_analysis()
    if deck != FULL_DECK or strat.deck != FULL_DECK:
        return
    if len(fixed) < 5:
        strat.get_river_table()
        return
    rest = np.array([c for c in FULL_DECK if c not in fixed], np.int64)
    turn_river = rest[np.array(list(combinations(range(len(rest)), 2)))]
    if len(fixed) == 7:
        turn_river = np.array([fixed[5:7]], np.int64)
    boards = np.concatenate([np.broadcast_to(fixed[2:5], (len(turn_river), 3)), turn_river], 1)
    strat.prepare_river(boards)


def settled_cell_values(tally: SimTally, unit: int) -> dict[str, list[list[list[Fraction]]]]:
    """Per cell, what each spot returned per Ante, as ``settle`` paid it (0 for empty cells)."""
    out: dict[str, list[list[list[Fraction]]]] = {}
    for f, name in enumerate(FIELDS):
        out[name] = [
            [
                [
                    Fraction(int(tally.money[m, k, o, f]), unit * int(tally.counts[m, k, o]))
                    if tally.counts[m, k, o]
                    else Fraction(0)
                    for o in range(N_OUTCOMES)
                ]
                for k in range(N_CATEGORIES)
            ]
            for m in range(N_MULTIPLES)
        ]
    return out


def simulate(
    table: Paytable,
    rounds: int,
    strategy: str | Strategy = "simple",
    *,
    seed: int = 0,
    workers: int = 1,
    batch: int = DEFAULT_BATCH,
    deck: Sequence[int] = FULL_DECK,
    fixed: Sequence[int] = (),
    progress: Progress | None = None,
) -> ParReport:
    """Simulate and report: the figures of :func:`engine.maths.par.par` plus rounds and intervals.

    ``fixed``: the player's two cards, optionally followed by the flop, or by the whole
    board: a sub-problem.  With a fixed flop the player is taken to have checked
    pre-flop; with a fixed board, to have checked pre-flop and on the flop.

    ``extra["ci95"]`` / ``extra["ci99"]`` map each RTP to its interval ``[low, high]``.
    """
    t0 = time.perf_counter()
    deck = tuple(sorted(set(int(c) for c in deck)))
    strat = (
        get_strategy(strategy, table, deck if deck != FULL_DECK else None)
        if isinstance(strategy, str)
        else strategy
    )
    if isinstance(strat, OptimalStrategy):
        _prepare_optimal(strat, deck, tuple(int(c) for c in fixed))
    tally = run(
        table,
        rounds,
        strat,
        seed=seed,
        workers=workers,
        batch=batch,
        deck=deck,
        fixed=fixed,
        progress=progress,
    )
    if tally.breakage:
        raise AssertionError(f"settlement broke {tally.breakage} units at whole-cent stakes")
    unit = table.pay_denominator
    values = settled_cell_values(tally, unit)
    main = main_figures(tally.counts, values, table, exact=False)
    cats = tally.counts.sum(axis=(0, 2))
    trips = trips_figures(cats, table, exact=False)
    trips["rtp"] = float(
        Fraction(int(tally.money[..., FIELDS.index("trips")].sum()), unit * tally.rounds)
    )
    arrays = {
        f: np.array([[[float(x) for x in r] for r in mm] for mm in values[f]]) for f in FIELDS
    }
    ci = {
        z_name: {k: [lo, hi] for k, (_, lo, hi) in confidence(tally.counts, arrays, z).items()}
        for z_name, z in (("ci95", Z95), ("ci99", Z99))
    }
    elapsed = time.perf_counter() - t0
    name = strat.name
    return ParReport(
        strategy=name,
        paytable_sha256=table.sha256,
        paytable_name=f"{table.name} {table.version}",
        exact=False,
        main=main,
        trips=trips,
        preflop={},
        seconds=round(elapsed, 3),
        deck_size=len(deck),
        rounds=tally.rounds,
        workers=workers,
        seed=seed,
        extra={
            **ci,
            "rounds_per_second": round(tally.rounds / elapsed),
            "fixed_cards": list(fixed),
            "counts": tally.counts.tolist(),
        },
    )


__all__ = ["MULTIPLES", "SimTally", "deal", "play_batch", "run", "settled_cell_values", "simulate"]
