"""The main game's exact analysis: every flop class, every hand, every deal, counted.

:func:`analyse_main` runs the flop kernel (:func:`engine.maths.par_flop.analyse_flop`)
over one flop per suit-symmetry class, in worker processes, and sums the cell counts per
starting-hand class into a :class:`MainAnalysis`; :func:`build_report` turns an analysis
and the seven-card category counts into a :class:`ParReport`.  Nothing here reads or
writes files: the cache is :mod:`engine.maths.cache`.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np

from engine.maths.par_baseline import ParBaseline, flop_digest
from engine.maths.par_flop import (
    N_CATEGORIES,
    N_OUTCOMES,
    MainParams,
    RuleStrategy,
    analyse_flop,
    main_params,
)
from engine.maths.par_report import (
    DECISION_NAMES,
    MULTIPLES,
    N_MULTIPLES,
    ParReport,
    cell_values,
    main_figures,
    trips_figures,
)
from engine.maths.par_split import SplitFlop, evaluate_split, split_flop
from engine.maths.par_tables import (
    FULL_DECK,
    deck_symmetry,
    flop_index,
    flop_index52,
    pair_index52,
    pair_index_table,
)
from engine.uth.paytable import Paytable

Progress = Callable[[int, int], None]
"""Called with (flop classes done, flop classes in all)."""

N_FLOPS52 = 22100


@dataclass
class MainAnalysis:
    """The main game's exact counts for one strategy, per starting-hand class.

    ``check_counts[c, j, k, o]``: over every deal of the hands of class ``c`` played
    *without* a pre-flop raise, the number ending in Play multiple ``j`` (0 fold, 1, 2),
    final category ``k`` and outcome ``o``.  The same deals with a pre-flop raise end in
    ``check_counts[c].sum(axis=0)`` (the outcome does not depend on the decisions).
    ``preflop[c]``: the strategy's pre-flop multiple (4, 3 or 0).  ``flop_bits``: the
    flop decision of every (hand, flop), packed (index ``pair_index52 * 22100 +
    flop_index52``), for strategies whose flop play comes from the analysis.
    """

    strategy: str
    params_key: str
    deck: tuple[int, ...]
    class_names: tuple[str, ...]
    class_sizes: np.ndarray
    class_reps: np.ndarray
    hand_class: np.ndarray
    check_counts: np.ndarray
    preflop: np.ndarray
    category_counts: np.ndarray
    seconds: float
    flop_bits: np.ndarray | None = None

    @property
    def deals_per_hand(self) -> int:
        """Deals per player hand: flops x turn-river pairs x dealer hands."""
        n = len(self.deck)
        return comb(n - 2, 3) * comb(n - 5, 2) * comb(n - 7, 2)

    @property
    def raise_counts(self) -> np.ndarray:
        return self.check_counts.sum(axis=1)

    def option_ev(self, values: dict[str, Any]) -> list[dict[str, Fraction]]:
        """Per class: exact net EV (Antes per hand) of 4x, 3x and check."""
        nets, unit = _net_table(values)
        raise_counts = self.raise_counts.tolist()
        check_counts = self.check_counts.tolist()
        out = []
        for c in range(len(self.class_names)):
            denom = int(self.class_sizes[c]) * self.deals_per_hand * unit
            evs = {}
            for label, cells in (
                ("4x", {4: raise_counts[c]}),
                ("3x", {3: raise_counts[c]}),
                ("check", {j: check_counts[c][j] for j in range(3)}),
            ):
                total = sum(_net_sum(cnt, nets[MULTIPLES.index(m)]) for m, cnt in cells.items())
                evs[label] = Fraction(total, denom)
            out.append(evs)
        return out

    def game_counts(self) -> np.ndarray:
        """Cell counts ``(5, 10, 6)`` of the whole game (every hand, every deal)."""
        out = np.zeros((N_MULTIPLES, N_CATEGORIES, N_OUTCOMES), np.int64)
        for c in range(len(self.class_names)):
            m = int(self.preflop[c])
            if m:
                out[MULTIPLES.index(m)] += self.raise_counts[c]
            else:
                out[:3] += self.check_counts[c]
        return out

    def preflop_multiples(self, holes: np.ndarray) -> np.ndarray:
        holes = np.asarray(holes, dtype=np.intp).reshape(-1, 2)
        cls = self.hand_class[pair_index52(holes[:, 0], holes[:, 1])]
        if (cls < 0).any():
            raise ValueError("a hand outside the analysed deck")
        return self.preflop[cls].astype(np.int8)

    def flop_bets(self, holes: np.ndarray, flops: np.ndarray) -> np.ndarray:
        if self.flop_bits is None:
            raise ValueError(f"the {self.strategy} analysis has no flop table")
        holes = np.asarray(holes, dtype=np.intp).reshape(-1, 2)
        idx = pair_index52(holes[:, 0], holes[:, 1]) * N_FLOPS52 + flop_index52(
            np.asarray(flops).reshape(-1, 3)
        )
        return ((self.flop_bits[idx >> 3] >> (7 - (idx & 7))) & 1).astype(bool)


def _net_table(values: dict[str, Any]) -> tuple[list[list[list[int]]], int]:
    """The main bets' net return of every cell ``[multiple index][k][o]`` as integers over
    one common denominator, and that denominator."""
    nets = [
        [
            [
                values["ante"][j][k][o]
                + values["blind"][j][k][o]
                + values["play"][j][k][o]
                - 2
                - values["stake_play"][j][k][o]
                for o in range(N_OUTCOMES)
            ]
            for k in range(N_CATEGORIES)
        ]
        for j in range(N_MULTIPLES)
    ]
    unit = math.lcm(*(Fraction(x).denominator for a in nets for b in a for x in b))
    return [[[int(Fraction(x) * unit) for x in b] for b in a] for a in nets], unit


def _net_sum(cnt: list[list[int]], nets: list[list[int]]) -> int:
    """Sum of the net returns ``nets[k][o]`` over counts ``cnt[k][o]``."""
    return sum(
        n * v
        for row, vals in zip(cnt, nets, strict=True)
        for n, v in zip(row, vals, strict=True)
        if n
    )


# worker state (set in the parent before forking, or by the initializer)
_W: dict[str, Any] = {}


def _init_worker(
    deck: tuple[int, ...], params: MainParams, strategy: Any, split: bool = False
) -> None:
    _W.update(deck=deck, params=params, strategy=strategy, sym=deck_symmetry(deck), split=split)


@dataclass
class FlopSums:
    """The kernel's results over some canonical flops (indices into
    :func:`engine.maths.par_tables.deck_symmetry`'s flops): counts and category counts,
    weighted by the flops' class sizes and summed apart for the flops without (``[0]``)
    and with (``[1]``) a pay-dependent river spot; each flop's packed 2x decisions; the
    :func:`engine.maths.par_baseline.flop_digest` of each flop without such a spot; the
    flops with one (``dependent``, optimal play only)."""

    acc: np.ndarray  # (2, classes * 3, 60)
    cats: np.ndarray  # (2, 10)
    decisions: dict[int, np.ndarray]
    digests: dict[int, int]
    dependent: set[int]
    splits: dict[int, SplitFlop]

    @classmethod
    def zero(cls, n_classes: int) -> FlopSums:
        return cls(
            np.zeros((2, n_classes * 3, N_CATEGORIES * N_OUTCOMES), np.int64),
            np.zeros((2, N_CATEGORIES), np.int64),
            {},
            {},
            set(),
            {},
        )

    def add(self, other: FlopSums) -> None:
        self.acc += other.acc
        self.cats += other.cats
        self.decisions.update(other.decisions)
        self.digests.update(other.digests)
        self.dependent |= other.dependent
        self.splits.update(other.splits)


def _run_flops(indices: Sequence[int]) -> FlopSums:
    deck, params, strategy, sym = _W["deck"], _W["params"], _W["strategy"], _W["sym"]
    n_classes = len(sym.class_names)
    out = FlopSums.zero(n_classes)
    for j in indices:
        f0, f1, f2 = (int(c) for c in sym.flops[j])
        flop = (f0, f1, f2)
        w = int(sym.flop_weights[j])
        res = analyse_flop(flop, deck, params, strategy, sym.card_maps)
        cls = sym.hand_class[pair_index52(res.holes[:, 0], res.holes[:, 1])]
        mp = np.where(res.flop_bet[:, None], 2, np.array([[0, 1]]))
        rows = (cls[:, None] * 3 + mp).ravel()
        acc = np.zeros(out.acc.shape[1:], np.int64)
        np.add.at(acc, rows, res.cells.reshape(len(rows), -1) * w)
        side = int(res.pay_dependent)
        out.acc[side] += acc
        out.cats[side] += res.category_counts * w
        out.decisions[j] = np.packbits(res.flop_bet)
        if res.pay_dependent:
            out.dependent.add(j)
            if _W["split"]:
                out.splits[j] = _split_checked(flop, w, cls, acc, res.flop_bet)
        else:
            out.digests[j] = flop_digest(acc)
    return out


def _split_checked(
    flop: tuple[int, int, int], w: int, cls: np.ndarray, acc: np.ndarray, flop_bet: np.ndarray
) -> SplitFlop:
    """The split of a pay-dependent flop, checked against its whole analysis."""
    deck, params, sym = _W["deck"], _W["params"], _W["sym"]
    n_classes = len(sym.class_names)
    split = split_flop(flop, deck, params, sym.card_maps, w, cls, n_classes)
    again, bet = evaluate_split(flop, deck, params, sym.card_maps, split, w, cls, n_classes)
    if not (np.array_equal(again + split.fixed_counts, acc) and np.array_equal(bet, flop_bet)):
        raise AssertionError(f"the split of flop {flop} differs from its whole analysis")
    return split


def analyse_flops(
    deck: tuple[int, ...],
    params: MainParams,
    rules: RuleStrategy | None,
    flops: Sequence[int],
    workers: int | None,
    progress: Progress | None,
    split: bool = False,
) -> FlopSums:
    """Run the flop kernel over the canonical flops ``flops`` of ``deck``, in ``workers``
    processes (default all cores); ``rules`` None for optimal play; ``split``: also split
    each pay-dependent flop (:func:`engine.maths.par_split.split_flop`)."""
    sym = deck_symmetry(deck)
    flop_index(len(deck) - 3)  # build before forking: the workers share it
    n_flops = len(flops)
    total = FlopSums.zero(len(sym.class_names))
    if not n_flops:
        return total
    workers = max(1, min(workers or os.cpu_count() or 1, n_flops))
    chunk = max(1, min(24, n_flops // (workers * 8) or 1))
    chunks = [list(flops[i : i + chunk]) for i in range(0, n_flops, chunk)]
    done = 0

    def absorb(result: FlopSums, size: int) -> None:
        nonlocal done
        total.add(result)
        done += size
        if progress:
            progress(done, n_flops)

    if workers == 1:
        _init_worker(deck, params, rules, split)
        for ch in chunks:
            absorb(_run_flops(ch), len(ch))
    else:
        import multiprocessing as mp

        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
        with ProcessPoolExecutor(
            workers,
            mp_context=ctx,
            initializer=_init_worker,
            initargs=(deck, params, rules, split),
        ) as pool:
            futures = {pool.submit(_run_flops, ch): len(ch) for ch in chunks}
            for fut in as_completed(futures):
                absorb(fut.result(), futures[fut])
    return total


def analyse_main(
    table: Paytable,
    strategy: str,
    rules: RuleStrategy | None,
    *,
    deck: tuple[int, ...],
    workers: int | None = None,
    progress: Progress | None = None,
    baseline: ParBaseline | None = None,
) -> MainAnalysis:
    """The main game's exact analysis for ``table``, computed (a minute on the full deck,
    seconds with a ``baseline``).

    ``strategy`` names the play; ``rules`` is that rule strategy, or None for optimal play
    (the pre-flop and flop decisions are then derived from the exact values).  ``deck``:
    the sorted cards in play.  ``workers`` processes (default: all cores).  ``baseline``
    (optimal play, full deck, the table's qualifier): only the pay-dependent boards of its
    pay-dependent flops are analysed (:func:`engine.maths.par_split.evaluate_split`), the
    rest is read from it.
    """
    params = main_params(table)
    t0 = time.perf_counter()
    n_flops = len(deck_symmetry(deck).flops)
    if baseline is None:
        sums = analyse_flops(deck, params, rules, range(n_flops), workers, progress)
    else:
        if rules is not None or deck != FULL_DECK or baseline.qualify != params.qualify:
            raise ValueError("a baseline serves optimal play on the full deck, one qualifier")
        sums = _evaluate_splits(params, baseline, progress)
        sums.acc[0] += baseline.check_counts
        sums.cats[0] += baseline.category_counts
        for j in range(n_flops):
            if j not in sums.decisions:
                sums.decisions[j] = baseline.flop_decisions[j]
    return _finish(table, strategy, rules, deck, sums, t0)


def _evaluate_splits(
    params: MainParams, baseline: ParBaseline, progress: Progress | None
) -> FlopSums:
    """The pay-dependent flops of ``baseline`` for ``params``: their counts beyond the
    baseline's and their 2x decisions."""
    sym = deck_symmetry(FULL_DECK)
    n_classes = len(sym.class_names)
    out = FlopSums.zero(n_classes)
    n = len(baseline.dependent)
    for done, (j, split) in enumerate(
        zip(baseline.dependent.tolist(), baseline.splits, strict=True)
    ):
        f0, f1, f2 = (int(c) for c in sym.flops[j])
        flop = (f0, f1, f2)
        in_deck = np.ones(52, bool)
        in_deck[list(flop)] = False
        rem = np.flatnonzero(in_deck)
        holes = rem[flop_index(49).pairs]
        cls = sym.hand_class[pair_index52(holes[:, 0], holes[:, 1])]
        w = int(sym.flop_weights[j])
        acc, bet = evaluate_split(flop, FULL_DECK, params, sym.card_maps, split, w, cls, n_classes)
        out.acc[1] += acc
        out.decisions[j] = np.packbits(bet)
        out.dependent.add(j)
        if progress:
            progress(done + 1, n)
    return out


def analyse_with_baseline(
    table: Paytable, *, workers: int | None = None, progress: Progress | None = None
) -> tuple[MainAnalysis, ParBaseline]:
    """The full-deck optimal analysis of ``table``, every flop, and the baseline it yields
    for every paytable of the same qualifier (see :mod:`engine.maths.par_baseline`)."""
    params = main_params(table)
    t0 = time.perf_counter()
    sym = deck_symmetry(FULL_DECK)
    n_flops = len(sym.flops)
    sums = analyse_flops(FULL_DECK, params, None, range(n_flops), workers, progress, split=True)
    dependent = sorted(sums.dependent)
    splits = tuple(sums.splits[j] for j in dependent)
    width = len(next(iter(sums.decisions.values())))
    flop_decisions = np.zeros((n_flops, width), np.uint8)
    digests = np.zeros(n_flops, np.int64)
    for j, bits in sums.decisions.items():
        if j not in sums.dependent:
            flop_decisions[j] = bits
            digests[j] = sums.digests[j]
    baseline = ParBaseline(
        qualify=params.qualify,
        dependent=np.array(dependent, np.int64),
        check_counts=sums.acc[0]
        + sum((x.fixed_counts for x in splits), np.zeros_like(sums.acc[0])),
        category_counts=sums.cats.sum(axis=0),
        flop_decisions=flop_decisions,
        digests=digests,
        splits=splits,
    )
    return _finish(table, "optimal", None, FULL_DECK, sums, t0), baseline


def _finish(
    table: Paytable,
    strategy: str,
    rules: RuleStrategy | None,
    deck: tuple[int, ...],
    sums: FlopSums,
    t0: float,
) -> MainAnalysis:
    """The analysis from the kernel's sums over every flop: pre-flop decisions and tables."""
    params = main_params(table)
    sym = deck_symmetry(deck)
    n_classes = len(sym.class_names)
    check_counts = sums.acc.sum(axis=0).reshape(n_classes, 3, N_CATEGORIES, N_OUTCOMES)
    # each seven-card hand was seen once per flop inside it: C(7, 3) = 35 times
    category_counts = sums.cats.sum(axis=0) // 35
    analysis = MainAnalysis(
        strategy=strategy,
        params_key=params.key,
        deck=deck,
        class_names=sym.class_names,
        class_sizes=sym.class_sizes.copy(),
        class_reps=sym.class_reps.copy(),
        hand_class=sym.hand_class.copy(),
        check_counts=check_counts,
        preflop=np.zeros(n_classes, np.int8),
        category_counts=category_counts,
        seconds=0.0,
    )
    values = cell_values(table)
    if rules is None:
        evs = analysis.option_ev(values)
        pre = []
        for ev in evs:
            best = 0
            if ev["3x"] > ev["check"]:
                best = 3
            if ev["4x"] > max(ev["3x"], ev["check"]):
                best = 4
            pre.append(best)
        analysis.preflop = np.array(pre, np.int8)
        analysis.flop_bits = _flop_table(sym, deck, sums.decisions)
    else:
        analysis.preflop = np.asarray(rules.preflop_batch(sym.class_reps), np.int8)
    analysis.seconds = time.perf_counter() - t0
    return analysis


def _flop_table(sym: Any, deck: tuple[int, ...], flop_dec: dict[int, np.ndarray]) -> np.ndarray:
    """Expand the flop decisions of the canonical flops to every (hand, flop), packed bits."""
    table = np.zeros(1326 * N_FLOPS52, bool)
    m = len(deck) - 3
    pairs = flop_index(m).pairs
    in_deck = np.zeros(52, bool)
    in_deck[list(deck)] = True
    cm = sym.card_maps  # (S, 52)
    pair_of = pair_index_table()
    js = sorted(flop_dec)
    for start in range(0, len(js), 64):
        block = js[start : start + 64]
        flops = sym.flops[block]  # (B, 3)
        mask = np.broadcast_to(in_deck, (len(block), 52)).copy()
        mask[np.arange(len(block))[:, None], flops] = False
        rem = np.flatnonzero(mask.ravel()).reshape(len(block), m) % 52
        holes = rem[:, pairs]  # (B, P, 2)
        dec = np.unpackbits(np.array([flop_dec[j] for j in block]), axis=1)[:, : len(pairs)]
        ph = pair_of[cm[:, holes[..., 0]] * 52 + cm[:, holes[..., 1]]]  # (S, B, P)
        fl = flop_index52(cm[:, flops])  # (S, B)
        idx = ph.astype(np.int64) * N_FLOPS52 + fl[..., None]
        table[idx.ravel()] = np.broadcast_to(dec.astype(bool), idx.shape).ravel()
    return np.packbits(table)


def build_report(
    table: Paytable,
    strategy: str,
    analysis: MainAnalysis,
    deck: tuple[int, ...],
    cats: np.ndarray,
    seconds: float,
) -> ParReport:
    """The exact report of ``table`` under ``strategy`` from its main-game ``analysis`` and
    the seven-card category counts ``cats`` of ``deck``; ``seconds``: the time it took."""
    values = cell_values(table)
    counts = analysis.game_counts()
    main = main_figures(counts, values, table, exact=True)
    trips = trips_figures(cats, table, exact=True)
    evs = analysis.option_ev(values)
    preflop = {
        name: {
            "decision": DECISION_NAMES[int(analysis.preflop[c])]
            if analysis.preflop[c]
            else "check",
            "ev": {k: float(v) for k, v in evs[c].items()},
            "ev_exact": {k: f"{v.numerator}/{v.denominator}" for k, v in evs[c].items()},
        }
        for c, name in enumerate(analysis.class_names)
    }
    return ParReport(
        strategy=strategy,
        paytable_sha256=table.sha256,
        paytable_name=f"{table.name} {table.version}",
        exact=True,
        main=main,
        trips=trips,
        preflop=preflop,
        seconds=round(max(seconds, analysis.seconds), 3),
        deck_size=len(deck),
        extra={"deals": int(counts.sum()), "analysis_seconds": round(analysis.seconds, 3)},
    )
